// Notes, highlights and bookmarks: what a reader adds to verses, as values.
//
// A highlight colours one verse: highlighting a passage highlights each of its verses. A note
// and a bookmark are on a passage as the user gave it ("John 3:16-18") and are found at its
// first verse, so one index range on verse_id finds every mark a passage shows.

/// The colours a verse can be highlighted in.
public enum HighlightColor: String, CaseIterable, Sendable {
    case yellow, green, blue, pink, purple

    /// "yellow, green, blue, pink or purple", for messages.
    public static var allowed: String {
        let names = allCases.map(\.rawValue)
        return names.dropLast().joined(separator: ", ") + " or " + names.last!
    }
}

/// The three kinds of mark, named as users type them (`manna note`, `manna highlight`, ...).
public enum MarkKind: String, Sendable {
    case note, highlight, bookmark

    /// The journal table that holds this kind.
    var table: String { rawValue + "s" }
}

/// A note the user wrote on a passage.
public struct Note: Equatable, Sendable {
    public let uuid: String
    /// What users type to name it: `k7m2`.
    public let shortID: String
    public let reference: Reference
    public let text: String
    public let createdAt: Instant
    public let updatedAt: Instant
    /// When it was deleted (nil: it is not): a deleted note stays, restorable, and its text with it.
    public var deletedAt: Instant? = nil

    /// The verse the note is found at: the passage's first.
    public var verseID: VerseID { reference.ranges[0].first }

    /// The note's lines as a terminal may show them (`singleLine`): its own line breaks kept
    /// (a CRLF is one), control characters made spaces. Split by bytes, and only where there is
    /// a break: most notes are one line, and splitting by Character was a third of what a verse
    /// with 16,000 notes cost to read, and of a list of 100,000 notes.
    public var paragraphs: [String] {
        // One scan says most notes are one plain line.
        guard !text.isSingleLine else { return [text] }
        guard text.withUTF8Bytes({ $0.contains(UInt8(ascii: "\n")) }) else { return [text.singleLine] }
        return text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            String(Substring(line.last == UInt8(ascii: "\r") ? line.dropLast() : line)).singleLine
        }
    }
}

/// One highlighted verse.
public struct Highlight: Equatable, Sendable {
    public let uuid: String
    public let shortID: String
    public let verseID: VerseID
    public let color: HighlightColor
    public let createdAt: Instant
    public let updatedAt: Instant
}

/// A bookmarked passage.
public struct Bookmark: Equatable, Sendable {
    public let uuid: String
    public let shortID: String
    public let reference: Reference
    public let createdAt: Instant
    public let updatedAt: Instant

    public var verseID: VerseID { reference.ranges[0].first }
}

/// What highlighting did to one verse.
public enum HighlightChange: Equatable, Sendable {
    case added(Highlight)
    case recolored(Highlight, from: HighlightColor)
    case unchanged(Highlight)
}

/// What bookmarking did: a verse has at most one bookmark, whose passage a new one replaces.
public enum BookmarkChange: Equatable, Sendable {
    case added(Bookmark)
    case changed(Bookmark, from: Reference)
    case unchanged(Bookmark)
}

/// Every mark on the verses of a passage, for `manna read`.
public struct VerseMarks: Equatable, Sendable {
    public var highlight: HighlightColor?
    public var bookmarked = false
    /// Notes whose passage starts at this verse, oldest first.
    public var notes: [Note] = []

    public init(highlight: HighlightColor? = nil, bookmarked: Bool = false, notes: [Note] = []) {
        self.highlight = highlight
        self.bookmarked = bookmarked
        self.notes = notes
    }

    public var isEmpty: Bool { highlight == nil && !bookmarked && notes.isEmpty }
}

/// The marks on a passage's verses; a verse with none has `VerseMarks()`.
public struct PassageMarks: Equatable, Sendable {
    var verses: [Int: VerseMarks] = [:]

    public init() {}

    public subscript(id: VerseID) -> VerseMarks { verses[id.rawValue] ?? VerseMarks() }
}

/// Why a mark cannot be added, found or deleted.
public enum MarkError: Error, Equatable, Sendable {
    case notFound(MarkKind, id: String)
    /// A deleted highlight or bookmark cannot come back where the verse has another (a verse has one).
    case occupied(MarkKind, reference: String, by: String)
    case emptyText
    case textTooLong(bytes: Int)
    case journal(JournalError)

    public var message: String {
        switch self {
        case .notFound(let kind, let id):
            return "no \(kind.rawValue) with id '\(id)'"
        case .occupied(let kind, let reference, let other):
            return "\(reference) has a \(kind.rawValue) already (\(other)): delete it to restore this one"
        case .emptyText:
            return "a note needs some text, like: manna note add \"John 3:16\" \"The gospel in one verse\""
        case .textTooLong(let bytes):
            return "a note can be at most \(Journal.maxTextBytes) bytes; this one is \(bytes)"
        case .journal(let error):
            return error.message
        }
    }
}
