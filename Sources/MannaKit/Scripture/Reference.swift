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
        self = try Reference.reading(text, language: nil).reference
    }

    /// Parses what a user typed for a translation in `language` (BCP 47, nil when none is
    /// chosen): in Spanish "Mc 1:1" is Marcos and "Jn 3, 16" is John 3:16.
    public init(parsing text: String, language: String?) throws(ReferenceError) {
        self = try Reference.reading(text, language: language).reference
    }

    /// What a user typed, read for a translation in `language` (nil when none is chosen), and
    /// the language the reference is in: `language` when one is given, else "es" when it names
    /// a book as only Spanish does ("Juan 3:16", "Sal 23"), else nil ("Jn 3:16" is English as
    /// much as Spanish). A Spanish reference with no translation chosen reads in a Spanish one.
    public static func reading(_ text: String, language: String?) throws(ReferenceError) -> (reference: Reference, language: String?) {
        if let canonical = Reference.canonical(text) { return (canonical, language) }
        return try ReferenceParser.parse(text, language: language)
    }

    /// The reference `description` writes for one verse or a run of verses in one chapter
    /// ("John 3:16", "Lamentations 3:22-23"), read by bytes, without the parser: the form the
    /// verses of the day and most marks are stored in, which the parser took a third of a
    /// `manna today` to read. Nil for any other text, which the parser reads; and nil unless
    /// the reference writes back as `text`, so it never reads a text otherwise than the parser.
    static func canonical(_ text: String) -> Reference? {
        let bytes = Array(text.utf8)
        guard let space = bytes.lastIndex(of: UInt8(ascii: " ")), let colon = bytes.lastIndex(of: UInt8(ascii: ":")), colon > space else { return nil }
        func number(_ digits: ArraySlice<UInt8>) -> Int? {
            guard (1...3).contains(digits.count), digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        let dash = bytes[colon...].firstIndex(of: UInt8(ascii: "-")) ?? bytes.endIndex
        guard let chapter = number(bytes[(space + 1)..<colon]), let first = number(bytes[(colon + 1)..<dash]),
              let last = dash == bytes.endIndex ? first : number(bytes[(dash + 1)...]), first <= last else { return nil }
        // One psalm is "Psalm 23:1" (`ReferenceFormatter.bookName`); the write-back below checks it.
        guard let book = Canon.book(named: String(decoding: bytes[..<space], as: UTF8.self)) else { return nil }
        let range = (VerseID(book: book.number, chapter: chapter, verse: first), VerseID(book: book.number, chapter: chapter, verse: last))
        guard range.0.isValid, range.1.isValid else { return nil }
        let reference = Reference(VerseRange(first: range.0, last: range.1))
        return reference.description == text ? reference : nil
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
    public var description: String { ReferenceFormatter.format(ranges, language: "en") }

    /// The reference with the book names of `language` (BCP 47): "Juan 3:16", "Salmo 23" in
    /// Spanish; `description` in English and any other.
    public func label(in language: String) -> String { ReferenceFormatter.format(ranges, language: language) }

    /// How one verse is named: "John 3:16", and a psalm's title (its verse 0) "Psalm 3 (title)".
    public static func label(of id: VerseID, in language: String = "en") -> String {
        guard id.verse == 0 else { return Reference(id).label(in: language) }
        let psalm = String(Reference(VerseID(rawValue: id.rawValue + 1)).label(in: language).prefix { $0 != ":" })
        return psalm + " (" + Language.of(language).psalmTitle + ")"
    }

    /// The length of the longest one-verse reference in `books` ("Song of Solomon 3:11"): a
    /// column that fits any verse before the verses are known.
    public static func longestVerseLabel(in books: [Book], language: String = "en") -> Int {
        var longest = 0
        for book in books {
            for chapter in 1...book.chapterCount {
                let last = VerseID(book: book.number, chapter: chapter, verse: book.verseCount(chapter: chapter) ?? 1)
                longest = max(longest, Reference(last).label(in: language).count)
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
    /// A name no book has; `language` is the one the reference was read in, whose names
    /// the message suggests.
    case unknownBook(String, language: String? = nil)
    case ambiguousBook(String, candidates: [String])
    case noSuchChapter(book: String, chapter: Int, chapters: Int)
    case noSuchVerse(book: String, chapter: Int, verse: Int, verses: Int)
    case backwards(String)
    /// Two numbers with only a space between, where it is not clear which was meant.
    case spacedNumbers(String)
    /// A range from one book back into an earlier one ("Exod 2 - Gen 50").
    case booksBackwards(String)
    /// A chapter in roman numerals that is not in the one form read ("John iii. 16").
    case romanChapter(String)
    /// "Joh 3,16, 18": a continental "chapter,verse" and a list's ", " in one part.
    case mixedCommas(String)

    public var message: String {
        switch self {
        case .empty:
            return tr("no reference given: write one like 'John 3:16', 'Ps 23' or 'Gen 1:1-2:3'")
        case .malformed(let text):
            return tr("cannot read '{text}' as a reference: write it like 'John 3:16', 'John 3:16-18, 20' or 'Ps 23'", ("text", text))
        case .missingBook(let text):
            return tr("'{text}' needs a book name first, like 'John {text}'", ("text", text))
        case .unknownBook(let name, let language):
            return tr("no book called '{name}'", ("name", name))
                + (Canon.closestBook(to: name, language: language).map { tr("; did you mean '{name}'?", ("name", $0)) } ?? "")
        case .ambiguousBook(let name, let candidates):
            return tr("'{name}' could be {candidates}: type more of the name", ("name", name), ("candidates", listed(candidates, conjunction: tr("or"))))
        case .noSuchChapter(let book, let chapter, let chapters):
            let book = Canon.book(named: book)?.name(in: Messages.current.language) ?? book
            if chapter < 1 { return tr("chapters start at 1: {book} has no chapter {chapter}", ("book", book), ("chapter", chapter)) }
            return trn("{book} has only {count} chapter", "{book} has only {count} chapters", count: chapters, ("book", book))
        case .noSuchVerse(let book, let chapter, let verse, let verses):
            // One psalm is "Psalm 11", as the labels say it.
            let named = Canon.book(named: book)
            let book = Messages.current.language == "en" ? (book == "Psalms" ? "Psalm" : book) : named?.name(in: Messages.current.language) ?? book
            if verse < 1 { return tr("verses start at 1: {book} {chapter} has no verse {verse}", ("book", book), ("chapter", chapter), ("verse", verse)) }
            return trn("{book} {chapter} has only {count} verse", "{book} {chapter} has only {count} verses", count: verses, ("book", book), ("chapter", chapter))
        case .backwards(let text):
            return tr("'{text}' runs backwards: put the earlier verse first", ("text", text))
        case .spacedNumbers(let text):
            return tr("'{text}' has numbers with only a space between: write the chapter and verse as '3:16', a range as '16-18'", ("text", text))
        case .booksBackwards(let text):
            return tr("'{text}' runs backwards from one book into an earlier one: put the earlier book first", ("text", text))
        case .romanChapter(let text):
            return tr("cannot read the roman chapter number in '{text}': write i. to cl. in small letters with a full stop, like 'John iii. 16', or in figures, like 'John 3:16'", ("text", text))
        case .mixedCommas(let text):
            return tr("'{text}' uses ',' both between chapter and verse and between items: write '3:16, 18' for a list, '3,16' alone for chapter and verse", ("text", text))
        }
    }
}

/// "a, b or c" — the way an error message lists choices.
public func listed(_ items: [String], conjunction: String) -> String {
    guard items.count > 1 else { return items.first ?? "" }
    return items.dropLast().joined(separator: ", ") + " \(conjunction) " + items.last!
}

/// Reads references: `Book [chapter[:verse][-[chapter:]verse]][, more]…[; more]…`.
///
/// A segment after `;` without a book continues the previous book ("Matthew 28:5,6; 24:44").
/// After a verse, a bare number after `,` is another verse of that chapter ("John 3:16,18");
/// otherwise it is a chapter ("Ps 23, 24"). In a one-chapter book a bare number is a verse
/// ("Jude 3"), except a lone "1", which is the chapter ("Jude 1"). In Spanish "3, 16" is
/// chapter and verse (`continental`).
enum ReferenceParser {
    /// More digits than any chapter or verse number can have; stops overflow on hostile input.
    private static let maxDigits = 4

    /// The reference in `text`, read for a translation in `language` (nil when none is chosen),
    /// and its language (`Reference.reading`).
    static func parse(_ text: String, language: String?) throws(ReferenceError) -> (reference: Reference, language: String?) {
        let trimmed = cleaned(text)
        guard !trimmed.isEmpty else { throw .empty }
        var ranges: [VerseRange] = []
        var book: Book?
        // How the current book was named, and whether any book was named as only Spanish names it.
        var spelling = Spelling()
        var namedInSpanish = false
        for segment in parts(trimmed) {
            let segmentText = withoutLeadingWords(segment.trimmingSpaces)
            guard !segmentText.isEmpty else { throw .malformed(trimmed) }
            // "John iii. 16; iv. 1": a part that starts with a roman chapter continues the book
            // before ("i." would otherwise be found as the start of "Isaiah"); with none before
            // it has no book.
            if book == nil && startsWithRomanChapter(segmentText) { throw .missingBook(segmentText) }
            let (named, spec, namedSpelling) = book != nil && startsWithRomanChapter(segmentText)
                ? (nil, segmentText, Spelling()) : try bookName(withWords(segmentText), original: trimmed, language: language)
            if let named {
                book = named
                spelling = namedSpelling
                namedInSpanish = namedInSpanish || spelling.onlySpanish
            }
            guard let current = book else {
                throw segmentText.first?.isNumber == true ? .missingBook(segmentText) : .malformed(trimmed)
            }
            // Whether the numbers are written the Spanish way ("Mt 5, 3-12") matters only where a
            // comma is, and only there is the Spanish table asked.
            var spanishNumbers = language == "es"
            if !spanishNumbers && spec.contains(",") {
                let spanishBook = spelling.onlySpanish ? current : Canon.spanishSpelling(spelling.name)
                // "Mc 1, 1-8": Micah's abbreviation in English, Marcos's in Spanish, with the
                // numbers written the Spanish way and no translation chosen to say which is meant.
                if named != nil, let other = spanishBook, other != current, !spec.contains(":") {
                    throw .ambiguousBook(spelling.name, candidates: [current.name, other.name(in: "es")])
                }
                spanishNumbers = spanishBook == current
            }
            if let (start, other, end) = try rangeIntoBook(spec, original: segmentText, language: language) {
                // "Ps 23; - Rom 1": a range from a whole book names that book in its own part.
                guard named != nil || !start.trimmingSpaces.isEmpty else { throw .malformed(trimmed) }
                if other == current {
                    // An OSIS range repeats the book: "Gen.1.1-Gen.1.3", "1Cor.13.4-1Cor.13.7".
                    ranges += try parseSpec(start + "-" + end, in: current, spanish: spanishNumbers, original: segmentText)
                } else {
                    ranges += try acrossBooks(from: start, in: current, to: end, in: other, spanish: spanishNumbers, original: segmentText)
                    book = other
                }
            } else {
                ranges += try parseSpec(spec, in: current, spanish: spanishNumbers, original: segmentText)
            }
        }
        return (Reference(ranges: ranges), language ?? (namedInSpanish ? "es" : nil))
    }

    // MARK: The text around the reference

    /// The reference without what surrounds it when it is pasted or quoted: Unicode spaces,
    /// full-width digits and dashes made plain, invisible characters gone (a web page's
    /// zero-width space or soft hyphen must not make "John 3:16" unreadable), then quotes and
    /// brackets around the whole, a list's trailing "," or ";" and emoji at either end taken off.
    static func cleaned(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x00AD, 0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF: continue  // soft hyphen, zero-width characters, BOM
            case 0xFF10...0xFF19: scalars.append(Unicode.Scalar(scalar.value - 0xFF10 + 0x30)!)  // full-width digits
            case 0xFF1A: scalars.append(":")
            case 0xFF0C: scalars.append(",")
            case 0xFF1B: scalars.append(";")
            case 0xFF0E: scalars.append(".")
            // Every dash is a range's dash: hyphen, non-breaking hyphen, figure dash, en and em
            // dashes, horizontal bar, minus sign, and their small and full-width forms.
            case 0x2010...0x2015, 0x2212, 0xFE58, 0xFE63, 0xFF0D: scalars.append("-")
            default:
                scalars.append(scalar.properties.isWhitespace ? " " : scalar)
            }
        }
        var text = String(scalars).trimmingSpaces
        while true {
            let before = text
            while let last = text.last, isSymbol(last) { text.removeLast(); text = text.trimmingSpaces }
            while let first = text.first, isSymbol(first) { text.removeFirst(); text = text.trimmingSpaces }
            if text.last == "," || text.last == ";" { text.removeLast(); text = text.trimmingSpaces }
            // "(John 3:16)." and "“John 3:16.”": a full stop after the closing mark is the sentence's.
            if text.hasSuffix("."), let mark = text.dropLast().last, closingMarks.contains(mark) { text.removeLast() }
            if text.count >= 2, let first = text.first, let last = text.last,
               (first == "(" && last == ")") || (first == "[" && last == "]") || (quotes.contains(first) && quotes.contains(last)) {
                text = String(text.dropFirst().dropLast()).trimmingSpaces
            }
            if text == before { return text }
        }
    }

    private static let quotes: Set<Character> = ["\"", "'", "“", "”", "„", "‘", "’", "‚", "«", "»"]
    private static let closingMarks: Set<Character> = [")", "]", "\"", "'", "”", "“", "’", "‘", "»"]

    /// An emoji or other symbol (Unicode So and Sk), as a tweet ends or starts: "Phil 4:13 🙏".
    private static func isSymbol(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first else { return false }
        switch scalar.properties.generalCategory {
        case .otherSymbol, .modifierSymbol: return true
        default: return false
        }
    }

    /// A part without the words a footnote or a prayer book puts before the book: "cf. Rom 8:28",
    /// "See John 3:16", "see also Ps 23", "St. Matthew 5:9", "Saint John 3:16".
    private static func withoutLeadingWords(_ text: String) -> String {
        var text = text
        var changed = true
        while changed {
            changed = false
            for word in ["cf.", "cf", "see", "also", "st.", "st", "saint"] where text.count > word.count {
                guard text.lowercased().hasPrefix(word) else { continue }
                let rest = text.dropFirst(word.count)
                // The word alone, not the start of another ("Stephen", "seed").
                guard rest.first == " " || (word.hasSuffix(".") && rest.first?.isLetter == true) else { continue }
                let after = String(rest).trimmingSpaces
                guard after.first.map({ $0.isLetter || $0.isNumber }) == true else { continue }
                text = after
                changed = true
            }
        }
        return text
    }

    // MARK: Parts and book names

    /// The parts a reference lists, each with its book or continuing the one before: split at
    /// ";", and at a "," or "and" that a book name follows ("John 3:16, 1 John 4:8", "John 3:16
    /// and Rom 8:28"). Each part is as written, for messages; `withWords` reads its words.
    private static func parts(_ text: String) -> [String] {
        var parts: [String] = []
        for segment in text.split(separator: ";", omittingEmptySubsequences: false) {
            let characters = Array(segment)
            var pieces: [(separator: String, text: String)] = []
            var separator = ""
            var start = 0
            var index = 0
            while index < characters.count {
                var length = 0
                if characters[index] == "," {
                    length = 1
                } else if index + 3 <= characters.count, String(characters[index..<index + 3]).lowercased() == "and",
                          index == 0 || characters[index - 1] == " ",
                          index + 3 == characters.count || characters[index + 3] == " " {
                    length = 3
                }
                guard length > 0 else {
                    index += 1
                    continue
                }
                pieces.append((separator, String(characters[start..<index])))
                separator = String(characters[index..<index + length])
                index += length
                start = index
            }
            pieces.append((separator, String(characters[start...])))
            for (number, piece) in pieces.enumerated() {
                if parts.isEmpty || number == 0 || namesBook(withWords(piece.text).trimmingSpaces) {
                    parts.append(piece.text)
                } else {
                    parts[parts.count - 1] += piece.separator + piece.text
                }
            }
        }
        return parts
    }

    /// A part with its words read: "and" is a list's comma, "to", "through" and "thru" a range's
    /// dash ("John 3:16 and 18", "John 3:16 to 18", "Matthew to John").
    private static func withWords(_ text: String) -> String {
        text.split(separator: " ", omittingEmptySubsequences: false).map { word -> String in
            switch word.lowercased() {
            case "and": return ","
            case "to", "through", "thru": return "-"
            default: return String(word)
            }
        }.joined(separator: " ")
    }

    /// Whether `text` starts with a book's name rather than more numbers of the book before: a
    /// book found by its name ("1 John"; "Mic", though its letters could be a roman numeral),
    /// or a word that is neither written among the numbers ("v.", "ff") nor a roman numeral, so
    /// that an unknown name is refused as one; "29b" is a verse and its part.
    private static func namesBook(_ text: String) -> Bool {
        let (name, _) = splitBookName(text)
        guard let first = name.first, !startsWithRomanChapter(text) else { return false }
        if (try? bookName(text, original: text, language: nil).book) != nil { return true }
        guard first.isLetter else { return false }
        let word = String(name.prefix { $0.isLetter || $0 == "." })
        return !isVerseWord(word) && !chapterWords.contains(word.lowercased()) && !looksRoman(word)
    }

    /// Words written among the numbers that are not a book: "v.", "vv.", "ff", a verse's part.
    private static func isVerseWord(_ word: String) -> Bool {
        verseWords.contains(word.lowercased()) || ["f", "ff", "f.", "ff."].contains(word.lowercased())
    }

    private static let verseWords: Set<String> = ["v", "v.", "vv", "vv.", "ver", "ver.", "verse", "verses", "vs", "vs."]
    private static let chapterWords: Set<String> = ["chapter", "chap", "chap.", "ch", "ch."]

    /// The book a part names, if it names one, and the rest of the part. The words that follow a
    /// name in older or spoken styles ("John chapter 3", "Jude v. 3", "John iii. 16") are not
    /// part of it; they are taken off only when what is left is a book, so "1 Ch" (1 Chronicles)
    /// keeps its "Ch", and before trying the whole, so "Phil. i. 3" is Philippians 1:3, never
    /// "Phil. i." read as a prefix of "Philippians". `language` is the one the reference is read in.
    private static func bookName(_ text: String, original: String, language: String?) throws(ReferenceError) -> (book: Book?, rest: String, spelling: Spelling) {
        let (name, rest) = splitBookName(text)
        guard !name.isEmpty else { return (nil, rest, Spelling()) }
        // Where each word of the name starts.
        var starts: [String.Index] = []
        var index = name.startIndex
        while index < name.endIndex {
            if name[index] != " " && (index == name.startIndex || name[name.index(before: index)] == " ") { starts.append(index) }
            index = name.index(after: index)
        }
        var ambiguous: (String, [Book])?
        for kept in 1...starts.count {
            let end = kept < starts.count ? starts[kept] : name.endIndex
            let trailing = name[end...].split(separator: " ")
            guard trailing.allSatisfy({ isNameFollower(String($0)) }) else { continue }
            let candidate = String(name[..<end]).trimmingSpaces
            // "3 v. 3" is no book: a number alone would be found as the start of "3 John".
            guard candidate.contains(where: \.isLetter) else { continue }
            let (lookup, table) = Canon.find(candidate, language: language)
            switch lookup {
            case .found(let book):
                return (book, String(name[end...]) + rest, Spelling(name: candidate, onlySpanish: table == "es"))
            case .ambiguous(let books): if ambiguous == nil { ambiguous = (candidate, books) }
            case .unknown: break
            }
        }
        if let (candidate, books) = ambiguous { throw .ambiguousBook(candidate, candidates: books.map { $0.name(in: language ?? "en") }) }
        if name.contains(where: { $0.isLetter }) { throw .unknownBook(name, language: language) }
        throw .malformed(original)
    }

    /// How a part wrote its book's name: the name, whose Spanish book (`Canon.spanishSpelling`:
    /// "Jn", "Mt", "Juan", "Mc" Marcos) may have its numbers written the Spanish way, and
    /// whether only Spanish names the book so ("Juan", not "Jn").
    private struct Spelling {
        var name = ""
        var onlySpanish = false
    }

    /// A word that may follow a book's name without being part of it: "chapter", "ch.", "v.",
    /// "vv.", or a chapter in roman numerals ("iii.", and "III" or "iii" to be refused).
    private static func isNameFollower(_ word: String) -> Bool {
        let lower = word.lowercased()
        return verseWords.contains(lower) || chapterWords.contains(lower) || looksRoman(lower)
    }

    /// "iv. 1", "xxiii.": a chapter in roman numerals as the one form read writes it, which is
    /// never a book's name, though "i" starts "Isaiah" and "lv" is an abbreviation of Leviticus.
    private static func startsWithRomanChapter(_ text: String) -> Bool {
        let word = text.prefix { $0.isLetter }
        return romanNumerals[String(word)] != nil && text.dropFirst(word.count).first == "."
    }

    /// Letters that only a roman numeral is made of ("iii", "xxiii.", and "iiii" or "cli" to be
    /// refused, not read as part of a book's name).
    private static func looksRoman(_ word: String) -> Bool {
        let letters = word.lowercased().hasSuffix(".") ? word.lowercased().dropLast() : Substring(word.lowercased())
        return !letters.isEmpty && letters.allSatisfy { "ivxlcdm".contains($0) }
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

    // MARK: Ranges into another book

    /// A range whose end names a book ("50 - Exod 2", "1.1-Exod.1.3", "-John"): the start's
    /// numbers, the book named and the end's numbers; nil when no dash is followed by a book.
    private static func rangeIntoBook(_ spec: String, original: String, language: String?) throws(ReferenceError) -> (String, Book, String)? {
        var index = spec.startIndex
        while index < spec.endIndex {
            defer { index = spec.index(after: index) }
            guard spec[index] == "-" || spec[index] == "–" || spec[index] == "—" else { continue }
            let after = String(spec[spec.index(after: index)...]).trimmingSpaces
            guard namesBook(after) else { continue }
            let (book, end, _) = try bookName(withoutLeadingWords(after), original: original, language: language)
            guard let book else { continue }
            return (String(spec[..<index]), book, end)
        }
        return nil
    }

    /// "Gen 50 - Exod 2", "Gen 50:22-Exod 1:7", "Matthew-John": one range for each book, from
    /// the start to the end of its book, every book between whole, then the last book from its
    /// start. Each end is one point, a chapter or a verse, or nothing for the book's edge.
    private static func acrossBooks(from startSpec: String, in startBook: Book, to endSpec: String, in endBook: Book,
                                    spanish: Bool, original: String) throws(ReferenceError) -> [VerseRange] {
        guard startBook.number < endBook.number else { throw .booksBackwards(original) }
        func single(_ spec: String, in book: Book) throws(ReferenceError) -> Point? {
            let text = try readable(spec, in: book, spanish: spanish, original: original).filter { !$0.isWhitespace }.replacingAll(".", with: ":")
            if text.isEmpty { return nil }
            guard !text.contains(","), !text.contains("-") else { throw .malformed(original) }
            return try point(text, verseContext: nil, book: book, alone: true, original: original)
        }
        let first: VerseID
        switch try single(startSpec, in: startBook) {
        case nil: first = VerseID(book: startBook.number, chapter: 1, verse: 1)
        case .chapter(let chapter)?: first = VerseID(book: startBook.number, chapter: chapter, verse: 1)
        case .verse(let chapter, let verse)?: first = VerseID(book: startBook.number, chapter: chapter, verse: verse)
        }
        let last: VerseID
        switch try single(endSpec, in: endBook) {
        case nil: last = try lastVerse(ofChapter: endBook.chapterCount, in: endBook)
        case .chapter(let chapter)?: last = try lastVerse(ofChapter: chapter, in: endBook)
        case .verse(let chapter, let verse)?: last = VerseID(book: endBook.number, chapter: chapter, verse: verse)
        }
        var ranges = [VerseRange(first: first, last: try lastVerse(ofChapter: startBook.chapterCount, in: startBook))]
        for number in startBook.number + 1..<endBook.number {
            let book = Canon.books[number - 1]
            ranges.append(VerseRange(first: VerseID(book: number, chapter: 1, verse: 1), last: try lastVerse(ofChapter: book.chapterCount, in: book)))
        }
        ranges.append(VerseRange(first: VerseID(book: endBook.number, chapter: 1, verse: 1), last: last))
        return ranges
    }

    // MARK: Numbers

    private enum Point {
        case chapter(Int)
        case verse(chapter: Int, verse: Int)
    }

    /// Roman numerals i to cl, each in its one correct spelling ("iv", never "iiii"): the
    /// chapters of the longest book.
    private static let romanNumerals: [String: Int] = {
        let values = [(100, "c"), (90, "xc"), (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")]
        var table: [String: Int] = [:]
        for number in 1...150 {
            var rest = number
            var spelling = ""
            for (value, letters) in values {
                while rest >= value { spelling += letters; rest -= value }
            }
            table[spelling] = number
        }
        return table
    }()

    /// A chapter in roman numerals, as nineteenth-century books print it ("John iii. 16",
    /// "Ps. xxiii.", "Gen. i. 1-ii. 3"), made figures: only in small letters with a full stop
    /// and where a chapter stands (first, or after a range's dash). Other spellings ("III. 16",
    /// "iii 16") are refused rather than guessed. In a one-chapter book "v." is "verse".
    private static func romanChapters(_ spec: String, in book: Book, original: String) throws(ReferenceError) -> String {
        let characters = Array(spec)
        var out = ""
        var index = 0
        var chapterPlace = true
        while index < characters.count {
            let character = characters[index]
            if character == " " {
                out.append(character)
                index += 1
                continue
            }
            if chapterPlace, character.isLetter {
                var end = index
                while end < characters.count, characters[end].isLetter { end += 1 }
                let word = String(characters[index..<end])
                if looksRoman(word), !verseWords.contains(word.lowercased()) || (book.chapterCount > 1 && word.lowercased() == "v") {
                    guard let number = romanNumerals[word], end < characters.count, characters[end] == "." else { throw .romanChapter(original) }
                    // In a one-chapter book a bare number is a verse: "Jude iii." must not be verse 3.
                    if book.chapterCount == 1 && number != 1 { throw .noSuchChapter(book: book.name, chapter: number, chapters: 1) }
                    out += String(number)
                    var next = end + 1
                    while next < characters.count, characters[next] == " " { next += 1 }
                    // "iii. 16": the chapter, then its verse.
                    if next < characters.count, characters[next].isNumber { out += ":" }
                    index = next
                    chapterPlace = false
                    continue
                }
            }
            chapterPlace = character == "-"
            out.append(character)
            index += 1
        }
        return out
    }

    /// The numbers of a part as people write them, in the form `parseSpec` reads: "3 v. 16",
    /// "chapter 3 verse 16" and "3 16" are "3:16", "3 16-18" is "3:16-18", "16a" and "1bc" are
    /// the verse, "16ff" runs to the end of the chapter ("16-$"), "16f" takes the next verse too
    /// ("16-+1"), a full stop at the end is dropped, and "3,16" is "3:16" in the continental way.
    /// Two numbers with only a space between, anywhere else, are refused: "Gen 1:1 3" could be
    /// 1:13 or 1:1-3. In Spanish "3, 16" is "3:16" too (`continental`).
    private static func readable(_ spec: String, in book: Book, spanish: Bool, original: String) throws(ReferenceError) -> String {
        var text = try romanChapters(spec.trimmingSpaces, in: book, original: original).trimmingSpaces
        if text.hasSuffix("."), text.dropLast().last.map({ $0.isNumber || $0.isLetter }) == true { text.removeLast() }
        text = try continental(text, in: book, spanish: spanish, original: original)
        // Words: "v."/"vv." (verse), "chapter", a part letter, "f"/"ff".
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
            var word = String(text[index..<end]).lowercased()
            if end < text.endIndex, text[end] == "." { end = text.index(after: end); word += "." }
            let afterDigit = out.last?.isNumber == true
            let afterNumber = out.trimmingSpaces.last?.isNumber == true  // "16 ff"
            switch word {
            case _ where verseWords.contains(word):
                // "3 v. 16", "3, v 16": the verse of the chapter before; "Jude v. 3": of the only one.
                while out.last == " " || out.last == "," { out.removeLast() }
                if out.isEmpty {
                    guard book.chapterCount == 1 else { throw .malformed(original) }
                    out = "1"
                }
                out.append(":")
            case _ where chapterWords.contains(word):
                // "chapter 3": the number that follows is the chapter, as it would be anyway.
                guard out.trimmingSpaces.isEmpty else { throw .malformed(original) }
            case _ where afterDigit && isVersePart(word):
                // "16a", "1bc": part of a verse is read as the verse.
                break
            case _ where afterNumber && ["f", "f.", "ff", "ff."].contains(word):
                out = out.trimmingSpaces + (word.hasPrefix("ff") ? "-$" : "-+1")
            default:
                throw .malformed(original)
            }
            index = end
        }
        // Numbers with only spaces between: a chapter, then its verse or verses ("3 16", "3 16-18").
        let words = out.split(whereSeparator: \.isWhitespace)
        if words.count >= 2, words[0].allSatisfy(\.isNumber), words[1].first?.isNumber == true,
           !hasSpacedNumbers(words.dropFirst().joined(separator: " ")), isVerseOrRange(words.dropFirst().joined()) {
            return words[0] + ":" + words.dropFirst().joined()
        }
        if hasSpacedNumbers(out) { throw .spacedNumbers(original) }
        return out
    }

    /// "a", "b", "bc", "ab.": the part of a verse a lectionary names.
    private static func isVersePart(_ word: String) -> Bool {
        let letters = word.hasSuffix(".") ? word.dropLast() : Substring(word)
        return (1...3).contains(letters.count) && letters.allSatisfy { "abcde".contains($0) }
    }

    /// "16", "16-18", "16-$": one verse or a range within the chapter.
    private static func isVerseOrRange(_ text: String) -> Bool {
        let ends = text.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...2).contains(ends.count), !ends[0].isEmpty, ends[0].allSatisfy(\.isNumber) else { return false }
        return ends.count == 1 || ends[1] == "$" || ends[1] == "+1" || (!ends[1].isEmpty && ends[1].allSatisfy(\.isNumber))
    }

    /// Two numbers with only spaces between ("1 3").
    private static func hasSpacedNumbers(_ text: String) -> Bool {
        var previous: Character?
        var sawSpace = false
        for character in text {
            if character.isWhitespace {
                sawSpace = previous != nil
                continue
            }
            if sawSpace, character.isNumber, previous?.isNumber == true { return true }
            sawSpace = false
            previous = character
        }
        return false
    }

    /// "Joh 3,16", "Mt 5,3-12", "Mt 5,3-7,2": a comma with no space after it between two numbers,
    /// in a part with no colon, in a book of several chapters, is the continental way of writing
    /// chapter and verse. With a space after it ("Ps 23, 91") a comma lists chapters, and in a
    /// one-chapter book verses ("Jude 1,3"); both kinds in one part are refused as unclear.
    /// Spanish Bibles and Catholic lectionaries write chapter and verse so with the space too
    /// ("Mt 5, 3-12", "Jds 1, 3"): in Spanish (`spanish`) a comma between numbers is always
    /// chapter and verse, in a book of one chapter too, two chapters take a ";", and verses
    /// are listed with a full stop.
    private static func continental(_ text: String, in book: Book, spanish: Bool, original: String) throws(ReferenceError) -> String {
        guard !text.contains(":") else { return text }
        let text = spanish ? withoutSpacesAfterCommas(text) : text
        guard spanish || book.chapterCount > 1 else { return text }
        let characters = Array(text)
        guard let first = characters.firstIndex(of: ","), first > 0, characters[first - 1].isNumber,
              first + 1 < characters.count, characters[first + 1].isNumber else { return text }
        var out = ""
        var afterListStop = false
        for (index, character) in characters.enumerated() {
            if afterListStop && character == " " { continue }
            afterListStop = false
            // "Hch 2, 14. 22-33", "Sal 22, 1-3a. 3b-4": in Spanish a full stop after the verse
            // lists another verse of the chapter, as lectionaries write it.
            if spanish, character == ".", out.contains(":"), characters[(index + 1)...].first(where: { $0 != " " })?.isNumber == true {
                out.append(",")
                afterListStop = true
                continue
            }
            guard character == "," else {
                out.append(character)
                continue
            }
            let between = index > 0 && characters[index - 1].isNumber && index + 1 < characters.count && characters[index + 1].isNumber
            guard between else { throw .mixedCommas(original) }
            out.append(":")
        }
        return out
    }

    /// "5, 3": the spaces after a comma that has a number on both sides taken out.
    private static func withoutSpacesAfterCommas(_ text: String) -> String {
        var out = ""
        var afterComma = false
        for character in text {
            if afterComma && character == " " { continue }
            if afterComma && !character.isNumber && out.last == "," { out.append(" ") }
            afterComma = character == "," && out.last?.isNumber == true
            out.append(character)
        }
        return out
    }

    private static func parseSpec(_ spec: String, in book: Book, spanish: Bool, original: String) throws(ReferenceError) -> [VerseRange] {
        let spec = try readable(spec, in: book, spanish: spanish, original: original)
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
    // Written as UTF-8 bytes, numbers digit by digit: a list of a million notes names a million
    // passages, and interpolating them was a third of what it cost.
    static func format(_ ranges: [VerseRange], language: String) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(24)
        var previous: VerseRange?
        for range in ranges {
            if let previous, previous.book == range.book {
                let sameChapter = previous.last.chapter == range.first.chapter && range.first.chapter == range.last.chapter
                if sameChapter && !previous.isWholeChapters && !range.isWholeChapters {
                    text += ", ".utf8
                    versePart(range, into: &text)
                } else {
                    text += "; ".utf8
                    chapterPart(range, into: &text)
                }
            } else {
                if previous != nil { text += "; ".utf8 }
                text += bookName(for: range, language: language).utf8
                if !range.isWholeBook {
                    text.append(UInt8(ascii: " "))
                    chapterPart(range, into: &text)
                }
            }
            previous = range
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// "Psalm 23" for one psalm, "Psalms 23-25" for several ("Salmo", "Salmos" in Spanish).
    private static func bookName(for range: VerseRange, language: String) -> String {
        if range.book.osis == "Ps" && range.first.chapter == range.last.chapter { return Language.of(language).psalm }
        return range.book.name(in: language)
    }

    /// "3", "3-4", "3:16", "3:16-18", "3:16-4:2".
    private static func chapterPart(_ range: VerseRange, into text: inout [UInt8]) {
        let (first, last) = (range.first, range.last)
        digits(first.chapter, into: &text)
        if range.isWholeChapters {
            if first.chapter != last.chapter {
                text.append(UInt8(ascii: "-"))
                digits(last.chapter, into: &text)
            }
        } else if first.chapter == last.chapter {
            text.append(UInt8(ascii: ":"))
            versePart(range, into: &text)
        } else {
            text.append(UInt8(ascii: ":"))
            digits(first.verse, into: &text)
            text.append(UInt8(ascii: "-"))
            digits(last.chapter, into: &text)
            text.append(UInt8(ascii: ":"))
            digits(last.verse, into: &text)
        }
    }

    /// "16", "16-18".
    private static func versePart(_ range: VerseRange, into text: inout [UInt8]) {
        digits(range.first.verse, into: &text)
        if range.first != range.last {
            text.append(UInt8(ascii: "-"))
            digits(range.last.verse, into: &text)
        }
    }

    /// A chapter or verse number (0 to 999) in decimal.
    private static func digits(_ number: Int, into text: inout [UInt8]) {
        if number >= 100 { text.append(UInt8(ascii: "0") + UInt8(number / 100 % 10)) }
        if number >= 10 { text.append(UInt8(ascii: "0") + UInt8(number / 10 % 10)) }
        text.append(UInt8(ascii: "0") + UInt8(number % 10))
    }
}

extension String {
    /// The text on one line: newlines and other control characters become spaces, so text
    /// from a file can never move a terminal's cursor, end a prompt early, start an escape
    /// sequence (C1 controls are one-character CSI and OSC) or turn the line around (bidi
    /// overrides and isolates).
    public var singleLine: String {
        guard !isSingleLine else { return self }
        var out = String.UnicodeScalarView()
        var previous: Unicode.Scalar?
        for scalar in unicodeScalars {
            defer { previous = scalar }
            if scalar == "\n" && previous == "\r" { continue }  // CRLF is one break: one space
            out.append(String.isTerminalControl(scalar) ? " " : scalar)
        }
        return String(out)
    }

    /// True when `singleLine` is the text itself, as most text is: no byte that can start a
    /// control, a line break or a separator (C1 controls start with 0xC2 in UTF-8, line
    /// separators and bidi controls with 0xE2). Checked over the bytes before anything is rebuilt.
    public var isSingleLine: Bool {
        withUTF8Bytes { bytes in
            !bytes.contains { byte in byte &- 0x20 >= 0x5F && (byte < 0x20 || byte == 0x7F || byte == 0xE2 || byte == 0xC2) }
        }
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
        // Most text holds no `target`: its bytes nowhere means no match by characters either,
        // said without making an array of characters (a tick renders a week of prompt lines).
        let needle = Array(target.utf8)
        let present = withUTF8Bytes { bytes in
            guard let first = needle.first, bytes.count >= needle.count else { return false }
            return (0...(bytes.count - needle.count)).contains { start in
                bytes[start] == first && bytes[start..<(start + needle.count)].elementsEqual(needle)
            }
        }
        guard present else { return self }
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

    /// The words of a command line as one text, a space between each: what `joined(separator:)`
    /// gives, without the generic look-up that costs the Swift runtime, on its first use in a
    /// command, a search of the program's conformances (100,000 instructions, 5% of a read).
    public static func spaced(_ words: [String]) -> String {
        var text = ""
        for (index, word) in words.enumerated() {
            if index > 0 { text += " " }
            text += word
        }
        return text
    }

    /// The string without leading and trailing whitespace (FoundationEssentials has no `trimmingCharacters`).
    public var trimmingSpaces: String {
        guard let start = firstIndex(where: { !$0.isWhitespace }),
              let end = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[start...end])
    }
}
