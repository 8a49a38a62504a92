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
        let run = try #require(try journal.runningPlan())
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
            let statuses = Statuses()
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                statuses.append(Manna.run(["tick", "--now", now], environment: environment).status)
            }
            #expect(statuses.all == [0, 0, 0, 0], "round \(round)")
        }
        let shown = try bus.notifyCalls().compactMap { $0[3] as? String }
        #expect(shown.count == rounds)
        #expect(Set(shown) == ["Every day"])
    }
}
