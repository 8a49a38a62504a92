// manna read REF... [--translation T] [--json]: a passage with verse numbers, and the user's
// highlights, bookmarks and notes on it.
import MannaKit

enum ReadCommand {
    static let spec = CommandSpec(
        name: "read",
        usage: "manna read REF... [--translation T] [--json]",
        abstract: "Print a passage: manna read John 3:16, manna read Ps 23, manna read Gen 1:1-2:3",
        valueOptions: [TranslationOption.name: TranslationOption.help],
        flags: ["json": "print JSON: reference, translation and verses (id, reference, text or null, highlight, bookmarked, notes)"],
        operands: ["": .reference],
        pages: true,
        run: run)

    /// The most verses one `read` or `compare` prints: the whole Bible, once. A request for
    /// more (Psalm 119 ten thousand times over, an 80 KB argument) is refused, not held in memory.
    static let maxVerses = 31_102

    static func run(_ arguments: ParsedArguments, _ context: Context) throws {
        let words = arguments.positionals == ["-"] ? [try StandardInput.text("the reference")] : arguments.positionals
        guard !words.isEmpty else { throw Failure.usage("read needs a reference, like 'manna read John 3:16'") }
        let database = try context.openTextDatabase()
        // "John 3:16 KJV", "John 3:16 (WEB)": a translation written after the reference.
        let (text, written) = trailingTranslation(words.joined(separator: " "), in: database)
        if let written, let option = arguments.value("translation"), option.uppercased() != written {
            throw Failure.usage("two translations: --translation \(option) and \(written) after the reference; give one")
        }
        let reference = try parse(text, in: database)
        try checkSize(reference)
        let translation = try context.translation(arguments.value("translation") ?? written, in: database)
        let verses = try database.passage(reference, in: translation, titles: true)
        // No journal yet means no marks: reading never creates one. A damaged journal does not
        // keep the passage from being read: it is printed without marks, then the failure.
        var marks = PassageMarks()
        var journalFailure: (any Error)?
        do {
            if let journal = try context.existingJournal() {
                marks = try journal.marks(on: reference)
            }
        } catch {
            journalFailure = error
        }
        if arguments.has("json") {
            context.json(.passage(reference, translation: translation, verses: verses, marks: marks))
        } else {
            let color = context.usesColor
            for line in PassageFormatter.lines(reference: reference, translation: translation.code, language: translation.language, verses: verses,
                                               width: context.terminalWidth, marks: marks, color: color) {
                context.stdout.line(line)
            }
        }
        if let journalFailure { throw journalFailure }
    }

    /// Joins the words of a reference given as several arguments ("John" "3:16") and parses it.
    /// Refuses a passage of more than `maxVerses` verses, with the limit named.
    static func checkSize(_ reference: Reference) throws {
        guard reference.verseCount(upTo: maxVerses) <= maxVerses else {
            throw Failure.usage("a passage to print can be at most \(maxVerses) verses (the whole Bible, once); ask for less")
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

    static func parseReference(_ words: [String], command: String) throws -> Reference {
        guard !words.isEmpty else { throw Failure.usage("\(command) needs a reference, like 'manna \(command) John 3:16'") }
        return try Reference(parsing: words.joined(separator: " "))
    }

    /// The reference in `text`. A verse number that is not in KJV numbering but that other
    /// editions use is still refused, with where its text is here: "Romans 14 has only 23
    /// verses; the WEB's Romans 14:24 is Romans 16:25 here".
    static func parse(_ text: String, in database: TextDatabase) throws -> Reference {
        let parsed = Result { () throws(ReferenceError) in try Reference(parsing: text) }
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
        let whose = places.count == database.translations.count ? "in other editions" : "in the " + places.map(\.translation).joined(separator: " and the ")
        return "; \(Reference(asked)) \(whose) is \(Reference(at)) here"
    }
}

extension JSON {
    /// The stable JSON shape of a passage in one translation:
    /// `{"reference", "translation", "verses": [{"id", "reference", "text" (null when absent)}]}`;
    /// a psalm's title comes before its verse 1 as `{"id" (verse 0), "reference": "Psalm 3 (title)",
    /// "title": true, "text"}`;
    /// with `marks`, each verse also has `"highlight"` (a colour or null), `"bookmarked"` and
    /// `"notes": [{"id", "reference", "text"}]` (the notes whose passage starts at the verse).
    static func passage(_ reference: Reference, translation: Translation, verses: [PassageVerse], marks: PassageMarks? = nil) -> JSON {
        .object([
            ("reference", .string(reference.description)),
            ("translation", .string(translation.code)),
            ("verses", .array(verses.map { verse in
                var fields: [(String, JSON)] = [
                    ("id", .int(verse.id.rawValue)),
                    ("reference", .string(Reference.label(of: verse.id))),
                ]
                if verse.isTitle { fields.append(("title", .bool(true))) }
                fields.append(("text", .optional(verse.text)))
                if let note = PassageFormatter.note(on: verse) { fields.append(("note", .string(note))) }
                if let verseMarks = marks?[verse.id] {
                    fields += [
                        ("highlight", .optional(verseMarks.highlight?.rawValue)),
                        ("bookmarked", .bool(verseMarks.bookmarked)),
                        ("notes", .array(verseMarks.notes.map { note in
                            .object([("id", .string(note.shortID)), ("reference", .string(note.reference.description)), ("text", .string(note.text))])
                        })),
                    ]
                }
                return .object(fields)
            })),
        ])
    }
}
