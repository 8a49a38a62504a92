import Foundation
import Testing
import TestSupport

/// Timelines for fixed moments and zones, compared with golden files in Golden/.
/// To regenerate after an intended change: MANNA_UPDATE_GOLDEN=1 swift test --skip-build --filter TimelineTests
@Suite struct TimelineTests {
    static let cases: [(zone: String, now: String, name: String)] = [
        ("America/New_York", "2026-03-08T12:00", "new-york-2026-03-08"),     // 23-hour day
        ("America/New_York", "2026-11-01T12:00", "new-york-2026-11-01"),     // 25-hour day
        ("Europe/London", "2026-03-29T12:00", "london-2026-03-29"),
        ("Europe/London", "2026-10-25T12:00", "london-2026-10-25"),
        ("Australia/Lord_Howe", "2026-10-04T12:00", "lord-howe-2026-10-04"), // half-hour DST
        ("Pacific/Kiritimati", "2026-12-31T12:00", "kiritimati-2026-12-31"), // UTC+14, the year's turn
        ("UTC", "2028-02-28T12:00", "utc-2028-02-28"),                       // Feb 29 has its own verse
        ("Europe/London", "2026-12-31T23:30", "london-2026-12-31"),          // Dec 31 into the new year
    ]

    @Test(arguments: cases.map(\.name))
    func timelineMatchesItsGoldenFile(name: String) throws {
        let (zone, now, _) = Self.cases.first { $0.name == name }!
        precondition(Manna.textDatabaseReady)
        var environment = ["TZ": zone]
        var home: TemporaryHome?
        if name == "new-york-2026-03-08" {
            // With a reading plan, to pin plan steps too, and a second one from March 10th, to
            // pin two plans side by side and one not begun. (The config's plan moves into the
            // journal at the real clock, after this --now: nt-90 counts as started first.)
            home = try TemporaryHome(config: "plan = bible-in-a-year\nplan_start = 2026-03-01\n")
            environment["HOME"] = home!.path
            let second = Manna.run(["plan", "start", "nt-90", "--from", "2026-03-10", "--remind", "21:00", "--now", "2026-03-08T09:00"],
                                   environment: environment)
            #expect(second.status == 0, "\(second.stderr)")
        }
        let run = Manna.run(["timeline", "--print", "--now", now], environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        let golden = URL(fileURLWithPath: Manna.root + "/Tests/EndToEndTests/Golden/timeline-\(name).json")
        if ProcessInfo.processInfo.environment["MANNA_UPDATE_GOLDEN"] == "1" {
            try run.stdout.write(to: golden, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: golden, encoding: .utf8)
        #expect(run.stdout == expected, "\(diff(expected, run.stdout))")
    }

    /// Every golden timeline satisfies the published schema (docs/timeline.schema.json), checked
    /// by an independent validator (Debian python3-jsonschema).
    @Test(.needs(.jsonschema)) func goldenTimelinesMatchTheSchema() throws {
        let script = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            jsonschema.Draft202012Validator.check_schema(schema)
            for path in sys.argv[2:]:
                jsonschema.validate(json.load(open(path)), schema, cls=jsonschema.Draft202012Validator)
            print(len(sys.argv) - 2)
            """
        let checked = try Programs.run(try #require(TestEnvironment.jsonschemaPython), ["-c", script, Manna.root + "/docs/timeline.schema.json"]
                                           + Self.cases.map { Manna.root + "/Tests/EndToEndTests/Golden/timeline-\($0.name).json" },
                                       environment: ProcessInfo.processInfo.environment)
        #expect(checked.status == 0, "\(checked.stderr)")
        let output = checked.stdout
        #expect(output == "\(Self.cases.count)\n")
    }

    @Test func entriesStartAtEachLocalMidnightWithItsOffset() throws {
        let run = manna("timeline", "--print", "--now", "2026-03-08T12:00", environment: ["TZ": "America/New_York"])
        let root = try #require(Manna.json(run) as? [String: Any])
        #expect(root["time_zone"] as? String == "America/New_York")
        #expect((root["policy"] as? [String: Any])?["after"] as? String == "2026-03-09T00:00:00-04:00")
        let entries = try #require(root["entries"] as? [[String: Any]])
        #expect(entries.count == 7)
        #expect(entries.prefix(2).map { $0["start"] as? String } == ["2026-03-08T00:00:00-05:00", "2026-03-09T00:00:00-04:00"])
        #expect(entries.allSatisfy { ($0["reminders"] as? [[String: Any]])?.first?["time"] as? String == "07:00" })
    }

    @Test func aBogusZoneIsReportedNotTreatedAsUTC() {
        precondition(Manna.textDatabaseReady)
        let run = Manna.run(["timeline", "--print"], environment: ["TZ": "Mars/Olympus_Mons"])
        #expect(run.status == 64)
        #expect(run.stderr == "manna: unknown time zone 'Mars/Olympus_Mons': use a name from /usr/share/zoneinfo, like Europe/London or America/New_York\n")
    }

    @Test func theTimelineIsWrittenAtomicallyAndOnlyWhenItChanges() throws {
        let home = try TemporaryHome()
        let environment = ["HOME": home.path, "TZ": "Europe/London"]
        #expect(manna("timeline", "--now", "2026-06-01T08:00", environment: environment).status == 0)
        let file = home.timeline
        let first = try String(contentsOf: file, encoding: .utf8)
        #expect(first.contains("\"generated_at\": \"2026-06-01T08:00:00+01:00\""))
        // Same day, same content: the file is left alone (its generated_at stays).
        #expect(manna("timeline", "--now", "2026-06-01T09:00", environment: environment).status == 0)
        #expect(try String(contentsOf: file, encoding: .utf8) == first)
        // The next day the content changes.
        #expect(manna("timeline", "--now", "2026-06-02T00:01", environment: environment).status == 0)
        let next = try String(contentsOf: file, encoding: .utf8)
        #expect(next != first && next.contains("\"date\": \"2026-06-08\""))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)
        #expect(leftovers.sorted() == ["prompt.tsv", "timeline.json"])
    }

    /// Beside the timeline, the prompt line of each of its days, for the shell snippets.
    @Test func thePromptLinesFollowTheTimeline() throws {
        let home = try TemporaryHome()
        let environment = ["HOME": home.path, "TZ": "Europe/London"]
        #expect(manna("timeline", "--now", "2026-12-24T08:00", environment: environment).status == 0)
        let lines = try String(contentsOfFile: home.path + "/.cache/manna/prompt.tsv", encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 7)
        // Each day's first instant in seconds since 1970 (midnight in London), its date, its line.
        #expect(lines[0].hasPrefix("1798070400\t2026-12-24\tIsaiah 9:6\tIsaiah 9:6: For unto us a child is born"))
        #expect(lines[1].hasPrefix("1798156800\t2026-12-25\tLuke 2:10-11\tLuke 2:10-11: And the angel said unto them"))
        #expect(lines.allSatisfy { $0.split(separator: "\t").count == 4 })
        // The configured format is the one written; a format with an unknown token writes none,
        // so the snippets ask manna prompt, which says what is wrong.
        #expect(manna("config", "set", "prompt_format", "{reference}", environment: environment).status == 0)
        #expect(manna("timeline", "--now", "2026-12-24T08:00", environment: environment).status == 0)
        #expect(try String(contentsOfFile: home.path + "/.cache/manna/prompt.tsv", encoding: .utf8).hasPrefix("1798070400\t2026-12-24\tIsaiah 9:6\tIsaiah 9:6\n1798156800\t2026-12-25\tLuke 2:10-11\tLuke 2:10-11\n"))
    }
}
