// manna build-db [--curated DIR] [--output FILE]: the build step that turns curated/ into bible.sqlite.
import MannaKit

enum BuildDatabaseCommand {
    static let spec = CommandSpec(
        name: "build-db",
        usage: "manna build-db [--curated DIR] [--output FILE]",
        abstract: "Build the text database from curated/ (run from a checkout, manna does this itself)",
        options: [Options.curated, Options.output],
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: Context) throws {
        guard arguments.positionals.isEmpty else { throw Failure.usage("build-db takes no arguments; see 'manna build-db --help'") }
        let location = try? context.textDatabaseLocation()
        guard let curated = try arguments.value(Options.curated, context) ?? location?.curatedDirectory else {
            throw Failure.usage("not in a checkout: give the curated/ folder with --curated DIR")
        }
        guard let output = try arguments.value(Options.output, context) ?? location?.path else {
            throw Failure.usage("give the database file to write with --output FILE")
        }
        try context.buildTextDatabase(from: curated, to: output)
    }
}
