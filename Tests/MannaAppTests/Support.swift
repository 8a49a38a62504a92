// What the in-process tests share: a notifier that records,
// and a user's home in which commands run as `manna` would run them, with a fixed clock and
// captured output.
import Foundation
import MannaKit
import TestSupport
import Testing

@testable import MannaApp

/// A notifier that keeps what it shows, and can be told to fail as a desktop without a
/// notification server does. Shared by the ticks of one test, which may run at once.
final class RecordingNotifier: Notifier, @unchecked Sendable {
    private let lock = NSLock()
    private var notifications: [DesktopNotification] = []
    private var failure: NotifyError?
    private var attempts = 0
    /// Called at each attempt to show, before it succeeds or fails: a test's clock moves on.
    var onShow: (@Sendable () -> Void)?

    /// How many times `show` was called, shown or not.
    var calls: Int { lock.withLock { attempts } }

    /// Every notification shown, in order.
    var shown: [DesktopNotification] { lock.withLock { notifications } }

    /// "summary | body" of each notification shown, as the recording server tests read them.
    var lines: [String] { shown.map { $0.summary + " | " + $0.body } }

    /// From now on every `show` fails with `error` (nil: shows again).
    func fail(with error: NotifyError?) { lock.withLock { failure = error } }

    func show(_ notification: DesktopNotification) throws(NotifyError) {
        onShow?()
        lock.lock()
        defer { lock.unlock() }
        attempts += 1
        if let failure { throw failure }
        notifications.append(notification)
    }

    func probe() throws(NotifyError) -> NotificationServer {
        NotificationServer(name: "recording", vendor: "Manna tests", version: "1", specVersion: "1.2", capabilities: ["body", "actions"])
    }
}

/// Lines that threads add to, read when they are done.
final class SharedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func add(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}

/// One finished command.
struct Outcome {
    let status: Int32
    let stdout: String
    let stderr: String
}

/// A user's home in a temporary directory (HOME and the XDG folders under it), with the zone
/// the commands run in and one recording notifier. Removed when the test lets go of it.
final class TestHome: @unchecked Sendable {
    let folder: HomeFolder
    var url: URL { folder.url }
    var zone: String
    let notifier = RecordingNotifier()
    /// The instant commands without `--now` act at.
    var clock = Clock.fixed(Moment.parse("2026-12-01T12:00:00Z", zone: .utc)!)
    /// The `manna` a notification's buttons would run.
    static let manna = "/opt/manna/bin/manna"

    init(zone: String = "UTC", config: String? = nil) throws {
        folder = try HomeFolder("app", config: config)
        self.zone = zone
    }

    var paths: Paths { Paths(environment: environment) }
    /// More environment variables for the commands (MANNA_TRANSLATION; MANNA_TEXT_DB, else the built texts).
    var variables: [String: String] = [:]
    /// Whether the commands' stdout is a terminal (colour, notes after results).
    var onTerminal = false

    var environment: Environment {
        var environment: Environment = [:]
        for (name, value) in variables { environment[name] = value }
        environment["HOME"] = url.path
        environment["TZ"] = zone
        environment["MANNA_TEXT_DB"] = variables["MANNA_TEXT_DB"] ?? BuiltTexts.path
        return environment
    }

    /// Runs one command line in-process, as a fresh `manna` would: a new context each time.
    @discardableResult
    func run(_ arguments: String...) -> Outcome { run(arguments) }

    @discardableResult
    func run(_ arguments: [String]) -> Outcome {
        let stdout = Output.captured()
        let stderr = Output.captured()
        let status = Manna.run(arguments: arguments, context: context(stdout: stdout, stderr: stderr))
        return Outcome(status: status, stdout: stdout.text, stderr: stderr.text)
    }

    /// A fresh context in this home, as a `manna` (or a `manna-reader`) starting now builds one.
    func context(stdout: Output = .captured(), stderr: Output = .captured()) -> Context {
        Context(environment: environment, clock: clock, stdout: stdout, stderr: stderr, notifier: notifier,
                executablePath: TestHome.manna, userID: 1000, stdoutIsTerminal: onTerminal)
    }

    /// `manna tick --now NOW`, which must succeed.
    func tick(_ now: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let outcome = run("tick", "--now", now)
        #expect(outcome.status == 0, "tick at \(now): \(outcome.stderr)", sourceLocation: sourceLocation)
    }

    /// Adds a prayer with `reminders` at `now` and returns its short id.
    func addPrayer(_ title: String, body: String = "", reminders: [String], now: String) throws -> String {
        var arguments = ["pray", "add", title, "--now", now]
        if !body.isEmpty { arguments += ["--body", body] }
        for reminder in reminders { arguments += ["--remind", reminder] }
        let outcome = run(arguments)
        try #require(outcome.status == 0, "\(outcome.stderr)")
        // "added k7m2: TITLE ..."
        return String(try #require(outcome.stdout.split(separator: " ").dropFirst().first).dropLast())
    }

    /// The journal, opened as the commands open it.
    func journal() throws -> Journal { try Journal(path: paths.journal) }
}

/// An instant from an ISO 8601 text with an offset, or in `zone`.
func instant(_ text: String, zone: Zone = .utc) -> Instant { Moment.parse(text, zone: zone)! }
