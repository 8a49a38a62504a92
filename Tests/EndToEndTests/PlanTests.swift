import Foundation
import Testing
import TestSupport

/// Reading plans and progress: start, today, done, status, catch-up, streaks, stop.
@Suite struct PlanTests {
    func run(_ home: TemporaryHome, _ arguments: String..., zone: String = "America/New_York") -> Run {
        precondition(Manna.textDatabaseReady)
        return Manna.run(arguments, environment: ["HOME": home.path, "TZ": zone])
    }

    @Test func aPlanFromStartToCatchUp() throws {
        let home = try TemporaryHome()
        #expect(run(home, "plan", "start", "psalms-proverbs-month", "--from", "2026-11-01", "--now", "2026-11-01T08:00").stdout
            == "started Psalms and Proverbs in a Month (31 days), day 1 on 2026-11-01\n")
        #expect(run(home, "plan", "today", "--now", "2026-11-01T08:00").stdout
            == "Psalms and Proverbs in a Month, Day 1 of 31: Psalm 1; Psalm 31; Psalm 61; Psalm 91; Psalm 121; Proverbs 1\n")
        #expect(run(home, "plan", "done", "--now", "2026-11-01T21:00").stdout == "day 1 of 31 read; streak 1 day\n")
        #expect(run(home, "plan", "done", "--now", "2026-11-02T21:00").stdout == "day 2 of 31 read; streak 2 days\n")
        // Three days missed: behind, and the streak is gone.
        #expect(run(home, "plan", "status", "--now", "2026-11-06T08:00").stdout == """
            Psalms and Proverbs in a Month: day 3 of 31, 2 read (6%), 3 days behind, streak 0 days
            started 2026-11-01; day 1 scheduled on 2026-11-01

            """)
        // Today's step is the next unread one, whatever the date.
        #expect(run(home, "plan", "today", "--now", "2026-11-06T08:00").stdout.hasPrefix("Psalms and Proverbs in a Month, Day 3 of 31: Psalm 3;"))
        #expect(run(home, "plan", "catch-up", "--now", "2026-11-06T08:00").stdout
            == "Psalms and Proverbs in a Month: day 3 is today's reading now; the rest follow one a day\n")
        #expect(run(home, "plan", "status", "--now", "2026-11-06T08:00").stdout.hasPrefix("Psalms and Proverbs in a Month: day 3 of 31, 2 read (6%), on schedule"))
        let read = run(home, "plan", "today", "--read", "--now", "2026-11-06T08:00")
        #expect(read.stdout.contains("\nPsalm 3 (KJV)\n  A Psalm of David, when he fled from Absalom his son.\n1 LORD, how are they increased that trouble me!"))
        #expect(run(home, "plan", "done", "99", "--now", "2026-11-06T08:00").stderr == "manna: there is no day 99: the plan has days 1 to 31\n")
        #expect(run(home, "plan", "stop", "--now", "2026-11-06T09:00").stdout
            == "stopped Psalms and Proverbs in a Month with 2 of 31 days read; its progress stays in the journal\n")
        #expect(run(home, "plan", "status").status == 64)
    }

    @Test func aChangeOfTimeZoneNeverBreaksAStreak() throws {
        let home = try TemporaryHome()
        #expect(run(home, "plan", "start", "nt-90", "--now", "2026-11-01T08:00").status == 0)
        // Read late on Nov 1 in New York (04:00 UTC on Nov 2)…
        #expect(run(home, "plan", "done", "--now", "2026-11-01T23:00").stdout == "day 1 of 90 read; streak 1 day\n")
        // …then early on Nov 2 in Tokyo, an instant *before* the first (23:00 UTC on Nov 1): local dates count.
        #expect(run(home, "plan", "done", "--now", "2026-11-02T08:00", zone: "Asia/Tokyo").stdout == "day 2 of 90 read; streak 2 days\n")
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
        #expect(after.status == 64 && after.stderr.hasPrefix("manna: no plan is running"))
    }

    @Test func userPlansAreLoadedAndBadOnesNamed() throws {
        let home = try TemporaryHome()
        let plans = home.url.appendingPathComponent(".config/manna/plans")
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
