// A prayer's reminder: each time its SPEC names (docs/ARCHITECTURE.md, "Prayer reminders in the
// tick").

/// One time of a prayer's reminder.
public struct PrayerReminder: ReminderKind {
    /// The reminder's UUID.
    public let reminderUUID: String
    /// The prayer it is for.
    public let prayerUUID: String
    /// Its local date and the instant its time came.
    public let time: ReminderSpec.Occurrence

    public static let ledgerKind = OccurrenceKind.prayer
    public static let category = DesktopNotification.Category.prayer
    public static let timelineKind: TimelineReminder.Kind? = .prayer

    /// Each active reminder's times in the reminders' window, in the zone the tick runs in.
    /// Times before a reminder was added (or moved) are not due.
    public static func due(_ tick: DueInputs) -> [Due] {
        let clock = WallClockDays(zone: tick.zone)
        return tick.reminders.flatMap { reminder in
            reminder.spec.occurrences(after: max(tick.remindersAfter, reminder.since), upTo: tick.now, clock: clock).map { time in
                Due(subject: PrayerReminder(reminderUUID: reminder.uuid, prayerUUID: reminder.prayerUUID, time: time),
                    scheduled: time.instant, late: tick.now - time.instant > Scheduler.lateAfter)
            }
        }
    }

    /// The open prayers' reminder times on a date.
    public static func times(on date: LocalDate, inputs: TimelineInputs) -> [LocalTime] {
        inputs.prayerReminders.filter { $0.comes(on: date) }.map(\.time)
    }

    public var ledgerKey: String { reminderUUID }
    /// Its local date and the SPEC's time ("2026-03-08 02:30", even when it came at 03:00): one
    /// occurrence per local date, whatever the zone does.
    public var ledgerLabel: String { time.label }

    public func notification(late: Bool, from sources: NotificationSources) throws(TextUnavailable) -> DesktopNotification? {
        try Self.notification(forPrayer: prayerUUID, from: sources)
    }

    public func missedTitle(from sources: NotificationSources) throws(TextUnavailable) -> String {
        try sources.prayer(prayerUUID).title
    }

    /// The prayer's title over the first line of its text, with its buttons: a reminder's
    /// notification, and a snooze's.
    static func notification(forPrayer uuid: String, from sources: NotificationSources) throws(TextUnavailable) -> DesktopNotification {
        let prayer = try sources.prayer(uuid)
        return DesktopNotification(prayer: prayer.title, firstLine: prayer.firstLine, prayerUUID: prayer.uuid, manna: sources.manna)
    }
}

extension OccurrenceKind {
    /// One time of a prayer's reminder (key: the reminder's UUID).
    public static let prayer = OccurrenceKind(rawValue: "prayer")
}

extension DesktopNotification.Category {
    /// A prayer's reminder or snooze, or the reminders missed while away.
    public static let prayer = DesktopNotification.Category(rawValue: "x-manna.prayer")
}

extension TimelineReminder.Kind {
    /// A prayer's reminder (never its text: the timeline is read by other programs).
    public static let prayer = TimelineReminder.Kind(rawValue: "prayer")
}

extension DesktopNotification {
    /// A prayer reminder: the prayer's title over the first line of its text, with "Prayed"
    /// and "Snooze 10 min" where the server shows actions.
    ///
    /// - Parameter manna: the `manna` executable an action runs (`pray prayed UUID`,
    ///   `pray snooze UUID`), by absolute path, without a shell.
    public init(prayer title: String, firstLine: String, prayerUUID: String, manna: String) {
        self.init(summary: title, body: firstLine, category: .prayer)
        actions = [
            Action(key: "prayed", label: tr("Prayed"), command: [manna, "pray", "prayed", prayerUUID]),
            Action(key: "snooze", label: tr("Snooze 10 min"), command: [manna, "pray", "snooze", prayerUUID]),
        ]
    }
}
