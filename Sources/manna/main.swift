// The entry point: build the live context (this process's environment, clock, terminal and
// desktop), run the command line, exit with its status. Everything else is in MannaApp.
#if canImport(Glibc)
import Glibc
#endif
import MannaApp
import MannaKit

// A full disk or a file size limit (ulimit -f) must be an error message, not a kill:
// with SIGXFSZ ignored, the write fails with EFBIG and the command says so.
signal(SIGXFSZ, SIG_IGN)

/// Runs the command line with the live context and returns the exit status. The context is
/// local so that it, and the journal it opened, are closed before `exit`: the last connection
/// to close checkpoints the write-ahead log, which keeps journal.sqlite complete on its own.
func run() -> Int32 {
    let environment = Environment.process
    let executable = Files.runningExecutable()
    let stdoutIsTerminal = isatty(1) == 1
    var size = winsize()
    let width = stdoutIsTerminal && ioctl(1, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : nil
    let context = Context(
        environment: environment, clock: Clock { Instant(time(nil)) },
        stdout: Output(descriptor: 1), stderr: Output(descriptor: 2),
        notifier: DesktopNotifier(executablePath: executable, environment: environment, userID: getuid()),
        executablePath: executable, userID: getuid(), terminalWidth: width,
        stdoutIsTerminal: stdoutIsTerminal, stdinIsTerminal: isatty(0) == 1, startPager: { Pager.start(environment: environment) })
    return Manna.run(arguments: Array(CommandLine.arguments.dropFirst()), context: context)
}

exit(run())
