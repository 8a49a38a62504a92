// The tick as one use case: at a moment, decide what is due (the morning verse, the plans'
// reminders, prayer reminders and snoozes), claim each in the journal's ledger, show it, and
// record what was handled. `manna tick` runs it every minute; tests run it in-process with a
// recording notifier at any instant. The rules are in docs/ARCHITECTURE.md, "The journal and
// the ledger" and "Prayer reminders in the tick".
import MannaKit

struct Tick {
    let journal: Journal
    let database: TextDatabase
    /// The zone, translation, notification time, daily source and running plans.
    let inputs: TimelineInputs
    let notifier: any Notifier
    /// The `manna` a notification's buttons run (`pray prayed UUID`), by absolute path.
    let manna: String
    /// Seconds on a monotonic clock: how much of the time budget is spent.
    var secondsElapsed: () -> Double = monotonicSeconds

    /// The most a tick spends on notifications, whatever is due: what is left waits for the
    /// next minute. A server that does not answer costs one helper deadline (3 s), since the
    /// tick stops calling it; the rest of the budget is for a backlog of servers that answer.
    static let budgetSeconds = 8.0

    /// Shows everything due at `now` that no tick has shown, each exactly once however many
    /// ticks run, and returns what became of each. A notification that could not be shown
    /// gives its claim back (`.failed`), so the next tick tries again; one handed to a server
    /// that did not confirm it is not sent again (`.unconfirmed`).
    func run(at now: Instant) throws -> [DeliveryOutcome] {
        let session = Session(notifier: notifier, started: secondsElapsed(), secondsElapsed: secondsElapsed)
        let sources = NotificationSources(database: database, journal: journal, settings: inputs, manna: manna)
        let window = Scheduler.reminderWindow(handledThrough: try journal.remindersHandledThrough(), now: now)
        let due = DueInputs(now: now, zone: inputs.zone, notifyAt: inputs.notifyAt, plans: inputs.plans, remindersAfter: window.after,
                            reminders: try reminders(comingAfter: window.after, upTo: now), snoozes: try journal.snoozes(after: window.after, upTo: now))
        // The verse and each plan's reading, each on its own, on time or late.
        var outcomes = try Scheduler.deliver(Scheduler.dailyDue(due), journal: journal, now: now) { item in
            session.show { () throws(TextUnavailable) in try item.subject.notification(late: item.late, from: sources) }
        }
        outcomes += try remindPrayers(Scheduler.remindersDue(due), now: now, session: session, sources: sources)
        return outcomes
    }

    /// The active reminders to look at for times in (`after`, `now`]: none when the journal's
    /// forecast vouches that none comes then (the common tick: one row read); else every one,
    /// read with the forecast from `after` recorded. (From the window's start, not `now`: a tick
    /// with nothing due leaves the window where it was.)
    private func reminders(comingAfter after: Instant, upTo now: Instant) throws -> [ActiveReminder] {
        if let forecast = try journal.reminderForecast(), forecast.vouches(after: after, upTo: now, zone: inputs.zone) { return [] }
        return try journal.activeReminders { ReminderForecast(reminders: $0, after: after, zone: inputs.zone) }
    }

    /// Shows the prayer reminders due since the last tick that handled them (at most a day):
    /// those on time one by one, those missed together; then, if none was given back (failed,
    /// or left for the next tick), records that reminders are handled up to `now` (or to just
    /// before one that another tick holds unshown). A tick with nothing due writes nothing.
    private func remindPrayers(_ due: RemindersDue, now: Instant, session: Session, sources: NotificationSources) throws -> [DeliveryOutcome] {
        guard !due.isEmpty else { return [] }
        var outcomes = try Scheduler.deliver(due.onTime, journal: journal, now: now) { item in
            session.show { () throws(TextUnavailable) in try item.subject.notification(late: item.late, from: sources) }
        }
        outcomes += try Scheduler.deliverTogether(due.missed, journal: journal, now: now) { items in
            session.show { () throws(TextUnavailable) in
                var missed: [(title: String, due: Instant)] = []
                for item in items {
                    // Scheduler.remindersDue gives the reminder kinds' occurrences only.
                    let reminder = item.subject as! any ReminderKind
                    missed.append((try reminder.missedTitle(from: sources), item.scheduled))
                }
                return DesktopNotification(missed: missed, now: now, zone: inputs.zone)
            }
        }
        guard !outcomes.contains(where: \.givenBack) else { return outcomes }
        // An occurrence another tick has claimed but not shown may yet be given back, or left
        // by a tick that died: the mark stops just before it, so a later tick still sees it.
        var pending: [Instant] = []
        for case .alreadyClaimed(let item) in outcomes where !(try journal.isShown(item.occurrence)) { pending.append(item.scheduled) }
        try journal.setRemindersHandled(through: pending.min().map { $0 - 1 } ?? now)
        return outcomes
    }

    /// One tick's calls to the notifier: within the time budget, and none after a failure (a
    /// server that did not answer once will not in the same minute; the rest waits for the
    /// next tick, its claims given back).
    final class Session {
        let notifier: any Notifier
        let started: Double
        let secondsElapsed: () -> Double
        /// What every later show in this tick is: not tried, once the time is spent or one failed.
        private var stopped: ShowResult?

        init(notifier: any Notifier, started: Double, secondsElapsed: @escaping () -> Double) {
            self.notifier = notifier
            self.started = started
            self.secondsElapsed = secondsElapsed
        }

        /// Makes a notification and shows it: one whose text cannot be made now is not shown
        /// (a later tick tries again), and a kind with nothing to show counts as shown.
        func show(_ make: () throws(TextUnavailable) -> DesktopNotification?) -> ShowResult {
            do {
                guard let notification = try make() else { return .shown }
                return show(notification)
            } catch {
                return .notShown(error.reason)
            }
        }

        func show(_ notification: DesktopNotification) -> ShowResult {
            if let stopped { return stopped }
            if secondsElapsed() - started > Tick.budgetSeconds {
                stopped = .deferred
                return .deferred
            }
            do {
                try notifier.show(notification)
                return .shown
            } catch {
                stopped = .notShown(error.message)
                return error.mayHaveBeenShown ? .unconfirmed(error.message) : .notShown(error.message)
            }
        }
    }
}
