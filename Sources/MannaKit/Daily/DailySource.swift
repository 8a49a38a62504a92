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
    /// A bookmarked passage longer than `Excerpt`'s bound (a whole book would be a 224 KB
    /// notification and a timeline of megabytes) is an excerpt ending in "…" under its full reference.
    public func dailyVerse(for date: LocalDate, in translation: Translation, source: DailySource) throws(TextDatabaseError) -> DailyVerse {
        if let reference = source.bookmarkedPassage(for: date) {
            let text = try excerpt(of: reference, in: translation)
            if !text.isEmpty {
                return DailyVerse(date: date, reference: reference, translation: translation.code, text: text, language: translation.language)
            }
        }
        return try dailyVerse(for: date, in: translation)
    }

    /// The passage's text, verses joined by spaces, as an `Excerpt`: verses are read only until
    /// the bound is passed, so a whole book costs no more than a psalm.
    func excerpt(of reference: Reference, in translation: Translation) throws(TextDatabaseError) -> String {
        do {
            return try database.withCachedStatement("SELECT text FROM verses WHERE translation = ?1 AND id BETWEEN ?2 AND ?3 AND id % 1000 > 0 ORDER BY id") { statement in
                var text = ""
                for range in reference.ranges {
                    try statement.reset()
                    try statement.bind(translation.code, at: 1)
                    try statement.bind(range.first.rawValue, at: 2)
                    try statement.bind(range.last.rawValue, at: 3)
                    while try statement.step() {
                        text += (text.isEmpty ? "" : " ") + statement.string(0)
                        if !Excerpt.fits(text) { return Excerpt.of(text) }
                    }
                }
                return text
            }
        } catch {
            throw .damaged(path: path)
        }
    }
}
