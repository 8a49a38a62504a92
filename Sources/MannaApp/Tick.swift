// The tick as one use case: at a moment, decide what is due (the morning verse, the plan
// reminder, prayer reminders and snoozes), claim each in the journal's ledger, show it, and
// record what was handled. `manna tick` runs it every minute; tests run it in-process with a
// recording notifier at any instant. The rules are in docs/ARCHITECTURE.md, "The journal and
// the ledger" and "Prayer reminders in the tick".
import MannaKit

struct Tick {
    let journal: Journal
    let database: TextDatabase
    /// The zone, translation, notification time, daily source and running plan.
    let inputs: TimelineInputs
    let notifier: any Notifier
    /// The `manna` a notification's buttons run (`pray prayed UUID`), by absolute path.
    let manna: String

    /// Shows everything due at `now` that no tick has shown, each exactly once however many
    /// ticks run, and returns what became of each. A notification that cannot be shown gives
    /// its claim back (`.failed`), so the next tick tries again.
    func run(at now: Instant) throws -> [DeliveryOutcome] {
        let zone = inputs.zone
        var outcomes: [DeliveryOutcome] = []
        if let verse = Scheduler.morningVerse(now: now, zone: zone, at: inputs.notifyAt) {
            outcomes += try Scheduler.deliver([verse], journal: journal, now: now, show: show(verseOf:))
        }
        if let (plan, run) = inputs.plan, let reading = Scheduler.planReminder(now: now, zone: zone, run: run, plan: plan) {
            outcomes += try Scheduler.deliver([reading], journal: journal, now: now, show: show(planReminder:))
        }
        outcomes += try remindPrayers(now: now)
        return outcomes
    }

    /// Shows the prayer reminders due since the last tick that handled them (at most a day):
    /// those on time one by one, those missed together; then, if every one was shown (or
    /// another tick had it), records that reminders are handled up to `now`. A tick with
    /// nothing due writes nothing.
    private func remindPrayers(now: Instant) throws -> [DeliveryOutcome] {
        let zone = inputs.zone
        let window = Scheduler.reminderWindow(handledThrough: try journal.remindersHandledThrough(), now: now)
        let due = Scheduler.prayerReminders(try journal.activeReminders(), snoozes: try journal.snoozes(after: window.after, upTo: now),
                                            after: window.after, now: now, zone: zone)
        guard !due.isEmpty else { return [] }
        var outcomes = try Scheduler.deliver(due.onTime, journal: journal, now: now) { item in
            guard let prayer = try? journal.prayer(id: item.prayerUUID) else { return "the journal \(journal.path) could not be read" }
            return show(DesktopNotification(prayer: prayer.title, firstLine: prayer.firstLine, prayerUUID: prayer.uuid, manna: manna))
        }
        outcomes += try Scheduler.deliverTogether(due.missed, journal: journal, now: now) { items in
            var missed: [(title: String, due: Instant)] = []
            for item in items {
                guard let prayer = try? journal.prayer(id: item.prayerUUID) else { return "the journal \(journal.path) could not be read" }
                missed.append((prayer.title, item.scheduled))
            }
            return show(DesktopNotification(missed: missed, now: now, zone: zone))
        }
        if !outcomes.contains(where: { if case .failed = $0 { true } else { false } }) {
            try journal.setRemindersHandled(through: now)
        }
        return outcomes
    }

    /// The morning verse of the occurrence's date; late ones say when they were due.
    private func show(verseOf item: Due) -> String? {
        guard let date = LocalDate(parsing: item.occurrence.label) else { return "bad occurrence \(item.occurrence.label)" }
        let verse: DailyVerse
        do { verse = try database.dailyVerse(for: date, in: inputs.translation, source: inputs.daily) } catch { return error.message }
        var notification = DesktopNotification(dailyVerse: verse)
        if item.late { notification.summary += " · missed at \(inputs.notifyAt)" }
        return show(notification)
    }

    /// "The New Testament in 90 Days: day 12 of 90" with the day's readings.
    private func show(planReminder item: Due) -> String? {
        guard let (plan, run) = inputs.plan, let date = LocalDate(parsing: item.occurrence.label),
              let step = run.step(for: date, today: date, plan: plan) else { return nil }
        return show(DesktopNotification(summary: "\(plan.name): day \(step.day) of \(step.days)",
                                        body: step.readings.map(\.description).joined(separator: "; "), category: .plan))
    }

    /// Shows a notification; nil when shown, else why not.
    private func show(_ notification: DesktopNotification) -> String? {
        do {
            try notifier.show(notification)
            return nil
        } catch {
            return error.message
        }
    }
}
