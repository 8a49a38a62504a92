// manna tick [--now T]: the scheduler's unit of work, run every minute by the systemd timer or cron.
import MannaKit

enum TickCommand {
    static let spec = CommandSpec(
        name: "tick",
        usage: "manna tick [--now ISO8601]",
        abstract: "Show what is due (the morning verse, prayer and reading reminders), exactly once, then refresh the timeline",
        options: [Options.now],
        run: run)

    /// Idempotent: run it again, or four at once, and each occurrence is still shown once.
    /// A notification that cannot be shown (no bus, no server) is retried by every tick; the
    /// timeline is written either way. The first failure of a local day exits 69 with the
    /// reason; later ones that day exit 0 quietly (cron mails, and the journal logs, whatever
    /// a tick prints, every minute), and `manna doctor` says how it stands.
    static func run(_ arguments: ParsedArguments, _ context: Context) throws {
        guard arguments.positionals.isEmpty else { throw Failure.usage(tr("tick takes no arguments; see 'manna tick --help'")) }
        // A line of the config the tick cannot use is said once a day (below), not every minute.
        context.saysIgnoredConfig = false
        let zone = try context.zone()
        let now = try context.now(arguments)
        let journal = try context.journal()
        let database = try context.openTextDatabase()
        // Other devices' edits first, so a reminder changed there fires here at its new time.
        Syncing.inTick(journal, now: now)
        let inputs = try context.timelineInputs(database: database, zone: zone, now: now)
        let tick = Tick(journal: journal, database: database, inputs: inputs, notifier: context.notifier, manna: context.executablePath)
        let outcomes = try tick.run(at: now)

        let entries = try Timeline.entries(now: now, inputs: inputs, database: database)
        try TimelineRefresh.write(entries, zone: zone, now: now, context)
        // For `doctor`: when a tick last ran, by the real clock (a replay's --now is not when it
        // ran). A stamp, not a journal write: the common tick writes nothing, and a stamp that
        // cannot be made must not stop the tick.
        try? Files.stamp(context.paths.lastTick, at: context.clock.now())
        try sayIgnoredConfig(context.config().ignored, journal: journal, now: now, zone: zone, context)
        try report(outcomes, journal: journal, now: now, zone: zone)
    }

    /// The config's ignored lines, on stderr (where cron mails and the journal logs it), by the
    /// first tick of a local day that meets them, or at once when they change; the tick itself
    /// went on with the defaults. `doctor` fails on them every time.
    static func sayIgnoredConfig(_ ignored: [Config.IgnoredLine], journal: Journal, now: Instant, zone: Zone, _ context: Context) throws {
        // A clean config costs the tick nothing: no read of what was said.
        guard !ignored.isEmpty else { return }
        let said = try journal.configWarning()
        let lines = ignored.map { "manna: " + $0.message }.joined(separator: "\n")
        if let said, said.reason == lines, zone.local(said.instant).date == zone.local(now).date { return }
        try journal.recordConfigWarning(lines, at: now)
        context.stderr.line(lines)
    }

    /// Records a failure to show a notification (or a server that did not confirm one) for
    /// `doctor`, and says it once a local day; forgets it once one is shown.
    static func report(_ outcomes: [DeliveryOutcome], journal: Journal, now: Instant, zone: Zone) throws {
        var problem: String?
        var failed = false
        var shown = false
        for outcome in outcomes {
            switch outcome {
            case .shown: shown = true
            case .alreadyClaimed: break
            case .unconfirmed(_, let reason): problem = problem ?? reason
            // A backlog left for the next tick when the budget was spent is not a failure.
            case .deferred: break
            case .failed(_, let reason):
                if !failed { problem = reason }
                failed = true
            }
        }
        guard let problem else {
            if shown, try journal.notifyFailure() != nil { try journal.clearNotifyFailure() }
            return
        }
        let last = try journal.notifyFailure()
        try journal.recordNotifyFailure(problem, mayHaveBeenShown: !failed, at: now)
        let saidToday = last.map { zone.local($0.instant).date == zone.local(now).date } ?? false
        if failed && !saidToday {
            throw Failure.unavailable(problem + " (" + NotifyError.whatHappensAfter(mayHaveBeenShown: false) + tr("; said once a day: see 'manna doctor'") + ")")
        }
    }
}
