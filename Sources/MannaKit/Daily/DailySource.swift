// Where the verse of the day comes from: the curated list, or the user's own bookmarks.

/// The list the verse of the day is drawn from (config `daily_source`).
public enum DailySource: Equatable, Sendable {
    /// `curated/daily-verses.tsv`: the same verse for everyone on a date.
    case curated
    /// The user's bookmarked passages, oldest bookmark first (ties by uuid).
    case bookmarks([Reference])

    /// The passage the bookmarks give for `date`: number `date.dayNumber mod count` (days since
    /// 1970-01-01), so consecutive days walk through the bookmarks in the order they were made
    /// and a date gives the same passage on every machine with the same bookmarks. Nil when
    /// the source is curated or there are no bookmarks: then the curated list is used.
    public func bookmarkedPassage(for date: LocalDate) -> Reference? {
        guard case .bookmarks(let passages) = self, !passages.isEmpty else { return nil }
        let count = passages.count
        return passages[((date.dayNumber % count) + count) % count]
    }
}

extension TextDatabase {
    /// The verse of the day from `source`: a bookmarked passage when the source is bookmarks and
    /// there are some (and the passage has text in the translation), else the curated verse.
    public func dailyVerse(for date: LocalDate, in translation: Translation, source: DailySource) throws(TextDatabaseError) -> DailyVerse {
        if let reference = source.bookmarkedPassage(for: date) {
            let text = try passage(reference, in: translation).compactMap(\.text).joined(separator: " ")
            if !text.isEmpty {
                return DailyVerse(date: date, reference: reference, translation: translation.code, text: text)
            }
        }
        return try dailyVerse(for: date, in: translation)
    }
}
