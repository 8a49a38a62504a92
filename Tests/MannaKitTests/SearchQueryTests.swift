import TestSupport
import Testing
@testable import MannaKit

@Suite struct SearchQueryTests {
    @Test(arguments: [
        ("love one another", #""love"* "one"* "another"*"#),
        ("\"love one another\"", #""love one another""#),
        ("God \"so loved\" world", #""god"* "so loved" "world"*"#),
        ("long-suffering", #""long"* "suffering"*"#),
        ("John 3:16", #""john"* "3"* "16"*"#),
        ("love AND hate", #""love"* "and"* "hate"*"#),
        ("NEAR(love hate)", #""near"* "love"* "hate"*"#),
        ("NOT love", #""not"* "love"*"#),
        ("love*", #""love"*"#),
        ("(love) OR ^hate", #""love"* "or"* "hate"*"#),
        ("Jesús", #""jesús"*"#),
        ("❤️ love 🙏", #""love"*"#),
        ("יְהוָה", #""יְהוָה"*"#),
        ("ἀγάπη", #""ἀγάπη"*"#),
        ("愛", #""愛"*"#),
        ("'quoted'", #""quoted"*"#),
        ("a\u{0}b", #""a"* "b"*"#),
        // An apostrophe joins a word's pieces, straight or curly, as the index has them (issue 14, point 4).
        ("David's", #""david s""#),
        ("LORD’s house", #""lord s" "house"*"#),
        ("don't fear", #""don t" "fear"*"#),
        ("the world's", #""the"* "world s""#),
        // Ligatures: the KJV's Cæsar is found as Caesar, and the other way round (point 5).
        ("Caesar", #"("caesar"* OR "cæsar"*)"#),
        ("render unto Cæsar", #""render"* AND "unto"* AND ("caesar"* OR "cæsar"*)"#),
        ("\"unto Caesar\"", #"("unto caesar" OR "unto cæsar")"#),
        ("Phoebe", #"("phoebe"* OR "phœbe"*)"#),
        // Older spellings (issue 29): "honor" finds the KJV's "honour", "shew" the WEB's "show".
        ("honor", #"("honor"* OR "honour"*)"#),
        ("honourable men", #"("honourable"* OR "honorable"*) AND "men"*"#),
        ("shewbread", #"("shewbread"* OR "showbread"*)"#),
        ("musick", #"("musick"* OR "music"*)"#),
        ("music", #"("music"* OR "musick"*)"#),
        ("\"show me\"", #"("show me" OR "shew me")"#),
        ("love", #""love"*"#),
    ])
    func buildsSafeExpressions(typed: String, expression: String) throws {
        #expect(try SearchQuery(parsing: typed).expression == expression)
    }

    /// The ranking's extra phrases: each word whole, then all the words as one phrase (point 6).
    @Test func rankingAddsWholeWordsAndThePhrase() throws {
        let query = try SearchQuery(parsing: "son of man")
        #expect(query.rankedExpression == #"("son"* "of"* "man"*) OR ("son" "of" "man") OR ("son of man")"#)
        #expect(query.roles == [.term(0), .term(1), .term(2), .whole(0), .whole(1), .whole(2), .phrase])
        // One word: whole or not; a quoted phrase alone: nothing to add.
        #expect(try SearchQuery(parsing: "sin").rankedExpression == #"("sin"*) OR ("sin")"#)
        #expect(try SearchQuery(parsing: "\"son of man\"").rankedExpression == #""son of man""#)
        let caesar = try SearchQuery(parsing: "Caesar's")
        #expect(caesar.rankedExpression == #"("caesar s" OR "cæsar s")"#)
        #expect(caesar.roles == [.term(0), .term(0)])
    }

    /// Each older spelling is the KJV's own, and a search for today's finds it there; the
    /// older one finds today's in the WEB where the WEB has the word.
    @Test func everyOlderSpellingIsFoundFromTodaysAndBack() throws {
        let database = BuiltTexts.database
        let kjv = try database.translation(code: "KJV"), web = try database.translation(code: "WEB")
        for pair in SearchQuery.olderSpellings {
            let older = try database.search(SearchQuery(parsing: pair.today), in: kjv, limit: 200)
            #expect(older.hits.contains { $0.snippet.parts.contains { $0.isHit && $0.text.lowercased().hasPrefix(pair.older) } }, "\(pair.today) in the KJV")
            let plain = try database.search(SearchQuery(parsing: "\"" + pair.today + "\""), in: web, limit: 1)
            guard plain.total > 0 else { continue }
            let today = try database.search(SearchQuery(parsing: pair.older), in: web, limit: 200)
            #expect(today.hits.contains { $0.snippet.parts.contains { $0.isHit && $0.text.lowercased().hasPrefix(pair.today) } }, "\(pair.older) in the WEB")
        }
    }

    @Test(arguments: [
        ("", SearchError.empty),
        ("   ", SearchError.empty),
        ("\"\"", SearchError.nothingToSearch("\"\"")),
        ("🙏🙏", SearchError.nothingToSearch("🙏🙏")),
        ("*:-()^", SearchError.nothingToSearch("*:-()^")),
        ("\"love one", SearchError.unclosedQuote),
    ])
    func rejectsWithOneLine(typed: String, error: SearchError) {
        #expect(throws: error) { try SearchQuery(parsing: typed) }
        #expect(!error.message.contains("\n"))
    }

    /// Kept out of the parameterized table, whose arguments the test log prints.
    @Test func boundsTheInputBeforeAnyWork() {
        #expect(throws: SearchError.tooManyWords(40)) { try SearchQuery(parsing: String(repeating: "a ", count: 40)) }
        #expect(throws: SearchError.tooLong(characters: 1_048_576)) {
            try SearchQuery(parsing: String(repeating: "x", count: 1_048_576))
        }
    }

    @Test func messagesNameTheInput() {
        #expect(SearchError.nothingToSearch("🙏").message == "'🙏' has no letters or digits to search for")
        #expect(SearchError.tooLong(characters: 1_048_576).message == "search text is too long (1048576 characters); at most 500 are allowed")
    }
}
