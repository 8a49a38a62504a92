// A chapter as the reader window shows it, in Pango markup: a psalm's title in italics, then
// each verse on a line of its own after its number, raised and small, with its marks as
// `manna read` shows them (the highlight's colour behind the text, `[bookmark]`, `[1]` for each
// note, the notes' text after the chapter), and where each verse lies in the text, so that a
// selection in the window names its verses.
import MannaKit

/// A chapter's markup and the verse each part of its text is.
public struct ChapterText: Equatable, Sendable {
    public let markup: String
    /// Each verse (and title) with its characters in the text shown (Unicode scalars, as GTK
    /// counts a label's offsets), in order.
    public let verses: [(id: VerseID, characters: Range<Int>)]

    /// The verses a selection of the characters `start..<end` reaches (the one at `start` when
    /// nothing is selected), titles left out: a title cannot be marked.
    public func verses(selectedFrom start: Int, to end: Int) -> [VerseID] {
        let (low, high) = (min(start, end), max(start, end))
        return verses.filter { verse in
            verse.id.verse != 0
                && (low == high ? verse.characters.lowerBound <= low && low <= verse.characters.upperBound
                    : verse.characters.lowerBound < high && low < verse.characters.upperBound)
        }.map(\.id)
    }

    public static func == (left: ChapterText, right: ChapterText) -> Bool {
        left.markup == right.markup && left.verses.elementsEqual(right.verses) { $0.id == $1.id && $0.characters == $1.characters }
    }
}

public enum ChapterMarkup {
    /// `verses` (a chapter, its title first) with `marks`. A verse the translation lacks says
    /// why, as `manna read` does, or is shown as missing.
    public static func chapter(_ verses: [PassageVerse], language: String, marks: PassageMarks = PassageMarks()) -> ChapterText {
        var markup = ""
        var length = 0
        var spans: [(id: VerseID, characters: Range<Int>)] = []
        var notes: [Note] = []
        for (index, verse) in verses.enumerated() {
            if index > 0 {
                markup += "\n"
                length += 1
            }
            let line = self.line(verse, language: language, marks: marks[verse.id], notesBefore: notes.count)
            spans.append((verse.id, length..<length + line.characters))
            markup += line.markup
            length += line.characters
            notes += marks[verse.id].notes
        }
        if !notes.isEmpty { markup += "\n" }
        // A note's own line breaks are kept, as `manna read` keeps them.
        for (index, note) in notes.enumerated() {
            markup += "\n[\(index + 1)] " + Markup.escaped("\(note.reference) (\(note.shortID)): " + note.paragraphs.joined(separator: "\n    "))
        }
        return ChapterText(markup: markup, verses: spans)
    }

    /// The markup of one verse (or title) with its marks, and how many characters it shows;
    /// its notes are numbered from `notesBefore` + 1.
    public static func line(_ verse: PassageVerse, language: String, marks: VerseMarks = VerseMarks(), notesBefore: Int = 0)
        -> (markup: String, characters: Int)
    {
        if verse.isTitle {
            let text = verse.text ?? ""
            return ("<i>" + Markup.escaped(text) + "</i>", text.unicodeScalars.count)
        }
        let number = "\(verse.id.verse) "
        let plain = verse.text ?? PassageFormatter.note(on: verse, language: language) ?? "not in this translation"
        var text = verse.text == nil ? "<i>" + Markup.escaped(plain) + "</i>" : Markup.escaped(plain)
        if let highlight = marks.highlight {
            text = "<span background=\"\(background(highlight))\" foreground=\"#000000\">" + text + "</span>"
        }
        var suffix = marks.bookmarked ? " [bookmark]" : ""
        for number in marks.notes.indices { suffix += " [\(notesBefore + number + 1)]" }
        let characters = number.unicodeScalars.count + plain.unicodeScalars.count + suffix.unicodeScalars.count
        return ("<sup><small>\(verse.id.verse)</small></sup> " + text + suffix, characters)
    }

    /// A search result: its reference in bold, then its snippet with each match highlighted
    /// (bold on the yellow highlight's colour).
    public static func result(_ hit: SearchHit, language: String) -> String {
        var markup = "<b>" + Markup.escaped(Reference(hit.id).label(in: language)) + "</b>  "
        for part in hit.snippet.parts {
            let text = Markup.escaped(part.text)
            markup += part.isHit ? "<span background=\"\(background(.yellow))\" foreground=\"#000000\"><b>" + text + "</b></span>" : text
        }
        return markup
    }

    /// The colour behind a highlighted verse: the terminal's (`TerminalStyle.highlight`, the
    /// 256-colour palette's light ones), so a verse looks the same in both.
    public static func background(_ color: HighlightColor) -> String {
        switch color {
        case .yellow: "#ffffaf"
        case .green: "#afffaf"
        case .blue: "#afd7ff"
        case .pink: "#ffafd7"
        case .purple: "#d7afff"
        }
    }
}
