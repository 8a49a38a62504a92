// manna paths: where Manna keeps its files, as key=value lines.
import MannaKit

enum PathsCommand {
    static let spec = CommandSpec(
        name: "paths",
        usage: "manna paths",
        abstract: "Print where Manna's files are, as key=value lines",
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: Context) throws {
        guard arguments.positionals.isEmpty else { throw Failure.usage("paths takes no arguments") }
        context.stdout.line("text_db=" + (try context.textDatabaseLocation()).path)
        let paths = context.paths
        context.stdout.line("journal_db=" + paths.journal)
        context.stdout.line("config=" + paths.config)
        context.stdout.line("plans=" + paths.userPlans)
        context.stdout.line("timeline=" + paths.timeline)
        context.stdout.line("units=" + paths.unitDirectory)
    }
}
