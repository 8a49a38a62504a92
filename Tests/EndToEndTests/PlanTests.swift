import Foundation
import Testing
import TestSupport

/// Reading plans and progress: start, today, done, status, catch-up, streaks, stop; several at once.
@Suite struct PlanTests {
    func run(_ home: TemporaryHome, _ arguments: String..., zone: String = "America/New_York") -> Run {
        run(home, arguments, zone: zone)
    }

    func run(_ home: TemporaryHome, _ arguments: [String], zone: String = "America/New_York") -> Run {
        precondition(Manna.textDatabaseReady)
        return Manna.run(arguments, environment: ["HOME": home.path, "TZ": zone])
    }

    @Test func aPlanFromStartToCatchUp() throws {
        let home = try TemporaryHome()
        #expect(run(home, "plan", "start", "psalms-proverbs-month", "--from", "2026-11-01", "--now", "2026-11-01T08:00").stdout
            == "started Psalms and Proverbs in a Month (31 days), day 1 on 2026-11-01\n")
        #expect(run(home, "plan", "today", "--now", "2026-11-01T08:00").stdout
            == "Psalms and Proverbs in a Month, Day 1 of 31: Psalm 1; Psalm 31; Psalm 61; Psalm 91; Psalm 121; Proverbs 1\n")
        #expect(run(home, "plan", "done", "--now", "2026-11-01T21:00").stdout == "Psalms and Proverbs in a Month: day 1 of 31 read; streak 1 day\n")
        #expect(run(home, "plan", "done", "--now", "2026-11-02T21:00").stdout == "Psalms and Proverbs in a Month: day 2 of 31 read; streak 2 days\n")
        // Three days missed: behind, and the streak is gone.
        #expect(run(home, "plan", "status", "--now", "2026-11-06T08:00").stdout == """
            Psalms and Proverbs in a Month: day 3 of 31, 2 read (6%), 3 days behind, streak 0 days
            started 2026-11-01; day 1 scheduled on 2026-11-01

            """)
        // Today's step is the next unread one, whatever the date.
        #expect(run(home, "plan", "today", "--now", "2026-11-06T08:00").stdout.hasPrefix("Psalms and Proverbs in a Month, Day 3 of 31: Psalm 3;"))
        #expect(run(home, "plan", "catch-up", "--now", "2026-11-06T08:00").stdout
            == "Psalms and Proverbs in a Month: day 3 is today's reading now; the rest follow one a day (the schedule moved 3 days later)\n")
        #expect(run(home, "plan", "status", "--now", "2026-11-06T08:00").stdout.hasPrefix("Psalms and Proverbs in a Month: day 3 of 31, 2 read (6%), on schedule"))
        let read = run(home, "plan", "today", "--read", "--now", "2026-11-06T08:00")
        #expect(read.stdout.contains("\nPsalm 3 (KJV)\n  A Psalm of David, when he fled from Absalom his son.\n1 LORD, how are they increased that trouble me!"))
        #expect(run(home, "plan", "done", "99", "--now", "2026-11-06T08:00").stderr == "manna: there is no day 99: the plan has days 1 to 31\n")
        #expect(run(home, "plan", "stop", "--now", "2026-11-06T09:00").stdout
            == "stopped Psalms and Proverbs in a Month with 2 of 31 days read; its progress stays in the journal\n")
        // No plan: a state to report (like `git stash list` with nothing), not a wrong command line.
        let none = run(home, "plan", "status")
        #expect(none.status == 0 && none.stdout == "no plan is running: start one with 'manna plan start PLAN' (see 'manna plan list')\n")
        #expect(run(home, "plan", "status", "--json").stdout == "[]\n")
        let done = run(home, "plan", "done")
        #expect(done.status == 65 && done.stderr == "manna: no plan is running: start one with 'manna plan start PLAN' (see 'manna plan list')\n")
    }

    /// Plans run side by side, each with its own day, reminder and status; a command that acts
    /// on one takes its id when more than one runs, and starting one twice is refused.
    @Test func twoPlansRunSideBySide() throws {
        let home = try TemporaryHome()
        #expect(run(home, "plan", "start", "bible-in-a-year", "--remind", "20:00", "--now", "2026-11-01T08:00").stdout
            == "started The Bible in a Year (365 days), day 1 on 2026-11-01, reminder at 20:00\n")
        #expect(run(home, "plan", "start", "nt-90", "--remind", "21:00", "--now", "2026-11-01T08:01").stdout
            == "started The New Testament in 90 Days (90 days), day 1 on 2026-11-01, reminder at 21:00; also running: The Bible in a Year\n")
        let again = run(home, "plan", "start", "bible-in-a-year", "--from", "2027-01-01", "--now", "2026-11-01T08:02")
        #expect(again.status == 65 && again.stderr
            == "manna: The Bible in a Year is running already (started 2026-11-01); to begin it again, stop it first with 'manna plan stop bible-in-a-year'\n")
        #expect(run(home, "plan", "today", "--now", "2026-11-01T09:00").stdout
            == "The Bible in a Year, Day 1 of 365: Genesis 1-3\nThe New Testament in 90 Days, Day 1 of 90: Matthew 1-4\n")
        // Which one? One line listing the running plans, with the command to type.
        let which = "manna: 2 plans are running (bible-in-a-year, nt-90): name one, like "
        for (arguments, example) in [(["done"], "'manna plan done bible-in-a-year'"), (["done", "2"], "'manna plan done bible-in-a-year 2'"),
                                     (["undo", "1"], "'manna plan undo bible-in-a-year 1'"), (["catch-up"], "'manna plan catch-up bible-in-a-year'"),
                                     (["remind", "off"], "'manna plan remind bible-in-a-year off'"), (["stop"], "'manna plan stop bible-in-a-year'"),
                                     (["today", "--read"], "'manna plan today bible-in-a-year --read'")] {
            let outcome = run(home, ["plan"] + arguments + ["--now", "2026-11-01T09:00"])
            #expect(outcome.status == 64 && outcome.stderr == which + example + "\n", "\(arguments)")
        }
        let typo = run(home, "plan", "done", "nt90", "--now", "2026-11-01T09:00")
        #expect(typo.status == 65 && typo.stderr == "manna: 'nt90' is not a running plan; running: bible-in-a-year, nt-90\n")
        #expect(run(home, "plan", "done", "bible-in-a-year", "--now", "2026-11-01T21:00").stdout == "The Bible in a Year: day 1 of 365 read; streak 1 day\n")
        #expect(run(home, "plan", "done", "nt-90", "3", "--now", "2026-11-01T21:00").stdout == "The New Testament in 90 Days: day 3 of 90 read; streak 1 day\n")
        #expect(run(home, "plan", "today", "nt-90", "--now", "2026-11-02T09:00").stdout == "The New Testament in 90 Days, Day 1 of 90: Matthew 1-4\n")
        // Each plan's status; a first day read is never 0%.
        #expect(run(home, "plan", "status", "--now", "2026-11-02T09:00").stdout == """
            The Bible in a Year (bible-in-a-year): day 2 of 365, 1 read (under 1%), on schedule, streak 1 day
            started 2026-11-01; day 1 scheduled on 2026-11-01; reminder at 20:00

            The New Testament in 90 Days (nt-90): day 1 of 90, 1 read (1%), 1 day behind, streak 1 day
            started 2026-11-01; day 1 scheduled on 2026-11-01; reminder at 21:00

            """)
        let statuses = try #require(Manna.json(run(home, "plan", "status", "--json", "--now", "2026-11-02T09:00")) as? [[String: Any]])
        #expect(statuses.map { $0["plan"] as? String } == ["bible-in-a-year", "nt-90"] && statuses.map { $0["read"] as? Int } == [1, 1])
        // The timeline has each plan's step; its `plan` stays the first plan's, for older readers.
        let timeline = try #require(Manna.json(run(home, "timeline", "--print", "--now", "2026-11-02T09:00")) as? [String: Any])
        let today = try #require((timeline["entries"] as? [[String: Any]])?.first)
        #expect((today["plan"] as? [String: Any])?["id"] as? String == "bible-in-a-year")
        let steps = try #require(today["plans"] as? [[String: Any]])
        #expect(steps.map { "\($0["id"] ?? "") \($0["day"] ?? "")" } == ["bible-in-a-year 2", "nt-90 1"])
        #expect((today["reminders"] as? [[String: Any]])?.map { "\($0["time"] ?? "") \($0["kind"] ?? "")" } == ["07:00 verse", "20:00 plan", "21:00 plan"])
        // Stopping one leaves the other running, and then it needs no name.
        #expect(run(home, "plan", "stop", "nt-90", "--now", "2026-11-02T10:00").stdout
            == "stopped The New Testament in 90 Days with 1 of 90 days read; its progress stays in the journal\n")
        #expect(run(home, "plan", "done", "--now", "2026-11-02T21:00").stdout == "The Bible in a Year: day 2 of 365 read; streak 2 days\n")
        #expect(run(home, "plan", "status", "--now", "2026-11-02T21:00").stdout.hasPrefix("The Bible in a Year: day 3 of 365, 2 read (under 1%), on schedule"))
    }

    /// A running plan whose file is gone is named (65) after the others are shown; named
    /// itself, only its reason.
    @Test func aBrokenPlanBesideAGoodOneIsNamedAfterIt() throws {
        let home = try TemporaryHome()
        let plans = home.folder.userPlans
        try FileManager.default.createDirectory(at: plans, withIntermediateDirectories: true)
        let file = plans.appendingPathComponent("mine.json")
        try #"{"format": 1, "id": "mine", "name": "Mine", "description": "", "days": [{"day": 1, "readings": ["Mark 1"]}]}"#
            .write(to: file, atomically: true, encoding: .utf8)
        #expect(run(home, "plan", "start", "mine", "--now", "2026-11-01T08:00").status == 0)
        #expect(run(home, "plan", "start", "nt-90", "--now", "2026-11-01T08:01").status == 0)
        try FileManager.default.removeItem(at: file)
        let reason = "manna: the running plan 'mine' is not a known plan any more (see 'manna plan list'); stop it with 'manna plan stop mine'\n"
        let today = run(home, "plan", "today", "--now", "2026-11-01T09:00")
        #expect(today.status == 65 && today.stdout == "The New Testament in 90 Days, Day 1 of 90: Matthew 1-4\n" && today.stderr == reason)
        let named = run(home, "plan", "status", "mine", "--json", "--now", "2026-11-01T09:00")
        #expect(named.status == 65 && named.stdout.isEmpty && named.stderr == reason)
        #expect(run(home, "plan", "stop", "mine", "--now", "2026-11-01T10:00").stdout == "stopped mine with 0 days read; its progress stays in the journal\n")
        #expect(run(home, "plan", "today", "--now", "2026-11-01T10:00").status == 0)
    }

    /// A start date chosen in the future stays chosen: nothing to read, remind of or catch up
    /// before it, and day 1 on that date.
    @Test func aFutureStartIsKept() throws {
        let home = try TemporaryHome()
        #expect(run(home, "plan", "start", "psalms-proverbs-month", "--from", "2027-01-01", "--remind", "20:00", "--now", "2026-12-02T08:00").status == 0)
        let status = """
            Psalms and Proverbs in a Month: day 1 of 31, 0 read (0%), begins on 2027-01-01, streak 0 days
            started 2026-12-02; day 1 scheduled on 2027-01-01; reminder at 20:00

            """
        #expect(run(home, "plan", "status", "--now", "2026-12-30T08:00").stdout == status)
        #expect(run(home, "plan", "today", "--now", "2026-12-30T08:00").stdout == "Psalms and Proverbs in a Month: day 1 is on 2027-01-01\n")
        #expect(run(home, "plan", "catch-up", "--now", "2026-12-30T08:00").stdout
            == "Psalms and Proverbs in a Month: nothing to catch up: day 1 is on 2027-01-01\n")
        #expect(run(home, "plan", "status", "--now", "2026-12-30T08:00").stdout == status)
        #expect(run(home, "plan", "today", "--date", "2027-01-02", "--now", "2026-12-30T08:00").stdout.hasPrefix("Psalms and Proverbs in a Month, Day 2 of 31: Psalm 2;"))
        let timeline = try #require(Manna.json(run(home, "timeline", "--print", "--now", "2026-12-30T08:00")) as? [String: Any])
        let entries = try #require(timeline["entries"] as? [[String: Any]])
        #expect(entries.prefix(4).map { ($0["plan"] as? [String: Any])?["day"] as? Int } == [nil, nil, 1, 2])
        #expect(entries.prefix(4).map { ($0["reminders"] as? [[String: Any]])?.contains { $0["kind"] as? String == "plan" } } == [false, false, true, true])
        #expect(run(home, "plan", "today", "--now", "2027-01-01T08:00").stdout.hasPrefix("Psalms and Proverbs in a Month, Day 1 of 31: Psalm 1;"))
    }

    /// `catch-up` moves only a plan that is behind, and says what it did or why it did nothing.
    @Test(arguments: [
        // (day 1's date, days read, now, what catch-up says, day 1's date after)
        ("2026-11-01", 0, "2026-11-04T08:00", "day 1 is today's reading now; the rest follow one a day (the schedule moved 3 days later)", "2026-11-04"),
        ("2026-11-01", 2, "2026-11-04T08:00", "day 3 is today's reading now; the rest follow one a day (the schedule moved 1 day later)", "2026-11-02"),
        ("2026-11-01", 3, "2026-11-04T08:00", "nothing to catch up: it is on schedule", "2026-11-01"),
        ("2026-11-01", 0, "2026-11-01T08:00", "nothing to catch up: it is on schedule", "2026-11-01"),
        ("2026-11-10", 0, "2026-11-04T08:00", "nothing to catch up: day 1 is on 2026-11-10", "2026-11-10"),
        ("2026-11-10", 1, "2026-11-04T08:00", "nothing to catch up: day 1 is on 2026-11-10", "2026-11-10"),
    ])
    func catchUpMovesOnlyAPlanThatIsBehind(from: String, read: Int, now: String, says: String, after: String) throws {
        let home = try TemporaryHome()
        #expect(run(home, "plan", "start", "psalms-proverbs-month", "--from", from, "--now", "2026-11-01T07:00").status == 0)
        for day in stride(from: 1, through: read, by: 1) { #expect(run(home, "plan", "done", String(day), "--now", "2026-11-01T07:30").status == 0) }
        let caughtUp = run(home, "plan", "catch-up", "--now", now)
        #expect(caughtUp.status == 0 && caughtUp.stdout == "Psalms and Proverbs in a Month: \(says)\n", "\(caughtUp.stderr)")
        #expect(run(home, "plan", "status", "--now", now).stdout.contains("day 1 scheduled on \(after)"))
    }

    @Test func aChangeOfTimeZoneNeverBreaksAStreak() throws {
        let home = try TemporaryHome()
        #expect(run(home, "plan", "start", "nt-90", "--now", "2026-11-01T08:00").status == 0)
        // Read late on Nov 1 in New York (04:00 UTC on Nov 2)…
        #expect(run(home, "plan", "done", "--now", "2026-11-01T23:00").stdout == "The New Testament in 90 Days: day 1 of 90 read; streak 1 day\n")
        // …then early on Nov 2 in Tokyo, an instant *before* the first (23:00 UTC on Nov 1): local dates count.
        #expect(run(home, "plan", "done", "--now", "2026-11-02T08:00", zone: "Asia/Tokyo").stdout == "The New Testament in 90 Days: day 2 of 90 read; streak 2 days\n")
        #expect(run(home, "plan", "status", "--now", "2026-11-02T20:00", zone: "Europe/London").stdout.contains("streak 2 days"))
    }

    @Test func thePlanInAnOldConfigMovesIntoTheJournalOnce() throws {
        let home = try TemporaryHome(config: "plan = nt-90\nplan_start = 2026-11-01\n")
        let first = run(home, "plan", "today", "--now", "2026-11-03T08:00")
        #expect(first.stdout == "The New Testament in 90 Days, Day 1 of 90: Matthew 1-4\n")
        #expect(first.stderr == "manna: the reading plan moved from \(home.path)/.config/manna/config into the journal; its plan and plan_start lines are no longer read\n")
        #expect(run(home, "plan", "status", "--now", "2026-11-03T08:00").stdout.hasPrefix("The New Testament in 90 Days: day 1 of 90, 0 read (0%), 2 days behind"))
        // Once moved, stopping it does not bring it back from the config.
        #expect(run(home, "plan", "stop", "--now", "2026-11-03T09:00").status == 0)
        let after = run(home, "plan", "today", "--now", "2026-11-03T10:00")
        #expect(after.status == 0 && after.stdout.hasPrefix("no plan is running"))
    }

    @Test func userPlansAreLoadedAndBadOnesNamed() throws {
        let home = try TemporaryHome()
        let plans = home.folder.userPlans
        try FileManager.default.createDirectory(at: plans, withIntermediateDirectories: true)
        try #"{"format": 1, "id": "gospels-week", "name": "Gospels Week", "description": "", "days": [{"day": 1, "readings": ["Mark 1"]}, {"day": 2, "readings": ["Mark 2-3"]}]}"#
            .write(to: plans.appendingPathComponent("gospels-week.json"), atomically: true, encoding: .utf8)
        try #"{"format": 1, "id": "broken", "name": "Broken", "description": "", "days": [{"day": 1, "readings": ["Hezekiah 1"]}]}"#
            .write(to: plans.appendingPathComponent("broken.json"), atomically: true, encoding: .utf8)
        let list = run(home, "plan", "list")
        #expect(list.stdout.contains("gospels-week             2 days  Gospels Week\n"))
        #expect(list.stderr == "manna: skipped \(plans.path)/broken.json: field `days[0].readings[0]`: no book called 'Hezekiah'\n")
        #expect(run(home, "plan", "start", "gospels-week", "--now", "2026-11-01T08:00").status == 0)
        #expect(run(home, "plan", "done", "--now", "2026-11-01T09:00").status == 0)
        #expect(run(home, "plan", "today", "--now", "2026-11-02T08:00").stdout == "Gospels Week, Day 2 of 2: Mark 2-3\n")
    }

    @Test func theTimelineListsTheDaysReminderTimesAndNeverTheirText() throws {
        let home = try TemporaryHome()
        #expect(run(home, "pray", "add", "Private <b>words</b>", "--body", "secret", "--remind", "mon,wed,fri 21:00", "--remind", "07:30",
                    "--now", "2026-11-01T08:00").status == 0)
        #expect(run(home, "plan", "start", "nt-90", "--remind", "20:00", "--now", "2026-11-01T08:00").status == 0)
        let printed = run(home, "timeline", "--print", "--now", "2026-11-01T09:00")
        #expect(!printed.stdout.contains("Private") && !printed.stdout.contains("secret"))
        let timeline = try #require(Manna.json(printed) as? [String: Any])
        let entries = try #require(timeline["entries"] as? [[String: Any]])
        func times(_ index: Int) -> [String] {
            ((entries[index]["reminders"] as? [[String: Any]]) ?? []).map { "\($0["time"] ?? "") \($0["kind"] ?? "")" }
        }
        // Sunday Nov 1, then Monday Nov 2.
        #expect(times(0) == ["07:00 verse", "07:30 prayer", "20:00 plan"])
        #expect(times(1) == ["07:00 verse", "07:30 prayer", "20:00 plan", "21:00 prayer"])
    }

    @Test func theTimelineAndPromptShowTheNextUnreadStep() throws {
        let home = try TemporaryHome()
        #expect(run(home, "plan", "start", "nt-90", "--from", "2026-10-01", "--now", "2026-11-01T08:00").status == 0)
        #expect(run(home, "plan", "done", "--now", "2026-11-01T08:05").status == 0)
        let timeline = try #require(Manna.json(run(home, "timeline", "--print", "--now", "2026-11-01T09:00")) as? [String: Any])
        let entries = try #require(timeline["entries"] as? [[String: Any]])
        #expect(entries.prefix(3).map { ($0["plan"] as? [String: Any])?["day"] as? Int } == [2, 3, 4])
        #expect(run(home, "prompt", "--format", "{plan}", "--now", "2026-11-01T09:00").stdout == "Day 2 of 90: Matthew 5-6\n")
    }
}
