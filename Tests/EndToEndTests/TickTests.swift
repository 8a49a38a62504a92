import Foundation
import Testing
import TestSupport

/// `manna tick` against a real session bus and a recording notification server: the wiring
/// (the verse reaches the server, processes at once, no bus at all). The tick's rules are
/// tested in-process in MannaAppTests (TickTests, TickReplayTests).
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
        #expect(try setup.summaries() == ["Luke 2:10-11 (KJV)"])
        // The next morning, the next verse.
        #expect(setup.tick("2026-12-26T07:00").status == 0)
        #expect(try setup.summaries() == ["Luke 2:10-11 (KJV)", "Matthew 2:10 (KJV)"])
        // And the timeline was written by the ticks.
        let timeline = try String(contentsOf: setup.home.timeline, encoding: .utf8)
        #expect(timeline.contains("\"date\": \"2026-12-26\""))
    }

    /// A typo and a bad value in the config never stop the morning verse (issue 32): the tick
    /// shows it at the real server with the defaults standing in, and says the ignored lines on
    /// stderr once a day, not every minute.
    @Test func aBadConfigLineNeverStopsTheMorningVerse() throws {
        let setup = try Setup(config: "colour = blue\nnotify_at = 25:00\ntranslation = WEB\n")
        let config = setup.home.path + "/.config/manna/config"
        let warning = """
            manna: \(config):1: unknown key 'colour'; keys are translation, notify_at, prompt_format, timeline_days, daily_source, sync_silent_days, voices (ignored: the default stands)
            manna: \(config):2: notify_at must be a time HH:MM (24-hour), like 07:00, or off, not '25:00' (ignored: the default stands)

            """
        let first = setup.tick("2026-12-25T06:59")
        #expect(first.status == 0 && first.stderr == warning, "\(first.stderr)")
        let morning = setup.tick("2026-12-25T07:00")
        #expect(morning.status == 0 && morning.stderr.isEmpty, "\(morning.stderr)")
        #expect(try setup.summaries() == ["Luke 2:10-11 (WEB)"])
        // The next local day says it again, once.
        #expect(setup.tick("2026-12-26T00:00").stderr == warning)
        #expect(setup.tick("2026-12-26T00:01").stderr.isEmpty)
    }

    @Test func fourTicksAtOnceShowItOnce() throws {
        let setup = try Setup()
        let environment = setup.environment
        precondition(Manna.textDatabaseReady)
        for day in 1...5 {
            #expect(fourAtOnce { Manna.run(["tick", "--now", "2026-06-0\(day)T07:00"], environment: environment).status } == [0, 0, 0, 0])
        }
        #expect(try setup.summaries().count == 5)
        #expect(Set(try setup.summaries()).count == 5)
    }

    /// A server that answers the helper's questions but not the notification: the helper is
    /// killed at its deadline, the tick exits 0 (it was handed over; a slow server may show it)
    /// and no later tick sends it again, even to a server that answers.
    @Test(.needs(.silentServer)) func aSlowServerIsNotSentTheSameNotificationTwice() throws {
        let home = try TemporaryHome()
        let silent = try TestBus()
        try silent.startSilentServer(answersProbes: true)
        precondition(Manna.textDatabaseReady)
        let slow = Manna.run(["tick", "--now", "2026-12-25T07:00"], environment: ["HOME": home.path, "TZ": "UTC", "DBUS_SESSION_BUS_ADDRESS": silent.address])
        #expect(slow.status == 0 && slow.stderr.isEmpty, "\(slow.stderr)")
        let bus = try TestBus()
        try bus.startRecordingServer(capabilities: "body")
        for minute in ["07:01", "07:02"] {
            let later = Manna.run(["tick", "--now", "2026-12-25T" + minute], environment: ["HOME": home.path, "TZ": "UTC", "DBUS_SESSION_BUS_ADDRESS": bus.address])
            #expect(later.status == 0, "\(later.stderr)")
        }
        #expect(try bus.notifyCalls().isEmpty)
    }

    @Test func withNoServerTheTickSaysSoAndTheNextTickShowsIt() throws {
        let home = try TemporaryHome()
        let runtime = try Scratch("runtime")
        precondition(Manna.textDatabaseReady)
        let noBus = Manna.run(["tick", "--now", "2026-12-25T07:00"], environment: ["HOME": home.path, "TZ": "UTC", "XDG_RUNTIME_DIR": runtime.path])
        #expect(noBus.status == 69)
        #expect(noBus.stderr.hasPrefix("manna: no D-Bus session bus"))
        #expect(noBus.stderr.hasSuffix(" (each tick tries again what is still due (the verse and a plan's reading until their day ends, a prayer reminder for a day, then named among the missed), and this clears once one is shown; said once a day: see 'manna doctor')\n"))
        // The timeline was still written.
        #expect(FileManager.default.fileExists(atPath: home.timeline.path))
        // The claim was given back: with a server, the next tick shows it.
        let bus = try TestBus()
        try bus.startRecordingServer(capabilities: "body")
        let later = Manna.run(["tick", "--now", "2026-12-25T07:01"], environment: ["HOME": home.path, "TZ": "UTC", "DBUS_SESSION_BUS_ADDRESS": bus.address])
        #expect(later.status == 0)
        #expect(try bus.notifyCalls().compactMap { $0[3] as? String } == ["Luke 2:10-11 (KJV)"])
    }
}
