// manna install [--cron] [--prefix DIR] [--destdir DIR]: copies manna, its text database, man pages,
// completions, desktop entry and icon and the GNOME Shell extension into place, runs it every
// minute and writes the timeline; exits 69 when the timer or crontab line cannot run here. With
// --destdir it writes the same files for a package (tools/make-deb) and sets nothing up.
import MannaKit

enum InstallCommand {
    static let spec = CommandSpec(
        name: "install",
        usage: "manna install [--cron] [--prefix DIR] [--destdir DIR]",
        abstract: "Install manna in ~/.local and run its scheduler every minute (systemd timer or cron)",
        valueOptions: [
            "prefix": "install in DIR/bin, DIR/libexec/manna and DIR/share (default ~/.local)",
            "destdir": "for a package: write the files under DIR (DIR/PREFIX/bin/manna, the units in DIR/PREFIX/lib/systemd/user) "
                + "and set nothing up",
        ],
        flags: ["cron": "add a line to your crontab instead of the systemd user timer"],
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: Context) throws {
        guard arguments.positionals.isEmpty else { throw Failure.usage("install takes no arguments; see 'manna install --help'") }
        if arguments.value("destdir") != nil {
            // A package's files land under DESTDIR at the prefix it will be installed to, so the
            // prefix must be said, and nothing of this machine's (timer, crontab, timeline) is touched.
            guard arguments.value("prefix") != nil else { throw Failure.usage("--destdir needs --prefix, the folder the package installs to (like /usr)") }
            guard !arguments.has("cron") else { throw Failure.usage("--destdir writes files for a package, which adds no crontab line: leave out --cron") }
        }
        let installer = try installer(arguments, context)
        // In a checkout the text database is a build product: this makes sure it is built and sound.
        _ = try context.openTextDatabase()
        let textDatabase = try context.textDatabaseLocation().path
        if installer.layout.destination != nil {
            try installer.stage(program: context.executablePath, textDatabase: textDatabase, documents: commandLineFiles)
            return
        }
        let state = try installer.install(program: context.executablePath, textDatabase: textDatabase, documents: commandLineFiles,
                                          scheduler: arguments.has("cron") ? .cron : .systemd)
        // Widgets and the prompt have a verse at once, not only after the first tick.
        try TimelineCommand.refresh(now: context.clock.now(), context)
        context.stdout.line("wrote \(context.paths.timeline)")
        if case .notRunning(let why) = state { throw Failure.unavailable(why) }
    }

    /// The man pages and completion scripts, made by the same code as `manna manpage` and
    /// `manna completions`, so what is installed is what this manna's parser accepts.
    static var commandLineFiles: CommandLineFiles {
        CommandLineFiles(manual: ManPage.manna, configManual: ManPage.config, bashCompletion: CompletionScripts.bash,
                         zshCompletion: CompletionScripts.zsh, fishCompletion: CompletionScripts.fish)
    }

    /// The installer for `--prefix` (default ~/.local) and `--destdir`, running real programs and reporting on stdout.
    static func installer(_ arguments: ParsedArguments, _ context: Context) throws -> Installer {
        let layout: InstallLayout = try InstallLayout(prefix: arguments.value("prefix"), environment: context.environment,
                                                      destination: arguments.value("destdir"))
        let stdout = context.stdout
        return Installer(layout: layout, environment: context.environment, runner: Subprocess.runner(environment: context.environment),
                         report: { stdout.line($0) })
    }
}
