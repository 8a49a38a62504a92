// References as people type them ("jn 3:16-18", "Matthew 28:5,6; 24:44") and as Manna prints them.

/// A run of consecutive verses within one book, first to last inclusive.
public struct VerseRange: Hashable, Sendable {
    public let first: VerseID
    public let last: VerseID

    public init(first: VerseID, last: VerseID) {
        precondition(first.book == last.book && first <= last, "a range stays in one book and runs forwards")
        self.first = first
        self.last = last
    }

    public var book: Book { Canon.books[first.book - 1] }

    /// Every verse of the range, in order.
    public var verseIDs: [VerseID] {
        var ids: [VerseID] = []
        var current: VerseID? = first
        while let id = current, id <= last {
            ids.append(id)
            current = id.next
        }
        return ids
    }

    var startsAtChapterStart: Bool { first.verse == 1 }
    var endsAtChapterEnd: Bool { book.verseCount(chapter: last.chapter) == last.verse }
    var isWholeChapters: Bool { startsAtChapterStart && endsAtChapterEnd }
    var isWholeBook: Bool { isWholeChapters && first.chapter == 1 && last.chapter == book.chapterCount }
}

/// A passage: one or more verse ranges, in the order they were written.
public struct Reference: Hashable, Sendable, CustomStringConvertible {
    public let ranges: [VerseRange]

    public init(ranges: [VerseRange]) {
        precondition(!ranges.isEmpty)
        self.ranges = ranges
    }

    public init(_ range: VerseRange) { self.init(ranges: [range]) }

    /// A single verse.
    public init(_ id: VerseID) { self.init(VerseRange(first: id, last: id)) }

    /// Parses what a user typed. Throws a `ReferenceError` whose message says what is wrong.
    public init(parsing text: String) throws(ReferenceError) {
        self = try ReferenceParser.parse(text)
    }

    public var verseIDs: [VerseID] { ranges.flatMap(\.verseIDs) }

    /// How many verses the passage names, counting no further than `limit + 1`: enough to
    /// tell a request too large to print without building it.
    public func verseCount(upTo limit: Int) -> Int {
        var count = 0
        for range in ranges {
            var current: VerseID? = range.first
            while let id = current, id <= range.last {
                count += 1
                if count > limit { return count }
                current = id.next
            }
        }
        return count
    }

    /// The canonical spelling: "John 3:16, 18", "Genesis 1:1-2:3", "Psalm 23", "Matthew 28:5-6; 24:44".
    public var description: String { ReferenceFormatter.format(ranges) }

    /// How one verse is named: "John 3:16", and a psalm's title (its verse 0) "Psalm 3 (title)".
    public static func label(of id: VerseID) -> String {
        id.verse == 0 ? String(Reference(VerseID(rawValue: id.rawValue + 1)).description.prefix { $0 != ":" }) + " (title)" : Reference(id).description
    }

    /// The length of the longest one-verse reference in `books` ("Song of Solomon 3:11"): a
    /// column that fits any verse before the verses are known.
    public static func longestVerseLabel(in books: [Book]) -> Int {
        var longest = 0
        for book in books {
            for chapter in 1...book.chapterCount {
                let last = VerseID(book: book.number, chapter: chapter, verse: book.verseCount(chapter: chapter) ?? 1)
                longest = max(longest, Reference(last).description.count)
            }
        }
        return longest
    }
}

/// Why a reference cannot be meant. Each message is one line naming the problem.
public enum ReferenceError: Error, Equatable, Sendable {
    case empty
    case malformed(String)
    case missingBook(String)
    case unknownBook(String)
    case ambiguousBook(String, candidates: [String])
    case noSuchChapter(book: String, chapter: Int, chapters: Int)
    case noSuchVerse(book: String, chapter: Int, verse: Int, verses: Int)
    case backwards(String)
    /// Two numbers with only a space between, where it is not clear which was meant.
    case spacedNumbers(String)
    /// A range from one book into another.
    case acrossBooks(String)

    public var message: String {
        switch self {
        case .empty:
            return "no reference given: write one like 'John 3:16', 'Ps 23' or 'Gen 1:1-2:3'"
        case .malformed(let text):
            return "cannot read '\(text)' as a reference: write it like 'John 3:16', 'John 3:16-18, 20' or 'Ps 23'"
        case .missingBook(let text):
            return "'\(text)' needs a book name first, like 'John \(text)'"
        case .unknownBook(let name):
            return "no book called '\(name)'" + (Canon.closestBook(to: name).map { "; did you mean '\($0)'?" } ?? "")
        case .ambiguousBook(let name, let candidates):
            return "'\(name)' could be \(listed(candidates, conjunction: "or")): type more of the name"
        case .noSuchChapter(let book, let chapter, let chapters):
            if chapter < 1 { return "chapters start at 1: \(book) has no chapter \(chapter)" }
            return "\(book) has only \(chapters) chapter\(chapters == 1 ? "" : "s")"
        case .noSuchVerse(let book, let chapter, let verse, let verses):
            // One psalm is "Psalm 11", as the labels say it.
            let book = book == "Psalms" ? "Psalm" : book
            if verse < 1 { return "verses start at 1: \(book) \(chapter) has no verse \(verse)" }
            return "\(book) \(chapter) has only \(verses) verses"
        case .backwards(let text):
            return "'\(text)' runs backwards: put the earlier verse first"
        case .spacedNumbers(let text):
            return "'\(text)' has numbers with only a space between: write the chapter and verse as '3:16', a range as '16-18'"
        case .acrossBooks(let text):
            return "'\(text)' runs from one book into another: give each book its own part, like 'Gen 50; Exod 1-2'"
        }
    }
}

/// "a, b or c" — the way an error message lists choices.
func listed(_ items: [String], conjunction: String) -> String {
    guard items.count > 1 else { return items.first ?? "" }
    return items.dropLast().joined(separator: ", ") + " \(conjunction) " + items.last!
}

/// Reads references: `Book [chapter[:verse][-[chapter:]verse]][, more]…[; more]…`.
///
/// A segment after `;` without a book continues the previous book ("Matthew 28:5,6; 24:44").
/// After a verse, a bare number after `,` is another verse of that chapter ("John 3:16,18");
/// otherwise it is a chapter ("Ps 23, 24"). In a one-chapter book a bare number is a verse
/// ("Jude 3"), except a lone "1", which is the chapter ("Jude 1").
enum ReferenceParser {
    /// More digits than any chapter or verse number can have; stops overflow on hostile input.
    private static let maxDigits = 4

    static func parse(_ text: String) throws(ReferenceError) -> Reference {
        let trimmed = text.trimmingSpaces
        guard !trimmed.isEmpty else { throw .empty }
        var ranges: [VerseRange] = []
        var book: Book?
        for segment in parts(trimmed) {
            let segmentText = segment.trimmingSpaces
            guard !segmentText.isEmpty else { throw .malformed(trimmed) }
            let (bookText, spec) = splitBookName(segmentText)
            if !bookText.isEmpty {
                switch Canon.lookup(bookText) {
                case .found(let found): book = found
                case .ambiguous(let books): throw .ambiguousBook(bookText, candidates: books.map(\.name))
                case .unknown:
                    if bookText.contains(where: { $0.isLetter }) { throw .unknownBook(bookText) }
                    throw .malformed(trimmed)
                }
            }
            guard let book else {
                throw segmentText.first?.isNumber == true ? .missingBook(segmentText) : .malformed(trimmed)
            }
            ranges += try parseSpec(spec, in: book, original: segmentText)
        }
        return Reference(ranges: ranges)
    }

    /// The parts a reference lists, each with its book or continuing the one before: split at
    /// ";", and at a "," that a book name follows ("John 3:16, 1 John 4:8").
    private static func parts(_ text: String) -> [String] {
        var parts: [String] = []
        for segment in text.split(separator: ";", omittingEmptySubsequences: false) {
            for piece in segment.split(separator: ",", omittingEmptySubsequences: false) {
                let (bookText, _) = splitBookName(String(piece).trimmingSpaces)
                let namesBook = !bookText.isEmpty && bookText.contains(where: \.isLetter) && !isVerseWord(bookText)
                if parts.isEmpty || namesBook || piece.startIndex == segment.startIndex {
                    parts.append(String(piece))
                } else {
                    parts[parts.count - 1] += "," + piece
                }
            }
        }
        return parts
    }

    /// Words written among the numbers that are not a book: "v.", "vv.", "ff", a verse's part.
    private static func isVerseWord(_ word: String) -> Bool {
        ["v", "v.", "vv", "vv.", "ver", "ver.", "verse", "verses", "f", "ff", "f.", "ff."].contains(word.lowercased())
    }

    /// Splits "1 Cor 13:4-7" into ("1 Cor", "13:4-7"): an optional leading number, then
    /// the letters, spaces and full stops of the name.
    private static func splitBookName(_ text: String) -> (String, String) {
        let characters = Array(text)
        var index = 0
        // A leading book number ("1 Cor", "2Tim") belongs to the name when a letter follows it.
        while index < characters.count, characters[index].isNumber { index += 1 }
        var next = index
        while next < characters.count, characters[next] == " " || characters[next] == "." { next += 1 }
        if !(index > 0 && next < characters.count && characters[next].isLetter) { index = 0 }
        while index < characters.count, characters[index].isLetter || characters[index] == " " || characters[index] == "." {
            index += 1
        }
        return (String(characters[..<index]).trimmingSpaces, String(characters[index...]))
    }

    private enum Point {
        case chapter(Int)
        case verse(chapter: Int, verse: Int)
    }

    /// The numbers of a part as people write them, in the form `parseSpec` reads: "3 v. 16" and
    /// "3 16" are "3:16", "16a" is "16", "16ff" runs to the end of the chapter ("16-$"), "16f"
    /// takes the next verse too ("16-+1"), a full stop at the end is dropped, and an OSIS range's
    /// second book ("Gen.1.1-Gen.1.3") is dropped when it is the same book. Two numbers with
    /// only a space between, anywhere else, are refused: "Gen 1:1 3" could be 1:13 or 1:1-3.
    private static func readable(_ spec: String, in book: Book, original: String) throws(ReferenceError) -> String {
        var text = spec.trimmingSpaces
        if text.hasSuffix("."), text.dropLast().last.map({ $0.isNumber || $0.isLetter }) == true { text.removeLast() }
        // Words: "v."/"vv." (verse), a part letter, "f"/"ff", the same book again.
        var out = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            guard character.isLetter else {
                out.append(character)
                index = text.index(after: index)
                continue
            }
            var end = index
            while end < text.endIndex, text[end].isLetter { end = text.index(after: end) }
            let name = String(text[index..<end])
            var word = name.lowercased()
            if end < text.endIndex, text[end] == "." { end = text.index(after: end); word += "." }
            let afterDigit = out.last?.isNumber == true
            switch word {
            case "v", "v.", "vv", "vv.", "ver", "ver.", "verse", "verses":
                // "3 v. 16", "3, v 16": the verse of the chapter before.
                while out.last == " " || out.last == "," { out.removeLast() }
                out.append(":")
            case "a", "b", "c", "d", "a.", "b.", "c.", "d." where afterDigit:
                break
            case "ff", "ff.": out += afterDigit ? "-$" : word
            case "f", "f.": out += afterDigit ? "-+1" : word
            default:
                // An OSIS range repeats the book: "Gen.1.1-Gen.1.3".
                guard out.trimmingSpaces.hasSuffix("-") else { throw .malformed(original) }
                switch Canon.lookup(name) {
                case .found(let other) where other == book: break
                case .found: throw .acrossBooks(original)
                default: throw .malformed(original)
                }
                if end < text.endIndex, text[end] == "." || text[end] == " " { end = text.index(after: end) }
            }
            index = end
        }
        // Numbers with only spaces between.
        let words = out.split(whereSeparator: \.isWhitespace)
        if words.count == 2, words.allSatisfy({ $0.allSatisfy(\.isNumber) }) { return words[0] + ":" + words[1] }
        var previous: Character?
        var sawSpace = false
        for character in out {
            if character.isWhitespace {
                sawSpace = previous != nil
                continue
            }
            if sawSpace, character.isNumber, previous?.isNumber == true { throw .spacedNumbers(original) }
            sawSpace = false
            previous = character
        }
        return out
    }

    private static func parseSpec(_ spec: String, in book: Book, original: String) throws(ReferenceError) -> [VerseRange] {
        let spec = try readable(spec, in: book, original: original)
        // Dashes of every kind mean a range; "3.16" means "3:16".
        var cleaned = ""
        for character in spec where !character.isWhitespace {
            switch character {
            case "–", "—", "‐", "‑", "−": cleaned.append("-")
            case ".": cleaned.append(":")
            default: cleaned.append(character)
            }
        }
        if cleaned.isEmpty {
            return [VerseRange(first: VerseID(book: book.number, chapter: 1, verse: 1),
                               last: try lastVerse(ofChapter: book.chapterCount, in: book))]
        }
        var ranges: [VerseRange] = []
        var verseContext: Int?  // the chapter of the last verse written in this segment
        let items = cleaned.split(separator: ",", omittingEmptySubsequences: false)
        for item in items {
            let ends = item.split(separator: "-", omittingEmptySubsequences: false)
            guard ends.count <= 2 else { throw .malformed(original) }
            let single = ends.count == 1
            // In a one-chapter book a lone "1" is the chapter ("Jude 1"), but in a list it is a verse ("Jude 1,3").
            let start = try point(String(ends[0]), verseContext: verseContext, book: book, alone: single && items.count == 1, original: original)
            let firstID: VerseID
            let startChapter: Int
            var startIsVerse = false
            switch start {
            case .chapter(let chapter):
                startChapter = chapter
                firstID = VerseID(book: book.number, chapter: chapter, verse: 1)
            case .verse(let chapter, let verse):
                startChapter = chapter
                startIsVerse = true
                firstID = VerseID(book: book.number, chapter: chapter, verse: verse)
            }
            var lastID = firstID
            var endIsVerse = startIsVerse
            if single {
                if !startIsVerse { lastID = try lastVerse(ofChapter: startChapter, in: book) }
            } else if ends[1] == "$" || ends[1] == "+1" {
                // "16ff": to the end of the chapter; "16f": and the next verse.
                guard startIsVerse else { throw .malformed(original) }
                let chapterEnd = try lastVerse(ofChapter: startChapter, in: book)
                lastID = ends[1] == "$" ? chapterEnd : VerseID(book: book.number, chapter: startChapter, verse: min(firstID.verse + 1, chapterEnd.verse))
            } else {
                switch try point(String(ends[1]), verseContext: startIsVerse ? startChapter : nil, book: book, alone: false, original: original) {
                case .chapter(let chapter):
                    lastID = try lastVerse(ofChapter: chapter, in: book)
                    endIsVerse = false
                case .verse(let chapter, let verse):
                    lastID = VerseID(book: book.number, chapter: chapter, verse: verse)
                    endIsVerse = true
                }
                if lastID < firstID { throw .backwards(original) }
            }
            verseContext = endIsVerse ? lastID.chapter : nil
            ranges.append(VerseRange(first: firstID, last: lastID))
        }
        return ranges
    }

    /// Reads "16", "3:16" as a chapter or verse, checking it exists.
    private static func point(_ text: String, verseContext: Int?, book: Book, alone: Bool, original: String) throws(ReferenceError) -> Point {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { throw .malformed(original) }
        var numbers: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.count <= maxDigits, part.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let number = Int(part) else { throw .malformed(original) }
            numbers.append(number)
        }
        if numbers.count == 2 {
            try checkChapter(numbers[0], in: book)
            try checkVerse(numbers[1], chapter: numbers[0], in: book)
            return .verse(chapter: numbers[0], verse: numbers[1])
        }
        let number = numbers[0]
        if let chapter = verseContext {
            try checkVerse(number, chapter: chapter, in: book)
            return .verse(chapter: chapter, verse: number)
        }
        if book.chapterCount == 1 && !(alone && number == 1) {
            try checkVerse(number, chapter: 1, in: book)
            return .verse(chapter: 1, verse: number)
        }
        try checkChapter(number, in: book)
        return .chapter(number)
    }

    private static func checkChapter(_ chapter: Int, in book: Book) throws(ReferenceError) {
        guard book.verseCount(chapter: chapter) != nil else {
            throw .noSuchChapter(book: book.name, chapter: chapter, chapters: book.chapterCount)
        }
    }

    private static func checkVerse(_ verse: Int, chapter: Int, in book: Book) throws(ReferenceError) {
        let count = book.verseCount(chapter: chapter) ?? 0
        guard verse >= 1 && verse <= count else {
            throw .noSuchVerse(book: book.name, chapter: chapter, verse: verse, verses: count)
        }
    }

    private static func lastVerse(ofChapter chapter: Int, in book: Book) throws(ReferenceError) -> VerseID {
        try checkChapter(chapter, in: book)
        return VerseID(book: book.number, chapter: chapter, verse: book.verseCount(chapter: chapter)!)
    }
}

/// Prints references in one canonical style.
enum ReferenceFormatter {
    static func format(_ ranges: [VerseRange]) -> String {
        var text = ""
        var previous: VerseRange?
        for range in ranges {
            if let previous, previous.book == range.book {
                let sameChapter = previous.last.chapter == range.first.chapter && range.first.chapter == range.last.chapter
                if sameChapter && !previous.isWholeChapters && !range.isWholeChapters {
                    text += ", " + versePart(range)
                } else {
                    text += "; " + chapterPart(range)
                }
            } else {
                if previous != nil { text += "; " }
                text += bookName(for: range)
                if !range.isWholeBook { text += " " + chapterPart(range) }
            }
            previous = range
        }
        return text
    }

    /// "Psalm 23" for one psalm, "Psalms 23-25" for several.
    private static func bookName(for range: VerseRange) -> String {
        if range.book.osis == "Ps" && range.first.chapter == range.last.chapter { return "Psalm" }
        return range.book.name
    }

    private static func chapterPart(_ range: VerseRange) -> String {
        let (first, last) = (range.first, range.last)
        if range.isWholeChapters {
            return first.chapter == last.chapter ? "\(first.chapter)" : "\(first.chapter)-\(last.chapter)"
        }
        if first.chapter == last.chapter { return "\(first.chapter):" + versePart(range) }
        return "\(first.chapter):\(first.verse)-\(last.chapter):\(last.verse)"
    }

    private static func versePart(_ range: VerseRange) -> String {
        range.first == range.last ? "\(range.first.verse)" : "\(range.first.verse)-\(range.last.verse)"
    }
}

extension String {
    /// The text on one line: newlines and other control characters become spaces, so text
    /// from a file can never move a terminal's cursor, end a prompt early, start an escape
    /// sequence (C1 controls are one-character CSI and OSC) or turn the line around (bidi
    /// overrides and isolates).
    public var singleLine: String {
        // Most text has none: check the bytes before rebuilding anything (C1 controls start
        // with 0xC2 in UTF-8, line separators and bidi controls with 0xE2).
        let suspect = utf8.contains { $0 < 0x20 || $0 == 0x7F || $0 == 0xE2 || $0 == 0xC2 }
        guard suspect else { return self }
        var out = String.UnicodeScalarView()
        var previous: Unicode.Scalar?
        for scalar in unicodeScalars {
            defer { previous = scalar }
            if scalar == "\n" && previous == "\r" { continue }  // CRLF is one break: one space
            out.append(String.isTerminalControl(scalar) ? " " : scalar)
        }
        return String(out)
    }

    /// C0 and C1 controls, DEL, the line and paragraph separators, and the bidirectional
    /// embeddings, overrides and isolates: what must not reach a terminal from user text.
    public static func isTerminalControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// Every `target` replaced by `replacement` (FoundationEssentials has no `replacingOccurrences`).
    public func replacingAll(_ target: String, with replacement: String) -> String {
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

    /// The string without leading and trailing whitespace (FoundationEssentials has no `trimmingCharacters`).
    public var trimmingSpaces: String {
        guard let start = firstIndex(where: { !$0.isWhitespace }),
              let end = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[start...end])
    }
}
