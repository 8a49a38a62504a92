// Who holds a claim in the delivery ledger: a live process, known by a lock the kernel keeps for
// it while it lives and drops when it dies, however it dies (kill -9 included). Whether a claim's
// holder is gone is asked of the kernel, never of a clock that another tick may not share (see
// docs/ARCHITECTURE.md, "The journal and the ledger").
#if canImport(Glibc)
import Glibc
#endif

/// One journal connection's hold on the claims it makes: an open file description's write lock
/// (`F_OFD_SETLK`) on one byte of `<journal>-claims`, an empty file, at an offset chosen at random,
/// which is the holder's id and is kept with each claim. The lock lasts while the connection is
/// open and the process lives; it is not inherited (the descriptor is close-on-exec), so no helper
/// a tick starts keeps it alive. Any process can ask the kernel whether a lock is held there
/// (`F_OFD_GETLK`): no lock, no holder.
final class ClaimHolder {
    /// The byte this holder locks, from 1 to 2^31 - 1 (every file system's locks reach that far).
    let id: Int
    private let descriptor: Int32

    // Linux's fcntl commands for open file description locks (asm-generic/fcntl.h), which the
    // Glibc module does not export. Unlike a process's POSIX locks they conflict between two
    // descriptors of one process (the in-process tests' ticks), and closing another descriptor of
    // the file does not drop them.
    static let getLock: Int32 = 36  // F_OFD_GETLK
    static let setLock: Int32 = 37  // F_OFD_SETLK

    /// The claims file of the journal at `journalPath`.
    static func path(forJournal journalPath: String) -> String { journalPath + "-claims" }

    /// Opens (creating, 0600) the journal's claims file and locks a free byte of it for this holder.
    init(journalPath: String) throws(JournalError) {
        let path = ClaimHolder.path(forJournal: journalPath)
        let descriptor: Int32
        do { descriptor = try Files.openKeptInPlace(path) } catch { throw .unwritable(path: journalPath, reason: error.message) }
        self.descriptor = descriptor
        var generator = SystemRandomNumberGenerator()
        while true {
            let candidate = Int.random(in: 1...Int(Int32.max), using: &generator)
            var lock = ClaimHolder.byte(candidate, type: F_WRLCK)
            if fcntl(descriptor, ClaimHolder.setLock, &lock) == 0 {
                id = candidate
                return
            }
            // Another live holder drew the same byte: draw again. Anything else is the file system's.
            guard errno == EAGAIN || errno == EACCES else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                throw .unwritable(path: journalPath, reason: "cannot lock \(path): \(reason)")
            }
        }
    }

    deinit { close(descriptor) }

    /// True while the holder `id` lives: this one, or a lock on its byte held by anyone. A claim
    /// without a holder (made before holders were kept) has none that lives.
    func isLive(_ id: Int?) -> Bool {
        guard let id else { return false }
        if id == self.id { return true }
        var lock = ClaimHolder.byte(id, type: F_WRLCK)
        // A failed question keeps the claim where it is: a claim is taken back only when its
        // holder is known to be gone.
        guard fcntl(descriptor, ClaimHolder.getLock, &lock) == 0 else { return true }
        return lock.l_type != F_UNLCK
    }

    private static func byte(_ offset: Int, type: Int32) -> flock {
        var lock = flock()
        lock.l_type = Int16(type)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = off_t(offset)
        lock.l_len = 1
        lock.l_pid = 0  // required for open file description locks
        return lock
    }
}
