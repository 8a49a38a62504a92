import Foundation
import TestSupport
import Testing

@testable import MannaKit

/// The reminders' forecast (issue 31): what it works out, when it vouches, and that every write
/// a reminder's time depends on drops it from the journal, whoever makes it.
@Suite struct ReminderForecastTests {
    let newYork = try! Zone(identifier: "America/New_York")
    func instant(_ text: String) -> Instant { Moment.parse(text, zone: newYork)! }
    func reminder(_ spec: String, since: String = "2026-01-01T00:00") -> ActiveReminder {
        ActiveReminder(uuid: UUID().uuidString, prayerUUID: "p", spec: try! ReminderSpec(parsing: spec), since: instant(since))
    }

    @Test func theNextTimeIsTheFirstAnyReminderComesAfterItsOwnStart() {
        // Tuesday 2026-12-01, 12:00 in New York.
        let now = instant("2026-12-01T12:00")
        let cases: [(reminders: [ActiveReminder], next: String?)] = [
            ([], nil),
            ([reminder("07:30")], "2026-12-02T07:30"),
            ([reminder("07:30"), reminder("21:00")], "2026-12-01T21:00"),
            ([reminder("mon 09:00")], "2026-12-07T09:00"),
            ([reminder("31st 08:00")], "2026-12-31T08:00"),
            ([reminder("2026-11-30 08:00")], nil),
            ([reminder("2027-06-01 08:00")], "2027-06-01T08:00"),
            // Added at 13:00 for 12:30: not before tomorrow, though 12:30 is after now.
            ([reminder("12:30", since: "2026-12-01T13:00")], "2026-12-02T12:30"),
            ([reminder("12:30", since: "2026-12-01T13:00"), reminder("12:30")], "2026-12-01T12:30"),
        ]
        for (reminders, next) in cases {
            let forecast = ReminderForecast(reminders: reminders, after: now, zone: newYork)
            #expect(forecast.next == next.map(instant), "\(reminders.map(\.spec.description))")
            #expect(forecast.after == now)
        }
    }

    @Test func theSpecsAreEachOnceInTheirOrder() {
        let reminders = [reminder("21:00"), reminder("07:30"), reminder("21:00"), reminder("mon 09:00"), reminder("07:30")]
        let forecast = ReminderForecast(reminders: reminders, after: instant("2026-12-01T12:00"), zone: newYork)
        #expect(forecast.specs.map(\.description) == ["07:30", "21:00", "mon 09:00"])
    }

    @Test func itVouchesOnlyForAWindowItCovers() {
        let forecast = ReminderForecast(reminders: [reminder("21:00")], after: instant("2026-12-01T12:00"), zone: newYork)
        let cases: [(after: String, now: String, zone: Zone, vouches: Bool)] = [
            ("2026-12-01T12:00", "2026-12-01T12:01", newYork, true),
            ("2026-12-01T20:59", "2026-12-01T20:59", newYork, true),
            // The next time has come.
            ("2026-12-01T20:59", "2026-12-01T21:00", newYork, false),
            // A window from before it was worked out (a reminder given back, a replay).
            ("2026-12-01T11:59", "2026-12-01T12:01", newYork, false),
            // Another zone.
            ("2026-12-01T12:00", "2026-12-01T12:01", .utc, false),
        ]
        for (after, now, zone, vouches) in cases {
            #expect(forecast.vouches(after: instant(after), upTo: instant(now), zone: zone) == vouches, "\(after) \(now) \(zone.identifier)")
        }
        let none = ReminderForecast(reminders: [], after: instant("2026-12-01T12:00"), zone: newYork)
        #expect(none.vouches(after: instant("2026-12-01T12:00"), upTo: instant("2036-12-01T12:00"), zone: newYork))
    }

    /// Each write, by the journal's own methods and by SQL as sync and import write: a forecast
    /// recorded before it is gone after it; a write nothing depends on leaves it.
    @Test func everyWriteARemindersTimeDependsOnDropsTheForecast() throws {
        let writes: [(name: String, drops: Bool, write: (Journal, Prayer) throws -> Void)] = [
            ("a prayer added", true, { journal, _ in _ = try journal.addPrayer(title: "new", body: "", tags: [], reminders: [], at: 300) }),
            ("a reminder added", true, { journal, prayer in
                try journal.updatePrayer(uuid: prayer.uuid, title: nil, body: nil, tags: nil,
                                         reminders: [try ReminderSpec(parsing: "07:30"), try ReminderSpec(parsing: "22:00")], at: 300)
            }),
            ("a reminder moved", true, { journal, prayer in
                try journal.updatePrayer(uuid: prayer.uuid, title: nil, body: nil, tags: nil, reminders: [try ReminderSpec(parsing: "08:00")], at: 300)
            }),
            ("a prayer answered", true, { journal, prayer in try journal.markAnswered(uuid: prayer.uuid, note: nil, at: 300) }),
            ("a prayer deleted", true, { journal, prayer in try journal.setDeleted(uuid: prayer.uuid, true, at: 300) }),
            ("a reminder's time set by SQL", true, { journal, _ in try journal.database.execute("UPDATE reminders SET spec = '09:00'") }),
            ("a reminder removed by SQL", true, { journal, _ in try journal.database.execute("DELETE FROM reminders") }),
            ("a reminder inserted by SQL", true, { journal, prayer in
                try journal.database.execute("INSERT INTO reminders (uuid, prayer_uuid, spec, created_at, updated_at) VALUES ('r2', '\(prayer.uuid)', '10:00', 1, 1)")
            }),
            ("a prayer removed by SQL", true, { journal, _ in try journal.database.execute("DELETE FROM reminders; DELETE FROM prayers") }),
            ("a prayer reopened by SQL", true, { journal, _ in try journal.database.execute("UPDATE prayers SET answered_at = NULL") }),
            ("a prayer's title edited", false, { journal, prayer in
                try journal.updatePrayer(uuid: prayer.uuid, title: "renamed", body: nil, tags: nil, reminders: nil, at: 300)
            }),
            ("a prayer marked prayed", false, { journal, prayer in try journal.recordPrayed(uuid: prayer.uuid, at: 300) }),
        ]
        for (name, drops, write) in writes {
            let scratch = try Scratch()
            let journal = try Journal(path: scratch.file("journal.sqlite"))
            let prayer = try journal.addPrayer(title: "t", body: "", tags: [], reminders: [try ReminderSpec(parsing: "07:30")], at: 100)
            _ = try journal.activeReminders { ReminderForecast(reminders: $0, after: 200, zone: newYork) }
            try #require(try journal.reminderForecast()?.specs.map(\.description) == ["07:30"])
            try write(journal, prayer)
            #expect((try journal.reminderForecast() == nil) == drops, "\(name)")
        }
    }
}
