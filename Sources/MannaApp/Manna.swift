// The command table, argument parsing, and the edge where every error becomes one line on
// stderr and an exit status.
#if canImport(Glibc)
import Glibc
#endif
import MannaKit

/// What a subcommand declares: its name, help, and which options it takes.
struct CommandSpec: Sendable {
    let name: String
    let usage: String
    let abstract: String
    /// The options it takes, as `Options` declares them (`--translation KJV` or
    /// `--translation=KJV`; `--json`), in any order: help sorts them.
    var options: [any CommandOption] = []
    /// What the words after the command are, for completion (a passage, a file), where it has
    /// no subcommands.
    var operand: Operand?
    /// The words that may come first (`pray add`, `pray list`…), each with the options it
    /// takes (`--json` goes with `list`: any other is refused, never ignored) and what its
    /// words are: a command's `Subcommand` cases (`Subcommand.specs`). Did-you-mean,
    /// completion and the man page take them from here.
    var subcommands: [SubcommandSpec] = []
    /// What the command takes with no subcommand word, where it may have none
    /// (`highlight John 3:16` is `highlight add John 3:16`).
    var withoutSubcommand: SubcommandSpec?
    /// Its output can be long (a chapter, a search): on a terminal it goes through the pager.
    var pages = false
    let run: @Sendable (ParsedArguments, Context) throws -> Void

    /// Its option `--name` (or `-n`, by its short form).
    func option(named name: String) -> (any CommandOption)? {
        options.first { $0.name == name || ($0.short != nil && $0.short == name) }
    }

    /// Whether `--name` takes a value here.
    func takesValue(_ name: String) -> Bool { option(named: name)?.takesValue == true }

    /// A subcommand missing or mistyped, with did-you-mean among `subcommands`.
    func subcommandFailure(_ word: String?, usage message: String) -> Failure {
        Failure.subcommand(word, of: name, choices: subcommands.map(\.name), usage: message)
    }

    /// The subcommand `word` names; else, when the command may go without one, that.
    func subcommand(_ word: String?) -> SubcommandSpec? {
        subcommands.first { $0.name == word } ?? withoutSubcommand
    }

    /// Each option with its help as help and the man page show it, sorted by name: after the
    /// subcommands that take it where not all do (`today: `, or `all but list: ` where those
    /// are fewer); `--translation`'s names `translations` (the text database's; nil: none could
    /// be opened).
    func optionHelp(translations: [Translation]?) -> [(option: any CommandOption, help: String)] {
        options.map { option in
            let help = option.name == Options.translation.name ? TranslationOption.help(listing: translations) : option.help
            return (option, scope(of: option.name) + help)
        }.sorted { $0.option.name < $1.option.name }
    }

    /// `start, today: `: the subcommands that take `--name`, where not all do.
    private func scope(of name: String) -> String {
        let taking = subcommands.filter { $0.options.contains(name) }.map(\.name)
        let others = subcommands.filter { !$0.options.contains(name) }.map(\.name)
        guard !taking.isEmpty, !others.isEmpty else { return "" }
        return (others.count < taking.count ? "all but " + others.joined(separator: ", ") : taking.joined(separator: ", ")) + ": "
    }

    /// `manna COMMAND --help`: usage, abstract and every option's help (see `optionHelp`), in the
    /// reader's language where the catalogue has them (the man pages, from the same table, stay English).
    func help(translations: [Translation]?) -> String {
        let messages = Messages.current
        var text = tr("usage:") + " \(usage)\n\n\(messages.text(marked: abstract))\n"
        let options = optionHelp(translations: translations)
        if !options.isEmpty {
            text += "\n" + tr("options:") + "\n"
            for (option, help) in options {
                text += "  " + ("--" + option.name + (option.takesValue ? " VALUE" : "")).padding(to: 22) + messages.text(marked: help) + "\n"
            }
        }
        return text
    }
}

/// What a subcommand declares: its word, the options it takes (its command declares their
/// help), and what the words after it are, for completion.
struct SubcommandSpec: Sendable {
    let name: String
    let options: [String]
    let operand: Operand?
}

/// A command's subcommands, as an enum's cases: the command switches on the case
/// (`arguments.subcommand(Subcommand.self)`), never on a word, and its spec takes them all
/// (`Subcommand.specs`).
protocol Subcommand: RawRepresentable<String>, CaseIterable, Sendable {
    /// The options it takes, of its command's.
    var options: [any CommandOption] { get }
    /// What the words after it are (nil: nothing to offer).
    var operand: Operand? { get }
}

extension Subcommand {
    var spec: SubcommandSpec { SubcommandSpec(name: rawValue, options: options.map(\.name), operand: operand) }
    static var specs: [SubcommandSpec] { allCases.map(\.spec) }
}

/// A command line split into positional arguments, option values and flags. Commands read the
/// options as their declarations type them: `value(Options.date, context)`, `has(Options.json)`.
struct ParsedArguments {
    var positionals: [String] = []
    /// The options that take a value, by name, with the text given, in the order given.
    private var given: [(name: String, text: String)] = []
    private var flags: [String] = []

    /// Whether `option` was given (with any value).
    func gave(_ option: any CommandOption) -> Bool {
        option.takesValue ? given.contains { $0.name == option.name } : flags.contains(option.name)
    }

    func has(_ flag: Flag) -> Bool { flags.contains(flag.name) }

    /// The subcommand the first word names, if it names one of `type`'s.
    func subcommand<Named: Subcommand>(_ type: Named.Type) -> Named? { positionals.first.flatMap(Named.init(rawValue:)) }

    /// Whether any option that takes a value was given.
    var gaveValues: Bool { !given.isEmpty }

    /// The option's value, read as its declaration says (a wrong one is a usage error); given
    /// twice, the last wins; nil when not given.
    func value<Value>(_ option: Option<Value>, _ context: Context) throws -> Value? {
        guard let text = given.last(where: { $0.name == option.name })?.text else { return nil }
        return try option.read(text, context)
    }

    /// Every value of an option that may be repeated (`--tag a --tag b`), in the order given.
    func values<Value>(_ option: Option<Value>, _ context: Context) throws -> [Value] {
        try given.filter { $0.name == option.name }.map { try option.read($0.text, context) }
    }

    /// Parses `arguments` against `spec`; anything after `--` is positional. A word that starts
    /// with one dash and a letter is an option or an error, never a title or a query.
    init(_ arguments: [String], spec: CommandSpec) throws {
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            var argument = arguments[index]
            index += 1
            if !onlyPositionals, argument.count > 1, argument.hasPrefix("-"), !argument.hasPrefix("--"),
               argument.dropFirst().first.map({ $0.isLetter }) == true {
                guard let option = spec.options.first(where: { $0.short == argument }) else {
                    throw Failure.usage(tr("unknown option '{option}' for 'manna {command}'; see 'manna {command} --help' (a text that starts with '-' goes after '--')",
                                           ("option", argument), ("command", spec.name)))
                }
                argument = "--" + option.name
            }
            guard !onlyPositionals, argument.hasPrefix("--"), argument.count > 2 else {
                if argument == "--" && !onlyPositionals { onlyPositionals = true } else { positionals.append(argument) }
                continue
            }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            let option = spec.options.first { $0.name == name }
            if option?.takesValue == true {
                if let inlineValue {
                    given.append((name, inlineValue))
                } else if index < arguments.count {
                    given.append((name, arguments[index]))
                    index += 1
                } else {
                    throw Failure.usage(tr("option --{option} needs a value; see 'manna {command} --help'", ("option", name), ("command", spec.name)))
                }
            } else if option != nil, inlineValue == nil {
                flags.append(name)
            } else {
                throw Failure.usage(tr("unknown option '--{option}' for 'manna {command}'; see 'manna {command} --help'", ("option", name), ("command", spec.name)))
            }
        }
        // A subcommand's options: the command reports a missing or mistyped subcommand itself.
        let named = spec.subcommands.first { $0.name == positionals.first }
        if let subcommand = named ?? spec.withoutSubcommand {
            for name in given.map(\.name) + flags where !subcommand.options.contains(name) {
                let command = named.map { spec.name + " " + $0.name } ?? spec.name
                throw Failure.usage(tr("option --{option} does not apply to '{subcommand}'; see 'manna {command} --help'", ("option", name), ("subcommand", command), ("command", spec.name)))
            }
        }
    }
}

public enum Manna {
    static let version = "0.1.0"

    /// Every command by name, in the order help lists them. Each spec is a lazily built
    /// static: a run builds only its own (building them all, with their help texts, was a
    /// fifth of a `manna prompt`).
    static let commands: [(name: String, spec: @Sendable () -> CommandSpec)] = [
        ("today", { TodayCommand.spec }), ("read", { ReadCommand.spec }), ("compare", { CompareCommand.spec }),
        ("search", { SearchCommand.spec }), ("note", { NoteCommand.spec }), ("highlight", { HighlightCommand.spec }),
        ("bookmark", { BookmarkCommand.spec }), ("listen", { ListenCommand.spec }), ("cues", { CuesCommand.spec }), ("audio", { AudioCommand.spec }), ("export", { ExportCommand.spec }), ("import", { ImportCommand.spec }),
        ("sync", { SyncCommand.spec }),
        ("plan", { PlanCommand.spec }), ("pray", { PrayCommand.spec }), ("config", { ConfigCommand.spec }),
        ("notify", { NotifyCommand.spec }), ("tick", { TickCommand.spec }), ("timeline", { TimelineCommand.spec }),
        ("prompt", { PromptCommand.spec }), ("widget", { WidgetCommand.spec }), ("init", { InitCommand.spec }),
        ("install", { InstallCommand.spec }), ("uninstall", { UninstallCommand.spec }), ("doctor", { DoctorCommand.spec }),
        ("paths", { PathsCommand.spec }), ("completions", { CompletionsCommand.spec }), ("manpage", { ManpageCommand.spec }),
        ("build-db", { BuildDatabaseCommand.spec }),
    ]

    static func command(named name: String) -> CommandSpec? { commands.first { $0.name == name }?.spec() }

    static var overview: String {
        var text = tr("usage:") + " manna COMMAND [ARGUMENTS]\n\n" + tr("Manna: the verse of the day, prayer reminders and an offline Bible.") + "\n\n"
            + tr("commands:") + "\n"
        for command in commands.map({ $0.spec() }) {
            text += "  " + command.name.padding(to: 10) + Messages.current.text(marked: command.abstract) + "\n"
        }
        text += "\n" + tr("See 'manna COMMAND --help' for a command's options.") + "\n"
        return text
    }

    /// An error message as one line of reasonable length, whatever input it quotes: control
    /// characters become spaces, and a message quoting a megabyte of input is cut short.
    static func oneLine(_ message: String) -> String {
        Excerpt.of(message.singleLine, characters: 400)
    }

    /// Runs one command line with `context` and returns the exit status. Never throws, never
    /// traps on bad input: every error a command throws is printed here, once. Output that
    /// could not be written (a full disk, a closed stdout) is an I/O error too: a backup
    /// written to /dev/full must not exit 0.
    public static func run(arguments: [String], context: Context) -> Int32 {
        Messages.withCurrent(context.messages) { runInLanguage(arguments: arguments, context: context) }
    }

    private static func runInLanguage(arguments: [String], context: Context) -> Int32 {
        var status = dispatch(arguments: arguments, context: context)
        context.stdout.flush()
        if let failure = context.stdout.failure, status == ExitStatus.ok.rawValue {
            context.stderr.line("manna: " + tr("cannot write the output: {reason}", ("reason", "\(failure)")))
            status = ExitStatus.ioError.rawValue
        }
        context.stderr.flush()
        return status
    }

    private static func dispatch(arguments given: [String], context: Context) -> Int32 {
        let arguments: [String]
        do { arguments = commandFirst(try takingColor(given, context)) } catch {
            context.stderr.line("manna: " + report(error).message)
            return ExitStatus.usage.rawValue
        }
        guard let name = arguments.first else {
            context.stderr.write(overview)
            return ExitStatus.usage.rawValue
        }
        switch name {
        case "--help", "-h", "help":
            guard arguments.count > 1 else {
                context.stdout.write(overview)
                return ExitStatus.ok.rawValue
            }
            guard let command = command(named: arguments[1]) else {
                context.stderr.line("manna: " + tr("no command '{command}' to help with", ("command", arguments[1]))
                    + Suggestion.hint(for: arguments[1], in: commands.map(\.name), otherwise: tr("; see 'manna --help' for the commands")))
                return ExitStatus.usage.rawValue
            }
            context.stdout.write(command.help(translations: context.translationsForHelp(command)))
            return ExitStatus.ok.rawValue
        case "--version", "-V":
            context.stdout.line("manna \(version)")
            return ExitStatus.ok.rawValue
        default:
            break
        }
        guard let command = command(named: name) else {
            context.stderr.line("manna: " + tr("unknown command '{command}'", ("command", name))
                + Suggestion.hint(for: name, in: commands.map(\.name), otherwise: tr("; see 'manna --help' for the commands")))
            return ExitStatus.usage.rawValue
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            context.stdout.write(command.help(translations: context.translationsForHelp(command)))
            return ExitStatus.ok.rawValue
        }
        do {
            let parsed = try ParsedArguments(rest, spec: command)
            if let problem = Paths.problem(environment: context.environment) { throw Failure.configuration(problem) }
            // Long output on a terminal goes through $PAGER, as git's does; JSON never.
            let finishPaging = command.pages && context.stdoutIsTerminal && !parsed.has(Options.json) ? context.startPager?() : nil
            defer {
                context.stdout.flush()
                finishPaging?()
            }
            try command.run(parsed, context)
            return ExitStatus.ok.rawValue
        } catch {
            context.stdout.flush()
            let (message, status) = report(error)
            context.stderr.line("manna: " + Manna.oneLine(message))
            return status.rawValue
        }
    }

    /// `--color auto|always|never` (`Options.outputColor`, or `--color=…`), wherever it is, taken
    /// out for the context. A command may declare a `--color` of its own, so only these three
    /// words are taken; another value is refused unless the command declares one.
    static func takingColor(_ arguments: [String], _ context: Context) throws -> [String] {
        let name = "--" + Options.outputColor.name
        var rest: [String] = []
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            if word == "--" {
                rest += arguments[index...]
                break
            }
            let value: String? = word == name && index + 1 < arguments.count ? arguments[index + 1]
                : word.hasPrefix(name + "=") ? String(word.dropFirst(name.count + 1)) : nil
            if let value, let choice = try? Options.outputColor.read(value, context) {
                context.colorChoice = choice
                index += word == name ? 2 : 1
                continue
            }
            if let value, arguments.lazy.compactMap(command(named:)).first?.takesValue(Options.outputColor.name) != true {
                _ = try Options.outputColor.read(value, context)
            }
            rest.append(word)
            index += 1
        }
        return rest
    }

    /// Options given before the command (`manna --translation WEB read John 3:16`) moved after
    /// it, where its parser reads them: the command is the first word that names one, with only
    /// options (and their values) before it.
    static func commandFirst(_ arguments: [String]) -> [String] {
        guard let first = arguments.first, first.hasPrefix("-"), !["--help", "-h", "--version", "-V"].contains(first) else { return arguments }
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            if command(named: word) != nil {
                return [word] + arguments[(index + 1)...] + arguments[..<index]
            }
            guard word.hasPrefix("-") else { return arguments }
            // `--option value`: the value is not the command (unless it names one, and then it is).
            if !word.contains("="), index + 1 < arguments.count, command(named: arguments[index + 1]) == nil, !arguments[index + 1].hasPrefix("-") {
                index += 1
            }
            index += 1
        }
        return arguments
    }

    /// What the user is told of `error`, and the exit status. Every error a user can cause is a
    /// `UserError`; anything else is a bug, said as such rather than hidden.
    static func report(_ error: any Error) -> (message: String, status: ExitStatus) {
        if let error = error as? UserError { return (error.message, error.exitStatus) }
        return (tr("unexpected error (please report it): {error}", ("error", "\(error)")), .software)
    }
}

extension String {
    func padding(to width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
