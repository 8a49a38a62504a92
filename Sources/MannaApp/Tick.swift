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
        let zone = inputs.zone
        let session = Session(notifier: notifier, started: secondsElapsed(), secondsElapsed: secondsElapsed)
        var outcomes: [DeliveryOutcome] = []
        if let notifyAt = inputs.notifyAt, let verse = Scheduler.morningVerse(now: now, zone: zone, at: notifyAt) {
            outcomes += try Scheduler.deliver([verse], journal: journal, now: now) { session.show(notification(verseOf: $0)) }
        }
        // Each running plan has its own reminder (its occurrence is keyed by the run).
        for (plan, run) in inputs.plans {
            guard let reading = Scheduler.planReminder(now: now, zone: zone, run: run, plan: plan) else { continue }
            outcomes += try Scheduler.deliver([reading], journal: journal, now: now) { item in
                // No step left on that date (the plan is read to its end): nothing to show.
                notification(planReminder: item, plan: plan, run: run).map(session.show) ?? .shown
            }
        }
        outcomes += try remindPrayers(now: now, session: session)
        return outcomes
    }

    /// Shows the prayer reminders due since the last tick that handled them (at most a day):
    /// those on time one by one, those missed together; then, if none was given back (failed,
    /// or left for the next tick), records that reminders are handled up to `now` (or to just
    /// before one that another tick holds unshown). A tick with nothing due writes nothing.
    private func remindPrayers(now: Instant, session: Session) throws -> [DeliveryOutcome] {
        let zone = inputs.zone
        let window = Scheduler.reminderWindow(handledThrough: try journal.remindersHandledThrough(), now: now)
        let due = Scheduler.prayerReminders(try journal.activeReminders(), snoozes: try journal.snoozes(after: window.after, upTo: now),
                                            after: window.after, now: now, zone: zone)
        guard !due.isEmpty else { return [] }
        var outcomes = try Scheduler.deliver(due.onTime, journal: journal, now: now) { item in
            guard let prayer = try? journal.prayer(id: item.prayerUUID) else { return .notShown("the journal \(journal.path) could not be read") }
            return session.show(DesktopNotification(prayer: prayer.title, firstLine: prayer.firstLine, prayerUUID: prayer.uuid, manna: manna))
        }
        outcomes += try Scheduler.deliverTogether(due.missed, journal: journal, now: now) { items in
            var missed: [(title: String, due: Instant)] = []
            for item in items {
                guard let prayer = try? journal.prayer(id: item.prayerUUID) else { return .notShown("the journal \(journal.path) could not be read") }
                missed.append((prayer.title, item.scheduled))
            }
            return session.show(DesktopNotification(missed: missed, now: now, zone: zone))
        }
        guard !outcomes.contains(where: \.givenBack) else { return outcomes }
        // An occurrence another tick has claimed but not shown may yet be given back, or left
        // by a tick that died: the mark stops just before it, so a later tick still sees it.
        var pending: [Instant] = []
        for case .alreadyClaimed(let item) in outcomes where !(try journal.isShown(item.occurrence)) { pending.append(item.scheduled) }
        try journal.setRemindersHandled(through: pending.min().map { $0 - 1 } ?? now)
        return outcomes
    }

    /// The morning verse of the occurrence's date; late ones say when they were due.
    private func notification(verseOf item: Due) -> Result<DesktopNotification, TextDatabaseError> {
        Result { () throws(TextDatabaseError) in
            let date = LocalDate(parsing: item.occurrence.label) ?? inputs.zone.local(item.scheduled).date
            var notification = DesktopNotification(dailyVerse: try database.dailyVerse(for: date, in: inputs.translation, source: inputs.daily))
            if item.late, let notifyAt = inputs.notifyAt { notification.summary += " · missed at \(notifyAt)" }
            return notification
        }
    }

    /// "The New Testament in 90 Days: day 12 of 90" with the day's readings.
    private func notification(planReminder item: Due, plan: Plan, run: PlanRun) -> DesktopNotification? {
        let date = LocalDate(parsing: item.occurrence.label) ?? inputs.zone.local(item.scheduled).date
        guard let step = run.step(for: date, today: date, plan: plan) else { return nil }
        // The name cut first, so a long one leaves the day in the summary; the readings cut
        // between two, so a day of a thousand names its first and "…".
        return DesktopNotification(summary: "\(Excerpt.of(plan.name, characters: 100)): day \(step.day) of \(step.days)",
                                   body: Excerpt.of(step.readings.map(\.description), joinedBy: "; ").joined(separator: "; "), category: .plan)
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

        func show(_ notification: Result<DesktopNotification, TextDatabaseError>) -> ShowResult {
            switch notification {
            case .success(let notification): show(notification)
            case .failure(let error): .notShown(error.message)
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
