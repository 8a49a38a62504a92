// The thin Swift layer over GObject: a reference that a Swift object owns (sunk when floating,
// unreferenced in deinit), and signal handlers that are Swift closures. Only manna-reader
// imports CAdw, and the C types stay in this target.
import CAdw

/// A GObject (a widget, a window, an action) that Swift holds a reference to.
final class Object {
    let pointer: UnsafeMutableRawPointer

    /// Holds `pointer`. A new widget's floating reference becomes this one (so it lives until
    /// both Swift and its parent let go), a borrowed object gets one of its own; `owned`: the
    /// caller was given a reference (a "transfer full" constructor: an action, a menu), which
    /// this takes over.
    init(_ pointer: UnsafeMutableRawPointer, owned: Bool = false) {
        self.pointer = pointer
        if !owned { g_object_ref_sink(pointer) }
    }

    convenience init<T>(_ pointer: UnsafeMutablePointer<T>, owned: Bool = false) { self.init(UnsafeMutableRawPointer(pointer), owned: owned) }
    convenience init(_ pointer: OpaquePointer, owned: Bool = false) { self.init(UnsafeMutableRawPointer(pointer), owned: owned) }

    deinit { g_object_unref(pointer) }

    /// The pointer as the C function being called takes it (a GtkWidget *, a GtkWindow *...):
    /// the type checks GTK's macros would make are GTK's own when the call reaches it.
    /// For a C function whose type GTK keeps private (a GtkLabel *, an AdwFlap *), the
    /// pointer is opaque.
    func cast<T>() -> UnsafeMutablePointer<T> { pointer.assumingMemoryBound(to: T.self) }
    func cast() -> OpaquePointer { OpaquePointer(pointer) }

    /// Runs `action` on `signal` ("clicked", "activate"): handlers whose C signature is
    /// (instance, user_data).
    func on(_ signal: String, _ action: @escaping () -> Void) {
        Object.on(pointer, signal, action)
    }

    /// Runs `action` with the signal's one argument (a row, a command line, a parameter) and
    /// returns its result to the emitter: (instance, argument, user_data) -> gint handlers.
    func on(_ signal: String, withArgument action: @escaping (UnsafeMutableRawPointer?) -> Int32) {
        Object.on(pointer, signal, withArgument: action)
    }

    /// `on` for an object Swift does not hold (a widget its parent owns, a button in a list).
    static func on<T>(_ instance: UnsafeMutablePointer<T>, _ signal: String, _ action: @escaping () -> Void) {
        on(UnsafeMutableRawPointer(instance), signal, action)
    }

    static func on(_ instance: UnsafeMutableRawPointer, _ signal: String, _ action: @escaping () -> Void) {
        connect(instance, signal, unsafeBitCast(Object.withoutArgument, to: GCallback.self), Handler { _ in
            action()
            return 0
        })
    }

    static func on(_ instance: UnsafeMutableRawPointer, _ signal: String, withArgument action: @escaping (UnsafeMutableRawPointer?) -> Int32) {
        connect(instance, signal, unsafeBitCast(Object.withArgument, to: GCallback.self), Handler(action))
    }

    /// A closure, kept alive for as long as GObject keeps the handler (released by `release`).
    private final class Handler {
        let run: (UnsafeMutableRawPointer?) -> Int32
        init(_ run: @escaping (UnsafeMutableRawPointer?) -> Int32) { self.run = run }
    }

    private static func connect(_ instance: UnsafeMutableRawPointer, _ signal: String, _ callback: GCallback, _ handler: Handler) {
        let data = Unmanaged.passRetained(handler).toOpaque()
        g_signal_connect_data(instance, signal, callback, data, Object.release, GConnectFlags(0))
    }

    private static let withoutArgument: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, data in
        _ = Unmanaged<Handler>.fromOpaque(data!).takeUnretainedValue().run(nil)
    }
    private static let withArgument: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Int32 = {
        _, argument, data in
        Unmanaged<Handler>.fromOpaque(data!).takeUnretainedValue().run(argument)
    }
    private static let release: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GClosure>?) -> Void = { data, _ in
        Unmanaged<Handler>.fromOpaque(data!).release()
    }
}

/// A widget's pointer as the C function being called takes it (see `Object.cast`), for a widget
/// Swift does not hold.
func cast<From, To>(_ pointer: UnsafeMutablePointer<From>) -> UnsafeMutablePointer<To> {
    UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: To.self)
}

func cast<From>(_ pointer: UnsafeMutablePointer<From>) -> OpaquePointer { OpaquePointer(pointer) }
