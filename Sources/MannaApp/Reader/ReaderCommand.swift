// What `manna-reader [REFERENCE...]` is asked to do, by the words after its name: open the
// window (at a passage, typed as `manna read` takes it), or print its usage or version; and its
// keyboard shortcuts (the window sets and lists them, its man page names them).
import MannaKit

public enum ReaderCommand: Equatable, Sendable {
    /// Open the window, at the passage typed (nil: where the reader was).
    case open(String?)
    /// Print this text and open nothing.
    case print(String)

    public static let usage = """
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

/// A keyboard shortcut of the reader window.
public struct ReaderShortcut: Sendable {
    /// What it does, as the shortcuts window lists it.
    public let title: String
    /// The action it runs (`app.` or `win.`).
    public let action: String
    /// GTK's accelerator: `<Control>l`.
    public let accelerator: String

    /// Every shortcut: the window sets each (ReaderApplication) and lists them (Ctrl+?), and
    /// manna-reader(1) names them.
    public static let all = [
        ReaderShortcut(title: "Go to a passage", action: "app.go-to", accelerator: "<Control>l"),
        ReaderShortcut(title: "Search", action: "app.search", accelerator: "<Control>f"),
        ReaderShortcut(title: "Back", action: "win.back", accelerator: "<Alt>Left"),
        ReaderShortcut(title: "Forward", action: "win.forward", accelerator: "<Alt>Right"),
        ReaderShortcut(title: "Show or hide books and chapters", action: "app.toggle-sidebar", accelerator: "F9"),
        ReaderShortcut(title: "Keyboard shortcuts", action: "win.show-help-overlay", accelerator: "<Control>question"),
        ReaderShortcut(title: "Quit", action: "app.quit", accelerator: "<Control>q"),
    ]

    /// The keys as people write them: `Ctrl+L`, `Alt+Left`, `Ctrl+?`.
    public var keys: String {
        let keys = accelerator.replacing("<Control>", with: "Ctrl+").replacing("<Alt>", with: "Alt+").replacing("question", with: "?")
        guard let last = keys.last, last.isLowercase, keys.dropLast().last == "+" else { return keys }
        return keys.dropLast() + last.uppercased()
    }
}
