import Foundation
import Testing
import TestSupport
@testable import MannaKit

/// Prayers in the journal: the rotation rule, edits that keep reminders, the scheduler's
/// queries, and migration 3 from a schema-2 journal.
@Suite struct PrayerJournalTests {
    @Test func theRotationMovesOnByItsSizeAndComesRoundToEveryone() {
        let start = LocalDate(year: 2026, month: 3, day: 8)
        #expect(PrayerRotation.positions(on: start, open: 0) == [])
        #expect(PrayerRotation.positions(on: start, open: 2) == [0, 1])
        // 20520 × 3 mod 7 = 2.
        #expect(PrayerRotation.positions(on: start, open: 7) == [2, 3, 4])
        #expect(PrayerRotation.positions(on: start.adding(days: 1), open: 7) == [5, 6, 0])
        for open in 1...40 {
            let days = (open + 2) / 3
            let seen = Set((0..<days).flatMap { PrayerRotation.positions(on: start.adding(days: $0), open: open) })
            #expect(seen == Set(0..<open), "\(open) prayers")
        }
    }

    @Test func editingRemindersKeepsTheOnesGivenAgain() throws {
        let scratch = try Scratch()
        let path = scratch.path()
        let journal = try Journal(path: path)
        let specs = try Prayer.reminders(["07:30", "sun 09:00"], now: 0, zone: .utc)
        let prayer = try journal.addPrayer(title: "t", body: "", tags: [], reminders: specs, at: 100)
        let before = try journal.reminders(ofPrayer: prayer.uuid)
        try journal.updatePrayer(uuid: prayer.uuid, title: nil, body: nil, tags: nil,
                                 reminders: try Prayer.reminders(["7:30", "1st 08:00"], now: 0, zone: .utc), at: 200)
        let after = try journal.reminders(ofPrayer: prayer.uuid)
        #expect(after.map(\.text) == ["07:30", "1st 08:00"])
        // 07:30 is the same reminder, so what the ledger says about it still holds.
        #expect(after[0].uuid == before[0].uuid)
        #expect(try journal.activeReminders().map(\.spec.description).sorted() == ["07:30", "1st 08:00"])
    }

    @Test func onlyOpenPrayersRemindAndSnooze() throws {
        let scratch = try Scratch()
        let path = scratch.path()
        let journal = try Journal(path: path)
        let open = try journal.addPrayer(title: "open", body: "", tags: [], reminders: try Prayer.reminders(["07:00"], now: 0, zone: .utc), at: 1)
        let answered = try journal.addPrayer(title: "answered", body: "", tags: [], reminders: try Prayer.reminders(["08:00"], now: 0, zone: .utc), at: 1)
        let deleted = try journal.addPrayer(title: "deleted", body: "", tags: [], reminders: try Prayer.reminders(["09:00"], now: 0, zone: .utc), at: 1)
        try journal.markAnswered(uuid: answered.uuid, note: nil, at: 2)
        try journal.setDeleted(uuid: deleted.uuid, true, at: 2)
        for prayer in [open, answered, deleted] { try journal.addSnooze(prayerUUID: prayer.uuid, due: 1000, at: 3) }
        #expect(try journal.activeReminders().map(\.prayerUUID) == [open.uuid])
        #expect(try journal.snoozes(after: 999, upTo: 1000).map(\.prayerUUID) == [open.uuid])
        #expect(try journal.snoozes(after: 1000, upTo: 2000).isEmpty)
        // Restored, it reminds again.
        try journal.setDeleted(uuid: deleted.uuid, false, at: 4)
        #expect(Set(try journal.activeReminders().map(\.prayerUUID)) == [open.uuid, deleted.uuid])
    }

    @Test func theReminderMarkIsKept() throws {
        let scratch = try Scratch()
        let path = scratch.path()
        let journal = try Journal(path: path)
        #expect(try journal.remindersHandledThrough() == nil)
        try journal.setRemindersHandled(through: 500)
        try journal.setRemindersHandled(through: 400)
        #expect(try Journal(path: path).remindersHandledThrough() == 400)
    }

    @Test func aSchemaTwoJournalMigratesWithItsPrayers() throws {
        let scratch = try Scratch()
        let path = scratch.path()
        try Files.makeDirectories(Files.parent(of: path), mode: 0o700)
        do {
            let old = try Database(path: path, mode: .readWriteCreate)
            for migration in Journal.migrations.prefix(2) { try migration.migrate(old) }
            try old.execute("PRAGMA user_version = 2")
            try old.execute("""
                INSERT INTO prayers (uuid, short_id, title, body, tags, created_at, updated_at)
                VALUES ('u1', 'k7m2', 'Kept', 'body', ',family,', 10, 10);
                INSERT INTO reminders (uuid, prayer_uuid, spec, created_at, updated_at) VALUES ('r1', 'u1', '07:30', 10, 10);
                INSERT INTO deliveries VALUES ('prayer', 'r1', '2026-03-08 07:30', 20, 0);
                """)
        }
        let journal = try Journal(path: path)
        #expect(journal.schemaVersion == Journal.migrations.count)
        #expect(try journal.prayer(id: "K7M2")?.title == "Kept")
        #expect(try journal.prayers(.open, tag: "family").map(\.shortID) == ["k7m2"])
        #expect(try journal.activeReminders().map(\.uuid) == ["r1"])
        #expect(try journal.isHandled(Journal.Occurrence(kind: .prayer, key: "r1", label: "2026-03-08 07:30")))
    }
}
