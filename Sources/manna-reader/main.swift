// manna-reader: Manna as a GNOME window (GTK 4, libadwaita). One instance per session: a
// second `manna-reader "John 3:16"` hands its reference to the running window and exits with
// what became of it. Everything it shows comes from MannaKit in this process.
#if canImport(Glibc)
import Glibc
#endif
import CAdw
import MannaApp
import MannaKit

/// The application: its id, its actions and their shortcuts, the one window.
final class ReaderApplication {
    /// The id GNOME knows the application by (its D-Bus name: what makes it single instance).
    /// In the reverse-DNS of the domain Manna's GNOME Shell extension is named under
    /// (manna@manna.invalid).
    static let id = "invalid.manna.Reader"

    let application: Object
    private let context: Context
    private var window: ReaderWindow?

    init(context: Context) {
        self.context = context
        application = Object(adw_application_new(ReaderApplication.id, G_APPLICATION_HANDLES_COMMAND_LINE), owned: true)
        application.on("startup") { [unowned self] in addActions() }
        application.on("command-line", withArgument: { [unowned self] commandLine in
            handle(commandLine!.assumingMemoryBound(to: GApplicationCommandLine.self))
        })
    }

    func run() -> Int32 {
        var arguments = CommandLine.arguments.map { strdup($0) }
        defer { for argument in arguments { free(argument) } }
        return g_application_run(application.cast(), Int32(arguments.count), &arguments)
    }

    /// A command line, this process's or a second launch's: `manna-reader [REFERENCE...]`.
    /// Opens the window (at the reference, else where the reader was) and returns the exit
    /// status for the launch. A reference that is no passage is refused with its reason: in the
    /// open window, which stays where it was, or before any window is made, so that the first
    /// launch then ends.
    private func handle(_ commandLine: UnsafeMutablePointer<GApplicationCommandLine>) -> Int32 {
        var count: Int32 = 0
        let arguments = g_application_command_line_get_arguments(commandLine, &count)
        defer { g_strfreev(arguments) }
        let words = (1..<Int(max(count, 1))).map { String(cString: arguments![$0]!) }
        let failure = { (report: (message: String, status: Int32)) -> Int32 in
            manna_command_line_printerr(commandLine, "manna-reader: " + report.message)
            return report.status
        }
        do {
            switch try ReaderCommand.parse(words) {
            case .print(let text):
                manna_command_line_print(commandLine, text)
            case .open(let reference):
                if let window {
                    if let reference, let report = window.go(to: reference) { return failure(report) }
                    window.present()
                    return 0
                }
                let model = try ReaderModel(context: context)
                if let reference { try model.go(to: reference) }
                let window = ReaderWindow(application: application, model: model, timings: context.environment.nonEmpty("MANNA_READER_TIMINGS"))
                self.window = window
                window.present()
            }
            return 0
        } catch {
            return failure(ReaderModel.report(error))
        }
    }

    private func addActions() {
        action("about") { [unowned self] in showAbout() }
        action("quit") { [unowned self] in g_application_quit(application.cast()) }
        action("go-to") { [unowned self] in window?.focusEntry() }
        action("search") { [unowned self] in window?.focusSearch() }
        action("toggle-sidebar") { [unowned self] in window?.toggleSidebar() }
        for shortcut in ReaderShortcut.all {
            withCStrings([shortcut.accelerator]) { gtk_application_set_accels_for_action(application.cast(), shortcut.action, $0) }
        }
    }

    private func action(_ name: String, _ run: @escaping () -> Void) {
        let action = g_simple_action_new(name, nil)!
        Object.on(UnsafeMutableRawPointer(action), "activate", withArgument: { _ in
            run()
            return 0
        })
        g_action_map_add_action(application.cast(), action)
        g_object_unref(UnsafeMutableRawPointer(action))
    }

    private func showAbout() {
        // GTK keeps a window while it is open: no reference of Swift's is needed.
        let about = adw_about_window_new()!
        adw_about_window_set_application_name(cast(about), "Manna")
        adw_about_window_set_application_icon(cast(about), "manna")
        adw_about_window_set_version(cast(about), ReaderModel.version)
        adw_about_window_set_comments(cast(about), "The verse of the day, prayer reminders and an offline Bible")
        adw_about_window_set_developer_name(cast(about), "The Manna project")
        if let window { gtk_window_set_transient_for(cast(about), window.window.cast()) }
        gtk_window_present(cast(about))
    }
}

let environment = Environment.process
let executable = Files.runningExecutable()
let context = Context(
    environment: environment, clock: Clock { Instant(time(nil)) },
    stdout: Output(descriptor: 1), stderr: Output(descriptor: 2),
    notifier: DesktopNotifier(executablePath: executable, environment: environment, userID: getuid()),
    executablePath: executable, userID: getuid())
// --help, --version and a usage error are answered here, before GTK: they need no display, no
// session bus and no window (a package's check, a user over ssh). A passage is the window's.
do {
    if case .print(let text) = try ReaderCommand.parse(Array(CommandLine.arguments.dropFirst())) {
        context.stdout.line(text)
        context.stdout.flush()
        exit(0)
    }
} catch {
    let report = ReaderModel.report(error)
    context.stderr.line("manna-reader: " + report.message)
    context.stderr.flush()
    exit(report.status)
}
exit(ReaderApplication(context: context).run())
