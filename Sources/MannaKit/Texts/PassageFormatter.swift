// Lays out a passage for the terminal: a heading, numbered verses, wrapped with a hanging indent.

public enum PassageFormatter {
    /// What a verse the translation lacks shows instead of text.
    public static func absentText(_ translation: String) -> String { "[not in the \(translation)]" }

    /// The passage as lines of text.
    ///
    /// Verses are numbered by verse, or by chapter:verse when the passage spans chapters.
    /// - Parameter width: wrap to this many columns; nil leaves lines whole (output to a pipe).
    public static func lines(reference: Reference, translation: String, verses: [PassageVerse], width: Int?) -> [String] {
        var lines = ["\(reference) (\(translation))"]
        let spansChapters = Set(verses.map { $0.id.book * 1_000 + $0.id.chapter }).count > 1
        let labels = verses.map { spansChapters ? "\($0.id.chapter):\($0.id.verse)" : "\($0.id.verse)" }
        let labelWidth = labels.map(\.count).max() ?? 0
        for (verse, label) in zip(verses, labels) {
            let padded = String(repeating: " ", count: labelWidth - label.count) + label + " "
            lines += wrap(verse.text ?? absentText(translation), firstPrefix: padded,
                          prefix: String(repeating: " ", count: padded.count), width: width)
        }
        return lines
    }

    /// Word-wraps `text`, starting with `firstPrefix` and indenting later lines by `prefix`.
    /// A word longer than the width is kept whole rather than broken.
    public static func wrap(_ text: String, firstPrefix: String, prefix: String, width: Int?) -> [String] {
        guard let width, width > prefix.count + 10 else { return [firstPrefix + text] }
        var lines: [String] = []
        var line = firstPrefix
        var lineLength = firstPrefix.count
        var lineHasWord = false
        for word in text.split(separator: " ") {
            if lineHasWord && lineLength + 1 + word.count > width {
                lines.append(line)
                line = prefix
                lineLength = prefix.count
                lineHasWord = false
            }
            if lineHasWord {
                line += " "
                lineLength += 1
            }
            line += word
            lineLength += word.count
            lineHasWord = true
        }
        lines.append(line)
        return lines
    }
}
