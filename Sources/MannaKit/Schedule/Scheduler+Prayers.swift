// Prayer reminders in the scheduler: which occurrences (and snoozes) are due at a tick, which of
// them were missed, and the notifications that show them. See docs/ARCHITECTURE.md, "Prayer
// reminders", for the window a tick looks at and why.

/// The prayer reminders due at one tick.
public struct PrayerReminders: Equatable, Sendable {
    /// Due in the last `Scheduler.lateAfter` seconds: each shown on its own, with actions.
    public var onTime: [Due] = []
    /// Due earlier (the machine slept, was off, or the server was away): shown together in one
    /// "While you were away" notification.
    public var missed: [Due] = []

    public var isEmpty: Bool { onTime.isEmpty && missed.isEmpty }
}

extension Scheduler {
    /// A missed reminder older than this is dropped: after a long sleep, only the last day's
    /// are named.
    public static let missedHorizon = 86_400

    /// How many missed reminders "While you were away" names; the rest are counted.
    public static let missedNamed = 5

    /// The interval a tick looks at: from the instant up to which reminders were handled (the
    /// journal's mark) to `now`, but never more than a day. Without a mark, or with one in the
    /// future (the clock was set back), the last day: the ledger keeps anything already shown
    /// from showing again.
    public static func reminderWindow(handledThrough mark: Instant?, now: Instant) -> (after: Instant, upTo: Instant) {
        let dayAgo = now - missedHorizon
        guard let mark, mark <= now else { return (dayAgo, now) }
        return (max(mark, dayAgo), now)
    }

    /// The reminder occurrences and snoozes due in `(after, now]`, oldest first, split into on
    /// time and missed. An occurrence is named in the ledger by its reminder's UUID and its local
    /// date and time ("2026-03-08 07:30"); a snooze by its own UUID and the local time it was due.
    /// Occurrences before a reminder was added are not due.
    public static func prayerReminders(_ reminders: [ActiveReminder], snoozes: [Snooze], after: Instant, now: Instant,
                                       zone: Zone) -> PrayerReminders {
        let clock = WallClockDays(zone: zone)
        var due: [Due] = []
        for reminder in reminders {
            for occurrence in reminder.spec.occurrences(after: max(after, reminder.since), upTo: now, clock: clock) {
                due.append(Due(occurrence: Journal.Occurrence(kind: .prayer, key: reminder.uuid, label: occurrence.label),
                               scheduled: occurrence.instant, late: now - occurrence.instant > lateAfter, prayerUUID: reminder.prayerUUID))
            }
        }
        for snooze in snoozes where snooze.dueAt > after && snooze.dueAt <= now {
            let local = zone.local(snooze.dueAt)
            due.append(Due(occurrence: Journal.Occurrence(kind: .snooze, key: snooze.uuid, label: "\(local.date) \(local.time)"),
                           scheduled: snooze.dueAt, late: now - snooze.dueAt > lateAfter, prayerUUID: snooze.prayerUUID))
        }
        due.sort { ($0.scheduled, $0.occurrence.key) < ($1.scheduled, $1.occurrence.key) }
        var result = PrayerReminders()
        for item in due {
            if item.late { result.missed.append(item) } else { result.onTime.append(item) }
        }
        return result
    }
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
            Action(key: "prayed", label: "Prayed", command: [manna, "pray", "prayed", prayerUUID]),
            Action(key: "snooze", label: "Snooze 10 min", command: [manna, "pray", "snooze", prayerUUID]),
        ]
    }

    /// The one notification for reminders missed while the machine slept: "While you were
    /// away", naming the first `Scheduler.missedNamed` (title and when), counting the rest.
    /// Each title is cut to a tenth of `Excerpt`'s bound, so that every one named fits the body.
    ///
    /// - Parameter missed: (title, when it was due), oldest first.
    public init(missed: [(title: String, due: Instant)], now: Instant, zone: Zone) {
        let today = zone.local(now).date
        var lines = missed.prefix(Scheduler.missedNamed).map { item -> String in
            let local = zone.local(item.due)
            let day = local.date == today ? "" : local.date == today.adding(days: -1) ? "yesterday " : "\(local.date) "
            let title = Excerpt.of(DesktopNotification.summaryText(item.title), characters: Excerpt.characters / (2 * Scheduler.missedNamed))
            return title + " (\(day)\(local.time))"
        }
        if missed.count > Scheduler.missedNamed { lines.append("and \(missed.count - Scheduler.missedNamed) more") }
        self.init(summary: "While you were away", body: lines.joined(separator: "\n"), category: .prayer)
    }
}

extension DesktopNotification.Category {
    /// A prayer reminder, or the reminders missed while away.
    public static let prayer = DesktopNotification.Category(rawValue: "x-manna.prayer")
}
