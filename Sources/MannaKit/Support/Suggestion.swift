// "Did you mean": the known word nearest a mistyped one, for commands, subcommands and keys.

public enum Suggestion {
    /// The candidate within a couple of edits of `word` (a letter added, dropped, changed, or
    /// two swapped: Damerau–Levenshtein), the nearest first; nil when none is that close.
    public static func closest(to word: String, in candidates: [String]) -> String? {
        let typed = Array(word.lowercased())
        let limit = typed.count <= 3 ? 1 : 2
        var best: (distance: Int, candidate: String)?
        for candidate in candidates {
            let distance = distanceBetween(typed, Array(candidate.lowercased()))
            if distance <= limit, distance < (best?.distance ?? Int.max) { best = (distance, candidate) }
        }
        return best?.candidate
    }

    /// "; did you mean 'read'?" for `word` among `candidates`, or `otherwise`.
    public static func hint(for word: String, in candidates: [String], otherwise: String) -> String {
        closest(to: word, in: candidates).map { tr("; did you mean '{name}'?", ("name", $0)) } ?? otherwise
    }

    /// The optimal string alignment distance: insertions, deletions, substitutions and
    /// transpositions of neighbours, each costing one.
    static func distanceBetween(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { rows[i][0] = i }
        for j in 0...b.count { rows[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1) }
            }
        }
        return rows[a.count][b.count]
    }
}
