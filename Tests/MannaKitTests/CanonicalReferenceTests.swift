import Foundation
import Testing
import TestSupport
@testable import MannaKit

/// `Reference.canonical`, the parser's fast path for what `description` writes (issue 31):
/// what it reads, it reads as the parser does; what it does not know, it leaves to the parser.
@Suite struct CanonicalReferenceTests {
    @Test func everyVerseOfTheDayIsReadByTheFastPathAsTheParserReadsIt() throws {
        let file = try String(contentsOfFile: BuiltTexts.root + "/curated/daily-verses.tsv", encoding: .utf8)
        // As the text database stores them (`TextDatabaseBuilder`): canonical, "Psalm 23:1".
        let references = try file.split(separator: "\n").dropFirst().map { try ReferenceParser.parse(String($0.split(separator: "\t")[2])).description }
        #expect(references.count == 366)
        var slow: [String] = []
        for text in references {
            let parsed = try ReferenceParser.parse(text)
            if let fast = Reference.canonical(text) { #expect(fast == parsed, "\(text)") } else { slow.append(text) }
        }
        // The forms it does not take (a whole psalm, verses across chapters) are few.
        #expect(slow.count < 20, "\(slow)")
    }

    @Test(arguments: ["Genesis 1:1", "John 3:16-18", "1 John 4:8", "Song of Solomon 2:4", "Revelation 22:21", "Psalm 23:1", "Psalm 119:176"])
    func aCanonicalReferenceReadsAsTheParserReadsIt(_ text: String) throws {
        let parsed = try ReferenceParser.parse(text)
        if let fast = Reference.canonical(text) { #expect(fast == parsed) }
        #expect(try Reference(parsing: text) == parsed)
    }

    /// Each is for the parser: not what `description` writes, or not a reference at all.
    @Test(arguments: ["jn 3:16", "John 3:16 ", " John 3:16", "John 03:16", "John 3:16-16", "John 3:18-16", "John 3:16-", "John 3:",
                      "John 4:99", "John 3:16-4:2", "John 3", "John 3:16, 18", "Jude 1:1-1:2", "John 3:1234", "Johnny 3:16", ""])
    func whatIsNotCanonicalIsLeftToTheParser(_ text: String) {
        #expect(Reference.canonical(text) == nil, "\(text)")
    }

    /// The book a stored reference names, found by its English name (and "Psalm"), exactly.
    @Test func everyBookIsFoundByItsNameAndNothingElseIs() {
        for book in Canon.books { #expect(Canon.book(named: book.name)?.number == book.number, "\(book.name)") }
        #expect(Canon.book(named: "Psalm")?.osis == "Ps")
        for text in ["", "john", "Jn", "John ", "Psalmss", "Psalm 23", "1John", "Song of Songs"] { #expect(Canon.book(named: text) == nil, "\(text)") }
    }

    @Test(arguments: [[], [""], ["", ""], ["John"], ["John", "3:16"], ["1", "John", "4:8", "KJV"], [" a", "b "]])
    func spacedIsJoinedBySpaces(_ words: [String]) {
        #expect(String.spaced(words) == words.joined(separator: " "))
    }
}
