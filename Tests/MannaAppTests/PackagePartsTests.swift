// The completion engine and the man pages, from the command table the parser reads: what they
// offer and document is what the parser accepts.
import Foundation
import MannaKit
import TestSupport
import Testing

@testable import MannaApp

@Suite struct PackagePartsTests {
    /// What `manna completions --complete -- WORDS` prints.
    func offered(_ home: TestHome, _ words: String...) -> [String] {
        let outcome = home.run(["completions", "--complete", "--"] + words)
        return outcome.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
    }

    @Test func completionOffersWhatComesNext() throws {
        let home = try TestHome()
        #expect(offered(home, "re") == ["read"])
        #expect(offered(home, "").count == Manna.commands.count)
        #expect(offered(home, "-") == ["--help", "-h", "--version", "-V"])
        #expect(offered(home, "sync", "") == ["init", "status", "now", "leave", "forget"])
        #expect(offered(home, "pray", "re") == ["reopen", "restore"])
        #expect(offered(home, "read", "--tr") == ["--translation"])
        #expect(offered(home, "read", "-") == ["--json", "--translation", "-j", "-t", "--help", "-h"])
        #expect(offered(home, "read", "-t", "") == ["KJV", "ASV", "WBS", "WEB", "RV1909"])
        #expect(offered(home, "read", "--translation", "w") == ["WBS", "WEB"])
        // After a subcommand, only the options it takes.
        #expect(offered(home, "note", "delete", "k7m2", "-") == ["--now", "--help", "-h"])
        #expect(offered(home, "note", "list", "-") == ["--deleted", "--json", "-j", "--help", "-h"])
        #expect(offered(home, "note", "-") == ["--deleted", "--json", "--now", "-j", "--help", "-h"])
        // Options before the command, with their values, are passed over.
        #expect(offered(home, "--translation", "WEB", "rea") == ["read"])
        #expect(offered(home, "-t", "WEB", "read", "1jo") == ["1John"])
        #expect(offered(home, "read", "song") == ["SongofSolomon"])
        #expect(offered(home, "search", "love", "--book", "ph") == ["Philippians", "Philemon"])
        #expect(offered(home, "highlight", "add", "John 3:16", "--color", "") == HighlightColor.allCases.map(\.rawValue))
        #expect(offered(home, "config", "get", "t") == ["translation", "timeline_days"])
        #expect(offered(home, "plan", "start", "nt") == ["nt-90"])
        // After a command that acts on one plan: the running plans' ids (none before a journal).
        #expect(offered(home, "plan", "done", "") == [])
        let reader = try TestHome()
        #expect(reader.run("plan", "start", "nt-90", "--now", "2026-11-01T08:00").status == 0)
        #expect(reader.run("plan", "start", "bible-in-a-year", "--now", "2026-11-01T08:01").status == 0)
        #expect(offered(reader, "plan", "done", "") == ["nt-90", "bible-in-a-year"])
        #expect(offered(reader, "plan", "remind", "") == ["nt-90", "bible-in-a-year", "off"])
        #expect(offered(reader, "plan", "stop", "b") == ["bible-in-a-year"])
        #expect(offered(home, "init", "") == ["bash", "zsh", "fish"])
        #expect(offered(home, "export", "") == [":files"])
        #expect(offered(home, "sync", "init", "") == [":directories"])
        // Free text, an unknown command and a word after '--': nothing.
        #expect(offered(home, "search", "") == [])
        #expect(offered(home, "raed", "") == [])
        // Records' ids come from the journal, with what they are; completion never makes one.
        #expect(offered(home, "pray", "show", "") == [])
        #expect(!FileManager.default.fileExists(atPath: home.paths.journal))
        let added = home.run("pray", "add", "Anna", "--body", "exam Friday")
        let id = try #require(added.stdout.split(separator: " ").dropFirst().first.map { String($0.dropLast()) })
        #expect(home.run("completions", "--complete", "--", "pray", "show", "").stdout == "\(id)\tAnna\n")
        #expect(offered(home, "note", "delete", "") == [])
    }

    @Test func theScriptsAreForTheThreeShells() throws {
        let home = try TestHome()
        #expect(home.run("completions", "bash").stdout.contains("complete -F _manna manna"))
        #expect(home.run("completions", "zsh").stdout.hasPrefix("#compdef manna\n"))
        #expect(home.run("completions", "fish").stdout.contains("complete -c manna"))
        let wrong = home.run("completions", "bsh")
        #expect(wrong.status == 64)
        #expect(wrong.stderr == "manna: completions needs one shell: bash, zsh or fish, not 'bsh'; did you mean 'bash'?\n")
    }

    @Test func aGnomeShellVersionIsANumber() throws {
        let home = try TestHome()
        for given in ["forty", "46-beta", "3"] {
            let run = home.run("install", "--gnome-shell", given, "--prefix", "/usr", "--destdir", home.url.path + "/root")
            #expect(run.status == 64)
            #expect(run.stderr == "manna: --gnome-shell must be a GNOME Shell version, like 43 or 46, not '\(given)'\n")
        }
    }

    /// Every command, subcommand and option is in manna(1), every key in manna-config(5), and
    /// every exit status in the table; groff reads both pages without a warning.
    @Test func theManPagesDocumentWhatTheParserAccepts() throws {
        let translations = BuiltTexts.database.translations
        let page = ManPage.manna(translations: translations)
        for command in Manna.commands.map({ $0.spec() }) {
            #expect(page.contains(".SS \(command.name)\n"), "\(command.name) is not in manna(1)")
            for subcommand in command.subcommands {
                #expect(page.contains("\\fB\(ManPage.escape(subcommand.name))\\fR"), "\(command.name) \(subcommand.name)")
                // A subcommand takes only options its command declares.
                for option in subcommand.options {
                    #expect(command.option(named: option) != nil, "\(command.name) \(subcommand.name) takes --\(option), which \(command.name) does not declare")
                }
            }
            for option in command.options.map(\.name) {
                #expect(page.contains("\\fB\\-\\-\(ManPage.escape(option))\\fR"), "\(command.name) --\(option) is not in manna(1)")
                // And the parser takes it, after a subcommand that takes it where that matters.
                var arguments = command.takesValue(option) ? ["--" + option, "x"] : ["--" + option]
                if !command.subcommands.isEmpty {
                    let taking = command.subcommands.first { $0.options.contains(option) }
                    #expect(taking != nil, "no subcommand of \(command.name) takes --\(option)")
                    if let taking { arguments.insert(taking.name, at: 0) }
                }
                #expect(throws: Never.self) { try ParsedArguments(arguments, spec: command) }
            }
        }
        for status in ExitStatus.allCases { #expect(page.contains("\n\(status.rawValue)\tT{\n")) }
        let configPage = ManPage.config(translations: translations)
        for key in Config.keys { #expect(configPage.contains(".B \(ManPage.escape(key.name))\n")) }

        let home = try TestHome()
        // Each key's default in manna-config(5) is what `config list` shows where nothing is set.
        for row in home.run("config", "list").stdout.split(separator: "\n") {
            let value = row.split(separator: "#")[0].split(separator: "=", maxSplits: 1)[1].trimmingCharacters(in: .whitespaces)
            #expect(configPage.contains("Default: \(ManPage.escape(value)).\n"), "\(row)")
        }
        for name in ManPage.pages {
            let roff = home.run("manpage", name)
            #expect(roff.status == 0)
            let groff = try runProcess("/usr/bin/groff", ["-t", "-man", "-Tutf8", "-ww", "-z"], input: roff.stdout)
            #expect(groff.status == 0 && groff.stderr.isEmpty, "groff on \(name): \(groff.stderr)")
        }
        #expect(home.run("manpage", "mana").stderr == "manna: manpage needs one page: manna, manna-config or manna-reader, not 'mana'; did you mean 'manna'?\n")
        // manna-reader(1) names every shortcut the window sets.
        let readerPage = home.run("manpage", "manna-reader").stdout
        for shortcut in ReaderShortcut.all { #expect(readerPage.contains(".B \(ManPage.escape(shortcut.keys))\n\(ManPage.escape(shortcut.title)).\n")) }
        #expect(ReaderShortcut.all.map(\.keys) == ["Ctrl+L", "Ctrl+F", "Alt+Left", "Alt+Right", "F9", "Ctrl+?", "Ctrl+Q"])
    }

    func runProcess(_ path: String, _ arguments: [String], input: String) throws -> (status: Int32, stdout: String, stderr: String) {
        let finished = try Programs.run(path, arguments, environment: ProcessInfo.processInfo.environment, input: input)
        return (finished.status, finished.stdout, finished.stderr)
    }
}

/// Configuration you can see (issue 13, point 6), and the paths one by one.
@Suite struct ConfigurationTests {
    @Test func everyKeyWithItsValueAndWhereItCameFrom() throws {
        let home = try TestHome(config: "# mine\nnotify_at = 06:30\ntimeline_days = 3\n")
        let config = home.paths.config
        #expect(home.run("config", "list").stdout == """
            translation = KJV                   # default
            notify_at = 06:30                   # file \(config):2
            prompt_format = {reference}: {text} # default
            timeline_days = 3                   # file \(config):3
            daily_source = curated              # default
            sync_silent_days = 90               # default
            voices = none                       # default

            """)
        home.variables["MANNA_TRANSLATION"] = "web"
        let json = home.run("config", "list", "--json").stdout
        #expect(json.hasPrefix(#"[{"key":"translation","value":"WEB","source":"environment","from":"MANNA_TRANSLATION"},"#))
        #expect(json.contains(#"{"key":"timeline_days","value":"3","source":"file","from":"\#(config):3"}"#))
        // Unset removes the line, comments and other keys kept; the default is back.
        #expect(home.run("config", "unset", "notify_at").status == 0)
        #expect(try String(contentsOfFile: config, encoding: .utf8) == "# mine\ntimeline_days = 3\n")
        #expect(home.run("config", "get", "notify_at").stdout == "07:00\n")
        #expect(home.run("config", "unset", "notfy_at").stderr == "manna: unknown key 'notfy_at'; did you mean 'notify_at'?\n")
        // Help names exactly the keys that set accepts.
        let help = home.run("config", "--help").stdout
        for key in Config.keys { #expect(help.contains(key.name)) }
        #expect(!help.contains("plan_start"))
        #expect(home.run("config", "set", "plan_start", "2026-01-01").status == 64)
    }

    /// A file with a typo, a bad value and a translation the database lacks (issue 32): every
    /// command goes on with the defaults; `config list` shows each ignored line and why; the
    /// commands that mend the file work on it, keeping the user's other lines and comments.
    @Test func ignoredLinesAreListedAndTheFileCanBeMended() throws {
        let home = try TestHome(config: "# mine\ncolour = blue\nnotify_at = 25:00\ntranslation = NIV\nnot a setting\ntimeline_days = 3\n")
        let config = home.paths.config
        let listed = home.run("config", "list")
        #expect(listed.status == 0 && listed.stderr.isEmpty, "\(listed.stderr)")
        #expect(listed.stdout == """
            translation = KJV                   # default
            notify_at = 07:00                   # default
            prompt_format = {reference}: {text} # default
            timeline_days = 3                   # file \(config):6
            daily_source = curated              # default
            sync_silent_days = 90               # default
            voices = none                       # default
            colour = blue                       # ignored \(config):2: unknown key 'colour'; keys are translation, notify_at, prompt_format, timeline_days, daily_source, sync_silent_days, voices
            notify_at = 25:00                   # ignored \(config):3: notify_at must be a time HH:MM (24-hour), like 07:00, or off, not '25:00'
            translation = NIV                   # ignored \(config):4: unknown translation 'NIV': choose one of KJV, ASV, WBS, WEB or RV1909
            not a setting                       # ignored \(config):5: expected 'key = value', found 'not a setting'

            """)
        #expect(home.run("config", "list", "--json").stdout.contains(
            #"{"key":"colour","value":"blue","source":"ignored","from":"\#(config):2","problem":"unknown key 'colour'; keys are translation, notify_at, prompt_format, timeline_days, daily_source, sync_silent_days, voices"}"#))
        // Reading goes on, in the default translation, saying once what it ignored.
        let read = home.run("read", "John 3:16")
        #expect(read.status == 0 && read.stdout.hasPrefix("John 3:16 (KJV)"))
        #expect(read.stderr.split(separator: "\n").count == 4)
        // Mending: unset takes the unknown key's line out, set replaces the bad value in place.
        #expect(home.run("config", "unset", "colour").status == 0)
        let set = home.run("config", "set", "notify_at", "06:30")
        #expect(set.status == 0 && set.stderr.isEmpty, "\(set.stderr)")
        #expect(home.run("config", "set", "translation", "WEB").status == 0)
        #expect(try String(contentsOfFile: config, encoding: .utf8) == "# mine\nnotify_at = 06:30\ntranslation = WEB\nnot a setting\ntimeline_days = 3\n")
        #expect(home.run("config", "get", "notify_at").stdout == "06:30\n")
        // An earlier good line stands for a later bad one.
        let twice = try TestHome(config: "notify_at = 06:00\nnotify_at = 6am\n")
        let get = twice.run("config", "get", "notify_at")
        #expect(get.stdout == "06:00\n")
        #expect(get.stderr.hasSuffix("config:2: notify_at must be a time HH:MM (24-hour), like 07:00, or off, not '6am' (ignored: line 1 stands)\n"))
    }

    /// README's list of translations, the man pages and the help that name them are the
    /// catalogue's: its count and every code (issue 32, point 7; issue 26, point 1).
    /// `voices` chooses the voice of each language: read, spelt back in order, and refused in
    /// one line naming what is allowed.
    @Test func voicesChoosesAVoicePerLanguage() throws {
        let home = try TestHome()
        #expect(home.run("config", "set", "voices", "es:es-419, EN:en_US-joe-medium").status == 0)
        #expect(home.run("config", "get", "voices").stdout == "en:en_US-joe-medium, es:es-419\n")
        #expect(Config(parsing: "voices = en:en-gb", file: "c").voices == ["en": "en-gb"])
        #expect(home.run("config", "set", "voices", "none").status == 0)
        #expect(home.run("config", "get", "voices").stdout == "none\n")
        for bad in ["en", "en:", "english:joe", "en:a b", "en:x, en:y", ",", "en:x;es:y"] {
            let set = home.run("config", "set", "voices", bad)
            #expect(set.status == 64, "\(bad)")
            #expect(set.stderr == "manna: voices must be language:voice pairs, like 'en:en_US-joe-medium, es:es-419' (the voices are 'manna listen --voices'), or none, not '\(bad)'\n")
        }
    }

    @Test func theTranslationsNamedAreTheCatalogues() throws {
        let translations = BuiltTexts.database.translations
        let codes = translations.map(\.code)
        let readme = try String(contentsOfFile: BuiltTexts.root + "/README.md", encoding: .utf8)
        let opening = String(readme.split(separator: "\n\n")[1])
        let words = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]
        #expect(opening.contains("\(words[codes.count - 1]) public-domain translations"), "\(opening)")
        #expect(ManPage.manna(translations: translations).contains(
            "aloud five public\\-domain translations (KJV, ASV, WBS, WEB in English, RV1909 in Spanish) from a local database.\n"))
        #expect(ManPage.config(translations: translations).contains(
            ".B translation\nAllowed: a translation\'s code: KJV, ASV, WBS, WEB or RV1909 (Spanish).\n"))
        let named = { (text: String) in Set(text.split { !$0.isLetter && !$0.isNumber }.map(String.init)) }
        for code in codes {
            #expect(named(opening).contains(code), "README does not name \(code)")
            #expect(named(ManPage.config(translations: translations)).contains(code), "manna-config(5) does not name \(code)")
        }
    }

    /// Every command that takes `--translation` shows one help for it, naming the text
    /// database's translations and the default as `Context.translation` decides it (only after
    /// the subcommand that takes it, where not all do); each takes every code of the catalogue.
    @Test func everyCommandTakingATranslationHelpsAlikeAndTakesEveryCode() throws {
        let home = try TestHome()
        let one = "KJV, ASV, WBS, WEB or RV1909 (Spanish) (default: $MANNA_TRANSLATION, else the config's translation, else KJV)"
        let context = Context(environment: home.environment, clock: home.clock, stdout: .captured(), stderr: .captured(), notifier: home.notifier,
                              executablePath: TestHome.manna, userID: 1000)
        let taking = Manna.commands.map { $0.spec() }.filter { $0.takesValue("translation") }
        #expect(taking.map(\.name) == ["today", "read", "search", "listen", "cues", "plan", "notify"])
        for command in taking {
            let help = home.run(command.name, "--help").stdout
            let line = try #require(help.split(separator: "\n").first { $0.hasPrefix("  --translation VALUE ") }, "manna \(command.name) --help")
            let text = line.dropFirst("  --translation VALUE".count).drop { $0 == " " }
            let scope = ["cues": "import: ", "plan": "today: "][command.name] ?? ""
            #expect(text == scope + one, "manna \(command.name) --help")
            let subcommand = command.subcommands.first { $0.options.contains("translation") }?.name ?? ""
            for code in BuiltTexts.database.translations.map(\.code) {
                let parsed = try ParsedArguments((subcommand.isEmpty ? [] : [subcommand]) + ["-t", code.lowercased()], spec: command)
                #expect(try parsed.value(Options.translation, context) == code.lowercased())
            }
        }
        #expect(TranslationOption.help.hasSuffix("(" + TranslationOption.fallback + ")"))
        #expect(TranslationOption.fallback.hasSuffix("else \(Config.defaultTranslation)"))
        // Where no text database can be opened, help still says what a code is like.
        #expect(ReadCommand.spec.help(translations: nil).contains(
            "--translation VALUE   a translation's code, like KJV (default: $MANNA_TRANSLATION, else the config's translation, else KJV)\n"))
        // The commands that read a translation take every code, and the config's where none is given.
        for code in BuiltTexts.database.translations.map(\.code) {
            for arguments in [["read", "John 3:16"], ["search", "jesus", "--json"], ["today"], ["notify", "--date", "2026-12-25"]] {
                let outcome = home.run(arguments + ["-t", code])
                #expect(outcome.status == 0, "\(arguments) -t \(code): \(outcome.stderr)")
                let shown = arguments[0] == "notify" ? home.notifier.lines.last ?? "" : outcome.stdout
                #expect(shown.contains("(\(code))") || shown.contains(#""translation":"\#(code)""#), "\(arguments) -t \(code): \(shown)")
            }
        }
        let configured = try TestHome(config: "translation = RV1909\n")
        #expect(configured.run("read", "John 3:16").stdout.hasPrefix("Juan 3:16 (RV1909)\n"))
        #expect(configured.run("search", "jesus", "--json").stdout.contains(#""translation":"RV1909""#))
        #expect(configured.run("today", "--json").stdout.contains(#""translation":"RV1909""#))
    }

    @Test func onePathByItsKey() throws {
        let home = try TestHome()
        #expect(home.run("paths", "journal_db").stdout == home.paths.journal + "\n")
        #expect(home.run("paths", "timeline", "--json").stdout == "\"" + home.paths.timeline + "\"\n")
        #expect(home.run("paths").stdout.split(separator: "\n").count == PathsCommand.keys.count)
        let wrong = home.run("paths", "jounral_db")
        #expect(wrong.status == 64)
        #expect(wrong.stderr == "manna: unknown path 'jounral_db'; did you mean 'journal_db'?\n")
    }
}
