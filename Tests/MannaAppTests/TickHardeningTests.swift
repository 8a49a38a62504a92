// The tick when things go wrong: a server that is slow or gone, a tick that dies, a tick
// with much due, a machine with no desktop at all. In-process, with a recording notifier.
import Foundation
@testable import MannaKit
import TestSupport
import Testing

@testable import MannaApp

@Suite struct TickHardeningTests {
    static let noServer = NotifyError.noServer("org.freedesktop.Notifications has no owner")

    /// A tick that claimed and has not shown yet keeps its claim while it lives, however late
    /// the other ticks' clocks are; killed, it loses nothing: the next tick shows it at once,
    /// even on a clock behind the one it claimed at (the clock was stepped back).
    @Test func aClaimIsTheLiveTicksAndADeadTicksIsTakenOverAtOnce() throws {
        let home = try TestHome()
        var stalled: Journal? = try home.journal()
        #expect(try stalled!.claim(Journal.Occurrence(kind: .verse, key: "", label: "2027-06-02"),
                                   at: instant("2027-06-02T07:05:00Z"), late: false))
        for minute in ["07:06", "07:30", "23:59"] { home.tick("2027-06-02T" + minute) }
        #expect(home.notifier.shown.isEmpty)  // still that tick's: it lives
        stalled = nil  // killed
        home.tick("2027-06-02T07:01")
        home.tick("2027-06-02T07:02")
        #expect(home.notifier.shown.map(\.summary) == ["Haggai 1:13 (KJV)"])
    }

    /// Ticks that overlap on clocks a minute apart (a clock step, a paused tick resumed, cron
    /// beside the timer), ten reminders due: while the first shows its first, two more start, at
    /// 07:01 and 07:02. Its claim is held by a live process, so theirs is not to take, whatever
    /// their clocks say: every reminder is shown once.
    @Test func overlappingTicksOnClocksAMinuteApartShowEachReminderOnce() throws {
        let home = try TestHome(config: "notify_at = 23:59\n")
        for index in 1...10 { _ = try home.addPrayer("Prayer \(index)", reminders: ["07:00"], now: "2027-06-01T06:00") }
        let started = SharedLines()
        home.notifier.onShow = {
            guard started.all.isEmpty else { return }
            started.add("overlap")
            for later in ["07:01", "07:02"] { home.tick("2027-06-01T" + later) }
        }
        home.tick("2027-06-01T07:00")
        home.notifier.onShow = nil
        let shown = home.notifier.shown.map(\.summary)
        #expect(shown.count == 10 && Set(shown).count == 10, "\(shown)")
        // And once they are done, nothing is left for a later tick.
        home.tick("2027-06-01T07:03")
        #expect(home.notifier.shown.count == 10)
    }

    /// A server that takes longer than the helper's deadline may still show it: it is never
    /// sent again, and the tick says nothing (its exit is 0); `doctor` tells.
    @Test func aSlowServerIsNotSentTheSameNotificationAgain() throws {
        let home = try TestHome()
        home.notifier.fail(with: .unconfirmed(milliseconds: 3000))
        let slow = home.run("tick", "--now", "2027-06-02T07:00")
        #expect(slow.status == 0 && slow.stderr.isEmpty, "\(slow.stderr)")
        home.notifier.fail(with: nil)
        for minute in ["07:01", "07:02", "07:30"] { home.tick("2027-06-02T" + minute) }
        #expect(home.notifier.shown.isEmpty)
        #expect(home.notifier.calls == 1)
        let doctor = home.run("doctor", "--now", "2027-06-02T07:31")
        #expect(doctor.stdout.contains("FAIL  notifications: a tick could not show one at 2027-06-02T07:00:00+00:00: "
            + NotifyError.unconfirmed(milliseconds: 3000).message + "; it is not sent again (the server may yet have shown it), "
            + "and this clears once one is shown\n"))
    }

    /// A server that does not answer is asked once a tick, not once per reminder due; what is
    /// left comes with the next tick that reaches a server.
    @Test func aTickStopsCallingAServerThatDidNotAnswer() throws {
        let home = try TestHome(config: "notify_at = 07:00\n")
        for index in 1...12 { _ = try home.addPrayer("Prayer \(index)", reminders: ["07:00"], now: "2027-06-01T06:00") }
        home.notifier.fail(with: .timedOut(milliseconds: 1500))
        #expect(home.run("tick", "--now", "2027-06-01T07:00").status == 69)
        #expect(home.notifier.calls == 1)
        home.notifier.fail(with: nil)
        home.tick("2027-06-01T07:01")
        #expect(home.notifier.shown.count == 13)  // the verse and twelve reminders, each once
    }

    /// A tick spends at most `Tick.budgetSeconds` on notifications, however much is due; the
    /// rest comes with the next tick, still on time.
    @Test func aTickWithMuchDueKeepsToItsTimeBudget() throws {
        let home = try TestHome(config: "notify_at = 23:59\n")
        for index in 1...12 { _ = try home.addPrayer("Prayer \(index)", reminders: ["07:00"], now: "2027-06-01T06:00") }
        let clock = SharedLines()  // one line per second spent
        home.notifier.onShow = { clock.add("1 s") }
        let database = try TextDatabase(path: BuiltTexts.path)
        let zone = Zone.utc
        let inputs = TimelineInputs(zone: zone, translation: try database.translation(code: "KJV"), notifyAt: nil, days: 1,
                                    prayerReminders: [])
        var tick = Tick(journal: try home.journal(), database: database, inputs: inputs, notifier: home.notifier, manna: TestHome.manna)
        tick.secondsElapsed = { Double(clock.all.count) }
        let first = try tick.run(at: instant("2027-06-01T07:00:00Z"))
        #expect(home.notifier.shown.count == 9)  // at 0, 1, ... 8 s; at 9 s the budget is spent
        #expect(first.filter { if case .deferred = $0 { true } else { false } }.count == 3)
        _ = try tick.run(at: instant("2027-06-01T07:01:00Z"))
        #expect(home.notifier.shown.count == 12)
        #expect(Set(home.notifier.shown.map(\.summary)).count == 12)
        #expect(home.notifier.shown.allSatisfy { $0.summary != "While you were away" })
    }

    /// No desktop (a server, a bus, or a logged-in user missing): the first failure of a local
    /// day is said (exit 69), the rest of the day's ticks retry quietly (exit 0, nothing on
    /// stderr for cron to mail); `doctor` says what happened; a notification shown forgets it.
    @Test func aHeadlessMachineHearsOfItOnceADay() throws {
        let home = try TestHome(zone: "Europe/London", config: "notify_at = 07:00\n")
        home.notifier.fail(with: Self.noServer)
        let first = home.run("tick", "--now", "2027-06-01T07:00")
        #expect(first.status == 69)
        #expect(first.stderr == "manna: " + Self.noServer.message + " (each tick tries again what is still due (the verse and a plan's reading until their day ends, a prayer reminder for a day, then named among the missed), and this clears once one is shown; said once a day: see 'manna doctor')\n")
        for minute in ["07:01", "12:00", "23:59"] {
            let quiet = home.run("tick", "--now", "2027-06-01T" + minute)
            #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(minute): \(quiet.stderr)")
        }
        let doctor = home.run("doctor", "--now", "2027-06-01T23:59")
        // What the ticks do: not "every tick tries again" (after midnight nothing is due).
        #expect(doctor.stdout.contains("FAIL  notifications: a tick could not show one at 2027-06-01T23:59:00+01:00: " + Self.noServer.message
            + "; each tick tries again what is still due (the verse and a plan's reading until their day ends, a prayer reminder for a day, "
            + "then named among the missed), and this clears once one is shown\n"))
        // The next local day, said again once.
        #expect(home.run("tick", "--now", "2027-06-02T00:00").status == 0)  // nothing due yet
        #expect(home.run("tick", "--now", "2027-06-02T07:00").status == 69)
        #expect(home.run("tick", "--now", "2027-06-02T07:01").status == 0)
        home.notifier.fail(with: nil)
        home.tick("2027-06-02T07:02")
        #expect(home.notifier.shown.map(\.summary) == ["Haggai 1:13 (KJV)"])
        #expect(home.run("doctor", "--now", "2027-06-02T07:03").stdout.contains("ok    notifications: "))
    }

    /// `notify_at = off`: no morning notification; the timeline and prompt still show the verse.
    @Test func notifyAtOffTurnsTheMorningNotificationOff() throws {
        let home = try TestHome(config: "notify_at = off\n")
        #expect(home.run("config", "get", "notify_at").stdout == "off\n")
        for minute in ["07:00", "12:00", "23:59"] { home.tick("2027-06-02T" + minute) }
        #expect(home.notifier.calls == 0)
        let timeline = try String(contentsOfFile: home.paths.timeline, encoding: .utf8)
        #expect(timeline.contains("\"reference\": \"Haggai 1:13\""))
        #expect(!timeline.contains("\"kind\": \"verse\""))
        #expect(home.run("prompt", "--now", "2027-06-02T12:00").stdout.hasPrefix("Haggai 1:13"))
        #expect(home.run("config", "set", "notify_at", "06:45").status == 0)
        #expect(home.run("config", "get", "notify_at").stdout == "06:45\n")
    }

    /// A running plan whose file is deleted: the verse, the reminders, the timeline and the
    /// prompt go on; `plan status` and `doctor` say what is wrong; `plan stop` stops it.
    @Test func aRunningPlanThatCannotBeLoadedSilencesNothing() throws {
        let home = try TestHome(config: "notify_at = 07:00\n")
        let plans = home.folder.userPlans
        try FileManager.default.createDirectory(at: plans, withIntermediateDirectories: true)
        let file = plans.appendingPathComponent("mine.json")
        try #"{"format": 1, "id": "mine", "name": "Mine", "description": "", "days": [{"day": 1, "readings": ["Mark 1"]}]}"#
            .write(to: file, atomically: true, encoding: .utf8)
        #expect(home.run("plan", "start", "mine", "--remind", "07:00", "--now", "2027-06-01T06:00").status == 0)
        _ = try home.addPrayer("Still here", reminders: ["07:00"], now: "2027-06-01T06:00")
        try FileManager.default.removeItem(at: file)
        home.tick("2027-06-02T07:00")
        #expect(home.notifier.shown.map(\.summary) == ["Haggai 1:13 (KJV)", "Still here"])
        #expect(home.run("prompt", "--now", "2027-06-02T08:00").stdout.hasPrefix("Haggai 1:13"))
        let reason = "the running plan 'mine' is not a known plan any more (see 'manna plan list'); stop it with 'manna plan stop mine'"
        let status = home.run("plan", "status", "--now", "2027-06-02T08:00")
        #expect(status.status == 65 && status.stderr == "manna: \(reason)\n")
        #expect(home.run("doctor", "--now", "2027-06-02T08:00").stdout.contains("FAIL  reading plan: \(reason)\n"))
        // A broken file is the same: named, and nothing else stops.
        try "{ not json".write(to: file, atomically: true, encoding: .utf8)
        home.tick("2027-06-03T07:00")
        #expect(home.notifier.shown.count == 4)
        let stop = home.run("plan", "stop", "--now", "2027-06-03T08:00")
        #expect(stop.status == 0 && stop.stdout == "stopped mine with 0 days read; its progress stays in the journal\n", "\(stop.stderr)")
        #expect(home.run("plan", "status").stdout == PlanProgressError.noRunningPlan.message + "\n")
    }

    /// `doctor` knows when a tick really ran (a stamp each tick sets to the real clock, whatever
    /// moment it replays), and fails when none has for a while: a crontab line with no cron
    /// daemon is not "ok", nor is a replay's moment in the future.
    @Test func doctorKnowsWhenATickReallyRan() throws {
        let home = try TestHome(config: "notify_at = 23:59\n")
        let at = { (moment: String) in Clock.fixed(Moment.parse(moment, zone: .utc)!) }
        #expect(home.run("doctor").stdout.contains("FAIL  last tick: no tick has run yet: once the scheduler above runs, one runs every minute\n"))
        home.clock = at("2027-06-02T07:00:00Z")
        home.tick("2030-01-01T07:00")
        home.clock = at("2027-06-02T07:05:00Z")
        // doctor's --now replays the timeline; the last tick is measured on the real clock.
        #expect(home.run("doctor", "--now", "2030-01-01T07:05").stdout.contains("ok    last tick: at 2027-06-02T07:00:00+00:00\n"))
        home.clock = at("2027-06-02T09:00:00Z")
        #expect(home.run("doctor").stdout.contains(
            "FAIL  last tick: the last tick ran at 2027-06-02T07:00:00+00:00, 120 minutes ago: nothing runs 'manna tick' now"))
        // A stamp in the future: an older manna's replay, or a clock set back.
        try Files.stamp(home.paths.lastTick, at: Moment.parse("2030-01-01T07:00:00Z", zone: .utc)!)
        #expect(home.run("doctor").stdout.contains("FAIL  last tick: the last tick is stamped 2030-01-01T07:00:00+00:00, in the future "
            + "(the clock was set back): run 'manna tick' to stamp it now\n"))
    }

    /// The verse of the day's notification at 07:00 in a home whose only bookmark is `reference`
    /// and whose verses of the day come from bookmarks.
    private func verseOfTheDay(bookmarking reference: String) throws -> (TestHome, DesktopNotification) {
        let home = try TestHome(config: "notify_at = 07:00\ndaily_source = bookmarks\n")
        #expect(home.run("bookmark", "add", reference).status == 0)
        home.tick("2027-06-02T07:00")
        return (home, try #require(home.notifier.shown.first))
    }

    /// A bookmarked whole book as the verse of the day: an excerpt under the full reference in
    /// the notification, the timeline and the prompt, and a timeline of kilobytes.
    @Test func aBookmarkedBookIsAnExcerpt() throws {
        let (home, shown) = try verseOfTheDay(bookmarking: "Genesis")
        #expect(shown.summary == "Genesis (KJV)")
        #expect(shown.body.hasPrefix("In the beginning God created the heaven and the earth."))
        #expect(shown.body.count <= Excerpt.characters && shown.body.hasSuffix("…"))
        let timeline = try FileManager.default.attributesOfItem(atPath: home.paths.timeline)[.size] as? Int ?? .max
        #expect(timeline < 20_000)
        #expect(home.run("widget", "--format", "waybar", "--now", "2027-06-02T08:00").stdout.utf8.count < 4_000)
    }

    /// A bookmark across psalms: the verse of the day is the verses, never a psalm's title
    /// (which is verse 0 in the database).
    @Test func aBookmarkAcrossPsalmsLeavesTheirTitlesOut() throws {
        let (_, shown) = try verseOfTheDay(bookmarking: "Ps 22:31-23:1")
        #expect(shown.summary == "Psalms 22:31-23:1 (KJV)")
        #expect(shown.body == "They shall come, and shall declare his righteousness unto a people that shall be born, that he hath done this. The LORD is my shepherd; I shall not want.")
    }

    /// A backlog left for the next tick because the budget was spent is not a failure: nothing
    /// is said, nothing recorded for `doctor`.
    @Test func aSpentBudgetIsNotReportedAsAFailure() throws {
        let home = try TestHome()
        let journal = try home.journal()
        let due = Due(subject: PrayerReminder(reminderUUID: "r", prayerUUID: "p",
                                              time: ReminderSpec.Occurrence(date: LocalDate(year: 2027, month: 6, day: 1),
                                                                            instant: instant("2027-06-01T07:00:00Z"), label: "2027-06-01 07:00")),
                      scheduled: instant("2027-06-01T07:00:00Z"), late: false)
        try TickCommand.report([.shown(due), .deferred(due)], journal: journal,
                               now: instant("2027-06-01T07:00:00Z"), zone: .utc)
        #expect(try journal.notifyFailure() == nil)
        #expect(throws: Failure.self) {
            try TickCommand.report([.failed(due, reason: "no server")], journal: journal, now: instant("2027-06-01T07:01:00Z"), zone: .utc)
        }
        #expect(try journal.notifyFailure()?.reason == "no server")
    }

    /// A tick that finds a reminder claimed by another (which then dies) does not move the
    /// reminders' mark past it: the tick that takes the claim over still looks at that time.
    @Test func aClaimInProgressKeepsTheMarkBeforeIt() throws {
        let home = try TestHome(config: "notify_at = 23:59\n")
        _ = try home.addPrayer("Taken over", reminders: ["07:30"], now: "2027-06-01T06:00")
        let reminder = try #require(try home.journal().activeReminders().first)
        var other: Journal? = try home.journal()
        #expect(try other!.claim(Journal.Occurrence(kind: .prayer, key: reminder.uuid, label: "2027-06-01 07:30"),
                                 at: instant("2027-06-01T07:30:00Z"), late: false))
        home.tick("2027-06-01T07:30:30")  // another tick, while that one lives: not its to show
        #expect(home.notifier.shown.isEmpty)
        other = nil  // and then that tick died
        home.tick("2027-06-01T07:31:00")
        #expect(home.notifier.lines == ["Taken over | "])
    }
}
