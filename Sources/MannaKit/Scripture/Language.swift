// A language of the catalogue (curated/languages.tsv): what Manna needs to know of it to label,
// and to read aloud, a translation in it. The rows are generated into Language+Catalogue.swift.

/// A language a translation is written in: its name, the espeak-ng voice that reads it, and
/// the words its labels use.
public struct Language: Equatable, Sendable {
    /// BCP 47, as translations.tsv names it: "en", "es".
    public let code: String
    /// Its English name, as help names it: "Spanish".
    public let name: String
    /// The espeak-ng voice a translation in it is read by when neither it nor `--voice` names another.
    public let voice: String
    /// How one psalm is labelled: "Psalm" 23, "Salmo" 23 (the book is "Psalms", "Salmos").
    public let psalm: String
    /// The word for a psalm's title (its verse 0): "Psalm 3 (title)", "Salmo 3 (título)".
    public let psalmTitle: String

    /// The catalogue's language with `code`, or English for a code it lacks (the text database
    /// is built only with languages the catalogue has, so that is a database of another Manna).
    public static func of(_ code: String) -> Language { named(code) ?? named("en")! }
}
