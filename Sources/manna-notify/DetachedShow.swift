// Every notification is shown by a detached process that outlives the helper: it keeps the
// notification when `manna` can record it as shown, takes it back when `manna` died first (a
// later tick will show it again), and, with actions, stays to hear the click and run the
// clicked action's command (exec, no shell). See docs/ARCHITECTURE.md, "Notifications".
import CLibnotify
#if canImport(Glibc)
import Glibc
#endif
import MannaKit

enum DetachedShow {
    /// The longest a click is waited for; then the notification is closed, so no button is
    /// left on screen that nothing would answer.
    static let waitSeconds: UInt32 = 8 * 3600

    // The handshake on a socket pair between the helper and the detached process:
    //   shower → helper: "s" just before the notification is sent, then one report line,
    //                    "STATUS MESSAGE\n" (0 and no message when the server took it);
    //   helper → shower: "k" (keep it: `manna` hears it was shown, or was told the server may
    //                    show it) or "x" (do not send it / take it back: `manna` was told
    //                    nothing was shown). The helper dying says "x" too: it dies with `manna`.
    private static let sending: UInt8 = UInt8(ascii: "s")
    private static let keep: UInt8 = UInt8(ascii: "k")
    private static let takeBack: UInt8 = UInt8(ascii: "x")

    /// Shows `notification` from a detached grandchild and returns the status it reports, as
    /// the helper's exit status (0 shown, or a failure with one line on stderr), within
    /// `NotifyError.confirmMilliseconds` of `started`. A server that has been sent the
    /// notification and has not confirmed it by then may be slow rather than gone: the
    /// grandchild is told to keep it when it comes, and `manna` hears "unconfirmed" and does not
    /// send it again. One that has not been sent it yet is told not to send it.
    ///
    /// The grandchild is made before GLib starts a thread (a forked GLib process cannot use
    /// D-Bus), in a new session (no terminal's hang-up or process-group signal reaches it),
    /// with /dev/null for stdio (so `manna`, and cron, which read this process's output until
    /// it closes, are not held), no other inherited descriptor, and `/` as its folder (so it
    /// holds no mount busy).
    static func show(_ notification: DesktopNotification, started: Int) -> Int32 {
        var channel: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0, &channel) == 0 else {
            return NotifyHelper.fail(.failed("cannot make a socket pair: " + String(cString: strerror(errno))))
        }
        let child = fork()
        if child < 0 { return NotifyHelper.fail(.failed("cannot fork: " + String(cString: strerror(errno)))) }
        if child == 0 {
            close(channel[0])
            _ = setsid()
            // The session leader exits at once: its child, the shower, can never take a terminal.
            if fork() != 0 { _exit(0) }
            shower(notification, channel: channel[1])
        }
        close(channel[1])
        defer { close(channel[0]) }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}

        var sent = false
        var report: [UInt8] = []
        while !report.contains(UInt8(ascii: "\n")) {
            switch read(channel[0], within: NotifyError.confirmMilliseconds - (Clock.monotonicMilliseconds() - started)) {
            case .bytes(let bytes):
                for byte in bytes {
                    if report.isEmpty && byte == sending { sent = true } else { report.append(byte) }
                }
            case .closed:
                return NotifyHelper.fail(.failed("the notification process stopped before it said whether it was shown"))
            case .timedOut:
                _ = send(channel[0], [sent ? keep : takeBack])
                let error: NotifyError = sent ? .unconfirmed(milliseconds: NotifyError.confirmMilliseconds)
                    : .timedOut(milliseconds: NotifyError.confirmMilliseconds)
                return NotifyHelper.fail(error)
            }
        }
        let line = String(decoding: report.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        guard let space = line.firstIndex(of: " "), let reported = Int32(line[..<space]) else {
            return NotifyHelper.fail(.failed("the notification process said something unexpected: \(line)"))
        }
        guard reported == NotifyError.HelperStatus.shown.rawValue else {
            // Its report, the error's JSON line, passed on as it came.
            NotifyHelper.write(line[line.index(after: space)...] + "\n", to: 2)
            return reported
        }
        // Keep it. (If this helper is dying with `manna` instead, the closed socket tells the
        // shower to take it back.)
        _ = send(channel[0], [keep])
        return reported
    }

    /// The detached grandchild: shows, reports, keeps or takes back, and, with actions on
    /// screen, waits for a click.
    private static func shower(_ notification: DesktopNotification, channel: Int32) -> Never {
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
            if let descriptor = Int32(name), descriptor > 2, descriptor != channel { close(descriptor) }
        }
        let shown: UnsafeMutablePointer<NotifyNotification>
        let hasActions: Bool
        do {
            // Last chance not to send: the helper gave up (and told `manna` nothing was shown) or died.
            let mayStillSend = {
                if case .timedOut = read(channel, within: 0) { return send(channel, [sending]) }
                return false
            }
            guard let kept = try NotificationServerConnection().show(notification, keeping: true, ifStill: mayStillSend) else { _exit(0) }
            (shown, hasActions) = kept
        } catch {
            _ = send(channel, Array("\(error.helperStatus.rawValue) \(error.json.text)\n".utf8))
            _exit(error.helperStatus.rawValue)
        }
        // The helper may have gone already, having said "keep" at its deadline: the answer
        // is read even when the report cannot be sent.
        _ = send(channel, Array("\(NotifyError.HelperStatus.shown.rawValue) \n".utf8))
        // Keep it only when told to. Otherwise `manna` was told nothing was shown, or died with
        // the helper (a later tick will show it again): take it back rather than leave a second
        // one on screen. The helper answers within its deadline, or dies.
        guard case .bytes(let answer) = read(channel, within: 10_000), answer.first == keep else {
            notify_notification_close(shown, nil)
            _exit(0)
        }
        close(channel)
        guard hasActions else { _exit(0) }
        DetachedShow.commands = notification.actions.map { ($0.key, $0.command) }
        DetachedShow.loop = g_main_loop_new(nil, 0)
        g_signal_connect_data(shown, "closed", unsafeBitCast(onClosed, to: GCallback.self), nil, nil, GConnectFlags(rawValue: 0))
        g_timeout_add_seconds(waitSeconds, onTimeout, shown)
        g_main_loop_run(DetachedShow.loop)
        _exit(0)
    }

    private enum ReadResult {
        case bytes([UInt8])
        case closed
        case timedOut
    }

    /// What `descriptor` has to read within `milliseconds` (at once when 0 or less).
    private static func read(_ descriptor: Int32, within milliseconds: Int) -> ReadResult {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&poller, 1, Int32(max(milliseconds, 0)))
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 { return .timedOut }
            break
        }
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            return count <= 0 ? .closed : .bytes(Array(chunk[..<count]))
        }
    }

    private static func send(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool { Files.send(bytes, toSocket: descriptor) }

    // One notification per waiter, so its state can be global; GLib calls back on this thread.
    nonisolated(unsafe) private static var commands: [(key: String, command: [String])] = []
    nonisolated(unsafe) private static var loop: OpaquePointer?

    /// A click: become the action's command (exec, no shell, the environment `manna` gave).
    static let onAction: NotifyActionCallback = { _, key, _ in
        guard let key, let command = DetachedShow.commands.first(where: { $0.key == String(cString: key) })?.command else { return }
        let argv = command.map { strdup($0) } + [nil]
        execv(command[0], argv)
        _exit(127)
    }

    /// Closed without a click (dismissed, expired): nothing more to wait for.
    private static let onClosed: @convention(c) (gpointer?, gpointer?) -> Void = { _, _ in
        g_main_loop_quit(DetachedShow.loop)
    }

    /// The wait is over: close the notification, so its buttons do not outlive the waiter.
    private static let onTimeout: GSourceFunc = { shown in
        notify_notification_close(shown?.assumingMemoryBound(to: NotifyNotification.self), nil)
        g_main_loop_quit(DetachedShow.loop)
        return 0
    }
}
