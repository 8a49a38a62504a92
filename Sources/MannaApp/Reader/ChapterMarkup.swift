// A chapter as the reader window shows it, in Pango markup: a psalm's title in italics, then
// each verse on a line of its own after its number, raised and small.
import MannaKit

public enum ChapterMarkup {
    /// The markup of `verses` (a chapter, its title first). A verse the translation lacks says
    /// why, as `manna read` does, or is shown as missing.
    public static func markup(of verses: [PassageVerse], language: String) -> String {
        verses.map { markup(of: $0, language: language) }.joined(separator: "\n")
    }

    /// The markup of one verse (or title), as `markup(of:language:)` shows it in a chapter.
    public static func markup(of verse: PassageVerse, language: String) -> String {
        if verse.isTitle { return "<i>" + escaped(verse.text ?? "") + "</i>" }
        let text = verse.text.map(escaped) ?? "<i>" + escaped(PassageFormatter.note(on: verse, language: language) ?? "not in this translation") + "</i>"
        return "<sup><small>\(verse.id.verse)</small></sup> " + text
    }

    /// `text` with the characters markup gives a meaning to written as entities.
    public static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default: result.append(character)
            }
        }
        return result
    }
}
