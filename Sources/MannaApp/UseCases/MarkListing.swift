// What the note, highlight and bookmark commands share: aligned listings, empty lists said on
// stderr, the reference and the id they take.
#if canImport(Glibc)
import Glibc
#endif
import MannaKit

enum MarkListing {
    /// Rows of columns, each column but the last padded to its widest cell and two spaces apart.
    static func lines(_ rows: [[String]]) -> [String] {
        guard let columns = rows.first?.count else { return [] }
        // Each cell's width counted once, and each padding made once: a list can be a million rows.
        let counts = rows.map { $0.map(\.characterCount) }
        let widths = (0..<columns).map { column in counts.map { $0[column] }.max() ?? 0 }
        var paddings: [Int: String] = [:]
        return zip(rows, counts).map { row, count in
            var line = ""
            for (index, cell) in row.enumerated() {
                line += cell
                guard index < columns - 1 else { break }
                let padding = widths[index] - count[index] + 2
                if paddings[padding] == nil { paddings[padding] = String(repeating: " ", count: padding) }
                line += paddings[padding]!
            }
            return line
        }
    }

    /// A mark as JSON, in the family every listing shares: `id` (the short id) and `uuid`, the
    /// passage as text and its first verse's id, times in RFC 3339 with the local offset.
    static func json(id: String, uuid: String, reference: Reference, extra: [(String, JSON)] = [], created: Instant, updated: Instant,
                     zone: Zone) -> JSON {
        .object([("id", .string(id)), ("uuid", .string(uuid)), ("reference", .string(reference.description)),
                 ("verse_id", .int(reference.ranges[0].first.rawValue))] + extra
            + [("created_at", .string(zone.local(created).iso8601)), ("updated_at", .string(zone.local(updated).iso8601))])
    }

    /// Says on stderr that a list is empty: "no notes", "no notes on John 3".
    static func empty(_ kind: MarkKind, on reference: Reference?, _ context: Context) {
        context.stderr.line("manna: no \(kind.rawValue)s" + (reference.map { " on \($0)" } ?? ""))
    }

    /// The reference in `words`, or nil when there are none (list everything).
    static func optionalReference(_ words: ArraySlice<String>, command: String, _ context: Context) throws -> Reference? {
        words.isEmpty ? nil : try PassageInput.parseReference(Array(words), command: command, context)
    }

    /// The journal that may hold the mark `id`: with none yet, no mark has that id, and looking
    /// does not make one.
    static func journal(holding kind: MarkKind, id: String, _ context: Context) throws -> Journal {
        guard let journal = try context.existingJournal() else { throw MarkError.notFound(kind, id: id) }
        return journal
    }

    /// The one id `delete` (or `restore`: `verb`) takes.
    static func id(_ words: ArraySlice<String>, kind: MarkKind, verb: String = "delete") throws -> String {
        guard words.count == 1 else {
            throw Failure.usage("\(kind.rawValue) \(verb) needs one id, like 'manna \(kind.rawValue) \(verb) k7m2'; see 'manna \(kind.rawValue) list'")
        }
        return words.first!
    }
}
