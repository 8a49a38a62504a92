import Foundation
import TestSupport
import Testing
@testable import MannaKit

/// Properties that must hold under stress: whole timelines for readers during rewrites. (The
/// tick replayed minute by minute is in MannaAppTests, TickReplayTests.)
@Suite struct ReliabilityTests {
    static let scale = Int(ProcessInfo.processInfo.environment["MANNA_RELIABILITY_SCALE"] ?? "") ?? 1

    /// A reader parses the timeline 10,000 times while it is rewritten 1,000 times: every read
    /// is a whole timeline (temp file, fsync, rename).
    @Test func readersNeverSeeAPartialTimeline() throws {
        let scratch = try Scratch("reliability")
        let path = scratch.file("timeline.json")
        let database = BuiltTexts.database
        let zone = try Zone(identifier: "Europe/London")
        let inputs = TimelineInputs(zone: zone, translation: try database.translation(code: "KJV"),
                                    notifyAt: LocalTime(hour: 7, minute: 0), days: 7)
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
}
