// A notification with actions: shown by a detached process that stays to hear the click after
// `manna tick` has ended, and then runs the clicked action's command (exec, no shell).
// See docs/ARCHITECTURE.md, "Actions: a click after the tick has ended".
import CLibnotify
#if canImport(Glibc)
import Glibc
#endif
import MannaKit

enum ActionWaiter {
    /// The longest a click is waited for; then the notification is closed, so no button is
    /// left on screen that nothing would answer.
    static let waitSeconds: UInt32 = 8 * 3600

    /// Shows `notification` from a detached grandchild and returns the status it reports:
    /// `manna` sees the usual helper protocol (0 when shown, else a status and one line on
    /// stderr) while the grandchild stays behind, when the server shows actions, for a click.
    ///
    /// The grandchild is made before GLib starts a thread (a forked GLib process cannot use
    /// D-Bus), in a new session (no terminal's hang-up or process-group signal reaches it),
    /// with /dev/null for stdio (so `manna`, and cron, which read this process's output until
    /// it closes, are not held), no other inherited descriptor, and `/` as its folder (so it
    /// holds no mount busy).
    static func showDetached(_ notification: DesktopNotification) -> Int32 {
        var report: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0, &report) == 0 else {
            return NotifyHelper.fail("cannot make a socket pair: " + String(cString: strerror(errno)), status: .failed)
        }
        let child = fork()
        if child < 0 { return NotifyHelper.fail("cannot fork: " + String(cString: strerror(errno)), status: .failed) }
        if child == 0 {
            close(report[0])
            _ = setsid()
            // The session leader exits at once: its child, the waiter, can never take a terminal.
            if fork() != 0 { _exit(0) }
            waiter(notification, report: report[1])
        }
        close(report[1])
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(report[0], $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            bytes.append(contentsOf: chunk[..<count])
        }
        close(report[0])
        // The report: the status, a space, the message.
        let text = String(decoding: bytes, as: UTF8.self)
        guard let space = text.firstIndex(of: " "), let reported = Int32(text[..<space]) else {
            return NotifyHelper.fail("the notification process stopped before it said whether it was shown", status: .failed)
        }
        let message = String(text[text.index(after: space)...])
        if reported != NotifyError.HelperStatus.shown.rawValue { NotifyHelper.write(NotifyError.helperPrefix + message + "\n", to: 2) }
        return reported
    }

    /// The detached grandchild: shows, reports, and, with actions on screen, waits.
    private static func waiter(_ notification: DesktopNotification, report: Int32) -> Never {
        _ = chdir("/")
        let null = open("/dev/null", O_RDWR)
        if null >= 0 {
            for descriptor in Int32(0)...2 { _ = dup2(null, descriptor) }
            if null > 2 { close(null) }
        }
        // Whatever else was inherited goes too: a program that started `manna` may wait for a
        // descriptor it handed down to be closed everywhere (Foundation's Process does, to learn
        // that its child exited), and that must not take hours.
        for name in Files.list("/proc/self/fd") {
            if let descriptor = Int32(name), descriptor > 2, descriptor != report { close(descriptor) }
        }
        let shown: UnsafeMutablePointer<NotifyNotification>
        let hasActions: Bool
        do {
            guard let kept = try NotificationServerConnection().show(notification, keeping: true) else { _exit(0) }
            (shown, hasActions) = kept
        } catch {
            _ = send(report, "\(error.helperStatus.rawValue) \(error.message)")
            _exit(error.helperStatus.rawValue)
        }
        let heard = send(report, "\(NotifyError.HelperStatus.shown.rawValue) ")
        close(report)
        // `manna` gave up on this helper meanwhile, or died with it (a later tick will show it
        // again): take the notification back rather than leave a second one on screen.
        guard heard else {
            notify_notification_close(shown, nil)
            _exit(0)
        }
        guard hasActions else { _exit(0) }
        ActionWaiter.commands = notification.actions.map { ($0.key, $0.command) }
        ActionWaiter.loop = g_main_loop_new(nil, 0)
        g_signal_connect_data(shown, "closed", unsafeBitCast(onClosed, to: GCallback.self), nil, nil, GConnectFlags(rawValue: 0))
        g_timeout_add_seconds(waitSeconds, onTimeout, shown)
        g_main_loop_run(ActionWaiter.loop)
        _exit(0)
    }

    /// Sends all of `text` (MSG_NOSIGNAL: a reader that has gone is an answer, not a SIGPIPE).
    private static func send(_ descriptor: Int32, _ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 && errno == EINTR { continue }
            if sent <= 0 { return false }
            bytes = bytes.dropFirst(sent)
        }
        return true
    }

    // One notification per waiter, so its state can be global; GLib calls back on this thread.
    nonisolated(unsafe) private static var commands: [(key: String, command: [String])] = []
    nonisolated(unsafe) private static var loop: OpaquePointer?

    /// A click: become the action's command (exec, no shell, the environment `manna` gave).
    static let onAction: NotifyActionCallback = { _, key, _ in
        guard let key, let command = ActionWaiter.commands.first(where: { $0.key == String(cString: key) })?.command else { return }
        let argv = command.map { strdup($0) } + [nil]
        execv(command[0], argv)
        _exit(127)
    }

    /// Closed without a click (dismissed, expired): nothing more to wait for.
    private static let onClosed: @convention(c) (gpointer?, gpointer?) -> Void = { _, _ in
        g_main_loop_quit(ActionWaiter.loop)
    }

    /// The wait is over: close the notification, so its buttons do not outlive the waiter.
    private static let onTimeout: GSourceFunc = { shown in
        notify_notification_close(shown?.assumingMemoryBound(to: NotifyNotification.self), nil)
        g_main_loop_quit(ActionWaiter.loop)
        return 0
    }
}
