import Foundation
import Testing
import TestSupport

/// `manna pray`: every subcommand's output and error text, word for word, in a HOME of its own
/// (America/New_York, explicit `--now` and `--date`). The journal needs no text database.
@Suite struct PrayTests {
    /// A TemporaryHome in America/New_York, run without waiting for the text database.
    struct Home {
        let home: TemporaryHome
        var url: URL { home.url }
        init() throws { home = try TemporaryHome(environment: ["TZ": "America/New_York"]) }

        @discardableResult
        func pray(_ arguments: String..., input: String? = nil) -> Run {
            Manna.run(["pray"] + arguments, environment: home.environment, input: input)
        }

        /// Adds a prayer and returns its short id, read from "added ID: TITLE".
        func add(_ arguments: String...) throws -> String {
            let run = Manna.run(["pray", "add"] + arguments, environment: home.environment)
            try #require(run.status == 0, "\(run.stderr)")
            let id = run.stdout.dropFirst("added ".count).prefix { $0 != ":" }
            try #require(id.count == 4)
            return String(id)
        }
    }

    @Test func addListShowAndTheirJSON() throws {
        let home = try Home()
        let added = home.pray("add", "For Mum", "--body", "She starts on Monday\nand is nervous", "--tag", "Family",
                              "--tag", "#health", "--remind", "07:30", "--remind", "Fri, Mon,  wed 21:00", "--remind", "7:30",
                              "--now", "2026-03-01T09:12")
        #expect(added.status == 0)
        #expect(added.stderr == "")
        let mum = String(added.stdout.dropFirst(6).prefix(4))
        #expect(added.stdout == "added \(mum): For Mum (reminders: 07:30; mon,wed,fri 21:00)\n")
        let church = try home.add("Church plant", "--now", "2026-03-01T09:13")

        #expect(home.pray("list").stdout == "\(mum)  For Mum  #family  #health\n\(church)  Church plant\n")
        #expect(home.pray("list", "--tag", "FAMILY").stdout == "\(mum)  For Mum  #family  #health\n")
        #expect(home.pray("list", "--tag", "work").stdout == "no open prayers tagged #work; add one with: manna pray add TITLE\n")
        #expect(home.pray("show", mum).stdout == """
            \(mum)  For Mum
            tags       family, health
            reminders  07:30; mon,wed,fri 21:00
            added      2026-03-01 09:12
            prayed     not yet

            She starts on Monday
            and is nervous

            """)
        // Ids are typed in any case.
        #expect(home.pray("show", mum.uppercased()).status == 0)

        let list = try #require(Manna.json(home.pray("list", "--json")) as? [[String: Any]])
        #expect(list.count == 2)
        #expect(list[0]["id"] as? String == mum)
        #expect(list[0]["tags"] as? [String] == ["family", "health"])
        #expect(list[0]["created_at"] as? String == "2026-03-01T09:12:00-05:00")
        #expect(list[0]["answered_at"] is NSNull)
        let shown = try #require(Manna.json(home.pray("show", church, "--json")) as? [String: Any])
        #expect(shown["title"] as? String == "Church plant")
        #expect(shown["body"] as? String == "")
        #expect(shown["reminders"] as? [String] == [])
        #expect((shown["prayed"] as? [String: Any])?["count"] as? Int == 0)
    }

    @Test func editAnswerDeleteRestorePrayedAndSnooze() throws {
        let home = try Home()
        let id = try home.add("For Mum", "--remind", "07:30", "--now", "2026-03-01T09:12")
        #expect(home.pray("edit", id, "--title", "For Mum and Dad", "--remind", "weekdays 12:15", "--remind", "07:30",
                          "--now", "2026-03-02T08:00").stdout
            == "edited \(id): For Mum and Dad (reminders: weekdays 12:15; 07:30)\n")
        #expect(home.pray("edit", id, "--tag", "family", "--now", "2026-03-02T08:01").stdout == "edited \(id): For Mum and Dad\n")
        #expect(home.pray("prayed", id, "--now", "2026-03-08T07:31").stdout == "prayed \(id): For Mum and Dad (once)\n")
        #expect(home.pray("prayed", id, "--now", "2026-03-09T07:35").stdout == "prayed \(id): For Mum and Dad (2 times)\n")
        #expect(home.pray("snooze", id, "--now", "2026-03-09T07:35").stdout == "snoozed \(id): For Mum and Dad, until 07:45\n")
        #expect(home.pray("snooze", id, "--minutes", "90", "--now", "2026-03-09T23:00").stdout == "snoozed \(id): For Mum and Dad, until 00:30\n")
        #expect(home.pray("show", id, "--now", "2026-03-09T23:59").stdout.contains("\nsnoozed    until 2026-03-10 00:30\n"))
        let snoozed = try #require(Manna.json(home.pray("show", id, "--json", "--now", "2026-03-09T23:59")) as? [String: Any])
        #expect(snoozed["snoozed_until"] as? String == "2026-03-10T00:30:00-04:00")
        #expect(!home.pray("show", id, "--now", "2026-03-10T00:30").stdout.contains("snoozed"))
        #expect(home.pray("answered", id, "--note", "She got the job", "--now", "2026-04-02T10:00").stdout == "answered \(id): For Mum and Dad\n")
        #expect(home.pray("list").stdout == "no open prayers; add one with: manna pray add TITLE\n")
        #expect(home.pray("list", "--answered").stdout == "\(id)  2026-04-02  For Mum and Dad  #family\n")
        #expect(home.pray("delete", id, "--now", "2026-04-03T10:00").stdout == "deleted \(id): For Mum and Dad (undo: manna pray restore \(id))\n")
        #expect(home.pray("delete", id).stdout == "\(id) is already deleted: For Mum and Dad\n")
        #expect(home.pray("list", "--answered").stdout == "no answered prayers\n")
        #expect(home.pray("list", "--deleted").stdout == "\(id)  2026-04-03  For Mum and Dad  #family\n")
        #expect(home.pray("show", id).stdout == """
            \(id)  For Mum and Dad
            tags       family
            reminders  07:30; weekdays 12:15
            added      2026-03-01 09:12
            prayed     2 times, last 2026-03-09 07:35
            answered   2026-04-02 10:00: She got the job
            deleted    2026-04-03 10:00 (undo: manna pray restore \(id))

            """)
        let deleted = home.pray("edit", id, "--title", "x")
        #expect(deleted.status == 65)
        #expect(deleted.stderr == "manna: prayer \(id) is deleted: restore it first with 'manna pray restore \(id)'\n")
        #expect(home.pray("restore", id).stdout == "restored \(id): For Mum and Dad\n")
        #expect(home.pray("restore", id).stdout == "\(id) is not deleted: For Mum and Dad\n")
        #expect(home.pray("edit", id, "--no-remind", "--no-tag").stdout == "edited \(id): For Mum and Dad\n")
        #expect(!home.pray("show", id).stdout.contains("reminders"))
        #expect(!home.pray("show", id).stdout.contains("tags"))
    }

    @Test func theBodyCanComeFromStdinSoItNeverSitsInTheProcessList() throws {
        let home = try Home()
        let id = try home.add("Quiet", "--now", "2026-03-01T09:00")
        #expect(home.pray("edit", id, "--body", "-", input: "line one\nline two\n").status == 0)
        #expect(home.pray("show", id).stdout.hasSuffix("prayed     not yet\n\nline one\nline two\n"))
    }

    @Test func todayRotatesThroughEveryOpenPrayer() throws {
        let home = try Home()
        var ids: [String] = []
        for number in 1...7 {
            ids.append(try home.add("Prayer \(number)", "--body", "\n  first line \(number)  \nsecond", "--now", "2026-03-01T09:0\(number)"))
        }
        // 2026-03-08 is day 20520 since 1970: 20520 × 3 mod 7 = 2, so positions 2, 3, 4.
        #expect(home.pray("today", "--date", "2026-03-08").stdout == """
            2026-03-08: 3 of 7 open prayers
            \(ids[2])  Prayer 3
                  first line 3
            \(ids[3])  Prayer 4
                  first line 4
            \(ids[4])  Prayer 5
                  first line 5

            """)
        // The same date gives the same prayers; three days in a row show all seven.
        #expect(home.pray("today", "--date", "2026-03-08").stdout.contains(ids[2]))
        var seen = Set<String>()
        for day in ["2026-03-08", "2026-03-09", "2026-03-10"] {
            let today = try #require(Manna.json(home.pray("today", "--date", day, "--json")) as? [String: Any])
            #expect(today["open"] as? Int == 7)
            for prayer in try #require(today["prayers"] as? [[String: Any]]) { seen.insert(prayer["id"] as? String ?? "") }
        }
        #expect(seen == Set(ids))
        // Answered prayers leave the rotation.
        for id in ids.dropFirst() { home.pray("answered", id) }
        #expect(home.pray("today", "--date", "2026-03-08").stdout == "2026-03-08: 1 of 1 open prayer\n\(ids[0])  Prayer 1\n      first line 1\n")
        home.pray("delete", ids[0])
        #expect(home.pray("today", "--date", "2026-03-08").stdout == "no open prayers; add one with: manna pray add TITLE\n")
    }

    @Test func userTextCannotMoveTheTerminal() throws {
        let home = try Home()
        let id = try home.add("Bold \u{1B}[1mtitle\u{07}", "--body", "a\u{1B}]0;pwned\u{07}b\nc", "--now", "2026-03-01T09:00")
        #expect(home.pray("list").stdout == "\(id)  Bold  [1mtitle \n")
        #expect(home.pray("show", id).stdout.hasSuffix("\n\na]0;pwnedb\nc\n"))
    }

    @Test(arguments: [
        (["pray"], 64, "manna: pray needs one of add, list, show, edit, answered, reopen, delete, restore, today, prayed, snooze; see 'manna pray --help'\n"),
        (["pray", "pray"], 64, "manna: 'pray' is not a pray subcommand; did you mean 'prayed'?\n"),
        (["pray", "frobnicate"], 64, "manna: pray needs one of add, list, show, edit, answered, reopen, delete, restore, today, prayed, snooze; see 'manna pray --help'\n"),
        (["pray", "add"], 64, "manna: pray add needs a title: manna pray add \"For Anna's exams\"\n"),
        (["pray", "add", "  "], 65, "manna: a prayer needs a title: give it as the first argument, like manna pray add \"For Anna's exams\"\n"),
        (["pray", "add", "x", "--remind", "fry 21:00"], 65,
         "manna: reminder 'fry 21:00': 'fry' is not a day (mon to sun, weekdays, weekends); write it like 07:30 (daily), mon,wed,fri 21:00, weekdays 12:15, weekends 10:00, 1st 08:00 (monthly, 1st to 31st) or 2027-05-01 18:00 (once)\n"),
        (["pray", "add", "x", "--remind", "32nd 08:00"], 65,
         "manna: reminder '32nd 08:00': '32nd' is not a day of the month (1st to 31st); write it like 07:30 (daily), mon,wed,fri 21:00, weekdays 12:15, weekends 10:00, 1st 08:00 (monthly, 1st to 31st) or 2027-05-01 18:00 (once)\n"),
        (["pray", "add", "x", "--tag", "two words"], 65, "manna: tag 'two words' must be one word without commas, like family or #family\n"),
        (["pray", "add", "x", "--remind"], 64, "manna: option --remind needs a value; see 'manna pray --help'\n"),
        (["pray", "list", "--remind", "07:00"], 64, "manna: option --remind does not apply to 'pray list'; see 'manna pray --help'\n"),
        (["pray", "list", "--answered", "--deleted"], 64, "manna: pray list takes --answered or --deleted, not both\n"),
        (["pray", "list", "extra"], 64, "manna: pray list takes no arguments; see 'manna pray --help'\n"),
        (["pray", "show"], 64, "manna: pray show needs one prayer id, like manna pray show k7m2\n"),
        (["pray", "show", "zz99"], 65, "manna: no prayer with id 'zz99': see 'manna pray list'\n"),
        (["pray", "answered", "zz99", "--note", "x"], 65, "manna: no prayer with id 'zz99': see 'manna pray list'\n"),
        (["pray", "today", "--date", "2026-02-30"], 64, "manna: --date must be a date YYYY-MM-DD that exists, like 2026-12-25, not '2026-02-30'\n"),
        (["pray", "add", "x", "--now", "tomorrow"], 64, "manna: --now must be a date and time like 2026-03-08T07:00 or 2026-03-08T07:00:00-05:00, not 'tomorrow'\n"),
    ] as [([String], Int32, String)])
    func badInputGetsOneLineAndItsStatus(arguments: [String], status: Int32, message: String) throws {
        let home = try Home()
        let run = Manna.run(arguments, environment: ["HOME": home.url.path, "TZ": "America/New_York"])
        #expect(run.status == status)
        #expect(run.stderr == message)
        #expect(run.stdout == "")
    }

    @Test func editAndSnoozeCheckTheirOptions() throws {
        let home = try Home()
        let id = try home.add("x", "--now", "2026-03-01T09:00")
        for (arguments, message) in [
            (["edit", id], "manna: pray edit needs something to change: --title, --body, --tag, --no-tag, --remind or --no-remind\n"),
            (["edit", id, "--remind", "07:00", "--no-remind"], "manna: pray edit takes --remind or --no-remind, not both\n"),
            (["edit", id, "--tag", "a", "--no-tag"], "manna: pray edit takes --tag or --no-tag, not both\n"),
            (["snooze", id, "--minutes", "0"], "manna: --minutes must be a whole number from 1 to 1440, not '0'\n"),
        ] {
            let run = Manna.run(["pray"] + arguments, environment: ["HOME": home.url.path, "TZ": "America/New_York"])
            #expect(run.status == 64)
            #expect(run.stderr == message)
        }
    }

    @Test func theJournalIsPrivate() throws {
        let home = try Home()
        _ = try home.add("Private", "--now", "2026-03-01T09:00")
        let journal = home.home.journal
        #expect(try FileManager.default.attributesOfItem(atPath: journal)[.posixPermissions] as? Int == 0o600)
    }
}
