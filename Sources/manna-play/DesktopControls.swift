// The desktop's hold on the player, over D-Bus with GIO: on the session bus the player is an
// MPRIS media player (`org.mpris.MediaPlayer2.manna`), so media keys, `playerctl` and the lock
// screen's controls work; on the system bus it hears logind say the machine is about to sleep.
// Everything runs on the player's main thread: its loop (EventLoop) sleeps on GLib's main
// context among the rest, delivers the calls as they arrive, and then takes what they ask for.
import CGio
#if canImport(Glibc)
import Glibc
#endif
import MannaKit

final class DesktopControls {
    /// What the desktop asked for since the last `take()`.
    enum Request: Equatable {
        case command(PlayerCommand)
        /// MPRIS Stop: stop playing and keep the place.
        case stop
        /// logind's PrepareForSleep(true).
        case sleep
    }

    /// What the properties show, set by the player's loop.
    struct State: Equatable {
        var status = "Playing"
        var verse = 0
        var length: Double?
        /// Speech's speed; nil for a recording, which plays at its own (Rate 1, fixed).
        var wordsPerMinute: Int?
    }

    /// The name owned on the session bus: `org.mpris.MediaPlayer2.manna`, or, while another
    /// process holds that, the MPRIS spec's `org.mpris.MediaPlayer2.manna.instance<pid>`. Nil
    /// without a session bus.
    private(set) var name: String?
    private let session: OpaquePointer?
    private let system: OpaquePointer?
    private let verses: [ListenRequest.Verse]
    private let title: String?
    /// Something follows the last verse (the passage again, or the next chapter): Next goes
    /// on from there.
    private let goesOn: Bool
    /// The MPRIS track: the passage, from its first verse to its last.
    let trackID: String
    /// Seconds from the passage's start to what is heard, when known (read under the player's lock).
    private let position: () -> Double?
    private var requests: [Request] = []
    private var state = State()

    static let busName = "org.mpris.MediaPlayer2.manna"
    private static let objectPath = "/org/mpris/MediaPlayer2"
    private static let playerInterface = "org.mpris.MediaPlayer2.Player"

    /// Connects to the buses there are (none is an error: a terminal over ssh has neither).
    init(verses: [ListenRequest.Verse], title: String?, goesOn: Bool = false, position: @escaping () -> Double?) {
        self.verses = verses
        self.title = title
        self.goesOn = goesOn
        self.position = position
        trackID = "/org/manna/passage/\(verses.first!.id)_\(verses.last!.id)"
        session = DesktopControls.connect(G_BUS_TYPE_SESSION, address: "DBUS_SESSION_BUS_ADDRESS", socket: getenv("XDG_RUNTIME_DIR").map { String(cString: $0) + "/bus" })
        system = DesktopControls.connect(G_BUS_TYPE_SYSTEM, address: "DBUS_SYSTEM_BUS_ADDRESS", socket: "/run/dbus/system_bus_socket")
        let me = Unmanaged.passUnretained(self).toOpaque()
        if let session, DesktopControls.register(self, on: session) {
            name = DesktopControls.own(DesktopControls.busName, on: session)
                ?? DesktopControls.own(DesktopControls.busName + ".instance\(getpid())", on: session)
        }
        if let system {
            g_dbus_connection_signal_subscribe(system, "org.freedesktop.login1", "org.freedesktop.login1.Manager", "PrepareForSleep",
                                               "/org/freedesktop/login1", nil, G_DBUS_SIGNAL_FLAGS_NONE, { _, _, _, _, _, parameters, controls in
                guard let parameters, g_variant_is_of_type(parameters, DesktopControls.type("(b)")) != 0 else { return }
                let sleeping = g_variant_get_child_value(parameters, 0)
                defer { g_variant_unref(sleeping) }
                // PrepareForSleep(false) is the waking: the listener resumes, not the player.
                if g_variant_get_boolean(sleeping) != 0 {
                    Unmanaged<DesktopControls>.fromOpaque(controls!).takeUnretainedValue().requests.append(.sleep)
                }
            }, me, nil)
        }
    }

    /// A bus connection, if the bus is there: its address in the environment, or its socket.
    /// (Never GIO's autolaunch, which would leave a bus daemon running behind a terminal.)
    private static func connect(_ type: GBusType, address: String, socket: String?) -> OpaquePointer? {
        guard getenv(address) != nil || socket.map({ access($0, F_OK) == 0 }) == true else { return nil }
        var error: UnsafeMutablePointer<GError>?
        guard let connection = g_bus_get_sync(type, nil, &error) else {
            g_clear_error(&error)
            return nil
        }
        // The player's exit is its own (SIGPIPE ignored, the status its own), not GIO's.
        g_dbus_connection_set_exit_on_close(connection, 0)
        return connection
    }

    /// Serves both MPRIS interfaces at /org/mpris/MediaPlayer2.
    private static func register(_ controls: DesktopControls, on connection: OpaquePointer) -> Bool {
        var error: UnsafeMutablePointer<GError>?
        guard let node = g_dbus_node_info_new_for_xml(introspection, &error) else {
            g_clear_error(&error)
            return false
        }
        // GIO copies the table.
        var table = GDBusInterfaceVTable()
        table.method_call = { _, _, _, interface, method, parameters, invocation, controls in
            let controls = Unmanaged<DesktopControls>.fromOpaque(controls!).takeUnretainedValue()
            controls.call(String(cString: interface!), String(cString: method!), parameters: parameters!, invocation: invocation!)
        }
        table.get_property = { _, _, _, interface, property, _, controls in
            let controls = Unmanaged<DesktopControls>.fromOpaque(controls!).takeUnretainedValue()
            return controls.property(String(cString: interface!), String(cString: property!))
        }
        table.set_property = { _, _, _, _, property, value, _, controls in
            let controls = Unmanaged<DesktopControls>.fromOpaque(controls!).takeUnretainedValue()
            controls.set(String(cString: property!), to: value!)
            return 1
        }
        for interface in ["org.mpris.MediaPlayer2", playerInterface] {
            let id = g_dbus_connection_register_object(connection, objectPath, g_dbus_node_info_lookup_interface(node, interface),
                                                       &table, Unmanaged.passUnretained(controls).toOpaque(), nil, &error)
            if id == 0 {
                g_clear_error(&error)
                return false
            }
        }
        return true
    }

    /// Asks for `name`, not queueing behind an owner: the name, or nil if another holds it.
    private static func own(_ name: String, on connection: OpaquePointer) -> String? {
        var error: UnsafeMutablePointer<GError>?
        let doNotQueue: UInt32 = 4  // DBUS_NAME_FLAG_DO_NOT_QUEUE
        let arguments = tuple([g_variant_new_string(name), g_variant_new_uint32(doNotQueue)])
        guard let reply = g_dbus_connection_call_sync(connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                                      "RequestName", arguments, type("(u)"), G_DBUS_CALL_FLAGS_NONE, 1000, nil, &error) else {
            g_clear_error(&error)
            return nil
        }
        defer { g_variant_unref(reply) }
        let result = g_variant_get_child_value(reply, 0)
        defer { g_variant_unref(result) }
        let primaryOwner: UInt32 = 1  // DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER
        return g_variant_get_uint32(result) == primaryOwner ? name : nil
    }

    /// What was asked for since the last call.
    func take() -> [Request] {
        defer { requests = [] }
        return requests
    }

    /// Shows `state`, telling the clients what changed (PropertiesChanged).
    func show(_ state: State) {
        guard state != self.state else { return }
        let old = self.state
        self.state = state
        // Values are made only to be sent: one made and not sent would never be freed.
        guard let session, name != nil else { return }
        var changed: [(String, OpaquePointer)] = []
        if state.status != old.status { changed.append(("PlaybackStatus", g_variant_new_string(state.status))) }
        if state.verse != old.verse || state.length != old.length { changed.append(("Metadata", metadata())) }
        if state.wordsPerMinute != old.wordsPerMinute { changed.append(("Rate", g_variant_new_double(rate(state)))) }
        for (property, can) in [("CanGoNext", canGoNext), ("CanGoPrevious", canGoPrevious)] where can(state) != can(old) {
            changed.append((property, g_variant_new_boolean(can(state) ? 1 : 0)))
        }
        guard !changed.isEmpty else { return }
        let signal = DesktopControls.tuple([g_variant_new_string(DesktopControls.playerInterface), DesktopControls.dictionary(changed),
                                            g_variant_new_array(DesktopControls.type("s"), nil, 0)])
        g_dbus_connection_emit_signal(session, nil, DesktopControls.objectPath, "org.freedesktop.DBus.Properties",
                                      "PropertiesChanged", signal, nil)
    }

    /// Tells the clients the position jumped (Seeked): after a seek, a verse chosen, a new position.
    func seeked() {
        guard let session, name != nil else { return }
        let at = DesktopControls.tuple([g_variant_new_int64(DesktopControls.microseconds(position() ?? 0))])
        g_dbus_connection_emit_signal(session, nil, DesktopControls.objectPath, DesktopControls.playerInterface, "Seeked", at, nil)
    }

    /// Sends what is queued before the player exits (its name goes with its connection).
    func flush() {
        if let session { g_dbus_connection_flush_sync(session, nil, nil) }
    }

    // MARK: - MPRIS

    private func call(_ interface: String, _ method: String, parameters: OpaquePointer, invocation: OpaquePointer) {
        func int64(_ index: Int) -> Int {
            let value = g_variant_get_child_value(parameters, gsize(index))
            defer { g_variant_unref(value) }
            return g_variant_get_int64(value)
        }
        switch (interface, method) {
        case (DesktopControls.playerInterface, "Play"): requests.append(.command(.resume))
        case (DesktopControls.playerInterface, "Pause"): requests.append(.command(.pause))
        case (DesktopControls.playerInterface, "PlayPause"): requests.append(.command(.toggle))
        case (DesktopControls.playerInterface, "Stop"): requests.append(.stop)
        case (DesktopControls.playerInterface, "Next"): requests.append(.command(.skip(1)))
        case (DesktopControls.playerInterface, "Previous"): requests.append(.command(.skip(-1)))
        case (DesktopControls.playerInterface, "Seek"): requests.append(.command(.seek(Double(int64(0)) / 1_000_000)))
        case (DesktopControls.playerInterface, "SetPosition"):
            let track = g_variant_get_child_value(parameters, 0)
            defer { g_variant_unref(track) }
            // The spec: a position for another track, or before the start, is ignored (past the end too, by the player).
            let position = int64(1)
            if String(cString: g_variant_get_string(track, nil)) == trackID && position >= 0 {
                requests.append(.command(.position(Double(position) / 1_000_000)))
            }
        default:
            // OpenUri, Raise and Quit: a player of one passage, owned by a terminal's `manna listen`.
            let problem = "Manna's player does not support \(method): it plays the passage 'manna listen' gave it"
            g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.NotSupported", problem)
            return
        }
        g_dbus_method_invocation_return_value(invocation, nil)
    }

    private func property(_ interface: String, _ property: String) -> OpaquePointer? {
        switch property {
        case "Identity": g_variant_new_string("Manna")
        case "CanQuit", "CanRaise", "HasTrackList", "CanSetFullscreen", "Fullscreen": g_variant_new_boolean(0)
        case "SupportedUriSchemes", "SupportedMimeTypes": g_variant_new_array(DesktopControls.type("s"), nil, 0)
        case "PlaybackStatus": g_variant_new_string(state.status)
        case "Metadata": metadata()
        case "Position": g_variant_new_int64(DesktopControls.microseconds(position() ?? 0))
        case "Rate": g_variant_new_double(rate(state))
        case "MinimumRate": g_variant_new_double(state.wordsPerMinute == nil ? 1 : DesktopControls.rate(ListenRequest.rates.lowerBound))
        case "MaximumRate": g_variant_new_double(state.wordsPerMinute == nil ? 1 : DesktopControls.rate(ListenRequest.rates.upperBound))
        case "Volume": g_variant_new_double(1)
        case "CanGoNext": g_variant_new_boolean(canGoNext(state) ? 1 : 0)
        case "CanGoPrevious": g_variant_new_boolean(canGoPrevious(state) ? 1 : 0)
        case "CanPlay", "CanPause", "CanSeek", "CanControl": g_variant_new_boolean(1)
        default: nil
        }
    }

    /// MPRIS's Rate: speech's speed as a multiple of the usual one (175 words a minute).
    private func rate(_ state: State) -> Double { state.wordsPerMinute.map(DesktopControls.rate) ?? 1 }
    static func rate(_ wordsPerMinute: Int) -> Double { Double(wordsPerMinute) / Double(ListenRequest.defaultRate) }

    /// A property set: Rate, speech's speed (within MinimumRate and MaximumRate; a recording's
    /// stays 1).
    private func set(_ property: String, to value: OpaquePointer) {
        guard property == "Rate", state.wordsPerMinute != nil, g_variant_is_of_type(value, DesktopControls.type("d")) != 0 else { return }
        let asked = Int((g_variant_get_double(value) * Double(ListenRequest.defaultRate)).rounded())
        requests.append(.command(.rate(min(max(asked, ListenRequest.rates.lowerBound), ListenRequest.rates.upperBound))))
    }

    /// Next and Previous move by verse: there is a next verse (or the first again, repeating),
    /// a previous one.
    private func canGoNext(_ state: State) -> Bool { goesOn || state.verse < verses.count - 1 }
    private func canGoPrevious(_ state: State) -> Bool { state.verse > 0 }

    /// The track: the reference of the verse being heard as its title ("John 3:16") and its
    /// text as the track's text (`xesam:asText`, as lyrics players show the line sung), the
    /// passage as its album, and its length once known.
    private func metadata() -> OpaquePointer {
        let verse = verses[min(state.verse, verses.count - 1)]
        var entries: [(String, OpaquePointer)] = [("mpris:trackid", g_variant_new_object_path(trackID)),
                                                  ("xesam:title", g_variant_new_string(Reference(VerseID(rawValue: verse.id)).description)),
                                                  ("xesam:asText", g_variant_new_string(verse.text))]
        if let title { entries.append(("xesam:album", g_variant_new_string(title))) }
        if let length = state.length { entries.append(("mpris:length", g_variant_new_int64(DesktopControls.microseconds(length)))) }
        return DesktopControls.dictionary(entries)
    }

    private static func microseconds(_ seconds: Double) -> Int { Int((seconds * 1_000_000).rounded()) }

    // MARK: - GVariant

    private static func type(_ text: String) -> OpaquePointer {
        // GVariantType is a string in GLib's own layout: a type string made once and kept.
        if let known = types[text] { return known }
        let made = g_variant_type_new(text)!
        types[text] = made
        return made
    }
    nonisolated(unsafe) private static var types: [String: OpaquePointer] = [:]

    private static func tuple(_ children: [OpaquePointer?]) -> OpaquePointer {
        var children = children
        return children.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
    }

    /// An a{sv} of `entries`.
    private static func dictionary(_ entries: [(String, OpaquePointer)]) -> OpaquePointer {
        var items: [OpaquePointer?] = entries.map { g_variant_new_dict_entry(g_variant_new_string($0.0), g_variant_new_variant($0.1)) }
        return items.withUnsafeMutableBufferPointer { g_variant_new_array(type("{sv}"), $0.baseAddress, gsize($0.count)) }
    }

    private static let introspection = """
        <node>
          <interface name="org.mpris.MediaPlayer2">
            <method name="Raise"/>
            <method name="Quit"/>
            <property name="CanQuit" type="b" access="read"/>
            <property name="CanRaise" type="b" access="read"/>
            <property name="HasTrackList" type="b" access="read"/>
            <property name="Identity" type="s" access="read"/>
            <property name="SupportedUriSchemes" type="as" access="read"/>
            <property name="SupportedMimeTypes" type="as" access="read"/>
          </interface>
          <interface name="org.mpris.MediaPlayer2.Player">
            <method name="Next"/>
            <method name="Previous"/>
            <method name="Pause"/>
            <method name="PlayPause"/>
            <method name="Stop"/>
            <method name="Play"/>
            <method name="Seek"><arg direction="in" name="Offset" type="x"/></method>
            <method name="SetPosition"><arg direction="in" name="TrackId" type="o"/><arg direction="in" name="Position" type="x"/></method>
            <method name="OpenUri"><arg direction="in" name="Uri" type="s"/></method>
            <signal name="Seeked"><arg name="Position" type="x"/></signal>
            <property name="PlaybackStatus" type="s" access="read"/>
            <property name="Rate" type="d" access="readwrite"/>
            <property name="Metadata" type="a{sv}" access="read"/>
            <property name="Volume" type="d" access="read"/>
            <property name="Position" type="x" access="read"/>
            <property name="MinimumRate" type="d" access="read"/>
            <property name="MaximumRate" type="d" access="read"/>
            <property name="CanGoNext" type="b" access="read"/>
            <property name="CanGoPrevious" type="b" access="read"/>
            <property name="CanPlay" type="b" access="read"/>
            <property name="CanPause" type="b" access="read"/>
            <property name="CanSeek" type="b" access="read"/>
            <property name="CanControl" type="b" access="read"/>
          </interface>
        </node>
        """
}
