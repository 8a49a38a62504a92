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
        let journal = try context.journal()
        let database = try context.openTextDatabase()
        let inputs = try context.timelineInputs(database: database, zone: zone, now: now)
        let tick = Tick(journal: journal, database: database, inputs: inputs, notifier: context.notifier, manna: context.executablePath)
        let outcomes = try tick.run(at: now)

        let entries = try Timeline.entries(now: now, inputs: inputs, database: database)
        try TimelineCommand.write(entries, zone: zone, now: now, context)

        for case .failed(_, let reason) in outcomes {
            throw Failure.unavailable(reason + " (the next tick tries again)")
        }
    }
}
