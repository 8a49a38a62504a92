// manna read REF... [--translation T] [--json]: a passage with verse numbers, and the user's
// highlights, bookmarks and notes on it.
import MannaKit

enum ReadCommand {
    static let spec = CommandSpec(
        name: "read",
        usage: "manna read REF... [--translation T] [--json]",
        abstract: "Print a passage: manna read John 3:16, manna read Ps 23, manna read Gen 1:1-2:3",
        options: [
            Options.translation,
            Options.json.help("print JSON: reference, translation and verses (id, reference, text or null, highlight, bookmarked, notes)"),
        ],
        operand: .reference,
        pages: true,
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: Context) throws {
        let words = arguments.positionals == ["-"] ? [try StandardInput.text(tr("the reference"))] : arguments.positionals
        guard !words.isEmpty else { throw Failure.usage(tr("read needs a reference, like 'manna read John 3:16'")) }
        let database = try context.openTextDatabase()
        let (reference, translation) = try PassageInput.typed(words, command: "read", option: arguments.value(Options.translation, context), in: database, context)
        try PassageInput.checkSize(reference)
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
        if arguments.has(Options.json) {
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
