// manna search QUERY [--translation T] [--book B] [--limit N] [--json]: ranked full-text search;
// manna search --history: the last 100 searches.
#if canImport(Glibc)
import Glibc
#endif
import MannaKit

enum SearchCommand {
    static let spec = CommandSpec(
        name: "search",
        usage: "manna search QUERY [--translation T] [--book B] [--limit N] [--json] | --history [--json]",
        abstract: "Find verses: every word matches as a prefix, \"quoted words\" as a phrase",
        options: [
            Options.translation, Options.book, Options.limit,
            Options.now.help(Options.now.help + " (when the search is kept in the history)"),
            Options.json.help("print JSON: query, translation, total, hits (id, reference, translation, text, matches as code point offsets)"),
            Options.history,
        ],
        pages: true,
        run: run)

    static let defaultLimit = 20

    static func run(_ arguments: ParsedArguments, _ context: Context) throws {
        if arguments.has(Options.history) { return try history(arguments, context) }
        let text = arguments.positionals == ["-"] ? try StandardInput.text(tr("the query")) : String.spaced(arguments.positionals)
        let query: SearchQuery = try SearchQuery(parsing: text)
        // nil: every verse that matches.
        let limit: Int? = try arguments.value(Options.limit, context) ?? defaultLimit
        var book: Book?
        if let name = try arguments.value(Options.book, context) {
            switch Canon.lookup(name) {
            case .found(let found): book = found
            case .ambiguous(let books): throw ReferenceError.ambiguousBook(name, candidates: books.map(\.name))
            case .unknown: throw ReferenceError.unknownBook(name)
            }
        }
        let database = try context.openTextDatabase()
        let translation = try context.translation(arguments.value(Options.translation, context), in: database)

        if arguments.has(Options.json) {
            let results = try database.search(query, in: translation, book: book, limit: limit)
            context.json(.searchResults(query: text, translation: translation.code, results: results))
            return
        }
        // History is what a person searched: a terminal on stdin or stdout. Scripts, cron and
        // `--json` callers do not fill it (and do not pay for writing it). The results are
        // flushed first, so the history write never delays them.
        let typedByAPerson = context.stdoutIsTerminal || context.stdinIsTerminal
        let searchedAt = try context.now(arguments)
        defer {
            if typedByAPerson {
                context.stdout.flush()
                record(SearchRecord(query: text, translation: translation.code, searchedAt: searchedAt), context)
            }
        }
        let bold = context.usesColor
        func show(_ hit: SearchHit, _ reference: String, width: Int) {
            // Hits in bold on a terminal, between asterisks in a pipe.
            let pieces = hit.snippet.parts.map { part in
                part.isHit ? (bold ? (part.text, .bold) : ("*" + part.text + "*", nil)) : (text: part.text, style: TerminalStyle?.none)
            }
            let prefix = reference.padding(to: width + 1) + " "
            for line in PassageFormatter.wrap(pieces, firstPrefix: prefix, prefix: String(repeating: " ", count: prefix.count), width: context.terminalWidth) {
                context.stdout.line(line)
            }
        }
        let total: Int
        var shown = 0
        if limit == nil {
            // Every hit, printed as it is read: the column is as wide as any reference here can be.
            let width = Reference.longestVerseLabel(in: book.map { [$0] } ?? Canon.books, language: translation.language)
            total = try database.search(query, in: translation, book: book, limit: nil) { hit in
                show(hit, Reference.label(of: hit.id, in: translation.language), width: width)
                shown += 1
            }
        } else {
            let results = try database.search(query, in: translation, book: book, limit: limit)
            let references = results.hits.map { Reference.label(of: $0.id, in: translation.language) }
            let width = references.map(\.count).max() ?? 0
            for (hit, reference) in zip(results.hits, references) { show(hit, reference, width: width) }
            total = results.total
            shown = results.hits.count
        }
        if total == 0 {
            throw Failure.noMatch(book.map { tr("no verse in the {translation} of {book} matches '{text}'", ("translation", translation.code), ("book", $0.name(in: Messages.current.language)), ("text", text)) }
                ?? tr("no verse in the {translation} matches '{text}'", ("translation", translation.code), ("text", text)))
        }
        // On a terminal the note follows the results; piped, it goes to stderr, so that a
        // script still sees that the results were cut, and its data stay clean.
        if total > shown {
            let note = trn("{shown} of {count} verse shown, the best; --limit all shows every one", "{shown} of {count} verses shown, the best; --limit all shows every one", count: total, ("shown", shown))
            context.stdoutIsTerminal ? context.stdout.line(note) : context.stderr.line("manna: " + note)
        }
    }

    /// Keeps a search in the history. A search never fails for want of history: when the
    /// journal cannot be written, one line on stderr says so and the search still succeeds.
    static func record(_ search: SearchRecord, _ context: Context) {
        do {
            try context.journal().recordSearch(search)
        } catch let failure as Failure {
            context.stderr.line("manna: " + tr("the search was not kept in the history: ") + failure.message)
        } catch {
            context.stderr.line("manna: " + tr("the search was not kept in the history: ") + ((error as? JournalError)?.message ?? "\(error)"))
        }
    }

    /// `manna search --history`: `YYYY-MM-DD HH:MM  TRANSLATION  QUERY` in local time, newest first.
    static func history(_ arguments: ParsedArguments, _ context: Context) throws {
        guard arguments.positionals.isEmpty, !arguments.gaveValues else {
            throw Failure.usage(tr("search --history takes no query or options but --json; see 'manna search --help'"))
        }
        let zone = try context.zone()
        var searches: [SearchRecord] = []
        if let journal = try context.existingJournal() {
            searches = try journal.searchHistory()
        }
        if arguments.has(Options.json) {
            context.json(.object([("searches", .array(searches.map { search in
                .object([
                    ("query", .string(search.query)),
                    ("translation", .string(search.translation)),
                    ("searched_at", .string(zone.local(search.searchedAt).iso8601)),
                ])
            }))]))
            return
        }
        if searches.isEmpty { context.stderr.line("manna: " + tr("no searches yet")) }
        for search in searches {
            let local = zone.local(search.searchedAt)
            context.stdout.line("\(local.date) \(local.time)  \(search.translation)  \(search.query.singleLine)")
        }
    }
}

extension JSON {
    /// The stable JSON shape of search results: `{"query", "translation", "total" (every verse
    /// that matches, however many are shown),
    /// "hits": [{"id", "reference", "translation", "text", "matches"}]}`: the text plain, and each
    /// word that matched as `[start, end)` offsets in Unicode code points (as Python indexes a
    /// string), no markup inside a string.
    static func searchResults(query: String, translation: String, results: SearchResults) -> JSON {
        .object([
            ("query", .string(query)),
            ("translation", .string(translation)),
            ("total", .int(results.total)),
            ("hits", .array(results.hits.map { hit in
                .object([
                    ("id", .int(hit.id.rawValue)),
                    ("reference", .string(Reference.label(of: hit.id))),
                    ("translation", .string(hit.translation)),
                    ("text", .string(hit.snippet.parts.map(\.text).joined())),
                    ("matches", .array(hit.snippet.matches.map { .array([.int($0.lowerBound), .int($0.upperBound)]) })),
                ])
            })),
        ])
    }
}
