// manna install [--cron] [--prefix DIR]: copies manna and its text database into place, runs it every minute
// and writes the timeline; exits 69 when the timer or crontab line cannot run here.
import MannaKit

enum InstallCommand {
    static let spec = CommandSpec(
        name: "install",
        usage: "manna install [--cron] [--prefix DIR]",
        abstract: "Install manna in ~/.local and run its scheduler every minute (systemd timer or cron)",
        valueOptions: ["prefix": "install in DIR/bin, DIR/libexec/manna and DIR/share/manna (default ~/.local)"],
        flags: ["cron": "add a line to your crontab instead of the systemd user timer"],
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: Context) throws {
        guard arguments.positionals.isEmpty else { throw Failure.usage("install takes no arguments; see 'manna install --help'") }
        let installer = try installer(arguments, context)
        // In a checkout the text database is a build product: this makes sure it is built and sound.
        _ = try context.openTextDatabase()
        let textDatabase = try context.textDatabaseLocation().path
        let state = try installer.install(program: context.executablePath, textDatabase: textDatabase, scheduler: arguments.has("cron") ? .cron : .systemd)
        // Widgets and the prompt have a verse at once, not only after the first tick.
        try TimelineCommand.refresh(now: context.clock.now(), context)
        context.stdout.line("wrote \(context.paths.timeline)")
        if case .notRunning(let why) = state { throw Failure.unavailable(why) }
    }

    /// The installer for `--prefix` (default ~/.local), running real programs and reporting on stdout.
    static func installer(_ arguments: ParsedArguments, _ context: Context) throws -> Installer {
        let layout: InstallLayout = try InstallLayout(prefix: arguments.value("prefix"), environment: context.environment)
        let stdout = context.stdout
        return Installer(layout: layout, environment: context.environment, runner: Subprocess.runner(environment: context.environment),
                         report: { stdout.line($0) })
    }
}
