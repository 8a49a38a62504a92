// manna config list | get KEY | set KEY VALUE | unset KEY: the settings in $XDG_CONFIG_HOME/manna/config.
import MannaKit

enum ConfigCommand {
    static let spec = CommandSpec(
        name: "config",
        usage: "manna config list [--json] | get KEY | set KEY VALUE | unset KEY",
        abstract: "Show or change settings (" + Config.keys.map(\.name).joined(separator: ", ") + "); see manna-config(5)",
        options: [Options.json],
        subcommands: Subcommand.specs,
        run: run)

    enum Subcommand: String, MannaApp.Subcommand {
        case list, get, set, unset

        var options: [any CommandOption] { self == .list ? [Options.json] : [] }
        var operand: Operand? { self == .list ? nil : .configKey }
    }

    static func run(_ arguments: ParsedArguments, _ context: Context) throws {
        let words = arguments.positionals
        switch (arguments.subcommand(Subcommand.self), words.count) {
        case (.list, 1):
            context.saysIgnoredConfig = false  // listed with the rest
            try list(json: arguments.has(Options.json), context)
        case (.get, 2):
            let key = words[1]
            guard Config.keys.contains(where: { $0.name == key }) else { throw unknownKey(key) }
            if let value = context.config().value(of: key) { context.stdout.line(value) }
        case (.set, 3):
            context.saysIgnoredConfig = false  // the file is being mended: 'config list' shows what else is ignored
            try set(key: words[1], value: words[2], context)
        case (.unset, 2):
            context.saysIgnoredConfig = false
            try unset(key: words[1], context)
        default:
            throw spec.subcommandFailure(words.first, usage: "config needs 'list', 'get KEY', 'set KEY VALUE' or 'unset KEY'; see 'manna config --help'")
        }
    }

    /// Every key's effective value and where it comes from (the environment, a line of the
    /// file, or the default), then each line of the file that is ignored, and why.
    static func list(json: Bool, _ context: Context) throws {
        let config = context.configWithEveryIgnoredLine()
        var rows: [(key: String, value: String, source: String, origin: String, problem: String)] = []
        for key in Config.keys {
            if key.name == "translation", let code = context.environment.nonEmpty("MANNA_TRANSLATION") {
                rows.append((key.name, code.uppercased(), "environment", "MANNA_TRANSLATION", ""))
            } else if let line = config.lines[key.name], let value = config.value(of: key.name) {
                rows.append((key.name, value, "file", "\(context.paths.config):\(line)", ""))
            } else {
                rows.append((key.name, Config.defaultValue(of: key.name) ?? "", "default", "", ""))
            }
        }
        for line in config.ignored {
            let origin = line.error.line > 0 ? "\(line.error.file):\(line.error.line)" : line.error.file
            rows.append((line.key, line.value, "ignored", origin, line.error.problem))
        }
        if json {
            context.json(.array(rows.map { row in
                .object([("key", .string(row.key)), ("value", .string(row.value)), ("source", .string(row.source))]
                    + (row.origin.isEmpty ? [] : [("from", .string(row.origin))])
                    + (row.problem.isEmpty ? [] : [("problem", .string(row.problem))]))
            }))
            return
        }
        let assignments = rows.map { row in row.key.isEmpty ? row.value : "\(row.key) = \(row.value)" }
        let width = assignments.map(\.count).max() ?? 0
        for (row, assignment) in zip(rows, assignments) {
            let comment = row.origin.isEmpty ? row.source : "\(row.source) \(row.origin)"
            context.stdout.line((assignment.padding(to: width + 1) + "# " + comment + (row.problem.isEmpty ? "" : ": " + row.problem)).singleLine)
        }
    }

    static func unknownKey(_ key: String) -> Failure {
        .usage("unknown key '\(key)'" + Suggestion.hint(for: key, in: Config.keys.map(\.name),
                                                          otherwise: "; keys are \(Config.keys.map(\.name).joined(separator: ", "))"))
    }

    /// Checks the value, then rewrites the file atomically with only that line changed.
    static func set(key: String, value: String, _ context: Context) throws {
        var config = context.config()
        do { try config.set(key, to: value) } catch { throw Failure.usage(error.problem) }
        if key == "translation" {
            let database = try context.openTextDatabase()
            _ = try database.translation(code: value)
        }
        try write(key: key, value: value, context)
    }

    /// Removes every line that sets `key`, a key Manna knows or one it ignores (a typo, a key
    /// from another version): the command that mends the file never refuses the file's own lines.
    static func unset(key: String, _ context: Context) throws {
        let known = Config.keys.contains { $0.name == key }
        guard known || context.config().ignored.contains(where: { $0.key == key }) else { throw unknownKey(key) }
        try write(key: key, value: nil, context)
    }

    /// Rewrites the file atomically with only `key`'s line changed (nil: removed).
    static func write(key: String, value: String?, _ context: Context) throws {
        let path = context.paths.config
        let existing = try Files.readText(path)
        if existing == nil && value == nil { return }
        do {
            try Files.makeDirectories(context.paths.configDirectory, mode: 0o700)
            try Files.writeAtomically(Config.updating(existing ?? "", key: key, value: value), to: path, mode: 0o600)
        } catch {
            throw Failure.io("cannot write \(error.message)")
        }
    }
}
