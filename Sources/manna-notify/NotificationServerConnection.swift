// The D-Bus side: the session bus, the server's answers (with short timeouts, so a hung server
// is found out before libnotify would wait 25 s for it), and libnotify to show the notification.
import CLibnotify
#if canImport(Glibc)
import Glibc
#endif
import MannaKit

/// The session bus connection, on which `org.freedesktop.Notifications` is called.
struct NotificationServerConnection {
    private static let busName = "org.freedesktop.Notifications"
    private static let objectPath = "/org/freedesktop/Notifications"

    /// GLib's shared session bus connection (`GDBusConnection`), which libnotify uses too.
    private let connection: OpaquePointer

    /// Connects to the bus in `DBUS_SESSION_BUS_ADDRESS`. Without one it fails rather than let
    /// GLib autolaunch a private bus that no notification server listens on: `manna` has
    /// already looked for the user's bus socket.
    init() throws(NotifyError) {
        guard let address = getenv("DBUS_SESSION_BUS_ADDRESS"), address.pointee != 0 else {
            throw .noBus("DBUS_SESSION_BUS_ADDRESS is not set")
        }
        var error: UnsafeMutablePointer<GError>?
        guard let connection = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            throw .noBus(NotificationServerConnection.message(taking: error))
        }
        self.connection = connection
    }

    /// The server's identity and capabilities; the first call also tells whether it is there
    /// and answering.
    func server() throws(NotifyError) -> NotificationServer {
        let information = try call("GetServerInformation", replyType: "(ssss)")
        defer { g_variant_unref(information) }
        let capabilities = try call("GetCapabilities", replyType: "(as)")
        defer { g_variant_unref(capabilities) }
        func string(_ index: Int) -> String {
            let child = g_variant_get_child_value(information, gsize(index))
            defer { g_variant_unref(child) }
            return String(cString: g_variant_get_string(child, nil))
        }
        let list = g_variant_get_child_value(capabilities, 0)
        defer { g_variant_unref(list) }
        var count: gsize = 0
        let strings = g_variant_get_strv(list, &count)
        defer { g_free(strings) }
        let names = (0..<Int(count)).compactMap { strings?[$0].map { String(cString: $0) } }
        return NotificationServer(name: string(0), vendor: string(1), version: string(2), specVersion: string(3),
                                  capabilities: names)
    }

    /// Shows `notification`: its body escaped if the server reads markup, and its actions when
    /// the server shows actions. `ifStill` is asked once the server has answered the probes,
    /// just before the notification is sent; false: nothing is sent and nil is returned. With
    /// `keeping`, returns the notification on screen (the caller may wait for a click, or take
    /// it back) and whether it has actions there; else nil.
    @discardableResult
    func show(_ notification: DesktopNotification, keeping: Bool = false, ifStill: () -> Bool = { true }) throws(NotifyError)
        -> (shown: UnsafeMutablePointer<NotifyNotification>, hasActions: Bool)? {
        let capabilities = try server().capabilities
        let readsMarkup = capabilities.contains("body-markup")
        let withActions = !notification.actions.isEmpty && capabilities.contains("actions")
        notify_init(notification.appName)
        let shown = notify_notification_new(
            DesktopNotification.summaryText(notification.summary),
            DesktopNotification.bodyText(notification.body, serverReadsMarkup: readsMarkup),
            notification.icon.isEmpty ? nil : notification.icon)
        notify_notification_set_category(shown, notification.category.rawValue)
        notify_notification_set_urgency(shown, NotifyUrgency(rawValue: UInt32(notification.urgency.rawValue)))
        notify_notification_set_timeout(shown, Int32(notification.expireTimeout ?? -1))
        notify_notification_set_hint_string(shown, "desktop-entry", notification.desktopEntry)
        if withActions {
            for action in notification.actions {
                notify_notification_add_action(shown, action.key, action.label, DetachedShow.onAction, nil, nil)
            }
        }
        guard ifStill() else {
            g_object_unref(shown)
            return nil
        }
        var error: UnsafeMutablePointer<GError>?
        guard notify_notification_show(shown, &error) != 0 else {
            g_object_unref(shown)
            throw NotificationServerConnection.notifyError(taking: error)
        }
        if keeping, let shown { return (shown, withActions) }
        g_object_unref(shown)
        return nil
    }

    /// Calls a method of the server that takes no arguments, waiting at most the probe timeout.
    private func call(_ method: String, replyType: String) throws(NotifyError) -> OpaquePointer {
        let type = g_variant_type_new(replyType)
        defer { g_variant_type_free(type) }
        var error: UnsafeMutablePointer<GError>?
        guard let reply = g_dbus_connection_call_sync(
            connection, NotificationServerConnection.busName, NotificationServerConnection.objectPath,
            NotificationServerConnection.busName, method, nil, type, G_DBUS_CALL_FLAGS_NONE,
            Int32(NotifyError.probeTimeoutMilliseconds), nil, &error) else {
            throw NotificationServerConnection.notifyError(taking: error)
        }
        return reply
    }

    /// What a failed call means to the user, from the GError's domain and code.
    private static func notifyError(taking error: UnsafeMutablePointer<GError>?) -> NotifyError {
        guard let error else { return .failed("no reason given") }
        let (domain, code) = (error.pointee.domain, UInt32(bitPattern: error.pointee.code))
        let text = message(taking: error)
        if domain == g_io_error_quark() && code == G_IO_ERROR_TIMED_OUT.rawValue {
            return .timedOut(milliseconds: NotifyError.probeTimeoutMilliseconds)
        }
        guard domain == g_dbus_error_quark() else { return .failed(text) }
        switch code {
        case G_DBUS_ERROR_SERVICE_UNKNOWN.rawValue, G_DBUS_ERROR_NAME_HAS_NO_OWNER.rawValue:
            return .noServer("\(busName) has no owner")
        case G_DBUS_ERROR_NO_REPLY.rawValue, G_DBUS_ERROR_TIMEOUT.rawValue, G_DBUS_ERROR_TIMED_OUT.rawValue:
            return .timedOut(milliseconds: NotifyError.probeTimeoutMilliseconds)
        case G_DBUS_ERROR_SPAWN_EXEC_FAILED.rawValue...G_DBUS_ERROR_SPAWN_NO_MEMORY.rawValue:
            return .noServer("\(busName) could not be started: \(text)")
        default:
            return .failed(text)
        }
    }

    /// The error's message without GDBus's "GDBus.Error:NAME: " prefix; frees the error.
    private static func message(taking error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "no reason given" }
        defer { g_error_free(error) }
        g_dbus_error_strip_remote_error(error)
        return String(cString: error.pointee.message)
    }
}
