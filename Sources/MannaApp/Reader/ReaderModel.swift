// What the reader window (manna-reader) shows and remembers, without the window: the chapter
// and translation, a reference typed as the command line takes it, back and forward, where the
// reader was last, the verse of the day. The GTK layer only draws this, so its rules are
// tested in-process (ReaderModelTests) like every command's.
import MannaKit

/// A chapter in a translation: where the reader is, or was.
public struct ReaderPlace: Equatable, Sendable {
    public let translation: String
    /// The verse asked for (John 3:16), or the chapter's first verse.
    public let verse: VerseID

    public init(translation: String, verse: VerseID) {
        self.translation = translation
        self.verse = verse
    }

    /// The chapter's verse 1.
    public var chapter: VerseID { VerseID(book: verse.book, chapter: verse.chapter, verse: 1) }

    /// `TRANSLATION VERSE_ID`, the file `Paths.readerPlace` holds.
    var line: String { "\(translation) \(verse.rawValue)" }

    /// The place in `line`, or nil when it is not one (a damaged or foreign file is ignored:
    /// the reader opens at the start instead).
    init?(line: String) {
        let words = line.split(separator: " ")
        guard words.count == 2, let raw = Int(words[1]) else { return nil }
        let verse = VerseID(rawValue: raw)
        guard verse.isValid || verse.verse == 0 && VerseID(book: verse.book, chapter: verse.chapter, verse: 1).isValid else { return nil }
        self.init(translation: String(words[0]), verse: verse)
    }
}

/// One verse of a chapter in the translation shown and in the one beside it (nil where that
/// translation has no such line: a psalm title only one of them has).
public struct ParallelVerse: Equatable, Sendable {
    public let first: PassageVerse?
    public let second: PassageVerse?

    /// `first` and `second` (a chapter each, in the canon's numbering) paired by verse, in order.
    static func pairs(_ first: [PassageVerse], _ second: [PassageVerse]) -> [ParallelVerse] {
        var pairs: [ParallelVerse] = []
        var (i, j) = (0, 0)
        while i < first.count || j < second.count {
            let left = i < first.count ? first[i].id.rawValue : Int.max
            let right = j < second.count ? second[j].id.rawValue : Int.max
            pairs.append(ParallelVerse(first: left <= right ? first[i] : nil, second: right <= left ? second[j] : nil))
            if left <= right { i += 1 }
            if right <= left { j += 1 }
        }
        return pairs
    }
}

/// What a delete in the window took away, for its Undo to bring back.
public enum DeletedMarks: Equatable, Sendable {
    case highlights([Highlight])
    case bookmarks([Bookmark])
    case note(Note)

    /// What the toast after the delete says.
    public var message: String {
        switch self {
        case .highlights(let highlights): highlights.count == 1 ? "Highlight removed" : "\(highlights.count) highlights removed"
        case .bookmarks(let bookmarks): bookmarks.count == 1 ? "Bookmark removed" : "\(bookmarks.count) bookmarks removed"
        case .note: "Note deleted"
        }
    }
}

/// The reader's state and its rules.
public final class ReaderModel {
    public let database: TextDatabase
    private let context: Context
    public private(set) var place: ReaderPlace
    private var back: [ReaderPlace] = []
    private var forward: [ReaderPlace] = []

    /// Opens the text database and the place the reader was last (`Paths.readerPlace`), else
    /// Genesis 1 in the user's translation (`--translation`'s default: MANNA_TRANSLATION, the
    /// config, KJV). A saved translation this database no longer has is replaced by the default.
    public init(context: Context) throws {
        self.context = context
        database = try context.openTextDatabase()
        let standard = try context.translation(nil, in: database)
        let saved = (try? Files.readFirstLine(context.paths.readerPlace)).flatMap { $0.flatMap(ReaderPlace.init(line:)) }
        if let saved, database.translations.contains(where: { $0.code == saved.translation }) {
            place = saved
        } else {
            place = ReaderPlace(translation: standard.code, verse: saved?.verse ?? VerseID(book: 1, chapter: 1, verse: 1))
        }
    }

    public var translation: Translation { database.translations.first { $0.code == place.translation } ?? database.translations[0] }

    /// The translation shown beside the first, verse by verse; nil: none. It stays as the
    /// reader moves, and is not part of the history.
    public private(set) var beside: Translation?

    /// Shows `code` beside the translation shown, or nothing beside it (nil).
    /// - Throws: `manna read`'s error for a translation the database does not have.
    public func show(beside code: String?) throws {
        beside = try code.map { try database.translation(code: $0) }
    }

    /// The chapter in the translation shown and the one beside it, verse by verse (both
    /// numbered as the canon is, so each verse meets its own); nil with none beside.
    public func parallelVerses() throws -> [ParallelVerse]? {
        guard let beside else { return nil }
        return ParallelVerse.pairs(try verses(), try database.passage(chapter, in: beside, titles: true))
    }

    /// "John 3", in the translation's language.
    public var title: String { chapter.label(in: translation.language) }

    /// The chapter shown, its psalm title (verse 0) first.
    public func verses() throws -> [PassageVerse] {
        try database.passage(chapter, in: translation, titles: true)
    }

    /// The whole chapter the place is in.
    private var chapter: Reference {
        let first = place.chapter
        let count = Canon.book(number: first.book)?.verseCount(chapter: first.chapter) ?? 1
        return Reference(VerseRange(first: first, last: VerseID(book: first.book, chapter: first.chapter, verse: count)))
    }

    /// Goes to a reference typed as the command line takes it ("John 3", "Jn 3:16", "Ps 23 WEB":
    /// a translation after it switches to it), the same parser `manna read` uses.
    /// - Throws: the error `manna read` would print for it (a `UserError`).
    public func go(to typed: String) throws {
        let (text, written) = PassageInput.trailingTranslation(typed, in: database)
        let code = try written.map { try database.translation(code: $0).code } ?? place.translation
        // Read as in the translation it will show in ("Mt 5, 3" is chapter and verse in Spanish).
        let (reference, _) = try PassageInput.parse(text, in: database, language: try database.translation(code: code).language)
        move(to: ReaderPlace(translation: code, verse: reference.ranges[0].first))
    }

    /// Goes to chapter `chapter` of book `book` (1-66).
    public func go(book: Int, chapter: Int) {
        move(to: ReaderPlace(translation: place.translation, verse: VerseID(book: book, chapter: chapter, verse: 1)))
    }

    /// Shows the same chapter in the translation `code`.
    public func switchTranslation(to code: String) throws {
        let translation = try database.translation(code: code)
        guard translation.code != place.translation else { return }
        move(to: ReaderPlace(translation: translation.code, verse: place.verse))
    }

    public var canGoBack: Bool { !back.isEmpty }
    public var canGoForward: Bool { !forward.isEmpty }

    /// Returns to the place before the last move; false when there is none.
    @discardableResult
    public func goBack() -> Bool { retrace(from: &back, keepingIn: &forward) }

    /// Undoes the last `goBack`; false when there is nothing to go forward to.
    @discardableResult
    public func goForward() -> Bool { retrace(from: &forward, keepingIn: &back) }

    /// Goes to the last place of `history`, keeping the place shown in `other` to come back by.
    private func retrace(from history: inout [ReaderPlace], keepingIn other: inout [ReaderPlace]) -> Bool {
        guard let last = history.popLast() else { return false }
        other.append(place)
        settle(at: last)
        return true
    }

    /// The verse of the day for today's local date, in the translation shown.
    public func verseOfTheDay() throws -> DailyVerse {
        let today = try context.zone().local(context.clock.now()).date
        return try context.dailyVerse(for: today, translation: place.translation)
    }

    /// Goes to the verse of the day's chapter, in the translation shown.
    public func goToVerseOfTheDay() throws {
        move(to: ReaderPlace(translation: place.translation, verse: try verseOfTheDay().id))
    }

    // MARK: - Search

    /// The verses of the translation shown that match `typed`, read as `manna search` reads a
    /// query: the best `limit`, best first, and how many match in all; nil while nothing but
    /// spaces is typed.
    /// - Throws: `manna search`'s error for a query it refuses (too long, too many words).
    public func search(_ typed: String, limit: Int = 50) throws -> SearchResults? {
        guard typed.contains(where: { !$0.isWhitespace }) else { return nil }
        return try database.search(SearchQuery(parsing: typed), in: translation, limit: limit)
    }

    /// Goes to verse `id`'s chapter, at it (a search result chosen).
    public func go(toVerse id: VerseID) {
        move(to: ReaderPlace(translation: place.translation, verse: id))
    }

    // MARK: - Marks: through the journal, as `manna highlight`, `bookmark` and `note` make them

    /// The chapter's highlights, bookmarks and notes (none before the journal exists: reading
    /// creates nothing).
    public func marks() throws -> PassageMarks {
        try context.existingJournal()?.marks(on: chapter) ?? PassageMarks()
    }

    /// The passage from the first of `verses` to the last (they are the chapter's).
    private func passage(_ verses: [VerseID]) -> Reference {
        Reference(VerseRange(first: verses.min() ?? place.verse, last: verses.max() ?? place.verse))
    }

    /// Highlights each of `verses` in `color` (a verse highlighted already changes colour).
    public func highlight(_ verses: [VerseID], color: HighlightColor) throws {
        _ = try context.journal().highlight(passage(verses), color: color, at: context.clock.now())
    }

    /// Takes the highlights off `verses`; what it took, for `undo`, or nil when there was none.
    public func removeHighlights(from verses: [VerseID]) throws -> DeletedMarks? {
        guard let journal = try context.existingJournal() else { return nil }
        let now = context.clock.now()
        let deleted = try journal.highlights(in: passage(verses)).map { try journal.deleteHighlight(id: $0.uuid, at: now) }
        return deleted.isEmpty ? nil : .highlights(deleted)
    }

    /// Bookmarks `verses` as one passage, or, where one of them is bookmarked already, takes
    /// those bookmarks away: a toggle, as a bookmark button is. Returns what it took away, for
    /// `undo` (nil when it bookmarked).
    public func toggleBookmark(on verses: [VerseID]) throws -> DeletedMarks? {
        let journal = try context.journal()
        let now = context.clock.now()
        let found = try journal.bookmarks(in: passage(verses))
        guard found.isEmpty else { return .bookmarks(try found.map { try journal.deleteBookmark(id: $0.uuid, at: now) }) }
        _ = try journal.bookmark(passage(verses), at: now)
        return nil
    }

    /// The notes found at `verses`, oldest first: the one the window edits is the first.
    public func notes(on verses: [VerseID]) throws -> [Note] {
        try context.existingJournal()?.notes(in: passage(verses)) ?? []
    }

    /// Writes a note on `verses` (as one passage), or, with `id`, changes that note's text.
    /// - Throws: `manna note`'s error for an empty or too long text.
    public func writeNote(_ text: String, on verses: [VerseID], id: String? = nil) throws {
        let journal = try context.journal()
        if let id {
            _ = try journal.editNote(id: id, text: text, at: context.clock.now())
        } else {
            _ = try journal.addNote(text, on: passage(verses), at: context.clock.now())
        }
    }

    /// Deletes the note `id`: it becomes a tombstone, its text kept, which `undo` brings back.
    public func deleteNote(id: String) throws -> DeletedMarks {
        .note(try context.journal().deleteNote(id: id, at: context.clock.now()))
    }

    /// Brings back what a delete took away.
    public func undo(_ deleted: DeletedMarks) throws {
        let journal = try context.journal()
        let now = context.clock.now()
        switch deleted {
        case .highlights(let highlights): for highlight in highlights { _ = try journal.restoreHighlight(id: highlight.uuid, at: now) }
        case .bookmarks(let bookmarks): for bookmark in bookmarks { _ = try journal.restoreBookmark(id: bookmark.uuid, at: now) }
        case .note(let note): _ = try journal.restoreNote(id: note.uuid, at: now)
        }
    }

    /// Manna's version, for the About window.
    public static var version: String { Manna.version }

    /// What the user is told of `error` (one line, as the command line's edge says it) and its
    /// sysexits status.
    public static func report(_ error: any Error) -> (message: String, status: Int32) {
        let (message, status) = Manna.report(error)
        return (Manna.oneLine(message), status.rawValue)
    }

    /// A new place, remembered for Back; going anywhere new forgets Forward, as a browser does.
    private func move(to next: ReaderPlace) {
        guard next != place else { return }
        back.append(place)
        forward.removeAll()
        settle(at: next)
    }

    /// Shows `next` and keeps it as where to open next time. A place that cannot be saved (a
    /// read-only cache) is not worth an error: the reader then opens at the start.
    private func settle(at next: ReaderPlace) {
        place = next
        let path = context.paths.readerPlace
        if (try? Files.makeDirectories(context.paths.cacheDirectory)) != nil {
            try? Files.writeAtomically(next.line + "\n", to: path)
        }
    }
}
