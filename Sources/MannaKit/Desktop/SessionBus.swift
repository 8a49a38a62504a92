// Which D-Bus session bus to use, including from cron, where DBUS_SESSION_BUS_ADDRESS is unset.

public enum SessionBus {
    /// The session bus address: `DBUS_SESSION_BUS_ADDRESS` when set, else the user's
    /// standard bus socket, `$XDG_RUNTIME_DIR/bus` (default `/run/user/UID/bus`), when it exists.
    ///
    /// cron and some `systemd --user` set-ups run commands without the variable while the
    /// user's bus (dbus-user-session, systemd) listens on that socket; pointing there by hand
    /// is the usual fix, so Manna does it. It never starts a bus of its own.
    ///
    /// - Parameters:
    ///   - userID: the real user id, for `/run/user/UID`.
    ///   - isSocket: whether a path is a listening socket's file (`Files.isSocket`; tests replace it).
    /// - Throws: `NotifyError.noBus`, naming what was looked for.
    public static func address(environment: Environment, userID: UInt32,
                               isSocket: (String) -> Bool = Files.isSocket) throws(NotifyError) -> String {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return address }
        // The XDG spec: a relative XDG_RUNTIME_DIR is invalid and is ignored.
        let runtime = environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/run/user/\(userID)"
        let socket = (runtime.hasSuffix("/") ? String(runtime.dropLast()) : runtime) + "/bus"
        guard isSocket(socket) else {
            throw .noBus("DBUS_SESSION_BUS_ADDRESS is not set and there is no bus socket at \(socket)")
        }
        return "unix:path=" + escapingAddressValue(socket)
    }

    /// A value as the D-Bus address syntax needs it: bytes outside `[-0-9A-Za-z_/.*]` as `%XX`.
    static func escapingAddressValue(_ value: String) -> String {
        var out = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "/"), UInt8(ascii: "."), UInt8(ascii: "*"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789abcdef".unicodeScalars)
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(hex[Int(byte >> 4)])
                out.unicodeScalars.append(hex[Int(byte & 0xF)])
            }
        }
        return out
    }
}
