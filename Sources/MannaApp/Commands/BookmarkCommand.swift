// manna bookmark add REF | list [REF] | delete ID: passages kept, found at their first verse.
import MannaKit

enum BookmarkCommand {
    static let spec = CommandSpec(
        name: "bookmark",
        usage: "manna bookmark add REF | list [REF] [--json] | delete ID | restore ID",
        abstract: "Bookmark passages (with daily_source = bookmarks, the verse of the day comes from them)",
        options: [Options.now, Options.json],
        subcommands: Subcommand.specs,
        run: run)

    enum Subcommand: String, MannaApp.Subcommand {
        case add, list, delete, restore

        var options: [any CommandOption] { self == .list ? [Options.json] : [Options.now] }
        var operand: Operand? { self == .add || self == .list ? .reference : .bookmark }
    }

    static func run(_ arguments: ParsedArguments, _ context: Context) throws {
        let words = arguments.positionals
        let rest = words.dropFirst()
        switch arguments.subcommand(Subcommand.self) {
        case .add:
            let reference = try PassageInput.parseReference(Array(rest), command: "bookmark add", context)
            let journal = try context.journal()
            let change: BookmarkChange = try journal.bookmark(reference, at: try context.now(arguments))
            switch change {
            case .added(let bookmark):
                context.stdout.line("bookmarked \(bookmark.reference) (\(bookmark.shortID))")
            case .changed(let bookmark, let old):
                context.stdout.line("bookmarked \(bookmark.reference), was \(old) (\(bookmark.shortID))")
            case .unchanged(let bookmark):
                context.stdout.line("\(bookmark.reference) is already bookmarked (\(bookmark.shortID))")
            }
        case .list:
            let reference = try MarkListing.optionalReference(rest, command: "bookmark list", context)
            var bookmarks: [Bookmark] = []
            if let journal = try context.existingJournal() {
                bookmarks = try journal.bookmarks(in: reference)
            }
            if arguments.has(Options.json) {
                let zone = try context.zone()
                return context.json(.array(bookmarks.map {
                    MarkListing.json(id: $0.shortID, uuid: $0.uuid, reference: $0.reference, created: $0.createdAt, updated: $0.updatedAt, zone: zone)
                }))
            }
            guard !bookmarks.isEmpty else { return MarkListing.empty(.bookmark, on: reference, context) }
            for line in MarkListing.lines(bookmarks.map { [$0.shortID, $0.reference.description] }) { context.stdout.line(line) }
        case .delete:
            let id = try MarkListing.id(rest, kind: .bookmark)
            let journal = try MarkListing.journal(holding: .bookmark, id: id, context)
            let bookmark: Bookmark = try journal.deleteBookmark(id: id, at: try context.now(arguments))
            context.stdout.line("deleted bookmark \(bookmark.shortID) on \(bookmark.reference) (undo: manna bookmark restore \(bookmark.shortID))")
        case .restore:
            let id = try MarkListing.id(rest, kind: .bookmark, verb: "restore")
            let journal = try MarkListing.journal(holding: .bookmark, id: id, context)
            let bookmark = try journal.restoreBookmark(id: id, at: try context.now(arguments))
            context.stdout.line("restored bookmark \(bookmark.shortID) on \(bookmark.reference)")
        case nil:
            throw spec.subcommandFailure(words.first, usage: "bookmark needs 'add REF', 'list [REF]', 'delete ID' or 'restore ID'; see 'manna bookmark --help'")
        }
    }
}
