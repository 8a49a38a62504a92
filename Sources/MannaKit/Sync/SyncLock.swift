// One sync of a journal at a time (docs/sync.md). A device's id and its segment numbers are
// read from the journal, a segment is written to the folder, and only then is it recorded in
// the journal: two syncs at once (ticks from a timer and from cron, a tick and `sync now`)
// would each see the other's file before its record and take the journal for a copy. So every
// sync, `sync init` and `sync leave` holds an exclusive flock on `journal.sqlite.sync-lock`,
// beside the journal. The kernel lets go of it when the process ends, killed or not, so a lock
// is never left behind.
#if canImport(Glibc)
import Glibc
#endif

enum SyncLock {
    /// How long a sync that waits (`sync now`, `sync init`) waits for another to finish.
    static let patience = 60_000

    /// The lock file of the journal at `path`.
    static func path(ofJournal path: String) -> String { path + ".sync-lock" }

    /// Runs `body` holding the journal's sync lock. Without `wait`, returns nil at once when
    /// another process holds it; with it, waits up to `patience` milliseconds, then returns nil.
    static func holding<T>(_ journal: Journal, wait: Bool, _ body: () throws(JournalError) -> T) throws(JournalError) -> T? {
        let file = path(ofJournal: journal.path)
        let descriptor: Int32
        do { descriptor = try Files.openKeptInPlace(file) } catch { throw .unwritable(path: journal.path, reason: "cannot open \(error.message)") }
        defer { close(descriptor) }
        var waited = 0
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                throw .unwritable(path: journal.path, reason: "cannot lock \(file): " + String(cString: strerror(errno)))
            }
            guard wait, waited < patience else { return nil }
            usleep(5_000)
            waited += 5
        }
        return try body()
    }
}
