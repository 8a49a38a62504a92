// `-` wherever a text or a file is read (`read -`, `search -`, `note add REF -`, `import -`,
// `pray add --body -`): all of stdin. A text on stdin is not in the process list, where every
// user of the machine can read a command line.
#if canImport(Glibc)
import Glibc
#endif
import MannaKit

enum StandardInput {
    /// The most read (as much as an export file may hold).
    static let limit = 256 << 20

    /// All of stdin as UTF-8, without its last newlines. `what` names it in errors ("the
    /// note"); a NUL is refused where a text is read, rather than kept to confuse every program
    /// that reads it.
    static func text(_ what: String, allowNUL: Bool = false) throws -> String {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { throw Failure.io("cannot read \(what) from stdin: " + String(cString: strerror(errno))) }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[..<count])
            if bytes.count > limit { throw Failure.data("\(what) on stdin is larger than \(limit >> 20) MiB") }
        }
        if !allowNUL, let nul = bytes.firstIndex(of: 0) {
            throw Failure.data("\(what) read from stdin has a NUL character (byte \(nul + 1)); write it without one")
        }
        var text = String(decoding: bytes, as: UTF8.self)
        while text.hasSuffix("\n") || text.hasSuffix("\r") { text.removeLast() }
        return text
    }
}
