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
            return "nothing to search for: give words, like manna search \"love one another\""
        case .tooLong(let characters):
            return "search text is too long (\(characters) characters); at most \(SearchQuery.maxCharacters) are allowed"
        case .tooManyWords(let count):
            return "search has \(count) words; at most \(SearchQuery.maxWords) are allowed"
        case .nothingToSearch(let text):
            return "'\(text)' has no letters or digits to search for"
        case .unclosedQuote:
            return "a quoted phrase is not closed: add the closing \""
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

    /// The FTS5 MATCH expression.
    public let expression: String
    /// The words searched for, lowercased, for display.
    public let words: [String]

    public init(parsing text: String) throws(SearchError) {
        let trimmed = text.trimmingSpaces
        guard !trimmed.isEmpty else { throw .empty }
        let length = trimmed.count
        guard length <= SearchQuery.maxCharacters else { throw .tooLong(characters: length) }
        var terms: [String] = []
        var words: [String] = []
        // Quoted parts alternate with unquoted ones: "a \"b c\" d" → a, b c, d.
        let parts = trimmed.split(separator: "\"", omittingEmptySubsequences: false)
        guard parts.count % 2 == 1 else { throw .unclosedQuote }
        for (index, part) in parts.enumerated() {
            let groups = SearchQuery.words(part)
            if groups.isEmpty { continue }
            words += groups.flatMap { $0 }
            if index % 2 == 1 {
                terms.append(SearchQuery.either(SearchQuery.spellings(groups.flatMap { $0 }.joined(separator: " ")).map { "\"" + $0 + "\"" }))
            } else {
                // A word with an apostrophe ("David's", "don't") is its pieces side by side, as the
                // index has them, and no prefix: "david s"* would find "David said".
                terms += groups.map { group in
                    SearchQuery.either(SearchQuery.spellings(group.joined(separator: " ")).map { group.count == 1 ? "\"" + $0 + "\"*" : "\"" + $0 + "\"" })
                }
            }
        }
        guard !terms.isEmpty else { throw .nothingToSearch(trimmed) }
        guard words.count <= SearchQuery.maxWords else { throw .tooManyWords(words.count) }
        // FTS5 reads words side by side as AND, but not beside a group in parentheses.
        expression = terms.joined(separator: terms.contains { $0.hasPrefix("(") } ? " AND " : " ")
        self.words = words
    }

    /// The spellings a word is found in: the KJV writes "Cæsar", "Judæa" and "Œ" where people
    /// type "ae" and "oe", and the index keeps the ligature as a letter of its own. "caesar"
    /// is also "cæsar", and "cæsar" also "caesar".
    static func spellings(_ word: String) -> [String] {
        let typed = word.replacingAll("æ", with: "ae").replacingAll("œ", with: "oe")
        let ligatures = typed.replacingAll("ae", with: "æ").replacingAll("oe", with: "œ")
        return ligatures == typed ? [typed] : [typed, ligatures]
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

    /// The snippet with each hit wrapped in `open` and `close`.
    public func rendered(open: String, close: String) -> String {
        parts.map { $0.isHit ? open + $0.text + close : $0.text }.joined()
    }
}

public struct SearchHit: Hashable, Sendable {
    public let id: VerseID
    public let translation: String
    public let snippet: Snippet
}

public struct SearchResults: Sendable {
    public let hits: [SearchHit]
    /// How many verses match in all; nil when more than `TextDatabase.rankingLimit` do
    /// (they are not counted: counting 27,000 matches costs more than the search).
    public let total: Int?
    /// False when too many verses matched to rank: hits are then in canonical order.
    public var ranked: Bool { total != nil }
}

extension TextDatabase {
    /// Above this many matches, hits come in canonical order instead of by relevance:
    /// ranking computes bm25 for every match (a word in 24,000 verses costs ~20 ms).
    public static let rankingLimit = 3_000

    /// Searches one translation, optionally one book of it.
    public func search(_ query: SearchQuery, in translation: Translation, book: Book? = nil,
                       limit: Int) throws(TextDatabaseError) -> SearchResults {
        let (low, high) = book.map { ($0.number * 1_000_000, $0.number * 1_000_000 + 999_999) } ?? (0, 99_999_999)
        let table = translation.searchTable
        do {
            let counter = try database.prepare("SELECT count(*) FROM (SELECT 1 FROM \(table) WHERE \(table) MATCH ?1 AND rowid BETWEEN ?2 AND ?3 LIMIT ?4)")
            try counter.bind(query.expression, at: 1)
            try counter.bind(low, at: 2)
            try counter.bind(high, at: 3)
            try counter.bind(TextDatabase.rankingLimit + 1, at: 4)
            _ = try counter.step()
            let counted = counter.int(0)
            let ranked = counted <= TextDatabase.rankingLimit
            let statement = try database.prepare("""
                SELECT rowid, highlight(\(table), 0, char(1), char(2)) FROM \(table)
                WHERE \(table) MATCH ?1 AND rowid BETWEEN ?2 AND ?3
                ORDER BY \(ranked ? "rank" : "rowid") LIMIT ?4
                """)
            try statement.bind(query.expression, at: 1)
            try statement.bind(low, at: 2)
            try statement.bind(high, at: 3)
            try statement.bind(limit, at: 4)
            var hits: [SearchHit] = []
            while try statement.step() {
                let id = VerseID(rawValue: statement.int(0))
                hits.append(SearchHit(id: id, translation: translation.code, snippet: TextDatabase.snippet(statement.string(1))))
            }
            return SearchResults(hits: hits, total: ranked ? counted : nil)
        } catch {
            throw .damaged(path: path)
        }
    }

    /// Splits highlight() output at its hit markers, char(1) and char(2): control characters
    /// that no verse text contains. The whole verse is the snippet: verses are short, and
    /// highlight() costs half of what snippet()'s search for the best window does.
    private static func snippet(_ marked: String) -> Snippet {
        var parts: [Snippet.Part] = []
        var current = ""
        var inHit = false
        for character in marked {
            if character == "\u{1}" || character == "\u{2}" {
                if !current.isEmpty { parts.append(Snippet.Part(text: current, isHit: inHit)) }
                current = ""
                inHit = character == "\u{1}"
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { parts.append(Snippet.Part(text: current, isHit: inHit)) }
        return Snippet(parts: parts)
    }
}

extension String {
    /// Every `target` replaced by `replacement` (FoundationEssentials has no `replacingOccurrences`).
    func replacingAll(_ target: String, with replacement: String) -> String {
        let source = Array(self)
        let pattern = Array(target)
        guard !pattern.isEmpty, source.count >= pattern.count else { return self }
        var out = ""
        var index = 0
        while index < source.count {
            if index + pattern.count <= source.count, source[index..<index + pattern.count].elementsEqual(pattern) {
                out += replacement
                index += pattern.count
            } else {
                out.append(source[index])
                index += 1
            }
        }
        return out
    }
}
