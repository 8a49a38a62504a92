// manna tick [--now T]: the scheduler's unit of work, run every minute by the systemd timer or cron.
import MannaKit

enum TickCommand {
    static let spec = CommandSpec(
        name: "tick",
        usage: "manna tick [--now ISO8601]",
        abstract: "Show what is due (the morning verse, prayer and reading reminders), exactly once, then refresh the timeline",
        valueOptions: ["now": "act as if it were this moment, like 2026-03-08T07:00 (local) or 2026-03-08T07:00:00-05:00"],
        run: run)

    /// Idempotent: run it again, or four at once, and each occurrence is still shown once.
    /// A notification that cannot be shown (no bus, no server) is retried by the next tick;
    /// the timeline is written either way, and the tick then exits 69 with the reason.
    static func run(_ arguments: ParsedArguments, _ context: Context) throws {
        guard arguments.positionals.isEmpty else { throw Failure.usage("tick takes no arguments; see 'manna tick --help'") }
        let zone = try context.zone()
        let now = try context.now(arguments.value("now"), zone: zone)
        let config = try context.config()
        let journal = try context.journal()
        let database = try context.openTextDatabase()
        let inputs = try context.timelineInputs(database: database, zone: zone, now: now)

        var due: [Due] = []
        if let verse = Scheduler.morningVerse(now: now, zone: zone, at: config.notifyAt) { due.append(verse) }
        if let (plan, run) = inputs.plan, let reading = Scheduler.planReminder(now: now, zone: zone, run: run, plan: plan) {
            due.append(reading)
        }
        var outcomes: [DeliveryOutcome]
        outcomes = try Scheduler.deliver(due, journal: journal, now: now) { item in
            switch item.occurrence.kind {
            case "plan": showPlanReminder(item, inputs: inputs, context)
            default: showVerse(item, database: database, inputs: inputs, notifyAt: config.notifyAt, context)
            }
        }
        outcomes += try remindPrayers(journal: journal, now: now, zone: zone, context)

        let entries: [TimelineEntry] = try Timeline.entries(now: now, inputs: inputs, database: database)
        try TimelineCommand.write(entries, zone: zone, now: now, context)

        for case .failed(_, let reason) in outcomes {
            throw Failure(reason + " (the next tick tries again)", .unavailable)
        }
    }

    /// Shows the prayer reminders due since the last tick that handled them (at most a day):
    /// those on time one by one, those missed together; then, if every one was shown (or
    /// another tick had it), records that reminders are handled up to `now`. A tick with
    /// nothing due writes nothing.
    static func remindPrayers(journal: Journal, now: Instant, zone: Zone, _ context: Context) throws(JournalError) -> [DeliveryOutcome] {
        let window = Scheduler.reminderWindow(handledThrough: try journal.remindersHandledThrough(), now: now)
        let due = Scheduler.prayerReminders(try journal.activeReminders(), snoozes: try journal.snoozes(after: window.after, upTo: now),
                                            after: window.after, now: now, zone: zone)
        guard !due.isEmpty else { return [] }
        var outcomes = try Scheduler.deliver(due.onTime, journal: journal, now: now) { item in
            guard let prayer = try? journal.prayer(id: item.prayerUUID) else { return "the journal \(journal.path) could not be read" }
            return show(DesktopNotification(prayer: prayer.title, firstLine: prayer.firstLine, prayerUUID: prayer.uuid, manna: context.executablePath), context)
        }
        outcomes += try Scheduler.deliverTogether(due.missed, journal: journal, now: now) { items in
            var missed: [(title: String, due: Instant)] = []
            for item in items {
                guard let prayer = try? journal.prayer(id: item.prayerUUID) else { return "the journal \(journal.path) could not be read" }
                missed.append((prayer.title, item.scheduled))
            }
            return show(DesktopNotification(missed: missed, now: now, zone: zone), context)
        }
        if !outcomes.contains(where: { if case .failed = $0 { true } else { false } }) {
            try journal.setRemindersHandled(through: now)
        }
        return outcomes
    }

    /// The morning verse of the occurrence's date; late ones say when they were due.
    static func showVerse(_ item: Due, database: TextDatabase, inputs: TimelineInputs, notifyAt: LocalTime, _ context: Context) -> String? {
        guard let date = LocalDate(parsing: item.occurrence.occurrence) else { return "bad occurrence \(item.occurrence.occurrence)" }
        let verse: DailyVerse
        do { verse = try database.dailyVerse(for: date, in: inputs.translation, source: inputs.daily) } catch { return error.message }
        var notification = DesktopNotification(dailyVerse: verse)
        if item.late { notification.summary += " · missed at \(notifyAt)" }
        return show(notification, context)
    }

    /// "The New Testament in 90 Days: day 12 of 90" with the day's readings.
    static func showPlanReminder(_ item: Due, inputs: TimelineInputs, _ context: Context) -> String? {
        guard let (plan, run) = inputs.plan, let date = LocalDate(parsing: item.occurrence.occurrence),
              let step = run.step(for: date, today: date, plan: plan) else { return nil }
        return show(DesktopNotification(summary: "\(plan.name): day \(step.day) of \(step.days)",
                                 body: step.readings.map(\.description).joined(separator: "; "), category: .plan), context)
    }

    /// Shows a notification; nil when shown, else why not.
    static func show(_ notification: DesktopNotification, _ context: Context) -> String? {
        do {
            try context.notifier.show(notification)
            return nil
        } catch {
            return error.message
        }
    }
}
