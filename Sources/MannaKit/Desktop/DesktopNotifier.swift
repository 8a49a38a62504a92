// Shows notifications through the `manna-notify` helper, the only program that talks D-Bus
// (docs/ARCHITECTURE.md, "Notifications"): `manna` stays a static, GLib-free executable, and a
// server that never answers costs at most `timeoutMilliseconds`, after which the helper is killed.

/// Sends notifications to the desktop's notification server by running `manna-notify`.
public struct DesktopNotifier: Sendable {
    /// The running `manna` (resolved): the helper is found beside it.
    public let executablePath: String
    public let environment: Environment
    public let userID: UInt32
    /// The most a notification may take, the helper's start-up included.
    public let timeoutMilliseconds: Int

    /// - Parameters:
    ///   - executablePath: the running `manna` (resolved, not a symbolic link); the helper is
    ///     its sibling, or `<bindir>/../libexec/manna/manna-notify` in an installed layout.
    ///   - environment: the environment the helper runs with, bus address filled in.
    ///   - userID: the real user id, for the default bus socket `/run/user/UID/bus`.
    public init(executablePath: String, environment: Environment, userID: UInt32, timeoutMilliseconds: Int = 3000) {
        self.executablePath = executablePath
        self.environment = environment
        self.userID = userID
        self.timeoutMilliseconds = timeoutMilliseconds
    }

    /// Shows `notification`, or says why it could not be shown, within `timeoutMilliseconds`.
    ///
    /// A notification with actions leaves a helper behind to hear the click. Under a systemd
    /// service (`INVOCATION_ID` is set), that helper would die with the service: systemd stops a
    /// oneshot service's every process once its main one exits. So the helper is started through
    /// `systemd-run --user --scope`, which moves it into a scope unit of its own first; if
    /// systemd-run cannot do that, the helper runs as usual (shown, but a click may go unheard).
    public func show(_ notification: DesktopNotification) throws(NotifyError) {
        let input = notification.request.text + "\n"
        if !notification.actions.isEmpty, let scope = scopeCommand() {
            let helper = try helperPath()
            switch try runHelper(scope.program, arguments: scope.arguments + [helper], input: input) {
            // systemd-run's own failures (no user manager, no bus) exit 1, which the helper never does.
            case .exited(status: 1, _, _): break
            case let outcome: _ = try result(of: outcome, sending: true)
                return
            }
        }
        _ = try runHelper(arguments: [], input: input, sending: true)
    }

    /// `systemd-run` and its arguments to put the helper in a scope of its own, when Manna runs
    /// as a systemd service and systemd-run is on `PATH`; else nil.
    public func scopeCommand() -> (program: String, arguments: [String])? {
        guard environment.nonEmpty("INVOCATION_ID") != nil, let program = Subprocess.find("systemd-run", environment: environment) else {
            return nil
        }
        return (program, ["--user", "--scope", "--quiet", "--collect",
                          "--description=Manna: waiting for a click on a prayer reminder", "--"])
    }

    /// Asks the notification server who it is and what it can do (`manna doctor`).
    public func probe() throws(NotifyError) -> NotificationServer {
        let output = try runHelper(arguments: ["--probe"], input: "", sending: false)
        guard let json = try? JSON(parsing: output.trimmingSpaces), let name = json["name"]?.stringValue,
              let vendor = json["vendor"]?.stringValue, let version = json["version"]?.stringValue,
              let specVersion = json["spec_version"]?.stringValue,
              let capabilities = json["capabilities"]?.arrayValue?.compactMap(\.stringValue) else {
            throw .failed("manna-notify --probe printed something unexpected: \(output.singleLine)")
        }
        return NotificationServer(name: name, vendor: vendor, version: version, specVersion: specVersion, capabilities: capabilities)
    }

    /// Runs the helper on the session bus and returns what it printed; its failures become errors.
    private func runHelper(arguments: [String], input: String, sending: Bool) throws(NotifyError) -> String {
        let outcome = try runHelper(try helperPath(), arguments: arguments, input: input)
        return try result(of: outcome, sending: sending)
    }

    /// Runs `program` (the helper, or systemd-run starting it) with the session bus address set.
    private func runHelper(_ program: String, arguments: [String], input: String) throws(NotifyError) -> Subprocess.Outcome {
        var childEnvironment = environment
        childEnvironment["DBUS_SESSION_BUS_ADDRESS"] = try SessionBus.address(environment: environment, userID: userID)
        do {
            return try Subprocess.run(program, arguments: arguments, environment: childEnvironment,
                                      input: input, timeoutMilliseconds: timeoutMilliseconds)
        } catch {
            throw .failed(error.message)
        }
    }

    /// What the helper printed, or its failure as an error.
    ///
    /// - Parameter sending: the helper was showing a notification. It ends its own wait for a
    ///   slow server before this deadline (`NotifyError.confirmMilliseconds`); killed at the
    ///   deadline all the same, it may have handed the notification over already:
    ///   `.unconfirmed`, which the scheduler does not send again.
    private func result(of outcome: Subprocess.Outcome, sending: Bool) throws(NotifyError) -> String {
        switch outcome {
        case .exited(status: NotifyError.HelperStatus.shown.rawValue, let stdout, _): return stdout
        case .exited(let status, _, let stderr): throw NotifyError(helperStatus: status, stderr: stderr)
        case .killedBySignal(let signal, let stderr):
            let detail = stderr.split(separator: "\n").last.map { ": " + $0 } ?? ""
            throw .failed("manna-notify was killed by signal \(signal)" + detail)
        case .timedOut: throw sending ? .unconfirmed(milliseconds: timeoutMilliseconds) : .timedOut(milliseconds: timeoutMilliseconds)
        }
    }

    /// Where the helper is looked for, in order. Worked out when a notification is shown, not
    /// when the notifier is made: every command makes one, and most never notify.
    public var helperCandidates: [String] { HelperProgram.notify.candidates(besideProgram: executablePath) }

    /// The installed helper: the first candidate that is an executable file.
    public func helperPath() throws(NotifyError) -> String {
        guard let path = helperCandidates.first(where: Files.isExecutable) else { throw .helperMissing(helperCandidates) }
        return path
    }
}
