// manna uninstall [--cron] [--prefix DIR]: takes away what install put there, keeping the user's data.
import MannaKit

enum UninstallCommand {
    static let spec = CommandSpec(
        name: "uninstall",
        usage: "manna uninstall [--cron] [--prefix DIR]",
        abstract: "Stop and remove the timer, the crontab line, manna and its text database (from a package: only the first two); keep your data",
        options: [Options.prefix.help("the DIR given to 'manna install --prefix' (default ~/.local)"),
                  Options.cron.help("fail when your crontab cannot be read, instead of skipping it")],
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: Context) throws {
        guard arguments.positionals.isEmpty else { throw Failure.usage("uninstall takes no arguments; see 'manna uninstall --help'") }
        let installer = try Installing.installer(arguments, context)
        // From a package, without --prefix: the package's files are the package manager's.
        let keeping = !arguments.gave(Options.prefix) && Installing.installation(context) != .own
        try installer.uninstall(cronRequired: arguments.has(Options.cron), keepingProgram: keeping)
    }
}
