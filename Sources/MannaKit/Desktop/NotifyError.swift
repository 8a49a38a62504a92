// Why a notification was not shown, and how `manna-notify` reports it to `manna`: an exit
// status for the kind, and the message on stderr for the details.

/// Why a desktop notification could not be shown.
public enum NotifyError: Error, Equatable, Sendable {
    /// No session bus to talk to (none configured, or it does not accept connections).
    case noBus(String)
    /// A bus, but nobody owns `org.freedesktop.Notifications` (or it could not be started).
    case noServer(String)
    /// The server did not answer the helper's first questions in time: nothing was sent, so
    /// nothing is on screen.
    case timedOut(milliseconds: Int)
    /// The notification was handed over but the server did not confirm it before Manna's
    /// deadline for the helper: a slow server may still show it, so it is not sent again.
    case unconfirmed(milliseconds: Int)
    /// `manna-notify` is not installed where `manna` looks for it.
    case helperMissing([String])
    /// Anything else: the server refused the notification, the helper failed.
    case failed(String)

    /// True when the server may have shown the notification although it did not say so.
    public var mayHaveBeenShown: Bool {
        if case .unconfirmed = self { return true }
        return false
    }

    /// How long the helper waits for each of the server's first answers.
    public static let probeTimeoutMilliseconds = 1500

    /// How long after it starts the helper waits for the server to confirm the notification:
    /// less than `DesktopNotifier`'s deadline for the whole helper, so the helper, not a kill,
    /// ends the wait, and can tell the process showing it whether to keep it.
    public static let confirmMilliseconds = 2500

    public var message: String {
        switch self {
        case .noBus(let reason): return NotifyError.noBusPrefix + reason
        case .noServer(let reason): return NotifyError.noServerPrefix + reason + ")"
        case .timedOut(let milliseconds):
            let seconds = milliseconds % 1000 == 0 ? String(milliseconds / 1000) : String(Double(milliseconds) / 1000)
            return "the notification server did not answer within \(seconds) s"
        case .unconfirmed(let milliseconds):
            return NotifyError.timedOut(milliseconds: milliseconds).message + NotifyError.unconfirmedNote
        case .helperMissing(let paths):
            return "the notification helper is not installed: no executable " + paths.joined(separator: " or ")
        case .failed(let reason): return NotifyError.failedPrefix + reason
        }
    }

    /// What the ticks do after a notification could not be shown for `message` (this error's
    /// message, as the journal keeps it for `doctor`), as docs/ARCHITECTURE.md, "The journal and
    /// the ledger", says: one sent and not confirmed is recorded shown and never sent again; one
    /// known not shown has its claim given back, and each later tick shows it once it reaches a
    /// server, for as long as it is due.
    public static func whatHappensAfter(_ message: String) -> String {
        message.hasSuffix(unconfirmedNote)
            ? "it is not sent again (the server may yet have shown it), and this clears once one is shown"
            : "each tick tries again what is still due (the verse and a plan's reading until their day ends, a prayer reminder for a day, "
                + "then named among the missed), and this clears once one is shown"
    }

    private static let unconfirmedNote = " (it may still show the notification)"
    private static let noBusPrefix = "no D-Bus session bus: "
    private static let noServerPrefix = "no notification server on the session bus ("
    private static let failedPrefix = "notification not shown: "
}

// MARK: The helper's exit status

extension NotifyError {
    /// `manna-notify`'s exit statuses; each failure also prints `manna-notify: MESSAGE` on stderr.
    public enum HelperStatus: Int32, Sendable {
        case shown = 0
        case noBus = 10
        case noServer = 11
        case timedOut = 12
        case failed = 13
        /// Sent, not confirmed in time: a slow server may still show it.
        case unconfirmed = 14
        /// Bad arguments or a bad request: a bug in the caller.
        case usage = 64
    }

    /// The status `manna-notify` exits with for this error.
    public var helperStatus: HelperStatus {
        switch self {
        case .noBus: return .noBus
        case .noServer: return .noServer
        case .timedOut: return .timedOut
        case .unconfirmed: return .unconfirmed
        case .helperMissing, .failed: return .failed
        }
    }

    /// The error a helper that exited with `status` and wrote `stderr` reported: the inverse
    /// of printing `message` and exiting with `helperStatus`.
    public init(helperStatus status: Int32, stderr: String) {
        var line = stderr.split(separator: "\n").last.map(String.init) ?? ""
        if line.hasPrefix(NotifyError.helperPrefix) { line.removeFirst(NotifyError.helperPrefix.count) }
        func detail(_ prefix: String, _ suffix: String = "") -> String {
            guard line.hasPrefix(prefix), line.hasSuffix(suffix), line.count >= prefix.count + suffix.count else { return line }
            return String(line.dropFirst(prefix.count).dropLast(suffix.count))
        }
        // The wait a timeout message names ("... within 1.5 s"), in milliseconds.
        func milliseconds(in line: String) -> Int {
            let words = line.split(separator: " ")
            guard let within = words.firstIndex(of: "within"), within + 1 < words.count, let seconds = Double(words[within + 1]) else {
                return NotifyError.probeTimeoutMilliseconds
            }
            return Int((seconds * 1000).rounded())
        }
        guard !line.isEmpty else {
            self = .failed("manna-notify exited with status \(status)")
            return
        }
        switch HelperStatus(rawValue: status) {
        case .noBus: self = .noBus(detail(NotifyError.noBusPrefix))
        case .noServer: self = .noServer(detail(NotifyError.noServerPrefix, ")"))
        case .timedOut: self = .timedOut(milliseconds: milliseconds(in: line))
        case .unconfirmed: self = .unconfirmed(milliseconds: milliseconds(in: line))
        case .failed: self = .failed(detail(NotifyError.failedPrefix))
        case .shown, .usage, nil:
            self = .failed("manna-notify exited with status \(status): " + line)
        }
    }

    /// What the helper puts before each message it prints.
    public static let helperPrefix = "manna-notify: "
}
