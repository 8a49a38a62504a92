// A prayer in the journal, what the user may write into one, and which prayers `manna pray
// today` brings round on a date.

/// What is wrong with what the user asked of a prayer.
public enum PrayerError: Error, Equatable, Sendable {
    case notFound(id: String)
    case deleted(id: String)
    case emptyTitle
    case badTag(String)
    case badSpec(ReminderSpecError)
    case pastReminder(String)
    case tooLong(field: String, bytes: Int)

    public var message: String {
        switch self {
        case .notFound(let id): return tr("no prayer with id '{id}': see 'manna pray list'", ("id", id.singleLine))
        case .deleted(let id): return tr("prayer {id} is deleted: restore it first with 'manna pray restore {id}'", ("id", id))
        case .emptyTitle: return tr("a prayer needs a title: give it as the first argument, like manna pray add \"For Anna's exams\"")
        case .badTag(let tag): return tr("tag '{tag}' must be one word without commas, like family or #family", ("tag", tag.singleLine))
        case .badSpec(let error): return error.message
        case .tooLong(let field, let bytes):
            return tr("a prayer's {field} can be at most {most} bytes (what a backup carries); this one is {bytes}", ("field", field), ("most", Journal.maxTextBytes), ("bytes", bytes))
        case .pastReminder(let spec): return tr("reminder '{spec}': that time has passed; give a date and time to come, or a repeating time like 07:30", ("spec", spec))
        }
    }
}

/// One prayer: what the user wrote, and when it was added, answered or deleted.
public struct Prayer: Equatable, Sendable {
    public let uuid: String
    /// What users type: 4 characters of `Journal.shortIDAlphabet`.
    public let shortID: String
    public let title: String
    public let body: String
    public let tags: [String]
    public let answeredAt: Instant?
    public let answerNote: String?
    public let deletedAt: Instant?
    public let createdAt: Instant
    public let updatedAt: Instant

    public var isOpen: Bool { answeredAt == nil && deletedAt == nil }

    /// The first line of the body that has any text: what a reminder shows under the title.
    public var firstLine: String { Prayer.firstLine(of: body) }

    public static func firstLine(of body: String) -> String {
        body.split(whereSeparator: \.isNewline).lazy.map { String($0).trimmingSpaces }.first { !$0.isEmpty } ?? ""
    }

    /// A title as stored: trimmed, not empty.
    public static func title(_ text: String) throws(PrayerError) -> String {
        let title = try checked(text, field: "title").trimmingSpaces
        guard !title.isEmpty else { throw .emptyTitle }
        return title
    }

    /// `text` when an export can carry it back in (`Journal.maxTextBytes`): what `pray` takes,
    /// a backup restores.
    public static func checked(_ text: String, field: String) throws(PrayerError) -> String {
        guard text.utf8.count <= Journal.maxTextBytes else { throw .tooLong(field: field, bytes: text.utf8.count) }
        return text
    }

    /// A tag as stored: lowercase, without a leading `#`; one word, no commas.
    public static func tag(_ text: String) throws(PrayerError) -> String {
        let tag = (text.hasPrefix("#") ? String(text.dropFirst()) : text).lowercased()
        guard !tag.isEmpty, !tag.contains(where: { $0 == "," || $0.isWhitespace }),
              !tag.unicodeScalars.contains(where: String.isTerminalControl) else {
            throw .badTag(text)
        }
        return tag
    }

    /// Reads the `--remind` SPECs, dropping repeats of the same canonical SPEC.
    public static func reminders(_ texts: [String], now: Instant, zone: Zone) throws(PrayerError) -> [ReminderSpec] {
        var specs: [ReminderSpec] = []
        for text in texts {
            let spec: ReminderSpec
            do { spec = try ReminderSpec(parsing: text) } catch { throw .badSpec(error) }
            // A reminder that can never come is refused, not stored to stay silent.
            if case .once(let date) = spec.days, zone.firstInstant(on: date, at: spec.time) <= now {
                throw .pastReminder(spec.description)
            }
            if !specs.contains(spec) { specs.append(spec) }
        }
        return specs
    }
}

/// A line of `pray list`: what it prints, and nothing else (no body).
public struct PrayerSummary: Equatable, Sendable {
    public let shortID: String
    public let title: String
    public let tags: [String]
    public let createdAt: Instant
    public let answeredAt: Instant?
    public let deletedAt: Instant?
    public let uuid: String
}

/// Which prayers `pray list` shows.
public enum PrayerListKind: Sendable {
    /// Neither answered nor deleted, oldest first.
    case open
    /// Answered and not deleted, in the order they were answered.
    case answered
    /// Deleted (and so restorable), in the order they were deleted.
    case deleted
}

/// Which open prayers `manna pray today` shows on a date.
///
/// The rule: number the open prayers 0…n-1 oldest first (by when they were added); on the date
/// whose day number (days since 1970-01-01) is `d`, show the `k = min(perDay, n)` prayers from
/// position `d × k mod n` on, wrapping round to 0. The window moves on by `k` each day, so
/// consecutive days show consecutive prayers, every open prayer comes round within ⌈n / k⌉
/// days, and a date always gives the same prayers while the list is unchanged.
public enum PrayerRotation {
    public static let perDay = 3

    /// The positions (0-based, oldest first) of the open prayers to show on `date`.
    public static func positions(on date: LocalDate, open count: Int, perDay: Int = perDay) -> [Int] {
        guard count > 0 else { return [] }
        let shown = min(perDay, count)
        let start = ((date.dayNumber * shown) % count + count) % count
        return (0..<shown).map { (start + $0) % count }
    }
}
