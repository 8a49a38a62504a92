// Champion lists: each common word's best verses, ranked when the database is built.

/// The verses a lone common word ranks first, kept in the database (`search_champions`) so
/// that searching "the" or "God" ranks nothing: the list is read, the matches counted, and the
/// verses shown marked. (A champion list, as in Manning, Raghavan and Schütze's *Introduction
/// to Information Retrieval*, 7.1.3.)
///
/// A lone word's search ranks first the verses that hold it whole, by bm25 of how often it
/// occurs whole (`SearchRanking`): an order that depends on the word alone. Every word that more
/// than `minimumVerses` verses hold whole has its first `size` verses listed, scored by the same
/// `SearchRanking` that scores a search, ties in Bible order as a search keeps them. The first
/// N listed verses of a book (or of the whole Bible) are then that search's first N there,
/// whenever N of them are listed.
///
/// The verses shown are marked here too, by FTS5's own tokenizer over their text: asking FTS5
/// to highlight chosen rows of a common word seeks each in a long doclist, which cost as much
/// as the rest of the search.
enum SearchChampions {
    /// Verses listed a word: as many as `--limit` is likely to ask for.
    static let size = 100
    /// Words held whole by more verses than this get a list: the searches that would rank
    /// many verses (`TextDatabase.sortedBySQLiteLimit`).
    static let minimumVerses = TextDatabase.sortedBySQLiteLimit

    /// A lone unquoted word in one spelling, searched as a prefix and whole.
    static let loneWordRoles: [SearchRanking.Role] = [.term(0), .whole(0)]

    /// Lists the champions of every common word of `table`, translation `code`, reading each
    /// verse's count of the word from the index itself (fts5vocab), so the words are the
    /// index's tokens exactly.
    static func insert(code: String, table: String, lengths: VerseLengths, into database: Database) throws(SQLiteError) {
        try database.execute("""
            CREATE VIRTUAL TABLE temp.champion_words USING fts5vocab(main, \(table), 'row');
            CREATE VIRTUAL TABLE temp.champion_instances USING fts5vocab(main, \(table), 'instance');
            """)
        let words = try database.prepare("SELECT term FROM temp.champion_words WHERE doc > ?1")
        try words.bind(minimumVerses, at: 1)
        var common: [String] = []
        while try words.step() { common.append(words.string(0)) }
        let instances = try database.prepare("SELECT doc FROM temp.champion_instances WHERE term = ?1")
        let insert = try database.prepare("INSERT INTO search_champions VALUES (?1, ?2, ?3)")
        var ranking = SearchRanking(roles: loneWordRoles, matching: [], lengths: lengths)
        for word in common {
            // One row an occurrence, verse by verse: a verse's count is its run of rows.
            try instances.reset()
            try instances.bind(word, at: 1)
            // Ranked as a search ranks (SearchRanker: the negated score), in the order it keeps.
            var best = TopRanked(size)
            var hits = [0, 0]
            func score(_ rowid: Int) {
                best.offer(rank: -hits.withUnsafeBufferPointer { ranking.score(rowid: rowid, hits: $0) }, rowid: rowid)
            }
            var verse = -1
            while try instances.step() {
                let rowid = instances.int(0)
                if rowid != verse, verse >= 0 {
                    score(verse)
                    hits = [0, 0]
                }
                verse = rowid
                hits[0] += 1
                hits[1] += 1
            }
            if verse >= 0 { score(verse) }
            try insert.reset()
            try insert.bind(code, at: 1)
            try insert.bind(word, at: 2)
            try insert.bind(encode(best.rowids), at: 3)
            try insert.run()
        }
        try database.execute("DROP TABLE temp.champion_words; DROP TABLE temp.champion_instances;")
    }

    /// Verse ids as 4-byte little-endian integers (the largest, Revelation 22:21, is 66,022,021).
    static func encode(_ rowids: [Int]) -> [UInt8] {
        rowids.flatMap { rowid in (0..<4).map { UInt8(truncatingIfNeeded: rowid >> ($0 * 8)) } }
    }

    static func decode(_ bytes: [UInt8]) -> [Int] {
        stride(from: 0, to: bytes.count - 3, by: 4).map { start in
            (0..<4).reduce(0) { value, byte in value | Int(bytes[start + byte]) << (byte * 8) }
        }
    }
}

extension TextDatabase {
    /// The first `count` verses a search for `query` gives between verse ids `low` and `high`,
    /// from its word's champion list; nil when the query is not a lone word with a list, or
    /// the list holds fewer than `count` verses in that range.
    func champions(of query: SearchQuery, in translation: Translation, from low: Int, to high: Int,
                   count: Int) throws(SQLiteError) -> [Int]? {
        guard usesChampions, query.roles == SearchChampions.loneWordRoles, let word = query.words.first else { return nil }
        let statement = try database.prepare("SELECT verses FROM search_champions WHERE translation = ?1 AND word = ?2")
        try statement.bind(translation.code, at: 1)
        try statement.bind(word, at: 2)
        guard try statement.step() else { return nil }
        let listed = SearchChampions.decode(statement.bytes(0)).filter { $0 >= low && $0 <= high }
        return listed.count >= count ? Array(listed.prefix(count)) : nil
    }

    /// Hands `each` the verses `rowids`, in that order, with every word that `word` starts (or
    /// is) marked: what highlight() marks for a lone word, found by the index's tokenizer.
    func markWord(_ word: String, in rowids: [Int], translation: Translation, each: (SearchHit) -> Void) throws(SQLiteError) {
        let statement = try database.prepare("SELECT id, text FROM verses WHERE translation = ?1 AND id IN (\(rowids.map(String.init).joined(separator: ",")))")
        try statement.bind(translation.code, at: 1)
        var texts: [Int: String] = [:]
        while try statement.step() { texts[statement.int(0)] = statement.string(1) }
        let tokenizer = try searchTokenizer()
        for rowid in rowids {
            let text = texts[rowid] ?? ""
            let utf8 = Array(text.utf8)
            var parts: [Snippet.Part] = []
            var end = 0
            func part(_ bytes: Range<Int>, isHit: Bool) {
                guard !bytes.isEmpty else { return }
                parts.append(Snippet.Part(text: String(decoding: utf8[bytes], as: UTF8.self), isHit: isHit))
            }
            // Byte by byte, as FTS5 compares a prefix (String.hasPrefix compares Characters).
            for token in tokenizer.tokens(of: text) where token.text.utf8.starts(with: word.utf8) {
                part(end..<token.bytes.lowerBound, isHit: false)
                part(token.bytes, isHit: true)
                end = token.bytes.upperBound
            }
            part(end..<utf8.count, isHit: false)
            each(SearchHit(id: VerseID(rawValue: rowid), translation: translation.code, snippet: Snippet(parts: parts)))
        }
    }

    /// The index's tokenizer, made at its first use on this connection.
    private func searchTokenizer() throws(SQLiteError) -> FTS5Tokenizer {
        if let tokenizer { return tokenizer }
        let made = try database.tokenizer(TextDatabaseBuilder.searchTokenizer.name, arguments: TextDatabaseBuilder.searchTokenizer.arguments)
        tokenizer = made
        return made
    }
}
