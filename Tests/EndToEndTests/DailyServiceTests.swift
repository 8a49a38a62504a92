import Foundation
import Testing
import TestSupport

@Suite struct DailyServiceTests {
    @Test func todayIsAPureFunctionOfTheDate() throws {
        let christmas = manna("today", "--date", "2026-12-25")
        #expect(christmas.stdout == "Luke 2:10-11 (KJV)\nAnd the angel said unto them, Fear not: for, behold, I bring you good tidings of great joy, which shall be to all people. For unto you is born this day in the city of David a Saviour, which is Christ the Lord.\n")
        // The same date in another year, another zone: the same verse.
        #expect(manna("today", "--date", "2031-12-25", environment: ["TZ": "Asia/Tokyo"]).stdout == christmas.stdout)
        let leap = try #require(Manna.json(manna("today", "--date", "2028-02-29", "--json", "--translation", "WEB")) as? [String: Any])
        #expect(leap["date"] as? String == "2028-02-29")
        let verse = try #require(leap["verse"] as? [String: Any])
        #expect(verse["id"] as? Int == 19_090_012)
        #expect(verse["reference"] as? String == "Psalm 90:12")
        #expect(verse["translation"] as? String == "WEB")
        #expect((verse["text"] as? String)?.hasPrefix("So teach us to count our days") == true)
        // Mar 1 has the same verse in leap and common years; Feb 29's is its own.
        #expect(manna("today", "--date", "2026-03-01").stdout == manna("today", "--date", "2028-03-01").stdout)
    }

    @Test(arguments: [
        (["today", "--date", "2026-02-29"], "manna: --date must be a date YYYY-MM-DD that exists, like 2026-12-25, not '2026-02-29'\n"),
        (["today", "--date", "tomorrow"], "manna: --date must be a date YYYY-MM-DD that exists, like 2026-12-25, not 'tomorrow'\n"),
        (["timeline", "--now", "noon"], "manna: --now must be a date and time like 2026-03-08T07:00 or 2026-03-08T07:00:00-05:00, not 'noon'\n"),
        (["plan", "start", "nt-90", "--from", "soon"], "manna: --from must be a date YYYY-MM-DD, like 2027-01-01, not 'soon'\n"),
        (["plan"], "manna: plan needs one of: list, show PLAN, start PLAN, today [PLAN], done [PLAN] [DAY], undo [PLAN] DAY, status [PLAN], catch-up [PLAN], remind [PLAN] HH:MM|off, stop [PLAN]; see 'manna plan --help'\n"),
        (["config", "set", "plan", "nt-90"], "manna: the reading plan is kept in the journal now: use 'manna plan start PLAN [--from YYYY-MM-DD]'\n"),
        (["widget", "--format", "conky"], "manna: widget needs --format waybar, i3blocks, polybar or plain\n"),
        (["init", "tcsh"], "manna: init needs one shell: bash, zsh or fish\n"),
        (["prompt", "--format", "{verse}"], "manna: unknown prompt token '{verse}'; tokens are {reference}, {translation}, {text}, {text:N}, {plan}, {date}\n"),
        (["config", "set", "notify_at", "7am"], "manna: notify_at must be a time HH:MM (24-hour), like 07:00, or off, not '7am'\n"),
        (["config", "set", "colour", "blue"], "manna: unknown key 'colour'; keys are translation, notify_at, prompt_format, timeline_days, daily_source, sync_silent_days, voices\n"),
        (["config", "set", "translation", "NIV"], "manna: unknown translation 'NIV': choose one of KJV, ASV, WBS, WEB or RV1909\n"),
    ])
    func badInputGetsOneLine(arguments: [String], message: String) {
        precondition(Manna.textDatabaseReady)
        let run = Manna.run(arguments)
        #expect(run.status == 64)
        #expect(run.stderr == message)
    }

    @Test func configIsReadCheckedAndRewrittenInPlace() throws {
        let home = try TemporaryHome(config: "# my settings\ntranslation = web   \n\n# morning\nnotify_at = 06:30\n")
        let environment = ["HOME": home.path]
        #expect(manna("config", "get", "translation", environment: environment).stdout == "WEB\n")
        let path = home.path + "/.config/manna/config"
        #expect(manna("config", "list", environment: environment).stdout == """
            translation = WEB                   # file \(path):2
            notify_at = 06:30                   # file \(path):5
            prompt_format = {reference}: {text} # default
            timeline_days = 7                   # default
            daily_source = curated              # default
            sync_silent_days = 90               # default
            voices = none                       # default

            """)
        #expect(manna("config", "set", "notify_at", "07:15", environment: environment).status == 0)
        #expect(manna("config", "set", "timeline_days", "3", environment: environment).status == 0)
        let file = home.url.appendingPathComponent(".config/manna/config")
        #expect(try String(contentsOf: file, encoding: .utf8) == "# my settings\ntranslation = web   \n\n# morning\nnotify_at = 07:15\ntimeline_days = 3\n")
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        // The configured translation is used.
        #expect(manna("today", "--date", "2026-12-25", environment: environment).stdout.hasPrefix("Luke 2:10-11 (WEB)\n"))
    }

    /// A line the config cannot use is said with its file and line and what is allowed, and
    /// ignored: the command goes on with the default (issue 32), as systemd and git do.
    @Test func aBadConfigLineIsNamedAndIgnored() throws {
        let home = try TemporaryHome(config: "translation = WEB\ntimeline_days = 99\n")
        let run = manna("today", "--date", "2026-12-25", environment: ["HOME": home.path])
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("Luke 2:10-11 (WEB)\n"))
        #expect(run.stderr == "manna: \(home.path)/.config/manna/config:2: timeline_days must be a whole number of days from 1 to 31, not '99' (ignored: the default stands)\n")
        let unknown = try TemporaryHome(config: "colour = blue\n")
        let read = manna("read", "John 3:16", environment: ["HOME": unknown.path])
        #expect(read.status == 0 && read.stdout.hasPrefix("John 3:16 (KJV)"))
        #expect(read.stderr.hasSuffix("/.config/manna/config:1: unknown key 'colour'; keys are translation, notify_at, prompt_format, timeline_days, daily_source, sync_silent_days, voices (ignored: the default stands)\n"))
    }

    @Test func promptReadsTheTimelineAndComputesWithoutOne() throws {
        let home = try TemporaryHome()
        let environment = ["HOME": home.path, "TZ": "America/New_York"]
        // No timeline: worked out from the databases.
        let computed = manna("prompt", "--now", "2026-12-25T08:00", environment: environment)
        #expect(computed.stdout == "Luke 2:10-11: And the angel said unto them, Fear not: for, behold, I bring you…\n")
        #expect(computed.stdout.count <= 81)
        // With a timeline written on Dec 24, the prompt flips at local midnight with nothing running.
        #expect(manna("timeline", "--now", "2026-12-24T20:00", environment: environment).status == 0)
        let before = manna("prompt", "--now", "2026-12-24T23:59:59-05:00", "--format", "{date} {reference}", environment: environment)
        #expect(before.stdout == "2026-12-24 Isaiah 9:6\n")
        let after = manna("prompt", "--now", "2026-12-25T00:00:00-05:00", "--format", "{date} {reference}", environment: environment)
        #expect(after.stdout == "2026-12-25 Luke 2:10-11\n")
        // Proof that the fast path read the file: a timeline edited by hand is what the prompt shows.
        let file = home.timeline
        let edited = try String(contentsOf: file, encoding: .utf8).replacingOccurrences(of: "Luke 2:10-11", with: "Luke 2:10-11 (from the timeline)")
        try edited.write(to: file, atomically: true, encoding: .utf8)
        #expect(manna("prompt", "--now", "2026-12-25T09:00", "--format", "{reference}", environment: environment).stdout == "Luke 2:10-11 (from the timeline)\n")
        // Another zone than the timeline's: computed, not read.
        let tokyo = ["HOME": home.path, "TZ": "Asia/Tokyo"]
        #expect(manna("prompt", "--now", "2026-12-25T09:00", "--format", "{reference}", environment: tokyo).stdout == "Luke 2:10-11\n")
        // A timeline of garbage is not trusted.
        try "not json at all".write(to: file, atomically: true, encoding: .utf8)
        #expect(manna("prompt", "--now", "2026-12-25T09:00", "--format", "{reference}", environment: environment).stdout == "Luke 2:10-11\n")
    }

    @Test func widgetsSpeakEachPanelsFormat() throws {
        let environment = ["TZ": "UTC"]
        let waybar = manna("widget", "--format", "waybar", "--now", "2026-12-25T08:00", environment: environment)
        let object = try #require(Manna.json(waybar) as? [String: Any])
        #expect(object["text"] as? String == "Luke 2:10-11")
        #expect(object["class"] as? String == "manna")
        #expect(object["alt"] as? String == "verse")
        #expect((object["tooltip"] as? String)?.hasPrefix("Luke 2:10-11 (KJV)\r") == true)
        #expect(waybar.stdout.split(separator: "\n").count == 1)
        let i3 = manna("widget", "--format", "i3blocks", "--now", "2026-12-25T08:00", environment: environment)
        #expect(i3.stdout.split(separator: "\n", omittingEmptySubsequences: false).count == 3)
        #expect(i3.stdout.hasSuffix("\nLuke 2:10-11\n"))
        let polybar = manna("widget", "--format", "polybar", "--now", "2026-12-25T08:00", environment: environment)
        #expect(polybar.stdout.hasPrefix("Luke 2:10-11: And the angel said") && polybar.stdout.hasSuffix("\n"))
        #expect(polybar.stdout.split(separator: "\n").count == 1)
    }

    /// `--follow`: one process for a panel's session, which prints today's line at once and
    /// stays, and ends when the panel stops reading (issue 15, point 3).
    @Test func aFollowingWidgetPrintsAndStays() throws {
        let home = try TemporaryHome()
        home.environment["TZ"] = "UTC"
        #expect(home.run("timeline").status == 0)
        let today = home.run("widget", "--format", "waybar").stdout
        let process = try RunningProgram(Manna.binary, ["widget", "--format", "waybar", "--follow"], environment: home.environment)
        // The first line comes at once; then the process waits for the next minute.
        #expect(process.readLine(timeout: 30).map { $0 + "\n" } == today)
        #expect(process.isRunning)
        process.signal(SIGTERM)
        #expect(process.wait(timeout: 30) != nil)
        #expect(home.run("widget", "--format", "plain", "--follow", "--now", "2026-12-25T08:00").stderr
            == "manna: --follow follows the clock: it takes no --now\n")
    }

    /// `manna init SHELL` is what the shell itself accepts, checked without running it.
    func checkInitSnippet(_ shell: String, with check: String, _ arguments: String...) throws {
        let run = manna("init", shell)
        #expect(run.status == 0)
        let scratch = try Scratch("init")
        let file = scratch.url.appendingPathComponent("snippet.\(shell)")
        try run.stdout.write(to: file, atomically: true, encoding: .utf8)
        let checked = try Programs.run(check, arguments + [file.path], environment: ProcessInfo.processInfo.environment)
        #expect(checked.status == 0, "\(check) \(arguments.joined(separator: " ")) rejected the snippet: \(checked.stderr)")
    }

    @Test func theBashSnippetIsValidBash() throws {
        try checkInitSnippet("bash", with: "/bin/bash", "-n")
    }

    @Test(.needs(.zsh)) func theZshSnippetIsValidZsh() throws {
        try checkInitSnippet("zsh", with: try #require(TestEnvironment.path(of: "zsh")), "-n")
    }

    @Test(.needs(.fish)) func theFishSnippetIsValidFish() throws {
        try checkInitSnippet("fish", with: try #require(TestEnvironment.path(of: "fish")), "--no-execute")
    }

    @Test func bashShowsTheVerseAboveThePrompt() throws {
        // An interactive-like bash: evaluate the snippet and expand PS1 as bash would.
        let home = try TemporaryHome()
        let binary = URL(fileURLWithPath: Manna.binary).deletingLastPathComponent().path
        let output = try Programs.run("/bin/bash", ["--norc", "-c", #"PS1='$ '; eval "$(manna init bash)"; eval "$(manna init bash)"; eval "$PROMPT_COMMAND"; printf '%s' "${PS1@P}""#],
                                      environment: ["PATH": binary + ":/usr/bin:/bin", "HOME": home.path, "TZ": "UTC", "TERM": "xterm"]).stdout
        #expect(output.contains(": "))
        #expect(output.hasSuffix("\u{1B}[0m\u{2}\n$ "))
        #expect(output.components(separatedBy: "\u{1B}[2m").count == 2, "the snippet added itself once")
    }

    /// The prompt fits the terminal (a 50-column one must not wrap it) and is plain where
    /// colour is not wanted.
    @Test func bashsPromptFitsItsTerminalAndHonoursNoColor() throws {
        let home = try TemporaryHome()
        let binary = URL(fileURLWithPath: Manna.binary).deletingLastPathComponent().path
        func prompt(_ variables: [String: String]) throws -> String {
            try Programs.run("/bin/bash", ["--norc", "-c", #"PS1='$ '; eval "$(manna init bash)"; eval "$PROMPT_COMMAND"; printf '%s' "${PS1@P}""#],
                             environment: ["PATH": binary + ":/usr/bin:/bin", "HOME": home.path, "TZ": "UTC"].merging(variables) { $1 }).stdout
        }
        let narrow = try prompt(["COLUMNS": "50", "NO_COLOR": "1", "TERM": "xterm"])
        let line = try #require(narrow.split(separator: "\n").first)
        #expect(!narrow.contains("\u{1B}"))
        #expect(line.count <= 50 && line.count > 20, "\(line)")
        #expect(!(try prompt(["TERM": "dumb"])).contains("\u{1B}"))
        #expect(try prompt(["TERM": "xterm"]).contains("\u{1B}[2m"))
    }
}
