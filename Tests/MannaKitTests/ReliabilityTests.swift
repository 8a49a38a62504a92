import Foundation
import Testing
@testable import MannaKit

/// Properties that must hold under stress: whole timelines for readers during rewrites,
/// the scheduler replayed minute by minute across clock changes.
@Suite struct ReliabilityTests {
    static let scale = Int(ProcessInfo.processInfo.environment["MANNA_RELIABILITY_SCALE"] ?? "") ?? 1

    /// A folder the caller removes, for aTickEveryMinuteAcrossClockChanges (moving to
    /// MannaAppTests); the others take a Scratch.
    func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("manna-reliability-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A reader parses the timeline 10,000 times while it is rewritten 1,000 times: every read
    /// is a whole timeline (temp file, fsync, rename).
    @Test func readersNeverSeeAPartialTimeline() throws {
        let scratch = try Scratch("reliability")
        let path = scratch.file("timeline.json")
        let database = BuiltTexts.database
        let zone = try Zone(identifier: "Europe/London")
        let inputs = TimelineInputs(zone: zone, translation: try database.translation(code: "KJV"),
                                    notifyAt: LocalTime(hour: 7, minute: 0), days: 7, plan: nil)
        // Two different timelines to alternate between, so every write changes the file.
        let start = Moment.parse("2026-03-28T12:00:00Z", zone: .utc)!
        let versions = try [0, 1].map { try Timeline.entries(now: start + $0 * 86_400, inputs: inputs, database: database) }
        try Timeline.write(entries: versions[0], zone: zone, now: start, to: path)

        let writes = 1_000 * Self.scale
        let reads = 10_000 * Self.scale
        let done = Flag()
        let writer = Thread {
            for index in 0..<writes { try! Timeline.write(entries: versions[(index + 1) % 2], zone: zone, now: start, to: path) }
            done.set()
        }
        writer.start()
        var parsed = 0
        var entryDates: Set<String> = []
        while parsed < reads || !done.isSet {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "read \(parsed) was not a whole timeline")
            let entries = try #require(root["entries"] as? [[String: Any]])
            #expect(entries.count == 7)
            entryDates.insert(entries[0]["date"] as? String ?? "")
            parsed += 1
        }
        #expect(entryDates == ["2026-03-28", "2026-03-29"])
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: scratch.path)
        #expect(leftovers == ["timeline.json"])
    }

    /// A tick every minute for two days around each zone's clock change (and a year's turn at
    /// UTC+14): the morning verse exactly once a day, at the first minute at or after 07:00,
    /// never late; the plan reminder the same at 02:30, a time that does not exist on the
    /// spring-forward day in New York (then it comes at 03:00).
    @Test(arguments: [
        ("America/New_York", "2026-03-07"), ("America/New_York", "2026-10-31"),
        ("Europe/London", "2026-03-28"), ("Europe/London", "2026-10-24"),
        ("Australia/Lord_Howe", "2026-10-03"), ("Pacific/Kiritimati", "2026-12-30"),
    ])
    func aTickEveryMinuteAcrossClockChanges(zoneName: String, firstDay: String) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let zone = try Zone(identifier: zoneName)
        let journal = try Journal(path: directory.appendingPathComponent("journal.sqlite").path)
        let first = LocalDate(parsing: firstDay)!
        let plan = try Plan(json: #"{"format": 1, "id": "p", "name": "P", "description": "", "days": [{"day": 1, "readings": ["John 1"]}, {"day": 2, "readings": ["John 2"]}, {"day": 3, "readings": ["John 3"]}]}"#, file: "p")
        let run = try journal.startPlan("p", from: first, today: first, remindAt: LocalTime(hour: 2, minute: 30), now: 0)
        var shown: [(Due, Instant)] = []
        var now = zone.startOfDay(first)
        let end = zone.startOfDay(first.adding(days: 3))
        while now < end {
            var due: [Due] = []
            if let verse = Scheduler.morningVerse(now: now, zone: zone, at: LocalTime(hour: 7, minute: 0)) { due.append(verse) }
            if let reading = Scheduler.planReminder(now: now, zone: zone, run: run, plan: plan) { due.append(reading) }
            for outcome in try Scheduler.deliver(due, journal: journal, now: now, show: { _ in nil }) {
                if case .shown(let item) = outcome { shown.append((item, now)) }
            }
            now += 60
        }
        let verses = shown.filter { $0.0.occurrence.kind == .verse }
        let readings = shown.filter { $0.0.occurrence.kind == .plan }
        let days = (0..<3).map { first.adding(days: $0).description }
        #expect(verses.map(\.0.occurrence.label) == days)
        #expect(readings.map(\.0.occurrence.label) == days)
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
        let scratch = try Scratch("reliability")
        let journal = try Journal(path: scratch.file("journal.sqlite"))
        let newYork = try Zone(identifier: "America/New_York"), tokyo = try Zone(identifier: "Asia/Tokyo")
        let seven = LocalTime(hour: 7, minute: 0)
        var shown: [String] = []
        func tick(_ text: String, _ zone: Zone) throws {
            let now = Moment.parse(text, zone: zone)!
            let due = [Scheduler.morningVerse(now: now, zone: zone, at: seven)].compactMap { $0 }
            for case .shown(let item) in try Scheduler.deliver(due, journal: journal, now: now, show: { _ in nil }) {
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
    }
}
