// Notes, highlights and bookmarks in the journal: add, list, delete (a tombstone), and the marks
// on a passage, found with one index range on verse_id per range read.

extension Journal {
    /// The most a text the user writes may hold, in UTF-8 bytes (a note; any text an import brings).
    public static let maxTextBytes = 1 << 20

    // MARK: Notes

    /// Adds a note on `reference`, found at its first verse.
    public func addNote(_ text: String, on reference: Reference, at now: Instant) throws(MarkError) -> Note {
        try Journal.checkNote(text)
        return try markOperation {
            try write {
                let note = Note(uuid: Journal.newUUID(), shortID: try newShortID(in: "notes"), reference: reference,
                                text: text, createdAt: now, updatedAt: now)
                let insert = try database.prepare("""
                    INSERT INTO notes (uuid, short_id, verse_id, reference, text, created_at, updated_at)
                    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6)
                    """)
                try insert.bind(note.uuid, at: 1)
                try insert.bind(note.shortID, at: 2)
                try insert.bind(note.verseID.rawValue, at: 3)
                try insert.bind(reference.description, at: 4)
                try insert.bind(text, at: 5)
                try insert.bind(now, at: 6)
                try insert.run()
                return note
            }
        }
    }

    /// Refuses a note with no text, or more than `maxTextBytes`.
    public static func checkNote(_ text: String) throws(MarkError) {
        guard text.contains(where: { !$0.isWhitespace }) else { throw .emptyText }
        guard text.utf8.count <= maxTextBytes else { throw .textTooLong(bytes: text.utf8.count) }
    }

    /// The notes found at the verses of `reference` (every note when nil), in Bible order, oldest first on a verse.
    /// The notes on `reference` (nil: all), in Bible order; with `deleted`, the deleted ones
    /// instead: what a delete here, or on another device, took away, each with its text.
    public func notes(in reference: Reference?, deleted: Bool = false) throws(MarkError) -> [Note] {
        try markOperation {
            try live("notes", columns: Journal.noteColumns, in: reference, deleted: deleted, row: Journal.note)
        }
    }

    /// Deletes the note with short id (or uuid) `id`: it becomes a tombstone, which export carries.
    public func deleteNote(id: String, at now: Instant) throws(MarkError) -> Note {
        try markOperation { try delete(.note, id: id, columns: Journal.noteColumns, at: now, row: Journal.note) }
    }

    /// Changes the text of the note with short id (or uuid) `id`.
    public func editNote(id: String, text: String, at now: Instant) throws(MarkError) -> Note {
        try Journal.checkNote(text)
        return try markOperation {
            try write {
                let note = try live(.note, id: id, columns: Journal.noteColumns, row: Journal.note)
                let update = try database.prepare("UPDATE notes SET text = ?2, updated_at = ?3 WHERE uuid = ?1")
                try update.bind(note.uuid, at: 1)
                try update.bind(text, at: 2)
                try update.bind(now, at: 3)
                try update.run()
                return Note(uuid: note.uuid, shortID: note.shortID, reference: note.reference, text: text, createdAt: note.createdAt, updatedAt: now)
            }
        }
    }

    public func restoreNote(id: String, at now: Instant) throws(MarkError) -> Note {
        try markOperation { try restore(.note, id: id, columns: Journal.noteColumns, at: now, row: Journal.note) }
    }

    // MARK: Highlights

    /// Highlights each verse of `reference` in `color`. A verse already highlighted changes colour.
    public func highlight(_ reference: Reference, color: HighlightColor, at now: Instant) throws(MarkError) -> [HighlightChange] {
        try markOperation {
            try write {
                let find = try database.prepare("""
                    SELECT \(Journal.highlightColumns) FROM highlights WHERE verse_id = ?1 AND deleted_at IS NULL
                    ORDER BY updated_at DESC, uuid DESC LIMIT 1
                    """)
                let recolor = try database.prepare("UPDATE highlights SET color = ?2, updated_at = ?3 WHERE uuid = ?1")
                let insert = try database.prepare("""
                    INSERT INTO highlights (uuid, short_id, verse_id, color, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?5)
                    """)
                var changes: [HighlightChange] = []
                var seen: Set<VerseID> = []
                for id in reference.verseIDs where seen.insert(id).inserted {
                    try find.reset()
                    try find.bind(id.rawValue, at: 1)
                    if try find.step() {
                        let existing = Journal.highlight(find)
                        if existing.color == color {
                            changes.append(.unchanged(existing))
                            continue
                        }
                        try recolor.reset()
                        try recolor.bind(existing.uuid, at: 1)
                        try recolor.bind(color.rawValue, at: 2)
                        try recolor.bind(now, at: 3)
                        try recolor.run()
                        let changed = Highlight(uuid: existing.uuid, shortID: existing.shortID, verseID: id, color: color,
                                                createdAt: existing.createdAt, updatedAt: now)
                        changes.append(.recolored(changed, from: existing.color))
                    } else {
                        let added = Highlight(uuid: Journal.newUUID(), shortID: try newShortID(in: "highlights"), verseID: id,
                                              color: color, createdAt: now, updatedAt: now)
                        try insert.reset()
                        try insert.bind(added.uuid, at: 1)
                        try insert.bind(added.shortID, at: 2)
                        try insert.bind(id.rawValue, at: 3)
                        try insert.bind(color.rawValue, at: 4)
                        try insert.bind(now, at: 5)
                        try insert.run()
                        changes.append(.added(added))
                    }
                }
                return changes
            }
        }
    }

    public func highlights(in reference: Reference?) throws(MarkError) -> [Highlight] {
        try markOperation { try live("highlights", columns: Journal.highlightColumns, in: reference, row: Journal.highlight) }
    }

    public func deleteHighlight(id: String, at now: Instant) throws(MarkError) -> Highlight {
        try markOperation { try delete(.highlight, id: id, columns: Journal.highlightColumns, at: now, row: Journal.highlight) }
    }

    public func restoreHighlight(id: String, at now: Instant) throws(MarkError) -> Highlight {
        try markOperation { try restore(.highlight, id: id, columns: Journal.highlightColumns, at: now, row: Journal.highlight) }
    }

    // MARK: Bookmarks

    /// Bookmarks `reference` at its first verse. A verse has one bookmark: bookmarking another
    /// passage starting there changes the bookmark's passage.
    public func bookmark(_ reference: Reference, at now: Instant) throws(MarkError) -> BookmarkChange {
        try markOperation {
            try write {
                let first = reference.ranges[0].first
                let find = try database.prepare("""
                    SELECT \(Journal.bookmarkColumns) FROM bookmarks WHERE verse_id = ?1 AND deleted_at IS NULL
                    ORDER BY updated_at DESC, uuid DESC LIMIT 1
                    """)
                try find.bind(first.rawValue, at: 1)
                if try find.step() {
                    let existing = Journal.bookmark(find)
                    if existing.reference == reference { return .unchanged(existing) }
                    let update = try database.prepare("UPDATE bookmarks SET reference = ?2, updated_at = ?3 WHERE uuid = ?1")
                    try update.bind(existing.uuid, at: 1)
                    try update.bind(reference.description, at: 2)
                    try update.bind(now, at: 3)
                    try update.run()
                    return .changed(Bookmark(uuid: existing.uuid, shortID: existing.shortID, reference: reference,
                                             createdAt: existing.createdAt, updatedAt: now), from: existing.reference)
                }
                let added = Bookmark(uuid: Journal.newUUID(), shortID: try newShortID(in: "bookmarks"), reference: reference,
                                     createdAt: now, updatedAt: now)
                let insert = try database.prepare("""
                    INSERT INTO bookmarks (uuid, short_id, verse_id, reference, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?5)
                    """)
                try insert.bind(added.uuid, at: 1)
                try insert.bind(added.shortID, at: 2)
                try insert.bind(first.rawValue, at: 3)
                try insert.bind(reference.description, at: 4)
                try insert.bind(now, at: 5)
                try insert.run()
                return .added(added)
            }
        }
    }

    public func bookmarks(in reference: Reference?) throws(MarkError) -> [Bookmark] {
        try markOperation { try live("bookmarks", columns: Journal.bookmarkColumns, in: reference, row: Journal.bookmark) }
    }

    public func deleteBookmark(id: String, at now: Instant) throws(MarkError) -> Bookmark {
        try markOperation { try delete(.bookmark, id: id, columns: Journal.bookmarkColumns, at: now, row: Journal.bookmark) }
    }

    public func restoreBookmark(id: String, at now: Instant) throws(MarkError) -> Bookmark {
        try markOperation { try restore(.bookmark, id: id, columns: Journal.bookmarkColumns, at: now, row: Journal.bookmark) }
    }

    /// Every bookmarked passage, oldest bookmark first (ties by uuid): the order the verse of
    /// the day counts through when it comes from bookmarks.
    public func bookmarkedPassages() throws(JournalError) -> [Reference] {
        do {
            return try run {
                let statement = try database.prepare("""
                    SELECT verse_id, reference FROM bookmarks WHERE deleted_at IS NULL ORDER BY created_at, uuid
                    """)
                var passages: [Reference] = []
                while try statement.step() {
                    try passages.append(Journal.passage(verseID: statement.int("verse_id"), reference: statement.optionalString("reference")))
                }
                return passages
            }
        } catch let error as JournalError {
            throw error
        } catch {
            throw .unwritable(path: path, reason: "\(error)")
        }
    }

    // MARK: The marks on a passage

    /// Highlights, bookmarks and notes on the verses of `reference`: one query per range, each
    /// part an index range on verse_id, so the cost follows the passage, not the journal.
    public func marks(on reference: Reference) throws(MarkError) -> PassageMarks {
        try markOperation {
            try database.withCachedStatement(Journal.marksQuery) { statement in
                var result = PassageMarks()
                var highlightTimes: [Int: Int] = [:]
                var seenNotes: Set<String> = []
                // Each stored reference parsed once: notes on one passage share it, and parsing
                // was most of what a verse with 16,000 notes cost.
                var passages: [StoredPassage: Reference] = [:]
                try statement.forEachRow(in: reference) {
                    // By position, in `marksQuery`'s order: a verse can have 16,000 notes.
                    let verse = statement.int(1)
                    // Changed in place: copying a verse's marks out and back for each row made
                    // a verse with 16,000 notes cost 3 s (each copy is as long as the notes so far).
                    switch statement.int(0) {
                    case 0:
                        // At most one live highlight per verse; should two meet, the newest shows.
                        let updated = statement.int(7)
                        if updated >= highlightTimes[verse] ?? .min, let color = HighlightColor(rawValue: statement.string(4)) {
                            result.verses[verse, default: VerseMarks()].highlight = color
                            highlightTimes[verse] = updated
                        }
                    case 1:
                        result.verses[verse, default: VerseMarks()].bookmarked = true
                    default:
                        let uuid = statement.string(2)
                        // Ranges that overlap ("John 3:16; 3:16-18") show a note once.
                        guard reference.ranges.count == 1 || seenNotes.insert(uuid).inserted else { return }
                        let stored = StoredPassage(verse: verse, reference: statement.optionalString(5))
                        let passage = passages[stored] ?? Journal.passage(verseID: verse, reference: stored.reference)
                        passages[stored] = passage
                        let note = Note(uuid: uuid, shortID: statement.string(3), reference: passage, text: statement.string(4),
                                        createdAt: statement.int(6), updatedAt: statement.int(7))
                        result.verses[verse, default: VerseMarks()].notes.append(note)
                    }
                }
                return result
            }
        }
    }

    /// The live marks on verses ?1 to ?2, in verse order, oldest first: `kind` (0 highlight,
    /// 1 bookmark, 2 note), the columns the three share, `color_or_text` (a highlight's colour,
    /// a note's text) and a note's `reference`. `marks(on:)` reads them by position.
    static let marksQuery = """
        SELECT 0 AS kind, verse_id, uuid, short_id, color AS color_or_text, NULL AS reference, created_at, updated_at FROM highlights
            WHERE verse_id BETWEEN ?1 AND ?2 AND deleted_at IS NULL
        UNION ALL
        SELECT 1, verse_id, uuid, short_id, NULL, NULL, created_at, updated_at FROM bookmarks
            WHERE verse_id BETWEEN ?1 AND ?2 AND deleted_at IS NULL
        UNION ALL
        SELECT 2, verse_id, uuid, short_id, text, reference, created_at, updated_at FROM notes
            WHERE verse_id BETWEEN ?1 AND ?2 AND deleted_at IS NULL
        ORDER BY verse_id, created_at, uuid
        """

    // MARK: Shared

    static let noteColumns = "uuid, short_id, verse_id, reference, text, created_at, updated_at, deleted_at"
    static let highlightColumns = "uuid, short_id, verse_id, color, created_at, updated_at"
    static let bookmarkColumns = "uuid, short_id, verse_id, reference, created_at, updated_at"

    // A row of `noteColumns`, `highlightColumns` or `bookmarkColumns`, which every query these
    // read selects first: by position, in the lists' order (a list can be a million notes).

    static func note(_ row: Statement) -> Note {
        Note(uuid: row.string(0), shortID: row.string(1), reference: passage(verseID: row.int(2), reference: row.optionalString(3)),
             text: row.string(4), createdAt: row.int(5), updatedAt: row.int(6), deletedAt: row.optionalInt(7))
    }

    static func highlight(_ row: Statement) -> Highlight {
        // Colours are checked on the way in (command, import); an unknown one shows as the default.
        Highlight(uuid: row.string(0), shortID: row.string(1), verseID: VerseID(rawValue: row.int(2)),
                  color: HighlightColor(rawValue: row.string(3)) ?? .yellow, createdAt: row.int(4), updatedAt: row.int(5))
    }

    static func bookmark(_ row: Statement) -> Bookmark {
        Bookmark(uuid: row.string(0), shortID: row.string(1), reference: passage(verseID: row.int(2), reference: row.optionalString(3)),
                 createdAt: row.int(4), updatedAt: row.int(5))
    }

    /// The passage a note or bookmark is on: its stored reference, or (schema 2 rows, or a
    /// reference that does not start at the verse) the verse alone.
    /// A mark's passage as stored: its first verse, and its reference when it is more than that verse.
    private struct StoredPassage: Hashable {
        let verse: Int
        let reference: String?
    }

    static func passage(verseID: Int, reference: String?) -> Reference {
        if let reference, let parsed = try? Reference(parsing: reference), parsed.ranges[0].first.rawValue == verseID {
            return parsed
        }
        return Reference(VerseID(rawValue: verseID))
    }

    /// Runs a marks operation, reporting the journal's failures as `MarkError.journal`.
    private func markOperation<T>(_ body: () throws -> T) throws(MarkError) -> T {
        do {
            return try run(body)
        } catch let error as MarkError {
            throw error
        } catch let error as JournalError {
            throw .journal(error)
        } catch {
            throw .journal(.unwritable(path: path, reason: "\(error)"))
        }
    }

    /// The live rows of `table` found at the verses of `reference`, or all of them, in Bible
    /// order (`deleted`: the deleted rows).
    private func live<T>(_ table: String, columns: String, in reference: Reference?, deleted: Bool = false,
                         row: (Statement) throws -> T) throws -> [T] {
        let order = "ORDER BY verse_id, created_at, uuid"
        let alive = "deleted_at IS \(deleted ? "NOT NULL" : "NULL")"
        guard let reference else {
            let statement = try database.prepare("SELECT \(columns) FROM \(table) WHERE \(alive) \(order)")
            var rows: [T] = []
            while try statement.step() { rows.append(try row(statement)) }
            return rows
        }
        let statement = try database.prepare("""
            SELECT \(columns) FROM \(table) WHERE verse_id BETWEEN ?1 AND ?2 AND \(alive) \(order)
            """)
        var rows: [T] = []
        var seen: Set<String> = []
        try statement.forEachRow(in: reference) {
            // Ranges that overlap list a record once.
            guard seen.insert(try statement.string("uuid")).inserted else { return }
            rows.append(try row(statement))
        }
        return rows
    }

    /// Marks the live record named by short id or uuid `id` deleted (a tombstone), returning it.
    private func delete<T>(_ kind: MarkKind, id: String, columns: String, at now: Instant, row: (Statement) throws -> T) throws -> T {
        try write {
            let record = try live(kind, id: id, columns: columns, row: row)
            let update = try database.prepare("UPDATE \(kind.table) SET deleted_at = ?2, updated_at = ?2 WHERE short_id = ?1 OR uuid = ?1")
            try update.bind(id.lowercased(), at: 1)
            try update.bind(now, at: 2)
            try update.run()
            return record
        }
    }

    /// The mark with short id (or uuid) `id` that is not deleted (`deleted`: that is).
    private func live<T>(_ kind: MarkKind, id: String, deleted: Bool = false, columns: String, row: (Statement) throws -> T) throws -> T {
        let find = try database.prepare("""
            SELECT \(columns) FROM \(kind.table) WHERE (short_id = ?1 OR uuid = ?1) AND deleted_at IS \(deleted ? "NOT NULL" : "NULL")
            """)
        try find.bind(id.lowercased(), at: 1)
        guard try find.step() else { throw MarkError.notFound(kind, id: id) }
        return try row(find)
    }

    /// Brings back a deleted mark. A verse has one highlight and one bookmark: where it has
    /// another now, that one must go first.
    private func restore<T>(_ kind: MarkKind, id: String, columns: String, at now: Instant, row: (Statement) throws -> T) throws -> T {
        try write {
            let record = try live(kind, id: id, deleted: true, columns: columns, row: row)
            let uuid = try live(kind, id: id, deleted: true, columns: "uuid") { $0.string(0) }
            if kind != .note {
                let twin = try database.prepare("""
                    SELECT short_id, verse_id FROM \(kind.table) JOIN (SELECT verse_id AS v FROM \(kind.table) WHERE uuid = ?1) ON verse_id = v
                    WHERE deleted_at IS NULL LIMIT 1
                    """)
                try twin.bind(uuid, at: 1)
                if try twin.step() {
                    throw MarkError.occupied(kind, reference: Reference(VerseID(rawValue: twin.int(1))).description, by: twin.string(0))
                }
            }
            let update = try database.prepare("UPDATE \(kind.table) SET deleted_at = NULL, updated_at = ?2 WHERE uuid = ?1")
            try update.bind(uuid, at: 1)
            try update.bind(now, at: 2)
            try update.run()
            return record
        }
    }
}

extension Statement {
    /// Runs the statement once per range of `reference`, with the range's first and last verse
    /// ids bound to ?1 and ?2, calling `row` at each row: the marks found at a passage's verses.
    fileprivate func forEachRow(in reference: Reference, _ row: () throws -> Void) throws {
        for range in reference.ranges {
            try reset()
            try bind(range.first.rawValue, at: 1)
            try bind(range.last.rawValue, at: 2)
            while try step() { try row() }
        }
    }
}
