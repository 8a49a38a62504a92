// manna read REF... [--translation T] [--json]: a passage with verse numbers.
import MannaKit

enum ReadCommand {
    static let spec = CommandSpec(
        name: "read",
        usage: "manna read REF... [--translation T] [--json]",
        abstract: "Print a passage: manna read John 3:16, manna read Ps 23, manna read Gen 1:1-2:3",
        valueOptions: ["translation": "KJV, ASV, WBS or WEB (default: $MANNA_TRANSLATION, else KJV)"],
        flags: ["json": "print JSON: reference, translation and verses (id, reference, text or null)"],
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: Context) throws(Failure) {
        let reference = try parseReference(arguments.positionals, command: "read")
        let database = try context.openTextDatabase()
        let translation = try context.translation(arguments.value("translation"), in: database)
        let verses: [PassageVerse]
        do { verses = try database.passage(reference, in: translation) } catch { throw Failure(error) }
        if arguments.has("json") {
            context.json(PassageJSON(reference: reference, translation: translation, verses: verses))
        } else {
            for line in PassageFormatter.lines(reference: reference, translation: translation.code, verses: verses, width: context.terminalWidth) {
                context.stdout.line(line)
            }
        }
    }

    /// Joins the words of a reference given as several arguments ("John" "3:16") and parses it.
    static func parseReference(_ words: [String], command: String) throws(Failure) -> Reference {
        guard !words.isEmpty else { throw .usage("\(command) needs a reference, like 'manna \(command) John 3:16'") }
        do { return try Reference(parsing: words.joined(separator: " ")) } catch { throw Failure(error) }
    }
}

/// The stable JSON shape of a passage in one translation.
struct PassageJSON: Encodable {
    struct Verse: Encodable {
        let id: Int
        let reference: String
        /// null when the translation lacks the verse.
        let text: String?

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(reference, forKey: .reference)
            try container.encode(text, forKey: .text)
        }

        enum CodingKeys: String, CodingKey { case id, reference, text }
    }

    let reference: String
    let translation: String
    let verses: [Verse]

    init(reference: Reference, translation: Translation, verses: [PassageVerse]) {
        self.reference = reference.description
        self.translation = translation.code
        self.verses = verses.map {
            Verse(id: $0.id.rawValue, reference: Reference(VerseRange(first: $0.id, last: $0.id)).description, text: $0.text)
        }
    }
}
