// A mutual-exclusion lock for the little process-wide state Manna keeps (glibc's zone, the
// statement costs a test records).
#if canImport(Glibc)
import Glibc
#endif

/// A pthread mutex, taken around `body`.
final class Lock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        // Allocated, not a stored property: a mutex must not move, and `&property` may be a copy.
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
