// manna highlight REF [--color C] | list [REF] | delete ID: verses highlighted in a colour.
import MannaKit

enum HighlightCommand {
    static let spec = CommandSpec(
        name: "highlight",
        usage: "manna highlight [add] REF [--color yellow|green|blue|pink|purple] | list [REF] [--json] | delete ID | restore ID",
        abstract: "Highlight verses: manna highlight \"John 3:16\" --color green",
        options: [Options.highlightColor, Options.now, Options.json],
        subcommands: Subcommand.specs,
        withoutSubcommand: Subcommand.add.spec,
        run: run)

    enum Subcommand: String, MannaApp.Subcommand {
        case add, list, delete, restore

        var options: [any CommandOption] {
            switch self {
            case .add: [Options.highlightColor, Options.now]
            case .list: [Options.json]
            case .delete, .restore: [Options.now]
            }
        }
        var operand: Operand? { self == .add || self == .list ? .reference : .highlight }
    }

    static func run(_ arguments: ParsedArguments, _ context: Context) throws {
        let words = arguments.positionals
        let rest = words.dropFirst()
        switch arguments.subcommand(Subcommand.self) {
        case .list:
            let reference = try MarkListing.optionalReference(rest, command: "highlight list", context)
            var highlights: [Highlight] = []
            if let journal = try context.existingJournal() {
                highlights = try journal.highlights(in: reference)
            }
            if arguments.has(Options.json) {
                let zone = try context.zone()
                return context.json(.array(highlights.map {
                    MarkListing.json(id: $0.shortID, uuid: $0.uuid, reference: Reference($0.verseID), extra: [("color", .string($0.color.rawValue))],
                                     created: $0.createdAt, updated: $0.updatedAt, zone: zone)
                }))
            }
            guard !highlights.isEmpty else { return MarkListing.empty(.highlight, on: reference, context) }
            let rows = highlights.map { [$0.shortID, Reference($0.verseID).description, $0.color.rawValue] }
            for line in MarkListing.lines(rows) { context.stdout.line(line) }
        case .delete:
            let id = try MarkListing.id(rest, kind: .highlight)
            let journal = try MarkListing.journal(holding: .highlight, id: id, context)
            let highlight: Highlight = try journal.deleteHighlight(id: id, at: try context.now(arguments))
            context.stdout.line("deleted highlight \(highlight.shortID) on \(Reference(highlight.verseID)) (undo: manna highlight restore \(highlight.shortID))")
        case .restore:
            let id = try MarkListing.id(rest, kind: .highlight, verb: "restore")
            let journal = try MarkListing.journal(holding: .highlight, id: id, context)
            let highlight = try journal.restoreHighlight(id: id, at: try context.now(arguments))
            context.stdout.line("restored highlight \(highlight.shortID) on \(Reference(highlight.verseID)) (\(highlight.color.rawValue))")
        case .add, nil:
            // `manna highlight REF`, or `manna highlight add REF` like the other marks.
            let reference = try PassageInput.parseReference(words.first == Subcommand.add.rawValue ? Array(rest) : words, command: "highlight", context)
            let color = try arguments.value(Options.highlightColor, context) ?? .yellow
            let journal = try context.journal()
            let changes: [HighlightChange] = try journal.highlight(reference, color: color, at: try context.now(arguments))
            for change in changes {
                switch change {
                case .added(let highlight):
                    context.stdout.line("highlighted \(Reference(highlight.verseID)) \(highlight.color.rawValue) (\(highlight.shortID))")
                case .recolored(let highlight, let old):
                    context.stdout.line("highlighted \(Reference(highlight.verseID)) \(highlight.color.rawValue), was \(old.rawValue) (\(highlight.shortID))")
                case .unchanged(let highlight):
                    context.stdout.line("\(Reference(highlight.verseID)) is already \(highlight.color.rawValue) (\(highlight.shortID))")
                }
            }
        }
    }
}
