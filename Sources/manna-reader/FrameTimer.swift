// How long the main loop works for a change the window shows, for bench/reader: the handler
// (the model and the widgets set), then the frame that draws it (from the frame clock's
// before-paint to its after-paint: layout and paint), the time between them being the main
// loop idle. Only when MANNA_READER_TIMINGS names a file, to which each figure is appended
// as a line `WHAT MILLISECONDS`.
#if canImport(Glibc)
import Glibc
#endif
import CAdw

final class FrameTimer {
    private let descriptor: Int32
    private let widget: UnsafeMutablePointer<GtkWidget>
    private var connected = false
    /// The change being measured and its handler's time, until its frame is drawn.
    private var pending: (what: String, handler: Double)?
    private var frameBegan: Double?

    /// A timer appending to `path`, or nil without one (or when it cannot be opened: a
    /// benchmark's figures are not worth a user's error).
    init?(path: String?, widget: UnsafeMutablePointer<GtkWidget>) {
        guard let path else { return nil }
        descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { return nil }
        self.widget = widget
    }

    deinit { close(descriptor) }

    /// Runs `work`, and reports its time and its frame's as what `name` says once it is done
    /// (nothing when it throws: it changed nothing to draw).
    func measure(_ work: () throws -> Void, name: () -> String) rethrows {
        connect()
        let began = FrameTimer.milliseconds()
        try work()
        pending = (name(), FrameTimer.milliseconds() - began)
        frameBegan = nil
    }

    /// Hears the window's frame clock (there once the window is realized).
    private func connect() {
        guard !connected, let clock = gtk_widget_get_frame_clock(widget) else { return }
        connected = true
        Object.on(UnsafeMutableRawPointer(clock), "before-paint") { [unowned self] in
            if pending != nil { frameBegan = FrameTimer.milliseconds() }
        }
        Object.on(UnsafeMutableRawPointer(clock), "after-paint") { [unowned self] in
            guard let (what, handler) = pending, let frameBegan else { return }
            let line = "\(what) \(handler + FrameTimer.milliseconds() - frameBegan)\n"
            _ = line.withCString { write(descriptor, $0, strlen($0)) }
            pending = nil
        }
    }

    private static func milliseconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) * 1000 + Double(now.tv_nsec) / 1_000_000
    }
}
