// What reaches a terminal. Text from users, peers, files and the database may hold escape
// sequences (ESC, or the one-character C1 CSI and OSC) that would set the window's title,
// clear the screen, or write to the clipboard; bidi overrides that turn a line around. The
// program's two outputs (MannaApp's `Output`, the listening screen) take either a `String`,
// which they neutralise whole, or a `TerminalText`: neutralised text with Manna's own styles
// between. No other way reaches the terminal, so a new command cannot forget (issue 25, 3).

extension String {
    /// The text as a terminal may show it: line breaks and tabs kept (a CRLF is one break),
    /// every other control character, line separator and bidi control shown as "�" (so the
    /// user sees that something was there), nothing else changed.
    public var neutralisedForTerminal: String {
        // Most text has none: look at the bytes before rebuilding anything. C1 controls start
        // with 0xC2 in UTF-8; the separators and bidi controls with 0xE2 0x80 or 0xE2 0x81.
        guard withUTF8Bytes(String.mayHoldTerminalControl) else { return self }
        var out = String.UnicodeScalarView()
        let scalars = Array(unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            switch scalar {
            case "\n", "\t": out.append(scalar)
            case "\r" where index + 1 < scalars.count && scalars[index + 1] == "\n": continue
            default: out.append(String.isTerminalControl(scalar) ? "\u{FFFD}" : scalar)
            }
        }
        return String(out)
    }

    /// True when `bytes` hold a byte that starts what `neutralisedForTerminal` replaces.
    static func mayHoldTerminalControl(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var previous: UInt8 = 0
        for byte in bytes {
            // Printable ASCII, most of any text, in one comparison.
            if byte &- 0x20 < 0x5F {
                previous = byte
                continue
            }
            if (byte < 0x20 && byte != 0x0A && byte != 0x09) || byte == 0x7F || byte == 0xC2
                || (previous == 0xE2 && (byte == 0x80 || byte == 0x81)) {
                return true
            }
            previous = byte
        }
        return false
    }

    /// `count`, without walking grapheme clusters where there are none to walk: in ASCII text
    /// each byte is a character, but for CR LF, which is one.
    public var characterCount: Int {
        withUTF8Bytes { bytes in bytes.allSatisfy { $0 < 0x80 && $0 != 0x0D } ? bytes.count : nil } ?? count
    }

    /// `body` over the text's UTF-8 bytes: in place where the string holds them together (a
    /// native string does), else copied. Every line Manna prints is scanned so; a byte at a time
    /// through the view cost ten times as much.
    func withUTF8Bytes<T>(_ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(utf8).withUnsafeBufferPointer(body)
    }
}

/// Manna's own styles: the SGR attributes its output uses, each with the sequence that ends it.
public enum TerminalStyle: Sendable, Hashable {
    case bold, dim, reverse
    /// A highlight's colour behind black text, from the 256-colour palette.
    case highlight(HighlightColor)

    var open: String {
        switch self {
        case .bold: "\u{1B}[1m"
        case .dim: "\u{1B}[2m"
        case .reverse: "\u{1B}[7m"
        case .highlight(let color):
            // Light backgrounds, every modern terminal has them.
            "\u{1B}[38;5;16;48;5;\(TerminalStyle.paletteCode(color))m"
        }
    }

    var close: String {
        switch self {
        case .bold, .dim: "\u{1B}[22m"
        case .reverse: "\u{1B}[27m"
        case .highlight: "\u{1B}[39;49m"
        }
    }

    private static func paletteCode(_ color: HighlightColor) -> Int {
        switch color {
        case .yellow: 229
        case .green: 157
        case .blue: 153
        case .pink: 218
        case .purple: 183
        }
    }
}

/// Text for a terminal: neutralised text (`String.neutralisedForTerminal`), with Manna's own
/// styles around parts of it. Only this file makes escape sequences.
public struct TerminalText: Sendable, Hashable, CustomStringConvertible {
    /// What is written to the terminal.
    public private(set) var rendered: String

    /// `text`, neutralised.
    public init(_ text: String = "") { rendered = text.neutralisedForTerminal }

    /// `text`, neutralised, in `style`.
    public init(_ text: String, style: TerminalStyle) {
        rendered = text.isEmpty ? "" : style.open + text.neutralisedForTerminal + style.close
    }

    /// Already rendered: for the layout code here that cuts rendered lines.
    private init(rendered: String) { self.rendered = rendered }

    public var description: String { rendered }

    /// The text without its styles, as a test or a pipe would read it.
    public var plain: String {
        var out = ""
        var inEscape = false
        for character in rendered {
            if inEscape {
                if character.isLetter { inEscape = false }
            } else if character == "\u{1B}" {
                inEscape = true
            } else {
                out.append(character)
            }
        }
        return out
    }

    /// The text in `style` as a whole (the styles inside it kept).
    public func styled(_ style: TerminalStyle) -> TerminalText {
        rendered.isEmpty ? self : TerminalText(rendered: style.open + rendered + style.close)
    }

    public static func + (left: TerminalText, right: TerminalText) -> TerminalText {
        TerminalText(rendered: left.rendered + right.rendered)
    }

    public static func += (left: inout TerminalText, right: TerminalText) {
        left.rendered += right.rendered
    }

    /// The first `width` visible characters; the styles open there are kept whole (a cut inside
    /// a style still ends it: every style's close follows its text in `rendered`).
    public func cut(to width: Int) -> TerminalText {
        var visible = 0
        var result = ""
        var inEscape = false
        for character in rendered {
            if inEscape {
                result.append(character)
                if character.isLetter { inEscape = false }
                continue
            }
            if character == "\u{1B}" {
                inEscape = true
                result.append(character)
                continue
            }
            guard visible < width else { continue }
            result.append(character)
            visible += 1
        }
        return TerminalText(rendered: result)
    }
}
