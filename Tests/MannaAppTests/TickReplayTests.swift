// The tick replayed as the timer runs it: every minute for days across clock changes, and
// through a suspend, a clock set back and a zone change. `Tick` itself runs each minute (the
// same code `manna tick` runs), with a recording notifier, so nothing here re-implements it.
import Foundation
import MannaKit
import TestSupport
import Testing

@testable import MannaApp

@Suite struct TickReplayTests {
    static let plan = try! Plan(json: #"{"format": 1, "id": "p", "name": "P", "description": "", "days": [{"day": 1, "readings": ["John 1"]}, {"day": 2, "readings": ["John 2"]}, {"day": 3, "readings": ["John 3"]}]}"#, file: "p")

    /// The tick over `journal` in `zone`, with the morning verse at 07:00.
    static func tick(_ journal: Journal, zone: Zone, plan: (Plan, PlanRun)? = nil, notifier: RecordingNotifier) throws -> Tick {
        let database = try TextDatabase(path: BuiltTexts.path)
        let inputs = TimelineInputs(zone: zone, translation: try database.translation(code: "KJV"),
                                    notifyAt: LocalTime(hour: 7, minute: 0), days: 1, plans: plan.map { [$0] } ?? [])
        return Tick(journal: journal, database: database, inputs: inputs, notifier: notifier, manna: TestHome.manna)
    }

    /// A tick every minute for three days around each zone's clock change (and a year's turn at
    /// UTC+14): the morning verse exactly once a day, at the first minute at or after 07:00,
    /// never late; the plan reminder the same at 02:30, a time that does not exist on the
    /// spring-forward day in New York (then it comes at 03:00).
    @Test(arguments: [
        ("America/New_York", "2026-03-07"), ("America/New_York", "2026-10-31"),
        ("Europe/London", "2026-03-28"), ("Europe/London", "2026-10-24"),
        ("Australia/Lord_Howe", "2026-10-03"), ("Pacific/Kiritimati", "2026-12-30"),
    ])
    func aTickEveryMinuteAcrossClockChanges(zoneName: String, firstDay: String) throws {
        let home = try TestHome(zone: zoneName)
        let zone = try Zone(identifier: zoneName)
        let journal = try home.journal()
        let first = LocalDate(parsing: firstDay)!
        let run = try #require(try journal.startPlan("p", from: first, today: first, remindAt: LocalTime(hour: 2, minute: 30), now: 0))
        var shown: [(Due, Instant)] = []
        let tick = try Self.tick(journal, zone: zone, plan: (Self.plan, run), notifier: home.notifier)
        var now = zone.startOfDay(first)
        let end = zone.startOfDay(first.adding(days: 3))
        while now < end {
            for case .shown(let item) in try tick.run(at: now) {
                shown.append((item, now))
            }
            now += 60
        }
        let days = (0..<3).map { first.adding(days: $0).description }
        #expect(shown.filter { $0.0.occurrence.kind == .verse }.map(\.0.occurrence.label) == days)
        #expect(shown.filter { $0.0.occurrence.kind == .plan }.map(\.0.occurrence.label) == days)
        #expect(home.notifier.shown.count == 6)
        for (item, at) in shown {
            #expect(!item.late)
            #expect(at == item.scheduled, "\(item.occurrence) shown at \(zone.local(at).iso8601), due \(zone.local(item.scheduled).iso8601)")
            let wall = zone.local(at)
            if item.occurrence.kind == .verse { #expect(wall.hour == 7 && wall.minute == 0) }
            // 02:30; on New York's spring-forward day there is no 02:30, and it comes at 03:00.
            if item.occurrence.kind == .plan {
                let skipped = zoneName == "America/New_York" && item.occurrence.label == "2026-03-08"
                #expect((wall.hour, wall.minute) == (skipped ? (3, 0) : (2, 30)), "\(item.occurrence.label) at \(wall.iso8601)")
            }
        }
    }

    /// Asleep three days, a clock set back an hour, a zone change mid-day: each day's verse at
    /// most once, the missed ones never, and the day of waking's once, marked late.
    @Test func suspendClockSetBackAndZoneChange() throws {
        let home = try TestHome()
        let journal = try home.journal()
        let newYork = try Zone(identifier: "America/New_York"), tokyo = try Zone(identifier: "Asia/Tokyo")
        var shown: [String] = []
        func tick(_ text: String, _ zone: Zone) throws {
            for case .shown(let item) in try Self.tick(journal, zone: zone, notifier: home.notifier).run(at: instant(text, zone: zone)) {
                shown.append(item.occurrence.label + (item.late ? " late" : ""))
            }
        }
        try tick("2026-06-01T07:00", newYork)
        try tick("2026-06-04T18:00", newYork)       // three days asleep
        try tick("2026-06-04T17:00", newYork)       // clock set back an hour
        try tick("2026-06-04T18:30", newYork)
        try tick("2026-06-05T07:00", tokyo)         // flew to Tokyo: it is already Jun 5 there, 07:00
        try tick("2026-06-05T07:30", tokyo)
        #expect(shown == ["2026-06-01", "2026-06-04 late", "2026-06-05"])
        #expect(home.notifier.shown.map(\.summary).filter { $0.hasSuffix(" · missed at 07:00") }.count == 1)
    }
}
