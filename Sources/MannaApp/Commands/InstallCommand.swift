// manna install [--cron] [--prefix DIR] [--destdir DIR]: copies manna, its text database, man pages,
// completions, desktop entry and icon and the GNOME Shell extension into place, runs it every
// minute and writes the timeline; exits 69 when the timer or crontab line cannot run here. With
// --destdir it writes the same files for a package (tools/make-deb) and sets nothing up. Run
// from a package (a manna installed for every user) without --prefix, it copies nothing: it
// enables the package's timer, or adds the crontab line for it.
import MannaKit

enum InstallCommand {
    static let spec = CommandSpec(
        name: "install",
        usage: "manna install [--cron] [--prefix DIR] [--destdir DIR] [--gnome-shell VERSION]",
        abstract: "Install manna in ~/.local (from a package: copy nothing) and run its scheduler every minute (systemd timer or cron)",
        options: [Options.prefix, Options.destdir, Options.gnomeShell, Options.cron],
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: Context) throws {
        guard arguments.positionals.isEmpty else { throw Failure.usage("install takes no arguments; see 'manna install --help'") }
        if arguments.gave(Options.destdir) {
            // A package's files land under DESTDIR at the prefix it will be installed to, so the
            // prefix must be said, and nothing of this machine's (timer, crontab, timeline) is touched.
            guard arguments.gave(Options.prefix) else { throw Failure.usage("--destdir needs --prefix, the folder the package installs to (like /usr)") }
            guard !arguments.has(Options.cron) else { throw Failure.usage("--destdir writes files for a package, which adds no crontab line: leave out --cron") }
        }
        // Run from a package (a manna installed for every user), without --prefix: copy
        // nothing, so upgrades keep reaching the user; set up its scheduler.
        if !arguments.gave(Options.prefix) && !arguments.gave(Options.destdir), case .system(let prefix) = Installing.installation(context) {
            let state = try Installing.installer(prefix: prefix, context).setUp(arguments.has(Options.cron) ? .cron : .systemd)
            try TimelineRefresh.refresh(now: context.clock.now(), context)
            context.stdout.line("wrote \(context.paths.timeline)")
            if case .notRunning(let why) = state { throw Failure.unavailable(why) }
            return
        }
        let installer = try Installing.installer(arguments, context, gnomeShell: try gnomeShell(arguments, context))
        // In a checkout the text database is a build product: this makes sure it is built and sound.
        _ = try context.openTextDatabase()
        let textDatabase = try context.textDatabaseLocation().path
        let catalogues = MessageCatalogues.catalogues(in: MessageCatalogues.locate(environment: context.environment, executablePath: context.executablePath))
        if installer.layout.destination != nil {
            try installer.stage(program: context.executablePath, textDatabase: textDatabase, catalogues: catalogues, documents: commandLineFiles(context))
            return
        }
        let state = try installer.install(program: context.executablePath, textDatabase: textDatabase, catalogues: catalogues, documents: commandLineFiles(context),
                                          scheduler: arguments.has(Options.cron) ? .cron : .systemd)
        // Widgets and the prompt have a verse at once, not only after the first tick.
        try TimelineRefresh.refresh(now: context.clock.now(), context)
        context.stdout.line("wrote \(context.paths.timeline)")
        if case .notRunning(let why) = state { throw Failure.unavailable(why) }
    }

    /// The man pages and completion scripts, made by the same code as `manna manpage` and
    /// `manna completions`, so what is installed is what this manna's parser accepts.
    static func commandLineFiles(_ context: Context) -> CommandLineFiles {
        let translations = context.translationsForHelp()
        return CommandLineFiles(manual: ManPage.manna(translations: translations), configManual: ManPage.config(translations: translations),
                                readerManual: ManPage.reader(), bashCompletion: CompletionScripts.bash, zshCompletion: CompletionScripts.zsh, fishCompletion: CompletionScripts.fish)
    }

    /// The GNOME Shell to make the extension for: `--gnome-shell`, else the one installed here.
    static func gnomeShell(_ arguments: ParsedArguments, _ context: Context) throws -> Int? {
        try arguments.value(Options.gnomeShell, context) ?? Installer.gnomeShellVersion(runner: Subprocess.runner(environment: context.environment))
    }
}
