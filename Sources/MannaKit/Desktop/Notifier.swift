// What shows notifications, as the application layer sees it: the desktop (`DesktopNotifier`,
// through `manna-notify`) in the running program, a recording one in tests.

/// Shows desktop notifications.
public protocol Notifier {
    /// Shows `notification`, or says why it could not be shown.
    func show(_ notification: DesktopNotification) throws(NotifyError)
    /// Who the notification server is and what it can do (`manna doctor`).
    func probe() throws(NotifyError) -> NotificationServer
}

extension DesktopNotifier: Notifier {}
