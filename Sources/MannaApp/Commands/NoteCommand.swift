// manna note add REF TEXT | list [REF] [--deleted] | edit ID TEXT | delete ID | restore ID: notes on passages, found at their first verse.
import MannaKit

enum NoteCommand {
    static let spec = CommandSpec(
        name: "note",
        usage: "manna note add REF TEXT | list [REF] [--deleted] [--json] | edit ID TEXT | delete ID | restore ID",
        abstract: "Write notes on passages: manna note add \"John 3:16\" \"The gospel in one verse\"",
        options: [Options.now, Options.json, Options.deleted.help("the deleted notes, each with its text (restore brings one back)")],
        subcommands: Subcommand.specs,
        pages: true,
        run: run)

    enum Subcommand: String, MannaApp.Subcommand {
        case add, list, edit, delete, restore

        var options: [any CommandOption] { self == .list ? [Options.deleted, Options.json] : [Options.now] }
        var operand: Operand? { self == .add || self == .list ? .reference : .note }
    }

    static func run(_ arguments: ParsedArguments, _ context: Context) throws {
        let words = arguments.positionals
        let rest = words.dropFirst()
        switch arguments.subcommand(Subcommand.self) {
        case .add:
            // The text is the last argument; the words before it are the reference.
            // "manna note add John 3:16" has no text: "3:16" is the end of the reference.
            let last = rest.last ?? ""
            guard rest.count >= 2, !(last.contains(where: \.isNumber) && last.allSatisfy({ $0.isNumber || ":-,;. ".contains($0) })) else {
                throw Failure.usage("note add needs a reference and the note's text, like: manna note add \"John 3:16\" \"The gospel in one verse\"")
            }
            let reference = try PassageInput.parseReference(Array(rest.dropLast()), command: "note add", context)
            let text = last == "-" ? try StandardInput.text("the note") : last
            try Journal.checkNote(text)
            let journal = try context.journal()
            let note: Note = try journal.addNote(text, on: reference, at: try context.now(arguments))
            context.stdout.line("added note \(note.shortID) on \(note.reference)")
        case .list:
            let reference = try MarkListing.optionalReference(rest, command: "note list", context)
            let deleted = arguments.has(Options.deleted)
            // No journal yet: no notes, and listing them does not make one.
            let notes = try context.existingJournal()?.notes(in: reference, deleted: deleted) ?? []
            let zone = try context.zone()
            if arguments.has(Options.json) {
                return context.json(.array(notes.map { note in
                    MarkListing.json(id: note.shortID, uuid: note.uuid, reference: note.reference,
                                     extra: [("text", .string(note.text))]
                                        + (deleted ? [("deleted_at", note.deletedAt.map { .string(zone.local($0).iso8601) } ?? .null)] : []),
                                     created: note.createdAt, updated: note.updatedAt, zone: zone)
                }))
            }
            guard !notes.isEmpty else {
                if deleted { return context.stderr.line("manna: no deleted notes" + (reference.map { " on \($0)" } ?? "")) }
                return MarkListing.empty(.note, on: reference, context)
            }
            for line in lines(notes, deletedIn: deleted ? zone : nil) { context.stdout.line(line) }
        case .delete:
            let id = try MarkListing.id(rest, kind: .note)
            let journal = try MarkListing.journal(holding: .note, id: id, context)
            let note: Note = try journal.deleteNote(id: id, at: try context.now(arguments))
            context.stdout.line("deleted note \(note.shortID) on \(note.reference) (undo: manna note restore \(note.shortID))")
        case .edit:
            guard rest.count == 2 else {
                throw Failure.usage("note edit needs the note's id and its new text, like: manna note edit k7m2 \"The gospel in one verse\"")
            }
            let text = rest.last! == "-" ? try StandardInput.text("the note") : rest.last!
            try Journal.checkNote(text)
            let journal = try MarkListing.journal(holding: .note, id: rest.first!, context)
            let note = try journal.editNote(id: rest.first!, text: text, at: try context.now(arguments))
            context.stdout.line("edited note \(note.shortID) on \(note.reference)")
        case .restore:
            let id = try MarkListing.id(rest, kind: .note, verb: "restore")
            let journal = try MarkListing.journal(holding: .note, id: id, context)
            let note = try journal.restoreNote(id: id, at: try context.now(arguments))
            context.stdout.line("restored note \(note.shortID) on \(note.reference)")
        case nil:
            throw spec.subcommandFailure(words.first, usage: "note needs 'add REF TEXT', 'list [REF]', 'edit ID TEXT', 'delete ID' or 'restore ID'; see 'manna note --help'")
        }
    }

    /// `ID  REFERENCE  TEXT`, a note's further lines indented under its text; with `deletedIn`,
    /// the date each was deleted, in that zone, before its text (`ID  REFERENCE  DATE  TEXT`).
    static func lines(_ notes: [Note], deletedIn zone: Zone? = nil) -> [String] {
        let paragraphs = notes.map(\.paragraphs)
        let heads = MarkListing.lines(notes.map { note in
            [note.shortID, note.reference.description] + (zone.flatMap { zone in note.deletedAt.map { ["\(zone.local($0).date)"] } } ?? []) + [""]
        })
        var lines: [String] = []
        for (head, text) in zip(heads, paragraphs) {
            lines.append(head + text[0])
            lines += text.dropFirst().map { String(repeating: " ", count: head.count) + $0 }
        }
        return lines
    }
}
