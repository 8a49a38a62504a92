// Where the player's one thread sleeps until something happens: a line from `manna`, a call
// from the desktop (GLib's main context: MPRIS over D-Bus, logind), a wake from another thread
// (libpulse's callbacks, the render thread), or a time the pipeline said something falls due
// (the next verse becoming audible). One poll(2) over all of them, so an idle player uses no
// CPU and a verse is reported when it is heard, not on the next tick of a timer.
import CGio
#if canImport(Glibc)
import Glibc
#endif

final class EventLoop: @unchecked Sendable {
    /// A pipe another thread writes a byte to, to wake the loop (the self-pipe trick): a byte
    /// written while the loop is busy is still there when it next sleeps, so no wake is lost.
    private let wakeRead: Int32
    private let wakeWrite: Int32
    /// GLib's default main context, where GDBus delivers calls and signals (DesktopControls).
    private let context: OpaquePointer

    init() throws(PlayError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw .unavailable("cannot make a pipe: " + String(cString: strerror(errno))) }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        (wakeRead, wakeWrite) = (ends[0], ends[1])
        context = g_main_context_default()
        // Owned by this thread, GLib wakes it (through a descriptor in the poll) when GDBus's
        // own thread queues a call for it.
        owner = g_main_context_acquire(context) != 0
    }

    /// This loop's thread owns GLib's context, and so delivers its calls. (In the player it
    /// always does; in tests another loop's thread may.)
    private let owner: Bool

    deinit {
        if owner { g_main_context_release(context) }
        close(wakeRead)
        close(wakeWrite)
    }

    /// Wakes the loop; called from any thread. A full pipe is a wake already pending.
    func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// Sleeps until another thread wakes the loop, one of `descriptors` can be read, GLib has
    /// something to deliver, or `milliseconds` pass (nil: no time is due); then delivers what
    /// GLib has (the desktop's calls).
    func wait(reading descriptors: [Int32], milliseconds: Int?) {
        var priority: Int32 = 0
        var glibTimeout: Int32 = -1
        var glibDescriptors: [GPollFD] = []
        if owner {
            _ = g_main_context_prepare(context, &priority)
            glibDescriptors = [GPollFD](repeating: GPollFD(), count: 8)
            var count = Int(g_main_context_query(context, priority, &glibTimeout, &glibDescriptors, Int32(glibDescriptors.count)))
            if count > glibDescriptors.count {
                glibDescriptors = [GPollFD](repeating: GPollFD(), count: count)
                count = Int(g_main_context_query(context, priority, &glibTimeout, &glibDescriptors, Int32(count)))
            }
            glibDescriptors.removeSubrange(count...)
        }

        var polled = glibDescriptors.map { pollfd(fd: $0.fd, events: Int16(bitPattern: $0.events), revents: 0) }
            + ([wakeRead] + descriptors).map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let timeout = [glibTimeout >= 0 ? Int(glibTimeout) : nil, milliseconds].compactMap { $0 }.min() ?? -1
        if poll(&polled, nfds_t(polled.count), Int32(clamping: timeout)) < 0 {
            // A signal: nothing is ready, and the caller looks at everything again anyway.
            for index in polled.indices { polled[index].revents = 0 }
        }

        if owner {
            for index in glibDescriptors.indices { glibDescriptors[index].revents = UInt16(bitPattern: polled[index].revents) }
            if g_main_context_check(context, priority, &glibDescriptors, Int32(glibDescriptors.count)) != 0 {
                g_main_context_dispatch(context)
            }
        }
        // Emptied after the wait, before the caller looks: a wake from now on is kept.
        var drain = [UInt8](repeating: 0, count: 64)
        while read(wakeRead, &drain, drain.count) > 0 {}
    }
}
