// What the note, highlight and bookmark commands share: journal failures as exit codes, the
// journal only when it exists (listing never creates one), and aligned listings.
#if canImport(Glibc)
import Glibc
#endif
import MannaKit

extension Failure {
    init(_ error: MarkError) {
        switch error {
        case .notFound, .textTooLong: self.init(message: error.message, code: ExitCode.dataError)
        case .emptyText: self.init(message: error.message, code: ExitCode.usage)
        case .journal(let journalError): self.init(journalError)
        }
    }
}

extension Context {
    /// The journal when its file exists, else nil: commands that only read never create one.
    func existingJournal() throws(Failure) -> Journal? {
        Files.exists(paths.journal) ? try journal() : nil
    }

    /// The clock for what the user writes now.
    var currentInstant: Instant { Instant(time(nil)) }
}

enum MarkListing {
    /// Rows of columns, each column but the last padded to its widest cell and two spaces apart.
    static func lines(_ rows: [[String]]) -> [String] {
        guard let columns = rows.first?.count else { return [] }
        let widths = (0..<columns).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { index, cell in
                index == columns - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count + 2)
            }.joined()
        }
    }

    /// Says on stderr that a list is empty: "no notes", "no notes on John 3".
    static func empty(_ kind: MarkKind, on reference: Reference?, _ context: Context) {
        context.stderr.line("manna: no \(kind.rawValue)s" + (reference.map { " on \($0)" } ?? ""))
    }

    /// The reference in `words`, or nil when there are none (list everything).
    static func optionalReference(_ words: ArraySlice<String>, command: String) throws(Failure) -> Reference? {
        words.isEmpty ? nil : try ReadCommand.parseReference(Array(words), command: command)
    }

    /// The one ID `delete` takes.
    static func id(_ words: ArraySlice<String>, kind: MarkKind) throws(Failure) -> String {
        guard words.count == 1 else {
            throw .usage("\(kind.rawValue) delete needs one id, like 'manna \(kind.rawValue) delete k7m2'; see 'manna \(kind.rawValue) list'")
        }
        return words.first!
    }
}
