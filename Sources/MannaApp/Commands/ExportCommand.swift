// manna export [FILE]: all the user's data as JSON (docs/export-format.md), to FILE or stdout.
import MannaKit

enum ExportCommand {
    static let spec = CommandSpec(
        name: "export",
        usage: "manna export [FILE]",
        abstract: "Write all your data (prayers, plans, notes, highlights, bookmarks, searches) as JSON",
        operand: .file,
        run: run)

    /// FILE is written beside itself and renamed into place, mode 0600: the old file or the
    /// whole new one, never a part, and never readable by other users. A link, a FIFO or a
    /// device at FILE is refused (`Files.writeAtomically`): in a shared folder it may be
    /// another user's trap.
    static func run(_ arguments: ParsedArguments, _ context: Context) throws {
        guard arguments.positionals.count <= 1 else { throw Failure.usage("export takes at most one file; see 'manna export --help'") }
        var document = Journal.emptyExport
        if let journal = try context.existingJournal() {
            document = try journal.export()
        } else if let file = arguments.positionals.first, file != "-", Files.isRegularFile(file) {
            // An empty document over a backup would lose it: with no journal, nothing to say.
            throw Failure.data("there is no journal to export (\(context.paths.journal) does not exist); \(file) was left as it is")
        }
        let text = document.prettyText + "\n"
        guard let file = arguments.positionals.first, file != "-" else {
            context.stdout.write(text)
            return
        }
        do { try Files.writeAtomically(text, to: file, mode: 0o600) } catch {
            throw Failure.io("cannot write \(error.message)")
        }
    }
}
