#if canImport(Glibc)
import Glibc
#endif

/// A reader's hold on the journal file while it reads it as immutable
/// (`Journal(openingForReading:)`): a shared lock on the bytes SQLite's readers lock
/// (`SHARED_FIRST`, 510 bytes from 2^30 + 2, sqlite.org/lockingv3.html). A writer closing its
/// last connection checkpoints its log into the file and removes the log only under an
/// exclusive lock, which this keeps it from taking: while the lock is held, the file changes
/// only with the log there, which the reader's check sees. An open file description lock (as
/// `ClaimHolder`'s), so SQLite closing its own descriptors of the file does not drop it.
final class ReadingLock {
    private let descriptor: Int32

    /// Nil when the file cannot be opened, or a writer holds it exclusively (then the reader
    /// opens it as a writer does, and waits as SQLite waits).
    init?(_ path: String) {
        descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return nil }
        var lock = flock()
        lock.l_type = Int16(F_RDLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = off_t(0x4000_0002)
        lock.l_len = 510
        lock.l_pid = 0  // required for open file description locks
        guard fcntl(descriptor, ClaimHolder.setLock, &lock) == 0 else {
            close(descriptor)
            return nil
        }
    }

    deinit { close(descriptor) }
}
