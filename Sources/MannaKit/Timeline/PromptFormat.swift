// One line for a shell prompt or a panel: tokens filled from the day shown.

/// A prompt format: text with tokens `{reference}`, `{translation}`, `{text}`, `{text:N}`
/// (cut to N columns at a word, with "…"), `{plan}` (the first running plan's step, or nothing), `{date}`.
/// A line is never longer than `Excerpt`'s bound, whatever the format and the day.
public struct PromptFormat: Equatable, Sendable {
    public let format: String
    /// The whole line is cut to this many columns (the default format's promise of 80).
    public let width: Int?

    /// `{reference}: {text}`, cut to 80 columns.
    public static let standard = PromptFormat(format: "{reference}: {text}", width: 80)

    public init(format: String, width: Int? = nil) {
        self.format = format
        self.width = width
    }

    /// Why a format cannot be used.
    public struct Problem: Error, Equatable, Sendable {
        public let token: String
        public var message: String {
            "unknown prompt token '{\(token)}'; tokens are {reference}, {translation}, {text}, {text:N}, {plan}, {date}"
        }
    }

    /// Checks every token.
    public func validate() throws(Problem) {
        _ = try render(ShownDay(date: "", reference: "", translation: "", text: "", plan: nil))
    }

    /// The line for `day`. Control characters never reach the terminal.
    public func render(_ day: ShownDay) throws(Problem) -> String {
        var line = ""
        var rest = Substring(format)
        while let open = rest.firstIndex(of: "{") {
            line += String(rest[..<open])
            guard let close = rest[open...].firstIndex(of: "}") else { line += String(rest[open...]); rest = ""; break }
            let token = String(rest[rest.index(after: open)..<close])
            switch token {
            case "reference": line += day.reference
            case "translation": line += day.translation
            case "text": line += day.text
            case "plan": line += day.plan ?? ""
            case "date": line += day.date
            default:
                guard token.hasPrefix("text:"), let width = Int(token.dropFirst(5)), width > 0, width <= 1000 else {
                    throw Problem(token: token)
                }
                line += Excerpt.of(day.text, characters: width)
            }
            rest = rest[rest.index(after: close)...]
        }
        line += String(rest)
        // The one place a prompt line is bounded: `manna prompt` and every line of prompt.tsv.
        return Excerpt.of(line.singleLine, characters: width ?? Excerpt.characters)
    }
}

/// The file the shell snippets read instead of running `manna prompt`: one line a day of the
/// timeline, `START<TAB>YYYY-MM-DD<TAB>REFERENCE<TAB>the prompt line`, where START is the day's
/// first instant in seconds since 1970 (as bash's and zsh's `$EPOCHSECONDS`) and REFERENCE
/// the day's reference, for a panel's short text (`widgets/panel/manna-panel`). A shell shows the last line
/// whose start has passed, as a widget does with the timeline, with no date arithmetic and no
/// zone rules of its own: a prompt starts no process, turns to the next verse at the zone's
/// midnight (DST days too) with nothing running, and agrees with `manna prompt`.
public enum PromptLines {
    /// The file's text for `entries`, each rendered with `format` (tabs in a field become
    /// spaces: a line is four fields).
    public static func text(entries: [TimelineEntry], format: PromptFormat) throws(PromptFormat.Problem) -> String {
        var text = ""
        for entry in entries {
            guard let start = Moment.parse(entry.start.iso8601, zone: .utc) else { continue }
            let day = ShownDay(entry)
            let line = try format.render(day).replacingAll("\t", with: " ")
            let reference = Excerpt.of(day.reference.singleLine).replacingAll("\t", with: " ")
            text += "\(start)\t\(entry.date)\t\(reference)\t\(line)\n"
        }
        return text
    }

    /// Writes `text` to `path` when it differs from what is there, atomically. Returns true when it wrote.
    @discardableResult
    public static func write(_ text: String, to path: String) throws(FileError) -> Bool {
        if let existing = try? Files.readText(path, followLinks: false), existing == text { return false }
        try Files.makeDirectories(Files.parent(of: path), mode: 0o700)
        // Manna's own cache: a link here is replaced, never written through.
        try Files.writeAtomically(text, to: path, mode: 0o644, link: .replace)
        return true
    }
}
