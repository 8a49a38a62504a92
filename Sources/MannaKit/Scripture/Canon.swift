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
    /// In Spanish (`language` "es") the Spanish names and forms are asked first, and the name
    /// suggested is the Spanish one ("Stgoo": Santiago).
    public static func closestBook(to name: String, language: String? = nil) -> String? {
        // Full names first: at the same distance a name wins over an abbreviation ("Jhon" is John, not Jon).
        let english = books.map { ($0.name, $0.name) } + books.flatMap { book in ([book.osis] + book.abbreviations).map { ($0, book.name) } }
        guard language == "es" else { return closest(to: name, in: english) }
        let spanishForms = Canon.spanish.map { ($0.name, $0.name) } + Canon.spanish.flatMap { book in book.abbreviations.map { ($0, book.name) } }
        return closest(to: name, in: spanishForms) ?? closest(to: name, in: english)
    }

    private static func closest(to name: String, in spellings: [(String, String)]) -> String? {
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
    /// "Song of Songs", "rev." — case, spaces and full stops do not matter. `language` is the
    /// language the reference is read in (the chosen translation's), nil when none is chosen.
    public static func lookup(_ typed: String, language: String? = nil) -> Lookup { find(typed, language: language).lookup }

    /// The book a user means and the language of the table that named it ("es" for "Juan", "en"
    /// for "Jn"). Each table is asked for a whole form, then for a prefix of a name only one
    /// book's starts with ("Gene", "Phile"); the other table only when the first has no book
    /// starting that way. Without a language English is asked first, so an English reference
    /// never pays for Spanish; in Spanish ("es") Spanish is ("Mc" is Marcos, "Ez" Ezequiel).
    static func find(_ typed: String, language: String?) -> (lookup: Lookup, language: String) {
        let key = normalizedKey(typed)
        guard !key.isEmpty else { return (.unknown, "en") }
        let english = { () -> Lookup in englishForm(key).map { .found($0) } ?? englishPrefix(key) }
        let spanish = { () -> Lookup in
            let folded = withoutAccents(key)
            return spanishForm(folded).map { .found($0) } ?? spanishPrefix(folded)
        }
        let tables = language == "es" ? [("es", spanish), ("en", english)] : [("en", english), ("es", spanish)]
        for (table, lookup) in tables {
            let found = lookup()
            if found != .unknown { return (found, table) }
        }
        return (.unknown, "en")
    }

    /// The book whose Spanish form `typed` is ("Jn", "Mt", "Juan", "Mc" Marcos), unless it is
    /// an English name or OSIS id ("Gen", "Rom", "Job"): a reference that names its book so may
    /// be written the Spanish way, one that names it as English writes it is read as English.
    static func spanishSpelling(_ typed: String) -> Book? {
        let key = normalizedKey(typed)
        guard let book = spanishForm(withoutAccents(key)) else { return nil }
        let keyBytes = Array(key.utf8)
        return books.contains { compactEquals($0.name, keyBytes) || compactEquals($0.osis, keyBytes) } ? nil : book
    }

    /// A full name, OSIS id or abbreviation: compared byte by byte, with no table built,
    /// because this runs once per `manna read` and start-up time is the budget.
    private static func englishForm(_ key: String) -> Book? {
        let keyBytes = Array(key.utf8)
        return books.first { book in
            compactEquals(book.name, keyBytes) || compactEquals(book.osis, keyBytes) || book.abbreviations.contains { compactEquals($0, keyBytes) }
        }
    }

    /// A prefix of a full name, when only one book's name starts that way: "Gene", "Phile".
    private static func englishPrefix(_ key: String) -> Lookup {
        found(books.filter { book in
            let name = compactKey(book.name)
            return name.hasPrefix(key) && sameNumberPrefix(key, name)
        })
    }

    /// A Spanish name or abbreviation ("Juan", "Sal", "1 Corintios", "Apocalipsis"), with or
    /// without its accents ("Genesis", "Exodo"). `tools/check-book-names` checks that no
    /// Spanish form names two books, and lists those that name another book in English.
    private static func spanishForm(_ folded: String) -> Book? {
        Canon.spanish.indices.first { index in
            ([Canon.spanish[index].name] + Canon.spanish[index].abbreviations).contains { withoutAccents(compactKey($0)) == folded }
        }.map { books[$0] }
    }

    /// A prefix of one Spanish name ("Mate", "Apoc"), accents aside.
    private static func spanishPrefix(_ folded: String) -> Lookup {
        found(Canon.spanish.indices.filter { index in
            let name = withoutAccents(compactKey(Canon.spanish[index].name))
            return name.hasPrefix(folded) && sameNumberPrefix(folded, name)
        }.map { books[$0] })
    }

    private static func found(_ matches: [Book]) -> Lookup {
        switch matches.count {
        case 0: .unknown
        case 1: .found(matches[0])
        default: .ambiguous(matches)
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
    /// "1st", "First", "1ª", "Primera", … into a digit: "I John" and "1 Jn." both become "1jn…".
    static func normalizedKey(_ typed: String) -> String {
        let words = typed.split(whereSeparator: { $0 == " " || $0 == "." || $0 == "\t" })
        let ordinals = ["i": "1", "ii": "2", "iii": "3", "1st": "1", "2nd": "2", "3rd": "3",
                        "first": "1", "second": "2", "third": "3",
                        "1ª": "1", "2ª": "2", "3ª": "3", "primera": "1", "segunda": "2", "tercera": "3"]
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
