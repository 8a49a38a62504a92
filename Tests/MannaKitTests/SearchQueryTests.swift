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
