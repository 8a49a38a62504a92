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
}

/// The canon and its lookups.
public enum Canon {
    // Abbreviations follow common usage (SBL style, and the short forms of study Bibles).
    // A book is also found by any prefix of its name that no other book shares ("Gene", "Hab").
    public static let books: [Book] = [
        ("Genesis", "Gen", ["Gn", "Ge"]),
        ("Exodus", "Exod", ["Ex", "Exo"]),
        ("Leviticus", "Lev", ["Lv", "Le"]),
        ("Numbers", "Num", ["Nu", "Nm", "Nb"]),
        ("Deuteronomy", "Deut", ["Dt", "De", "Deu"]),
        ("Joshua", "Josh", ["Jos", "Jsh"]),
        ("Judges", "Judg", ["Jdg", "Jg", "Jdgs"]),
        ("Ruth", "Ruth", ["Rth", "Ru"]),
        ("1 Samuel", "1Sam", ["1 Sa", "1 Sm", "1 S", "1 Kingdoms"]),
        ("2 Samuel", "2Sam", ["2 Sa", "2 Sm", "2 S", "2 Kingdoms"]),
        ("1 Kings", "1Kgs", ["1 Kgs", "1 Ki", "1 K", "3 Kingdoms"]),
        ("2 Kings", "2Kgs", ["2 Kgs", "2 Ki", "2 K", "4 Kingdoms"]),
        ("1 Chronicles", "1Chr", ["1 Ch", "1 Chron", "1 Paralipomenon"]),
        ("2 Chronicles", "2Chr", ["2 Ch", "2 Chron", "2 Paralipomenon"]),
        ("Ezra", "Ezra", ["Ezr"]),
        ("Nehemiah", "Neh", ["Ne"]),
        ("Esther", "Esth", ["Est", "Es"]),
        ("Job", "Job", ["Jb"]),
        ("Psalms", "Ps", ["Psalm", "Psa", "Pss", "Psm", "Pslm"]),
        ("Proverbs", "Prov", ["Pr", "Prv", "Pro"]),
        ("Ecclesiastes", "Eccl", ["Ecc", "Eccles", "Ec", "Qoh", "Qoheleth"]),
        ("Song of Solomon", "Song", ["Song of Songs", "Canticles", "Canticle of Canticles", "Cant", "SOS", "So", "SS"]),
        ("Isaiah", "Isa", ["Is"]),
        ("Jeremiah", "Jer", ["Je", "Jr"]),
        ("Lamentations", "Lam", ["La"]),
        ("Ezekiel", "Ezek", ["Eze", "Ezk"]),
        ("Daniel", "Dan", ["Da", "Dn"]),
        ("Hosea", "Hos", ["Ho"]),
        ("Joel", "Joel", ["Jl"]),
        ("Amos", "Amos", ["Am"]),
        ("Obadiah", "Obad", ["Ob"]),
        ("Jonah", "Jonah", ["Jon", "Jnh"]),
        ("Micah", "Mic", ["Mc"]),
        ("Nahum", "Nah", ["Na"]),
        ("Habakkuk", "Hab", ["Hb"]),
        ("Zephaniah", "Zeph", ["Zep", "Zp"]),
        ("Haggai", "Hag", ["Hg"]),
        ("Zechariah", "Zech", ["Zec", "Zc"]),
        ("Malachi", "Mal", ["Ml"]),
        ("Matthew", "Matt", ["Mt", "Mat"]),
        ("Mark", "Mark", ["Mk", "Mrk", "Mr"]),
        ("Luke", "Luke", ["Lk", "Luk", "Lu"]),
        ("John", "John", ["Jn", "Jhn", "Jno", "Joh"]),
        ("Acts", "Acts", ["Ac", "Act", "Acts of the Apostles"]),
        ("Romans", "Rom", ["Ro", "Rm"]),
        ("1 Corinthians", "1Cor", ["1 Co"]),
        ("2 Corinthians", "2Cor", ["2 Co"]),
        ("Galatians", "Gal", ["Ga"]),
        ("Ephesians", "Eph", ["Ephes"]),
        ("Philippians", "Phil", ["Php", "Pp"]),
        ("Colossians", "Col", ["Co"]),
        ("1 Thessalonians", "1Thess", ["1 Th", "1 Thes"]),
        ("2 Thessalonians", "2Thess", ["2 Th", "2 Thes"]),
        ("1 Timothy", "1Tim", ["1 Ti", "1 Tm"]),
        ("2 Timothy", "2Tim", ["2 Ti", "2 Tm"]),
        ("Titus", "Titus", ["Tit", "Ti"]),
        ("Philemon", "Phlm", ["Philem", "Phm", "Phile"]),
        ("Hebrews", "Heb", ["He"]),
        ("James", "Jas", ["Jm", "Ja", "Jam"]),
        ("1 Peter", "1Pet", ["1 Pt", "1 Pe", "1 P"]),
        ("2 Peter", "2Pet", ["2 Pt", "2 Pe", "2 P"]),
        ("1 John", "1John", ["1 Jn", "1 Jhn", "1 Jno", "1 J"]),
        ("2 John", "2John", ["2 Jn", "2 Jhn", "2 Jno", "2 J"]),
        ("3 John", "3John", ["3 Jn", "3 Jhn", "3 Jno", "3 J"]),
        ("Jude", "Jude", ["Jud", "Jd"]),
        ("Revelation", "Rev", ["Re", "Rv", "Revelations", "Revelation of John", "Apocalypse", "Apoc"]),
    ].enumerated().map { index, entry in
        Book(number: index + 1, name: entry.0, osis: entry.1, abbreviations: entry.2)
    }

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
        if let number = exactKeys[key] { return .found(books[number - 1]) }
        // A prefix of a full name, when only one book's name starts that way: "Gene", "Phile".
        let matches = books.filter { book in
            let name = normalizedKey(book.name)
            return name.hasPrefix(key) && sameNumberPrefix(key, name)
        }
        switch matches.count {
        case 0: return .unknown
        case 1: return .found(matches[0])
        default: return .ambiguous(matches)
        }
    }

    /// A key only matches names with the same leading number ("1j" must not match "John").
    private static func sameNumberPrefix(_ key: String, _ name: String) -> Bool {
        key.first?.isNumber == name.first?.isNumber
    }

    private static let exactKeys: [String: Int] = {
        var keys: [String: Int] = [:]
        for book in books {
            for form in [book.name, book.osis] + book.abbreviations {
                let key = normalizedKey(form)
                precondition(keys[key] == nil || keys[key] == book.number, "abbreviation \(form) used twice")
                keys[key] = book.number
            }
        }
        return keys
    }()

    /// Lowercases, drops spaces and full stops, and turns a leading "I", "II", "III",
    /// "1st", "First", … into a digit: "I John" and "1 Jn." both start "1j".
    static func normalizedKey(_ typed: String) -> String {
        var words = typed.lowercased().split(whereSeparator: { $0 == " " || $0 == "." || $0 == "\t" }).map(String.init)
        let ordinals = ["i": "1", "ii": "2", "iii": "3", "1st": "1", "2nd": "2", "3rd": "3",
                        "first": "1", "second": "2", "third": "3"]
        if words.count > 1, let digit = ordinals[words[0]] { words[0] = digit }
        return words.joined()
    }
}
