// manna paths: where Manna keeps its files, as key=value lines.
import MannaKit

enum PathsCommand {
    static let spec = CommandSpec(
        name: "paths",
        usage: "manna paths [KEY] [--json]",
        abstract: "Print where Manna's files are, as key=value lines (with KEY: that path alone)",
        options: [Options.json],
        operand: .words(keys),
        run: run)

    static let keys = ["text_db", "journal_db", "config", "plans", "timeline", "prompt_lines", "units"]

    static func run(_ arguments: ParsedArguments, _ context: Context) throws {
        guard arguments.positionals.count <= 1 else { throw Failure.usage("paths takes at most one key: \(keys.joined(separator: ", "))") }
        if let key = arguments.positionals.first {
            guard let path = try path(key, context) else {
                throw Failure.usage("unknown path '\(key)'" + Suggestion.hint(for: key, in: keys, otherwise: "; keys are \(keys.joined(separator: ", "))"))
            }
            return arguments.has(Options.json) ? context.json(.string(path)) : context.stdout.line(path)
        }
        let pairs = try keys.map { ($0, try path($0, context) ?? "") }
        if arguments.has(Options.json) { return context.json(.object(pairs.map { ($0.0, .string($0.1)) })) }
        for (key, path) in pairs { context.stdout.line(key + "=" + path) }
    }

    static func path(_ key: String, _ context: Context) throws -> String? {
        switch key {
        case "text_db": try context.textDatabaseLocation().path
        case "journal_db": context.paths.journal
        case "config": context.paths.config
        case "plans": context.paths.userPlans
        case "timeline": context.paths.timeline
        case "prompt_lines": context.paths.promptLines
        case "units": context.paths.unitDirectory
        default: nil
        }
    }
}
