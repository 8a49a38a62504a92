// The options as `Options` declares them: typed values, one line for a wrong one, one
// declaration per meaning shared by the commands, and help made from the declarations.
import Foundation
@testable import MannaKit
import Testing

@testable import MannaApp

@Suite struct OptionsTests {
    /// A context whose zone is New York: `--now` without an offset is read in it.
    static func context() -> Context {
        Context(environment: ["HOME": "/nonexistent", "TZ": "America/New_York"], clock: .fixed(0), stdout: .captured(), stderr: .captured(),
                notifier: RecordingNotifier(), executablePath: TestHome.manna, userID: 1000)
    }

    @Test func valuesAreReadAsTheirDeclarationsTypeThem() throws {
        let context = Self.context()
        let parsed = try ParsedArguments(["love", "-n", "all", "--translation=web", "--now", "2026-03-08T07:00", "-j"], spec: SearchCommand.spec)
        #expect(parsed.positionals == ["love"])
        // `--limit all` is no limit: a value that is there and nil.
        #expect(try parsed.value(Options.limit, context) == .some(nil))
        #expect(try parsed.value(Options.translation, context) == "web")
        // Local time in the context's zone: 07:00 in New York that day (daylight time from 02:00) is 11:00 UTC.
        #expect(try parsed.value(Options.now, context) == 1_772_967_600)
        #expect(parsed.has(Options.json) && !parsed.has(Options.history))
        #expect(try parsed.value(Options.book, context) == nil && !parsed.gave(Options.book))
        // Given twice, the last wins; a repeated option keeps every value in order.
        #expect(try ParsedArguments(["--limit", "3", "--limit", "5"], spec: SearchCommand.spec).value(Options.limit, context) == 5)
        let tags = try ParsedArguments(["add", "x", "--tag", "Family", "--tag", "exams"], spec: PrayCommand.spec)
        #expect(try tags.values(Options.tag, context) == ["family", "exams"])
        #expect(try ParsedArguments(["John 3:16", "--color", "Green"], spec: HighlightCommand.spec).value(Options.highlightColor, context) == .green)
    }

    /// A wrong value is one line naming what is allowed, and exit 64, wherever it is read.
    @Test func aWrongValueIsOneLineAndAUsageError() throws {
        let context = Self.context()
        let cases: [(option: any CommandOption, text: String, message: String, read: (String) throws -> Void)] = [
            (Options.date, "2026-02-30", "--date must be a date YYYY-MM-DD that exists, like 2026-12-25, not '2026-02-30'", { _ = try Options.date.read($0, context) }),
            (Options.now, "noon", "--now must be a date and time like 2026-03-08T07:00 or 2026-03-08T07:00:00-05:00, not 'noon'",
             { _ = try Options.now.read($0, context) }),
            (Options.limit, "0", "--limit must be a whole number from 1 up, or 'all', not '0'", { _ = try Options.limit.read($0, context) }),
            (Options.rate, "fast", "--rate must be words a minute from 80 to 450, not 'fast'", { _ = try Options.rate.read($0, context) }),
            (Options.highlightColor, "red", "--color must be yellow, green, blue, pink or purple, not 'red'", { _ = try Options.highlightColor.read($0, context) }),
            (Options.cueFormat, "srt", "--from must be aeneas, audacity or webvtt, not 'srt'", { _ = try Options.cueFormat.read($0, context) }),
            (Options.planReminder, "8pm", "a reminder time must be HH:MM (24-hour), like 20:00, or 'off', not '8pm'",
             { _ = try Options.planReminder.read($0, context) }),
            (Options.minutes, "1441", "--minutes must be a whole number from 1 to 1440, not '1441'", { _ = try Options.minutes.read($0, context) }),
            (Options.width, "wide", "--width must be a number of columns, like 80, not 'wide'", { _ = try Options.width.read($0, context) }),
            (Options.gnomeShell, "3.38", "--gnome-shell must be a GNOME Shell version, like 43 or 46, not '3.38'", { _ = try Options.gnomeShell.read($0, context) }),
        ]
        for (option, text, message, read) in cases {
            do {
                try read(text)
                Issue.record("--\(option.name) \(text) was taken")
            } catch {
                let (said, status) = Manna.report(error)
                #expect(said == message && status == .usage, "--\(option.name) \(text)")
            }
        }
        #expect(try Options.planReminder.read("off", context) == .some(nil))
        #expect(try Options.gnomeShell.read("46.2", context) == 46)
    }

    /// An option of one meaning is declared once: every command taking `--now` (or `--json`,
    /// `--translation`…) reads it with the same declaration, whatever help it gives it there.
    /// The names shared by options of different meanings (`--from` a verse, a date or a format;
    /// `--format` a prompt's or a widget's) are the few listed here.
    @Test func everyNameMeansOneDeclarationButTheFewListed() {
        var operands: [String: Set<String>] = [:]
        for command in Manna.commands.map({ $0.spec() }) {
            for option in command.options { operands[option.name, default: []].insert("\(option.operand)|\(option.takesValue)|\(option.short ?? "")") }
        }
        let several = operands.filter { $0.value.count > 1 }.map(\.key).sorted()
        #expect(several == ["format", "from"], "\(operands.filter { $0.value.count > 1 })")
        // The short forms are the declarations': -t, -n and -j, where a command has the option.
        let shorts = Set(Manna.commands.flatMap { $0.spec().options.compactMap { option in option.short.map { "\($0) --\(option.name)" } } })
        #expect(shorts == ["-t --translation", "-n --limit", "-j --json"])
        #expect(throws: Failure.self) { try ParsedArguments(["-n", "3"], spec: ReadCommand.spec) }
    }

    /// Help says which subcommands take an option where not all do, for every option, from
    /// its `Subcommand` cases: the declared help names none.
    @Test func helpScopesEachOptionToTheSubcommandsTakingIt() {
        let help = PlanCommand.spec.help(translations: nil)
        #expect(help.contains("  --from VALUE          start: the date of day 1 (default: today)\n"))
        #expect(help.contains("  --json                list, show, today, status: print JSON"))
        #expect(help.contains("  --date VALUE          today: the local date"))
        // Where fewer subcommands do not take it, those are named.
        #expect(NoteCommand.spec.help(translations: nil).contains("  --now VALUE           all but list: act as if"))
        #expect(PrayCommand.spec.help(translations: nil).contains("  --now VALUE           all but list, today: act as if"))
        // No subcommands: no scope.
        #expect(TodayCommand.spec.help(translations: nil).contains("  --date VALUE          the local date, like 2026-12-25 (default: today)\n"))
    }

    /// A subcommand is its enum's case, by its word (`catch-up`, `init`); the options it does
    /// not take are refused, and a command that may go without one takes what that case does.
    @Test func subcommandsAreCasesWithTheirOptions() throws {
        #expect(try ParsedArguments(["catch-up"], spec: PlanCommand.spec).subcommand(PlanCommand.Subcommand.self) == .catchUp)
        #expect(try ParsedArguments(["init", "/tmp/x"], spec: SyncCommand.spec).subcommand(SyncCommand.Subcommand.self) == .start)
        #expect(try ParsedArguments(["John"], spec: HighlightCommand.spec).subcommand(HighlightCommand.Subcommand.self) == nil)
        #expect(PlanCommand.spec.subcommands.map(\.name).contains("catch-up"))
        let refusals: [(CommandSpec, [String], String)] = [
            (NoteCommand.spec, ["list", "--now", "2026-01-01T00:00"], "option --now does not apply to 'note list'; see 'manna note --help'"),
            (HighlightCommand.spec, ["John 3:16", "--json"], "option --json does not apply to 'highlight'; see 'manna highlight --help'"),
            (SyncCommand.spec, ["status", "--name", "x"], "option --name does not apply to 'sync status'; see 'manna sync --help'"),
        ]
        for (spec, arguments, message) in refusals {
            #expect(throws: Failure.usage(message), "\(spec.name) \(arguments)") { try ParsedArguments(arguments, spec: spec) }
        }
        #expect(throws: Never.self) { try ParsedArguments(["John 3:16", "--color", "green"], spec: HighlightCommand.spec) }
    }
}
