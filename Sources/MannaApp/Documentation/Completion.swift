// Shell completion (`manna completions bash|zsh|fish`). The scripts are thin: each passes the
// words typed so far to `manna completions --complete` and shows what it prints. The
// knowledge of what comes where (commands, subcommands, options, what each option's value is)
// is the command table's, here in one place for the three shells.
import MannaKit

/// What a word on the command line is, so that completion can offer it.
enum Operand: Equatable, Sendable {
    /// A passage: the book names are offered.
    case reference
    case translation
    case plan
    /// A running plan's id (the plans this journal runs), or one of these words.
    case runningPlan(or: [String])
    case prayer
    case note
    case highlight
    case bookmark
    case configKey
    case file
    case directory
    /// One of these words.
    case words([String])
    /// Free text (a title, a query): nothing to offer.
    case text
}

/// What completion offers for the word being typed.
enum Completion {
    /// Words, each with a few words of description ("" for none).
    case words([(word: String, about: String)])
    /// The shell's own completion of file names.
    case files
    case directories

    /// The options every command takes, and those `manna` takes alone.
    static let global: [(word: String, about: String)] = [("--help", "show help"), ("-h", "show help")]
    static let programOptions: [(word: String, about: String)] = [("--version", "print the version"), ("-V", "print the version")]

    /// What to offer for the last of `words` (the words after `manna`; the last is the one
    /// being typed, "" for a new one). Never fails: a journal or database that cannot be
    /// opened offers nothing from it.
    static func complete(_ words: [String], context: Context) -> Completion {
        let current = words.last ?? ""
        var command: CommandSpec?
        var subcommand: String?
        var valueOf: String?
        var onlyOperands = false
        for word in words.dropLast() {
            // This word is the value of the option before it.
            if valueOf != nil {
                valueOf = nil
                continue
            }
            if !onlyOperands && word == "--" {
                onlyOperands = true
            } else if !onlyOperands && word.count > 1 && word.hasPrefix("-") {
                let name = longName(word, in: command)
                // Before the command, an option takes a value if it does in any command.
                let takesValue = command.map { $0.takesValue(name) } ?? Manna.commands.contains { $0.spec().takesValue(name) }
                if takesValue && !word.contains("=") { valueOf = name }
            } else if command == nil {
                guard let named = Manna.command(named: word) else { return .words([]) }
                command = named
            } else if let command, !command.subcommands.isEmpty, subcommand == nil {
                subcommand = word
            }
        }
        if let option = valueOf {
            // Before the command, the option's value is what the first command taking it says.
            let declared = command.map { $0.option(named: option) } ?? Manna.commands.lazy.compactMap { $0.spec().option(named: option) }.first
            let operand = declared?.operand ?? .text
            return offer(operand, matching: current, context: context)
        }
        guard let command else {
            if current.hasPrefix("-") { return .words(filter(global + programOptions, current)) }
            return .words(filter(Manna.commands.map { ($0.name, $0.spec().abstract) }, current))
        }
        if current.hasPrefix("-") && !onlyOperands {
            var options = command.options.map { ("--" + $0.name, $0.help) }
            for option in command.options { if let short = option.short { options.append((short, option.help)) } }
            // After a subcommand, only what it takes (`note delete` takes --now, not --json).
            if let taken = command.subcommand(subcommand) {
                options.removeAll { !taken.options.contains(longName($0.0, in: command)) }
            }
            return .words(filter(options.sorted { $0.0 < $1.0 } + global, current))
        }
        if !command.subcommands.isEmpty && subcommand == nil {
            // `manna highlight John 3:16` is the older spelling of `highlight add`: its books too.
            var offered = command.subcommands.map { (word: $0.name, about: "") }
            if case .words(let books)? = command.withoutSubcommand?.operand.map({ offer($0, matching: current, context: context) }) { offered += books }
            return .words(filter(offered, current))
        }
        let operand = subcommand.map { word in command.subcommands.first { $0.name == word }?.operand } ?? command.operand
        return offer(operand ?? .text, matching: current, context: context)
    }

    /// `-t` is `--translation` (where an option of `command`, or of any command, has that short
    /// form); `--limit=5` is `--limit`.
    static func longName(_ word: String, in command: CommandSpec?) -> String {
        let commands = command.map { [$0] } ?? Manna.commands.map { $0.spec() }
        if let long = commands.lazy.compactMap({ $0.options.first { $0.short == word } }).first { return long.name }
        let name = word.drop { $0 == "-" }
        return String(name.prefix { $0 != "=" })
    }

    static func filter(_ words: [(word: String, about: String)], _ prefix: String) -> [(word: String, about: String)] {
        let lowered = prefix.lowercased()
        return words.filter { $0.word.lowercased().hasPrefix(lowered) }
    }

    /// The words `operand` may be, starting with `prefix`.
    static func offer(_ operand: Operand, matching prefix: String, context: Context) -> Completion {
        switch operand {
        case .file: return .files
        case .directory: return .directories
        case .text: return .words([])
        default: return .words(filter(values(of: operand, context: context), prefix))
        }
    }

    static func values(of operand: Operand, context: Context) -> [(word: String, about: String)] {
        switch operand {
        case .reference:
            // Written without spaces ("1John", "SongofSolomon"), which the reference parser reads
            // and a shell keeps as one word.
            return Canon.books.map { (String($0.name.filter { $0 != " " }), $0.name) }
        case .translation:
            guard let database = try? context.openTextDatabase() else { return [] }
            return database.translations.map { ($0.code, $0.name) }
        case .plan:
            guard let database = try? context.openTextDatabase(),
                  let all = try? PlanLibrary(database: database, userDirectory: context.paths.userPlans).all() else { return [] }
            return all.plans.map { ($0.id, $0.name) }
        case .runningPlan(let words):
            // Completion never makes a journal: none yet, no plan runs.
            let running = (try? context.existingJournal()?.runningPlans()) ?? []
            return running.map { ($0.planID, "") } + words.map { ($0, "") }
        case .configKey:
            return Config.keys.map { ($0.name, $0.allowed) }
        case .words(let words):
            return words.map { ($0, "") }
        case .prayer, .note, .highlight, .bookmark:
            // Completion never makes a journal: none yet, nothing to offer.
            guard let journal = try? context.existingJournal() else { return [] }
            switch operand {
            case .prayer:
                let prayers = [PrayerListKind.open, .answered, .deleted].flatMap { (try? journal.prayers($0, tag: nil)) ?? [] }
                return prayers.map { ($0.shortID, about($0.title)) }
            case .note: return ((try? journal.notes(in: nil)) ?? []).map { ($0.shortID, about($0.reference.description + ": " + $0.text)) }
            case .highlight: return ((try? journal.highlights(in: nil)) ?? []).map { ($0.shortID, about(Reference($0.verseID).description + " " + $0.color.rawValue)) }
            default: return ((try? journal.bookmarks(in: nil)) ?? []).map { ($0.shortID, about($0.reference.description)) }
            }
        case .file, .directory, .text:
            return []
        }
    }

    /// A record's text as a description: one line, short.
    static func about(_ text: String) -> String { Excerpt.of(text.singleLine, characters: 50) }

    /// The lines `manna completions --complete` prints: `word<TAB>description` each, or
    /// `:files` / `:directories` for the shell's own completion of names.
    var lines: [String] {
        switch self {
        case .files: [":files"]
        case .directories: [":directories"]
        case .words(let words): words.map { $0.about.isEmpty ? $0.word : $0.word + "\t" + String($0.about.map { $0 == "\t" ? " " : $0 }) }
        }
    }
}
