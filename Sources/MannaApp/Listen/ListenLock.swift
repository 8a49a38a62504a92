// One listening at a time: a second `manna listen` takes over. The one playing holds a lock on
// a file naming its process; the newcomer asks it to stop (SIGTERM: it keeps its place and
// puts its terminal back) and plays once the lock is free.
#if canImport(Glibc)
import Glibc
#endif
import MannaKit

enum ListenLock {
    /// Takes the lock for this process, stopping the listening that holds it. The lock lasts
    /// until the process exits (the descriptor is never closed before).
    static func takeOver(_ context: Context) throws {
        let path = context.paths.listenLock
        try? Files.makeDirectories(context.paths.cacheDirectory)
        let descriptor: Int32
        do { descriptor = try Files.openKeptInPlace(path) } catch { throw Failure.io("cannot open \(path): \(error.reason)") }
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            var bytes = [UInt8](repeating: 0, count: 32)
            let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
            let holder = count > 0 ? pid_t(String(decoding: bytes[..<count], as: UTF8.self).trimmingSpaces) : nil
            if let holder, holder > 0 { kill(holder, SIGTERM) }
            // It stops within moments: its player quits, its place is saved.
            var waited = 0
            while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
                guard waited < 3000 else {
                    close(descriptor)
                    throw Failure.unavailable("another 'manna listen' (process \(holder.map(String.init) ?? "?")) is playing and did not stop")
                }
                usleep(10_000)
                waited += 10
            }
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }
}
