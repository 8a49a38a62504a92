// A snoozed prayer coming back ("Snooze 10 min" on a reminder): a one-off reminder, shown as its
// prayer's reminder is, buttons and all.

/// A snooze of a prayer, due once.
public struct PrayerSnooze: ReminderKind {
    /// The snooze's UUID.
    public let snoozeUUID: String
    /// The prayer it is for.
    public let prayerUUID: String
    /// The local date and time it is due, in the zone of the tick that found it.
    public let dueAt: LocalDateTime

    public static let ledgerKind = OccurrenceKind.snooze
    public static let category = DesktopNotification.Category.prayer
    /// Not planned: a click makes it, ten minutes ahead, so the timeline never lists it.
    public static let timelineKind: TimelineReminder.Kind? = nil

    /// The snoozes due in the reminders' window.
    public static func due(_ tick: DueInputs) -> [Due] {
        tick.snoozes.filter { $0.dueAt > tick.remindersAfter && $0.dueAt <= tick.now }.map { snooze in
            Due(subject: PrayerSnooze(snoozeUUID: snooze.uuid, prayerUUID: snooze.prayerUUID, dueAt: tick.zone.local(snooze.dueAt)),
                scheduled: snooze.dueAt, late: tick.now - snooze.dueAt > Scheduler.lateAfter)
        }
    }

    /// None: a snooze is never planned.
    public static func times(on date: LocalDate, inputs: TimelineInputs) -> [LocalTime] { [] }

    public var ledgerKey: String { snoozeUUID }
    /// The local date and time it was due: "2026-06-01 07:39".
    public var ledgerLabel: String { "\(dueAt.date) \(dueAt.time)" }

    public func notification(late: Bool, from sources: NotificationSources) throws(TextUnavailable) -> DesktopNotification? {
        try PrayerReminder.notification(forPrayer: prayerUUID, from: sources)
    }

    public func missedTitle(from sources: NotificationSources) throws(TextUnavailable) -> String {
        try sources.prayer(prayerUUID).title
    }
}

extension OccurrenceKind {
    /// A snoozed prayer coming back (key: the snooze's UUID).
    public static let snooze = OccurrenceKind(rawValue: "snooze")
}
