// manna tick [--now T]: the scheduler's unit of work, run every minute by the systemd timer or cron.
import MannaKit

enum TickCommand {
    static let spec = CommandSpec(
        name: "tick",
        usage: "manna tick [--now ISO8601]",
        abstract: "Show what is due (the morning verse), exactly once, then refresh the timeline",
        valueOptions: ["now": "act as if it were this moment, like 2026-03-08T07:00 (local) or 2026-03-08T07:00:00-05:00"],
        run: run)

    /// Idempotent: run it again, or four at once, and each occurrence is still shown once.
    /// A notification that cannot be shown (no bus, no server) is retried by the next tick;
    /// the timeline is written either way, and the tick then exits 69 with the reason.
    static func run(_ arguments: ParsedArguments, _ context: Context) throws(Failure) {
        guard arguments.positionals.isEmpty else { throw .usage("tick takes no arguments; see 'manna tick --help'") }
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
        let outcomes: [DeliveryOutcome]
        do {
            outcomes = try Scheduler.deliver(due, journal: journal, now: now) { item in
                switch item.occurrence.kind {
                case "plan": showPlanReminder(item, inputs: inputs, context)
                default: show(item, database: database, inputs: inputs, notifyAt: config.notifyAt, context)
                }
            }
        } catch {
            throw Failure(message: error.message, code: ExitCode.ioError)
        }

        let entries: [TimelineEntry]
        do { entries = try Timeline.entries(now: now, inputs: inputs, database: database) } catch { throw Failure(error) }
        try TimelineCommand.write(entries, zone: zone, now: now, context)

        for case .failed(_, let reason) in outcomes {
            throw Failure(message: reason + " (the next tick tries again)", code: ExitCode.unavailable)
        }
    }

    /// "Reading plan: Day 12 of 90" with the day's readings; nil when shown, else why not.
    static func showPlanReminder(_ item: Due, inputs: TimelineInputs, _ context: Context) -> String? {
        guard let (plan, run) = inputs.plan, let date = LocalDate(parsing: item.occurrence.occurrence),
              let step = run.step(for: date, today: date, plan: plan) else { return nil }
        let notification = Notification(summary: "\(plan.name): day \(step.day) of \(step.days)",
                                        body: step.readings.map(\.description).joined(separator: "; "), category: .plan)
        do {
            try context.notifier.show(notification)
            return nil
        } catch {
            return error.message
        }
    }

    /// Shows one due occurrence; nil when shown, else why not.
    static func show(_ item: Due, database: TextDatabase, inputs: TimelineInputs, notifyAt: LocalTime, _ context: Context) -> String? {
        guard let date = LocalDate(parsing: item.occurrence.occurrence) else { return "bad occurrence \(item.occurrence.occurrence)" }
        let verse: DailyVerse
        do { verse = try database.dailyVerse(for: date, in: inputs.translation, source: inputs.daily) } catch { return error.message }
        var notification = Notification(dailyVerse: verse)
        if item.late { notification.summary += " · missed at \(notifyAt)" }
        do {
            try context.notifier.show(notification)
            return nil
        } catch {
            return error.message
        }
    }
}
