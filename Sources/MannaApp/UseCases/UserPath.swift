// A path as the user typed it, kept for later (a registered recording, the sync folder).
#if canImport(Glibc)
import Glibc
#endif

enum UserPath {
    /// `path` made absolute and plain (no `.`, `..` or links) when it exists: the registry
    /// outlives the shell it was typed in. Otherwise joined to the working folder.
    static func absolute(_ path: String) -> String {
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        guard !path.hasPrefix("/") else { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        let folder = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (folder == "/" ? "" : folder) + "/" + (path.hasPrefix("./") ? String(path.dropFirst(2)) : path)
    }
}
