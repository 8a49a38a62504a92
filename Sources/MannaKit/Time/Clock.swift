// The clock as a value: code below the executable asks it for the time and never reads the
// system's, so `--now` replays any moment and tests run at fixed instants.

#if canImport(Glibc)
import Glibc
#endif

/// Where "now" comes from.
public struct Clock: Sendable {
    private let read: @Sendable () -> Instant

    /// A clock that asks `read` each time.
    public init(_ read: @escaping @Sendable () -> Instant) { self.read = read }

    public func now() -> Instant { read() }

    /// A clock stopped at `instant`: `--now`, and tests.
    public static func fixed(_ instant: Instant) -> Clock { Clock { instant } }

    /// Milliseconds on the monotonic clock (CLOCK_MONOTONIC): for deadlines and durations,
    /// which a change of the wall clock must not move.
    public static func monotonicMilliseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return now.tv_sec * 1000 + now.tv_nsec / 1_000_000
    }
}
