// The terminal while listening: raw keys, the alternate screen, and the signals that must
// still put it back (Ctrl-C arrives as a key in raw mode; SIGTERM and SIGHUP as signals).
#if canImport(Glibc)
import Glibc
#endif
import MannaKit

/// Signals delivered as bytes on a pipe, so the listening loop's poll(2) wakes for them.
enum SignalPipe {
    nonisolated(unsafe) private static var writeEnd: Int32 = -1
    /// The pipe's read end: each byte is a signal number.
    nonisolated(unsafe) private(set) static var readEnd: Int32 = -1

    static let stopping = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    /// Routes the stopping signals and SIGWINCH (the window was resized) to the pipe.
    static func install() {
        guard readEnd < 0 else { return }
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else { return }
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        (readEnd, writeEnd) = (ends[0], ends[1])
        // A parent may have started us with them blocked (Foundation's Process does): listening
        // must hear them, to put the terminal back and keep the place.
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        for signalNumber in stopping + [SIGWINCH] { sigaddset(&unblocked, signalNumber) }
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        for signalNumber in stopping + [SIGWINCH] {
            signal(signalNumber) { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = Glibc.send(SignalPipe.writeEnd, &byte, 1, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
        }
    }

    /// The signals that arrived since the last call.
    static func drain() -> [Int32] {
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = bytes.withUnsafeMutableBytes { recv(readEnd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        return count > 0 ? bytes[..<count].map(Int32.init) : []
    }
}

/// The terminal in raw mode on the alternate screen, put back by `restore` (called on every way out).
final class RawTerminal {
    private var original = termios()
    private var restored = false

    init() throws {
        guard tcgetattr(0, &original) == 0 else { throw Failure.io("cannot read the terminal's settings: " + String(cString: strerror(errno))) }
        var raw = original
        // Keys as they are typed, unechoed; Ctrl-C and Ctrl-Z as keys (so quitting saves the
        // position); output processing kept, so "\n" still starts a line.
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(0, TCSAFLUSH, &raw) == 0 else { throw Failure.io("cannot set the terminal to raw mode: " + String(cString: strerror(errno))) }
        // The alternate screen, the cursor hidden.
        write("\u{1B}[?1049h\u{1B}[?25l")
    }

    /// Puts the terminal back as it was: the main screen, the cursor, the settings.
    func restore() {
        guard !restored else { return }
        restored = true
        write("\u{1B}[?25h\u{1B}[?1049l")
        tcsetattr(0, TCSAFLUSH, &original)
    }

    deinit { restore() }

    /// The window's size (rows, columns), 24×80 when it cannot be read.
    static func size() -> (rows: Int, columns: Int) {
        var size = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0, size.ws_col > 0 else { return (24, 80) }
        return (Int(size.ws_row), Int(size.ws_col))
    }

    /// Draws `lines` from the top-left corner, each line's rest cleared. The lines are
    /// `TerminalText`: what they hold from the passage and the player is neutralised.
    func draw(_ lines: [TerminalText]) {
        write("\u{1B}[H" + lines.map { $0.rendered + "\u{1B}[K" }.joined(separator: "\r\n") + "\u{1B}[J")
    }

    /// The keys typed since the last call.
    func readKeys() -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = bytes.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
        return count > 0 ? Array(bytes[..<count]) : []
    }

    private func write(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(1, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            bytes = bytes.dropFirst(written)
        }
    }
}
