// The 66-book Protestant canon: names, OSIS ids, the abbreviations people type,
// and chapter and verse counts in KJV numbering (the scheme every verse id uses).

/// One book of the canon.
public struct Book: Sendable, Hashable {
    /// 1 (Genesis) through 66 (Revelation).
    public let number: Int
    /// The name Manna prints: "Genesis", "1 Corinthians", "Song of Solomon".
    public let name: String
    /// The OSIS id: "Gen", "1Cor", "Song".
    public let osis: String
    /// Other names and abbreviations people use, as typed ("Jn", "Jno", "Canticles").
    public let abbreviations: [String]

    public var chapterCount: Int { Canon.verseCounts[number - 1].count }

    /// Verses in `chapter` (1-based), or nil when the book has no such chapter.
    public func verseCount(chapter: Int) -> Int? {
        let counts = Canon.verseCounts[number - 1]
        return chapter >= 1 && chapter <= counts.count ? counts[chapter - 1] : nil
    }

    public var isOldTestament: Bool { number <= 39 }

    /// The name Manna prints in `language` (BCP 47): "Juan" in Spanish, else the English name.
    public func name(in language: String) -> String {
        language == "es" ? Canon.spanish[number - 1].name : name
    }
}

/// The canon and its lookups.
public enum Canon {
    /// The book whose English name is `name`, and Psalms by "Psalm" too (as one psalm is
    /// written): how a stored reference names it (`Reference.canonical`). A scan of the 66
    /// names, most told apart by length alone, rather than a dictionary: making a
    /// `[String: Book]` costs the Swift runtime a search of every conformance in the program
    /// (300,000 instructions, a seventh of a `manna today`), a scan of the names 200 a look-up.
    static func book(named name: String) -> Book? {
        let length = name.utf8.count
        if let book = books.first(where: { $0.name.utf8.count == length && $0.name == name }) { return book }
        return name == "Psalm" ? books.first { $0.osis == "Ps" } : nil
    }

    /// The name of the book a mistyped name is nearest ("Jhon": John), by its name, OSIS id or
    /// an abbreviation; nil when none is within a couple of edits. Only for an error message.
    public static func closestBook(to name: String) -> String? {
        // Full names first: at the same distance a name wins over an abbreviation ("Jhon" is John, not Jon).
        let spellings = books.map { ($0.name, $0.name) } + books.flatMap { book in ([book.osis] + book.abbreviations).map { ($0, book.name) } }
        guard let closest = Suggestion.closest(to: name, in: spellings.map(\.0)) else { return nil }
        return spellings.first { $0.0 == closest }?.1
    }

    // The books (names, OSIS ids, abbreviations): Canon+English.swift, generated from
    // curated/book-names/en.tsv.

    /// The book numbered `number` (1...66), or nil.
    public static func book(number: Int) -> Book? {
        number >= 1 && number <= books.count ? books[number - 1] : nil
    }

    /// The result of looking up what a user typed as a book name.
    public enum Lookup: Equatable {
        case found(Book)
        case ambiguous([Book])
        case unknown
    }

    /// Finds the book a user means: "Jn", "1 Jn", "I John", "1st John", "First John",
    /// "Song of Songs", "rev." — case, spaces and full stops do not matter.
    public static func lookup(_ typed: String) -> Lookup {
        let key = normalizedKey(typed)
        guard !key.isEmpty else { return .unknown }
        let keyBytes = Array(key.utf8)
        // A full name, OSIS id or abbreviation: compared byte by byte, with no table built,
        // because this runs once per `manna read` and start-up time is the budget.
        for book in books where compactEquals(book.name, keyBytes) || compactEquals(book.osis, keyBytes)
            || book.abbreviations.contains(where: { compactEquals($0, keyBytes) }) {
            return .found(book)
        }
        // A prefix of a full name, when only one book's name starts that way: "Gene", "Phile".
        let matches = books.filter { book in
            let name = compactKey(book.name)
            return name.hasPrefix(key) && sameNumberPrefix(key, name)
        }
        switch matches.count {
        case 0: return spanishLookup(key)
        case 1: return .found(matches[0])
        default: return .ambiguous(matches)
        }
    }

    /// A Spanish name or abbreviation ("Juan", "Sal", "1 Corintios", "Apocalipsis"), with or
    /// without its accents ("Genesis", "Exodo"), or a prefix of one name: asked only when no
    /// English name matched, so an English reference never pays for it.
    /// `tools/check-book-names` checks that no Spanish form names another book in English.
    private static func spanishLookup(_ key: String) -> Lookup {
        let folded = withoutAccents(key)
        for (index, spanish) in Canon.spanish.enumerated()
        where ([spanish.name] + spanish.abbreviations).contains(where: { withoutAccents(compactKey($0)) == folded }) {
            return .found(books[index])
        }
        let matches = Canon.spanish.indices.filter { index in
            let name = withoutAccents(compactKey(Canon.spanish[index].name))
            return name.hasPrefix(folded) && sameNumberPrefix(folded, name)
        }.map { books[$0] }
        switch matches.count {
        case 0: return .unknown
        case 1: return .found(matches[0])
        default: return .ambiguous(matches)
        }
    }

    /// Spanish vowels without their accents, as people type them on an English keyboard.
    static func withoutAccents(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 >= 0x80 }) else { return text }
        let plain: [Character: Character] = ["á": "a", "é": "e", "í": "i", "ó": "o", "ú": "u", "ü": "u", "ñ": "n"]
        return String(text.map { plain[$0] ?? $0 })
    }

    /// A key only matches names with the same leading number ("1j" must not match "John").
    private static func sameNumberPrefix(_ key: String, _ name: String) -> Bool {
        key.first?.isNumber == name.first?.isNumber
    }

    /// True when `form`, lowercased and without spaces or full stops, is `key`.
    private static func compactEquals(_ form: String, _ key: [UInt8]) -> Bool {
        var index = 0
        for byte in form.utf8 {
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: ".") { continue }
            let lower = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
            guard index < key.count, key[index] == lower else { return false }
            index += 1
        }
        return index == key.count
    }

    /// Lowercases, drops spaces and full stops, and turns a leading "I", "II", "III",
    /// "1st", "First", … into a digit: "I John" and "1 Jn." both become "1jn…".
    static func normalizedKey(_ typed: String) -> String {
        let words = typed.split(whereSeparator: { $0 == " " || $0 == "." || $0 == "\t" })
        let ordinals = ["i": "1", "ii": "2", "iii": "3", "1st": "1", "2nd": "2", "3rd": "3",
                        "first": "1", "second": "2", "third": "3"]
        if words.count > 1, let digit = ordinals[words[0].lowercased()] {
            return digit + compactKey(words.dropFirst().joined())
        }
        return compactKey(typed)
    }

    /// Lowercase without spaces or full stops. Built for every table entry on each run,
    /// so ASCII (all of the table) takes a byte-level path instead of Unicode case mapping.
    static func compactKey(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if byte >= 0x80 { return text.lowercased().filter { $0 != " " && $0 != "." && $0 != "\t" } }
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "."), UInt8(ascii: "\t"): continue
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): bytes.append(byte + 32)
            default: bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
