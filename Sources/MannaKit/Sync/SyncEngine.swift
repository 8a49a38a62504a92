// The sync engine (docs/sync.md): this device's state, local edits found by comparing the
// journal's tables with the versions last synced, and other devices' segments applied field by
// field, each in one transaction. `Sync` drives it through the folder.
//
// The journal's own tables stay the truth every command reads and writes; sync is a layer
// beside them. `sync_fields` holds, for every field of every synced record, the version that
// won. Capturing compares each record with it: what differs is a local edit, stamped with this
// device's next hybrid time. Applying sets a field when the incoming version is greater, then
// writes the record back into its table. What that makes the journal do on its own (a second
// highlight on a verse superseded, a conflict copy) is a local edit like any other, captured next.
#if canImport(Glibc)
import Glibc
#endif

/// This device in its sync folder.
public struct SyncState: Equatable, Sendable {
    public let device: String
    public let deviceName: String
    public let folder: String
    public let clock: Int
    /// The last segment written.
    public let sequence: Int
    public let sequenceSHA: String?
    public let dirty: Bool
    public let checkedAt: Instant?
    /// The last sync that ended with no problem (`checkedAt` when the last did).
    public let syncedAt: Instant?
    public let folderModified: Int?
    public let problem: String?
    /// The search history syncs too.
    public let searches: Bool
}

/// Another device, as far as this one knows it.
public struct SyncDevice: Equatable, Sendable {
    public let device: String
    public let name: String
    /// Its segments applied here: 1 to this.
    public let applied: Int
    /// The newest hybrid time applied from it: when its last change was made, by its clock.
    public let lastTime: Int?
    /// When its last segment was applied here, by this device's clock.
    public let appliedAt: Instant?
    public let folderModified: Int?
    public let problem: String?
    /// Since when `problem` has stood, by this device's clock.
    public let problemSince: Instant?
    /// The files of its refused for their content (`problem`), as `SyncFolder.rejection` names
    /// them: while a file is unchanged it is not read again.
    public let rejected: Set<String>
    /// An id this journal synced under before it went on as a new device.
    public var mine = false
}

/// What applying a segment did.
public struct SyncApplied: Equatable, Sendable {
    /// Changes that won (older versions than this journal's lose and change nothing).
    public var changed = 0
    /// Conflict copies made: two edits of one text made apart.
    public var copies = 0
    /// Changes refused by the checks `import` makes (kept in `sync_refused`), the rest applied.
    public var refused = 0
    /// The records whose texts it brought versions of, by table (`SyncEngine.withdrawCopies`).
    public var texts: [String: Set<String>] = [:]
}

/// Sync's side of one journal: versions, capture, apply, snapshots and withdrawals, on the
/// journal's connection (a reader's until the first write makes it a writer's: `Journal.run`)
/// and in its transactions. What the journal's own tables hold stays the journal's; each synced
/// table's description (`ExportTable`) tells the engine its key, fields and merge.
public struct SyncEngine {
    let journal: Journal

    public init(_ journal: Journal) { self.journal = journal }

    private var database: Database { journal.database }

    private func reading<T>(_ body: () throws -> T) throws(JournalError) -> T { try journal.reading(body) }

    private func writing<T>(_ body: () throws -> T) throws(JournalError) -> T { try journal.writing(body) }

    /// The tables that sync, parents first (a reminder after its prayer): the search history
    /// only when asked for. The delivery ledger and the scheduler's marks, which are not in the
    /// export, stay on each device.
    /// Makes the capture triggers of every synced table (`ExportTable.captureTriggers`): while
    /// the journal syncs, and only then.
    static func makeCaptureTriggers(_ database: Database) throws(SQLiteError) {
        try database.execute(ExportTable.all.map { $0.captureTriggers() }.joined(separator: "\n"))
    }

    /// Drops the capture triggers and makes them again, as this Manna writes them, when the
    /// journal syncs (migrations 19 and 20).
    static func remakeCaptureTriggers(_ database: Database) throws(SQLiteError) {
        let syncing = try database.prepare("SELECT 1 FROM sync_state")
        let isSyncing = try syncing.step()
        try dropCaptureTriggers(database)
        if isSyncing { try makeCaptureTriggers(database) }
    }

    static func dropCaptureTriggers(_ database: Database) throws(SQLiteError) {
        try database.execute(ExportTable.all.flatMap(\.captureTriggerNames).map { "DROP TRIGGER IF EXISTS \($0);" }.joined(separator: "\n"))
    }

    static func syncedTables(searches: Bool) -> [ExportTable] {
        ExportTable.all.filter { searches || $0.name != ExportTable.searches.name }
    }

    private func syncedTables() throws -> [ExportTable] {
        let state = try database.prepare("SELECT searches FROM sync_state WHERE name = 'this'")
        return SyncEngine.syncedTables(searches: try state.step() && state.int(0) != 0)
    }

    /// The field that says a record was deleted outright (days read, which have no tombstone).
    static let deletedField = "_deleted"

    // MARK: - State

    public func state() throws(JournalError) -> SyncState? {
        try reading {
            let statement = try database.prepare("""
                SELECT device, device_name, folder, clock, sequence, sequence_sha, dirty, checked_at, folder_mtime, problem, searches, synced_at
                FROM sync_state WHERE name = 'this'
                """)
            guard try statement.step() else { return nil }
            return SyncState(device: statement.string(0), deviceName: statement.string(1), folder: statement.string(2), clock: statement.int(3),
                             sequence: statement.int(4), sequenceSHA: statement.optionalString(5), dirty: statement.int(6) != 0,
                             checkedAt: statement.optionalInt(7), syncedAt: statement.optionalInt(11), folderModified: statement.optionalInt(8),
                             problem: statement.optionalString(9), searches: statement.int(10) != 0)
        }
    }

    public func devices() throws(JournalError) -> [SyncDevice] {
        try reading {
            let statement = try database.prepare("SELECT device, name, applied, last_time, folder_mtime, problem, rejected, applied_at, problem_since, mine FROM sync_devices ORDER BY name, device")
            var devices: [SyncDevice] = []
            while try statement.step() {
                devices.append(SyncDevice(device: statement.string(0), name: statement.string(1), applied: statement.int(2),
                                          lastTime: statement.optionalInt(3), appliedAt: statement.optionalInt(7), folderModified: statement.optionalInt(4),
                                          problem: statement.optionalString(5), problemSince: statement.optionalInt(8),
                                          rejected: Set((statement.optionalString(6) ?? "").split(separator: "\n").map(String.init)),
                                          mine: statement.int(9) != 0))
            }
            return devices
        }
    }

    /// Starts syncing through `folder` as a new device: everything in the journal is then a
    /// local edit, captured into the first segment.
    public func start(folder: String, device: String, name: String, searches: Bool = false) throws(JournalError) {
        try writing {
            try clearSync()
            let insert = try database.prepare("""
                INSERT INTO sync_state (name, device, device_name, folder, clock, sequence, dirty, searches) VALUES ('this', ?1, ?2, ?3, 0, 0, 1, ?4)
                """)
            try insert.bind(device, at: 1)
            try insert.bind(name, at: 2)
            try insert.bind(folder, at: 3)
            try insert.bind(searches ? 1 : 0, at: 4)
            try insert.run()
            try SyncEngine.makeCaptureTriggers(database)
            // Everything here is new to the folder: the first capture compares every record.
            for table in SyncEngine.syncedTables(searches: searches) {
                for row in try journal.rows(of: table) {
                    let touch = try database.prepare("INSERT OR IGNORE INTO sync_touched VALUES (?1, ?2)")
                    try touch.bind(table.name, at: 1)
                    try touch.bind(SyncEngine.syncKey(table, row), at: 2)
                    try touch.run()
                }
            }
        }
    }

    /// Stops syncing: forgets the folder, the devices and every version. The journal's records
    /// stay, and the ids it synced under, this one and those before it: should it sync again,
    /// their segments are its own (`SyncDevice.mine`).
    public func stop() throws(JournalError) {
        try writing {
            let state = try database.prepare("SELECT device, device_name FROM sync_state WHERE name = 'this'")
            let this = try state.step() ? (state.string(0), state.string(1)) : nil
            try clearSync()
            guard let (device, name) = this else { return }
            let mine = try database.prepare("INSERT INTO sync_devices (device, name, applied, mine) VALUES (?1, ?2, 0, 1) ON CONFLICT (device) DO NOTHING")
            try mine.bind(device, at: 1)
            try mine.bind(name, at: 2)
            try mine.run()
        }
    }

    /// Forgets the folder, the other devices and every version; the ids this journal synced
    /// under stay known as its own, as if nothing of theirs were applied.
    private func clearSync() throws(SQLiteError) {
        try SyncEngine.dropCaptureTriggers(database)
        try database.execute("""
            DELETE FROM sync_state; DELETE FROM sync_fields; DELETE FROM sync_versions; DELETE FROM sync_outbox;
            DELETE FROM sync_touched; DELETE FROM sync_refused; DELETE FROM sync_devices WHERE mine = 0;
            UPDATE sync_devices SET applied = 0, last_time = NULL, folder_mtime = NULL, problem = NULL, rejected = NULL, applied_at = NULL,
                problem_since = NULL;
            """)
    }

    /// Counts `devices` among the ids this journal synced under.
    func adopt(_ devices: Set<String>) throws(JournalError) {
        guard !devices.isEmpty else { return }
        try writing {
            let mine = try database.prepare("""
                INSERT INTO sync_devices (device, name, applied, mine) VALUES (?1, '', 0, 1) ON CONFLICT (device) DO UPDATE SET mine = 1
                """)
            for device in devices.sorted() {
                try mine.reset()
                try mine.bind(device, at: 1)
                try mine.run()
            }
        }
    }

    /// This journal turned out to be a copy (a cloned home, a restored backup: another journal
    /// writes under its id). It becomes a new device: it applies the old id's segments again
    /// from the first (applying is idempotent, and some may be the other journal's), and its
    /// first segment holds every version it knows, each as it was stamped (time and device):
    /// what it wrote under the old id that the other journal's files replaced is not lost, and
    /// versions every device has already change nothing. A journal that wrote every one of the
    /// old id's segments itself (a clock set right: `Sync.withdrawFuture`) counts them applied
    /// (`appliedOld`): it has all they hold, and some hold what it has since stamped again. The
    /// old id is kept as one of its own (`SyncDevice.mine`): its segments were stamped by this
    /// device's clock, and one stamped ahead is applied, not held (`Sync.unlocked`).
    public func becomeNewDevice(_ device: String, appliedOld: Int = 0) throws(JournalError) {
        try writing {
            let state = try database.prepare("SELECT device, device_name FROM sync_state WHERE name = 'this'")
            guard try state.step() else { return }
            let (old, name) = (state.string(0), state.string(1))
            let known = try database.prepare("""
                INSERT INTO sync_devices (device, name, applied, mine) VALUES (?1, ?2, ?3, 1) ON CONFLICT (device) DO UPDATE SET applied = ?3, mine = 1
                """)
            try known.bind(old, at: 1)
            try known.bind(name, at: 2)
            try known.bind(appliedOld, at: 3)
            try known.run()
            let update = try database.prepare("UPDATE sync_state SET device = ?1, sequence = 0, sequence_sha = NULL, dirty = 1")
            try update.bind(device, at: 1)
            try update.run()
            // What was queued is among the versions known, sent next.
            try database.execute("DELETE FROM sync_outbox")
            var position = 0
            try forEachVersionKnown { change in
                try queue(change, sequence: 1, position: position)
                position += 1
            }
        }
    }

    /// The devices that stamped versions after `limit`, with the newest of each: nothing is
    /// read unless `clock`, the greatest time written or seen here, is after it.
    func devicesAhead(of limit: Int, clock: Int) throws(JournalError) -> [String: Int] {
        guard clock > limit else { return [:] }
        return try reading {
            let newest = try database.prepare("""
                SELECT device, max(time) FROM (SELECT device, time FROM sync_fields WHERE time > ?1 UNION ALL SELECT device, time FROM sync_versions WHERE time > ?1)
                GROUP BY device
                """)
            try newest.bind(limit, at: 1)
            var ahead: [String: Int] = [:]
            while try newest.step() { ahead[newest.string(0)] = newest.int(1) }
            return ahead
        }
    }

    /// Stamps again each version `devices` stamped after `limit` (fields, texts, and the bases
    /// that name them), in their order, from `wall` on and after the versions that stay: the
    /// versions of a clock that was far ahead, made versions of now (`Sync.withdrawFuture`).
    /// Other devices' versions that lost to those here were not kept: every other device's
    /// segments are applied again from the first (applying is idempotent), and those that are
    /// now the greater win.
    func restamp(_ devices: Set<String>, after limit: Int, wall: Instant) throws(JournalError) {
        try writing {
            let select = try database.prepare("""
                SELECT time FROM sync_fields WHERE device = ?1 AND time > ?2 UNION SELECT time FROM sync_versions WHERE device = ?1 AND time > ?2
                """)
            let kept = try database.prepare("""
                SELECT max(time) FROM (SELECT max(time) AS time FROM sync_fields WHERE device = ?1 AND time <= ?2
                                       UNION ALL SELECT max(time) FROM sync_versions WHERE device = ?1 AND time <= ?2)
                """)
            var old: [(time: Int, device: String)] = []
            var last = 0
            for device in devices.sorted() {
                try select.reset()
                try select.bind(device, at: 1)
                try select.bind(limit, at: 2)
                while try select.step() { old.append((select.int(0), device)) }
                try kept.reset()
                try kept.bind(device, at: 1)
                try kept.bind(limit, at: 2)
                if try kept.step() { last = max(last, kept.optionalInt(0) ?? 0) }
            }
            guard !old.isEmpty else { return }
            // A temporary table of this connection, emptied after (dropped, it would wait for the statements that read it).
            try database.execute("CREATE TEMP TABLE IF NOT EXISTS restamped (device TEXT, old INTEGER, new INTEGER NOT NULL, PRIMARY KEY (device, old))")
            let insert = try database.prepare("INSERT INTO restamped VALUES (?1, ?2, ?3)")
            for version in old.sorted(by: { ($0.time, $0.device) < ($1.time, $1.device) }) {
                last = HybridTime.next(after: last, wall: wall)
                try insert.reset()
                try insert.bind(version.device, at: 1)
                try insert.bind(version.time, at: 2)
                try insert.bind(last, at: 3)
                try insert.run()
            }
            for sql in ["UPDATE sync_fields SET time = (SELECT new FROM restamped r WHERE r.device = ?1 AND old = time) WHERE device = ?1 AND time > ?2",
                        "UPDATE sync_versions SET time = (SELECT new FROM restamped r WHERE r.device = ?1 AND old = time) WHERE device = ?1 AND time > ?2",
                        """
                        UPDATE sync_versions SET base_time = (SELECT new FROM restamped r WHERE r.device = ?1 AND old = base_time)
                        WHERE base_device = ?1 AND base_time > ?2
                        """] {
                let update = try database.prepare(sql)
                for device in devices.sorted() {
                    try update.reset()
                    try update.bind(device, at: 1)
                    try update.bind(limit, at: 2)
                    try update.run()
                }
            }
            try database.execute("""
                DELETE FROM temp.restamped;
                UPDATE sync_devices SET applied = 0;
                UPDATE sync_state SET clock = max((SELECT coalesce(max(time), 0) FROM sync_fields), (SELECT coalesce(max(time), 0) FROM sync_versions));
                """)
        }
    }

    /// Every version this journal knows, each as it was stamped (time and device): each text
    /// version with its base and context, and the winning version of every other field. What a
    /// device that became a new one sends first, and the snapshot a device asks for when it
    /// cannot read another's segments.
    public func everyVersionKnown() throws(JournalError) -> [SyncChange] {
        try reading {
            var changes: [SyncChange] = []
            try forEachVersionKnown { changes.append($0) }
            return changes
        }
    }

    private func forEachVersionKnown(_ body: (SyncChange) throws -> Void) throws {
        for table in try syncedTables() {
            let text = table.textFields
            let kinds = Dictionary(uniqueKeysWithValues: table.storedFields.map { ($0.name, $0.kind) })
            let fields = try database.prepare("SELECT key, field, value, time, device FROM sync_fields WHERE tbl = ?1 ORDER BY key, field")
            try fields.bind(table.name, at: 1)
            while try fields.step() {
                guard !text.contains(fields.string(1)) else { continue }
                let value = try SyncEngine.cell(fields, column: 2, kind: kinds[fields.string(1)] ?? .count)
                try body(SyncChange(table: table.name, key: fields.string(0), field: fields.string(1), value: value, time: fields.int(3),
                                    device: fields.string(4)))
            }
            // A version another replaced (the base of a version known here) is no head, and never
            // will be wherever this arrives (more versions make no version a head again): no
            // conflict copy is made from it, so its context, the record as its editor had it,
            // is not sent (most of what a journal edited often would otherwise send).
            let versions = try database.prepare("""
                SELECT key, field, value, time, device, base_time, base_device,
                       CASE WHEN EXISTS (SELECT 1 FROM sync_versions r WHERE r.tbl = v.tbl AND r.key = v.key AND r.field = v.field
                                                                    AND r.base_time = v.time AND r.base_device = v.device)
                            THEN NULL ELSE context END
                FROM sync_versions v WHERE tbl = ?1 ORDER BY key, field, time, device
                """)
            try versions.bind(table.name, at: 1)
            while try versions.step() {
                let value = try SyncEngine.cell(versions, column: 2, kind: kinds[versions.string(1)] ?? .text)
                let base = versions.optionalInt(5).map { SyncVersion(time: $0, device: versions.string(6)) }
                var context: [(String, Cell)]?
                if let json = versions.optionalString(7), case .object(let pairs)? = try? JSON(parsing: json) {
                    context = pairs.compactMap { pair in Cell(json: pair.1).map { (pair.0, $0) } }
                }
                try body(SyncChange(table: table.name, key: versions.string(0), field: versions.string(1), value: value, time: versions.int(3),
                                    base: base, context: context, device: versions.string(4)))
            }
        }
    }

    /// Notes what the last sync found wrong (nil: nothing), and when it ran.
    public func recordSync(problem: String?, at now: Instant, folderModified: Int?) throws(JournalError) {
        try writing {
            let update = try database.prepare("UPDATE sync_state SET problem = ?1, checked_at = ?2, folder_mtime = ?3, synced_at = CASE WHEN ?1 IS NULL THEN ?2 ELSE synced_at END")
            try update.bind(problem, at: 1)
            try update.bind(now, at: 2)
            if let folderModified { try update.bind(folderModified, at: 3) } else { try update.bindNull(at: 3) }
            try update.run()
        }
    }

    /// Notes what the last sync found wrong with `device`'s segments (nil: nothing), the files
    /// it refused for their content (`rejected`), and its folder's mtime, at `now` (a problem's
    /// start is kept while it stands). A device not known yet (nothing of it applied) is added
    /// as `name`; a known one keeps its name.
    public func recordDevice(_ device: String, name: String? = nil, problem: String?, rejected: Set<String> = [], folderModified: Int?,
                             at now: Instant) throws(JournalError) {
        try writing {
            let update = try database.prepare("""
                INSERT INTO sync_devices (device, name, applied, problem, folder_mtime, rejected, problem_since)
                    VALUES (?1, ?5, 0, ?2, ?3, ?4, CASE WHEN ?2 IS NULL THEN NULL ELSE ?6 END)
                ON CONFLICT (device) DO UPDATE SET problem = excluded.problem, folder_mtime = excluded.folder_mtime, rejected = excluded.rejected,
                    problem_since = CASE WHEN excluded.problem IS NULL THEN NULL ELSE coalesce(problem_since, ?6) END
                """)
            try update.bind(now, at: 6)
            try update.bind(name ?? device, at: 5)
            try update.bind(device, at: 1)
            try update.bind(problem, at: 2)
            if let folderModified { try update.bind(folderModified, at: 3) } else { try update.bindNull(at: 3) }
            try update.bind(rejected.isEmpty ? nil : rejected.sorted().joined(separator: "\n"), at: 4)
            try update.run()
        }
    }

    // MARK: - Capturing local edits

    /// Compares each record written since the last capture (`sync_touched`) with its last
    /// synced version and queues what differs for the next segment. A record's changes are
    /// stamped at its own `updated_at` (so an edit made offline keeps its time), after every
    /// version of that record known here (so an edit made after seeing another's wins over it,
    /// whatever this device's clock says). Not after the versions of other records: one capture
    /// holds many records, and a record stamped after another's later edit (a journal joining
    /// again with its older texts, captured after a newer record) would win over edits that
    /// replaced its text. Returns how many changes were queued; nothing is read when nothing
    /// was written since the last time.
    @discardableResult
    public func capture(now: Instant) throws(JournalError) -> Int {
        try writing {
            let state = try database.prepare("SELECT device, clock, sequence, dirty FROM sync_state WHERE name = 'this'")
            guard try state.step(), state.int(3) != 0 else { return 0 }
            let device = state.string(0)
            var clock = state.int(1)
            let sequence = state.int(2) + 1
            var changes: [SyncChange] = []
            let touched = try database.prepare("SELECT key FROM sync_touched WHERE tbl = ?1 ORDER BY key")
            for table in try syncedTables() {
                try touched.reset()
                try touched.bind(table.name, at: 1)
                var keys: [String] = []
                while try touched.step() { keys.append(touched.string(0)) }
                let text = table.textFields
                // A record known here but not in its table was deleted here, unless it never got
                // there: its creation has not arrived (only a later edit), or its parent has not.
                // (A set's members are fields of their own, and an empty set has none.)
                let complete = Set(table.syncFields.filter { !$0.mergesAsSet }.map(\.name))
                for key in keys {
                    let before = try syncFields(of: table, key: key)
                    let known = before.values.map(\.version.time).max() ?? 0
                    guard let row = try liveRow(table, key: key) else {
                        guard !before.isEmpty, before[SyncEngine.deletedField]?.value != .int(1), complete.isSubset(of: Set(before.keys)),
                              try parentPresent(table, key: key, fields: before) else { continue }
                        let time = HybridTime.next(after: known, wall: now)
                        clock = max(clock, time)
                        changes.append(SyncChange(table: table.name, key: key, field: SyncEngine.deletedField, value: .int(1), time: time))
                        continue
                    }
                    var differing: [(Field, Cell)] = []
                    var members: [(name: String, cell: Cell)] = []
                    for field in table.syncFields {
                        let cell = row[table.index(field.name)!]
                        if field.mergesAsSet {
                            // Each member added or removed, alone: what another device did to others holds.
                            let (now, then) = (SyncSet.members(cell), SyncSet.members(of: field, in: before) ?? [])
                            members += now.subtracting(then).sorted().map { (SyncSet.memberField(field.name, $0), .int(1)) }
                            members += then.subtracting(now).sorted().map { (SyncSet.memberField(field.name, $0), .int(0)) }
                        } else if before[field.name]?.value != cell || before[field.name] == nil {
                            differing.append((field, cell))
                        }
                    }
                    let wasDeleted = before[SyncEngine.deletedField]?.value == .int(1)
                    // A record of identity fields alone (a search) exists by a change of its own.
                    let bare = before.isEmpty && table.syncFields.isEmpty
                    guard !differing.isEmpty || !members.isEmpty || wasDeleted || bare else { continue }
                    // Never after now: a record written while the clock was far ahead, captured
                    // once it is right, is an edit of now (`Sync.withdrawFuture`).
                    let time = HybridTime.next(after: known, wall: min(SyncEngine.wallClock(table, row) ?? now, now))
                    clock = max(clock, time)
                    let context = text.isEmpty ? nil : zip(table.storedFields, row).map { ($0.0.name, $0.1) }
                    for (field, cell) in differing {
                        let isText = text.contains(field.name)
                        changes.append(SyncChange(table: table.name, key: key, field: field.name, value: cell, time: time,
                                                  base: isText ? before[field.name]?.version : nil, context: isText ? context : nil))
                    }
                    for member in members { changes.append(SyncChange(table: table.name, key: key, field: member.name, value: member.cell, time: time)) }
                    if wasDeleted || bare { changes.append(SyncChange(table: table.name, key: key, field: SyncEngine.deletedField, value: .int(0), time: time)) }
                }
            }
            try database.execute("DELETE FROM sync_touched")
            var position = try queued(sequence)
            for change in changes {
                try record(change, from: device)
                try queue(change, sequence: sequence, position: position)
                position += 1
            }
            let update = try database.prepare("UPDATE sync_state SET clock = ?1, dirty = 0")
            try update.bind(clock, at: 1)
            try update.run()
            return changes.count
        }
    }

    /// How many changes are queued for segment `sequence`: the next one's position.
    private func queued(_ sequence: Int) throws -> Int {
        let count = try database.prepare("SELECT count(*) FROM sync_outbox WHERE sequence = ?1")
        try count.bind(sequence, at: 1)
        _ = try count.step()
        return count.int(0)
    }

    /// Adds `change` to segment `sequence`'s queue at `position`.
    private func queue(_ change: SyncChange, sequence: Int, position: Int) throws {
        try database.withCachedStatement("INSERT INTO sync_outbox (sequence, position, change) VALUES (?1, ?2, ?3)") { statement in
            try statement.bind(sequence, at: 1)
            try statement.bind(position, at: 2)
            try statement.bind(change.json.text, at: 3)
            try statement.run()
        }
    }

    /// The changes queued for the next segment, with its sequence number (nil: none queued).
    /// A queued change that does not read back is damage, said, never a change dropped unsent.
    public func outbox() throws(JournalError) -> (sequence: Int, changes: [SyncChange])? {
        let rows: [(sequence: Int, change: String)] = try reading {
            let statement = try database.prepare("SELECT sequence, change FROM sync_outbox ORDER BY sequence, position")
            var rows: [(Int, String)] = []
            while try statement.step() { rows.append((statement.int(0), statement.string(1))) }
            return rows
        }
        var changes: [SyncChange] = []
        for row in rows {
            guard let json = try? JSON(parsing: row.change), let change = SyncChange(json: json) else { throw .damaged(path: journal.path) }
            changes.append(change)
        }
        return rows.last.map { ($0.sequence, changes) }
    }

    /// The segment `sequence`, holding the first `changes` queued, is in the folder: they leave
    /// the queue, and any queued after them wait for the next segment.
    public func segmentWritten(_ sequence: Int, sha: String, changes: Int) throws(JournalError) {
        try writing {
            let delete = try database.prepare("DELETE FROM sync_outbox WHERE sequence = ?1 AND position < ?2")
            try delete.bind(sequence, at: 1)
            try delete.bind(changes, at: 2)
            try delete.run()
            let later = try database.prepare("UPDATE sync_outbox SET sequence = ?1 + 1, position = position - ?2 WHERE sequence = ?1")
            try later.bind(sequence, at: 1)
            try later.bind(changes, at: 2)
            try later.run()
            let update = try database.prepare("UPDATE sync_state SET sequence = ?1, sequence_sha = ?2")
            try update.bind(sequence, at: 1)
            try update.bind(sha, at: 2)
            try update.run()
        }
    }

    /// What this device has applied of every other: a segment it writes carries it (`after`).
    public func applied() throws(JournalError) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: try devices().map { ($0.device, $0.applied) })
    }

    // MARK: - Applying other devices' segments

    /// Applies `segment` in one transaction: each change whose version is greater than the
    /// field's wins and its record is written back; two versions of a text made apart leave
    /// the losing one as a conflict copy. The device's count of applied segments moves on in
    /// the same transaction, so a segment is applied entirely once, or not at all.
    public func apply(_ segment: SyncSegment, at now: Instant) throws(JournalError) -> SyncApplied {
        try writing {
            let state = try database.prepare("SELECT clock FROM sync_state WHERE name = 'this'")
            guard try state.step() else { return SyncApplied() }
            var clock = state.int(0)
            var applied = SyncApplied()
            var touched: [String: Set<String>] = [:]
            var textTouched: [String: Set<String>] = [:]
            let synced = try syncedTables()
            let tables = Dictionary(uniqueKeysWithValues: synced.map { ($0.name, $0) })
            let current = try database.prepare("SELECT time, device FROM sync_fields WHERE tbl = ?1 AND key = ?2 AND field = ?3")
            var checked = SyncEngine.Checked()
            for change in segment.changes {
                guard let table = tables[change.table] else { continue }
                let field = table.syncFields.first { $0.name == change.field } ?? SyncSet.member(change.field, in: table)?.field
                guard field != nil || change.field == SyncEngine.deletedField else { continue }
                if let problem = SyncEngine.refusal(of: change, field: field, in: table, checked: &checked) {
                    try refuse(change, from: segment, problem: problem)
                    applied.refused += 1
                    continue
                }
                clock = max(clock, change.time)
                let incoming = SyncVersion(time: change.time, device: change.device ?? segment.device)
                if table.textFields.contains(change.field) {
                    try recordVersion(change, from: incoming.device)
                    textTouched[table.name, default: []].insert(change.key)
                }
                try current.reset()
                try current.bind(change.table, at: 1)
                try current.bind(change.key, at: 2)
                try current.bind(change.field, at: 3)
                if try current.step(), !(SyncVersion(time: current.int(0), device: current.string(1)) < incoming) { continue }
                try setField(change, version: incoming)
                applied.changed += 1
                touched[table.name, default: []].insert(change.key)
            }
            for table in synced {
                for key in (touched[table.name] ?? []).sorted() { try materialize(table, key: key) }
                // Records that waited for a parent this segment brought (a reminder for a prayer
                // applied from a snapshot before the prayer's own segment).
                if table.parent.map({ touched[$0.table] != nil }) == true { try materializeWaiting(table) }
            }
            for table in synced {
                for key in (textTouched[table.name] ?? []).sorted() { applied.copies += try keepConflictingText(table, key: key) }
            }
            for run in try journal.supersedeAfterMerge().runs { try carryDaysRead(from: run.uuid, to: run.winner) }
            applied.texts = textTouched
            let device = try database.prepare("""
                INSERT INTO sync_devices (device, name, applied, last_time, applied_at) VALUES (?1, ?2, ?3, ?4, ?5)
                ON CONFLICT (device) DO UPDATE SET name = excluded.name, applied = excluded.applied, applied_at = excluded.applied_at,
                    last_time = max(coalesce(last_time, 0), coalesce(excluded.last_time, 0)), problem = NULL, rejected = NULL, problem_since = NULL
                """)
            try device.bind(segment.device, at: 1)
            try device.bind(segment.name, at: 2)
            try device.bind(segment.sequence, at: 3)
            if let last = segment.changes.map(\.time).max() { try device.bind(last, at: 4) } else { try device.bindNull(at: 4) }
            try device.bind(now, at: 5)
            try device.run()
            let update = try database.prepare("UPDATE sync_state SET clock = ?1")
            try update.bind(clock, at: 1)
            try update.run()
            return applied
        }
    }

    /// What `refusal` found already while checking one segment: a record's key is checked once,
    /// not once for each of its fields, and a value once for each kind (a note's reference
    /// comes again in its text's context; parsing it is most of what checking a note costs).
    struct Checked {
        fileprivate var keys: [String: String?] = [:]
        fileprivate var cells: Set<Checked.Cell> = []

        fileprivate struct Cell: Hashable {
            let kind: FieldKind
            let value: MannaKit.Cell
        }

        /// `ExportFormat.check`, remembering what passed.
        fileprivate mutating func check(_ field: Field, _ value: MannaKit.Cell) -> ExportFormat.Problem? {
            let cell = Cell(kind: field.kind, value: value)
            guard !cells.contains(cell) else { return nil }
            let problem = ExportFormat.check(field, stored: value)
            if problem == nil { cells.insert(cell) }
            return problem
        }
    }

    /// Why a change from another device to `field` (nil: the record's deletion) cannot be
    /// applied, in one line, or nil when it can: the checks `import` makes of each field
    /// (`ExportFormat.check`), of the record's key, and of the record a text carries for
    /// conflict copies. A time must be a hybrid time Manna could have made (after 1970, before 10000).
    static func refusal(of change: SyncChange, field: Field?, in table: ExportTable, checked: inout Checked) -> String? {
        let record = "\(table.record) \(String(change.key.prefix(36)).singleLine)"
        guard change.time > 0, HybridTime.instant(change.time) < 253_402_300_800 else { return "\(record): a version time Manna never writes" }
        let keyed = table.name + "\u{1F}" + change.key
        if let known = checked.keys[keyed] {
            if let known { return known }
        } else {
            var problem: String?
            let parts = change.key.split(separator: "\u{1F}", omittingEmptySubsequences: false)
            if parts.count != table.identityFields.count {
                problem = "\(record): not a key of a \(table.record)"
            } else {
                for (field, cell) in zip(table.identityFields, keyCells(table, change.key)) {
                    if let found = checked.check(field, cell) {
                        problem = "\(record): its \(field.name) is not \(found.expected)"
                        break
                    }
                }
            }
            checked.keys[keyed] = .some(problem)
            if let problem { return problem }
        }
        guard let field else {
            return change.value == .int(0) || change.value == .int(1) ? nil : "\(record): a deletion that is neither 0 nor 1"
        }
        if field.name != change.field, let member = SyncSet.member(change.field, in: table)?.member {
            guard change.value == .int(0) || change.value == .int(1) else { return "\(record): a \(field.name) member neither in (1) nor out (0)" }
            if let problem = checked.check(field, .text(",\(member),")) { return "\(record): \(field.name) must be \(problem.expected)" }
            return nil
        }
        if let problem = checked.check(field, change.value) { return "\(record): \(field.name) must be \(problem.expected)" }
        for (name, cell) in change.context ?? [] {
            guard let field = table.storedFields.first(where: { $0.name == name }) else { return "\(record): its text came with no field \(name.singleLine)" }
            if let problem = checked.check(field, cell) { return "\(record): its text came with a \(name) that is not \(problem.expected)" }
        }
        return nil
    }

    /// Keeps a refused change for `sync status` and `doctor`: its record, field and problem.
    private func refuse(_ change: SyncChange, from segment: SyncSegment, problem: String) throws {
        try database.withCachedStatement("INSERT OR REPLACE INTO sync_refused (device, tbl, key, field, sequence, problem) VALUES (?1, ?2, ?3, ?4, ?5, ?6)") { statement in
            try statement.bind(segment.device, at: 1)
            try statement.bind(change.table, at: 2)
            try statement.bind(String(change.key.prefix(200)), at: 3)
            try statement.bind(String(change.field.prefix(64)), at: 4)
            try statement.bind(segment.sequence, at: 5)
            try statement.bind(problem, at: 6)
            try statement.run()
        }
    }

    /// The changes refused from each device: how many, and one problem (by device id).
    public func refused() throws(JournalError) -> [String: (count: Int, first: String)] {
        try reading {
            let statement = try database.prepare("SELECT device, count(*), min(problem) FROM sync_refused GROUP BY device")
            var refused: [String: (count: Int, first: String)] = [:]
            while try statement.step() { refused[statement.string(0)] = (statement.int(1), statement.string(2)) }
            return refused
        }
    }

    /// The record `key` of `table` as its table holds it, or nil when it is not there.
    private func liveRow(_ table: ExportTable, key: String) throws -> [Cell]? {
        let match = table.identityFields.enumerated().map { "\($0.element.name) = ?\($0.offset + 1)" }.joined(separator: " AND ")
        return try database.withCachedStatement("SELECT \(table.columns) FROM \(table.name) WHERE \(match)") { statement in
            for (index, cell) in SyncEngine.keyCells(table, key).enumerated() { try journal.bind(cell, to: statement, at: Int32(index + 1)) }
            return try statement.step() ? try Journal.cells(statement, table: table) : nil
        }
    }

    /// Whether a record's parent (a reminder's prayer, a day read's plan run) is in its table.
    private func parentPresent(_ table: ExportTable, key: String, fields: [String: (value: Cell, version: SyncVersion)]) throws -> Bool {
        guard let parent = table.parent else { return true }
        var value = fields[parent.field]?.value
        // A record known by its identity (a day read: its run and day) has its parent in its key.
        if value == nil, let index = table.identityFields.firstIndex(where: { $0.name == parent.field }) {
            let parts = key.split(separator: "\u{1F}", omittingEmptySubsequences: false)
            if index < parts.count { value = .text(String(parts[index])) }
        }
        guard let value else { return false }
        let find = try database.prepare("SELECT 1 FROM \(parent.table) WHERE uuid = ?1")
        try journal.bind(value, to: find, at: 1)
        return try find.step()
    }

    /// Writes back the records of `table` that are known whole but are not in it.
    private func materializeWaiting(_ table: ExportTable) throws {
        var live = Set<String>()
        for row in try journal.rows(of: table) { live.insert(SyncEngine.syncKey(table, row)) }
        for key in try syncFields(of: table).keys.sorted() where !live.contains(key) { try materialize(table, key: key) }
    }

    /// Writes a record back into its table from its synced fields: inserted or updated whole,
    /// or deleted outright. A short id another record already has here is replaced by a new one
    /// (a local edit, so every device ends with the same).
    private func materialize(_ table: ExportTable, key: String) throws {
        let fields = try syncFields(of: table, key: key)
        let identity = table.identityFields
        let keyCells = SyncEngine.keyCells(table, key)
        let matchKey = identity.enumerated().map { "\($0.element.name) = ?\($0.offset + 1)" }.joined(separator: " AND ")
        if fields[SyncEngine.deletedField]?.value == .int(1) {
            let delete = try database.prepare("DELETE FROM \(table.name) WHERE \(matchKey)")
            for (index, cell) in keyCells.enumerated() { try journal.bind(cell, to: delete, at: Int32(index + 1)) }
            try delete.run()
            return
        }
        var row: [Cell] = []
        // A set's list as it is here is kept when the merge did not change what it names.
        let live = table.syncFields.contains(where: \.mergesAsSet) ? try liveRow(table, key: key) : nil
        for field in table.storedFields {
            if let position = identity.firstIndex(where: { $0.name == field.name }) {
                row.append(keyCells[position])
            } else if field.mergesAsSet {
                let members = SyncSet.members(of: field, in: fields) ?? []
                row.append(SyncSet.cell(members, keeping: [live?[table.index(field.name)!], fields[field.name]?.value]))
            } else {
                // A record whose creation has not arrived yet (only a later field): it waits.
                guard let value = fields[field.name]?.value else { return }
                row.append(value)
            }
        }
        // A parent not here yet (it comes in a later segment, or a snapshot came first): it waits.
        if let parent = table.parent, let index = table.index(parent.field) {
            let find = try database.prepare("SELECT 1 FROM \(parent.table) WHERE uuid = ?1")
            try journal.bind(row[index], to: find, at: 1)
            guard try find.step() else { return }
        }
        if let shortID = table.index("short_id") {
            let taken = try database.prepare("SELECT 1 FROM \(table.name) WHERE short_id = ?1 AND uuid != ?2")
            try journal.bind(row[shortID], to: taken, at: 1)
            try taken.bind(key, at: 2)
            if try taken.step() { row[shortID] = .text(try journal.newShortID(in: table.name)) }
        }
        let names = table.storedFields.map(\.name)
        let others = names.filter { name in !identity.contains { $0.name == name } }
        if others.isEmpty {
            // Identity alone (a search): added unless there.
            let exists = try database.prepare("SELECT 1 FROM \(table.name) WHERE \(matchKey)")
            for (index, cell) in keyCells.enumerated() { try journal.bind(cell, to: exists, at: Int32(index + 1)) }
            guard !(try exists.step()) else { return }
            let insert = try database.prepare("INSERT INTO \(table.name) (\(names.joined(separator: ", "))) VALUES (\(names.indices.map { "?\($0 + 1)" }.joined(separator: ", ")))")
            for (index, cell) in row.enumerated() { try journal.bind(cell, to: insert, at: Int32(index + 1)) }
            try insert.run()
            return
        }
        let upsert = try database.prepare("""
            INSERT INTO \(table.name) (\(names.joined(separator: ", "))) VALUES (\(names.indices.map { "?\($0 + 1)" }.joined(separator: ", ")))
            ON CONFLICT (\(identity.map(\.name).joined(separator: ", "))) DO UPDATE SET \(others.map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
            """)
        for (index, cell) in row.enumerated() { try journal.bind(cell, to: upsert, at: Int32(index + 1)) }
        try upsert.run()
    }

    /// Where a text has more than one head (versions no edit replaced: edits made apart), the
    /// record keeps the greatest version's text and each other text becomes a copy of the record
    /// as its editor had it: made once, with a uuid every device derives alike from the text.
    ///
    /// Equal texts are never a conflict. Two devices holding one text (a journal copied, then
    /// `sync init` on each; `sync leave` then `sync init`; a restored backup) hold two versions
    /// of it that neither replaced: a head whose text is the record's makes no copy, and one
    /// whose text an edit replaced, where that edit came after it or apart from it, is no head
    /// (whoever made that edit had that very text before them).
    ///
    private func keepConflictingText(_ table: ExportTable, key: String) throws -> Int {
        let versions = try database.prepare("""
            SELECT field, time, device, base_time, base_device, value, context FROM sync_versions WHERE tbl = ?1 AND key = ?2 ORDER BY field
            """)
        try versions.bind(table.name, at: 1)
        try versions.bind(key, at: 2)
        var byField: [String: [TextVersion]] = [:]
        while try versions.step() {
            let base = versions.optionalInt(3).map { SyncVersion(time: $0, device: versions.string(4)) }
            let field = versions.string(0)
            let kind = table.storedFields.first { $0.name == field }?.kind ?? .text
            byField[field, default: []].append(TextVersion(version: SyncVersion(time: versions.int(1), device: versions.string(2)), base: base,
                                                           value: try SyncEngine.cell(versions, column: 5, kind: kind), context: versions.optionalString(6)))
        }
        let fields = try syncFields(of: table, key: key)
        var made = 0
        for (field, all) in byField.sorted(by: { $0.key < $1.key }) {
            // A version whose base has not arrived (a snapshot applied ahead of what it follows)
            // would look like a head: wait until the history is whole.
            guard let current = fields[field]?.value, Set(all.compactMap(\.base)).isSubset(of: Set(all.map(\.version))) else { continue }
            // Each losing text once, as its greatest version.
            var losing: [TextVersion] = []
            for head in SyncEngine.textHeads(all).sorted(by: { $0.version > $1.version }) where head.value != current {
                if !losing.contains(where: { $0.value == head.value }) { losing.append(head) }
            }
            for loser in losing.reversed() where try makeConflictCopy(table, key: key, field: field, version: loser.version, value: loser.value,
                                                                      context: loser.context) {
                made += 1
            }
        }
        return made
    }

    /// After a sync has applied what it could: each conflict copy of `texts`' records (by table)
    /// whose text its record holds again is withdrawn. A text that lost a race won later (a
    /// journal joining again restated it, an edit based on a restatement), and the copy would
    /// be that text twice. The withdrawal is a local edit made here now, synced as any other: not
    /// part of applying, which stays one merge whatever the order segments arrive in.
    public func withdrawCopies(of texts: [String: Set<String>], now: Instant) throws(JournalError) {
        guard !texts.isEmpty else { return }
        try writing {
            for table in try syncedTables() {
                let fields = table.textFields
                for key in (texts[table.name] ?? []).sorted() {
                    let record = try syncFields(of: table, key: key)
                    guard record["deleted_at"]?.value == .null else { continue }
                    for field in fields.sorted() {
                        if let current = record[field]?.value { try withdrawCopy(table, key: key, field: field, value: current, now: now) }
                    }
                }
            }
        }
    }

    /// Withdraws the conflict copy that keeps `value` for `key`'s `field`. Only a copy no one
    /// touched since it was made: every field still at the one version it was made with and no
    /// record under it (a reminder, a prayed mark). An edit of it, or a reminder added, is
    /// someone's, and it stays. Withdrawn as a deletion, a tombstone like `note delete`'s: an
    /// edit of it made apart keeps its text there (`note list --deleted`).
    private func withdrawCopy(_ table: ExportTable, key: String, field: String, value: Cell, now: Instant) throws {
        let uuid = SyncEngine.derivedUUID("\(table.name)|\(key)|\(field)|" + value.json.text)
        let copy = try syncFields(of: table, key: uuid)
        guard copy["deleted_at"]?.value == .null, Set(copy.values.map(\.version)).count == 1 else { return }
        for child in try syncedTables() where child.parent?.table == table.name {
            let under = try database.prepare("SELECT 1 FROM \(child.name) WHERE \(child.parent!.field) = ?1")
            try under.bind(uuid, at: 1)
            if try under.step() { return }
        }
        let delete = try database.prepare("UPDATE \(table.name) SET deleted_at = ?1, updated_at = ?1 WHERE uuid = ?2 AND deleted_at IS NULL")
        try delete.bind(now, at: 1)
        try delete.bind(uuid, at: 2)
        try delete.run()
    }

    /// One version of a text field, with the version it replaced.
    struct TextVersion {
        let version: SyncVersion
        let base: SyncVersion?
        let value: Cell
        let context: String?
    }

    /// The versions of one text whose text no one replaced: not the base of an edit, and not
    /// equal to the base's text of an edit made after it or apart from it.
    static func textHeads(_ all: [TextVersion]) -> [TextVersion] {
        let byVersion = Dictionary(all.map { ($0.version, $0) }, uniquingKeysWith: { first, _ in first })
        let bases = Set(all.compactMap(\.base))
        // Each edit, with the text it replaced.
        let edits: [(edit: SyncVersion, replaced: Cell)] = all.compactMap { edit in edit.base.flatMap { byVersion[$0] }.map { (edit.version, $0.value) } }
        return all.filter { head in
            guard !bases.contains(head.version) else { return false }
            let replacing = edits.filter { $0.replaced == head.value && $0.edit != head.version }
            guard !replacing.isEmpty else { return true }
            // The edits this version came after: its line of bases.
            var before = Set<SyncVersion>()
            var next = head.base
            while let version = next, before.insert(version).inserted { next = byVersion[version]?.base }
            return replacing.allSatisfy { before.contains($0.edit) }
        }
    }

    /// Makes the copy of `key` that keeps `value`, a losing text of its `field`: its fields
    /// are versions of that one (its time, its device), recorded, queued for the next segment
    /// and written into the table. Its uuid derives from the text, so every device that finds
    /// the conflict makes the same copy, whichever version of that text it saw first, and
    /// copies of one conflict never conflict among themselves.
    private func makeConflictCopy(_ table: ExportTable, key: String, field: String, version: SyncVersion, value: Cell, context: String?) throws -> Bool {
        let uuid = SyncEngine.derivedUUID("\(table.name)|\(key)|\(field)|" + (value.json.text))
        let known = try database.prepare("SELECT 1 FROM sync_fields WHERE tbl = ?1 AND key = ?2")
        try known.bind(table.name, at: 1)
        try known.bind(uuid, at: 2)
        guard !(try known.step()), let context, case .object(let pairs)? = try? JSON(parsing: context) else { return false }
        let time = HybridTime.instant(version.time)
        let text = table.textFields
        var copy: [(String, Cell)] = []
        for stored in table.syncFields {
            var cell: Cell
            switch stored.name {
            case "short_id": cell = .text(SyncEngine.derivedShortID(uuid))
            case field: cell = value
            case "created_at", "updated_at": cell = .int(time)
            case "deleted_at": cell = .null
            default: cell = pairs.first { $0.0 == stored.name }.flatMap { Cell(json: $0.1) } ?? .null
            }
            // A prayer's copy says what it is in its title, where a list shows it.
            if table.name == ExportTable.prayers.name, stored.name == "title", case .text(let title) = cell { cell = .text(title + " (conflict copy)") }
            copy.append((stored.name, cell))
        }
        try send(copy.map { name, cell in
            SyncChange(table: table.name, key: uuid, field: name, value: cell, time: version.time,
                       context: text.contains(name) ? [("uuid", .text(uuid))] + copy : nil, device: version.device)
        }, as: version.device)
        try materialize(table, key: uuid)
        return true
    }

    /// A plan run that lost to another run of its plan (one plan started on two devices, or in
    /// two journals merged) gives the winner each day read the winner has no record of, so no
    /// day read is hidden in a stopped run. A synced day is copied with its versions, as a
    /// conflict copy is: every device that makes the merge makes the same record, and a day
    /// undone after the merge (a later version, or a record the winner already has) stays undone
    /// whatever order the changes arrive in. An unsynced day (an import) is copied as it is.
    func carryDaysRead(from loser: String, to winner: String) throws {
        let table = ExportTable.planDaysRead
        let days = try database.prepare("""
            SELECT day, read_on, created_at FROM plan_days_read
            WHERE run_uuid = ?1 AND day NOT IN (SELECT day FROM plan_days_read WHERE run_uuid = ?2) ORDER BY day
            """)
        try days.bind(loser, at: 1)
        try days.bind(winner, at: 2)
        var rows: [(day: Int, readOn: String, createdAt: Int)] = []
        while try days.step() { rows.append((days.int(0), days.string(1), days.int(2))) }
        for row in rows {
            let key = winner + "\u{1F}" + String(row.day)
            let versions = try syncFields(of: table, key: loser + "\u{1F}" + String(row.day))
            if versions.isEmpty {
                let insert = try database.prepare("INSERT OR IGNORE INTO plan_days_read (run_uuid, day, read_on, created_at) VALUES (?1, ?2, ?3, ?4)")
                try insert.bind(winner, at: 1)
                try insert.bind(row.day, at: 2)
                try insert.bind(row.readOn, at: 3)
                try insert.bind(row.createdAt, at: 4)
                try insert.run()
                continue
            }
            guard try syncFields(of: table, key: key).isEmpty else { continue }
            for (field, version) in versions.sorted(by: { $0.key < $1.key }) where field != SyncEngine.deletedField {
                try send([SyncChange(table: table.name, key: key, field: field, value: version.value, time: version.version.time,
                                     device: version.version.device)], as: version.version.device)
            }
            try materialize(table, key: key)
        }
    }

    /// Records `changes`, made here by the merge (a conflict copy) with versions
    /// of `device`'s, and queues them for the next segment.
    private func send(_ changes: [SyncChange], as device: String) throws {
        let state = try database.prepare("SELECT sequence FROM sync_state WHERE name = 'this'")
        guard try state.step() else { return }
        let sequence = state.int(0) + 1
        var position = try queued(sequence)
        for change in changes {
            try record(change, from: device)
            try queue(change, sequence: sequence, position: position)
            position += 1
        }
    }

    // MARK: - Fields and versions

    /// Every synced field of `table`'s records: key → field → (value, version).
    private func syncFields(of table: ExportTable, key: String? = nil) throws -> [String: [String: (value: Cell, version: SyncVersion)]] {
        let statement = try database.prepare("""
            SELECT key, field, value, time, device FROM sync_fields WHERE tbl = ?1\(key == nil ? "" : " AND key = ?2")
            """)
        try statement.bind(table.name, at: 1)
        if let key { try statement.bind(key, at: 2) }
        let kinds = Dictionary(uniqueKeysWithValues: table.storedFields.map { ($0.name, $0.kind) })
        var fields: [String: [String: (value: Cell, version: SyncVersion)]] = [:]
        while try statement.step() {
            let field = statement.string(1)
            let value = try SyncEngine.cell(statement, column: 2, kind: kinds[field] ?? .count)
            fields[statement.string(0), default: [:]][field] = (value, SyncVersion(time: statement.int(3), device: statement.string(4)))
        }
        return fields
    }

    private func syncFields(of table: ExportTable, key: String) throws -> [String: (value: Cell, version: SyncVersion)] {
        let all: [String: [String: (value: Cell, version: SyncVersion)]] = try syncFields(of: table, key: Optional(key))
        return all[key] ?? [:]
    }

    /// Keeps a local change as the field's version (and a text's in its history).
    private func record(_ change: SyncChange, from device: String) throws {
        try setField(change, version: SyncVersion(time: change.time, device: device))
        if ExportTable.byName[change.table]?.textFields.contains(change.field) == true { try recordVersion(change, from: device) }
    }

    private func setField(_ change: SyncChange, version: SyncVersion) throws {
        try database.withCachedStatement("""
            INSERT INTO sync_fields (tbl, key, field, value, time, device) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
            ON CONFLICT (tbl, key, field) DO UPDATE SET value = excluded.value, time = excluded.time, device = excluded.device
            """) { statement in
            try statement.bind(change.table, at: 1)
            try statement.bind(change.key, at: 2)
            try statement.bind(change.field, at: 3)
            try journal.bind(change.value, to: statement, at: 4)
            try statement.bind(version.time, at: 5)
            try statement.bind(version.device, at: 6)
            try statement.run()
        }
    }

    private func recordVersion(_ change: SyncChange, from device: String) throws {
        try database.withCachedStatement("""
            INSERT OR IGNORE INTO sync_versions (tbl, key, field, time, device, base_time, base_device, value, context)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
            """) { statement in
            try statement.bind(change.table, at: 1)
            try statement.bind(change.key, at: 2)
            try statement.bind(change.field, at: 3)
            try statement.bind(change.time, at: 4)
            try statement.bind(device, at: 5)
            if let base = change.base {
                try statement.bind(base.time, at: 6)
                try statement.bind(base.device, at: 7)
            } else {
                try statement.bindNull(at: 6)
                try statement.bindNull(at: 7)
            }
            try journal.bind(change.value, to: statement, at: 8)
            try statement.bind(change.context.map { JSON.object($0.map { ($0.0, $0.1.json) }).text }, at: 9)
            try statement.run()
        }
    }

    // MARK: - Records as sync sees them

    /// A record's key: its identity fields' values, joined by U+001F.
    static func syncKey(_ table: ExportTable, _ row: [Cell]) -> String {
        table.identityFields.map { field -> String in
            switch row[table.index(field.name)!] {
            case .int(let value): return String(value)
            case .text(let value): return value
            case .null: return ""
            }
        }.joined(separator: "\u{1F}")
    }

    static func keyCells(_ table: ExportTable, _ key: String) -> [Cell] {
        let parts = key.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
        return zip(table.identityFields, parts).map { field, part in
            switch field.kind {
            case .instant, .optionalInstant, .count, .verseID: return Int(part).map(Cell.int) ?? .null
            default: return .text(part)
            }
        }
    }

    /// When the record was last written by its own account (`updated_at`, else when it was made).
    static func wallClock(_ table: ExportTable, _ row: [Cell]) -> Instant? {
        for name in ["updated_at", "created_at", "prayed_at"] {
            if let index = table.index(name), let instant = row[index].int { return instant }
        }
        return nil
    }

    static func cell(_ statement: Statement, column: Int32, kind: FieldKind) throws -> Cell {
        switch kind {
        case .instant, .optionalInstant, .count, .verseID: return statement.optionalInt(column).map(Cell.int) ?? .null
        default: return statement.optionalString(column).map(Cell.text) ?? .null
        }
    }

    /// A short id every device derives alike for `uuid` (six characters: two records rarely
    /// share one, and one that does gets another when written, a change like any other).
    static func derivedShortID(_ uuid: String) -> String {
        var digest = SHA256()
        digest.update(Array(uuid.utf8))
        return String(digest.hexDigest().utf8.prefix(6).map { Journal.shortIDAlphabet[Int($0) % Journal.shortIDAlphabet.count] })
    }

    /// A uuid every device derives alike from `name` (the first 16 bytes of its SHA-256, as a
    /// name-based UUID).
    static func derivedUUID(_ name: String) -> String {
        var digest = SHA256()
        digest.update(Array(name.utf8))
        var hex = Array(digest.hexDigest().prefix(32))
        hex[12] = "5"
        let variant = Int(String(hex[16]), radix: 16)! & 0x3 | 0x8
        hex[16] = Character(String(variant, radix: 16))
        let text = String(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(text[text.index(text.startIndex, offsetBy: range.lowerBound)..<text.index(text.startIndex, offsetBy: range.upperBound)])
        }.joined(separator: "-")
    }
}
