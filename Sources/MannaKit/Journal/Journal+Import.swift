// manna import: an export file checked whole, then merged into the journal in one transaction.
//
// Records with a uuid merge by it and the newest `updated_at` wins (a deletion is an update: a
// tombstone). Facts without one (days read, searches) are added when missing. Then the rules
// that hold for one machine are restored for the merge of two: one live highlight and one live
// bookmark per verse, one running run per plan, the newest winning and the others becoming
// tombstones (stopped, for plan runs). Notes are all kept: they are text the user wrote.
#if canImport(Glibc)
import Glibc
#endif

/// Why a file cannot be imported. Nothing in the journal has changed.
public enum ImportError: Error, Equatable, Sendable {
    case unreadable(file: String, reason: String)
    /// `at` is the JSON path (`$.notes[3].text`), nil for the file as a whole.
    case invalid(file: String, at: String?, problem: String)
    case journal(JournalError)

    public var message: String {
        switch self {
        case .unreadable(let file, let reason): return "cannot read \(file): \(reason)"
        case .invalid(let file, let at, let problem): return "\(file): " + (at.map { $0 + ": " } ?? "") + problem
        case .journal(let error): return error.message
        }
    }
}

/// An export document, checked in full: every record's fields, the file's own duplicates.
public struct ImportFile: Sendable {
    let file: String
    /// Per table: each record's stored cells and its JSON path, in file order.
    let tables: [(table: ExportTable, rows: [[Cell]], paths: [String])]

    public var recordCount: Int { tables.reduce(0) { $0 + $1.rows.count } }

    /// Refuses a day read beyond its plan's last day: `days` gives a plan's number of days by
    /// its id (nil for a plan this machine does not have, which is not checked). Only runs in
    /// the file are looked at: an export carries every run with its days.
    public func checkPlanDays(_ days: (String) -> Int?) throws(ImportError) {
        guard let runs = tables.first(where: { $0.table.name == ExportTable.planRuns.name }),
              let read = tables.first(where: { $0.table.name == ExportTable.planDaysRead.name }),
              let runUUID = runs.table.index("uuid"), let planID = runs.table.index("plan_id"),
              let readRun = read.table.index("run_uuid"), let readDay = read.table.index("day") else { return }
        var plans: [String: String] = [:]
        for row in runs.rows { if let uuid = row[runUUID].text, let id = row[planID].text { plans[uuid] = id } }
        for (row, path) in zip(read.rows, read.paths) {
            guard let run = row[readRun].text, let id = plans[run], let count = days(id), let day = row[readDay].int else { continue }
            if day > count {
                throw .invalid(file: file, at: path + ".day", problem: "a day of plan '\(id)' from 1 to \(count), not \(day)")
            }
        }
    }

    /// Reads and checks the export at `path` (named `path` in messages).
    public static func load(_ path: String) throws(ImportError) -> ImportFile {
        var info = stat()
        if stat(path, &info) == 0, Int(info.st_size) > ExportFormat.maxFileBytes {
            throw .invalid(file: path, at: nil, problem: "larger than \(ExportFormat.maxFileBytes >> 20) MiB, more than an export of Manna's ever is")
        }
        let text: String?
        do { text = try Files.readText(path, limit: 1 << 30) } catch { throw .unreadable(file: path, reason: error.reason) }
        guard let text else { throw .unreadable(file: path, reason: "no such file") }
        return try ImportFile(parsing: text, file: path)
    }

    public init(parsing text: String, file: String) throws(ImportError) {
        self.file = file
        func invalid(_ at: String?, _ problem: String) -> ImportError { .invalid(file: file, at: at, problem: problem) }
        let root: JSON
        do { root = try JSON(parsing: text) } catch { throw invalid(nil, error.message) }
        guard case .object(let pairs) = root else { throw invalid("$", "expected an object, the export of 'manna export'") }
        try ImportFile.checkKeys(pairs, allowed: ["format", "version"] + ExportTable.all.map(\.name), at: "$", file: file)
        guard root["format"]?.stringValue == ExportFormat.name else { throw invalid("$.format", "expected \"\(ExportFormat.name)\"") }
        guard let version = root["version"]?.intValue, version >= 1 else { throw invalid("$.version", "expected \(ExportFormat.version)") }
        guard version <= ExportFormat.version else {
            throw invalid("$.version", "\(version) is newer than this manna reads (\(ExportFormat.version)); update manna")
        }
        var tables: [(table: ExportTable, rows: [[Cell]], paths: [String])] = []
        for table in ExportTable.all {
            guard let value = root[table.name] else {
                tables.append((table, [], []))
                continue
            }
            guard let items = value.arrayValue else { throw invalid("$.\(table.name)", "expected a list of \(table.record) records") }
            var rows: [[Cell]] = []
            var paths: [String] = []
            var seen: [String: String] = [:]
            for (index, item) in items.enumerated() {
                let at = "$.\(table.name)[\(index)]"
                let row = try ImportFile.row(item, table: table, at: at, file: file)
                let identity: [String]
                switch table.identity {
                case .uuid: identity = ["uuid"]
                case .natural(let names): identity = names
                }
                let key = identity.map { name in "\(row[table.index(name)!])" }.joined(separator: "\u{1F}")
                if let first = seen[key] {
                    throw invalid(at + (identity.count == 1 ? ".\(identity[0])" : ""), "the same \(table.record) as \(first)")
                }
                seen[key] = at
                rows.append(row)
                paths.append(at)
            }
            tables.append((table, rows, paths))
        }
        self.tables = tables
    }

    /// One record's stored cells, every field checked.
    private static func row(_ item: JSON, table: ExportTable, at: String, file: String) throws(ImportError) -> [Cell] {
        guard case .object(let pairs) = item else { throw .invalid(file: file, at: at, problem: "expected a \(table.record) record (an object)") }
        try checkKeys(pairs, allowed: table.fields.map(\.name), at: at, file: file)
        var stored: [Cell] = []
        var derivedPassages: [(String, String)] = []
        for field in table.fields {
            guard let value = item[field.name] else {
                throw .invalid(file: file, at: at + "." + field.name, problem: "missing; a \(table.record) has \(table.fields.map(\.name).joined(separator: ", "))")
            }
            switch ExportFormat.cell(field, value) {
            case .success(let cell):
                if field.stored { stored.append(cell) } else if let text = cell.text { derivedPassages.append((field.name, text)) }
            case .failure(let problem):
                throw .invalid(file: file, at: at + "." + field.name, problem: "expected " + problem.expected)
            }
        }
        // A passage starts at the record's verse; one written only for readers is that verse alone.
        if let verseIndex = table.index("verse_id"), let verse = stored[verseIndex].int {
            var passages = derivedPassages.map { ($0.0, $0.1, true) }
            if let index = table.index("reference"), let text = stored[index].text { passages.append(("reference", text, false)) }
            for (name, text, single) in passages {
                let reference = Journal.passage(verseID: verse, reference: text)
                let expected = single ? Reference(VerseID(rawValue: verse)).description : text
                guard reference.description == text, text == expected else {
                    throw .invalid(file: file, at: at + "." + name,
                                   problem: single ? "expected \(expected), the verse of verse_id" : "expected a passage starting at verse_id (\(Reference(VerseID(rawValue: verse))))")
                }
            }
        }
        return stored
    }

    /// Refuses keys given twice and keys the format does not have.
    private static func checkKeys(_ pairs: [(String, JSON)], allowed: [String], at: String, file: String) throws(ImportError) {
        var seen: [String] = []
        for (key, _) in pairs {
            guard allowed.contains(key) else {
                throw .invalid(file: file, at: at + "." + key, problem: "unknown key; allowed here: \(allowed.joined(separator: ", "))")
            }
            guard !seen.contains(key) else { throw .invalid(file: file, at: at + "." + key, problem: "given twice") }
            seen.append(key)
        }
    }
}

/// What an import changed, table by table.
public struct ImportSummary: Equatable, Sendable {
    public struct Counts: Equatable, Sendable {
        /// Records that were not in the journal.
        public var added = 0
        /// Records the file had a newer version of.
        public var updated = 0
        /// Records made tombstones (or stopped plan runs) because a newer one for the same verse
        /// (or a newer running run of the same plan) came in.
        public var superseded = 0
        /// Searches dropped to keep the newest 100.
        public var removed = 0

        public var changed: Int { added + updated + superseded + removed }
    }

    /// Per table, in export order.
    public var tables: [(name: String, counts: Counts)]
    public var records: Int

    public var changed: Int { tables.reduce(0) { $0 + $1.counts.changed } }
    /// Records of the file that changed nothing: already here as they are, or older than what is here.
    public var unchanged: Int { records - tables.reduce(0) { $0 + $1.counts.added + $1.counts.updated } }

    public static func == (lhs: ImportSummary, rhs: ImportSummary) -> Bool {
        lhs.records == rhs.records && lhs.tables.count == rhs.tables.count
            && zip(lhs.tables, rhs.tables).allSatisfy { $0.name == $1.name && $0.counts == $1.counts }
    }
}

extension Journal {
    /// Merges `file` into the journal in one transaction: all of it, or (on any failure) none.
    public func merge(_ file: ImportFile) throws(ImportError) -> ImportSummary {
        do {
            return try write {
                var summary = ImportSummary(tables: [], records: file.recordCount)
                var stoppedRuns: [(uuid: String, winner: String)] = []
                for (table, rows, paths) in file.tables {
                    var counts = ImportSummary.Counts()
                    switch table.identity {
                    case .uuid: try mergeByUUID(table, rows: rows, paths: paths, file: file.file, counts: &counts)
                    case .natural where table.name == ExportTable.searches.name: try mergeSearches(rows, counts: &counts)
                    case .natural: try addMissing(table, rows: rows, paths: paths, file: file.file, counts: &counts)
                    }
                    let superseded = try supersedeAfterMerge(table)
                    counts.superseded += superseded.count
                    stoppedRuns += superseded.runs
                    summary.tables.append((table.name, counts))
                }
                // Once every table is in: a run's days read come after the runs.
                for run in stoppedRuns { try SyncEngine(self).carryDaysRead(from: run.uuid, to: run.winner) }
                return summary
            }
        } catch let error as ImportError {
            throw error
        } catch let error as JournalError {
            throw .journal(error)
        } catch {
            throw .journal(.unwritable(path: path, reason: "\(error)"))
        }
    }

    /// Adds records the journal lacks; replaces those the file has a newer version of. A
    /// record's short id stays as this journal knows it, and a new one that is taken here gets another.
    private func mergeByUUID(_ table: ExportTable, rows: [[Cell]], paths: [String], file: String,
                             counts: inout ImportSummary.Counts) throws {
        let fields = table.storedFields
        let shortID = table.index("short_id")
        let updatedAt = table.index("updated_at")!
        let deletedAt = table.index("deleted_at")!
        let select = try database.prepare("SELECT \(table.columns) FROM \(table.name) WHERE uuid = ?1")
        let insert = try database.prepare("""
            INSERT INTO \(table.name) (\(table.columns)) VALUES (\(fields.indices.map { "?\($0 + 1)" }.joined(separator: ", ")))
            """)
        let assignments = fields.indices.filter { $0 != 0 && $0 != shortID }
        let update = try database.prepare("""
            UPDATE \(table.name) SET \(assignments.map { "\(fields[$0].name) = ?\($0 + 1)" }.joined(separator: ", ")) WHERE uuid = ?1
            """)
        let taken = try shortID.map { _ in try database.prepare("SELECT 1 FROM \(table.name) WHERE short_id = ?1") }
        for (row, at) in zip(rows, paths) {
            try checkParent(table, row: row, at: at, file: file)
            try select.reset()
            try bind(row[0], to: select, at: 1)
            guard try select.step() else {
                var row = row
                if let shortID, let taken {
                    try taken.reset()
                    try bind(row[shortID], to: taken, at: 1)
                    if try taken.step() { row[shortID] = .text(try newShortID(in: table.name)) }
                }
                try insert.reset()
                try bind(row, to: insert)
                try insert.run()
                counts.added += 1
                continue
            }
            let local = try Journal.cells(select, table: table)
            // Compared without the short id, which each journal chooses for itself.
            let mine = local.enumerated().filter { $0.offset != shortID }.map(\.element)
            let theirs = row.enumerated().filter { $0.offset != shortID }.map(\.element)
            guard mine != theirs, Journal.newer(theirs: (row[updatedAt], row[deletedAt], theirs),
                                                 mine: (local[updatedAt], local[deletedAt], mine)) else { continue }
            try update.reset()
            // The whole row: the update leaves out the short id, but its ?N still counts as a
            // parameter (one in a gap of the numbering), and every parameter must be bound.
            try bind(row, to: update)
            try update.run()
            counts.updated += 1
        }
    }

    /// True when the file's version of a record replaces the journal's: the later `updated_at`;
    /// at the same second the tombstone, then the greater content, so two machines that import
    /// each other's files end with the same record.
    static func newer(theirs: (updated: Cell, deleted: Cell, cells: [Cell]), mine: (updated: Cell, deleted: Cell, cells: [Cell])) -> Bool {
        if theirs.updated != mine.updated { return mine.updated < theirs.updated }
        if (theirs.deleted == .null) != (mine.deleted == .null) { return theirs.deleted != .null }
        return mine.cells.lexicographicallyPrecedes(theirs.cells)
    }

    /// Adds the facts the journal lacks (days read); one it has stays as it is.
    private func addMissing(_ table: ExportTable, rows: [[Cell]], paths: [String], file: String,
                            counts: inout ImportSummary.Counts) throws {
        let insert = try database.prepare("""
            INSERT OR IGNORE INTO \(table.name) (\(table.columns)) VALUES (\(table.storedFields.indices.map { "?\($0 + 1)" }.joined(separator: ", ")))
            """)
        for (row, at) in zip(rows, paths) {
            try checkParent(table, row: row, at: at, file: file)
            try insert.reset()
            try bind(row, to: insert)
            try insert.run()
            counts.added += database.changes
        }
    }

    /// Adds the file's searches that are missing and newer than the 100th newest kept here, then
    /// keeps the newest 100: a second import of the same file finds nothing to add.
    private func mergeSearches(_ rows: [[Cell]], counts: inout ImportSummary.Counts) throws {
        let cutoffQuery = try database.prepare("""
            SELECT searched_at FROM searches ORDER BY searched_at DESC, id DESC LIMIT 1 OFFSET \(Journal.searchHistoryLimit - 1)
            """)
        let cutoff = try cutoffQuery.step() ? cutoffQuery.int(0) : nil
        let exists = try database.prepare("SELECT 1 FROM searches WHERE query = ?1 AND translation = ?2 AND searched_at = ?3")
        let insert = try database.prepare("INSERT INTO searches (query, translation, searched_at) VALUES (?1, ?2, ?3)")
        var inserted: [[Cell]] = []
        for row in rows {
            if let cutoff, let time = row[2].int, time <= cutoff { continue }
            try exists.reset()
            try bind(row, to: exists)
            if try exists.step() { continue }
            try insert.reset()
            try bind(row, to: insert)
            try insert.run()
            inserted.append(row)
        }
        try trimSearches()
        var trimmed = database.changes
        for row in inserted {
            try exists.reset()
            try bind(row, to: exists)
            if try exists.step() { counts.added += 1 } else { trimmed -= 1 }
        }
        counts.removed = trimmed
    }

    /// Restores the rules a merge of two journals can break, for `table` (nil: every table):
    /// one live highlight and one live bookmark per verse, one running run per plan (plans run
    /// side by side; one plan started on two machines runs once). Returns how many records were
    /// superseded, and the plan runs stopped, each with the run that goes on: the caller gives
    /// it their days read (`carryDaysRead`) once the merge has brought every day.
    func supersedeAfterMerge(_ table: ExportTable? = nil) throws -> (count: Int, runs: [(uuid: String, winner: String)]) {
        var superseded = 0
        var runs: [(uuid: String, winner: String)] = []
        if table == nil || table?.name == ExportTable.highlights.name {
            superseded += try supersede(ExportTable.highlights.name, live: "deleted_at IS NULL", groupedBy: "verse_id", set: "deleted_at = ?2, updated_at = ?2").count
        }
        if table == nil || table?.name == ExportTable.bookmarks.name {
            superseded += try supersede(ExportTable.bookmarks.name, live: "deleted_at IS NULL", groupedBy: "verse_id", set: "deleted_at = ?2, updated_at = ?2").count
        }
        if table == nil || table?.name == ExportTable.planRuns.name {
            runs = try supersede(ExportTable.planRuns.name, live: "stopped_at IS NULL AND deleted_at IS NULL", groupedBy: "plan_id",
                                 set: "stopped_at = ?2, updated_at = ?2")
            superseded += runs.count
        }
        return (superseded, runs)
    }

    /// Where a table allows one live record per `groupedBy` value, keeps the newest (then the
    /// greatest uuid) and applies `set` to the others, `?2` being the winner's `updated_at`: a
    /// time both machines agree on, so the same merge gives the same rows. Returns each record
    /// superseded, with the one it lost to.
    private func supersede(_ table: String, live: String, groupedBy group: String, set: String) throws -> [(uuid: String, winner: String)] {
        let members = try database.prepare("""
            SELECT uuid, updated_at, CAST(\(group) AS TEXT) AS grp FROM \(table) WHERE \(live) ORDER BY grp, updated_at DESC, uuid DESC
            """)
        var winner: (group: String, uuid: String, updatedAt: Int)?
        var losers: [(uuid: String, winner: String, time: Int)] = []
        while try members.step() {
            let group = try members.string("grp")
            if let winner, winner.group == group {
                losers.append((try members.string("uuid"), winner.uuid, winner.updatedAt))
            } else {
                winner = (group, try members.string("uuid"), try members.int("updated_at"))
            }
        }
        let change = try database.prepare("UPDATE \(table) SET \(set) WHERE uuid = ?1")
        for loser in losers {
            try change.reset()
            try change.bind(loser.uuid, at: 1)
            try change.bind(loser.time, at: 2)
            try change.run()
        }
        return losers.map { ($0.uuid, $0.winner) }
    }

    /// A reminder needs its prayer, a day read its plan run: in the file or already here.
    private func checkParent(_ table: ExportTable, row: [Cell], at: String, file: String) throws {
        guard let parent = table.parent, let index = table.index(parent.field) else { return }
        let find = try database.prepare("SELECT 1 FROM \(parent.table) WHERE uuid = ?1")
        try bind(row[index], to: find, at: 1)
        guard try find.step() else {
            throw ImportError.invalid(file: file, at: at + "." + parent.field,
                                      problem: "no \(parent.table.dropLast().replacingUnderscores) with this uuid in the file or the journal")
        }
    }

    /// Binds the cells of a row to ?1, ?2, ... in order.
    func bind(_ row: [Cell], to statement: Statement) throws(SQLiteError) {
        for (index, cell) in row.enumerated() { try bind(cell, to: statement, at: Int32(index + 1)) }
    }

    func bind(_ cell: Cell, to statement: Statement, at index: Int32) throws(SQLiteError) {
        switch cell {
        case .null: try statement.bindNull(at: index)
        case .int(let value): try statement.bind(value, at: index)
        case .text(let value): try statement.bind(value, at: index)
        }
    }
}

extension Substring {
    fileprivate var replacingUnderscores: String { String(map { $0 == "_" ? " " : $0 }) }
}
