// manna plan list | show | start | today | done | undo | status | catch-up | remind | stop: reading plans and progress.
import MannaKit

enum PlanCommand {
    static let spec = CommandSpec(
        name: "plan",
        usage: "manna plan list [--json] | show PLAN [--json] | start PLAN [--from DATE] [--remind HH:MM] | today [--read|--listen|--json] | done [DAY] | undo DAY | status [--json] | catch-up | remind HH:MM|off | stop",
        abstract: "Reading plans: choose one, see today's readings, mark them read, catch up",
        valueOptions: [
            "from": "start: the date of day 1 (default: today)",
            "remind": "start: a daily reminder to read at HH:MM",
            "date": "today: the local date to show (default: today)",
            "translation": "today --read or --listen: KJV, ASV, WBS, WEB or RV1909 (Spanish)",
            "now": "act as if it were this moment (for replaying)",
        ],
        flags: ["read": "today: print the readings' text too", "listen": "today: read the readings aloud (see 'manna listen')",
                "json": "list, show, today, status: print JSON"],
        subcommands: ["list", "show", "start", "today", "done", "undo", "status", "catch-up", "remind", "stop"],
        subcommandOptions: [
            "list": ["json"], "show": ["json"], "start": ["from", "remind", "now"],
            "today": ["date", "read", "listen", "json", "translation", "now"], "done": ["now"], "undo": ["now"],
            "status": ["json", "now"], "catch-up": ["now"], "remind": ["now"], "stop": ["now"],
        ],
        operands: ["show": .plan, "start": .plan, "remind": .words(["off"])],
        pages: true,
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: Context) throws {
        let words = arguments.positionals
        switch (words.first, words.count) {
        case ("list", 1): try list(json: arguments.has("json"), context)
        case ("show", 2): try show(words[1], json: arguments.has("json"), context)
        case ("start", 2): try start(words[1], arguments, context)
        case ("today", 1): try today(arguments, context)
        case ("done", 1), ("done", 2): try done(words.count == 2 ? words[1] : nil, arguments, context)
        case ("undo", 2): try undo(words[1], arguments, context)
        case ("status", 1): try status(arguments, context)
        case ("catch-up", 1): try catchUp(arguments, context)
        case ("remind", 2): try remind(words[1], arguments, context)
        case ("stop", 1): try stop(arguments, context)
        default:
            throw spec.subcommandFailure(words.first, usage: "plan needs one of: list, show PLAN, start PLAN, today, done [DAY], undo DAY, status, catch-up, remind HH:MM|off, stop; see 'manna plan --help'")
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

    /// Now, today, and the running plan (an error when none runs).
    static func current(_ arguments: ParsedArguments, _ context: Context) throws -> (now: Instant, today: LocalDate, plan: Plan, run: PlanRun) {
        let zone = try context.zone()
        let now = try context.now(arguments.value("now"), zone: zone)
        let today = zone.local(now).date
        switch try context.runningPlan(database: context.openTextDatabase()) {
        case .none: throw PlanProgressError.noRunningPlan
        case .broken(_, let reason): throw Failure.data(reason)
        case .loaded(let plan, let run): return (now, today, plan, run)
        }
    }

    static func start(_ id: String, _ arguments: ParsedArguments, _ context: Context) throws {
        let zone = try context.zone()
        let now = try context.now(arguments.value("now"), zone: zone)
        let today = zone.local(now).date
        let database = try context.openTextDatabase()
        guard let plan = try context.plan(id: id, database: database) else {
            let ids = (try? PlanLibrary(database: database, userDirectory: context.paths.userPlans).all().plans.map(\.id)) ?? []
            throw PlanProgressError.unknownPlan(id, closest: Suggestion.closest(to: id, in: ids))
        }
        var from = today
        if let given = arguments.value("from") {
            guard let date = LocalDate(parsing: given) else { throw Failure.usage("--from must be a date YYYY-MM-DD, like 2027-01-01, not '\(given)'") }
            from = date
        }
        let remindAt = try reminderTime(arguments.value("remind"))
        let journal = try context.journal()
        try journal.startPlan(plan.id, from: from, today: today, remindAt: remindAt, now: now)
        context.stdout.line("started \(plan.name) (\(plan.days.count) days), day 1 on \(from)" + (remindAt.map { ", reminder at \($0)" } ?? ""))
    }

    static func reminderTime(_ text: String?) throws -> LocalTime? {
        guard let text, text != "off" else { return nil }
        guard let time = LocalTime(parsing: text) else { throw Failure.usage("a reminder time must be HH:MM (24-hour), like 20:00, or 'off', not '\(text)'") }
        return time
    }

    static func today(_ arguments: ParsedArguments, _ context: Context) throws {
        let (_, today, plan, run) = try current(arguments, context)
        let date = arguments.value("date") == nil ? today : try context.date(arguments.value("date"))
        let step = run.step(for: date, today: today, plan: plan)
        if arguments.has("json") {
            return context.json(.object([
                ("plan", .string(plan.id)), ("name", .string(plan.name)), ("date", .string(date.description)),
                ("day", step.map { .int($0.day) } ?? .null), ("days", .int(plan.days.count)),
                ("readings", .array((step?.readings ?? []).map { .string($0.description) })),
            ]))
        }
        guard let step else {
            context.stdout.line(date < today ? "\(plan.name): only today and later dates have readings to show"
                : "\(plan.name): every day is read. Well done!")
            return
        }
        context.stdout.line("\(plan.name), \(step.summary)")
        if arguments.has("listen") {
            context.stdout.flush()
            try ListenLock.takeOver(context)
            return try ListenCommand.speak(Reference(ranges: step.readings.flatMap(\.ranges)), resume: nil, arguments, context)
        }
        guard arguments.has("read") else { return }
        let database = try context.openTextDatabase()
        let translation = try context.translation(arguments.value("translation"), in: database)
        for reading in step.readings {
            let verses: [PassageVerse] = try database.passage(reading, in: translation, titles: true)
            context.stdout.line("")
            for line in PassageFormatter.lines(reference: reading, translation: translation.code, language: translation.language, verses: verses, width: context.terminalWidth) {
                context.stdout.line(line)
            }
        }
    }

    static func done(_ dayText: String?, _ arguments: ParsedArguments, _ context: Context) throws {
        let (now, today, plan, run) = try current(arguments, context)
        let status = run.status(days: plan.days.count, today: today)
        var day: Int
        if let dayText {
            guard let number = Int(dayText) else { throw Failure.usage("done takes a day number, like 'manna plan done 12', not '\(dayText)'") }
            guard number >= 1 && number <= plan.days.count else {
                throw PlanProgressError.noSuchDay(number, days: plan.days.count)
            }
            day = number
        } else {
            guard let next = status.nextUnread else {
                context.stdout.line("\(plan.name): every day is already read")
                return
            }
            day = next
        }
        let journal = try context.journal()
        try journal.markRead(day: day, of: run, today: today, now: now)
        try refreshTimeline(now: now, context)
        let after = try current(arguments, context)
        let newStatus = after.run.status(days: plan.days.count, today: today)
        context.stdout.line("day \(day) of \(plan.days.count) read; streak \(newStatus.streak) day\(newStatus.streak == 1 ? "" : "s")")
    }

    /// Marks a day read by mistake unread again.
    static func undo(_ dayText: String, _ arguments: ParsedArguments, _ context: Context) throws {
        let (now, _, plan, run) = try current(arguments, context)
        guard let day = Int(dayText) else { throw Failure.usage("undo takes a day number, like 'manna plan undo 12', not '\(dayText)'") }
        guard day >= 1 && day <= plan.days.count else { throw PlanProgressError.noSuchDay(day, days: plan.days.count) }
        guard try context.journal().markUnread(day: day, of: run, now: now) else {
            context.stdout.line("\(plan.name): day \(day) is not marked read")
            return
        }
        try refreshTimeline(now: now, context)
        context.stdout.line("\(plan.name): day \(day) of \(plan.days.count) is unread again")
    }

    static func status(_ arguments: ParsedArguments, _ context: Context) throws {
        let (_, today, plan, run) = try current(arguments, context)
        let status = run.status(days: plan.days.count, today: today)
        let position = status.nextUnread.map { "day \($0) of \(status.days)" } ?? "all \(status.days) days read"
        if arguments.has("json") {
            return context.json(.object([
                ("plan", .string(plan.id)), ("name", .string(plan.name)), ("uuid", .string(run.uuid)), ("days", .int(status.days)),
                ("read", .int(status.daysRead)), ("next", status.nextUnread.map { .int($0) } ?? .null), ("behind", .int(status.behind)),
                ("streak", .int(status.streak)), ("started_on", .string(run.startedOn.description)),
                ("schedule_start", .string(run.scheduleStart.description)), ("remind_at", run.remindAt.map { .string($0.description) } ?? .null),
            ]))
        }
        let behind = status.behind == 0 ? "on schedule" : "\(status.behind) day\(status.behind == 1 ? "" : "s") behind"
        context.stdout.line("\(plan.name): \(position), \(status.daysRead) read (\(status.percent)%), \(behind), streak \(status.streak) day\(status.streak == 1 ? "" : "s")")
        context.stdout.line("started \(run.startedOn); day 1 scheduled on \(run.scheduleStart)" + (run.remindAt.map { "; reminder at \($0)" } ?? ""))
    }

    static func catchUp(_ arguments: ParsedArguments, _ context: Context) throws {
        let (now, today, plan, run) = try current(arguments, context)
        guard let next = run.status(days: plan.days.count, today: today).nextUnread else {
            context.stdout.line("\(plan.name): every day is read; nothing to catch up")
            return
        }
        let journal = try context.journal()
        try journal.catchUp(run, nextUnread: next, today: today, now: now)
        try refreshTimeline(now: now, context)
        context.stdout.line("\(plan.name): day \(next) is today's reading now; the rest follow one a day")
    }

    static func remind(_ time: String, _ arguments: ParsedArguments, _ context: Context) throws {
        let (now, _, plan, run) = try current(arguments, context)
        let remindAt = try reminderTime(time)
        let journal = try context.journal()
        try journal.setPlanReminder(run, at: remindAt, now: now)
        context.stdout.line(remindAt.map { "\(plan.name): reminder at \($0) on days with an unread reading" } ?? "\(plan.name): no reminder")
    }

    /// Stops the running plan, even one whose plan can no longer be loaded.
    static func stop(_ arguments: ParsedArguments, _ context: Context) throws {
        let zone = try context.zone()
        let now = try context.now(arguments.value("now"), zone: zone)
        let running = try context.runningPlan(database: context.openTextDatabase())
        let (plan, run): (Plan?, PlanRun)
        switch running {
        case .none: throw PlanProgressError.noRunningPlan
        case .broken(let broken, _): (plan, run) = (nil, broken)
        case .loaded(let loaded, let loadedRun): (plan, run) = (loaded, loadedRun)
        }
        try context.journal().stopPlan(run, now: now)
        try refreshTimeline(now: now, context)
        guard let plan else {
            context.stdout.line("stopped \(run.planID) with \(run.daysRead.count) days read; its progress stays in the journal")
            return
        }
        let status = run.status(days: plan.days.count, today: zone.local(now).date)
        context.stdout.line("stopped \(plan.name) with \(status.daysRead) of \(status.days) days read; its progress stays in the journal")
    }

    /// Progress changes what the timeline shows: rewrite it if there is one.
    static func refreshTimeline(now: Instant, _ context: Context) throws {
        guard Files.exists(context.paths.timeline) else { return }
        try TimelineCommand.refresh(now: now, context)
    }
}
