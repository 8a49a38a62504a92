// The verse of the day: a pure function of the local date and the translation.

/// One day's verse in one translation.
public struct DailyVerse: Equatable, Sendable {
    public let date: LocalDate
    public let reference: Reference
    public let translation: String
    /// The passage's verses joined by spaces.
    public let text: String
    /// The translation's language (BCP 47), for `label`.
    public var language: String = "en"

    /// The reference as the translation's readers write it: "John 3:16", "Juan 3:16".
    public var label: String { reference.label(in: language) }

    /// The first verse's id, the passage's stable key.
    public var id: VerseID { reference.ranges[0].first }
}

extension TextDatabase {
    /// The passage for `date`: row `date.leapYearPosition` of the curated list, so every date
    /// has the same verse every year and on every machine, and Feb 29 has its own.
    public func dailyVerse(for date: LocalDate, in translation: Translation) throws(TextDatabaseError) -> DailyVerse {
        let reference: Reference
        do {
            // Cached: a timeline asks for one day after another.
            reference = try database.withCachedStatement("SELECT reference FROM daily_verses WHERE position = ?1") { statement in
                try statement.bind(date.leapYearPosition, at: 1)
                guard try statement.step() else { throw TextDatabaseError.damaged(path: path) }
                return try Reference(parsing: statement.string(0))
            }
        } catch {
            throw .damaged(path: path)
        }
        let verses = try passage(reference, in: translation)
        // The build checks that every daily passage is whole in every translation.
        // A loop, not `compactMap(\.text).joined(separator:)`: on a command's first use, those
        // generics cost the Swift runtime a search of the program's conformances (200,000
        // instructions, a tenth of a `manna today`).
        var text = ""
        var first = true
        for verse in verses {
            guard let part = verse.text else { continue }
            if !first { text += " " }
            text += part
            first = false
        }
        return DailyVerse(date: date, reference: reference, translation: translation.code, text: text, language: translation.language)
    }
}
