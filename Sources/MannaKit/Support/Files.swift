// File operations on glibc: reading whole files, making folders, writing, copying and removing them.
// Every file Manna reads goes through openForReading and every file it writes through
// createTemporary and moveIntoPlace (writeAtomically): the rules for what a path may be live
// here once (docs/ARCHITECTURE.md, "Files other people can touch").
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
    /// Only a regular file of at most `limit` bytes is read (`openForReading`): `/dev/zero`
    /// would fill memory, and a FIFO would make the reader (every shell prompt, for the
    /// timeline) wait for ever.
    public static func readText(_ path: String, limit: Int = defaultReadLimit, followLinks: Bool = true) throws(FileError) -> String? {
        try readBytes(path, limit: limit, followLinks: followLinks).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The whole file's bytes, or nil when it does not exist; read as `readText` reads.
    public static func readBytes(_ path: String, limit: Int = defaultReadLimit, followLinks: Bool = true) throws(FileError) -> [UInt8]? {
        guard let (descriptor, size) = try openForReading(path, followLinks: followLinks) else { return nil }
        defer { close(descriptor) }
        guard size <= limit else { throw .tooLarge(path, limit: limit) }
        return try readAll(descriptor, path: path, size: size, limit: limit)
    }

    /// The file's first line (without its newline, or the whole file if it has none), reading
    /// no further than it: a sync snapshot's header, without the megabytes after it.
    public static func readFirstLine(_ path: String, limit: Int = 1 << 20, followLinks: Bool = true) throws(FileError) -> String? {
        guard let (descriptor, _) = try openForReading(path, followLinks: followLinks) else { return nil }
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

    /// What every reader of a file opens, Manna's or a library's (libsndfile, SQLite): `path`
    /// opened without blocking (a FIFO would wait for a writer for ever), checked with fstat
    /// to be a regular file (a device such as `/dev/zero` never ends), with its size for the
    /// caller's cap; nil when it does not exist. With `followLinks` false a symbolic link is
    /// refused (`O_NOFOLLOW`): for Manna's own files, where a link is never Manna's.
    public static func openForReading(_ path: String, followLinks: Bool = true) throws(FileError) -> (descriptor: Int32, size: Int)? {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | (followLinks ? 0 : O_NOFOLLOW))
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            if errno == ELOOP && !followLinks { throw FileError(path: path, reason: linkRefused) }
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
            throw FileError(path: path, reason: notRegular)
        }
        return (descriptor, Int(info.st_size))
    }

    /// Checks that `path` is a regular file a reader may open, without reading it: what is
    /// handed by name to another program (the player decodes the audio) is checked by the
    /// same rule as what Manna reads.
    public static func checkReadable(_ path: String) throws(FileError) {
        guard let (descriptor, _) = try openForReading(path) else { throw FileError(path: path, reason: "no such file") }
        close(descriptor)
    }

    public static let notRegular = "not a regular file (a device, a pipe or a folder): Manna reads only files here"
    public static let linkRefused = "a symbolic link, where Manna keeps only its own file: remove it"

    /// Makes `path` and any missing parents, each with `mode`.
    public static func makeDirectories(_ path: String, mode: mode_t = 0o755) throws(FileError) {
        var prefix = ""
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += "/" + component
            if mkdir(prefix, mode) != 0 && errno != EEXIST { throw .current(prefix) }
        }
    }

    /// Makes `path` a folder only this user can enter (0700, a folder made before with
    /// another mode included), and each missing parent below `base` alike; refused when one
    /// of them is a symbolic link or no folder (a sync tool carries links, and one planted
    /// there would take Manna's writes elsewhere). `base` itself is the user's choice: it may
    /// be a link.
    public static func makePrivateDirectories(_ path: String, below base: String) throws(FileError) {
        guard path.hasPrefix(base + "/") else { return try makeDirectories(path, mode: 0o700) }
        try makeDirectories(base)
        var prefix = base
        for component in path.dropFirst(base.count + 1).split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST { throw .current(prefix) }
            var info = stat()
            guard lstat(prefix, &info) == 0 else { throw .current(prefix) }
            switch info.st_mode & S_IFMT {
            case S_IFDIR: if info.st_mode & 0o7777 != 0o700 && chmod(prefix, 0o700) != 0 { throw .current(prefix) }
            case S_IFLNK: throw FileError(path: prefix, reason: "a symbolic link, where Manna keeps only its own folder: remove it")
            default: throw FileError(path: prefix, reason: "not a folder: remove it")
            }
        }
    }

    /// What a write does with a symbolic link where the file goes.
    public enum LinkAtTarget: Sendable {
        /// Refused with one line: a file the user names (an export, a cue sheet) or keeps
        /// (the config), where a link may be another user's trap or the user's own choice,
        /// and Manna can tell neither.
        case refuse
        /// The link itself is replaced by the new file: Manna's own caches (the timeline,
        /// prompt.tsv), which no one else has reason to link.
        case replace
    }

    /// Replaces `path` with `text` so that a reader sees the old file or the new one, never
    /// a part: written to a temporary file made exclusively beside it (`createTemporary`),
    /// flushed to disk, then renamed over it (`moveIntoPlace`). The existing path is never
    /// opened for writing, so nothing is written through a link or into a FIFO or a device,
    /// and a path another user prepared is refused or replaced, never handed anything.
    /// Errors name `path` or its folder, never the temporary file.
    public static func writeAtomically(_ text: String, to path: String, mode: mode_t = 0o644, link: LinkAtTarget = .refuse) throws(FileError) {
        try writeAtomically(Array(text.utf8), to: path, mode: mode, link: link)
    }

    /// `writeAtomically` for bytes that are not text (a compressed sync snapshot).
    public static func writeAtomically(_ bytes: [UInt8], to path: String, mode: mode_t = 0o644, link: LinkAtTarget = .refuse) throws(FileError) {
        let temporary = try fillTemporary(beside: path, mode: mode, exactMode: false, link: link) { descriptor throws(FileError) in
            try writeAll(bytes[...], to: descriptor, path: path)
        }
        try moveIntoPlace(temporary, to: path, link: link)
    }

    /// Refuses what a file cannot be written over: a folder, a FIFO, a device, and a link
    /// unless `link` is `.replace`. Nothing there, or a regular file, may be replaced.
    /// lstat, never open: looking must neither block nor follow.
    public static func checkWritable(_ path: String, link: LinkAtTarget) throws(FileError) {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return }
            throw .current(path)
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFLNK where link == .replace: return
        case S_IFLNK: throw FileError(path: path, reason: "a symbolic link: Manna never writes through a link; remove it or name another file")
        case S_IFDIR: throw FileError(path: path, reason: "a folder: name a file to write")
        default: throw FileError(path: path, reason: "not a regular file (a device or a pipe): Manna writes only files here")
        }
    }

    /// A new empty file beside `path`, created exclusively (`O_EXCL`: it cannot be a file or a
    /// link someone made first) with `mode` less the umask, and its descriptor, once
    /// `checkWritable` accepts `path`. For a writer that is not `writeAtomically` (the player
    /// renders audio into it by name); `moveIntoPlace` finishes, and the caller closes the
    /// descriptor and removes the file on failure.
    public static func createTemporary(beside path: String, mode: mode_t, link: LinkAtTarget = .refuse) throws(FileError) -> (path: String, descriptor: Int32) {
        try checkWritable(path, link: link)
        let temporary = temporaryPath(for: path)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            let folder = parent(of: path)
            switch errno {
            case ENOENT: throw FileError(path: path, reason: "there is no folder \(folder)")
            case ENOTDIR: throw FileError(path: path, reason: "\(folder) is not a folder")
            default: throw FileError(path: path, reason: "cannot make a file in \(folder): \(reason)")
            }
        }
        return (temporary, descriptor)
    }

    /// Renames the finished `temporary` over `path`, checked again (what is there may have
    /// changed while it was written); on failure `temporary` is removed and the error names `path`.
    public static func moveIntoPlace(_ temporary: String, to path: String, link: LinkAtTarget = .refuse) throws(FileError) {
        do throws(FileError) {
            try checkWritable(path, link: link)
        } catch {
            unlink(temporary)
            throw error
        }
        try rename(temporary, to: path)
    }

    /// Writes `text` to a new temporary file beside `destination` with exactly `mode` whatever
    /// the umask, as install(1) does, flushed to disk, and returns its path for
    /// `moveIntoPlace` or `rename`. A link at `destination` is replaced; nothing is left on failure.
    public static func write(_ text: String, beside destination: String, mode: mode_t) throws(FileError) -> String {
        try fillTemporary(beside: destination, mode: mode, exactMode: true, link: .replace) { descriptor throws(FileError) in
            try writeAll(Array(text.utf8)[...], to: descriptor, path: destination)
        }
    }

    /// Copies the regular file at `source` to a new temporary file beside `destination`, as
    /// `write(_:beside:mode:)` does.
    public static func copy(_ source: String, beside destination: String, mode: mode_t) throws(FileError) -> String {
        guard let (input, _) = try openForReading(source) else { throw FileError(path: source, reason: "no such file") }
        defer { close(input) }
        return try fillTemporary(beside: destination, mode: mode, exactMode: true, link: .replace) { output throws(FileError) in
            var chunk = [UInt8](repeating: 0, count: 1 << 20)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw .current(source)
                }
                if count == 0 { return }
                try writeAll(chunk[..<count], to: output, path: destination)
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
    static func temporaryPath(for path: String) -> String {
        path + ".tmp.\(getpid()).\(String(UInt32.random(in: .min ... .max), radix: 16))"
    }

    /// A temporary file beside `destination` (`createTemporary`) with `mode` (exactly, or less
    /// the umask), written by `fill` and flushed to disk; removed on any failure, and every
    /// error names `destination`.
    private static func fillTemporary(beside destination: String, mode: mode_t, exactMode: Bool, link: LinkAtTarget,
                                      fill: (Int32) throws(FileError) -> Void) throws(FileError) -> String {
        let (temporary, descriptor) = try createTemporary(beside: destination, mode: mode, link: link)
        var failure: FileError?
        do throws(FileError) {
            if exactMode && fchmod(descriptor, mode) != 0 { throw FileError.current(destination) }
            try fill(descriptor)
            if fsync(descriptor) != 0 { throw FileError.current(destination) }
        } catch {
            failure = error
        }
        if close(descriptor) != 0 && failure == nil { failure = .current(destination) }
        if let failure {
            unlink(temporary)
            throw failure
        }
        return temporary
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
    /// Not through a link, and never on a FIFO or a device (O_NOFOLLOW, O_NONBLOCK, fstat).
    public static func stamp(_ path: String, at instant: Instant, mode: mode_t = 0o600) throws(FileError) {
        let descriptor = try openKeptInPlace(path, mode: mode)
        defer { close(descriptor) }
        var times = [timespec(tv_sec: instant, tv_nsec: 0), timespec(tv_sec: instant, tv_nsec: 0)]
        guard futimens(descriptor, &times) == 0 else { throw .current(path) }
    }

    /// Opens for reading and writing (creating it with `mode`) a file Manna keeps in place and
    /// never replaces, because what matters is the file itself: a lock (`listen.lock`, the
    /// journal's claims and sync lock), whose holders must all hold the same file, and the
    /// `last-tick` stamp. Never through a symbolic link (it would lock, stamp or truncate the
    /// file linked to), never blocking on a FIFO, and only a regular file. The caller closes it.
    public static func openKeptInPlace(_ path: String, mode: mode_t = 0o600) throws(FileError) -> Int32 {
        let descriptor = open(path, O_RDWR | O_CREAT | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw errno == ELOOP ? FileError(path: path, reason: linkRefused) : .current(path) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw FileError(path: path, reason: notRegular)
        }
        return descriptor
    }

    /// The file's modification time (Unix seconds), or nil when there is no such file.
    public static func modified(_ path: String) -> Instant? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mtim.tv_sec : nil
    }

    /// What tells one version of a file from another without reading it: its size, its
    /// modification time (ns), its inode and device, from `lstat` (a link is itself, never
    /// what it points at); nil when there is nothing at `path`. A file rewritten, renamed into
    /// place or touched has another.
    public static func identity(_ path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return "\(info.st_size) \(info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec) \(info.st_ino) \(info.st_dev)"
    }

    /// True when `path` is a regular file (or, with `followLinks`, a link to one).
    public static func isRegularFile(_ path: String, followLinks: Bool = true) -> Bool {
        var info = stat()
        return (followLinks ? stat(path, &info) : lstat(path, &info)) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// True when `path` is a Unix socket (following symbolic links).
    public static func isSocket(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK
    }

    /// True when `path` is a folder (or, with `followLinks`, a link to one).
    public static func isDirectory(_ path: String, followLinks: Bool = true) -> Bool {
        var info = stat()
        return (followLinks ? stat(path, &info) : lstat(path, &info)) == 0 && info.st_mode & S_IFMT == S_IFDIR
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

    /// The running executable, resolved: /proc/self/exe, else argv[0]. In a checkout the text
    /// database and the helpers are found beside it.
    public static func runningExecutable() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return CommandLine.arguments.first ?? "manna" }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
