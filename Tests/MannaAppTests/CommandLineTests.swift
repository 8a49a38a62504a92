// The command line in-process: the one edge where errors become a line and a status, the
// clock every write takes its time from, and reads that never write.
import Foundation
@testable import MannaKit
import Testing

@testable import MannaApp

@Suite struct CommandLineTests {
    @Test func everyUserErrorIsOneLineAndItsStatusAtTheEdge() throws {
        let home = try TestHome()
        let cases: [([String], Int32, String)] = [
            ([], 64, ""),
            (["raed", "John 3:16"], 64, "manna: unknown command 'raed'; did you mean 'read'?\n"),
            (["synk", "now"], 64, "manna: unknown command 'synk'; did you mean 'sync'?\n"),
            (["sync", "stauts"], 64, "manna: 'stauts' is not a sync subcommand; did you mean 'status'?\n"),
            (["pray", "lsit"], 64, "manna: 'lsit' is not a pray subcommand; did you mean 'list'?\n"),
            (["plan", "stat"], 64, "manna: 'stat' is not a plan subcommand; did you mean 'start'?\n"),
            (["config", "set", "notfy_at", "07:00"], 64, "manna: unknown key 'notfy_at'; did you mean 'notify_at'?\n"),
            (["search", "zzzzqqq"], 1, "manna: no verse in the KJV matches 'zzzzqqq'\n"),
            // Nothing in the translation chosen: where the search finds verses, and how many (issue 29).
            (["search", "throughly", "-t", "WEB"], 1, "manna: no verse in the WEB matches 'throughly'; in the KJV: Jeremiah 7:5 and 10 more\n"),
            (["search", "Jesus wept", "-t", "RV1909", "--book", "John"], 1,
             "manna: no verse in the RV1909 of John matches 'Jesus wept'; in the KJV: John 11:35; in the ASV: John 11:35; in the WBS: John 11:35; in the WEB: John 11:35\n"),
            (["plan", "start", "bible-in-a-week"], 65, "manna: no plan called 'bible-in-a-week': see 'manna plan list'\n"),
            (["plan", "start", "bible-in-a-yaer"], 65, "manna: no plan called 'bible-in-a-yaer'; did you mean 'bible-in-a-year'?\n"),
            (["help", "nosuch"], 64, "manna: no command 'nosuch' to help with; see 'manna --help' for the commands\n"),
            (["help", "prya"], 64, "manna: no command 'prya' to help with; did you mean 'pray'?\n"),
            (["read", "--colour"], 64, "manna: unknown option '--colour' for 'manna read'; see 'manna read --help'\n"),
            (["read", "Jude 2:1"], 65, "manna: " + ReferenceError.noSuchChapter(book: "Jude", chapter: 2, chapters: 1).message + "\n"),
            (["read", "John 3:16", "--translation", "NIV"], 64, ""),
            (["pray", "show", "zzzz"], 65, "manna: no prayer with id 'zzzz': see 'manna pray list'\n"),
            (["plan", "done"], 65, "manna: " + PlanProgressError.noRunningPlan.message + "\n"),
            (["search", "\"\""], 65, "manna: '\"\"' has no letters or digits to search for\n"),
            (["search", ""], 64, ""),
        ]
        for (arguments, status, stderr) in cases {
            let outcome = home.run(arguments)
            #expect(outcome.status == status, "\(arguments): \(outcome.stderr)")
            if !stderr.isEmpty { #expect(outcome.stderr == stderr, "\(arguments)") }
            if !arguments.isEmpty { #expect(outcome.stderr.filter { $0 == "\n" }.count == 1, "\(arguments)") }
        }
    }

    /// Short options, options before the command, and a dash word that is no option refused.
    @Test func optionsAsPeopleTypeThem() throws {
        let home = try TestHome()
        let web = home.run("read", "John 3:16", "--translation", "WEB").stdout
        #expect(home.run("read", "John 3:16", "-t", "WEB").stdout == web)
        #expect(home.run("read", "John 3:16", "--translation=WEB").stdout == web)
        #expect(home.run("--translation", "WEB", "read", "John 3:16").stdout == web)
        #expect(home.run("-t", "WEB", "read", "John 3:16").stdout == web)
        #expect(home.run("search", "love one another", "-n", "1").stdout == home.run("search", "love one another", "--limit", "1").stdout)
        #expect(home.run("search", "love one another", "-n", "1").stdout.split(separator: "\n").count == 1)
        let added = home.run("pray", "add", "-x")
        #expect(added.status == 64)
        #expect(added.stderr == "manna: unknown option '-x' for 'manna pray'; see 'manna pray --help' (a text that starts with '-' goes after '--')\n")
        #expect(home.run("pray", "list").stdout.contains("-x") == false)
        #expect(home.run("pray", "add", "--", "-x").status == 0)
    }

    @Test func theVersionHasItsShortOption() throws {
        let home = try TestHome()
        #expect(home.run("-V").stdout == "manna \(Manna.version)\n")
        #expect(home.run("--version").stdout == "manna \(Manna.version)\n")
        #expect(home.run("help", "sync").stdout.hasPrefix("usage: manna sync init DIR"))
    }

    @Test func aMistypedWordIsMatchedWithinTwoEdits() {
        let commands = Manna.commands.map(\.name)
        #expect(Suggestion.closest(to: "raed", in: commands) == "read")
        #expect(Suggestion.closest(to: "serach", in: commands) == "search")
        #expect(Suggestion.closest(to: "instal", in: commands) == "install")
        #expect(Suggestion.closest(to: "frobnicate", in: commands) == nil)
        // Short words take one edit at most: "pry" is "pray", "xy" is nothing.
        #expect(Suggestion.closest(to: "pry", in: commands) == "pray")
        #expect(Suggestion.closest(to: "xy", in: commands) == nil)
    }

    @Test func anErrorThatIsNotAUserErrorIsCalledABug() {
        struct Unexpected: Error {}
        let (message, status) = Manna.report(Unexpected())
        #expect(status == .software)
        #expect(message.hasPrefix("unexpected error (please report it): "))
        #expect(Manna.report(Failure.data("bad")) == ("bad", .dataError))
        #expect(Manna.report(JournalError.damaged(path: "/j")).status == .ioError)
        #expect(Manna.report(NotifyError.noBus("none")).status == .unavailable)
    }

    @Test func everyWriteTakesItsTimeFromTheClockOrNow() throws {
        let home = try TestHome()
        #expect(home.run("note", "add", "John 3:16", "From the clock").status == 0)
        #expect(home.run("note", "add", "John 3:17", "From --now", "--now", "2027-01-02T08:30:00Z").status == 0)
        #expect(home.run("bookmark", "add", "Rom 8:28", "--now", "2027-01-03T09:00:00Z").status == 0)
        #expect(home.run("highlight", "Ps 23:1", "--now", "2027-01-04T10:00:00Z").status == 0)
        let export = home.run("export").stdout
        for stamp in ["2026-12-01T12:00:00Z", "2027-01-02T08:30:00Z", "2027-01-03T09:00:00Z", "2027-01-04T10:00:00Z"] {
            #expect(export.contains("\"created_at\": \"\(stamp)\""), "\(stamp)")
        }
        #expect(!export.contains("2026-12-01T13"))  // nothing read the machine's clock
    }

    @Test func theOldConfigsPlanMovesInOnceAsTheJournalIsMigratedAndReadsNeverWrite() throws {
        let home = try TestHome(config: "plan = nt-90\nplan_start = 2026-11-01\n")
        let first = home.run("plan", "today", "--now", "2026-11-03T08:00")
        #expect(first.stdout == "The New Testament in 90 Days, Day 1 of 90: Matthew 1-4\n")
        #expect(first.stderr == "manna: the reading plan moved from \(home.paths.config) into the journal; its plan and plan_start lines are no longer read\n")
        // Reading it now changes nothing in the journal, byte for byte.
        let before = try Data(contentsOf: URL(fileURLWithPath: home.paths.journal))
        for arguments in [["plan", "status", "--now", "2026-11-03T08:00"], ["plan", "today", "--now", "2026-11-04T08:00"],
                          ["timeline", "--print", "--now", "2026-11-04T08:00"], ["read", "John 3:16"], ["pray", "list"]] {
            let outcome = home.run(arguments)
            #expect(outcome.status == 0 && outcome.stderr.isEmpty, "\(arguments): \(outcome.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: home.paths.journal)) == before)
        #expect(try home.journal().schemaVersion == Journal.migrations.count)
    }

    @Test func readingWithoutAJournalCreatesNone() throws {
        let home = try TestHome()
        for arguments in [["read", "John 3:16"], ["today", "--date", "2026-12-25"], ["note", "list"], ["plan", "list"],
                          ["pray", "list"], ["pray", "today"], ["pray", "show", "k7m2"], ["timeline", "--print", "--now", "2026-12-25T08:00"]] {
            #expect([0, 65].contains(home.run(arguments).status), "\(arguments)")
        }
        #expect(!FileManager.default.fileExists(atPath: home.paths.journal))
    }

    /// User text never reaches the terminal as a control: C0 (ESC, BEL), C1 (one-character CSI
    /// and OSC) or a bidi override, in notes, prayers, search history and user plans' names.
    @Test func userTextIsNeutralisedOnItsWayToTheTerminal() throws {
        let home = try TestHome()
        let hostile = "A\u{1B}]0;pwned\u{07}B\u{9B}31mC\u{9D}0;x\u{9C}D\u{202E}E\u{2066}F"
        #expect(home.run("note", "add", "John 3:16", hostile).status == 0)
        #expect(home.run("pray", "add", hostile, "--body", hostile).status == 0)
        let plans = home.folder.userPlans
        try FileManager.default.createDirectory(at: plans, withIntermediateDirectories: true)
        try #"{"format": 1, "id": "mine", "name": "Mine\u001b[2J\u0007\u009b1m\u202e", "description": "", "days": [{"day": 1, "readings": ["Mark 1"]}]}"#
            .write(to: plans.appendingPathComponent("mine.json"), atomically: true, encoding: .utf8)
        let id = home.run("pray", "list").stdout.split(separator: " ").first.map(String.init) ?? "?"
        for arguments in [["note", "list"], ["read", "John 3:16"], ["pray", "list"], ["pray", "show", id], ["plan", "list"]] {
            let output = home.run(arguments).stdout
            #expect(!output.isEmpty, "\(arguments)")
            let controls = output.unicodeScalars.filter { $0 != "\n" && String.isTerminalControl($0) }
            #expect(controls.isEmpty, "\(arguments) printed \(controls.map { String($0.value, radix: 16) })")
        }
    }

    /// The edges: a one-off reminder already past, a byte-order mark before the first key, a
    /// timeline at the end of year 9999, and a config line the prompt must not blank on.
    @Test func edgesAreRefusedOrTakenAsMeant() throws {
        let home = try TestHome(config: "\u{FEFF}translation = WEB\n")
        #expect(home.run("config", "get", "translation").stdout == "WEB\n")
        let past = home.run("pray", "add", "Too late", "--remind", "2026-11-30 18:00", "--now", "2026-12-01T12:00")
        #expect(past.status == 65)
        #expect(past.stderr == "manna: reminder '2026-11-30 18:00': that time has passed; give a date and time to come, or a repeating time like 07:30\n")
        #expect(home.run("pray", "add", "In time", "--remind", "2026-12-01 18:00", "--now", "2026-12-01T12:00").status == 0)
        let timeline = home.run("timeline", "--print", "--now", "9999-12-30T12:00")
        #expect(timeline.status == 0 && timeline.stdout.contains("\"date\": \"9999-12-31\"") && !timeline.stdout.contains("10000-"))
        let broken = try TestHome(config: "translation = WEB\nfoo = bar\n")
        let prompt = broken.run("prompt", "--now", "2026-12-01T12:00")
        #expect(prompt.status == 0 && prompt.stdout.hasPrefix("Romans 13:11-12: ") && prompt.stderr.isEmpty, "\(prompt.stderr)")
        let widget = broken.run("widget", "--format", "plain", "--now", "2026-12-01T12:00")
        #expect(widget.status == 0 && widget.stderr.isEmpty)
        // Everything else says what is wrong, and goes on.
        let today = broken.run("today", "--date", "2026-12-01")
        #expect(today.status == 0 && today.stdout.hasPrefix("Romans 13:11-12 (WEB)"))
        #expect(today.stderr.hasPrefix("manna: \(broken.paths.config):2: unknown key 'foo'"))
    }

    /// No HOME to keep the files under (and no absolute XDG folders): one line and 78, and no
    /// folder made at / or in the working folder.
    @Test func withoutAHomeNothingIsMadeAnywhere() throws {
        for home in [nil, "", "relative/home"] as [String?] {
            var environment: Environment = [:]
            environment["HOME"] = home
            environment["XDG_DATA_HOME"] = "relative/data"
            let stderr = Output.captured()
            let context = Context(environment: environment, clock: .fixed(0), stdout: .captured(), stderr: stderr,
                                  notifier: RecordingNotifier(), executablePath: TestHome.manna, userID: 1000)
            #expect(Manna.run(arguments: ["note", "add", "John 3:16", "Lost?"], context: context) == 78)
            #expect(stderr.text.hasPrefix("manna: HOME is ") && stderr.text.contains("XDG_DATA_HOME"), "\(stderr.text)")
        }
        #expect(!FileManager.default.fileExists(atPath: "relative") && !FileManager.default.fileExists(atPath: "/.local/share/manna"))
    }

    /// A request for more than the whole Bible, once, is refused with the limit named, not
    /// gathered into memory (Psalm 119 ten thousand times took 575 MB).
    @Test func aHugeRequestIsRefusedWithTheLimitNamed() throws {
        let home = try TestHome()
        let tooMuch = home.run("read", Array(repeating: "Ps 119", count: 200).joined(separator: "; "))  // 35,200 verses
        #expect(tooMuch.status == 64)
        #expect(tooMuch.stderr == "manna: a passage to print can be at most 31102 verses (the whole Bible, once); ask for less\n")
        #expect(home.run("compare", Array(repeating: "Ps 119", count: 200).joined(separator: "; ")).status == 64)
        #expect(home.run("read", Array(repeating: "Ps 119", count: 100).joined(separator: "; ")).status == 0)
    }
}

/// Nouns and verbs everywhere (issue 13, point 1): every kind of record can be listed, changed,
/// deleted and brought back the same way, and a second word never runs into a title.
@Suite struct GrammarTests {
    func id(_ outcome: Outcome, after word: String) -> String {
        String(outcome.stdout.split(separator: " ").drop { $0 != word }.dropFirst().first?.prefix(4) ?? "")
    }

    @Test func marksAreEditedDeletedAndRestored() throws {
        let home = try TestHome()
        let note = id(home.run("note", "add", "John 3:16", "first"), after: "note")
        #expect(home.run("note", "edit", note, "second").stdout == "edited note \(note) on John 3:16\n")
        #expect(home.run("note", "list").stdout == "\(note)  John 3:16  second\n")
        #expect(home.run("note", "delete", note).stdout == "deleted note \(note) on John 3:16 (undo: manna note restore \(note))\n")
        #expect(home.run("note", "edit", note, "third").status == 65)
        #expect(home.run("note", "restore", note).stdout == "restored note \(note) on John 3:16\n")
        #expect(home.run("note", "list").stdout == "\(note)  John 3:16  second\n")
        #expect(home.run("note", "restore", note).stderr == "manna: no note with id '\(note)'\n")

        let yellow = String(home.run("highlight", "add", "Ps 23:1").stdout.split(separator: "(").last!.prefix(4))
        #expect(home.run("highlight", "delete", yellow).status == 0)
        let green = String(home.run("highlight", "Ps 23:1", "--color", "green").stdout.split(separator: "(").last!.prefix(4))
        let refused = home.run("highlight", "restore", yellow)
        #expect(refused.status == 65)
        #expect(refused.stderr == "manna: Psalm 23:1 has a highlight already (\(green)): delete it to restore this one\n")
        #expect(home.run("highlight", "delete", green).status == 0)
        #expect(home.run("highlight", "restore", yellow).stdout == "restored highlight \(yellow) on Psalm 23:1 (yellow)\n")

        let bookmark = String(home.run("bookmark", "add", "Rom 8:28").stdout.split(separator: "(").last!.prefix(4))
        #expect(home.run("bookmark", "delete", bookmark).status == 0)
        #expect(home.run("bookmark", "restore", bookmark).stdout == "restored bookmark \(bookmark) on Romans 8:28\n")
        #expect(home.run("bookmark", "restor", bookmark).stderr == "manna: 'restor' is not a bookmark subcommand; did you mean 'restore'?\n")
    }

    @Test func aPrayerTakesATitleAndABodyAndReopens() throws {
        let home = try TestHome()
        let added = home.run("pray", "add", "Anna", "exam Friday")
        let prayer = String(added.stdout.dropFirst("added ".count).prefix(4))
        #expect(added.stdout == "added \(prayer): Anna\n")
        #expect(home.run("pray", "show", prayer).stdout.contains("exam Friday"))
        let three = home.run("pray", "add", "Pray", "for", "Anna")
        #expect(three.status == 64)
        #expect(three.stderr.hasPrefix("manna: pray add takes a title and, if you like, a body: quote each"))
        #expect(home.run("pray", "add", "Anna", "exam", "--body", "twice").status == 64)
        #expect(home.run("pray", "answered", prayer).status == 0)
        #expect(home.run("pray", "reopen", prayer).stdout == "reopened \(prayer): Anna\n")
        #expect(home.run("pray", "list").stdout.contains(prayer))
        #expect(home.run("pray", "reopen", prayer).stdout == "\(prayer) is open already: Anna\n")
    }

    @Test func aPlanIsShownAndBooksAreSuggested() throws {
        let home = try TestHome()
        let shown = home.run("plan", "show", "nt-90").stdout.split(separator: "\n")
        #expect(shown.first == "The New Testament in 90 Days (nt-90): 90 days")
        #expect(shown.contains("day  1  Matthew 1-4"))
        #expect(shown.count == 92)
        #expect(home.run("plan", "show", "nt90").stderr == "manna: no plan called 'nt90'; did you mean 'nt-90'?\n")
        // A day marked read by mistake is undone.
        #expect(home.run("plan", "start", "nt-90", "--from", "2026-11-30").status == 0)
        #expect(home.run("plan", "done").stdout.hasPrefix("The New Testament in 90 Days: day 1 of 90 read"))
        #expect(home.run("plan", "undo", "1").stdout == "The New Testament in 90 Days: day 1 of 90 is unread again\n")
        #expect(home.run("plan", "status").stdout.hasPrefix("The New Testament in 90 Days: day 1 of 90, 0 read"))
        #expect(home.run("plan", "undo", "1").stdout == "The New Testament in 90 Days: day 1 is not marked read\n")
        #expect(home.run("plan", "undo", "91").status == 65)
        #expect(home.run("plan", "list", "--json").stdout.hasPrefix(#"[{"id":"bible-in-a-year","name":"The Bible in a Year","days":365},"#))
        #expect(home.run("read", "Jhon", "3:16").stderr == "manna: no book called 'Jhon'; did you mean 'John'?\n")
        #expect(home.run("read", "Psalmz", "23").stderr == "manna: no book called 'Psalmz'; did you mean 'Psalms'?\n")
        #expect(home.run("read", "Xyzzy", "1").stderr == "manna: no book called 'Xyzzy'\n")
    }
}

/// An option given to a subcommand that does not take it is refused with one line, never
/// ignored: `note delete ID --json` printed text where JSON was asked for.
@Suite struct SubcommandOptionTests {
    @Test(arguments: [
        (["note", "delete", "k7m2", "--json"], "note delete"),
        (["note", "add", "John 3:16", "text", "--json"], "note add"),
        (["highlight", "John 3:16", "--json"], "highlight"),
        (["highlight", "list", "--color", "green"], "highlight list"),
        (["bookmark", "add", "Rom 8:28", "--json"], "bookmark add"),
        (["config", "get", "translation", "--json"], "config get"),
        (["plan", "start", "nt-90", "--json"], "plan start"),
        (["plan", "list", "--now", "2026-03-08T07:00"], "plan list"),
        (["sync", "now", "--json"], "sync now"),
        (["cues", "check", "x.cues.json", "--from", "webvtt"], "cues check"),
        (["pray", "list", "--remind", "07:00"], "pray list"),
    ] as [([String], String)])
    func isRefusedWithOneLine(arguments: [String], command: String) throws {
        let home = try TestHome()
        let run = home.run(arguments)
        let option = arguments.last { $0.hasPrefix("--") }!
        #expect(run.status == 64)
        #expect(run.stderr == "manna: option \(option) does not apply to '\(command)'; see 'manna \(arguments[0]) --help'\n")
        #expect(run.stdout.isEmpty)
    }

    @Test func theSubcommandsThatTakeItStillDo() throws {
        let home = try TestHome()
        #expect(home.run("note", "add", "John 3:16", "text", "--now", "2026-03-08T07:00").status == 0)
        #expect(home.run("note", "list", "--json").stdout.hasPrefix("[{"))
        #expect(home.run("highlight", "John 3:16", "--color", "green").status == 0)
        #expect(home.run("config", "list", "--json").stdout.hasPrefix("[{"))
    }
}

/// --json on everything that lists or reports (issue 13, point 4): one family of shapes, every
/// record with `id` and `uuid`, references as text and verse ids, RFC 3339 times with the offset.
@Suite struct JSONEverywhereTests {
    func objects(_ outcome: Outcome) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [[String: Any]], "\(outcome.stdout) \(outcome.stderr)")
    }

    @Test func marksPlansAndDoctor() throws {
        let home = try TestHome(zone: "Europe/Berlin")
        #expect(home.run("note", "list", "--json").stdout == "[]\n")
        _ = home.run("note", "add", "John 3:16-18", "the gospel", "--now", "2026-07-01T09:30")
        _ = home.run("highlight", "Ps 23:1", "--color", "green", "--now", "2026-07-01T09:31")
        _ = home.run("bookmark", "add", "Rom 8:28", "--now", "2026-07-01T09:32")
        let note = try #require(try objects(home.run("note", "list", "--json")).first)
        #expect(note["reference"] as? String == "John 3:16-18")
        #expect(note["verse_id"] as? Int == 43_003_016)
        #expect(note["text"] as? String == "the gospel")
        #expect(note["created_at"] as? String == "2026-07-01T09:30:00+02:00")
        #expect((note["id"] as? String)?.count == 4 && (note["uuid"] as? String)?.count == 36)
        let highlight = try #require(try objects(home.run("highlight", "list", "--json")).first)
        #expect(highlight["color"] as? String == "green" && highlight["reference"] as? String == "Psalm 23:1")
        let bookmark = try #require(try objects(home.run("bookmark", "list", "--json")).first)
        #expect(bookmark["updated_at"] as? String == "2026-07-01T09:32:00+02:00")

        _ = home.run("plan", "start", "nt-90", "--from", "2026-12-01")
        // A list, one per running plan; the plan named, one object.
        let today = try objects(home.run("plan", "today", "--json"))
        #expect(today.count == 1 && today[0]["day"] as? Int == 1 && today[0]["readings"] as? [String] == ["Matthew 1-4"])
        let status = try objects(home.run("plan", "status", "--json"))
        #expect(status.count == 1 && status[0]["next"] as? Int == 1 && status[0]["days"] as? Int == 90 && status[0]["remind_at"] is NSNull)
        let named = try #require(try JSONSerialization.jsonObject(with: Data(home.run("plan", "status", "nt-90", "--json").stdout.utf8)) as? [String: Any])
        #expect(named["plan"] as? String == "nt-90")

        _ = home.run("pray", "add", "Anna")
        let prayer = try #require(try objects(home.run("pray", "list", "--json")).first)
        #expect((prayer["uuid"] as? String)?.count == 36 && (prayer["id"] as? String)?.count == 4)

        let doctor = try objects(home.run("doctor", "--json"))
        #expect(doctor.contains { $0["check"] as? String == "time zone" && $0["ok"] as? Bool == true && $0["detail"] as? String == "Europe/Berlin" })
    }
}

/// Terminals (issue 13, point 5): colour only where it belongs, and a cut list said so.
@Suite struct TerminalTests {
    @Test func colourFollowsColorNoColorAndTerm() throws {
        let home = try TestHome()
        let bold = "\u{1B}[1m"
        #expect(!home.run("search", "love one another", "-n", "1").stdout.contains(bold))
        #expect(home.run("search", "love one another", "-n", "1", "--color", "always").stdout.contains(bold))
        #expect(home.run("--color=always", "search", "love one another", "-n", "1").stdout.contains(bold))
        home.onTerminal = true
        #expect(home.run("search", "love one another", "-n", "1").stdout.contains(bold))
        #expect(!home.run("search", "love one another", "-n", "1", "--color=never").stdout.contains(bold))
        home.variables["NO_COLOR"] = "1"
        #expect(!home.run("search", "love one another", "-n", "1").stdout.contains(bold))
        home.variables = ["TERM": "dumb"]
        #expect(!home.run("search", "love one another", "-n", "1").stdout.contains(bold))
        let wrong = home.run("read", "John 3:16", "--color", "sometimes")
        #expect(wrong.status == 64)
        #expect(wrong.stderr == "manna: --color takes auto, always or never, not 'sometimes'\n")
        // A highlight's colour is still a highlight's colour: the command declares a --color of
        // its own. Another command's word "highlight" (a note's text, a search) makes none.
        #expect(home.run("highlight", "John 3:16", "--color", "green").stdout.hasPrefix("highlighted John 3:16 green"))
        for arguments in [["note", "add", "Ps 23:1", "highlight", "--color", "green"], ["search", "highlight", "--color=green"]] {
            let refused = home.run(arguments)
            #expect(refused.status == 64 && refused.stderr == "manna: --color takes auto, always or never, not 'green'\n", "\(arguments): \(refused.stderr)")
        }
    }

    @Test func aCutSearchSaysSoOnStderrWhenPiped() throws {
        let home = try TestHome()
        let piped = home.run("search", "love one another", "-n", "1")
        #expect(piped.stdout.split(separator: "\n").count == 1)
        #expect(piped.stderr.hasPrefix("manna: 1 of "))
        #expect(piped.stderr.hasSuffix(" verses shown, the best; --limit all shows every one\n"))
        home.onTerminal = true
        let shown = home.run("search", "love one another", "-n", "1")
        #expect(shown.stderr == "" && shown.stdout.split(separator: "\n").count == 2)
    }
}

/// A translation written after the reference, as people cite a verse (issue 14, point 2).
@Suite struct TranslationAfterReferenceTests {
    @Test func theTranslationAfterAReferenceIsTheOneRead() throws {
        let home = try TestHome()
        let web = home.run("read", "John 3:16", "--translation", "WEB").stdout
        #expect(home.run("read", "John 3:16 WEB").stdout == web)
        #expect(home.run("read", "John 3:16 (web)").stdout == web)
        #expect(home.run("read", "John", "3:16", "WEB").stdout == web)
        #expect(home.run("read", "Ps 23 ASV").stdout.hasPrefix("Psalm 23 (ASV)\n"))
        let both = home.run("read", "John 3:16 KJV", "-t", "WEB")
        #expect(both.status == 64)
        #expect(both.stderr == "manna: two translations: --translation WEB and KJV after the reference; give one\n")
        // Only the database's codes: anything else is part of the reference, and refused there.
        #expect(home.run("read", "John 3:16 (XYZ)").status == 65)
    }
}

/// Labels (issue 14, point 3): a passage across books numbers each verse with its full
/// reference, across chapters with chapter:verse, and within one with the verse alone.
@Suite struct PassageLabelTests {
    @Test func versesAreLabelledAsFarAsThePassageReaches() throws {
        let home = try TestHome()
        #expect(home.run("read", "John 3:16; Rom 8:28").stdout.split(separator: "\n").map { String($0.prefix(12)) }
            == ["John 3:16; R", "John 3:16   ", "Romans 8:28 "])
        #expect(home.run("read", "John 3:16; 4:1").stdout.split(separator: "\n").map { String($0.prefix(5)) } == ["John ", "3:16 ", " 4:1 "])
        #expect(home.run("read", "John 3:16-17").stdout.split(separator: "\n").map { String($0.prefix(3)) } == ["Joh", "16 ", "17 "])
        #expect(home.run("read", "Ps 119:1").stdout.hasPrefix("Psalm 119:1 (KJV)\n"))
    }
}

/// Psalm titles (issue 14, point 8): part of the text, before verse 1, never a verse.
@Suite struct PsalmTitleTests {
    @Test func readAndCompareShowTheTitleBeforeVerseOne() throws {
        let home = try TestHome()
        #expect(home.run("read", "Ps 3:1-2").stdout == """
            Psalm 3:1-2 (KJV)
              A Psalm of David, when he fled from Absalom his son.
            1 LORD, how are they increased that trouble me! many are they that rise up against me.
            2 Many there be which say of my soul, There is no help for him in God. Selah.

            """)
        // Not when the passage starts after verse 1; not for a psalm without one.
        #expect(!home.run("read", "Ps 3:2").stdout.contains("Absalom"))
        #expect(home.run("read", "Ps 1:1").stdout.split(separator: "\n").count == 2)
        // compare: in each translation (KJV, ASV, WBS, WEB; the RV1909's is "Salmo de David.").
        let compared = home.run("compare", "Ps 23:1").stdout
        #expect(compared.split(separator: "\n").filter { $0.hasPrefix("  A Psalm") } == ["  A Psalm of David.", "  A Psalm of David.", "  A Psalm of David.", "  A Psalm by David."])
        // The ASV's own wording, not the KJV's ("To the chief Musician on Neginoth, …").
        #expect(home.run("read", "Ps 4:1", "-t", "ASV").stdout.hasPrefix("Psalm 4:1 (ASV)\n  For the Chief Musician; on stringed instruments. A Psalm of David.\n1 "))
        let json = try #require(try JSON(parsing: home.run("read", "Ps 23:1", "--json").stdout)["verses"]?.arrayValue)
        #expect(json.count == 2)
        #expect(json[0]["reference"]?.stringValue == "Psalm 23 (title)")
        #expect(json[0]["title"] == .bool(true))
        #expect(json[1]["reference"]?.stringValue == "Psalm 23:1")
    }

    @Test func titlesAreSearchedButNeverCountedAsVerses() throws {
        let home = try TestHome()
        #expect(home.run("search", "Absalom his son", "-n", "1").stdout.hasPrefix("Psalm 3 (title)  A Psalm of David, when he fled from *Absalom his son*."))
        let doctor = home.run("doctor").stdout
        #expect(doctor.contains("31102") || doctor.contains("31,102"))
    }
}

/// Verses a translation lacks where people look for them (issue 14, point 9).
@Suite struct TextGapTests {
    @Test func aVerseTheSourceLostIsNotCalledOmitted() throws {
        let home = try TestHome()
        let read = home.run("read", "Acts 19:40-41", "--translation", "WBS").stdout
        #expect(read.hasSuffix("\n41 [missing from this edition's source]\n"))
        // A verse the translation itself leaves out keeps its label.
        #expect(home.run("read", "Acts 8:37", "--translation", "ASV").stdout.hasSuffix("37 [not in the ASV]\n"))
    }

    @Test func aVerseNumberOfOtherEditionsSaysWhereItsTextIs() throws {
        let home = try TestHome()
        let doxology = home.run("read", "Rom 14:24", "--translation", "WEB")
        #expect(doxology.status == 65)
        #expect(doxology.stderr == "manna: Romans 14 has only 23 verses; Romans 14:24 in the WEB is Romans 16:25 here\n")
        #expect(home.run("read", "3 John 1:15").stderr == "manna: 3 John 1 has only 14 verses; 3 John 1:15 in other editions is 3 John 1:14 here\n")
        #expect(home.run("compare", "Rev 12:18").stderr == "manna: Revelation 12 has only 17 verses; Revelation 12:18 in other editions is Revelation 13:1 here\n")
        // Other numbers beyond a chapter's end are refused as before.
        #expect(home.run("read", "Rom 14:30").stderr == "manna: Romans 14 has only 23 verses\n")
    }
}

/// A second language (issue 14, point 11): the Reina-Valera 1909 with Spanish book names, for
/// reading, searching and the verse of the day.
@Suite struct SpanishTests {
    @Test(arguments: [
        ("Juan 3:16", "Juan 3:16 (RV1909)\n16 Porque de tal manera amó Dios al mundo, que ha dado á su Hijo unigénito, para que todo aquel que en él cree, no se pierda, mas tenga vida eterna.\n"),
        ("1 Corintios 13:4", "1 Corintios 13:4 (RV1909)\n4 La caridad es sufrida, es benigna; la caridad no tiene envidia, la caridad no hace sinrazón, no se ensancha;\n"),
        ("Sal 23:1", "Salmo 23:1 (RV1909)\n  Salmo de David.\n1 JEHOVÁ es mi pastor; nada me faltará.\n"),
        ("Apocalipsis 22:21", "Apocalipsis 22:21 (RV1909)\n21 La gracia de nuestro Señor Jesucristo sea con todos vosotros. Amén.\n"),
        ("Exodo 20:3", "Éxodo 20:3 (RV1909)\n3 No tendrás dioses ajenos delante de mí.\n"),
    ])
    func spanishReferencesReadInSpanish(reference: String, printed: String) throws {
        let home = try TestHome()
        let run = home.run("read", reference, "--translation", "RV1909")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == printed)
    }

    /// A Spanish name reads in the translation chosen; with none, in Spanish (issue 29).
    @Test func spanishNamesAlsoReadOtherTranslations() throws {
        let home = try TestHome()
        #expect(home.run("read", "Juan 11:35", "--translation", "KJV").stdout == "John 11:35 (KJV)\n35 Jesus wept.\n")
        #expect(home.run("read", "Apocalipsis 22", "-t", "KJV").stdout.hasPrefix("Revelation 22 (KJV)\n"))
        #expect(home.run("read", "Juan 11:35").stdout == "Juan 11:35 (RV1909)\n35 Y lloró Jesús.\n")
        // The whole chapter in Spanish, the verses mapped onto the KJV's numbers; a verse the
        // source holds inside the verse before has its own text (issue 29).
        let moved = home.run("read", "Números 13:33", "--translation", "RV1909")
        #expect(moved.stdout == "Números 13:33 (RV1909)\n33 También vimos allí gigantes, hijos de Anac, raza de los gigantes: y éramos nosotros, á nuestro parecer, como langostas; y así les parecíamos á ellos.\n")
        let job = home.run("read", "Job 39:27-40:5", "--translation", "RV1909")
        #expect(job.stdout == """
            Job 39:27-40:5 (RV1909)
            39:27 ¿Se remonta el águila por tu mandamiento, y pone en alto su nido?
            39:28 Ella habita y está en la piedra, en la cumbre del peñasco y de la roca.
            39:29 Desde allí acecha la comida: sus ojos observan de muy lejos.
            39:30 Sus pollos chupan la sangre: y donde hubiere cadáveres, allí está.
             40:1 A más de eso respondió Jehová á Job, y dijo:
             40:2 ¿Es sabiduría contender con el Omnipotente? El que disputa con Dios, responda á esto.
             40:3 Y respondió Job á Jehová, y dijo:
             40:4 He aquí que yo soy vil, ¿qué te responderé? Mi mano pongo sobre mi boca.
             40:5 Una vez hablé, y no responderé: aun dos veces, mas no tornaré á hablar.

            """)
    }

    @Test func searchFoldsAccents() throws {
        let home = try TestHome()
        let run = home.run("search", "corazon", "--translation", "RV1909", "--json", "-n", "1")
        let json = try JSON(parsing: run.stdout)
        #expect((json["total"]?.intValue ?? 0) > 800)
        #expect(json["hits"]?.arrayValue?.first?["text"]?.stringValue?.contains("corazón") == true)
        #expect(home.run("search", "Jehova pastor", "--translation", "RV1909", "-n", "1").stdout.hasPrefix("Salmo 23:1"))
    }

    @Test func theVerseOfTheDayAndItsNotificationAreSpanish() throws {
        let home = try TestHome(config: "translation = RV1909\n")
        #expect(home.run("today", "--date", "2026-12-25").stdout.hasPrefix("Lucas 2:10-11 (RV1909)\nMas el ángel les dijo: No temáis;"))
        #expect(home.run("notify", "--date", "2026-12-25").status == 0)
        #expect(home.notifier.shown.map(\.summary) == ["Lucas 2:10-11 (RV1909)"])
        #expect(home.notifier.shown.first?.body.hasPrefix("Mas el ángel les dijo") == true)
        // The timeline and the prompt lines, which widgets and shells show as they are.
        #expect(home.run("timeline", "--now", "2026-12-25T08:00").status == 0)
        let lines = try String(contentsOfFile: home.paths.promptLines, encoding: .utf8)
        #expect(lines.split(separator: "\n")[0].hasSuffix("\t2026-12-25\tLucas 2:10-11\tLucas 2:10-11: Mas el ángel les dijo: No temáis; porque he aquí os doy nuevas…"))
        #expect(try String(contentsOfFile: home.paths.timeline, encoding: .utf8).contains("\"reference\": \"Lucas 2:10-11\""))
    }
}
