import Testing
@testable import MannaKit

@Suite struct CanonTests {
    @Test func theCanonHas66BooksAnd1189Chapters() {
        #expect(Canon.books.count == 66)
        #expect(Canon.books.map(\.chapterCount).reduce(0, +) == 1189)
        #expect(Canon.verseCounts.joined().reduce(0, +) == 31_102)
    }

    @Test func verseIdsFollowTheDesign() {
        let id = VerseID(book: 43, chapter: 3, verse: 16)
        #expect(id.rawValue == 43_003_016)
        #expect((id.book, id.chapter, id.verse) == (43, 3, 16))
        #expect(id.isValid)
        #expect(!VerseID(book: 43, chapter: 3, verse: 37).isValid)
        #expect(VerseID(book: 1, chapter: 50, verse: 26).next == VerseID(book: 2, chapter: 1, verse: 1))
        #expect(VerseID(book: 66, chapter: 22, verse: 21).next == nil)
    }

    @Test(arguments: [
        ("Jn", "John"), ("Jno", "John"), ("jhn", "John"), ("1 Jn", "1 John"), ("I John", "1 John"), ("1John", "1 John"),
        ("1st John", "1 John"), ("First John", "1 John"), ("iii jn", "3 John"), ("Ps", "Psalms"), ("Psalm", "Psalms"),
        ("Psalms", "Psalms"), ("Song of Solomon", "Song of Solomon"), ("Song of Songs", "Song of Solomon"),
        ("Canticles", "Song of Solomon"), ("Rev", "Revelation"), ("Revelation of John", "Revelation"),
        ("rev.", "Revelation"), ("Gene", "Genesis"), ("Phile", "Philemon"), ("Phil", "Philippians"),
        ("II Kings", "2 Kings"), ("2Kgs", "2 Kings"), ("Jude", "Jude"), ("Obad", "Obadiah"), ("Mt", "Matthew"),
    ])
    func booksAreFoundByWhatPeopleType(typed: String, name: String) {
        #expect(Canon.lookup(typed) == .found(Canon.books.first { $0.name == name }!))
    }

    @Test func everyNameAndAbbreviationNamesOneBook() {
        var owner: [String: Int] = [:]
        for book in Canon.books {
            for form in [book.name, book.osis] + book.abbreviations {
                let key = Canon.compactKey(form)
                #expect(owner[key] == nil || owner[key] == book.number, "\(form) names two books")
                owner[key] = book.number
                #expect(Canon.lookup(form) == .found(book), "\(form)")
            }
        }
    }

    @Test func ambiguousAndUnknownNames() {
        guard case .ambiguous(let books) = Canon.lookup("Jo") else { Issue.record("Jo should be ambiguous"); return }
        #expect(books.map(\.name) == ["Joshua", "Job", "Joel", "Jonah", "John"])
        #expect(Canon.lookup("Hezekiah") == .unknown)
        #expect(Canon.lookup("") == .unknown)
    }
}
