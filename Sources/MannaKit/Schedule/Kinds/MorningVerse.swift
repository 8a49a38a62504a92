// The morning verse: the verse of the day as a notification, once a local day at `notify_at`.

/// The morning verse of one local date.
public struct MorningVerse: NotificationKind {
    /// The local date whose verse it is.
    public let date: LocalDate
    /// The time it comes (`notify_at`), which a late one names.
    public let time: LocalTime

    public static let ledgerKind = OccurrenceKind.verse
    public static let category = DesktopNotification.Category.verse
    public static let timelineKind: TimelineReminder.Kind? = .verse

    /// Due at `notify_at` on the local date of the tick (unless it is off), until the day ends.
    public static func due(_ tick: DueInputs) -> [Due] {
        guard let time = tick.notifyAt else { return [] }
        return due(now: tick.now, zone: tick.zone, at: time).map { [$0] } ?? []
    }

    /// The morning verse, when `now` is at or after today's `time` in `zone` and the day is not
    /// over. Missed on a day the machine slept through: shown on waking, marked late; a day
    /// that has ended is never shown.
    public static func due(now: Instant, zone: Zone, at time: LocalTime) -> Due? {
        Scheduler.daily(now: now, zone: zone, at: time) { MorningVerse(date: $0, time: time) }
    }

    public static func times(on date: LocalDate, inputs: TimelineInputs) -> [LocalTime] {
        inputs.notifyAt.map { [$0] } ?? []
    }

    /// One a day: the date alone names it.
    public var ledgerKey: String { "" }
    public var ledgerLabel: String { date.description }

    /// The verse of its date; a late one says when it was due.
    public func notification(late: Bool, from sources: NotificationSources) throws(TextUnavailable) -> DesktopNotification? {
        let verse: DailyVerse
        do {
            verse = try sources.database.dailyVerse(for: date, in: sources.settings.translation, source: sources.settings.daily)
        } catch {
            throw TextUnavailable(reason: error.message)
        }
        var notification = DesktopNotification(dailyVerse: verse)
        if late { notification.summary += " · " + tr("missed at {time}", ("time", time.description)) }
        return notification
    }
}

extension OccurrenceKind {
    /// The morning verse of one local date (key '').
    public static let verse = OccurrenceKind(rawValue: "verse")
}

extension DesktopNotification.Category {
    /// The verse of the day.
    public static let verse = DesktopNotification.Category(rawValue: "x-manna.verse")
}

extension TimelineReminder.Kind {
    /// The morning notification.
    public static let verse = TimelineReminder.Kind(rawValue: "verse")
}

extension DesktopNotification {
    /// The verse of the day: "Luke 2:11 (KJV)" over the verse text (`manna notify` shows it too).
    public init(dailyVerse: DailyVerse) {
        self.init(summary: "\(dailyVerse.label) (\(dailyVerse.translation))", body: dailyVerse.text, category: .verse)
    }
}
