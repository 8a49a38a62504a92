// A passage as the user writes it, on the command line or on stdin: the words joined and
// parsed, a translation written after it, the size a command prints at most, and a verse in
// another edition's numbering pointed to where it is here. Read by every command that takes a
// passage (read, compare, listen, note, highlight, bookmark).
import MannaKit

enum PassageInput {
    /// The most verses one `read` or `compare` prints: the whole Bible, once. A request for
    /// more (Psalm 119 ten thousand times over, an 80 KB argument) is refused, not held in memory.
    static let maxVerses = 31_102

    /// Refuses a passage of more than `maxVerses` verses, with the limit named.
    static func checkSize(_ reference: Reference) throws {
        guard reference.verseCount(upTo: maxVerses) <= maxVerses else {
            throw Failure.usage(tr("a passage to print can be at most {most} verses (the whole Bible, once); ask for less", ("most", maxVerses)))
        }
    }

    /// `text` without a translation's code at its end ("John 3:16 KJV", "John 3:16 (WEB)"), and
    /// that code; only the database's codes count, so a book is never taken for one.
    static func trailingTranslation(_ text: String, in database: TextDatabase) -> (String, String?) {
        var trimmed = text.trimmingSpaces
        let parenthesized = trimmed.hasSuffix(")")
        if parenthesized { trimmed.removeLast() }
        guard let space = trimmed.lastIndex(where: { $0 == " " || (parenthesized && $0 == "(") }) else { return (text, nil) }
        let word = String(trimmed[trimmed.index(after: space)...]).uppercased()
        guard database.translations.contains(where: { $0.code == word }) else { return (text, nil) }
        var rest = String(trimmed[..<space])
        if parenthesized {
            guard rest.hasSuffix("(") || trimmed[space] == "(" else { return (text, nil) }
            if rest.hasSuffix("(") { rest.removeLast() }
        }
        return (rest.trimmingSpaces, word)
    }

    /// The passage a user typed for a command that shows it in one translation (read, listen),
    /// and that translation. A translation written after the reference ("John 3:16 KJV",
    /// "(WEB)"), else `option`, else one chosen in the environment or config, says how the
    /// reference is read ("Mc 1:1" is Marcos in Spanish); with none chosen, a reference
    /// written in Spanish ("Juan 3:16") is shown in the Spanish translation.
    static func typed(_ words: [String], command: String, option: String?, in database: TextDatabase,
                      _ context: Context) throws -> (reference: Reference, translation: Translation) {
        guard !words.isEmpty else { throw Failure.usage(tr("{command} needs a reference, like 'manna {command} John 3:16'", ("command", command))) }
        let (text, written) = trailingTranslation(String.spaced(words), in: database)
        if let written, let option, option.uppercased() != written {
            throw Failure.usage(tr("two translations: --translation {option} and {written} after the reference; give one", ("option", option), ("written", written)))
        }
        let chosen = try context.chosenTranslation(option ?? written, in: database)
        let (reference, language) = try parse(text, in: database, language: chosen?.language)
        return (reference, try chosen ?? context.defaultTranslation(in: database, language: language))
    }

    /// Joins the words of a reference given as several arguments ("John" "3:16") and parses it
    /// for a command that names verses in no translation (note, highlight, bookmark), read in
    /// the language of the translation the user chose, if any ("Mc 1:1" is Marcos to a
    /// reader of the RV1909); no words is a usage error naming the command.
    static func parseReference(_ words: [String], command: String, _ context: Context) throws -> Reference {
        guard !words.isEmpty else { throw Failure.usage(tr("{command} needs a reference, like 'manna {command} John 3:16'", ("command", command))) }
        return try Reference.reading(String.spaced(words), language: context.chosenLanguage()).reference
    }

    /// The reference in `text`, read for a translation in `language` (nil when none is chosen),
    /// and the language it is in (`Reference.reading`). A verse number that is not in KJV
    /// numbering but that other editions use is still refused, with where its text is here:
    /// "Romans 14 has only 23 verses; the WEB's Romans 14:24 is Romans 16:25 here".
    static func parse(_ text: String, in database: TextDatabase, language: String? = nil) throws -> (reference: Reference, language: String?) {
        let parsed = Result { () throws(ReferenceError) in try Reference.reading(text, language: language) }
        guard case .failure(let error) = parsed else { return try parsed.get() }
        if let hint = try elsewhere(error, in: database) { throw Failure.data(error.message + hint) }
        throw error
    }

    /// "; Romans 14:24 in the WEB is Romans 16:25 here", for a verse refused as not in KJV
    /// numbering whose text the translations have under another number; nil otherwise.
    private static func elsewhere(_ error: ReferenceError, in database: TextDatabase) throws -> String? {
        guard case .noSuchVerse(let name, let chapter, let verse, _) = error,
              let book = Canon.books.first(where: { $0.name == name || ($0.osis == "Ps" && name == "Psalm") }) else { return nil }
        let asked = VerseID(book: book.number, chapter: chapter, verse: verse)
        let places = try database.elsewhere(asked)
        guard let at = places.first?.at, places.allSatisfy({ $0.at == at }) else { return nil }
        let language = Messages.current.language
        let (there, here) = (Reference(asked).label(in: language), Reference(at).label(in: language))
        if places.count == database.translations.count { return tr("; {asked} in other editions is {at} here", ("asked", there), ("at", here)) }
        let translations = places.map(\.translation).joined(separator: tr(" and the "))
        return tr("; {asked} in the {translations} is {at} here", ("asked", there), ("translations", translations), ("at", here))
    }
}
