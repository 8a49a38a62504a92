// manna install [--cron] [--prefix DIR]: copies manna and its text database into place and runs it every minute.
import MannaKit

enum InstallCommand {
    static let spec = CommandSpec(
        name: "install",
        usage: "manna install [--cron] [--prefix DIR]",
        abstract: "Install manna in ~/.local and run its scheduler every minute (systemd timer or cron)",
        valueOptions: ["prefix": "install in DIR/bin, DIR/libexec/manna and DIR/share/manna (default ~/.local)"],
        flags: ["cron": "add a line to your crontab instead of the systemd user timer"],
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: Context) throws(Failure) {
        guard arguments.positionals.isEmpty else { throw .usage("install takes no arguments; see 'manna install --help'") }
        let installer = try installer(arguments, context)
        // In a checkout the text database is a build product: this makes sure it is built and sound.
        _ = try context.openTextDatabase()
        let textDatabase = try context.textDatabaseLocation().path
        do {
            try installer.install(program: context.executablePath, textDatabase: textDatabase, scheduler: arguments.has("cron") ? .cron : .systemd)
        } catch {
            throw Failure(error)
        }
    }

    /// The installer for `--prefix` (default ~/.local), running real programs and reporting on stdout.
    static func installer(_ arguments: ParsedArguments, _ context: Context) throws(Failure) -> Installer {
        let layout: InstallLayout
        do { layout = try InstallLayout(prefix: arguments.value("prefix"), environment: context.environment) } catch { throw Failure(error) }
        let stdout = context.stdout
        return Installer(layout: layout, environment: context.environment, runner: Subprocess.runner(environment: context.environment),
                         report: { stdout.line($0) })
    }
}

extension Failure {
    init(_ error: InstallError) {
        switch error {
        case .badPrefix, .noHome: self.init(message: error.message, code: ExitCode.usage)
        case .cannotInstall, .cannotRemove: self.init(message: error.message, code: ExitCode.ioError)
        case .cronMissing, .commandFailed: self.init(message: error.message, code: ExitCode.unavailable)
        }
    }
}
