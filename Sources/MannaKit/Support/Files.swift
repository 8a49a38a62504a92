// File operations on glibc: reading whole files, making folders, writing, copying and removing them.
#if canImport(Glibc)
import Glibc
#endif

/// A failed file operation, with the path and the system's reason.
public struct FileError: Error, Equatable, Sendable {
    public let path: String
    public let reason: String

    public var message: String { "\(path): \(reason)" }

    static func current(_ path: String) -> FileError { FileError(path: path, reason: String(cString: strerror(errno))) }

    static func tooLarge(_ path: String, limit: Int) -> FileError {
        FileError(path: path, reason: "larger than the \(limit >> 20) MB Manna reads here")
    }
}

public enum Files {
    /// The most `readText` reads unless told otherwise: far more than any config, plan or
    /// timeline Manna writes, far less than would exhaust a machine.
    public static let defaultReadLimit = 64 << 20

    /// The whole file as text (invalid UTF-8 is replaced), or nil when it does not exist.
    ///
    /// Only a regular file (or a link to one) of at most `limit` bytes is read: `/dev/zero`
    /// would fill memory, and a FIFO would make the reader (every shell prompt, for the
    /// timeline) wait for ever. It is opened without blocking, so a FIFO is refused at once.
    public static func readText(_ path: String, limit: Int = defaultReadLimit) throws(FileError) -> String? {
        guard let (descriptor, size) = try openRegular(path) else { return nil }
        defer { close(descriptor) }
        guard size <= limit else { throw .tooLarge(path, limit: limit) }
        let bytes = try readAll(descriptor, path: path, size: size, limit: limit)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The file's first line (without its newline, or the whole file if it has none), reading
    /// no further than it: a sync snapshot's header, without the megabytes after it.
    public static func readFirstLine(_ path: String, limit: Int = 1 << 20) throws(FileError) -> String? {
        guard let (descriptor, _) = try openRegular(path) else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .current(path)
            }
            if count == 0 { return String(decoding: bytes, as: UTF8.self) }
            if let newline = chunk[..<count].firstIndex(of: 0x0A) {
                bytes += chunk[..<newline]
                return String(decoding: bytes, as: UTF8.self)
            }
            bytes += chunk[..<count]
            if bytes.count > limit { throw .tooLarge(path, limit: limit) }
        }
    }

    /// `path` opened for reading without blocking, if it is a regular file, with its size; nil
    /// when it does not exist.
    private static func openRegular(_ path: String) throws(FileError) -> (Int32, Int)? {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw .current(path)
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let error = FileError.current(path)
            close(descriptor)
            throw error
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw FileError(path: path, reason: "not a regular file (a device, a pipe or a folder): Manna reads only files here")
        }
        return (descriptor, Int(info.st_size))
    }

    /// Makes `path` and any missing parents, each with `mode`.
    public static func makeDirectories(_ path: String, mode: mode_t = 0o755) throws(FileError) {
        var prefix = ""
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += "/" + component
            if mkdir(prefix, mode) != 0 && errno != EEXIST { throw .current(prefix) }
        }
    }

    /// Replaces `path` with `text` so that a reader sees the old file or the new one, never
    /// a part: written to a temporary file beside it, flushed to disk, then renamed over it.
    ///
    /// The temporary file is made exclusively (`O_EXCL`, a name no one can guess in advance),
    /// with `mode`, so no other user can have made it first and read what is written. A
    /// symbolic link is followed: the file it points to is replaced (a synced backup behind a
    /// link must be updated, not turned into a local file). A destination that is not a
    /// regular file (a device, a FIFO, `/dev/stdout`) is written directly, never replaced.
    public static func writeAtomically(_ text: String, to path: String, mode: mode_t = 0o644) throws(FileError) {
        let destination = try resolvingLinks(path)
        var info = stat()
        if stat(destination, &info) == 0 && info.st_mode & S_IFMT != S_IFREG {
            let descriptor = open(destination, O_WRONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw .current(path) }
            defer { close(descriptor) }
            try writeAll(Array(text.utf8)[...], to: descriptor, path: path)
            return
        }
        let temporary = temporaryPath(for: destination)
        try create(temporary, mode: mode, exactMode: false, exclusive: true) { descriptor throws(FileError) in
            try writeAll(Array(text.utf8)[...], to: descriptor, path: path)
        }
        try rename(temporary, to: destination)
    }

    /// The path a chain of symbolic links at `path` ends at (which may not exist yet); `path`
    /// itself when it is not a link.
    static func resolvingLinks(_ path: String) throws(FileError) -> String {
        var current = path
        for _ in 0..<40 {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(current, &buffer, buffer.count - 1)
            guard length > 0 else { return current }
            let target = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = target.hasPrefix("/") ? target : parent(of: current) + "/" + target
        }
        throw FileError(path: path, reason: "too many levels of symbolic links")
    }

    /// Writes `text` to a new file at `path` (replacing any) with exactly `mode` whatever the
    /// umask, as install(1) does, and flushes it to disk. Nothing is left at `path` on failure.
    public static func write(_ text: String, to path: String, mode: mode_t) throws(FileError) {
        try create(path, mode: mode, exactMode: true) { descriptor throws(FileError) in
            try writeAll(Array(text.utf8)[...], to: descriptor, path: path)
        }
    }

    /// Copies the file at `source` to a new file at `path` (replacing any) with exactly `mode`,
    /// flushed to disk. Nothing is left at `path` on failure.
    public static func copy(_ source: String, to path: String, mode: mode_t) throws(FileError) {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw .current(source) }
        defer { close(input) }
        try create(path, mode: mode, exactMode: true) { output throws(FileError) in
            var chunk = [UInt8](repeating: 0, count: 1 << 20)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw .current(source)
                }
                if count == 0 { return }
                try writeAll(chunk[..<count], to: output, path: path)
            }
        }
    }

    /// Renames `path` to `destination`, replacing it: atomic within one file system.
    /// On failure `path` is removed.
    public static func rename(_ path: String, to destination: String) throws(FileError) {
        guard Glibc.rename(path, destination) == 0 else {
            let error = FileError.current(destination)
            unlink(path)
            throw error
        }
    }

    /// Removes the file (or symbolic link) at `path`. Returns false when there was none.
    @discardableResult
    public static func remove(_ path: String) throws(FileError) -> Bool {
        if unlink(path) == 0 { return true }
        if errno == ENOENT { return false }
        throw .current(path)
    }

    /// Flushes a folder's entries to disk, so a file renamed into it stays there after a power cut.
    public static func syncDirectory(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    /// Removes the folder at `path` when it is empty; a folder with anything in it is kept.
    @discardableResult
    public static func removeDirectoryIfEmpty(_ path: String) -> Bool { rmdir(path) == 0 }

    /// A name beside `path` for a file that is renamed over it once complete: one per writer,
    /// so two writers at once (processes, or threads of one) never write or rename each other's.
    public static func temporaryPath(for path: String) -> String {
        path + ".tmp.\(getpid()).\(String(UInt32.random(in: .min ... .max), radix: 16))"
    }

    /// Creates `path` with `mode` (exactly, or less the umask), lets `fill` write it and
    /// flushes it to disk; removes it on any failure.
    private static func create(_ path: String, mode: mode_t, exactMode: Bool, exclusive: Bool = false,
                               fill: (Int32) throws(FileError) -> Void) throws(FileError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (exclusive ? O_EXCL | O_NOFOLLOW : O_TRUNC), mode)
        guard descriptor >= 0 else { throw .current(path) }
        var failure: FileError?
        do throws(FileError) {
            if exactMode && fchmod(descriptor, mode) != 0 { throw FileError.current(path) }
            try fill(descriptor)
            if fsync(descriptor) != 0 { throw FileError.current(path) }
        } catch {
            failure = error
        }
        if close(descriptor) != 0 && failure == nil { failure = .current(path) }
        if let failure {
            unlink(path)
            throw failure
        }
    }

    /// Everything from `descriptor`'s position to its end (`path` names it in errors).
    static func readAll(_ descriptor: Int32, path: String, size: Int, limit: Int) throws(FileError) -> [UInt8] {
        // Read straight into the result's uninitialized storage, sized from the file's size as
        // fstat gave it (plus room to see the end): no zeroing, no copy, nothing element by
        // element. The prompt reads its timeline on every shell prompt.
        var capacity = max(size + 1, 4096)
        var bytes: [UInt8] = []
        while true {
            var failure: Int32 = 0
            var ended = false
            let previous = bytes
            bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
                previous.withUnsafeBufferPointer { old in
                    if let base = old.baseAddress { buffer.baseAddress!.initialize(from: base, count: old.count) }
                }
                count = previous.count
                while count < buffer.count {
                    let read = Glibc.read(descriptor, buffer.baseAddress! + count, buffer.count - count)
                    if read < 0 && errno == EINTR { continue }
                    if read < 0 { failure = errno }
                    if read <= 0 {
                        ended = true
                        return
                    }
                    count += read
                }
            }
            if failure != 0 { throw FileError(path: path, reason: String(cString: strerror(failure))) }
            // A file that grows while it is read is held to the limit too.
            if bytes.count > limit { throw .tooLarge(path, limit: limit) }
            if ended { return bytes }
            capacity *= 2
        }
    }

    /// Writes all of `bytes` at `descriptor`'s position (`path` names it in errors).
    static func writeAll(_ bytes: ArraySlice<UInt8>, to descriptor: Int32, path: String) throws(FileError) {
        var offset = bytes.startIndex
        while offset < bytes.endIndex {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw .current(path)
            }
            // No progress and no error: give up rather than spin.
            if written == 0 { throw FileError(path: path, reason: "nothing was written") }
            offset += written
        }
    }

    /// Writes all of `text` to `descriptor` (stdout, stderr); false when it cannot (the reader
    /// has gone). For the helpers, which report on their standard streams unbuffered.
    @discardableResult
    public static func write(_ text: String, toDescriptor descriptor: Int32) -> Bool {
        do { try writeAll(Array(text.utf8)[...], to: descriptor, path: "descriptor \(descriptor)") } catch { return false }
        return true
    }

    /// Sends all of `bytes` on a socket; false when the other end has gone. MSG_NOSIGNAL: a
    /// reader that has gone is an answer, not a SIGPIPE.
    @discardableResult
    public static func send(_ bytes: [UInt8], toSocket descriptor: Int32) -> Bool {
        var rest = bytes[...]
        while !rest.isEmpty {
            let sent = rest.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 && errno == EINTR { continue }
            if sent <= 0 { return false }
            rest = rest.dropFirst(sent)
        }
        return true
    }

    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Sets the file's modification time to `instant`, making it (empty, `mode`) when missing:
    /// a stamp that costs one or two system calls, and no write of content.
    public static func stamp(_ path: String, at instant: Instant, mode: mode_t = 0o600) throws(FileError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw .current(path) }
        defer { close(descriptor) }
        var times = [timespec(tv_sec: instant, tv_nsec: 0), timespec(tv_sec: instant, tv_nsec: 0)]
        guard futimens(descriptor, &times) == 0 else { throw .current(path) }
    }

    /// The file's modification time (Unix seconds), or nil when there is no such file.
    public static func modified(_ path: String) -> Instant? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mtim.tv_sec : nil
    }

    /// True when `path` is a regular file (following symbolic links).
    public static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// True when `path` is a Unix socket (following symbolic links).
    public static func isSocket(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK
    }

    /// True when `path` is a folder (or a link to one).
    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// True when `path` is a file this process may execute.
    public static func isExecutable(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && access(path, X_OK) == 0
    }

    /// The names in a folder (not "." or ".."), or none when it does not exist.
    public static func list(_ directory: String) -> [String] {
        guard let handle = opendir(directory) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The folder part of `path`: "/a/b" for "/a/b/c", "/" for "/c", "." for "c".
    public static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
