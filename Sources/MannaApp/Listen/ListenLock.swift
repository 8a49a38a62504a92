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
        // Manna's own file, written in place (a lock must stay the same file): never through a
        // link (it would truncate the file linked to), never a FIFO or a device.
        let descriptor = open(path, O_RDWR | O_CREAT | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw Failure.io("cannot open \(path): " + (errno == ELOOP ? Files.linkRefused : String(cString: strerror(errno))))
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw Failure.io("cannot open \(path): \(Files.notRegular)")
        }
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
