// manna import FILE: merges an export into the journal (rules in docs/export-format.md).
import MannaKit

enum ImportCommand {
    static let spec = CommandSpec(
        name: "import",
        usage: "manna import FILE",
        abstract: "Merge a file from 'manna export' into your data: the newest version of each record wins",
        operand: .file,
        run: run)

    /// The whole file is checked before anything changes, then merged in one transaction.
    static func run(_ arguments: ParsedArguments, _ context: Context) throws {
        guard arguments.positionals.count == 1, let path = arguments.positionals.first else {
            throw Failure.usage("import needs one file from 'manna export', like 'manna import manna-export.json'")
        }
        let file: ImportFile = path == "-" ? try ImportFile(parsing: try StandardInput.text("the export", allowNUL: true), file: "stdin")
            : try ImportFile.load(path)
        // Progress beyond a plan's last day could never be read back: refused with the rest.
        let database = try context.openTextDatabase()
        try file.checkPlanDays { id in (try? context.plan(id: id, database: database))??.days.count }
        let journal = try context.journal()
        let summary: ImportSummary = try journal.merge(file)
        context.stdout.line("imported \(path == "-" ? "stdin" : path): \(summary.changed) changed, \(summary.unchanged) unchanged")
        for (table, counts) in summary.tables where counts.changed > 0 {
            let parts = [(counts.added, "added"), (counts.updated, "updated"), (counts.superseded, "superseded"), (counts.removed, "removed")]
            context.stdout.line("  \(table): " + parts.filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }.joined(separator: ", "))
        }
    }
}
