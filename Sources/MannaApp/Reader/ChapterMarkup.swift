// A chapter as the reader window shows it, in Pango markup: a psalm's title in italics, then
// each verse on a line of its own after its number, raised and small.
import MannaKit

public enum ChapterMarkup {
    /// The markup of `verses` (a chapter, its title first). A verse the translation lacks says
    /// why, as `manna read` does, or is shown as missing.
    public static func markup(of verses: [PassageVerse], language: String) -> String {
        verses.map { verse in
            if verse.isTitle { return "<i>" + Markup.escaped(verse.text ?? "") + "</i>" }
            let text = verse.text.map(Markup.escaped) ?? "<i>" + Markup.escaped(PassageFormatter.note(on: verse, language: language) ?? "not in this translation") + "</i>"
            return "<sup><small>\(verse.id.verse)</small></sup> " + text
        }.joined(separator: "\n")
    }
}
