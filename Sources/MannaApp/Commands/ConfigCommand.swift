// manna config list | get KEY | set KEY VALUE | unset KEY: the settings in $XDG_CONFIG_HOME/manna/config.
import MannaKit

enum ConfigCommand {
    static let spec = CommandSpec(
        name: "config",
        usage: "manna config list [--json] | get KEY | set KEY VALUE | unset KEY",
        abstract: "Show or change settings (" + Config.keys.map(\.name).joined(separator: ", ") + "); see manna-config(5)",
        flags: ["json": "list: print JSON"],
        subcommands: ["list", "get", "set", "unset"],
        subcommandOptions: ["list": ["json"], "get": [], "set": [], "unset": []],
        operands: ["get": .configKey, "set": .configKey, "unset": .configKey],
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: Context) throws {
        let words = arguments.positionals
        switch (words.first, words.count) {
        case ("list", 1):
            try list(json: arguments.has("json"), context)
        case ("get", 2):
            let key = words[1]
            guard Config.keys.contains(where: { $0.name == key }) else { throw unknownKey(key) }
            if let value = try context.config().value(of: key) { context.stdout.line(value) }
        case ("set", 3):
            try set(key: words[1], value: words[2], context)
        case ("unset", 2):
            let key = words[1]
            guard Config.keys.contains(where: { $0.name == key }) else { throw unknownKey(key) }
            try write(key: key, value: nil, context)
        default:
            throw spec.subcommandFailure(words.first, usage: "config needs 'list', 'get KEY', 'set KEY VALUE' or 'unset KEY'; see 'manna config --help'")
        }
    }

    /// Every key's effective value and where it comes from: the environment, a line of the
    /// file, or the default.
    static func list(json: Bool, _ context: Context) throws {
        let config = try context.config()
        let defaults = Config()
        var rows: [(key: String, value: String, source: String, origin: String)] = []
        for key in Config.keys {
            if key.name == "translation", let code = context.environment.nonEmpty("MANNA_TRANSLATION") {
                rows.append((key.name, code.uppercased(), "environment", "MANNA_TRANSLATION"))
            } else if let line = config.lines[key.name], let value = config.value(of: key.name) {
                rows.append((key.name, value, "file", "\(context.paths.config):\(line)"))
            } else {
                // What stands in for a key never set: KJV, the standard prompt.
                let fallback = ["translation": "KJV", "prompt_format": PromptFormat.standard.format][key.name] ?? ""
                rows.append((key.name, defaults.value(of: key.name) ?? fallback, "default", ""))
            }
        }
        if json {
            context.json(.array(rows.map { row in
                .object([("key", .string(row.key)), ("value", .string(row.value)), ("source", .string(row.source))]
                    + (row.origin.isEmpty ? [] : [("from", .string(row.origin))]))
            }))
            return
        }
        let width = rows.map { $0.key.count + $0.value.count + 3 }.max() ?? 0
        for row in rows {
            let assignment = "\(row.key) = \(row.value)"
            context.stdout.line(assignment.padding(to: width + 1) + "# " + (row.origin.isEmpty ? row.source : "\(row.source) \(row.origin)"))
        }
    }

    static func unknownKey(_ key: String) -> Failure {
        .usage("unknown key '\(key)'" + Suggestion.hint(for: key, in: Config.keys.map(\.name),
                                                          otherwise: "; keys are \(Config.keys.map(\.name).joined(separator: ", "))"))
    }

    /// Checks the value, then rewrites the file atomically with only that line changed.
    static func set(key: String, value: String, _ context: Context) throws {
        var config = try context.config()
        do { try config.set(key, to: value) } catch { throw Failure.usage(error.problem) }
        if key == "translation" {
            let database = try context.openTextDatabase()
            _ = try context.translation(value, in: database)
        }
        if key == "prompt_format" {
            do { try PromptFormat(format: value).validate() } catch { throw Failure.usage(error.message) }
        }
        try write(key: key, value: value, context)
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
