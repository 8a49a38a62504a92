// The tick's delivery rules, in-process: a recording notifier, a temporary home, explicit
// moments and zones. Each test breaks if its rule does. The wiring through a real session bus
// and notification server is tested end to end (Tests/EndToEndTests/TickTests.swift).
import Foundation
@testable import MannaKit
import TestSupport
import Testing

@testable import MannaApp

@Suite struct TickTests {
    // MARK: The morning verse

    @Test func theMorningVerseIsShownOnceAtItsTimeAndTheNextDayTheNext() throws {
        let home = try TestHome(zone: "America/New_York")
        home.tick("2026-12-25T06:59")
        #expect(home.notifier.shown.isEmpty)
        for minute in ["07:00", "07:01", "07:02", "12:00", "23:59"] { home.tick("2026-12-25T" + minute) }
        #expect(home.notifier.shown.map(\.summary) == ["Luke 2:10-11 (KJV)"])
        #expect(home.notifier.shown.first?.category == .verse)
        home.tick("2026-12-26T07:00")
        #expect(home.notifier.shown.map(\.summary) == ["Luke 2:10-11 (KJV)", "Matthew 2:10 (KJV)"])
        // The tick rewrote the timeline.
        let timeline = try String(contentsOfFile: home.paths.timeline, encoding: .utf8)
        #expect(timeline.contains("\"date\": \"2026-12-26\""))
    }

    @Test func sleptThroughTheMorningItComesOnceMarkedLateUnlessTheDayIsOver() throws {
        let home = try TestHome(zone: "America/New_York", config: "notify_at = 06:30\n")
        home.tick("2026-12-23T06:30")
        // Asleep until noon on Dec 25: Dec 24's verse is gone, Dec 25's comes late, once.
        home.tick("2026-12-25T12:00")
        home.tick("2026-12-25T12:01")
        #expect(home.notifier.shown.map(\.summary) == ["John 1:14 (KJV)", "Luke 2:10-11 (KJV) · missed at 06:30"])
    }

    @Test func twoMinutesLateIsStillOnTimeThreeIsLate() throws {
        let home = try TestHome(config: "notify_at = 07:00\n")
        home.tick("2026-12-25T07:02")
        let other = try TestHome(config: "notify_at = 07:00\n")
        other.tick("2026-12-25T07:02:01")
        #expect(home.notifier.shown.map(\.summary) == ["Luke 2:10-11 (KJV)"])
        #expect(other.notifier.shown.map(\.summary) == ["Luke 2:10-11 (KJV) · missed at 07:00"])
    }

    @Test func aFailedNotificationGivesItsClaimBackAndTheNextTickShowsIt() throws {
        let home = try TestHome()
        home.notifier.fail(with: .noServer("org.freedesktop.Notifications has no owner"))
        let failed = home.run("tick", "--now", "2026-12-25T07:00")
        #expect(failed.status == 69)
        #expect(failed.stderr == "manna: " + NotifyError.noServer("org.freedesktop.Notifications has no owner").message
            + " (each tick tries again what is still due (the verse and a plan's reading until their day ends, a prayer reminder for a day, then named among the missed), and this clears once one is shown; said once a day: see 'manna doctor')\n")
        // The timeline is written either way.
        #expect(FileManager.default.fileExists(atPath: home.paths.timeline))
        #expect(try home.journal().claimed(from: "2026-12-25").isEmpty)
        home.notifier.fail(with: nil)
        home.tick("2026-12-25T07:01")
        #expect(home.notifier.shown.map(\.summary) == ["Luke 2:10-11 (KJV)"])
        #expect(try home.journal().claimed(from: "2026-12-25") == [Journal.Occurrence(kind: .verse, key: "", label: "2026-12-25")])
    }

    /// A reminder moved to a time already past today is not "missed" for today: it starts
    /// from the move, as one added then would (the tick last ran before the new time).
    @Test func aReminderMovedToATimeAlreadyPastIsNotMissedToday() throws {
        let home = try TestHome(config: "notify_at = off\n")
        let id = try home.addPrayer("For Anna", reminders: ["21:00"], now: "2026-06-01T12:00")
        home.tick("2026-06-01T19:55")
        #expect(home.run("pray", "edit", id, "--remind", "20:00", "--now", "2026-06-01T20:30").status == 0)
        home.tick("2026-06-01T20:31")
        home.tick("2026-06-01T21:00")
        #expect(home.notifier.shown.isEmpty, "\(home.notifier.shown.map(\.summary))")
        home.tick("2026-06-02T20:00")
        #expect(home.notifier.shown.map(\.summary) == ["For Anna"])
    }

    @Test func fourTicksAtOnceShowEachOccurrenceOnce() throws {
        let home = try TestHome()
        _ = try home.addPrayer("Together", reminders: ["07:00"], now: "2026-06-01T06:00")
        for day in 1...5 {
            _ = fourAtOnce { home.tick("2026-06-0\(day)T07:00") }
        }
        let summaries = home.notifier.shown.map(\.summary)
        #expect(summaries.filter { $0 == "Together" }.count == 5)
        #expect(Set(summaries.filter { $0 != "Together" }).count == 5)
        #expect(summaries.count == 10)
    }

    /// Four ticks at once, round after round (200; MANNA_RELIABILITY_SCALE=N for N times more),
    /// each round with the verse and a reminder due: each shown exactly once. Each tick opens
    /// its own journal connection, as four processes would (the timeline is left out: it is
    /// not what is shown).
    @Test func fourTicksAtOnceRoundAfterRound() throws {
        let scale = Int(ProcessInfo.processInfo.environment["MANNA_RELIABILITY_SCALE"] ?? "") ?? 1
        let home = try TestHome(zone: "Europe/London", config: "notify_at = 07:30\n")
        _ = try home.addPrayer("Every day", reminders: ["07:30"], now: "2026-01-01T06:00")
        let zone = try Zone(identifier: "Europe/London")
        let rounds = 200 * scale
        let start = LocalDate(parsing: "2026-01-02")!
        var failures: [String] = []
        for round in 0..<rounds {
            let now = zone.firstInstant(on: start.adding(days: round), at: LocalTime(hour: 7, minute: 30))
            failures += fourAtOnce { () -> String? in
                do {
                    let database = try TextDatabase(path: BuiltTexts.path)
                    let inputs = TimelineInputs(zone: zone, translation: try database.translation(code: "KJV"),
                                                notifyAt: LocalTime(hour: 7, minute: 30), days: 1)
                    let tick = Tick(journal: try home.journal(), database: database, inputs: inputs, notifier: home.notifier, manna: TestHome.manna)
                    for case .failed(_, let reason) in try tick.run(at: now) { throw Failure.unavailable(reason) }
                    return nil
                } catch {
                    return "\(error)"
                }
            }.compactMap { $0 }
        }
        #expect(failures.isEmpty)
        let summaries = home.notifier.shown.map(\.summary)
        #expect(summaries.filter { $0 == "Every day" }.count == rounds)
        #expect(summaries.count == 2 * rounds)
        #expect(Set(summaries.filter { $0 != "Every day" }).count == min(rounds, 366))  // a verse a day
    }

    // MARK: The reading plan

    @Test func thePlanReminderComesOnDaysWithNothingReadYet() throws {
        let home = try TestHome(zone: "America/New_York", config: "notify_at = 06:00\n")
        #expect(home.run("plan", "start", "nt-90", "--remind", "20:00", "--now", "2026-11-01T08:00").status == 0)
        home.tick("2026-11-01T20:00")
        home.tick("2026-11-01T20:01")
        let reminder = try #require(home.notifier.shown.last)
        #expect(reminder.summary == "The New Testament in 90 Days: day 1 of 90")
        #expect(reminder.body == "Matthew 1-4")
        #expect(reminder.category == .plan)
        #expect(home.notifier.shown.count == 2)  // the morning verse (late) and the reminder, once
        // The next day the reading is done before 20:00: no reminder.
        #expect(home.run("plan", "done", "--now", "2026-11-02T12:00").status == 0)
        home.tick("2026-11-02T20:00")
        #expect(home.notifier.shown.map(\.category) == [.verse, .plan, .verse])
    }

    // MARK: Prayer reminders

    @Test func aReminderComesOnceAtItsTimeWithTitleFirstLineAndButtons() throws {
        let home = try TestHome(config: "notify_at = 23:59\n")
        let id = try home.addPrayer("For Anna's exams", body: "Calm and clear mind\nand rest", reminders: ["07:30"], now: "2026-06-01T06:00")
        home.tick("2026-06-01T07:29")
        #expect(home.notifier.shown.isEmpty)
        home.tick("2026-06-01T07:30")
        home.tick("2026-06-01T07:31")
        #expect(home.notifier.lines == ["For Anna's exams | Calm and clear mind"])
        let uuid = try #require(try home.journal().prayer(id: id)?.uuid)
        #expect(home.notifier.shown.first?.actions.map(\.command) == [
            [TestHome.manna, "pray", "prayed", uuid], [TestHome.manna, "pray", "snooze", uuid],
        ])
        // Not before it was added: a reminder added at 08:00 for 07:30 starts tomorrow.
        _ = try home.addPrayer("Later", reminders: ["07:30"], now: "2026-06-01T08:00")
        home.tick("2026-06-01T08:01")
        #expect(home.notifier.shown.count == 1)
    }

    @Test func afterAThreeDaySuspendOneNotificationNamesFiveAndNothingOlderThanADay() throws {
        let home = try TestHome(config: "notify_at = 23:59\n")
        for hour in [8, 9, 10, 11, 12, 13, 15] {
            _ = try home.addPrayer("At \(hour)", reminders: ["\(hour):00"], now: "2026-06-01T06:00")
        }
        _ = try home.addPrayer("Once on the 2nd", reminders: ["2026-06-02 09:00"], now: "2026-06-01T06:00")
        home.tick("2026-06-01T07:00")
        home.tick("2026-06-04T14:00")
        home.tick("2026-06-04T14:00")
        home.tick("2026-06-04T14:01")
        #expect(home.notifier.lines == [
            "While you were away | At 15 (yesterday 15:00)\nAt 8 (08:00)\nAt 9 (09:00)\nAt 10 (10:00)\nAt 11 (11:00)\nand 2 more",
        ])
        #expect(home.notifier.shown.first?.actions.isEmpty == true)
        home.tick("2026-06-04T15:00")
        #expect(home.notifier.lines.dropFirst() == ["At 15 | "])
    }

    @Test func theHandledMarkMovesOnlyWhenEveryReminderWasShown() throws {
        let home = try TestHome(config: "notify_at = 23:59\n")
        _ = try home.addPrayer("Marked", reminders: ["07:30"], now: "2026-06-01T06:00")
        home.tick("2026-06-01T07:00")
        #expect(try home.journal().remindersHandledThrough() == nil)  // nothing was due: nothing written
        home.notifier.fail(with: .noServer("org.freedesktop.Notifications has no owner"))
        #expect(home.run("tick", "--now", "2026-06-01T07:30").status == 69)
        #expect(try home.journal().remindersHandledThrough() == nil)
        home.notifier.fail(with: nil)
        // The server is back three minutes later: the reminder was missed, and comes as such.
        home.tick("2026-06-01T07:33")
        #expect(home.notifier.lines == ["While you were away | Marked (07:30)"])
        #expect(try home.journal().remindersHandledThrough() == instant("2026-06-01T07:33:00Z"))
    }

    @Test func aSnoozeComesBackOnceAfterItsMinutes() throws {
        let home = try TestHome(config: "notify_at = 23:59\n")
        let id = try home.addPrayer("Again", reminders: ["07:30"], now: "2026-06-01T06:00")
        home.tick("2026-06-01T07:30")
        #expect(home.run("pray", "snooze", id, "--minutes", "10", "--now", "2026-06-01T07:31").status == 0)
        home.tick("2026-06-01T07:40")
        #expect(home.notifier.lines == ["Again | "])
        home.tick("2026-06-01T07:41")
        home.tick("2026-06-01T07:42")
        #expect(home.notifier.lines == ["Again | ", "Again | "])
        #expect(try home.journal().claimed(from: "2026-06-01").map(\.kind) == [.prayer, .snooze])
    }

    @Test(arguments: [
        // New York springs forward: 02:30 does not exist on 2026-03-08 and comes at 03:00 EDT.
        ("America/New_York", "02:30", "2026-03-07T12:00", ["2026-03-08T01:59:00-05:00"], "2026-03-08T03:00:00-04:00",
         ["2026-03-08T03:01:00-04:00", "2026-03-08T04:00:00-04:00"]),
        // New York falls back: 01:30 happens twice on 2026-11-01 and comes once, the first time.
        ("America/New_York", "01:30", "2026-10-31T12:00", ["2026-11-01T01:29:00-04:00"], "2026-11-01T01:30:00-04:00",
         ["2026-11-01T01:31:00-04:00", "2026-11-01T01:29:00-05:00", "2026-11-01T01:30:00-05:00", "2026-11-01T01:31:00-05:00"]),
        // London springs forward at 01:00 on 2026-03-29: 01:30 comes at 02:00 BST.
        ("Europe/London", "01:30", "2026-03-28T12:00", ["2026-03-29T00:59:00+00:00"], "2026-03-29T02:00:00+01:00",
         ["2026-03-29T02:01:00+01:00", "2026-03-29T03:00:00+01:00"]),
        // London falls back at 02:00 on 2026-10-25: 01:30 comes once, at 01:30 BST.
        ("Europe/London", "01:30", "2026-10-24T12:00", ["2026-10-25T01:29:00+01:00"], "2026-10-25T01:30:00+01:00",
         ["2026-10-25T01:31:00+01:00", "2026-10-25T01:29:00+00:00", "2026-10-25T01:30:00+00:00", "2026-10-25T01:31:00+00:00"]),
    ] as [(String, String, String, [String], String, [String])])
    func onDSTNightsAReminderComesExactlyOnce(zone: String, time: String, added: String, before: [String], at: String, after: [String]) throws {
        let home = try TestHome(zone: zone, config: "notify_at = 23:59\n")
        _ = try home.addPrayer("Night watch", reminders: [time], now: added)
        for now in before { home.tick(now) }
        #expect(home.notifier.lines.isEmpty)
        home.tick(at)
        #expect(home.notifier.lines == ["Night watch | "])
        for now in after { home.tick(now) }
        #expect(home.notifier.lines == ["Night watch | "])
    }

    @Test func remindersFollowTheZoneTheTickRunsInOncePerLocalDate() throws {
        let home = try TestHome(zone: "Europe/London", config: "notify_at = 23:59\n")
        _ = try home.addPrayer("Wherever", reminders: ["07:30"], now: "2026-06-01T06:00")
        home.tick("2026-06-01T07:30")
        // Flown to New York the same day: 07:30 there is the same local date and time, so not again.
        home.zone = "America/New_York"
        home.tick("2026-06-01T07:30")
        #expect(home.notifier.lines == ["Wherever | "])
        home.tick("2026-06-02T07:29")
        #expect(home.notifier.lines.count == 1)
        home.tick("2026-06-02T07:30")
        #expect(home.notifier.lines == ["Wherever | ", "Wherever | "])
    }

    // MARK: Errors

    @Test func aDamagedJournalStopsTheTickAndIsLeftAlone() throws {
        let home = try TestHome()
        let journal = home.paths.journal
        try FileManager.default.createDirectory(atPath: home.paths.dataDirectory, withIntermediateDirectories: true)
        let garbage = Data(repeating: 0x21, count: 4096)
        try garbage.write(to: URL(fileURLWithPath: journal))
        let outcome = home.run("tick", "--now", "2026-12-25T07:00")
        #expect(outcome.status == 74)
        #expect(outcome.stderr == "manna: " + JournalError.damaged(path: journal).message + "\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: journal)) == garbage)
        #expect(home.notifier.shown.isEmpty)
    }

    @Test func anUnknownKindInTheLedgerIsAnErrorNotAVerse() throws {
        let home = try TestHome()
        home.tick("2026-12-25T07:00")
        let database = try Database(path: home.paths.journal, mode: .readWrite)
        try database.execute("INSERT INTO deliveries (kind, key, occurrence, claimed_at, late, shown_at) VALUES ('sermon', '', '2026-12-25', 0, 0, 0)")
        #expect(throws: JournalError.unwritable(path: home.paths.journal,
                                                reason: "the delivery ledger has an occurrence of unknown kind 'sermon'")) {
            try home.journal().claimed(from: "2026-12-25")
        }
    }

    @Test func badArgumentsAreUsageErrors() throws {
        let home = try TestHome()
        #expect(home.run("tick", "now").stderr == "manna: tick takes no arguments; see 'manna tick --help'\n")
        let badNow = home.run("tick", "--now", "yesterday")
        #expect(badNow.status == 64)
        #expect(badNow.stderr == "manna: --now must be a date and time like 2026-03-08T07:00 or 2026-03-08T07:00:00-05:00, not 'yesterday'\n")
    }
}
