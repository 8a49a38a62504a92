// manna config list | get KEY | set KEY VALUE: the settings in $XDG_CONFIG_HOME/manna/config.
import MannaKit

enum ConfigCommand {
    static let spec = CommandSpec(
        name: "config",
        usage: "manna config list | get KEY | set KEY VALUE",
        abstract: "Show or change settings (translation, notify_at, plan, plan_start, prompt_format, timeline_days, daily_source)",
        subcommands: ["list", "get", "set"],
        operands: ["get": .configKey, "set": .configKey],
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: Context) throws {
        let words = arguments.positionals
        switch (words.first, words.count) {
        case ("list", 1):
            let config = try context.config()
            for key in Config.keys {
                let value = config.value(of: key.name)
                context.stdout.line("\(key.name) = \(value ?? "")" + (value == nil ? "  # not set" : ""))
            }
        case ("get", 2):
            let key = words[1]
            guard Config.keys.contains(where: { $0.name == key }) else { throw unknownKey(key) }
            if let value = try context.config().value(of: key) { context.stdout.line(value) }
        case ("set", 3):
            try set(key: words[1], value: words[2], context)
        default:
            throw Failure.usage("config needs 'list', 'get KEY' or 'set KEY VALUE'; see 'manna config --help'")
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
        let path = context.paths.config
        let existing = try Files.readText(path)
        do {
            try Files.makeDirectories(context.paths.configDirectory, mode: 0o700)
            try Files.writeAtomically(Config.updating(existing ?? "", key: key, value: value), to: path, mode: 0o600)
        } catch {
            throw Failure.io("cannot write \(error.message)")
        }
    }
}
