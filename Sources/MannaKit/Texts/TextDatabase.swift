// The read-only text database: translations, books and verses; and, in a file of its own beside
// it, the search index. Schema and its build live in TextDatabaseBuilder; this file only reads.

/// A translation Manna can read: a row of `curated/translations/translations.tsv`, the
/// catalogue the text database is built from ("KJV", "RV1909", …).
public struct Translation: Hashable, Sendable, Codable {
    public let code: String
    public let name: String
    public let year: Int
    public let licence: String
    public let source: String
    /// Its language, BCP 47: "en", "es" (a row of `curated/languages.tsv`).
    public let language: String
    /// The espeak-ng voice it is read by when `--voice` names none: its own (the KJV's is
    /// British English), else its language's.
    public let voice: String
    /// Display order: KJV first, then as listed in `curated/translations/translations.tsv`.
    let position: Int

    /// This translation's full-text index: `verses_fts_kjv`, rowid = verse id.
    var searchTable: String { "verses_fts_" + code.lowercased() }
}

/// One verse of a passage in one translation. `text` is nil when the translation lacks the verse.
///
/// Verse 0 of a psalm is its title (superscription): part of the text, never counted as a verse.
public struct PassageVerse: Hashable, Sendable {
    public let id: VerseID
    public let text: String?
    /// True when the verse is the translation's but the only source of it here lost it (the
    /// four Webster verses): not the same as a verse the translation omits.
    public let lostBySource: Bool
    /// For a verse the translation lacks whose words it prints with another verse (the
    /// RV1909's Numbers 13:33 is in its 13:32): that verse.
    public let textIn: VerseID?

    public init(id: VerseID, text: String?, lostBySource: Bool = false, textIn: VerseID? = nil) {
        self.id = id
        self.text = text
        self.lostBySource = lostBySource
        self.textIn = textIn
    }

    /// True for a psalm's title.
    public var isTitle: Bool { id.verse == 0 }
}

/// Why the text database cannot be used.
public enum TextDatabaseError: Error, Equatable, Sendable {
    case notFound(searched: [String])
    case damaged(path: String)
    case wrongVersion(path: String, found: Int)
    case unknownTranslation(String, available: [String])
    case unreadable(path: String, reason: String)
    case badSource(file: String, line: Int, problem: String)
    case searchFailed(query: String)
    case noSearchIndex(path: String)

    public var message: String {
        switch self {
        case .notFound(let searched):
            return tr("no text database found (looked for {paths}); run 'manna install' or run manna from a checkout", ("paths", searched.joined(separator: ", ")))
        case .damaged(let path):
            return tr("the text database {path} is damaged or not a Manna text database; delete it and run 'manna build-db' to rebuild", ("path", path))
        case .wrongVersion(let path, let found):
            return tr("the text database {path} has schema version {found}, this manna reads version {version}; rebuild it with 'manna build-db'",
                      ("path", path), ("found", found), ("version", TextDatabase.schemaVersion))
        case .unknownTranslation(let code, let available):
            return tr("unknown translation '{code}': choose one of {codes}", ("code", code), ("codes", listed(available, conjunction: tr("or"))))
        case .unreadable(let path, let reason):
            return tr("cannot read {path}: {reason}", ("path", path), ("reason", reason))
        case .badSource(let file, let line, let problem):
            return "\(file):\(line): \(problem)"
        case .noSearchIndex(let path):
            return "the search index \(path) is missing; run 'manna build-db' (or reinstall) to make it beside the text database"
        case .searchFailed(let query):
            return tr("the search for '{query}' could not run: this is a fault in manna, please report it with the search", ("query", query))
        }
    }
}

/// The text database, opened read-only and immutable, with its search index attached at the
/// first search.
public final class TextDatabase {
    /// `PRAGMA user_version` of the schema this code reads and builds, in both files.
    public static let schemaVersion = 8

    let database: Database
    public let path: String
    /// The search index beside it (`TextDatabaseLocator.searchIndexPath`).
    public var searchIndexPath: String { TextDatabaseLocator.searchIndexPath(of: path) }
    public let translations: [Translation]
    /// Search's rank function and the verse lengths it reads, made at the first search.
    var searchRanker: SearchRanker?
    /// Whether the search index is attached: from the first search on (`openSearchIndex`).
    var searchIndexOpen = false
    var lengthsByTranslation: [String: VerseLengths] = [:]
    /// Whether a common word's search reads its champion list (`SearchChampions`) rather than
    /// ranking every match; off only in the test that checks the two agree.
    var usesChampions = true
    /// The index's tokenizer, for marking a common word's verses (`markWord`).
    var tokenizer: FTS5Tokenizer?
    private var absencesByTranslation: [String: [Int: Int?]] = [:]

    public init(path: String) throws(TextDatabaseError) {
        self.path = path
        do {
            database = try Database(path: path, mode: .immutable)
            let version = try database.prepare("PRAGMA user_version")
            _ = try version.step()
            guard version.int(0) == TextDatabase.schemaVersion else {
                throw TextDatabaseError.wrongVersion(path: path, found: version.int(0))
            }
            let rows = try database.prepare("SELECT code, name, year, licence, source, language, voice, position FROM translations ORDER BY position")
            var loaded: [Translation] = []
            while try rows.step() {
                let language = try rows.string("language")
                let voice = try rows.string("voice")  // "" for NULL: its language's
                try loaded.append(Translation(code: rows.string("code"), name: rows.string("name"), year: rows.int("year"),
                                              licence: rows.string("licence"), source: rows.string("source"), language: language,
                                              voice: voice.isEmpty ? Language.of(language).voice : voice, position: rows.int("position")))
            }
            translations = loaded
        } catch let error as TextDatabaseError {
            throw error
        } catch {
            throw .damaged(path: path)
        }
    }

    /// The translation with this code, ignoring case.
    public func translation(code: String) throws(TextDatabaseError) -> Translation {
        if let found = translations.first(where: { $0.code.lowercased() == code.lowercased() }) { return found }
        throw .unknownTranslation(code, available: translations.map(\.code))
    }

    /// Every verse of `reference` in order; a verse the translation lacks comes back with nil text.
    ///
    /// - Parameter titles: also a psalm's title, before its verse 1, where the translation has
    ///   one (for reading; a notification or a cue sheet wants verses only).
    public func passage(_ reference: Reference, in translation: Translation, titles: Bool = false) throws(TextDatabaseError) -> [PassageVerse] {
        do {
            return try database.withCachedStatement("SELECT id, text FROM verses WHERE translation = ?1 AND id BETWEEN ?2 AND ?3 ORDER BY id") { statement in
                var verses: [PassageVerse] = []
                for range in reference.ranges {
                    try statement.reset()
                    try statement.bind(translation.code, at: 1)
                    // From verse 0, a psalm's title, when the range starts a chapter.
                    try statement.bind(range.first.rawValue - (range.first.verse == 1 ? 1 : 0), at: 2)
                    try statement.bind(range.last.rawValue, at: 3)
                    // The rows come in verse order, and the verses are asked for in that order:
                    // a cursor finds each (no dictionary, whose first use in a command costs the
                    // Swift runtime a search of the program's conformances).
                    var rows: [(id: Int, text: String)] = []
                    while try statement.step() { rows.append((statement.int(0), statement.string(1))) }
                    var next = 0
                    func row(_ id: Int) -> String? {
                        while next < rows.count && rows[next].id < id { next += 1 }
                        return next < rows.count && rows[next].id == id ? rows[next].text : nil
                    }
                    for id in range.verseIDs {
                        if titles, id.verse == 1, let title = row(id.rawValue - 1) {
                            verses.append(PassageVerse(id: VerseID(rawValue: id.rawValue - 1), text: title))
                        }
                        let text = row(id.rawValue)
                        // A gap: omitted by the translation, lost by its source (no place), or with another verse.
                        let gap: Int?? = text == nil ? try absences(in: translation)[id.rawValue] : nil
                        verses.append(PassageVerse(id: id, text: text, lostBySource: gap == .some(nil),
                                                   textIn: gap.flatMap { $0 }.map { VerseID(rawValue: $0) }))
                    }
                }
                return verses
            }
        } catch {
            throw .damaged(path: path)
        }
    }

    /// The verses `translation` lacks where people look, read at its first gap: each one's
    /// verse id, and where its text is (nil when its source here lost it).
    private func absences(in translation: Translation) throws(SQLiteError) -> [Int: Int?] {
        if let known = absencesByTranslation[translation.code] { return known }
        let statement = try database.prepare("SELECT asked, at FROM absences WHERE translation = ?1")
        try statement.bind(translation.code, at: 1)
        var found: [Int: Int?] = [:]
        while try statement.step() { found[statement.int(0)] = .some(statement.optionalInt(1)) }
        absencesByTranslation[translation.code] = found
        return found
    }

    /// Where each translation has the text of a verse number other editions use (WEB's Romans
    /// 14:24 is Romans 16:25 here): translation code and verse, in display order.
    public func elsewhere(_ asked: VerseID) throws(TextDatabaseError) -> [(translation: String, at: VerseID)] {
        do {
            let statement = try database.prepare("""
                SELECT a.translation, a.at FROM absences a JOIN translations t ON t.code = a.translation
                WHERE a.asked = ?1 AND a.at IS NOT NULL ORDER BY t.position
                """)
            try statement.bind(asked.rawValue, at: 1)
            var found: [(String, VerseID)] = []
            while try statement.step() { found.append((statement.string(0), VerseID(rawValue: statement.int(1)))) }
            return found
        } catch {
            throw .damaged(path: path)
        }
    }

    /// Number of verses each translation has, for checks and `manna doctor`.
    public func verseCount(of translation: Translation) throws(TextDatabaseError) -> Int {
        do {
            let statement = try database.prepare("SELECT count(*) FROM verses WHERE translation = ?1 AND id % 1000 > 0")
            try statement.bind(translation.code, at: 1)
            _ = try statement.step()
            return statement.int(0)
        } catch {
            throw .damaged(path: path)
        }
    }
}
