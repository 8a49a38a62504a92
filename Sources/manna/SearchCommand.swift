// manna search QUERY [--translation T] [--book B] [--limit N] [--json]: ranked full-text search.
import MannaKit

enum SearchCommand {
    static let spec = CommandSpec(
        name: "search",
        usage: "manna search QUERY [--translation T] [--book B] [--limit N] [--json]",
        abstract: "Find verses: every word matches as a prefix, \"quoted words\" as a phrase",
        valueOptions: [
            "translation": "KJV, ASV, WBS or WEB (default: $MANNA_TRANSLATION, else KJV)",
            "book": "search one book only: --book John, --book \"1 Cor\"",
            "limit": "show at most N verses, 1 to \(maxLimit) (default \(defaultLimit))",
        ],
        flags: ["json": "print JSON: query, translation, total, ranked, hits (id, reference, translation, snippet)"],
        run: run)

    static let defaultLimit = 20
    static let maxLimit = 1000

    static func run(_ arguments: ParsedArguments, _ context: Context) throws(Failure) {
        let text = arguments.positionals.joined(separator: " ")
        let query: SearchQuery
        do { query = try SearchQuery(parsing: text) } catch { throw Failure(error) }
        var limit = defaultLimit
        if let given = arguments.value("limit") {
            guard let number = Int(given), number >= 1, number <= maxLimit else {
                throw .usage("--limit must be a whole number from 1 to \(maxLimit), not '\(given)'")
            }
            limit = number
        }
        var book: Book?
        if let name = arguments.value("book") {
            switch Canon.lookup(name) {
            case .found(let found): book = found
            case .ambiguous(let books): throw Failure(ReferenceError.ambiguousBook(name, candidates: books.map(\.name)))
            case .unknown: throw Failure(ReferenceError.unknownBook(name))
            }
        }
        let database = try context.openTextDatabase()
        let translation = try context.translation(arguments.value("translation"), in: database)
        let results: SearchResults
        do { results = try database.search(query, in: translation, book: book, limit: limit) } catch { throw Failure(error) }

        if arguments.has("json") {
            context.json(.searchResults(query: text, translation: translation.code, results: results))
            return
        }
        if results.hits.isEmpty {
            context.stderr.line("manna: no verse in the \(translation.code)\(book.map { " of \($0.name)" } ?? "") matches '\(text)'")
            return
        }
        let bold = context.stdoutIsTerminal && context.environment["NO_COLOR"] == nil
        let references = results.hits.map { Reference($0.id).description }
        let width = references.map(\.count).max() ?? 0
        for (hit, reference) in zip(results.hits, references) {
            let snippet = bold ? hit.snippet.rendered(open: "\u{1B}[1m", close: "\u{1B}[22m") : hit.snippet.rendered(open: "*", close: "*")
            let prefix = reference.padding(to: width + 1) + " "
            for line in PassageFormatter.wrap(snippet, firstPrefix: prefix, prefix: String(repeating: " ", count: prefix.count), width: context.terminalWidth) {
                context.stdout.line(line)
            }
        }
        if context.stdoutIsTerminal {
            if let total = results.total, total > results.hits.count {
                context.stdout.line("\(results.hits.count) of \(total) verses shown, the best; --limit shows more")
            } else if results.total == nil {
                context.stdout.line("more than \(TextDatabase.rankingLimit) verses match, too many to rank: these are the first in Bible order; add words to narrow")
            }
        }
    }
}

extension JSON {
    /// The stable JSON shape of search results: `{"query", "translation", "total" (null when more
    /// than 3,000 match: not counted, not ranked), "ranked",
    /// "hits": [{"id", "reference", "translation", "snippet"}]}`, hits in the snippet marked `*like this*`.
    static func searchResults(query: String, translation: String, results: SearchResults) -> JSON {
        .object([
            ("query", .string(query)),
            ("translation", .string(translation)),
            ("total", results.total.map(JSON.int) ?? .null),
            ("ranked", .bool(results.ranked)),
            ("hits", .array(results.hits.map { hit in
                .object([
                    ("id", .int(hit.id.rawValue)),
                    ("reference", .string(Reference(hit.id).description)),
                    ("translation", .string(hit.translation)),
                    ("snippet", .string(hit.snippet.rendered(open: "*", close: "*"))),
                ])
            })),
        ])
    }
}
