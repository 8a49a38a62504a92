// The one bound on a piece of text Manna hands to something else: a notification's summary and
// body, a string of the timeline, a field of prompt.tsv, a piece of a widget's line
// (docs/ARCHITECTURE.md, "Sizes"). Each of those outputs applies it in one place, so no kind of
// text (a prayer, a plan's step, the verse of the day) can make one of them large.

public enum Excerpt {
    /// The most characters one piece of text keeps. The longest curated verse of the day is 304
    /// characters, so it is never cut; a bookmarked book, a prayer of a megabyte or a plan with
    /// a thousand readings a day is.
    public static let characters = 500

    /// The most UTF-8 bytes it keeps: four a character. A character is a grapheme, and one
    /// grapheme can be a letter under any number of combining marks: counted by characters
    /// alone, it could carry a megabyte.
    public static let bytes = 4 * characters

    /// Whether `text` is kept whole.
    public static func fits(_ text: String) -> Bool { of(text) == text }

    /// `text` when it has at most `width` characters (never more than `characters`) and
    /// `bytes` bytes; else its start and "…", within both: cut after the last whole word that
    /// fits when that keeps at least half, else after the last whole character that fits.
    /// Cut on characters (graphemes), never inside one, so a letter keeps its accents and a
    /// UTF-8 sequence is never split; reads only as far as the bound, whatever the length.
    public static func of(_ text: String, characters width: Int = characters) -> String {
        let width = min(width, characters)
        // Each character is at least one byte: no more bytes than the width, it fits.
        if text.utf8.count <= width { return text }
        guard width > 1 else { return "…" }
        let ellipsisBytes = 3
        var count = 0
        var used = 0
        // The end of the longest start that leaves room for "…".
        var cut = text.startIndex
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(after: index)
            count += 1
            used += text.utf8.distance(from: index, to: next)
            if count > width || used > bytes { break }
            if count < width && used + ellipsisBytes <= bytes { cut = next }
            index = next
        }
        if index == text.endIndex { return text }
        let head = text[..<cut]
        if let space = head.lastIndex(of: " "), head.distance(from: head.startIndex, to: space) >= width / 2 {
            var kept = head[..<space]
            while let last = kept.last, ",;:.".contains(last) { kept = kept.dropLast() }
            return kept + "…"
        }
        return head + "…"
    }

    /// As many of `items` (a plan's readings) as fit the bound when joined by `separator`, each
    /// an excerpt itself, and "…" as the last item when some were left out (the first is kept,
    /// cut shorter if it must be, so the list names at least a start).
    public static func of(_ items: [String], joinedBy separator: String) -> [String] {
        var kept: [String] = []
        var joined = ""
        for (index, item) in items.enumerated() {
            let piece = of(item)
            let next = kept.isEmpty ? piece : joined + separator + piece
            // Room for the separator and "…" that follow, unless this is the last.
            guard fits(next), index == items.count - 1 || fits(next + separator + "…") else {
                if kept.isEmpty { kept = [of(item, characters: characters - separator.count - 1)] }
                return kept + ["…"]
            }
            kept.append(piece)
            joined = next
        }
        return kept
    }
}
