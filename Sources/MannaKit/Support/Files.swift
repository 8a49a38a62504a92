// File operations on glibc: reading whole files, making folders, and atomic replacement.
#if canImport(Glibc)
import Glibc
#endif

/// A failed file operation, with the path and the system's reason.
public struct FileError: Error, Equatable, Sendable {
    public let path: String
    public let reason: String

    public var message: String { "\(path): \(reason)" }

    static func current(_ path: String) -> FileError { FileError(path: path, reason: String(cString: strerror(errno))) }
}

public enum Files {
    /// The whole file as text (invalid UTF-8 is replaced), or nil when it does not exist.
    public static func readText(_ path: String) throws(FileError) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw .current(path)
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .current(path)
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
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
    public static func writeAtomically(_ text: String, to path: String, mode: mode_t = 0o644) throws(FileError) {
        let temporary = path + ".tmp.\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw .current(temporary) }
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                let error = FileError.current(path)
                close(descriptor)
                unlink(temporary)
                throw error
            }
            offset += written
        }
        bytes.removeAll()
        guard fsync(descriptor) == 0, close(descriptor) == 0 else {
            let error = FileError.current(path)
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let error = FileError.current(path)
            unlink(temporary)
            throw error
        }
    }

    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// True when `path` is a Unix socket (following symbolic links).
    public static func isSocket(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK
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
