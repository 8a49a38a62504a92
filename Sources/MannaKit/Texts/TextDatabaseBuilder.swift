// Builds bible.sqlite and its search index, bible-search.sqlite, from curated/: the translations'
// TSV files, checked against the canon.
#if canImport(Glibc)
import Glibc
#endif

/// Turns `curated/translations/` into a text database and its search index. Same input, same
/// content.
public enum TextDatabaseBuilder {
    /// The text database's schema. Comments inside the statements stay in the file, so
    /// `.schema` explains it to any other program that reads the database.
    static let schema = """
        CREATE TABLE translations (
            code TEXT PRIMARY KEY,          -- KJV, ... (translations.tsv)
            position INTEGER NOT NULL UNIQUE, -- display order, 1-based
            name TEXT NOT NULL,
            year INTEGER NOT NULL,
            licence TEXT NOT NULL,
            source TEXT NOT NULL,
            verses INTEGER NOT NULL,        -- verses it has (psalm titles not counted)
            language TEXT NOT NULL,         -- BCP 47: en, es (languages.tsv)
            voice TEXT                      -- espeak-ng; NULL: the language's
        );
        CREATE TABLE books (
            number INTEGER PRIMARY KEY,     -- 1 Genesis .. 66 Revelation
            osis TEXT NOT NULL UNIQUE,
            name TEXT NOT NULL,
            abbreviations TEXT NOT NULL,    -- comma-separated, as people type them
            chapters INTEGER NOT NULL,
            verse_counts TEXT NOT NULL      -- comma-separated verses per chapter, KJV numbering
        );
        CREATE TABLE verses (
            translation TEXT NOT NULL,
            id INTEGER NOT NULL,            -- book*1000000 + chapter*1000 + verse, KJV numbering;
                                            -- verse 0 is a psalm's title (superscription)
            text TEXT NOT NULL,             -- a verse a translation lacks has no row
            PRIMARY KEY (translation, id)
        ) WITHOUT ROWID;
        CREATE TABLE daily_verses (
            position INTEGER PRIMARY KEY,   -- 1..366 in a leap year: Jan 1 = 1, Feb 29 = 60, Dec 31 = 366
            reference TEXT NOT NULL         -- canonical reference; every verse is in every translation
        );
        CREATE TABLE absences (
            translation TEXT NOT NULL,
            asked INTEGER NOT NULL,         -- a verse id people ask for, in KJV numbering or not
            at INTEGER,                     -- where its text is here; NULL: lost by the source
            PRIMARY KEY (translation, asked)
        ) WITHOUT ROWID;
        CREATE TABLE plans (
            id TEXT PRIMARY KEY,            -- bible-in-a-year, nt-90, ...
            json TEXT NOT NULL              -- the plan file, format documented in curated/plans/README.md
        );
        """

    /// The search index's schema, beside one full-text table a translation
    /// (`searchTableSchema`): what search reads besides the index itself.
    static let searchSchema = """
        CREATE TABLE verse_lengths (
            translation TEXT PRIMARY KEY,
            lengths BLOB NOT NULL           -- words in each verse, a byte a slot: canonical order,
                                            -- verse 0 of each chapter included (search's bm25)
        );
        CREATE TABLE search_champions (
            translation TEXT NOT NULL,
            word TEXT NOT NULL,             -- a token of the index that over 500 verses hold whole
            verses BLOB NOT NULL,           -- the 100 verses a search for the lone word ranks first,
                                            -- best first: verse ids, 4-byte little-endian
            PRIMARY KEY (translation, word)
        ) WITHOUT ROWID;
        """

    /// How the index cuts text into words: case and diacritics folded away.
    static let searchTokenizer = (name: "unicode61", arguments: ["remove_diacritics", "2"])

    /// One full-text index per translation, so that bm25's statistics are the translation's own
    /// and a query reads a quarter of the postings (docs/ARCHITECTURE.md, "Search").
    static func searchTableSchema(_ table: String) -> String {
        """
        CREATE VIRTUAL TABLE \(table) USING fts5(
            text,                           -- rowid = verse id, so a book is a rowid range
            tokenize = '\(([searchTokenizer.name] + searchTokenizer.arguments).joined(separator: " "))',
            prefix = '1 2 3 4'              -- every word is a prefix match: index short prefixes
        );
        """
    }

    /// Builds the database at `outputPath`, and its search index beside it
    /// (`TextDatabaseLocator.searchIndexPath`), from `curatedDirectory`, replacing the files
    /// there only once the new ones are complete (each written beside its place, then renamed:
    /// the index first, so a database is never newer than the index beside it).
    ///
    /// - Parameter progress: receives one line per step, for stderr.
    public static func build(curatedDirectory: String, outputPath: String,
                             progress: (String) -> Void) throws(TextDatabaseError) {
        let translationsDirectory = curatedDirectory + "/translations"
        let rows = try readTSV(translationsDirectory + "/translations.tsv",
                               header: ["code", "name", "year", "licence", "source", "language", "voice"])
        let indexPath = TextDatabaseLocator.searchIndexPath(of: outputPath)
        // Made exclusively beside the outputs, as every file Manna writes (Files.createTemporary);
        // SQLite fills the empty files.
        func temporary(beside path: String) throws(TextDatabaseError) -> String {
            do {
                let (made, descriptor) = try Files.createTemporary(beside: path, mode: 0o644)
                close(descriptor)
                return made
            } catch {
                throw .unreadable(path: path, reason: error.reason)
            }
        }
        let temporaryDatabase = try temporary(beside: outputPath)
        defer { unlink(temporaryDatabase) }
        let temporaryIndex = try temporary(beside: indexPath)
        defer { unlink(temporaryIndex) }
        do {
            let database = try Database(path: temporaryDatabase, mode: .readWriteCreate)
            let index = try Database(path: temporaryIndex, mode: .readWriteCreate)
            // A half-built file is thrown away, never used, so it needs no journal.
            for made in [database, index] {
                try made.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA user_version = \(TextDatabase.schemaVersion);")
            }
            try database.transaction {
                try index.transaction {
                    try database.execute(schema)
                    try index.execute(searchSchema)
                    try insertBooks(into: database)
                    for (position, row) in rows.enumerated() {
                        let code = row.fields[0]
                        guard !code.isEmpty, code.utf8.allSatisfy({ (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) }) else {
                            throw TextDatabaseError.badSource(file: row.file, line: row.line, problem: "translation code '\(code)' must be capital letters and digits")
                        }
                        guard let year = Int(row.fields[2]) else {
                            throw TextDatabaseError.badSource(file: row.file, line: row.line, problem: "year '\(row.fields[2])' is not a number")
                        }
                        guard Language.named(row.fields[5]) != nil else {
                            throw TextDatabaseError.badSource(file: row.file, line: row.line, problem: "language '\(row.fields[5])' is not one of "
                                + "curated/languages.tsv (\(Language.codes.joined(separator: ", "))): add its row there first")
                        }
                        let count = try insertVerses(code: code, file: translationsDirectory + "/\(code).tsv",
                                                     titles: translationsDirectory + "/titles/\(code).tsv", into: database, index: index)
                        let statement = try database.prepare("INSERT INTO translations VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)")
                        try statement.bind(code, at: 1)
                        try statement.bind(position + 1, at: 2)
                        try statement.bind(row.fields[1], at: 3)
                        try statement.bind(year, at: 4)
                        try statement.bind(row.fields[3], at: 5)
                        try statement.bind(row.fields[4], at: 6)
                        try statement.bind(count, at: 7)
                        try statement.bind(row.fields[5], at: 8)
                        try statement.bind(row.fields[6].isEmpty ? nil : row.fields[6], at: 9)
                        try statement.run()
                        progress("\(code): \(count) verses")
                    }
                    try insertAbsences(from: translationsDirectory, into: database)
                    let days = try insertDailyVerses(from: curatedDirectory + "/daily-verses.tsv", codes: rows.map { $0.fields[0] }, into: database)
                    progress("verse of the day: \(days) days")
                    let plans = try insertPlans(from: curatedDirectory + "/plans", into: database)
                    progress("reading plans: \(plans.joined(separator: ", "))")
                }
            }
        } catch let error as TextDatabaseError {
            throw error
        } catch {
            throw .unreadable(path: outputPath, reason: "\(error)")
        }
        do { try Files.moveIntoPlace(temporaryIndex, to: indexPath) } catch { throw .unreadable(path: indexPath, reason: error.reason) }
        do { try Files.moveIntoPlace(temporaryDatabase, to: outputPath) } catch { throw .unreadable(path: outputPath, reason: error.reason) }
    }

    private static func insertBooks(into database: Database) throws {
        let statement = try database.prepare("INSERT INTO books VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
        for book in Canon.books {
            try statement.reset()
            try statement.bind(book.number, at: 1)
            try statement.bind(book.osis, at: 2)
            try statement.bind(book.name, at: 3)
            try statement.bind(book.abbreviations.joined(separator: ","), at: 4)
            try statement.bind(book.chapterCount, at: 5)
            try statement.bind(Canon.verseCounts[book.number - 1].map(String.init).joined(separator: ","), at: 6)
            try statement.run()
        }
    }

    /// Inserts one translation's verses, checking each line: a known book, a verse that exists
    /// in KJV numbering, canonical order, and text. Then its psalm titles, as verse 0, when
    /// `titles` exists; then the length of every verse, for search. Each verse goes into the
    /// database's `verses` and the search index's full-text table. Returns the verses (titles
    /// are not verses).
    private static func insertVerses(code: String, file: String, titles: String, into database: Database, index searchIndex: Database) throws -> Int {
        let table = "verses_fts_" + code.lowercased()
        try searchIndex.execute(searchTableSchema(table))
        // The translation's index is built in memory and written once ('hashsize' larger than
        // it), with no merging of segments along the way ('automerge' off): a third of the
        // time FTS5 took to index, flushing every megabyte and merging as it went.
        try searchIndex.execute("""
            INSERT INTO \(table)(\(table), rank) VALUES ('automerge', 0);
            INSERT INTO \(table)(\(table), rank) VALUES ('hashsize', 268435456);
            """)
        let osisNumbers = Dictionary(uniqueKeysWithValues: Canon.books.map { ($0.osis, $0.number) })
        let verse = try database.prepare("INSERT INTO verses VALUES (?1, ?2, ?3)")
        let index = try searchIndex.prepare("INSERT INTO \(table)(rowid, text) VALUES (?1, ?2)")
        func insert(_ id: VerseID, _ text: String) throws {
            try verse.reset()
            try verse.bind(code, at: 1)
            try verse.bind(id.rawValue, at: 2)
            try verse.bind(text, at: 3)
            try verse.run()
            try index.reset()
            try index.bind(id.rawValue, at: 1)
            try index.bind(text, at: 2)
            try index.run()
        }
        var previous = 0
        var count = 0
        for row in try readTSV(file, header: ["book", "chapter", "verse", "text"]) {
            func bad(_ problem: String) -> TextDatabaseError { .badSource(file: row.file, line: row.line, problem: problem) }
            let fields = row.fields
            guard let book = osisNumbers[fields[0]] else { throw bad("unknown book '\(fields[0])'") }
            guard let chapter = Int(fields[1]), let verseNumber = Int(fields[2]), chapter < 1000, verseNumber < 1000 else {
                throw bad("chapter and verse must be numbers")
            }
            let id = VerseID(book: book, chapter: chapter, verse: verseNumber)
            guard id.isValid else { throw bad("\(fields[0]) \(chapter):\(verseNumber) is not a verse in KJV numbering") }
            guard id.rawValue > previous else { throw bad("verses out of canonical order or repeated") }
            guard !fields[3].isEmpty else { throw bad("empty text: leave out a verse the translation lacks") }
            previous = id.rawValue
            try insert(id, fields[3])
            count += 1
        }
        if Files.exists(titles) {
            previous = 0
            for row in try readTSV(titles, header: ["book", "chapter", "text"]) {
                func bad(_ problem: String) -> TextDatabaseError { .badSource(file: row.file, line: row.line, problem: problem) }
                guard row.fields[0] == "Ps" else { throw bad("only psalms have titles, not '\(row.fields[0])'") }
                guard let chapter = Int(row.fields[1]), chapter >= 1, chapter <= 150 else { throw bad("psalm must be a number from 1 to 150") }
                let id = VerseID(book: 19, chapter: chapter, verse: 0)
                guard id.rawValue > previous else { throw bad("titles out of order or repeated") }
                guard !row.fields[2].isEmpty else { throw bad("empty title: leave out a psalm without one") }
                previous = id.rawValue
                try insert(id, row.fields[2])
            }
        }
        // Flush the index as one segment: smaller, and faster to query.
        try searchIndex.execute("INSERT INTO \(table)(\(table)) VALUES ('optimize')")
        let lengths = try insertLengths(code: code, table: table, into: searchIndex)
        try SearchChampions.insert(code: code, table: table, lengths: lengths, into: searchIndex)
        return count
    }

    /// Keeps the word count FTS5 recorded for each row (its docsize table: one varint a
    /// column) as a byte a verse slot, so that search never looks a row's length up.
    private static func insertLengths(code: String, table: String, into database: Database) throws -> VerseLengths {
        var lengths = [UInt8](repeating: 0, count: VerseLengths.slotCount)
        let sizes = try database.prepare("SELECT id, sz FROM \(table)_docsize")
        while try sizes.step() {
            guard let slot = VerseLengths.slot(of: sizes.int(0)) else { continue }
            var words = 0
            for byte in sizes.bytes(1) {
                words = words << 7 | Int(byte & 0x7f)
                if byte & 0x80 == 0 { break }
            }
            lengths[slot] = UInt8(min(max(words, 1), 255))
        }
        let insert = try database.prepare("INSERT INTO verse_lengths VALUES (?1, ?2)")
        try insert.bind(code, at: 1)
        try insert.bind(lengths, at: 2)
        try insert.run()
        return VerseLengths(bytes: lengths)
    }

    /// The verses a translation does not have where people look: `relocated.tsv` (a number
    /// other editions give, and where its text is here) and `lost.tsv` (verses of the
    /// translation its only source here lost). Both are optional.
    private static func insertAbsences(from directory: String, into database: Database) throws {
        let insert = try database.prepare("INSERT INTO absences VALUES (?1, ?2, ?3)")
        let osisNumbers = Dictionary(uniqueKeysWithValues: Canon.books.map { ($0.osis, $0.number) })
        for (name, header) in [("relocated.tsv", ["translation", "verse", "at", "note"]), ("lost.tsv", ["translation", "verse", "note"])] {
            let file = directory + "/" + name
            guard Files.exists(file) else { continue }
            for row in try readTSV(file, header: header) {
                func id(_ osis: String) throws(TextDatabaseError) -> Int {
                    let parts = osis.split(separator: ".")
                    guard parts.count == 3, let book = osisNumbers[String(parts[0])], let chapter = Int(parts[1]), let verse = Int(parts[2]),
                          chapter >= 1, chapter < 1000, verse >= 1, verse < 1000 else {
                        throw .badSource(file: row.file, line: row.line, problem: "'\(osis)' is not an OSIS verse like Rom.16.25")
                    }
                    return VerseID(book: book, chapter: chapter, verse: verse).rawValue
                }
                try insert.reset()
                try insert.bind(row.fields[0], at: 1)
                try insert.bind(try id(row.fields[1]), at: 2)
                if header.count == 4 {
                    let at = try id(row.fields[2])
                    guard VerseID(rawValue: at).isValid else { throw TextDatabaseError.badSource(file: row.file, line: row.line, problem: "'\(row.fields[2])' is not a verse in KJV numbering") }
                    try insert.bind(at, at: 3)
                } else {
                    try insert.bindNull(at: 3)
                }
                try insert.run()
            }
        }
    }

    /// The verse-of-the-day list: 366 rows, a canonical reference each, every verse present in
    /// every translation (a notification must never come without its text).
    private static func insertDailyVerses(from file: String, codes: [String], into database: Database) throws -> Int {
        let rows = try readTSV(file, header: ["day", "date", "reference"])
        guard rows.count == 366 else { throw TextDatabaseError.badSource(file: file, line: 1, problem: "expected 366 days, found \(rows.count)") }
        let insert = try database.prepare("INSERT INTO daily_verses VALUES (?1, ?2)")
        let present = try database.prepare("SELECT count(*) FROM verses WHERE translation = ?1 AND id BETWEEN ?2 AND ?3 AND id % 1000 > 0")
        for (index, row) in rows.enumerated() {
            func bad(_ problem: String) -> TextDatabaseError { .badSource(file: row.file, line: row.line, problem: problem) }
            guard Int(row.fields[0]) == index + 1 else { throw bad("day must be \(index + 1)") }
            let reference: Reference
            do { reference = try Reference(parsing: row.fields[2]) } catch { throw bad(error.message) }
            for code in codes {
                for range in reference.ranges {
                    try present.reset()
                    try present.bind(code, at: 1)
                    try present.bind(range.first.rawValue, at: 2)
                    try present.bind(range.last.rawValue, at: 3)
                    _ = try present.step()
                    guard present.int(0) == range.verseIDs.count else { throw bad("\(reference) is not whole in the \(code)") }
                }
            }
            try insert.reset()
            try insert.bind(index + 1, at: 1)
            try insert.bind(reference.description, at: 2)
            try insert.run()
        }
        return rows.count
    }

    /// The shipped reading plans, each checked as a user's plan would be.
    private static func insertPlans(from directory: String, into database: Database) throws -> [String] {
        let insert = try database.prepare("INSERT INTO plans VALUES (?1, ?2)")
        var ids: [String] = []
        for file in Files.list(directory).filter({ $0.hasSuffix(".json") }).sorted() {
            let path = directory + "/" + file
            let text: String
            do { text = try Files.readText(path) ?? "" } catch { throw TextDatabaseError.unreadable(path: path, reason: error.reason) }
            let plan: Plan
            do { plan = try Plan(json: text, file: path) } catch { throw TextDatabaseError.badSource(file: path, line: 1, problem: error.message) }
            try insert.reset()
            try insert.bind(plan.id, at: 1)
            try insert.bind(text, at: 2)
            try insert.run()
            ids.append(plan.id)
        }
        return ids
    }

    struct Row {
        let file: String
        let line: Int
        let fields: [String]
    }

    /// Reads a tab-separated file whose first line is `header`; every row must have as many fields.
    static func readTSV(_ file: String, header: [String]) throws(TextDatabaseError) -> [Row] {
        let contents: String?
        do { contents = try Files.readText(file) } catch { throw .unreadable(path: file, reason: error.reason) }
        guard let text = contents else { throw .unreadable(path: file, reason: "no such file") }
        var rows: [Row] = []
        var lineNumber = 0
        // Split as UTF-8 bytes: newline and tab are single bytes that no other character's
        // encoding contains, and splitting Characters (grapheme clusters) cost a fifth of the build.
        for line in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            if line.isEmpty { continue }
            let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false).map { String(Substring($0)) }
            if lineNumber == 1 {
                guard fields == header else {
                    throw .badSource(file: file, line: 1, problem: "header must be '\(header.joined(separator: "\\t"))'")
                }
                continue
            }
            guard fields.count == header.count else {
                throw .badSource(file: file, line: lineNumber, problem: "expected \(header.count) tab-separated fields, found \(fields.count)")
            }
            rows.append(Row(file: file, line: lineNumber, fields: fields))
        }
        return rows
    }
}
