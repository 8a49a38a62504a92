// Full-text search: what a user types becomes a safe FTS5 expression; hits come back ranked with a snippet.

/// Why a search cannot run. One line each, naming the input.
public enum SearchError: Error, Equatable, Sendable {
    case empty
    case tooLong(characters: Int)
    case tooManyWords(Int)
    case nothingToSearch(String)
    case unclosedQuote

    public var message: String {
        switch self {
        case .empty:
            return tr("nothing to search for: give words, like manna search \"love one another\"")
        case .tooLong(let characters):
            return tr("search text is too long ({characters} characters); at most {most} are allowed", ("characters", characters), ("most", SearchQuery.maxCharacters))
        case .tooManyWords(let count):
            return tr("search has {count} words; at most {most} are allowed", ("count", count), ("most", SearchQuery.maxWords))
        case .nothingToSearch(let text):
            return tr("'{text}' has no letters or digits to search for", ("text", text))
        case .unclosedQuote:
            return tr("a quoted phrase is not closed: add the closing \"")
        }
    }
}

/// A user's search turned into an FTS5 expression no input can break.
///
/// Each word is a prefix match (`love one another` → `"love"* "one"* "another"*`); text in
/// double quotes is a phrase. Only runs of letters, digits and combining marks survive, each
/// inside an FTS5 string, so quotes, operators (AND, OR, NOT, NEAR), `-`, `:`, `(`, `*` and
/// emoji are ordinary text, never syntax.
public struct SearchQuery: Equatable, Sendable {
    public static let maxCharacters = 500
    public static let maxWords = 32

    /// The FTS5 MATCH expression: which verses match.
    public let expression: String
    /// One FTS5 term per word or quoted phrase, ANDed together to make `expression`.
    let terms: [String]
    /// `expression` with the ranking's extra phrases ORed on: each word whole (no prefix), and
    /// all the words as one phrase. Each matches only verses that `expression` matches, so
    /// the verses found are the same, and the rank function can see which verses hold them.
    let rankedExpression: String
    /// What each phrase of `rankedExpression` is, left to right, as FTS5 numbers them.
    let roles: [SearchRanking.Role]
    /// The words searched for, lowercased, for display.
    public let words: [String]

    public init(parsing text: String) throws(SearchError) {
        let trimmed = text.trimmingSpaces
        guard !trimmed.isEmpty else { throw .empty }
        let length = trimmed.count
        guard length <= SearchQuery.maxCharacters else { throw .tooLong(characters: length) }
        // Each part is a word or a quoted phrase, as the index's tokens. A word with an
        // apostrophe ("David's", "don't") is its pieces side by side, as the index has them.
        var parts: [(tokens: [String], quoted: Bool)] = []
        // Quoted parts alternate with unquoted ones: "a \"b c\" d" → a, b c, d.
        let pieces = trimmed.split(separator: "\"", omittingEmptySubsequences: false)
        guard pieces.count % 2 == 1 else { throw .unclosedQuote }
        for (index, piece) in pieces.enumerated() {
            let groups = SearchQuery.words(piece)
            if groups.isEmpty { continue }
            if index % 2 == 1 {
                parts.append((groups.flatMap { $0 }, true))
            } else {
                parts += groups.map { ($0, false) }
            }
        }
        guard !parts.isEmpty else { throw .nothingToSearch(trimmed) }
        words = parts.flatMap(\.tokens)
        guard words.count <= SearchQuery.maxWords else { throw .tooManyWords(words.count) }

        // A lone unquoted word is a prefix: "love" finds "loved". Nothing else is: "david s"*
        // would find "David said".
        var roles: [SearchRanking.Role] = []
        func term(_ tokens: [String], prefix: Bool, role: SearchRanking.Role) -> String {
            let spellings = SearchQuery.spellings(tokens.joined(separator: " "))
            roles += Array(repeating: role, count: spellings.count)
            return SearchQuery.either(spellings.map { "\"" + $0 + "\"" + (prefix ? "*" : "") })
        }
        terms = parts.enumerated().map { group, part in
            term(part.tokens, prefix: !part.quoted && part.tokens.count == 1, role: .term(group))
        }
        expression = SearchQuery.all(terms)
        var ranked = [expression]
        if parts.contains(where: { !$0.quoted && $0.tokens.count == 1 }) {
            ranked.append(SearchQuery.all(parts.enumerated().map { group, part in
                term(part.tokens, prefix: false, role: .whole(group))
            }))
        }
        if parts.count > 1 {
            ranked.append(term(words, prefix: false, role: .phrase))
        }
        rankedExpression = ranked.count == 1 ? expression : ranked.map { "(" + $0 + ")" }.joined(separator: " OR ")
        self.roles = roles
    }

    /// Terms that must all match. FTS5 reads terms side by side as AND, but not beside a
    /// group in parentheses.
    static func all(_ terms: [String]) -> String {
        terms.joined(separator: terms.contains { $0.hasPrefix("(") } ? " AND " : " ")
    }

    /// The spellings a word (or phrase) is found in: the KJV writes "Cæsar", "Judæa" and "Œ"
    /// where people type "ae" and "oe", and the index keeps the ligature as a letter of its
    /// own, so "caesar" is also "cæsar", and "cæsar" also "caesar"; and a word with an older
    /// spelling (`olderSpellings`: "honor", "honour") is also the other. Alternatives at the
    /// query, not folded into the index: the index keeps each text's own words, so what is
    /// marked in a hit is the word as printed.
    static func spellings(_ word: String) -> [String] {
        let typed = word.replacingAll("æ", with: "ae").replacingAll("œ", with: "oe")
        var found = [typed]
        if let other = otherSpelling(typed) { found.append(other) }
        for spelling in found {
            let ligatures = spelling.replacingAll("ae", with: "æ").replacingAll("oe", with: "œ")
            if ligatures != spelling { found.append(ligatures) }
        }
        return found
    }

    /// One term, or several as FTS5 alternatives: `("caesar"* OR "cæsar"*)`.
    static func either(_ terms: [String]) -> String {
        terms.count == 1 ? terms[0] : "(" + terms.joined(separator: " OR ") + ")"
    }

    /// The words of `text`, each as the index's tokens: "David's" is ["david", "s"] (the
    /// tokenizer splits at the apostrophe), "love" is ["love"]. An apostrophe, straight or
    /// curly, joins the letters on either side into one word.
    static func words(_ text: Substring) -> [[String]] {
        var words: [[String]] = []
        var joining = false
        var previous: Character?
        var piece = ""
        func endPiece() {
            guard !piece.isEmpty else { return }
            let pieceTokens = tokens(Substring(piece))
            if joining, !words.isEmpty, let first = pieceTokens.first {
                words[words.count - 1].append(first)
                words += pieceTokens.dropFirst().map { [$0] }
            } else {
                words += pieceTokens.map { [$0] }
            }
            piece = ""
        }
        let characters = Array(text)
        for (index, character) in characters.enumerated() {
            let apostrophe = character == "'" || character == "\u{2019}" || character == "\u{02BC}"
            if apostrophe, previous?.isLetter == true, index + 1 < characters.count, characters[index + 1].isLetter {
                endPiece()
                joining = true
            } else if character.isWhitespace {
                endPiece()
                joining = false
            } else {
                piece.append(character)
                if !character.isLetter && !character.isNumber { endPiece(); joining = false }
            }
            previous = character
        }
        endPiece()
        return words
    }

    /// Splits text into the runs of letters and digits (with their marks) that the index tokenizer also keeps.
    static func tokens(_ text: Substring) -> [String] {
        var tokens: [String] = []
        var current = ""
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                 .decimalNumber, .letterNumber, .otherNumber:
                current.unicodeScalars.append(scalar)
            case .nonspacingMark where !current.isEmpty, .spacingMark where !current.isEmpty,
                 .enclosingMark where !current.isEmpty:
                // A mark belongs to the letter before it (Hebrew points, combining accents);
                // alone it is no word (the variation selector after an emoji).
                current.unicodeScalars.append(scalar)
            default:
                if !current.isEmpty { tokens.append(current.lowercased()) }
                current = ""
            }
        }
        if !current.isEmpty { tokens.append(current.lowercased()) }
        return tokens
    }
}

/// Text with the matched words marked.
public struct Snippet: Hashable, Sendable {
    public struct Part: Hashable, Sendable {
        public let text: String
        public let isHit: Bool
    }

    public let parts: [Part]

    /// Where each hit is in the text, in Unicode code points from its start.
    public var matches: [Range<Int>] {
        var offset = 0
        var ranges: [Range<Int>] = []
        for part in parts {
            let count = part.text.unicodeScalars.count
            if part.isHit { ranges.append(offset..<offset + count) }
            offset += count
        }
        return ranges
    }
}

public struct SearchHit: Hashable, Sendable {
    public let id: VerseID
    public let translation: String
    public let snippet: Snippet
}

public struct SearchResults: Sendable {
    /// The best hits, best first, as many as were asked for.
    public let hits: [SearchHit]
    /// How many verses match in all.
    public let total: Int
}

extension TextDatabase {
    /// Searches one translation, optionally one book of it: the `limit` best hits (all when
    /// nil) and the exact number of verses that match.
    public func search(_ query: SearchQuery, in translation: Translation, book: Book? = nil,
                       limit: Int?) throws(TextDatabaseError) -> SearchResults {
        var hits: [SearchHit] = []
        let total = try search(query, in: translation, book: book, limit: limit) { hits.append($0) }
        return SearchResults(hits: hits, total: total)
    }

    /// Searches one translation, optionally one book of it, handing each hit to `each` best
    /// first, as it is read (so `--limit all` streams), and returns how many verses match.
    ///
    /// Ranked by `SearchRanking`: verses with the words as a phrase first, then verses with
    /// every word whole, then the rest (where a word is only the start of a longer one);
    /// within each, by bm25.
    public func search(_ query: SearchQuery, in translation: Translation, book: Book? = nil,
                       limit: Int?, each: (SearchHit) -> Void) throws(TextDatabaseError) -> Int {
        let (low, high) = book.map { ($0.number * 1_000_000, $0.number * 1_000_000 + 999_999) } ?? (0, 99_999_999)
        let table = translation.searchTable
        try openSearchIndex()
        do {
            // A common lone word: its best verses were ranked when the database was built.
            if let limit, let champions = try champions(of: query, in: translation, from: low, to: high, count: limit) {
                let total = try count(query.expression, in: table, from: low, to: high)
                try markWord(query.words[0], in: champions, translation: translation, each: each)
                return total
            }
            // Counted up to one past the limit: that decides how to rank, and the pass that
            // ranks counts the rest.
            let many = TextDatabase.sortedBySQLiteLimit
            let counted = try count(query.expression, in: table, from: low, to: high, atMost: many + 1)
            guard counted > 0 else { return 0 }
            // bm25 weighs each word by how rare it is in the whole translation: a count query a
            // word, which costs more than ranking a few hundred verses gains from it (they are
            // ordered by the tiers, then by how often the words occur and how short the verse is).
            let weighed = query.terms.count > 1 && counted > many
            let matching = !weighed ? [] : try query.terms.map { term throws(SQLiteError) in try count(term, in: table, from: 0, to: 99_999_999) }
            try ranker().current = SearchRanking(roles: query.roles, matching: matching,
                                                 lengths: try verseLengths(of: translation))
            if let limit, counted > many {
                return try best(limit, of: query, in: table, from: low, to: high, translation: translation, each: each)
            }
            // FTS5 sorts by the rank function (`rank MATCH`) and highlight() runs only for the
            // rows read: one pass, and with --limit all the first lines come at once.
            let statement = try database.prepare("""
                SELECT rowid, highlight(\(table), 0, char(1), char(2)) FROM \(table)
                WHERE \(table) MATCH ?1 AND rank MATCH 'manna_rank()' AND rowid BETWEEN ?2 AND ?3
                ORDER BY rank LIMIT ?4
                """)
            try statement.bind(query.rankedExpression, at: 1)
            try statement.bind(low, at: 2)
            try statement.bind(high, at: 3)
            try statement.bind(limit ?? -1, at: 4)
            var read = 0
            while try statement.step() {
                each(SearchHit(id: VerseID(rawValue: statement.int(0)), translation: translation.code,
                               snippet: TextDatabase.snippet(statement.string(1))))
                read += 1
            }
            // Every hit was read (--limit all), or the count was whole (no more than `many`).
            return limit == nil ? read : counted
        } catch {
            // The expression is built to be valid for any input: a failure that is not a
            // damaged file is Manna's bug.
            throw error.isCorruption ? .damaged(path: path) : .searchFailed(query: query.words.joined(separator: " "))
        }
    }

    /// Above this many matches a bounded search keeps its best hits itself (`best`): FTS5's
    /// `ORDER BY rank` sorts every match through SQLite's sorter, which for "the" (27,500) cost
    /// three times the search. Below it, that one pass is cheaper than `best`'s second query,
    /// which evaluates the expression again for each hit shown.
    static let sortedBySQLiteLimit = 500

    /// The best `limit` hits of many: one pass scores every match and keeps the best in a
    /// sorted array (most rows cost one comparison), then highlight() marks those alone.
    /// Returns how many matched: the pass visits each once.
    private func best(_ limit: Int, of query: SearchQuery, in table: String, from low: Int, to high: Int,
                      translation: Translation, each: (SearchHit) -> Void) throws(SQLiteError) -> Int {
        let scorer = try database.prepare("SELECT rowid, manna_rank(\(table)) FROM \(table) WHERE \(table) MATCH ?1 AND rowid BETWEEN ?2 AND ?3")
        try scorer.bind(query.rankedExpression, at: 1)
        try scorer.bind(low, at: 2)
        try scorer.bind(high, at: 3)
        var best = TopRanked(limit)
        var total = 0
        while try scorer.step() {
            total += 1
            best.offer(rank: scorer.double(1), rowid: scorer.int(0))
        }
        try mark(best.rowids, of: query, in: table, translation: translation, each: each)
        return total
    }

    /// Hands `each` the verses `rowids`, in that order, with the query's words marked
    /// (highlight() for those rows alone).
    private func mark(_ rowids: [Int], of query: SearchQuery, in table: String, translation: Translation,
                      each: (SearchHit) -> Void) throws(SQLiteError) {
        guard !rowids.isEmpty else { return }
        let marker = try database.prepare("""
            SELECT rowid, highlight(\(table), 0, char(1), char(2)) FROM \(table)
            WHERE \(table) MATCH ?1 AND rowid IN (\(rowids.map(String.init).joined(separator: ",")))
            """)
        try marker.bind(query.rankedExpression, at: 1)
        var marked: [Int: String] = [:]
        while try marker.step() { marked[marker.int(0)] = marker.string(1) }
        for rowid in rowids {
            each(SearchHit(id: VerseID(rawValue: rowid), translation: translation.code,
                           snippet: TextDatabase.snippet(marked[rowid] ?? "")))
        }
    }

    /// How many verses in the rowid range match `expression`, counting no further than `atMost`.
    private func count(_ expression: String, in table: String, from low: Int, to high: Int, atMost: Int = -1) throws(SQLiteError) -> Int {
        let counter = try database.prepare("SELECT count(*) FROM (SELECT 1 FROM \(table) WHERE \(table) MATCH ?1 AND rowid BETWEEN ?2 AND ?3 LIMIT ?4)")
        try counter.bind(expression, at: 1)
        try counter.bind(low, at: 2)
        try counter.bind(high, at: 3)
        try counter.bind(atMost, at: 4)
        _ = try counter.step()
        return counter.int(0)
    }

    /// Splits highlight() output at its hit markers, char(1) and char(2): control characters
    /// that no verse text contains. The whole verse is the snippet: verses are short, and
    /// highlight() costs half of what snippet()'s search for the best window does.
    ///
    /// Split as UTF-8 bytes: each marker is one byte that no other character's encoding holds,
    /// and going Character by Character cost an eighth of a whole search.
    private static func snippet(_ marked: String) -> Snippet {
        var parts: [Snippet.Part] = []
        let bytes = marked.utf8
        var start = bytes.startIndex
        var inHit = false
        for index in bytes.indices where bytes[index] == 1 || bytes[index] == 2 {
            if start < index { parts.append(Snippet.Part(text: String(Substring(bytes[start..<index])), isHit: inHit)) }
            inHit = bytes[index] == 1
            start = bytes.index(after: index)
        }
        if start < bytes.endIndex { parts.append(Snippet.Part(text: String(Substring(bytes[start...])), isHit: inHit)) }
        return Snippet(parts: parts)
    }
}
