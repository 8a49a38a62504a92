// Prayer reminders in the scheduler (the kinds of `NotificationKinds.reminders`: a reminder's
// times, snoozes): the window a tick looks at, which of them were missed, and the one
// notification that names the missed ones. See docs/ARCHITECTURE.md, "Prayer reminders in the
// tick", for the window and why.

/// The prayer reminders due at one tick.
public struct RemindersDue: Equatable, Sendable {
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

    /// The reminder kinds' occurrences due in (`remindersAfter`, `now`], oldest first, split into
    /// on time and missed.
    public static func remindersDue(_ tick: DueInputs) -> RemindersDue {
        var due = NotificationKinds.reminders.flatMap { $0.due(tick) }
        due.sort { ($0.scheduled, $0.occurrence.key) < ($1.scheduled, $1.occurrence.key) }
        var result = RemindersDue()
        for item in due {
            if item.late { result.missed.append(item) } else { result.onTime.append(item) }
        }
        return result
    }
}

extension NotificationSources {
    /// The prayer a reminder or snooze is for, from the journal. One that cannot be read (or was
    /// deleted since the tick read its reminders) is left for a later tick.
    func prayer(_ uuid: String) throws(TextUnavailable) -> Prayer {
        guard let prayer = try? journal.prayer(id: uuid) else { throw TextUnavailable(reason: "the journal \(journal.path) could not be read") }
        return prayer
    }
}

extension DesktopNotification {
    /// The one notification for reminders missed while the machine slept: "While you were
    /// away", naming the first `Scheduler.missedNamed` (title and when), counting the rest.
    /// Each title is cut to a tenth of `Excerpt`'s bound, so that every one named fits the body.
    ///
    /// - Parameter missed: (title, when it was due), oldest first.
    public init(missed: [(title: String, due: Instant)], now: Instant, zone: Zone) {
        let today = zone.local(now).date
        var lines = missed.prefix(Scheduler.missedNamed).map { item -> String in
            let local = zone.local(item.due)
            let day = local.date == today ? "" : local.date == today.adding(days: -1) ? tr("yesterday") + " " : Messages.current.date(local.date) + " "
            let title = Excerpt.of(DesktopNotification.summaryText(item.title), characters: Excerpt.characters / (2 * Scheduler.missedNamed))
            return title + " (\(day)\(local.time))"
        }
        if missed.count > Scheduler.missedNamed { lines.append(trn("and {count} more", "and {count} more", count: missed.count - Scheduler.missedNamed)) }
        self.init(summary: tr("While you were away"), body: lines.joined(separator: "\n"), category: .prayer)
    }
}
