// Where a command's output goes: a file descriptor (stdout, stderr) in the running program, a
// string that tests read.
#if canImport(Glibc)
import Glibc
#endif
import MannaKit

/// A buffered text sink, and the terminal's edge: a `String` written here is neutralised
/// (`neutralisedForTerminal`: no escape sequence from a prayer, a peer's device name or a
/// file reaches the terminal, whichever command prints it); only a `TerminalText` carries
/// Manna's own styles.
public final class Output {
    private let descriptor: Int32?
    private var buffer: [UInt8] = []
    /// Everything written so far, for an output that captures (`Output.captured()`).
    public private(set) var text = ""
    /// Why writing failed (the system's reason), once it has: what follows is dropped.
    public private(set) var failure: String?

    /// Writes to `descriptor`, in 64 KiB pieces and on `flush()`.
    public init(descriptor: Int32) {
        self.descriptor = descriptor
        buffer.reserveCapacity(4096)
    }

    private init() { descriptor = nil }

    /// An output that keeps what is written in `text`.
    public static func captured() -> Output { Output() }

    /// Writes `text`, its control characters (but line breaks and tabs) shown as "�".
    public func write(_ text: String) { writeRendered(text.neutralisedForTerminal) }

    /// Writes Manna's styled text as it is.
    public func write(_ text: TerminalText) { writeRendered(text.rendered) }

    public func line(_ text: String) {
        // Neutralised, then the line break: no copy of the line to add it to. (A line ending
        // in CR is the exception: CR LF is one break, which the neutraliser sees only together.)
        guard text.utf8.last != UInt8(ascii: "\r") else { return write(text + "\n") }
        writeRendered(text.neutralisedForTerminal)
        writeRendered("\n")
    }

    public func line(_ text: TerminalText) { writeRendered(text.rendered + "\n") }

    private func writeRendered(_ text: String) {
        guard descriptor != nil else {
            self.text += text
            return
        }
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 64 * 1024 { flush() }
    }

    public func flush() {
        guard let descriptor else { return }
        var offset = 0
        while offset < buffer.count {
            let written = buffer[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 {
                // A full disk (ENOSPC), a closed descriptor (EBADF): said once, at the end.
                if failure == nil { failure = written < 0 ? String(cString: strerror(errno)) : "nothing was written" }
                break
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Waits `milliseconds`, or less: false as soon as the reader is gone (the other end of a
    /// pipe or socket closed, a terminal hung up), so that a process that writes seldom learns
    /// it without writing. A captured output's reader never goes.
    public func readerStays(milliseconds: Int) -> Bool {
        guard let descriptor else {
            usleep(UInt32(min(milliseconds, 1000) * 1000))
            return true
        }
        let deadline = monotonicSeconds() + Double(milliseconds) / 1000
        while true {
            let left = Int32(max(0, (deadline - monotonicSeconds()) * 1000).rounded(.up))
            // No events asked for: poll reports POLLHUP and POLLERR (a pipe with no reader) anyway.
            var watched = pollfd(fd: descriptor, events: 0, revents: 0)
            let ready = poll(&watched, 1, left)
            if ready < 0 && errno == EINTR { continue }
            if ready > 0 && watched.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { return false }
            if ready == 0 || left == 0 { return true }
        }
    }
}
