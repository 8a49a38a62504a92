// Search history: the last 100 searches, newest first, for `manna search --history`.

/// One search as it was typed.
public struct SearchRecord: Equatable, Sendable {
    public let query: String
    public let translation: String
    public let searchedAt: Instant

    public init(query: String, translation: String, searchedAt: Instant) {
        self.query = query
        self.translation = translation
        self.searchedAt = searchedAt
    }
}

extension Journal {
    /// How many searches the history keeps.
    public static let searchHistoryLimit = 100

    /// Records a search and drops all but the newest 100, in one transaction (in WAL mode,
    /// one commit with no fsync: a search does not get measurably slower).
    public func recordSearch(_ search: SearchRecord) throws(JournalError) {
        do {
            try write {
                let insert = try database.prepare("INSERT INTO searches (query, translation, searched_at) VALUES (?1, ?2, ?3)")
                try insert.bind(search.query, at: 1)
                try insert.bind(search.translation, at: 2)
                try insert.bind(search.searchedAt, at: 3)
                try insert.run()
                try trimSearches()
            }
        } catch {
            throw error as? JournalError ?? .unwritable(path: path, reason: "\(error)")
        }
    }

    /// The kept searches, newest first.
    public func searchHistory() throws(JournalError) -> [SearchRecord] {
        do {
            return try run {
                let statement = try database.prepare("""
                    SELECT query, translation, searched_at FROM searches ORDER BY searched_at DESC, id DESC
                    """)
                var records: [SearchRecord] = []
                while try statement.step() {
                    try records.append(SearchRecord(query: statement.string("query"), translation: statement.string("translation"),
                                                    searchedAt: statement.int("searched_at")))
                }
                return records
            }
        } catch {
            throw error as? JournalError ?? .unwritable(path: path, reason: "\(error)")
        }
    }

    /// Deletes every search but the newest `searchHistoryLimit` (by time; imports add older ones).
    func trimSearches() throws(SQLiteError) {
        try database.execute("""
            DELETE FROM searches WHERE id NOT IN
                (SELECT id FROM searches ORDER BY searched_at DESC, id DESC LIMIT \(Journal.searchHistoryLimit))
            """)
    }
}
