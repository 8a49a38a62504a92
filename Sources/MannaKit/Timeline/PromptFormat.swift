// One line for a shell prompt or a panel: tokens filled from the day shown.

/// A prompt format: text with tokens `{reference}`, `{translation}`, `{text}`, `{text:N}`
/// (cut to N columns at a word, with "…"), `{plan}` (the first running plan's step, or nothing), `{date}`.
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
                line += PromptFormat.cut(day.text, to: width)
            }
            rest = rest[rest.index(after: close)...]
        }
        line += String(rest)
        let safe = line.singleLine
        return width.map { PromptFormat.cut(safe, to: $0) } ?? safe
    }

    /// `text` in at most `width` characters: cut after the last whole word that fits, then "…".
    public static func cut(_ text: String, to width: Int) -> String {
        guard text.count > width else { return text }
        guard width > 1 else { return "…" }
        let head = text.prefix(width - 1)
        if let space = head.lastIndex(of: " "), head.distance(from: head.startIndex, to: space) >= width / 2 {
            var kept = head[..<space]
            while let last = kept.last, ",;:.".contains(last) { kept = kept.dropLast() }
            return kept + "…"
        }
        return head + "…"
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
            text += "\(start)\t\(entry.date)\t\(day.reference.singleLine.replacingAll("\t", with: " "))\t\(line)\n"
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
