import Foundation
import Testing

/// `manna tick` against a real session bus and a recording notification server.
@Suite(.needs(.recordingServer)) struct TickTests {
    /// A HOME and a bus with a recording server; ticks run in America/New_York.
    struct Setup {
        let bus: TestBus
        let home: TemporaryHome
        var environment: [String: String] { home.environment }

        init(config: String? = nil) throws {
            bus = try TestBus()
            try bus.startRecordingServer(capabilities: "body")
            home = try TemporaryHome(config: config, environment: ["TZ": "America/New_York", "DBUS_SESSION_BUS_ADDRESS": bus.address])
        }

        func tick(_ now: String) -> Run { home.run("tick", "--now", now) }

        func summaries() throws -> [String] { try bus.notifyCalls().compactMap { $0[3] as? String } }
    }

    @Test func theMorningVerseIsShownOnceAtItsTime() throws {
        let setup = try Setup()
        #expect(setup.tick("2026-12-25T06:59").status == 0)
        #expect(try setup.summaries().isEmpty)
        for minute in ["07:00", "07:01", "07:02", "12:00", "23:59"] {
            let run = setup.tick("2026-12-25T" + minute)
            #expect(run.status == 0, "\(run.stderr)")
        }
        #expect(try setup.summaries() == ["Luke 2:11 (KJV)"])
        // The next morning, the next verse.
        #expect(setup.tick("2026-12-26T07:00").status == 0)
        #expect(try setup.summaries() == ["Luke 2:11 (KJV)", "Matthew 2:10 (KJV)"])
        // And the timeline was written by the ticks.
        let timeline = try String(contentsOf: setup.home.timeline, encoding: .utf8)
        #expect(timeline.contains("\"date\": \"2026-12-26\""))
    }

    @Test func fourTicksAtOnceShowItOnce() throws {
        let setup = try Setup()
        for day in 1...5 {
            let now = "2026-06-0\(day)T07:00"
            let statuses = Statuses()
            let environment = setup.environment
            precondition(Manna.textDatabaseReady)
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                statuses.append(Manna.run(["tick", "--now", now], environment: environment).status)
            }
            #expect(statuses.all == [0, 0, 0, 0])
        }
        #expect(try setup.summaries().count == 5)
        #expect(Set(try setup.summaries()).count == 5)
    }

    @Test func sleptThroughTheMorningItComesOnceMarkedLateUnlessTheDayIsOver() throws {
        let setup = try Setup(config: "notify_at = 06:30\n")
        // Dec 23 on time; then asleep until noon on Dec 25: Dec 24's verse is gone, Dec 25's comes late, once.
        #expect(setup.tick("2026-12-23T06:30").status == 0)
        #expect(setup.tick("2026-12-25T12:00").status == 0)
        #expect(setup.tick("2026-12-25T12:01").status == 0)
        #expect(try setup.summaries() == ["John 1:14 (KJV)", "Luke 2:11 (KJV) · missed at 06:30"])
    }

    @Test func withNoServerTheTickSaysSoAndTheNextTickShowsIt() throws {
        let home = try TemporaryHome()
        let runtime = try Scratch("runtime")
        precondition(Manna.textDatabaseReady)
        let noBus = Manna.run(["tick", "--now", "2026-12-25T07:00"], environment: ["HOME": home.path, "TZ": "UTC", "XDG_RUNTIME_DIR": runtime.path])
        #expect(noBus.status == 69)
        #expect(noBus.stderr.hasPrefix("manna: no D-Bus session bus"))
        #expect(noBus.stderr.hasSuffix(" (the next tick tries again)\n"))
        // The timeline was still written.
        #expect(FileManager.default.fileExists(atPath: home.timeline.path))
        // The claim was given back: with a server, the next tick shows it.
        let bus = try TestBus()
        try bus.startRecordingServer(capabilities: "body")
        let later = Manna.run(["tick", "--now", "2026-12-25T07:01"], environment: ["HOME": home.path, "TZ": "UTC", "DBUS_SESSION_BUS_ADDRESS": bus.address])
        #expect(later.status == 0)
        #expect(try bus.notifyCalls().compactMap { $0[3] as? String } == ["Luke 2:11 (KJV)"])
    }

    @Test func thePlanReminderComesOnDaysWithNothingReadYet() throws {
        let setup = try Setup(config: "notify_at = 06:00\n")
        precondition(Manna.textDatabaseReady)
        let start = Manna.run(["plan", "start", "nt-90", "--remind", "20:00", "--now", "2026-11-01T08:00"], environment: setup.environment)
        #expect(start.status == 0)
        #expect(setup.tick("2026-11-01T06:00").status == 0)   // the verse
        #expect(setup.tick("2026-11-01T20:00").status == 0)   // the reading reminder
        #expect(setup.tick("2026-11-01T20:01").status == 0)   // nothing more
        // The next day the reading is done before 20:00: no reminder.
        #expect(Manna.run(["plan", "done", "--now", "2026-11-02T12:00"], environment: setup.environment).status == 0)
        #expect(setup.tick("2026-11-02T20:00").status == 0)
        let calls = try setup.bus.notifyCalls()
        let summaries = calls.compactMap { $0[3] as? String }
        #expect(summaries.count == 3)
        #expect(summaries[1] == "The New Testament in 90 Days: day 1 of 90")
        #expect(calls[1][4] as? String == "Matthew 1-4")
        #expect((calls[1][6] as? [String: Any])?["category"] as? String == "x-manna.plan")
        // Nov 1's verse, the reading reminder, Nov 2's verse; no reminder once the day's reading is done.
        #expect(summaries[0].hasSuffix("(KJV)") && summaries[2].hasSuffix("(KJV) · missed at 06:00") && summaries[0] != summaries[2])
    }

    @Test func aDamagedJournalStopsTheTickAndIsLeftAlone() throws {
        let setup = try Setup()
        let journal = URL(fileURLWithPath: setup.home.journal)
        try FileManager.default.createDirectory(at: journal.deletingLastPathComponent(), withIntermediateDirectories: true)
        let garbage = Data(repeating: 0x21, count: 4096)
        try garbage.write(to: journal)
        let run = setup.tick("2026-12-25T07:00")
        #expect(run.status == 74)
        #expect(run.stderr == "manna: the journal \(journal.path) is damaged and was left untouched: move it aside (mv \(journal.path) \(journal.path).damaged) to start a new one, or restore it from a backup\n")
        #expect(try Data(contentsOf: journal) == garbage)
        #expect(try setup.summaries().isEmpty)
    }
}
