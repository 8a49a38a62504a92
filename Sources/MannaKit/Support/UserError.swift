// The one kind of error a user sees: a line of plain words and a sysexits status. Every error
// a command can meet conforms here, once, next to its type; the command line's edge
// (`Manna.run`) prints the line and exits with the status, and nothing else maps errors.

/// Exit statuses, from sysexits.h.
public enum ExitStatus: Int32, Sendable, CaseIterable {
    case ok = 0
    /// A search found nothing, as grep says it.
    case noMatch = 1
    /// The command line was wrong: an unknown option, a missing argument, a bad `TZ`.
    case usage = 64
    /// The input was wrong: a reference that does not exist, a damaged file to import.
    case dataError = 65
    /// Something outside Manna is missing: the notification server, the text database.
    case unavailable = 69
    /// A bug: an error no code path expected (never a user's fault).
    case software = 70
    /// The environment is wrong: no `HOME` to keep the user's files under.
    case configuration = 78
    /// A file could not be read or written: a full disk, a damaged journal.
    case ioError = 74
    /// Stopped by Ctrl-C (SIGINT) or another signal, after putting things in order: 128 + 2,
    /// as a shell reports a program that SIGINT ended.
    case interrupted = 130

    /// What the status tells a script, as the man page's table says it.
    public var meaning: String {
        switch self {
        case .ok: "Done."
        case .noMatch: "A search found nothing (as grep)."
        case .usage: "The command line was wrong: an unknown command or option, a missing or extra argument."
        case .dataError: "The input was wrong or not found: a passage that does not exist, a prayer, note, plan or key not found, a damaged file to import."
        case .unavailable: "Something outside Manna is missing: the notification server, the sound server, the text database."
        case .software: "A bug in Manna (please report it)."
        case .configuration: "The environment is wrong: no HOME, a relative XDG directory."
        case .ioError: "A file could not be read or written: a full disk, a read-only folder, a damaged journal."
        case .interrupted: "Stopped by Ctrl-C or another signal, after putting things in order."
        }
    }
}

/// An error as the user sees it: one line on stderr (after "manna: ") and an exit status.
public protocol UserError: Error {
    /// What was wrong and what to do, in one line.
    var message: String { get }
    var exitStatus: ExitStatus { get }
}

/// A failure named where it happens, when no domain error fits: "tick takes no arguments".
public struct Failure: UserError, Equatable, Sendable {
    public let message: String
    public let exitStatus: ExitStatus

    private init(_ message: String, _ exitStatus: ExitStatus) {
        self.message = message
        self.exitStatus = exitStatus
    }

    /// A malformed command line (64).
    public static func usage(_ message: String) -> Failure { Failure(message, .usage) }
    /// A command's subcommand missing or mistyped: "'stauts' is not a sync subcommand; did you
    /// mean 'status'?", else `usage`, which names them all (64).
    public static func subcommand(_ word: String?, of command: String, choices: [String], usage: String) -> Failure {
        guard let word, let closest = Suggestion.closest(to: word, in: choices), closest != word else { return .usage(usage) }
        return .usage("'\(word)' is not a \(command) subcommand; did you mean '\(closest)'?")
    }
    /// Bad data: a name, a file or a value that is not what it must be (65).
    public static func data(_ message: String) -> Failure { Failure(message, .dataError) }
    /// A search that found nothing (1, as grep): said, and not an error in the command.
    public static func noMatch(_ message: String) -> Failure { Failure(message, .noMatch) }
    /// A service or file Manna needs is not there (69).
    public static func unavailable(_ message: String) -> Failure { Failure(message, .unavailable) }
    /// Reading or writing failed (74).
    public static func io(_ message: String) -> Failure { Failure(message, .ioError) }
    /// Stopped by a signal, things put in order first (130).
    public static func interrupted(_ message: String) -> Failure { Failure(message, .interrupted) }
    /// The environment Manna runs in is wrong (78).
    public static func configuration(_ message: String) -> Failure { Failure(message, .configuration) }
}

// MARK: Each domain's errors, with the status they mean

extension JournalError: UserError {
    /// A journal that cannot be opened, read or written is an I/O failure.
    public var exitStatus: ExitStatus { .ioError }
}

extension ReferenceError: UserError {
    public var exitStatus: ExitStatus { .dataError }
}

extension SearchError: UserError {
    /// An empty query is a malformed command line; a query FTS5 cannot take is bad data.
    public var exitStatus: ExitStatus { self == .empty ? .usage : .dataError }
}

extension NotifyError: UserError {
    /// Every reason a notification was not shown is the desktop's state, not the user's input.
    public var exitStatus: ExitStatus { .unavailable }
}

extension ZoneError: UserError {
    /// A bad `TZ` is a bad setting, like a bad `MANNA_TRANSLATION`.
    public var exitStatus: ExitStatus { .usage }
}

extension TextDatabaseError: UserError {
    public var exitStatus: ExitStatus {
        switch self {
        case .notFound, .noSearchIndex: .unavailable
        case .unknownTranslation: .usage
        case .badSource: .dataError
        case .damaged, .wrongVersion, .unreadable: .ioError
        case .searchFailed: .software
        }
    }
}

extension ConfigError: UserError {
    /// A config file Manna cannot use stops the command with its file and line.
    public var exitStatus: ExitStatus { .dataError }
}

extension PlanError: UserError {
    public var exitStatus: ExitStatus { .dataError }
}

extension PlanProgressError: UserError {
    public var exitStatus: ExitStatus {
        switch self {
        // The command line left out which of the running plans.
        case .whichPlan: .usage
        // Not found (nothing running to act on, no such plan or day), the same status as a
        // prayer, note or bookmark not found; a plan started twice is refused alike.
        case .noRunningPlan, .notRunning, .noSuchDay, .unknownPlan, .alreadyRunning: .dataError
        }
    }
}

extension PrayerError: UserError {
    public var exitStatus: ExitStatus { .dataError }
}

extension MarkError: UserError {
    public var exitStatus: ExitStatus {
        switch self {
        case .notFound, .textTooLong, .occupied: .dataError
        case .emptyText: .usage
        case .journal(let error): error.exitStatus
        }
    }
}

extension ImportError: UserError {
    public var exitStatus: ExitStatus {
        switch self {
        case .invalid: .dataError
        case .unreadable: .ioError
        case .journal(let error): error.exitStatus
        }
    }
}

extension InstallError: UserError {
    public var exitStatus: ExitStatus {
        switch self {
        case .badPrefix, .badDestination, .noHome: .usage
        case .cannotInstall, .cannotRemove: .ioError
        case .cronMissing, .commandFailed: .unavailable
        }
    }
}

extension FileError: UserError {
    public var exitStatus: ExitStatus { .ioError }
}
