// The installer as install, uninstall and doctor make it: for this manna's own prefix when it
// is installed for every user, else ~/.local, running real programs and reporting on stdout.
import MannaKit

enum Installing {
    /// How the running manna was installed (`Installation.of`).
    static func installation(_ context: Context) -> Installation {
        Installation.of(executable: context.executablePath, home: context.environment["HOME"] ?? "")
    }

    /// The installer for `--prefix` (default ~/.local) and `--destdir`, running real programs and
    /// reporting on stdout; `gnomeShell` as `Installer` takes it.
    static func installer(_ arguments: ParsedArguments, _ context: Context, gnomeShell: Int? = nil) throws -> Installer {
        try installer(prefix: arguments.value(Options.prefix, context), destination: arguments.value(Options.destdir, context), context, gnomeShell: gnomeShell)
    }

    /// The installer for `prefix`; nil: this manna's own prefix when it is installed for every
    /// user, else ~/.local.
    static func installer(prefix: String?, destination: String? = nil, _ context: Context, gnomeShell: Int? = nil) throws -> Installer {
        var prefix = prefix
        if prefix == nil, destination == nil, case .system(let own) = installation(context) { prefix = own.isEmpty ? "/" : own }
        let layout: InstallLayout = try InstallLayout(prefix: prefix, environment: context.environment, destination: destination)
        let stdout = context.stdout
        return Installer(layout: layout, environment: context.environment, runner: Subprocess.runner(environment: context.environment),
                         report: { stdout.line($0) }, gnomeShell: gnomeShell)
    }
}
