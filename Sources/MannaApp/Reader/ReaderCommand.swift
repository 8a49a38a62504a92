// What `manna-reader [REFERENCE...]` is asked to do, by the words after its name: open the
// window (at a passage, typed as `manna read` takes it), or print its usage or version.
import MannaKit

public enum ReaderCommand: Equatable, Sendable {
    /// Open the window, at the passage typed (nil: where the reader was).
    case open(String?)
    /// Print this text and open nothing.
    case print(String)

    static let usage = """
        usage: manna-reader [REFERENCE...]
        Manna as a window: the verse of the day and the Bible, at REFERENCE ("John 3:16", "Ps 23 WEB")
        or where you were. While one runs, another start opens REFERENCE in it.
        """

    /// The command in `words`. An option other than --help and --version is refused (status 64).
    public static func parse(_ words: [String]) throws -> ReaderCommand {
        switch words.first {
        case "--help", "-h": return .print(usage)
        case "--version", "-V": return .print("manna-reader \(Manna.version)")
        case let option? where option.hasPrefix("-"):
            throw Failure.usage("unknown option '\(option.singleLine)': manna-reader takes a passage, like 'manna-reader John 3:16', or --help")
        default: return .open(words.isEmpty ? nil : words.joined(separator: " "))
        }
    }
}
