import Foundation
import Testing

@Suite struct SearchTests {
    @Test func findsWordsAsPrefixesRankedWithMarkedHits() {
        let run = manna("search", "love one another")
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count >= 5)
        // The phrase ranks first, and is marked as one.
        #expect(lines.first?.hasPrefix("John 13:34 ") == true)
        #expect(lines.first?.contains("*love one another*") == true)
    }

    @Test func jsonGivesIdReferenceTranslationTextAndMatches() throws {
        let run = manna("search", "\"love one another\"", "--json", "--limit", "3", "--translation", "web")
        #expect(run.status == 0)
        let object = try #require(Manna.json(run) as? [String: Any])
        #expect(object["translation"] as? String == "WEB")
        let hits = try #require(object["hits"] as? [[String: Any]])
        #expect(hits.count == 3)
        for hit in hits {
            #expect(hit["id"] is Int)
            #expect(hit["reference"] is String)
            #expect(hit["translation"] as? String == "WEB")
            // Plain text, and where the words matched in it (a phrase is one match): no markup inside a string.
            let text = try #require(hit["text"] as? String)
            #expect(!text.contains("*"))
            let matches = try #require(hit["matches"] as? [[Int]])
            let scalars = Array(text.unicodeScalars)
            #expect(matches.map { String(String.UnicodeScalarView(scalars[$0[0]..<$0[1]])).lowercased() }.contains("love one another"))
        }
        #expect((object["total"] as? Int ?? 0) >= 3)
    }

    @Test func bookFilterKeepsHitsInThatBook() throws {
        let run = manna("search", "love", "--book", "1 Jn", "--json", "--limit", "1000")
        let hits = try #require((Manna.json(run) as? [String: Any])?["hits"] as? [[String: Any]])
        #expect(!hits.isEmpty)
        #expect(hits.allSatisfy { ($0["reference"] as? String)?.hasPrefix("1 John ") == true })
    }

    @Test func aVeryCommonWordIsCountedAndRanked() throws {
        let run = manna("search", "the", "--json", "--limit", "2")
        let object = try #require(Manna.json(run) as? [String: Any])
        // Every verse with a word starting "the", counted exactly; "the" itself ranks first.
        #expect(object["total"] as? Int == 27_500)
        let hits = try #require(object["hits"] as? [[String: Any]])
        #expect(hits.count == 2)
        #expect(hits.allSatisfy { (($0["text"] as? String) ?? "").lowercased().split(whereSeparator: { !$0.isLetter }).contains("the") })
    }

    @Test func limitAllPrintsEveryHit() throws {
        let run = manna("search", "Jairus", "--limit", "all")
        #expect(run.status == 0)
        #expect(run.stdout.split(separator: "\n").count == 2)
        #expect(run.stderr == "")
    }

    @Test func diacriticsDoNotMatter() {
        // The ASV prints "Jaïrus"; people type "Jairus".
        let run = manna("search", "Jairus", "--translation", "ASV", "--limit", "1")
        #expect(run.status == 0)
        #expect(run.stdout.contains("*Jaïrus*"))
    }

    /// Hostile input: each either finds verses or gets one line and a usage/data exit, never
    /// a crash, never an SQL message.
    @Test(arguments: [
        "\"", "\"\"", "'", "love\"", "-love", "love -hate", "love:hate", "text:love", "(love", "love)", "*", "love*",
        "**", "^love", "love OR hate", "love AND", "NOT", "NEAR(love hate, 2)", "NEAR", "AND OR NOT", "🙏", "love 🙏",
        "ἀγάπη", "αγαπη", "יְהוָה", "愛", "Жизнь", "\u{0}", "\u{7}love", "love\tone", "'; DROP TABLE verses; --",
        "verses_fts", "rank", "bm25(verses_fts)", "{text}: love", "love + one", "\\", "%", "_", "?", "$(whoami)",
        "e\u{301}", "\u{202E}love", "😀😀😀", "a", "1", "3:16",
    ])
    func hostileInputNeverBreaksSearch(query: String) {
        precondition(Manna.textDatabaseReady)
        let run = Manna.run(["search", "--", query])
        #expect([0, 1, 64, 65].contains(run.status), "status \(run.status) for \(query.debugDescription): \(run.stderr)")
        #expect(!run.stderr.lowercased().contains("sql"), "\(run.stderr)")
        #expect(!run.stderr.lowercased().contains("fts5"), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count <= 1)
        if run.status != 0 { #expect(run.stderr.hasPrefix("manna: ")) }
    }

    @Test func aMegabyteOfInputGetsOneLine() {
        precondition(Manna.textDatabaseReady)
        // One argument can be at most 128 KiB on Linux: give the megabyte as eight.
        let chunk = String(repeating: "love ", count: 26_214)
        let run = Manna.run(["search"] + Array(repeating: chunk, count: 8))
        #expect(run.status == 65)
        #expect(run.stderr.hasPrefix("manna: search text is too long ("))
        #expect(run.stderr.split(separator: "\n").count == 1)
    }

    @Test(arguments: [
        (["search"], 64, "manna: nothing to search for: give words, like manna search \"love one another\"\n"),
        (["search", "🙏"], 65, "manna: '🙏' has no letters or digits to search for\n"),
        (["search", "love", "--limit", "0"], 64, "manna: --limit must be a whole number from 1 up, or 'all', not '0'\n"),
        (["search", "love", "--limit", "lots"], 64, "manna: --limit must be a whole number from 1 up, or 'all', not 'lots'\n"),
        (["search", "love", "--book", "Hezekiah"], 65, "manna: no book called 'Hezekiah'\n"),
        (["search", "\"love"], 65, "manna: a quoted phrase is not closed: add the closing \"\n"),
    ])
    func badSearchesGetOneLine(arguments: [String], status: Int32, message: String) {
        precondition(Manna.textDatabaseReady)
        let run = Manna.run(arguments)
        #expect(run.status == status)
        #expect(run.stderr == message)
    }
}
