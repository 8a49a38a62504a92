// manna plan list | today [--date D] [--read]: the reading plans and today's step.
import MannaKit

enum PlanCommand {
    static let spec = CommandSpec(
        name: "plan",
        usage: "manna plan list | manna plan today [--date YYYY-MM-DD] [--read]",
        abstract: "List reading plans, or show today's readings of the chosen plan",
        valueOptions: ["date": "the local date to show (default: today)", "translation": "for --read: KJV, ASV, WBS or WEB"],
        flags: ["read": "print the readings' text too"],
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: Context) throws(Failure) {
        switch arguments.positionals.first {
        case "list" where arguments.positionals.count == 1: try list(context)
        case "today" where arguments.positionals.count == 1: try today(arguments, context)
        default: throw .usage("plan needs 'list' or 'today'; see 'manna plan --help'")
        }
    }

    static func library(_ context: Context, database: TextDatabase) throws(Failure) -> PlanLibrary {
        let library: PlanLibrary
        do { library = try PlanLibrary(database: database, userDirectory: context.paths.userPlans) } catch { throw Failure(error) }
        for problem in library.problems { context.stderr.line("manna: skipped " + problem.message) }
        return library
    }

    static func list(_ context: Context) throws(Failure) {
        let database = try context.openTextDatabase()
        let plans = try library(context, database: database).plans
        let width = plans.map(\.id.count).max() ?? 0
        for plan in plans {
            let days = String(plan.days.count)
            context.stdout.line(plan.id.padding(to: width + 1) + String(repeating: " ", count: 4 - days.count) + days + " days  \(plan.name)")
        }
    }

    static func today(_ arguments: ParsedArguments, _ context: Context) throws(Failure) {
        let config = try context.config()
        guard let id = config.plan else {
            throw .usage("no plan chosen: pick one from 'manna plan list' and run 'manna config set plan ID'")
        }
        let zone = try context.zone()
        let date = try context.date(arguments.value("date"))
        let start = config.planStart ?? date
        let database = try context.openTextDatabase()
        guard let plan = try library(context, database: database).plan(id: id) else {
            throw Failure(message: "\(context.paths.config): plan '\(id)' is not a known plan; see 'manna plan list'", code: ExitCode.dataError)
        }
        guard let day = plan.day(for: date, startedOn: start) else {
            let message = date < start ? "\(plan.name) starts on \(start)" : "\(plan.name) ended on \(start.adding(days: plan.days.count - 1))"
            context.stdout.line(message)
            return
        }
        let step = PlanStep(planID: plan.id, planName: plan.name, day: day, days: plan.days.count, readings: plan.days[day - 1])
        context.stdout.line("\(plan.name), \(step.summary)")
        guard arguments.has("read") else { return }
        let translation = try context.translation(arguments.value("translation"), in: database)
        for reading in step.readings {
            let verses: [PassageVerse]
            do { verses = try database.passage(reading, in: translation) } catch { throw Failure(error) }
            context.stdout.line("")
            for line in PassageFormatter.lines(reference: reading, translation: translation.code, verses: verses, width: context.terminalWidth) {
                context.stdout.line(line)
            }
        }
    }
}
