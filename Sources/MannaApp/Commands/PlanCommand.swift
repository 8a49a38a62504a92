// manna plan list | show | start | today | done | undo | status | catch-up | remind | stop: reading
// plans and progress. Several plans can run at once, each with its own day and reminder: a
// command that acts on one takes its id when more than one runs.
import MannaKit

enum PlanCommand {
    static let spec = CommandSpec(
        name: "plan",
        usage: "manna plan list [--json] | show PLAN [--json] | start PLAN [--from DATE] [--remind HH:MM] | today [PLAN] [--read|--listen|--json] | done [PLAN] [DAY] | undo [PLAN] DAY | status [PLAN] [--json] | catch-up [PLAN] | remind [PLAN] HH:MM|off | stop [PLAN]",
        abstract: "Reading plans, several at once: see each day's readings, mark them read, catch up",
        options: [
            Options.planStart, Options.planReminder, Options.date, Options.translation, Options.now, Options.read, Options.listen,
            Options.json.help("print JSON (today and status: a list, one per running plan, or the PLAN named)"),
        ],
        subcommands: Subcommand.specs,
        pages: true,
        run: run)

    enum Subcommand: String, MannaApp.Subcommand {
        case list, show, start, today, done, undo, status
        case catchUp = "catch-up"
        case remind, stop

        var options: [any CommandOption] {
            switch self {
            case .list, .show: [Options.json]
            case .start: [Options.planStart, Options.planReminder, Options.now]
            case .today: [Options.date, Options.read, Options.listen, Options.json, Options.translation, Options.now]
            case .status: [Options.json, Options.now]
            case .done, .undo, .catchUp, .remind, .stop: [Options.now]
            }
        }
        var operand: Operand? {
            switch self {
            case .list: nil
            case .show, .start: .plan
            case .remind: .runningPlan(or: ["off"])
            case .today, .done, .undo, .status, .catchUp, .stop: .runningPlan(or: [])
            }
        }
    }

    static func run(_ arguments: ParsedArguments, _ context: Context) throws {
        let words = arguments.positionals
        let rest = Array(words.dropFirst())
        switch (arguments.subcommand(Subcommand.self), rest.count) {
        case (.list, 0): try list(json: arguments.has(Options.json), context)
        case (.show, 1): try show(rest[0], json: arguments.has(Options.json), context)
        case (.start, 1): try start(rest[0], arguments, context)
        case (.today, 0), (.today, 1): try today(rest.first, arguments, context)
        case (.done, 0...2): try done(rest, arguments, context)
        case (.undo, 1), (.undo, 2): try undo(rest, arguments, context)
        case (.status, 0), (.status, 1): try status(rest.first, arguments, context)
        case (.catchUp, 0), (.catchUp, 1): try catchUp(rest.first, arguments, context)
        case (.remind, 1), (.remind, 2): try remind(rest, arguments, context)
        case (.stop, 0), (.stop, 1): try stop(rest.first, arguments, context)
        default:
            throw spec.subcommandFailure(words.first, usage: tr("plan needs one of: list, show PLAN, start PLAN, today [PLAN], done [PLAN] [DAY], undo [PLAN] DAY, status [PLAN], catch-up [PLAN], remind [PLAN] HH:MM|off, stop [PLAN]; see 'manna plan --help'"))
        }
    }

    static func list(json: Bool, _ context: Context) throws {
        let library = PlanLibrary(database: try context.openTextDatabase(), userDirectory: context.paths.userPlans)
        let plans: [Plan]
        let all = try library.all()
        plans = all.plans
        for problem in all.problems { context.stderr.line("manna: skipped " + problem.message) }
        if json {
            return context.json(.array(plans.map { .object([("id", .string($0.id)), ("name", .string($0.name)), ("days", .int($0.days.count))]) }))
        }
        let width = plans.map(\.id.count).max() ?? 0
        for plan in plans {
            let days = String(plan.days.count)
            context.stdout.line(plan.id.padding(to: width + 1) + String(repeating: " ", count: 4 - days.count) + days + " days  \(plan.name)")
        }
    }

    /// A plan's name, description and every day's readings.
    static func show(_ id: String, json: Bool, _ context: Context) throws {
        let database = try context.openTextDatabase()
        guard let plan = try context.plan(id: id, database: database) else {
            let ids = (try? PlanLibrary(database: database, userDirectory: context.paths.userPlans).all().plans.map(\.id)) ?? []
            throw PlanProgressError.unknownPlan(id, closest: Suggestion.closest(to: id, in: ids))
        }
        if json {
            return context.json(.object([
                ("id", .string(plan.id)), ("name", .string(plan.name)), ("description", .string(plan.description)),
                ("days", .array(plan.days.map { day in .array(day.map { .string($0.description) }) })),
            ]))
        }
        context.stdout.line("\(plan.name) (\(plan.id)): \(plan.days.count) days")
        if !plan.description.isEmpty { context.stdout.line(plan.description.singleLine) }
        let width = String(plan.days.count).count
        for (index, day) in plan.days.enumerated() {
            let number = String(index + 1)
            context.stdout.line("day " + String(repeating: " ", count: width - number.count) + number + "  " + day.map(\.description).joined(separator: "; "))
        }
    }

    /// The running plan a command acts on: the one named, or else the only one running. With
    /// several running and none named, the command line is incomplete: one line lists them,
    /// with `example` (the command for a plan's id) showing how to name one.
    static func choose(_ name: String?, among running: [RunningPlan], example: (String) -> String) throws -> RunningPlan {
        let ids = running.map(\.run.planID)
        if let name {
            guard let chosen = running.first(where: { $0.run.planID == name }) else { throw PlanProgressError.notRunning(name, running: ids) }
            return chosen
        }
        guard let only = running.first else { throw PlanProgressError.noRunningPlan }
        guard running.count == 1 else {
            throw PlanProgressError.whichPlan(running: ids, example: example(ids[0]))
        }
        return only
    }

    /// Now, today, and the running plan named (or the only one), loaded: an error when none
    /// runs, when it is ambiguous, or when its plan cannot be loaded.
    static func current(_ name: String?, example: (String) -> String, _ arguments: ParsedArguments, _ context: Context)
        throws -> (now: Instant, today: LocalDate, plan: Plan, run: PlanRun) {
        let (now, today) = try moment(arguments, context)
        switch try choose(name, among: context.runningPlans(database: context.openTextDatabase()), example: example) {
        case .broken(_, let reason): throw Failure.data(reason)
        case .loaded(let plan, let run): return (now, today, plan, run)
        }
    }

    /// The moment the command acts at (`--now`, else the clock) and its local date.
    static func moment(_ arguments: ParsedArguments, _ context: Context) throws -> (now: Instant, today: LocalDate) {
        let zone = try context.zone()
        let now = try context.now(arguments)
        return (now, zone.local(now).date)
    }

    /// The running plans to show (`today`, `status`): the one named, or every one, each shown
    /// by `show` (with the number shown). A plan that cannot be loaded stops the command with
    /// its reason, after the others are shown.
    static func shown(_ name: String?, _ context: Context, show: ([(plan: Plan, run: PlanRun)]) throws -> Void) throws {
        let running = try context.runningPlans(database: context.openTextDatabase())
        let chosen = try name.map { [try choose($0, among: running) { $0 }] } ?? running
        var loaded: [(plan: Plan, run: PlanRun)] = []
        var broken: String?
        for plan in chosen {
            switch plan {
            case .loaded(let plan, let run): loaded.append((plan, run))
            case .broken(_, let reason): broken = broken ?? reason
            }
        }
        // Only a broken plan (the one named, or all there are): its reason alone.
        if let broken, loaded.isEmpty { throw Failure.data(broken) }
        try show(loaded)
        if let broken { throw Failure.data(broken) }
    }

    static func start(_ id: String, _ arguments: ParsedArguments, _ context: Context) throws {
        let (now, today) = try moment(arguments, context)
        let database = try context.openTextDatabase()
        guard let plan = try context.plan(id: id, database: database) else {
            let ids = (try? PlanLibrary(database: database, userDirectory: context.paths.userPlans).all().plans.map(\.id)) ?? []
            throw PlanProgressError.unknownPlan(id, closest: Suggestion.closest(to: id, in: ids))
        }
        let from = try arguments.value(Options.planStart, context) ?? today
        let remindAt = try arguments.value(Options.planReminder, context) ?? nil
        let journal = try context.journal()
        guard try journal.startPlan(plan.id, from: from, today: today, remindAt: remindAt, now: now) != nil else {
            let running = try journal.runningPlans().first { $0.planID == plan.id }
            throw PlanProgressError.alreadyRunning(plan.id, name: plan.name, startedOn: running?.startedOn ?? today)
        }
        try refreshTimeline(now: now, context)
        let others = try context.runningPlans(database: database).filter { $0.run.planID != plan.id }.map { running -> String in
            if case .loaded(let other, _) = running { return other.name }
            return running.run.planID
        }
        context.stdout.line(trn("started {plan} ({count} day), day 1 on {date}", "started {plan} ({count} days), day 1 on {date}", count: plan.days.count, ("plan", plan.name), ("date", Messages.current.date(from)))
            + (remindAt.map { tr(", reminder at {time}", ("time", $0.description)) } ?? "")
            + (others.isEmpty ? "" : tr("; also running: {plans}", ("plans", others.joined(separator: ", ")))))
    }

    static func today(_ name: String?, _ arguments: ParsedArguments, _ context: Context) throws {
        let (_, today) = try moment(arguments, context)
        let date = try arguments.value(Options.date, context) ?? today
        let json = arguments.has(Options.json)
        // The text or the voice is of one plan's readings: which one, when several run?
        if arguments.has(Options.read) || arguments.has(Options.listen) {
            let flag = arguments.has(Options.read) ? "read" : "listen"
            let (_, _, plan, run) = try current(name, example: { "manna plan today \($0) --\(flag)" }, arguments, context)
            return try showToday(plan, run, date: date, today: today, arguments, context)
        }
        try shown(name, context) { plans in
            if json {
                let objects = plans.map { todayJSON($0.plan, $0.run, date: date, today: today) }
                return context.json(name == nil ? .array(objects) : objects[0])
            }
            if plans.isEmpty { context.stdout.line(PlanProgressError.noRunningPlan.message) }
            for (plan, run) in plans { try showToday(plan, run, date: date, today: today, arguments, context) }
        }
    }

    static func todayJSON(_ plan: Plan, _ run: PlanRun, date: LocalDate, today: LocalDate) -> JSON {
        let step = run.step(for: date, today: today, plan: plan)
        return .object([
            ("plan", .string(plan.id)), ("name", .string(plan.name)), ("date", .string(date.description)),
            ("day", step.map { .int($0.day) } ?? .null), ("days", .int(plan.days.count)),
            ("readings", .array((step?.readings ?? []).map { .string($0.description) })),
        ])
    }

    /// One plan's line for `date`, and with `--read` or `--listen` its readings.
    static func showToday(_ plan: Plan, _ run: PlanRun, date: LocalDate, today: LocalDate, _ arguments: ParsedArguments, _ context: Context) throws {
        guard let step = run.step(for: date, today: today, plan: plan) else {
            let next = run.status(days: plan.days.count, today: today).nextUnread
            context.stdout.line("\(plan.name): " + (date < today ? tr("only today and later dates have readings to show")
                : next == nil ? tr("every day is read. Well done!")
                : date < run.scheduleStart ? tr("day 1 is on {date}", ("date", Messages.current.date(run.scheduleStart)))
                : tr("no reading on {date}: at one day a day, the plan ends before then", ("date", Messages.current.date(date)))))
            return
        }
        context.stdout.line(plan.name + ", " + tr("Day {day} of {days}: {readings}", ("day", step.day), ("days", step.days), ("readings", step.readings.map { $0.label(in: Messages.current.language) }.joined(separator: "; "))))
        if arguments.has(Options.listen) {
            context.stdout.flush()
            try ListenLock.takeOver(context)
            return try Listening.speak(Reference(ranges: step.readings.flatMap(\.ranges)), resume: nil, arguments, context)
        }
        guard arguments.has(Options.read) else { return }
        let database = try context.openTextDatabase()
        let translation = try context.translation(arguments.value(Options.translation, context), in: database)
        for reading in step.readings {
            let verses: [PassageVerse] = try database.passage(reading, in: translation, titles: true)
            context.stdout.line("")
            for line in PassageFormatter.lines(reference: reading, translation: translation.code, language: translation.language, verses: verses, width: context.terminalWidth) {
                context.stdout.line(line)
            }
        }
    }

    /// `done [PLAN] [DAY]`: a word that is a number is the day, unless it is a running plan's id.
    static func done(_ words: [String], _ arguments: ParsedArguments, _ context: Context) throws {
        var name: String?
        var dayText: String?
        if words.count == 2 {
            (name, dayText) = (words[0], words[1])
        } else if let word = words.first {
            let ids = try context.runningPlans(database: context.openTextDatabase()).map(\.run.planID)
            if Int(word) != nil && !ids.contains(word) { dayText = word } else { name = word }
        }
        let (now, today, plan, run) = try current(name, example: { "manna plan done \($0)" + (dayText.map { " " + $0 } ?? "") }, arguments, context)
        var day: Int
        if let dayText {
            guard let number = Int(dayText) else { throw Failure.usage(tr("done takes a day number, like 'manna plan done 12', not '{text}'", ("text", dayText))) }
            guard number >= 1 && number <= plan.days.count else {
                throw PlanProgressError.noSuchDay(number, days: plan.days.count)
            }
            day = number
        } else {
            guard let next = run.status(days: plan.days.count, today: today).nextUnread else {
                context.stdout.line(plan.name + ": " + tr("every day is already read"))
                return
            }
            day = next
        }
        let journal = try context.journal()
        try journal.markRead(day: day, of: run, today: today, now: now)
        try refreshTimeline(now: now, context)
        let streak = try journal.runningPlans().first { $0.uuid == run.uuid }?.status(days: plan.days.count, today: today).streak ?? 0
        context.stdout.line(plan.name + ": " + trn("day {day} of {days} read; streak {count} day", "day {day} of {days} read; streak {count} days", count: streak, ("day", day), ("days", plan.days.count)))
    }

    /// `undo [PLAN] DAY`: marks a day read by mistake unread again.
    static func undo(_ words: [String], _ arguments: ParsedArguments, _ context: Context) throws {
        let dayText = words[words.count - 1]
        let (now, _, plan, run) = try current(words.count == 2 ? words[0] : nil, example: { "manna plan undo \($0) \(dayText)" }, arguments, context)
        guard let day = Int(dayText) else { throw Failure.usage(tr("undo takes a day number, like 'manna plan undo 12', not '{text}'", ("text", dayText))) }
        guard day >= 1 && day <= plan.days.count else { throw PlanProgressError.noSuchDay(day, days: plan.days.count) }
        guard try context.journal().markUnread(day: day, of: run, now: now) else {
            context.stdout.line(plan.name + ": " + tr("day {day} is not marked read", ("day", day)))
            return
        }
        try refreshTimeline(now: now, context)
        context.stdout.line(plan.name + ": " + tr("day {day} of {days} is unread again", ("day", day), ("days", plan.days.count)))
    }

    /// Each running plan's status (or the one named); with none running, how to start one.
    static func status(_ name: String?, _ arguments: ParsedArguments, _ context: Context) throws {
        let (_, today) = try moment(arguments, context)
        try shown(name, context) { plans in
            if arguments.has(Options.json) {
                let objects = plans.map { plan, run in statusJSON(plan, run, status: run.status(days: plan.days.count, today: today)) }
                return context.json(name == nil ? .array(objects) : objects[0])
            }
            if plans.isEmpty { context.stdout.line(PlanProgressError.noRunningPlan.message) }
            for (index, (plan, run)) in plans.enumerated() {
                let status = run.status(days: plan.days.count, today: today)
                // With several, each is named by the id the other commands take.
                if index > 0 { context.stdout.line("") }
                let title = plans.count > 1 ? "\(plan.name) (\(plan.id))" : plan.name
                let position = status.nextUnread.map { tr("day {day} of {days}", ("day", $0), ("days", status.days)) }
                    ?? tr("all {days} days read", ("days", status.days))
                let pace = status.scheduledDay < 1 ? tr("begins on {date}", ("date", Messages.current.date(run.scheduleStart)))
                    : status.behind == 0 ? tr("on schedule") : trn("{count} day behind", "{count} days behind", count: status.behind)
                context.stdout.line(title + ": " + trn("{position}, {read} read ({percent}), {pace}, streak {count} day", "{position}, {read} read ({percent}), {pace}, streak {count} days", count: status.streak, ("position", position), ("read", status.daysRead), ("percent", status.percentRead), ("pace", pace)))
                context.stdout.line(tr("started {date}; day 1 scheduled on {start}", ("date", Messages.current.date(run.startedOn)), ("start", Messages.current.date(run.scheduleStart))) + (run.remindAt.map { tr("; reminder at {time}", ("time", $0.description)) } ?? ""))
            }
        }
    }

    static func statusJSON(_ plan: Plan, _ run: PlanRun, status: PlanStatus) -> JSON {
        .object([
            ("plan", .string(plan.id)), ("name", .string(plan.name)), ("uuid", .string(run.uuid)), ("days", .int(status.days)),
            ("read", .int(status.daysRead)), ("next", status.nextUnread.map { .int($0) } ?? .null), ("behind", .int(status.behind)),
            ("streak", .int(status.streak)), ("started_on", .string(run.startedOn.description)),
            ("schedule_start", .string(run.scheduleStart.description)), ("remind_at", run.remindAt.map { .string($0.description) } ?? .null),
        ])
    }

    /// Moves the schedule of a plan that is behind so that its next unread day is today; a plan
    /// on schedule, not begun yet, or read to its end is left as the user set it.
    static func catchUp(_ name: String?, _ arguments: ParsedArguments, _ context: Context) throws {
        let (now, today, plan, run) = try current(name, example: { "manna plan catch-up \($0)" }, arguments, context)
        let status = run.status(days: plan.days.count, today: today)
        guard let next = status.nextUnread else {
            context.stdout.line(plan.name + ": " + tr("every day is read; nothing to catch up"))
            return
        }
        guard status.behind > 0 else {
            context.stdout.line(plan.name + ": " + tr("nothing to catch up: ") + (status.scheduledDay < 1 ? tr("day 1 is on {date}", ("date", Messages.current.date(run.scheduleStart))) : tr("it is on schedule")))
            return
        }
        let journal = try context.journal()
        try journal.catchUp(run, nextUnread: next, today: today, now: now)
        try refreshTimeline(now: now, context)
        let moved = today.adding(days: 1 - next).dayNumber - run.scheduleStart.dayNumber
        context.stdout.line(plan.name + ": " + trn("day {day} is today's reading now; the rest follow one a day (the schedule moved {count} day later)", "day {day} is today's reading now; the rest follow one a day (the schedule moved {count} days later)", count: moved, ("day", next)))
    }

    /// `remind [PLAN] HH:MM|off`.
    static func remind(_ words: [String], _ arguments: ParsedArguments, _ context: Context) throws {
        let time = words[words.count - 1]
        let (now, _, plan, run) = try current(words.count == 2 ? words[0] : nil, example: { "manna plan remind \($0) \(time)" }, arguments, context)
        let remindAt = try Options.planReminder.read(time, context)
        let journal = try context.journal()
        try journal.setPlanReminder(run, at: remindAt, now: now)
        try refreshTimeline(now: now, context)
        context.stdout.line(plan.name + ": " + (remindAt.map { tr("reminder at {time} on days with an unread reading", ("time", $0.description)) } ?? tr("no reminder")))
    }

    /// Stops a running plan, even one whose plan can no longer be loaded.
    static func stop(_ name: String?, _ arguments: ParsedArguments, _ context: Context) throws {
        let (now, today) = try moment(arguments, context)
        let running = try choose(name, among: context.runningPlans(database: context.openTextDatabase()), example: { "manna plan stop \($0)" })
        let run = running.run
        try context.journal().stopPlan(run, now: now)
        try refreshTimeline(now: now, context)
        guard case .loaded(let plan, _) = running else {
            context.stdout.line(trn("stopped {plan} with {count} day read; its progress stays in the journal", "stopped {plan} with {count} days read; its progress stays in the journal", count: run.daysRead.count, ("plan", run.planID)))
            return
        }
        let status = run.status(days: plan.days.count, today: today)
        context.stdout.line(trn("stopped {plan} with {read} of {count} day read; its progress stays in the journal", "stopped {plan} with {read} of {count} days read; its progress stays in the journal", count: status.days, ("plan", plan.name), ("read", status.daysRead)))
    }

    /// Progress changes what the timeline shows: rewrite it if there is one.
    static func refreshTimeline(now: Instant, _ context: Context) throws {
        guard Files.exists(context.paths.timeline) else { return }
        try TimelineRefresh.refresh(now: now, context)
    }
}
