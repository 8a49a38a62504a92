import Foundation
import MannaKit
import Testing
import TestSupport

/// The reliability suite's heavier runs, at sizes that fit CI. MANNA_RELIABILITY_SCALE=N
/// multiplies them (N=5: 2,500 kills, 250 rounds of four tick processes).
@Suite struct StressTests {
    static let scale = Int(ProcessInfo.processInfo.environment["MANNA_RELIABILITY_SCALE"] ?? "") ?? 1

    /// kill -9 at random instants while prayers, notes and plan progress are written, 500 times:
    /// the journal passes `PRAGMA integrity_check`, and every record whose command reported
    /// success is there.
    @Test func killingWritersAtRandomLosesNothingReportedSaved() throws {
        precondition(Manna.textDatabaseReady)
        let home = try TemporaryHome()
        let environment: Environment = ["HOME": home.path, "PATH": "/usr/bin:/bin", "TZ": "UTC", "LANG": "C.UTF-8"]
        func run(_ arguments: [String], killAfter milliseconds: Int) throws -> Subprocess.Outcome {
            try Subprocess.run(Manna.binary, arguments: arguments, environment: environment, input: "", timeoutMilliseconds: milliseconds)
        }
        guard case .exited(0, _, _) = try run(["plan", "start", "three-streams", "--now", "2026-01-01T08:00"], killAfter: 30_000) else {
            Issue.record("plan start failed")
            return
        }
        // How long a write takes here: kill anywhere from its start to a little after its end.
        let started = Date()
        _ = try run(["note", "add", "Gen 1:1", "calibration"], killAfter: 30_000)
        let span = max(Int(Date().timeIntervalSince(started) * 1300), 2)

        var savedNotes: [String] = [], savedPrayers: [String] = [], daysDone = 0, killed = 0
        for round in 0..<(500 * Self.scale) {
            let arguments: [String]
            switch round % 3 {
            case 0: arguments = ["note", "add", "John 3:16", "note \(round)"]
            case 1: arguments = ["pray", "add", "prayer \(round)", "--remind", "07:30"]
            default: arguments = ["plan", "done", "--now", "2026-01-01T09:00"]
            }
            switch try run(arguments, killAfter: Int.random(in: 0...span)) {
            case .exited(0, _, _):
                switch round % 3 {
                case 0: savedNotes.append("note \(round)")
                case 1: savedPrayers.append("prayer \(round)")
                default: daysDone += 1
                }
            case .timedOut: killed += 1
            case let other: Issue.record("\(arguments) ended without being killed: \(other)")
            }
        }
        #expect(killed > 0 && savedNotes.count + savedPrayers.count + daysDone > 0, "the kills must land, and some runs must finish")
        let journal = try Journal(path: home.journal)
        #expect(try journal.integrityCheck() == ["ok"])
        let notes = Set(try journal.notes(in: try Reference(parsing: "John 3:16")).map(\.text))
        for text in savedNotes { #expect(notes.contains(text), "note '\(text)' was reported saved and is missing") }
        let list = Manna.run(["pray", "list"], environment: ["HOME": home.path, "TZ": "UTC"]).stdout
        for title in savedPrayers { #expect(list.contains("  \(title)\n") || list.contains("  \(title)  "), "'\(title)' was reported saved and is missing") }
        let run = try #require(try journal.runningPlans().first)
        #expect(run.daysRead.count >= daysDone, "\(daysDone) days were reported read, \(run.daysRead.count) are")
    }

    /// Four tick processes at once, round after round (50), each round with a reminder due:
    /// each occurrence shown exactly once, counted at the recording server. The same race over
    /// 200 rounds, a journal connection per tick, runs in-process (MannaAppTests, TickTests).
    @Test(.needs(.recordingServer)) func fourTicksAtOnceRoundAfterRound() throws {
        precondition(Manna.textDatabaseReady)
        let bus = try TestBus()
        try bus.startRecordingServer(capabilities: "body")
        let home = try TemporaryHome(config: "notify_at = 23:59\n", environment: ["TZ": "Europe/London", "DBUS_SESSION_BUS_ADDRESS": bus.address])
        let environment = home.environment
        #expect(Manna.run(["pray", "add", "Every day", "--remind", "07:30", "--now", "2026-01-01T06:00"], environment: environment).status == 0)
        let rounds = 50 * Self.scale
        let start = LocalDate(parsing: "2026-01-02")!
        for round in 0..<rounds {
            let now = "\(start.adding(days: round))T07:30"
            #expect(fourAtOnce { Manna.run(["tick", "--now", now], environment: environment).status } == [0, 0, 0, 0], "round \(round)")
        }
        let shown = try bus.notifyCalls().compactMap { $0[3] as? String }
        #expect(shown.count == rounds)
        #expect(Set(shown) == ["Every day"])
    }

    /// Ticks that overlap on clocks that disagree (a clock step, a paused tick resumed, cron
    /// beside the timer), ten reminders and the verse due each day, counted at the recording
    /// server. First 6 days of three ticks started together at 07:00, 07:01 and 07:02 of their
    /// own clocks, in any order: each occurrence exactly once (a claim's lease measured on each
    /// tick's clock showed 7 to 10 of the 10 two or three times). Then 18 days of three ticks
    /// at random instants of 06:59:30 to 07:02, one of them killed at a random instant of its
    /// life, and a tick at 07:02 after them: each occurrence at least once, and twice only in
    /// the documented window (a kill between the server's answer and the commit that records it).
    @Test(.needs(.recordingServer)) func overlappingTicksOnAnyClocksShowEachOccurrenceOnce() throws {
        precondition(Manna.textDatabaseReady)
        let bus = try TestBus()
        try bus.startRecordingServer(capabilities: "body")
        let home = try TemporaryHome(config: "notify_at = 07:00\n", environment: ["TZ": "UTC", "DBUS_SESSION_BUS_ADDRESS": bus.address])
        let titles = (1...10).map { "Prayer \($0)" }
        for title in titles {
            #expect(home.run("pray", "add", title, "--remind", "07:00", "--now", "2026-01-01T06:00").status == 0)
        }
        let environment: Environment = ["HOME": home.path, "PATH": "/usr/bin:/bin", "TZ": "UTC", "LANG": "C.UTF-8",
                                        "DBUS_SESSION_BUS_ADDRESS": bus.address]
        let first = LocalDate(parsing: "2026-01-02")!
        /// Each prayer's and the verse's notifications at the server so far.
        func counts() throws -> (prayers: [String: Int], verses: Int, closed: Int) {
            var prayers: [String: Int] = [:], verses = 0
            for summary in try bus.notifyCalls().compactMap({ $0[3] as? String }) {
                if summary.hasPrefix("Prayer ") { prayers[summary, default: 0] += 1 } else { verses += 1 }
            }
            return (prayers, verses, try bus.closeCalls())
        }
        /// Three ticks at once at `seconds` after the day's 07:00; `killAfter` milliseconds for each.
        func overlap(_ day: LocalDate, at seconds: [Int], killAfter: [Int]) -> Int {
            let killed = atOnce(seconds.count) { index -> Bool in
                let second = 7 * 3600 + seconds[index]
                let now = "\(day)T" + [second / 3600, second / 60 % 60, second % 60].map { $0 < 10 ? "0\($0)" : "\($0)" }.joined(separator: ":")
                let outcome = try? Subprocess.run(Manna.binary, arguments: ["tick", "--now", now], environment: environment, input: "",
                                                  timeoutMilliseconds: killAfter[index])
                if case .timedOut = outcome { return true }
                return false
            }
            return killed.filter { $0 }.count
        }
        let exactDays = 6 * Self.scale, killedDays = 18 * Self.scale
        for round in 0..<exactDays {
            #expect(overlap(first.adding(days: round), at: [0, 60, 120].shuffled(), killAfter: [30_000, 30_000, 30_000]) == 0)
        }
        let exact = try counts()
        #expect(exact.prayers == Dictionary(uniqueKeysWithValues: titles.map { ($0, exactDays) }) && exact.verses == exactDays,
                "\(exactDays) days: \(exact)")
        // How long such an overlap takes here: kill anywhere from its start to a little after its end.
        let started = Date()
        _ = overlap(first.adding(days: exactDays), at: [0, 60, 120], killAfter: [30_000, 30_000, 30_000])
        let span = max(Int(Date().timeIntervalSince(started) * 1300), 2)
        var killed = 0
        for round in 1...killedDays {
            let day = first.adding(days: exactDays + round)
            var deadlines = [30_000, 30_000, Int.random(in: 0...span)]
            deadlines.shuffle()
            killed += overlap(day, at: (0..<3).map { _ in Int.random(in: -30...120) }, killAfter: deadlines)
            #expect(overlap(day, at: [120], killAfter: [30_000]) == 0, "the tick after round \(round) was killed")
        }
        let all = try counts()
        let days = exactDays + 1 + killedDays
        for title in titles { #expect(all.prayers[title, default: 0] >= days, "\(title): \(all.prayers[title, default: 0]) for \(days) days") }
        #expect(all.verses >= days)
        let repeats = all.prayers.values.reduce(0, +) + all.verses - all.closed - 11 * days
        #expect(killed > killedDays / 4, "the kills must land: \(killed) of \(killedDays)")
        // A killed tick has at most one notification in flight (it shows them one at a time), so
        // each kill can repeat at most one: more is a claim taken from a live tick. How many land
        // in that window depends on the machine's load (0 or 1 of 10 alone, 3 of 7 in the suite).
        #expect(repeats >= 0 && repeats <= killed, "\(repeats) shown twice of \(killed) kills: more than the window explains")
        print("overlappingTicksOnAnyClocks: \(exactDays) days exact, \(killedDays) days with \(killed) killed, \(repeats) shown twice, \(all.closed) taken back")
    }

    /// kill -9 at random instants during ticks, 200 rounds (MANNA_RELIABILITY_SCALE=5: 1,000),
    /// each a new day's 07:00 with the verse and a prayer reminder due, the tick meeting a
    /// server that answers, one that never confirms, or no bus at all (a third each); then the
    /// next minute's tick, with a server that answers, not killed. Every occurrence reaches the
    /// server at least once, and twice only in the documented window (a kill between the
    /// server's answer and the commit that records it), which is counted and must stay rare.
    @Test(.needs(.recordingServer, .silentServer)) func killedTicksLoseNothingAndRepeatOnlyInTheWindow() throws {
        precondition(Manna.textDatabaseReady)
        let bus = try TestBus()
        try bus.startRecordingServer(capabilities: "body")
        let silent = try TestBus()
        try silent.startSilentServer(answersProbes: true)
        let absent = try Scratch("runtime")
        let home = try TemporaryHome(config: "notify_at = 07:00\n", environment: ["TZ": "UTC"])
        #expect(home.run("pray", "add", "Every morning", "--remind", "07:00", "--now", "2026-01-01T06:00").status == 0)
        func environment(_ server: Int) -> Environment {
            var environment: Environment = ["HOME": home.path, "PATH": "/usr/bin:/bin", "TZ": "UTC", "LANG": "C.UTF-8"]
            switch server {
            case 0: environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
            case 1: environment["DBUS_SESSION_BUS_ADDRESS"] = silent.address
            default: environment["XDG_RUNTIME_DIR"] = absent.path
            }
            return environment
        }
        func tick(_ now: String, server: Int, killAfter milliseconds: Int) throws -> Subprocess.Outcome {
            try Subprocess.run(Manna.binary, arguments: ["tick", "--now", now], environment: environment(server), input: "",
                               timeoutMilliseconds: milliseconds)
        }
        // How long a tick that shows both takes here: kill anywhere from its start to a little after.
        let started = Date()
        _ = try tick("2026-01-01T07:00", server: 0, killAfter: 30_000)
        let span = max(Int(Date().timeIntervalSince(started) * 1300), 2)
        let rounds = 200 * Self.scale
        let first = LocalDate(parsing: "2026-01-02")!
        var killed = 0
        for round in 0..<rounds {
            let day = first.adding(days: round)
            if case .timedOut = try tick("\(day)T07:00", server: round % 3, killAfter: Int.random(in: 0...span)) { killed += 1 }
            guard case .exited(0, _, _) = try tick("\(day)T07:01", server: 0, killAfter: 30_000) else {
                Issue.record("the tick after round \(round) failed")
                continue
            }
        }
        #expect(killed > rounds / 3, "the kills must land")
        let shown = try bus.notifyCalls().compactMap { $0[3] as? String }
        let reminders = shown.filter { $0 == "Every morning" }.count
        let verses = shown.count - reminders
        // Every round's two occurrences at least once (the calibration tick's two as well).
        #expect(reminders >= rounds + 1 && verses >= rounds + 1, "\(reminders) reminders and \(verses) verses for \(rounds + 1) days")
        // The window is a millisecond or two of a tick's ~30 (docs/ARCHITECTURE.md), and these
        // kills all land inside ticks: 3 to 6 in a hundred land in it. A helper outliving a
        // killed manna (it once did) made it one in four; a claim never recorded shown, all.
        // A notification a detached helper took back (its tick was gone) is not on screen.
        let closed = try bus.closeCalls()
        let repeats = shown.count - closed - 2 * (rounds + 1)
        #expect(repeats >= 0 && repeats <= killed / 6, "\(repeats) shown twice of \(killed) kills: more than the window explains")
        print("killedTicksLoseNothing: \(rounds) rounds, \(killed) killed, \(repeats) shown twice, \(closed) taken back")
    }

    /// The same with a server that shows each notification 4 s after it is sent (past the
    /// helper's 2.5 s wait), 20 rounds: each day's 07:00 tick is killed at a random instant of
    /// its life (before sending, during the wait, after it, or not at all), and the 07:01 tick
    /// meets a server that answers. What a killed tick sent is taken back when the slow server
    /// shows it; what a tick that lived said was unconfirmed stays, and is not sent again. So
    /// every occurrence is on screen once, and twice only in the window (counted, ~0).
    @Test(.needs(.recordingServer, .silentServer)) func killedTicksMeetingASlowServerLoseNothingAndShowNothingTwice() throws {
        precondition(Manna.textDatabaseReady)
        let fast = try TestBus()
        try fast.startRecordingServer(capabilities: "body")
        let slow = try TestBus()
        let log = try Scratch("slow-server")
        try slow.startSlowServer(delaySeconds: 4, log: log.path + "/log")
        let home = try TemporaryHome(config: "notify_at = 07:00\n", environment: ["TZ": "UTC"])
        #expect(home.run("pray", "add", "Every morning", "--remind", "07:00", "--now", "2026-01-01T06:00").status == 0)
        func tick(_ now: String, bus: TestBus, killAfter milliseconds: Int) throws -> Subprocess.Outcome {
            let environment: Environment = ["HOME": home.path, "PATH": "/usr/bin:/bin", "TZ": "UTC", "LANG": "C.UTF-8",
                                            "DBUS_SESSION_BUS_ADDRESS": bus.address]
            return try Subprocess.run(Manna.binary, arguments: ["tick", "--now", now], environment: environment, input: "",
                                      timeoutMilliseconds: milliseconds)
        }
        let rounds = 20 * Self.scale
        let first = LocalDate(parsing: "2026-01-02")!
        var killed = 0, unconfirmed = 0
        for round in 0..<rounds {
            let day = first.adding(days: round)
            // Every fourth tick is let live, however slow a loaded machine makes it: both kinds
            // of round must happen (a killed tick, and one that lives to say unconfirmed).
            switch try tick("\(day)T07:00", bus: slow, killAfter: round % 4 == 3 ? 30_000 : Int.random(in: 0...3200)) {
            case .timedOut: killed += 1
            case .exited(_, _, let stderr) where stderr.contains("it may still show the notification"): unconfirmed += 1
            case let other: Issue.record("round \(round): \(other)")
            }
            guard case .exited(0, _, _) = try tick("\(day)T07:01", bus: fast, killAfter: 30_000) else {
                Issue.record("the tick after round \(round) failed")
                continue
            }
        }
        #expect(killed > 0 && unconfirmed > 0, "\(killed) killed, \(unconfirmed) unconfirmed: both must happen")
        // The last notifications sent to the slow server are still on their way.
        Thread.sleep(forTimeInterval: 4.5)
        let slowLog = try String(contentsOfFile: log.path + "/log", encoding: .utf8).split(separator: "\n")
        let slowShown = slowLog.filter { $0.hasPrefix("shown ") }.map { String($0.dropFirst(6)) }
        let fastShown = try fast.notifyCalls().compactMap { $0[3] as? String }
        let shown = slowShown + fastShown
        let closed = slowLog.filter { $0 == "closed" }.count + (try fast.closeCalls())
        let reminders = shown.filter { $0 == "Every morning" }.count
        // Each day's verse and reminder at least once (a notification taken back was on screen
        // for a moment only, so it does not count as shown).
        #expect(reminders - closed >= 0)
        #expect(shown.count - closed >= 2 * rounds, "\(shown.count) shown, \(closed) taken back, for \(rounds) days of two")
        #expect(reminders >= rounds && shown.count - reminders >= rounds, "\(reminders) reminders and \(shown.count - reminders) verses for \(rounds) days")
        let repeats = shown.count - closed - 2 * rounds
        #expect(repeats >= 0 && repeats <= max(1, killed / 6), "\(repeats) shown twice of \(killed) kills")
        print("killedTicksMeetingASlowServer: \(rounds) rounds, \(killed) killed, \(unconfirmed) unconfirmed, \(repeats) shown twice, \(closed) taken back")
    }
}
