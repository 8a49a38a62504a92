// Every command-line option, declared once: its name, short name, help, what its value is (for
// completion) and how the value is read, with the one line a wrong value gets (exit 64). A
// command lists the options it takes (`CommandSpec.options`) and reads typed values
// (`arguments.value(Options.date, context)`), never strings by name; help, the man page and
// completion are made from the same declarations.
import MannaKit

/// What help, the man page, completion and the parser know of an option, whatever its value.
protocol CommandOption: Sendable {
    /// `translation` for `--translation`.
    var name: String { get }
    /// `-t`, where the option has a short form.
    var short: String? { get }
    var help: String { get }
    var takesValue: Bool { get }
    /// What its value is, for completion (a flag has none).
    var operand: Operand { get }
}

/// An option that takes a value: `--date 2026-12-25` or `--date=2026-12-25`.
struct Option<Value>: CommandOption {
    let name: String
    var short: String?
    var help: String
    var operand: Operand = .text
    /// The value of the text given, or a `Failure.usage` naming what is allowed.
    let read: @Sendable (String, Context) throws -> Value

    var takesValue: Bool { true }

    /// The same option, with the help one command gives it (what it does there).
    func help(_ text: String) -> Option {
        var option = self
        option.help = text
        return option
    }
}

/// An option that is on or off: `--json`.
struct Flag: CommandOption {
    let name: String
    var short: String?
    var help: String

    var takesValue: Bool { false }
    var operand: Operand { .text }

    /// The same flag, with the help one command gives it (what `--json` prints there).
    func help(_ text: String) -> Flag {
        var flag = self
        flag.help = text
        return flag
    }
}

extension Option where Value == String {
    /// An option whose value is the text given (a path, a title, a voice's name).
    init(_ name: String, help: String, operand: Operand = .text) {
        self.init(name: name, help: help, operand: operand) { text, _ in text }
    }
}

extension Option {
    /// An option whose value is one of `Value`'s cases, by name: a wrong one is told the names.
    init(_ name: String, help: String, choices: [Value], named: @escaping @Sendable (Value) -> String) where Value: Sendable {
        let names = choices.map(named)
        self.init(name: name, help: help, operand: .words(names)) { text, _ in
            guard let chosen = choices.first(where: { named($0) == text.lowercased() }) else {
                throw Failure.usage(tr("--{option} must be {choices}, not '{text}'", ("option", name), ("choices", listed(names, conjunction: tr("or"))), ("text", text.singleLine)))
            }
            return chosen
        }
    }
}

/// The options, each declared once and shared by the commands that take it.
enum Options {
    // MARK: Shared

    static let translation = Option("translation", help: TranslationOption.help, operand: .translation).short("-t")

    static let date = Option<LocalDate>(name: "date", help: "the local date, like 2026-12-25 (default: today)") { text, _ in
        guard let date = LocalDate(parsing: text) else {
            throw Failure.usage(tr("--date must be a date YYYY-MM-DD that exists, like 2026-12-25, not '{text}'", ("text", text.singleLine)))
        }
        return date
    }

    /// Without an offset the moment is local time, in the zone `Context.zone` reads.
    static let now = Option<Instant>(name: "now", help: "act as if it were this moment, like 2026-03-08T07:00 (local) or 2026-03-08T07:00:00-05:00") { text, context in
        guard let instant = Moment.parse(text, zone: try context.zone()) else {
            throw Failure.usage(tr("--now must be a date and time like 2026-03-08T07:00 or 2026-03-08T07:00:00-05:00, not '{text}'", ("text", text.singleLine)))
        }
        return instant
    }

    static let json = Flag(name: "json", short: "-j", help: "print JSON")

    /// `--color auto|always|never`, which every command takes: `Manna.takingColor` takes it off
    /// the command line before a command's parser, which sees only a `--color` of the
    /// command's own (`highlightColor`).
    static let outputColor = Option<ColorChoice>(name: "color", help: "colour the output: auto (on a terminal), always or never") { text, _ in
        guard let choice = ColorChoice(rawValue: text) else { throw Failure.usage("--color takes auto, always or never, not '\(text)'") }
        return choice
    }

    // MARK: Reading and listening

    /// nil: every verse that matches.
    static let limit = Option<Int?>(name: "limit", short: "-n", help: "show the N best verses (default \(SearchCommand.defaultLimit)), or all of them: --limit all") { text, _ in
        if text == "all" { return nil }
        guard let number = Int(text), number >= 1 else { throw Failure.usage(tr("--limit must be a whole number from 1 up, or 'all', not '{text}'", ("text", text.singleLine))) }
        return number
    }

    static let book = Option("book", help: "search one book only: --book John, --book \"1 Cor\"", operand: .reference)
    static let voice = Option("voice", help: "an espeak-ng voice, like en-us (see --voices; default: the translation's language)")
    static let rate = Option<Int>(name: "rate", help: "words a minute, \(ListenRequest.rates.lowerBound) to \(ListenRequest.rates.upperBound) (default 175)") { text, _ in
        guard let rate = Int(text), ListenRequest.rates.contains(rate) else {
            throw Failure.usage("--rate must be words a minute from \(ListenRequest.rates.lowerBound) to \(ListenRequest.rates.upperBound), not '\(text.singleLine)'")
        }
        return rate
    }

    static let startVerse = Option("from", help: "start at this verse of the passage: 16, 3:16 or John 3:16")
    static let export = Option("export", help: "write the reading to FILE.wav, .flac, .ogg or .opus, and its cue sheet to FILE.cues.json", operand: .file)
    static let audio = Option("audio", help: "play this recording (FLAC, Ogg, Opus, WAV, MP3) instead of speaking, following its cue sheet", operand: .file)
    static let cues = Option("cues", help: "--audio's cue sheet (default: AUDIO.cues.json beside it; see docs/cues.md)", operand: .file)

    static let cueFormat = Option("from", help: "the timings' format: aeneas (sync map JSON), audacity (label track), webvtt",
                                  choices: CueFormat.allCases, named: \.rawValue)
    static let passage = Option("ref", help: "the passage the recording reads, like John 3", operand: .reference)
    static let reader = Option("reader", help: "who reads (default: recording)")

    static let highlightColor = Option("color", help: "\(HighlightColor.allowed) (default yellow); a highlighted verse changes colour",
                                       choices: HighlightColor.allCases, named: \.rawValue)

    // MARK: Plans and prayers

    static let planStart = Option<LocalDate>(name: "from", help: "the date of day 1 (default: today)") { text, _ in
        guard let date = LocalDate(parsing: text) else { throw Failure.usage(tr("--from must be a date YYYY-MM-DD, like 2027-01-01, not '{text}'", ("text", text.singleLine))) }
        return date
    }

    /// nil: `off`, no reminder (as `plan remind PLAN off` says it too).
    static let planReminder = Option<LocalTime?>(name: "remind", help: "a daily reminder to read at HH:MM") { text, _ in
        guard text != "off" else { return nil }
        guard let time = LocalTime(parsing: text) else { throw Failure.usage(tr("a reminder time must be HH:MM (24-hour), like 20:00, or 'off', not '{text}'", ("text", text.singleLine))) }
        return time
    }

    static let body = Option("body", help: "the prayer's text (several lines are fine; - reads it from stdin)")
    static let tag = Option<String>(name: "tag", help: "a one-word tag; repeat for more (edit: replaces the tags)") { text, _ in try Prayer.tag(text) }
    static let prayerReminder = Option(
        "remind",
        help: "when to remind: 07:30, mon,wed,fri 21:00, weekdays 12:15, weekends 10:00, sun 09:00, 1st 08:00 (monthly; a shorter month's last day), "
            + "2027-05-01 18:00 (once); repeat for more (edit: replaces them)")
    static let title = Option<String>(name: "title", help: "the new title") { text, _ in try Prayer.title(text) }
    static let answer = Option<String>(name: "note", help: "how it was answered") { text, _ in try Prayer.checked(text, field: "answer note") }
    static let minutes = Option<Int>(name: "minutes", help: "how long (default 10)") { text, _ in
        guard let minutes = Int(text), (1...1440).contains(minutes) else {
            throw Failure.usage(tr("--minutes must be a whole number from 1 to 1440, not '{text}'", ("text", text.singleLine)))
        }
        return minutes
    }

    static let answered = Flag(name: "answered", help: "the answered prayers")
    static let deleted = Flag(name: "deleted", help: "the deleted ones, each with its text (restore brings one back)")
    static let noTag = Flag(name: "no-tag", help: "remove every tag")
    static let noRemind = Flag(name: "no-remind", help: "remove every reminder")
    static let read = Flag(name: "read", help: "print the readings' text too")
    static let listen = Flag(name: "listen", help: "read the readings aloud (see 'manna listen')")

    // MARK: The prompt and widgets

    static let promptFormat = Option("format", help: "tokens {reference} {translation} {text} {text:N} {plan} {date} (default: '{reference}: {text}' in 80 columns)")
    static let widgetFormat = Option<Widget.Kind>(name: "format", help: "waybar, i3blocks, polybar or plain",
                                                  operand: .words(["waybar", "i3blocks", "polybar", "plain"])) { text, _ in
        guard let kind = Widget.Kind(rawValue: text) else { throw widgetFormatNeeded }
        return kind
    }
    /// A widget's format missing or not one of them.
    static let widgetFormatNeeded = Failure.usage("widget needs --format waybar, i3blocks, polybar or plain")
    static let width = Option<Int>(name: "width", help: "cut the line to N columns, so that it never wraps (the snippets from 'manna init' pass the terminal's)") { text, _ in
        guard let columns = Int(text), columns >= 1 else { throw Failure.usage("--width must be a number of columns, like 80, not '\(text.singleLine)'") }
        return columns
    }

    static let follow = Flag(
        name: "follow",
        help: "keep running: print again when the verse changes (at midnight, or a new timeline), waking once a minute; "
            + "for waybar's exec without an interval, i3blocks' interval=persist and polybar's tail = true")

    // MARK: Installing, syncing and the rest

    static let prefix = Option("prefix", help: "install in DIR/bin, DIR/libexec/manna and DIR/share (default ~/.local)", operand: .directory)
    static let destdir = Option(
        "destdir",
        help: "for a package: write the files under DIR (DIR/PREFIX/bin/manna, the units in DIR/PREFIX/lib/systemd/user) and set nothing up",
        operand: .directory)
    /// The major version: "46" or "46.2" (an extension is made for a major version).
    static let gnomeShell = Option<Int>(
        name: "gnome-shell",
        help: "make the top-bar extension for this GNOME Shell version, like 46 (default: the GNOME Shell installed here; 43-44's without one)"
    ) { text, _ in
        guard text.allSatisfy({ $0.isNumber || $0 == "." }), let major = Int(text.prefix { $0 != "." }), (40...99).contains(major) else {
            throw Failure.usage("--gnome-shell must be a GNOME Shell version, like 43 or 46, not '\(text.singleLine)'")
        }
        return major
    }
    static let cron = Flag(name: "cron", help: "add a line to your crontab instead of the systemd user timer")

    static let deviceName = Option("name", help: "what this device is called in 'sync status' on the others (the host name if not given)")
    static let searches = Flag(name: "searches", help: "sync the search history too (give it on every device)")

    static let curated = Option("curated", help: "the curated/ folder to read (default: this checkout's)", operand: .directory)
    static let output = Option("output", help: "the database file to write (default: where manna looks for it)", operand: .file)
    static let printing = Flag(name: "print", help: "print the timeline instead of writing it")
    static let history = Flag(
        name: "history",
        help: "print the last \(Journal.searchHistoryLimit) searches made at a terminal, newest first (--json and scripted searches are not kept)")
    static let continueReading = Flag(name: "continue", help: "after the passage, go on reading the next chapters and books")
    static let repeatPassage = Flag(name: "repeat", help: "after the passage, start it again (until stopped, or --sleep)")
    static let sleep = Option<Listening.Controls.Sleep>(
        name: "sleep",
        help: "stop by itself, fading out, after this much listening (90s, 20m, 1h; the s key adds as much again) or at the end of the chapter ('chapter')"
    ) { text, _ in try Listening.Controls.sleep(text) }
    static let voices = Flag(name: "voices", help: "list the installed voices: espeak-ng's, and natural voices (tools/get-voice)")
    static let complete = Flag(name: "complete", help: "used by the scripts: print what may come after the words that follow '--', one per line")
}

extension Option {
    /// The same option with a short form, like `-t`.
    func short(_ short: String) -> Option {
        var option = self
        option.short = short
        return option
    }
}
