// How search hits are ordered: a phrase above scattered words, a whole word above the start of
// a longer one, then bm25. Scored in Swift for each matching row, as FTS5's rank function.
#if canImport(Glibc)
import Glibc
#endif

/// The score of one matching verse. Higher is better; FTS5 sorts by its negative.
///
/// Three tiers, each ordered by bm25 (k1 = 1.2, b = 0.75, as FTS5's own):
/// 1. the verse has all the words as one phrase ("son of man");
/// 2. it has every word whole ("sin", not only "sing"; "ass", not only "Assyria");
/// 3. it matches only because a word is the start of a longer one.
///
/// In the first two tiers bm25 counts each word whole (how often "sin" occurs, not "sin" and
/// "sing" together): what put the verse there. That makes a lone word's order in its top
/// tier a property of the word alone, which the database keeps ready for common words
/// (`SearchChampions`).
///
/// bm25 needs each verse's length in words. FTS5 would read it from its `docsize` table, a
/// B-tree lookup for every matching row: for `the` (24,000 verses) most of the search. The
/// lengths are instead one BLOB a translation, read once (`VerseLengths`).
struct SearchRanking {
    /// What a phrase of `SearchQuery.rankedExpression` stands for.
    enum Role: Equatable, Sendable {
        /// A spelling of the query's word or quoted phrase number N: what matches, and what bm25 weighs.
        case term(Int)
        /// A spelling of word number N, whole: the second tier.
        case whole(Int)
        /// A spelling of all the words as one phrase: the first tier.
        case phrase
    }

    private static let k1 = 1.2
    private static let b = 0.75

    let roles: [Role]
    /// bm25's weight of each term (its inverse document frequency); all 1 for one term.
    private let weights: [Double]
    private let lengths: VerseLengths
    /// Whether the query has a second tier (some word was searched as a prefix).
    private let hasWholeTier: Bool
    /// Whether each term is also searched whole (an unquoted word); a quoted one is its own whole.
    private let searchedWhole: [Bool]
    /// Per-row scratch: each term's hits, as searched and whole.
    private var termHits: [Int]
    private var wholeHits: [Int]

    /// - Parameter matching: how many verses of the translation each term matches, for its
    ///   weight; empty when the query has one term (its weight changes no order).
    init(roles: [Role], matching: [Int], lengths: VerseLengths) {
        self.roles = roles
        self.lengths = lengths
        let terms = roles.reduce(0) { count, role in if case .term(let n) = role { max(count, n + 1) } else { count } }
        let rows = Double(lengths.rows)
        weights = matching.isEmpty ? Array(repeating: 1, count: terms) : matching.map { count in
            let n = Double(count)
            return max(1e-6, log((rows - n + 0.5) / (n + 0.5)))
        }
        var searchedWhole = Array(repeating: false, count: terms)
        for case .whole(let n) in roles { searchedWhole[n] = true }
        self.searchedWhole = searchedWhole
        hasWholeTier = searchedWhole.contains(true)
        termHits = Array(repeating: 0, count: terms)
        wholeHits = Array(repeating: 0, count: terms)
    }

    /// The score of verse `rowid`, given how often each phrase occurs in it.
    mutating func score(rowid: Int, hits: UnsafeBufferPointer<Int>) -> Double {
        for index in termHits.indices {
            termHits[index] = 0
            wholeHits[index] = 0
        }
        var phrase = false
        for (role, count) in zip(roles, hits) where count > 0 {
            switch role {
            case .term(let n): termHits[n] += count
            case .whole(let n): wholeHits[n] += count
            case .phrase: phrase = true
            }
        }
        var whole = hasWholeTier
        if hasWholeTier {
            for n in termHits.indices {
                if !searchedWhole[n] { wholeHits[n] = termHits[n] }
                if wholeHits[n] == 0 { whole = false }
            }
        }
        // bm25 stays under 1,000: at most 32 terms × weight ≤ 11 × 2.2.
        var tier = 0.0
        if phrase { tier += 2_000 }
        if whole { tier += 1_000 }
        return tier + bm25(rowid: rowid, frequencies: whole ? wholeHits : termHits)
    }

    /// bm25 of a verse in which term N occurs `frequencies[n]` times.
    private func bm25(rowid: Int, frequencies: [Int]) -> Double {
        let length = Double(lengths.length(of: rowid))
        let norm = SearchRanking.k1 * (1 - SearchRanking.b + SearchRanking.b * length / lengths.average)
        var sum = 0.0
        for (n, count) in frequencies.enumerated() where count > 0 {
            let frequency = Double(count)
            sum += weights[n] * frequency * (SearchRanking.k1 + 1) / (frequency + norm)
        }
        return sum
    }
}

/// The best `limit` of many verses offered in Bible order, best (lowest rank, as FTS5 orders)
/// first. A verse goes after those it ties with, so equal ranks stay in Bible order; most
/// verses cost one comparison.
struct TopRanked {
    let limit: Int
    private var kept: [(rank: Double, rowid: Int)] = []

    init(_ limit: Int) { self.limit = limit }

    mutating func offer(rank: Double, rowid: Int) {
        guard kept.count < limit || rank < kept[kept.count - 1].rank else { return }
        var lower = 0
        var upper = kept.count
        while lower < upper {
            let middle = (lower + upper) / 2
            if kept[middle].rank <= rank { lower = middle + 1 } else { upper = middle }
        }
        kept.insert((rank, rowid), at: lower)
        if kept.count > limit { kept.removeLast() }
    }

    var rowids: [Int] { kept.map(\.rowid) }
}

/// Each verse's length in words (tokens, as the index counts them), for bm25: one byte a
/// verse slot, in canonical order, with a slot for each chapter's verse 0 (a psalm's title).
struct VerseLengths: Sendable {
    let bytes: [UInt8]
    /// How many verses have a length: the translation's rows in the index.
    let rows: Int
    let average: Double

    init(bytes: [UInt8]) {
        self.bytes = bytes
        var rows = 0
        var total = 0
        for byte in bytes where byte > 0 {
            rows += 1
            total += Int(byte)
        }
        self.rows = max(rows, 1)
        average = rows == 0 ? 1 : Double(total) / Double(rows)
    }

    func length(of rowid: Int) -> Int {
        guard let slot = VerseLengths.slot(of: rowid), slot < bytes.count else { return Int(average) }
        return Int(bytes[slot])
    }

    /// Slots in all: every verse of the canon plus a verse 0 for every chapter.
    static var slotCount: Int { chapterStarts.last! }

    /// The slot of verse id `rowid`, or nil for an id outside the canon.
    static func slot(of rowid: Int) -> Int? {
        let book = rowid / 1_000_000
        let chapter = rowid / 1_000 % 1_000
        let verse = rowid % 1_000
        guard book >= 1, book <= Canon.verseCounts.count else { return nil }
        let counts = Canon.verseCounts[book - 1]
        guard chapter >= 1, chapter <= counts.count, verse <= counts[chapter - 1] else { return nil }
        return chapterStarts[bookFirstChapter[book - 1] + chapter - 1] + verse
    }

    /// The index in `chapterStarts` of each book's first chapter.
    private static let bookFirstChapter: [Int] = {
        var first: [Int] = []
        var chapters = 0
        for counts in Canon.verseCounts {
            first.append(chapters)
            chapters += counts.count
        }
        return first
    }()

    /// The first slot of each chapter in canonical order (its verse 0), and then the slot count.
    private static let chapterStarts: [Int] = {
        var starts: [Int] = []
        var slot = 0
        for counts in Canon.verseCounts {
            for verses in counts {
                starts.append(slot)
                slot += verses + 1
            }
        }
        starts.append(slot)
        return starts
    }()
}

/// The rank function registered on a text database's connection, and the ranking of the
/// search now running. A connection runs one search at a time.
final class SearchRanker {
    var current: SearchRanking?

    func score(rowid: Int, hits: UnsafeBufferPointer<Int>) -> Double {
        // FTS5 sorts ascending: the best verse has the lowest rank.
        -(current?.score(rowid: rowid, hits: hits) ?? 0)
    }
}

extension TextDatabase {
    /// Attaches the search index as schema `search`, once, and maps it: a common word's search
    /// reads a hundred pages of its index, a system call each when read, and mapped the kernel
    /// brings in their neighbours at one fault. Only a search pays for the index's schema.
    func openSearchIndex() throws(TextDatabaseError) {
        guard !searchIndexOpen else { return }
        let path = searchIndexPath
        guard Files.exists(path) else { throw .noSearchIndex(path: path) }
        do {
            try database.attach(path, as: "search", immutable: true)
            let version = try database.prepare("PRAGMA search.user_version")
            _ = try version.step()
            guard version.int(0) == TextDatabase.schemaVersion else { throw TextDatabaseError.wrongVersion(path: path, found: version.int(0)) }
            try database.execute("PRAGMA search.mmap_size = 1073741824")
        } catch let error as TextDatabaseError {
            throw error
        } catch {
            throw .damaged(path: path)
        }
        searchIndexOpen = true
    }

    /// The connection's rank function, `manna_rank`, registered at the first search.
    func ranker() throws(SQLiteError) -> SearchRanker {
        if let searchRanker { return searchRanker }
        let ranker = SearchRanker()
        try database.addRankFunction("manna_rank") { [unowned ranker] rowid, hits in ranker.score(rowid: rowid, hits: hits) }
        searchRanker = ranker
        return ranker
    }

    /// The lengths of `translation`'s verses, read once per connection.
    func verseLengths(of translation: Translation) throws(SQLiteError) -> VerseLengths {
        if let cached = lengthsByTranslation[translation.code] { return cached }
        let statement = try database.prepare("SELECT lengths FROM verse_lengths WHERE translation = ?1")
        try statement.bind(translation.code, at: 1)
        let lengths = VerseLengths(bytes: try statement.step() ? statement.bytes(0) : [])
        lengthsByTranslation[translation.code] = lengths
        return lengths
    }
}
