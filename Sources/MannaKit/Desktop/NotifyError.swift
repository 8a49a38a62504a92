// Why a notification was not shown, and how `manna-notify` reports it to `manna`: an exit
// status for the kind, and one JSON line on stderr (`json`) that `manna` reads back as the
// same error: no message is parsed.

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

    /// What the ticks do after a notification could not be shown, as docs/ARCHITECTURE.md, "The
    /// journal and the ledger", says: one sent and not confirmed (`mayHaveBeenShown`) is recorded
    /// shown and never sent again; one known not shown has its claim given back, and each later
    /// tick shows it once it reaches a server, for as long as it is due.
    public static func whatHappensAfter(mayHaveBeenShown: Bool) -> String {
        mayHaveBeenShown
            ? tr("it is not sent again (the server may yet have shown it), and this clears once one is shown")
            : tr("each tick tries again what is still due (the verse and a plan's reading until their day ends, a prayer reminder for a day, then named among the missed), and this clears once one is shown")
    }

    private static let unconfirmedNote = " (it may still show the notification)"
    private static let noBusPrefix = "no D-Bus session bus: "
    private static let noServerPrefix = "no notification server on the session bus ("
    private static let failedPrefix = "notification not shown: "
}

// MARK: The helper's exit status

extension NotifyError {
    /// `manna-notify`'s exit statuses; each failure also prints its report (`json`) on stderr.
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

    /// The error a helper that exited with `status` reported in its last line of stderr (its
    /// `json`): one typed line, read back as it was written; a status the helper does not fail
    /// with, or a line that is no report (a crash), is a failure naming both.
    public init(helperStatus status: Int32, stderr: String) {
        let line = stderr.split(separator: "\n").last.map(String.init) ?? ""
        let reported = (try? JSON(parsing: line)).flatMap(NotifyError.init(json:))
        switch HelperStatus(rawValue: status) {
        case .noBus, .noServer, .timedOut, .unconfirmed, .failed:
            if let reported, reported.helperStatus.rawValue == status {
                self = reported
                return
            }
        case .shown, .usage, nil: break
        }
        let detail = reported?.message ?? line
        self = .failed("manna-notify exited with status \(status)" + (detail.isEmpty ? "" : ": " + detail))
    }

    /// The helper's report, one JSON line: the kind, what it carries, and the message for a reader.
    public var json: JSON {
        var pairs: [(String, JSON)]
        switch self {
        case .noBus(let reason): pairs = [("error", .string("no-bus")), ("reason", .string(reason))]
        case .noServer(let reason): pairs = [("error", .string("no-server")), ("reason", .string(reason))]
        case .timedOut(let milliseconds): pairs = [("error", .string("timed-out")), ("milliseconds", .int(milliseconds))]
        case .unconfirmed(let milliseconds): pairs = [("error", .string("unconfirmed")), ("milliseconds", .int(milliseconds))]
        case .helperMissing(let paths): pairs = [("error", .string("helper-missing")), ("paths", .array(paths.map(JSON.string)))]
        case .failed(let reason): pairs = [("error", .string("failed")), ("reason", .string(reason))]
        }
        return .object(pairs + [("message", .string(message))])
    }

    /// The error a report (`json`) names, or nil when it is none.
    public init?(json: JSON) {
        let reason = json["reason"]?.stringValue
        let milliseconds = json["milliseconds"]?.intValue
        switch json["error"]?.stringValue {
        case "no-bus": guard let reason else { return nil }; self = .noBus(reason)
        case "no-server": guard let reason else { return nil }; self = .noServer(reason)
        case "timed-out": guard let milliseconds else { return nil }; self = .timedOut(milliseconds: milliseconds)
        case "unconfirmed": guard let milliseconds else { return nil }; self = .unconfirmed(milliseconds: milliseconds)
        case "helper-missing":
            guard let paths = json["paths"]?.arrayValue?.compactMap(\.stringValue) else { return nil }
            self = .helperMissing(paths)
        case "failed": guard let reason else { return nil }; self = .failed(reason)
        default: return nil
        }
    }
}
