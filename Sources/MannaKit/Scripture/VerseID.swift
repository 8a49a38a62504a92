// The verse id every table, file and machine shares: book × 1,000,000 + chapter × 1,000 + verse.

/// One verse in KJV (canonical) numbering. John 3:16 is 43003016.
///
/// The same number in every translation and on every machine; a passage is a range of them.
public struct VerseID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    public init(book: Int, chapter: Int, verse: Int) {
        rawValue = book * 1_000_000 + chapter * 1_000 + verse
    }

    public var book: Int { rawValue / 1_000_000 }
    public var chapter: Int { rawValue / 1_000 % 1_000 }
    public var verse: Int { rawValue % 1_000 }

    /// True when the id names a verse that exists in the canon.
    public var isValid: Bool {
        guard let book = Canon.book(number: book), let count = book.verseCount(chapter: chapter) else { return false }
        return verse >= 1 && verse <= count
    }

    /// The following verse in canonical order, crossing chapters and books; nil after Revelation 22:21.
    public var next: VerseID? {
        guard let current = Canon.book(number: book), let count = current.verseCount(chapter: chapter) else { return nil }
        if verse < count { return VerseID(rawValue: rawValue + 1) }
        if chapter < current.chapterCount { return VerseID(book: book, chapter: chapter + 1, verse: 1) }
        if book < Canon.books.count { return VerseID(book: book + 1, chapter: 1, verse: 1) }
        return nil
    }

    public static func < (lhs: VerseID, rhs: VerseID) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { String(rawValue) }
}
