import Foundation
import Testing
import TestSupport
@testable import MannaKit

@Suite struct JournalMigrationTests {
    /// A journal as an older Manna left it: the first `version` migrations, nothing after.
    func journal(atVersion version: Int, in scratch: Scratch, name: String = "journal", data: (Database) throws -> Void) throws -> String {
        let path = scratch.path(name)
        try FileManager.default.createDirectory(atPath: Files.parent(of: path), withIntermediateDirectories: true)
        let database = try Database(path: path, mode: .readWriteCreate)
        try database.execute("PRAGMA journal_mode = WAL")
        for migration in Journal.migrations.prefix(version) { try migration.migrate(database) }
        try database.execute("PRAGMA user_version = \(version)")
        try data(database)
        return path
    }

    @Test(arguments: 0..<Journal.migrations.count)
    func everyEarlierSchemaIsMigratedWithItsLedgerKept(version: Int) throws {
        let scratch = try Scratch()
        let path = try journal(atVersion: version, in: scratch) { database in
            if version >= 1 {
                try database.execute("INSERT INTO deliveries (kind, key, occurrence, claimed_at, late) VALUES ('verse', '', '2026-03-08', 100, 0)")
                // From 6 on, a delivery is shown once it says so.
                if version >= 6 { try database.execute("UPDATE deliveries SET shown_at = claimed_at") }
            }
        }
        let journal = try Journal(path: path)
        #expect(journal.schemaVersion == Journal.migrations.count)
        #expect(try journal.isHandled(Journal.Occurrence(kind: .verse, key: "", label: "2026-03-08")) == (version >= 1))
        #expect(try journal.integrityCheck() == ["ok"])
        // Every table of the current schema is there and works.
        _ = try journal.addNote("after the migration", on: ref("John 3:16"), at: 1)
        _ = try journal.bookmark(ref("Ps 23"), at: 1)
        #expect(try journal.export()["notes"]?.arrayValue?.count == 1)
    }

    /// The schema as `sqlite_master` holds it: every table, index and trigger with its SQL.
    func schema(_ path: String) throws -> [String] {
        let database = try Database(path: path, mode: .readOnly)
        let statement = try database.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name")
        var rows: [String] = []
        while try statement.step() { rows.append((0..<4).map { statement.optionalString(Int32($0)) ?? "NULL" }.joined(separator: " | ")) }
        return rows
    }

    /// A journal at any older version ends with the very schema a new journal starts with: no
    /// migration depends on being run with the others in one go, none is skipped or run twice.
    @Test(arguments: 0..<Journal.migrations.count)
    func everyEarlierSchemaIsMigratedToTheNewSchema(version: Int) throws {
        let scratch = try Scratch()
        let new = scratch.path("new")
        _ = try Journal(path: new)
        let old = try journal(atVersion: version, in: scratch) { _ in }
        let migrated = try Journal(path: old)
        #expect(migrated.schemaVersion == Journal.migrations.count)
        let expected = try schema(new)
        // No capture trigger while the journal does not sync (migration 19); the forecast's are there.
        #expect(!expected.contains { $0.hasPrefix("trigger | sync_touch_") })
        #expect(expected.contains { $0.hasPrefix("trigger | reminder_forecast_reminder_update | reminders | CREATE TRIGGER") })
        #expect(try schema(old) == expected)
    }

    /// Migrations are known by their names, as GRDB's are: each name once.
    @Test func everyMigrationHasItsOwnName() {
        let names = Journal.migrations.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(names.firstIndex(of: Journal.legacyPlanMigration) == 4)
    }

    @Test func schemaTwoNotesAndBookmarksAreKeptAsTheirVerse() throws {
        let scratch = try Scratch()
        let path = try journal(atVersion: 2, in: scratch) { database in
            try database.execute("""
                INSERT INTO notes (uuid, short_id, verse_id, text, created_at, updated_at)
                    VALUES ('1b4e28ba-2fa1-4d2b-883f-0016d3cca427', 'k7m2', 43003016, 'kept', 10, 20);
                INSERT INTO bookmarks (uuid, short_id, verse_id, created_at, updated_at)
                    VALUES ('2b4e28ba-2fa1-4d2b-883f-0016d3cca427', 'p9x3', 19023001, 30, 30);
                INSERT INTO prayers (uuid, short_id, title, created_at, updated_at)
                    VALUES ('3b4e28ba-2fa1-4d2b-883f-0016d3cca427', 'm4n5', 'For Anna', 40, 40);
                """)
        }
        let journal = try Journal(path: path)
        #expect(journal.schemaVersion == Journal.migrations.count)
        #expect(try journal.notes(in: nil) == [Note(uuid: "1b4e28ba-2fa1-4d2b-883f-0016d3cca427", shortID: "k7m2",
                                                    reference: ref("John 3:16"), text: "kept", createdAt: 10, updatedAt: 20)])
        #expect(try journal.bookmarks(in: nil).map(\.reference) == [ref("Psalm 23:1")])
        #expect(try journal.export()["prayers"]?.arrayValue?.first?["title"]?.stringValue == "For Anna")
    }

    /// The capture triggers are made from the synced tables' descriptions, while the journal
    /// syncs and only then: a journal that does not has none (each open parses every trigger);
    /// one that does has, for every table of the export, the three its description makes, and
    /// none other names `sync_touched`; a write to each names the record there; stopping drops
    /// them again.
    @Test func everySyncedTableHasTheCaptureTriggersItsDescriptionMakesWhileItSyncs() throws {
        let scratch = try Scratch()
        let journal = try scratch.journal("triggers")
        func stored() throws -> [String: String] {
            let stored = try journal.database.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND sql LIKE '%sync_touched%' ORDER BY name")
            var triggers: [String: String] = [:]
            while try stored.step() { triggers[stored.string(0)] = stored.string(1) }
            return triggers
        }
        var made: [String: String] = [:]
        for table in ExportTable.all {
            for statement in table.captureTriggers().components(separatedBy: ";\n").map({ $0.trimmingCharacters(in: .whitespacesAndNewlines) })
            where statement.hasPrefix("CREATE TRIGGER ") {
                let name = String(statement.dropFirst("CREATE TRIGGER ".count).prefix { $0 != " " })
                made[name] = statement.hasSuffix(";") ? String(statement.dropLast()) : statement
            }
        }
        #expect(made.count == 3 * ExportTable.all.count)
        #expect(try stored().isEmpty)
        try SyncEngine(journal).start(folder: scratch.file("shared"), device: Journal.newUUID(), name: "laptop", searches: true)
        #expect(try stored() == made)
        try journal.database.execute("DELETE FROM sync_touched")
        _ = try journal.addNote("touched", on: ref("John 3:16"), at: 1)
        try journal.recordSearch(SearchRecord(query: "love", translation: "KJV", searchedAt: 2))
        let touched = try journal.database.prepare("SELECT tbl, key FROM sync_touched ORDER BY tbl")
        var names: [String: String] = [:]
        while try touched.step() { names[touched.string(0)] = touched.string(1) }
        #expect(names["searches"] == "love\u{1F}KJV\u{1F}2")
        #expect(names["notes"]?.count == 36)
        try SyncEngine(journal).stop()
        #expect(try stored().isEmpty)
    }

    /// Migration 19: a journal at 18 that syncs keeps capturing (its triggers made anew, no
    /// longer asking whether it syncs); one that does not loses its thirty triggers.
    @Test func migration19KeepsCaptureTriggersOnlyWhereTheJournalSyncs() throws {
        let scratch = try Scratch()
        for syncing in [false, true] {
            let path = try journal(atVersion: 18, in: scratch, name: "v18-\(syncing)") { database in
                if syncing {
                    try database.execute("INSERT INTO sync_state (name, device, device_name, folder, clock, sequence, dirty, searches) VALUES ('this', 'd', 'laptop', '/s', 0, 0, 0, 1)")
                }
            }
            let journal = try Journal(path: path)
            let triggers = try journal.database.prepare("SELECT count(*), sum(sql LIKE '%WHEN EXISTS%') FROM sqlite_master WHERE type = 'trigger' AND sql LIKE '%sync_touched%'")
            _ = try triggers.step()
            #expect(triggers.int(0) == (syncing ? 3 * ExportTable.all.count : 0), "syncing: \(syncing)")
            #expect(triggers.int(1) == 0)
            if syncing {
                try journal.database.execute("DELETE FROM sync_touched")
                _ = try journal.addNote("after the migration", on: ref("John 3:16"), at: 1)
                let touched = try journal.database.prepare("SELECT count(*) FROM sync_touched WHERE tbl = 'notes'")
                _ = try touched.step()
                #expect(touched.int(0) == 1)
            }
        }
    }

    /// Migration 20: a syncing journal's capture triggers, made with a WHERE NOT EXISTS subquery
    /// before, are made anew with an upsert's DO NOTHING, and name each record written once.
    @Test func migration20MakesTheCaptureTriggersOfAJournalThatSyncsAnew() throws {
        let scratch = try Scratch()
        let path = try journal(atVersion: 19, in: scratch, name: "v19") { database in
            try database.execute("INSERT INTO sync_state (name, device, device_name, folder, clock, sequence, dirty, searches) VALUES ('this', 'd', 'laptop', '/s', 0, 0, 0, 1)")
            try SyncEngine.makeCaptureTriggers(database)
            // The notes' as migration 19 made them.
            for (event, row) in [("insert", "NEW"), ("update", "NEW"), ("delete", "OLD")] {
                try database.execute("""
                    DROP TRIGGER sync_touch_notes_\(event);
                    CREATE TRIGGER sync_touch_notes_\(event) AFTER \(event.uppercased()) ON notes
                        BEGIN INSERT INTO sync_touched SELECT 'notes', \(row).uuid WHERE NOT EXISTS (SELECT 1 FROM sync_touched WHERE tbl = 'notes' AND key = \(row).uuid); \
                    UPDATE sync_state SET dirty = 1; END;
                    """)
            }
        }
        let journal = try Journal(path: path)
        let triggers = try journal.database.prepare("""
            SELECT count(*), sum(sql LIKE '%NOT EXISTS%'), sum(sql LIKE '%ON CONFLICT DO NOTHING%') FROM sqlite_master WHERE type = 'trigger' AND sql LIKE '%sync_touched%'
            """)
        _ = try triggers.step()
        let all = 3 * ExportTable.all.count
        #expect(triggers.int(0) == all && triggers.int(1) == 0 && triggers.int(2) == all)
        let note = try journal.addNote("after the migration", on: ref("John 3:16"), at: 1)
        try journal.database.execute("UPDATE notes SET text = 'and again', updated_at = 2 WHERE uuid = '\(note.uuid)'")
        let touched = try journal.database.prepare("SELECT key FROM sync_touched WHERE tbl = 'notes'")
        var keys: [String] = []
        while try touched.step() { keys.append(touched.string(0)) }
        #expect(keys == [note.uuid])
    }

    /// Writes to every synced table, one at a time: inserts, updates (one an upsert, one a second
    /// write to a record already named), deletes. Each entry is what one edit runs.
    static let edits = [
        "INSERT INTO prayers (uuid, short_id, title, created_at, updated_at) VALUES ('p1', 'k7m2', 'For Anna', 1, 1)",
        "UPDATE prayers SET body = 'and her family', updated_at = 2 WHERE uuid = 'p1'",
        """
        INSERT INTO prayers (uuid, short_id, title, created_at, updated_at) VALUES ('p1', 'k7m2', 'For Anna', 1, 3)
            ON CONFLICT (uuid) DO UPDATE SET title = 'For Anna and Tom', updated_at = 3
        """,
        "INSERT INTO reminders (uuid, prayer_uuid, spec, created_at, updated_at) VALUES ('r1', 'p1', '07:30', 1, 1)",
        "UPDATE reminders SET spec = '08:00' WHERE uuid = 'r1'; UPDATE reminders SET spec = '09:00' WHERE uuid = 'r1'",
        "INSERT INTO prayed VALUES ('d1', 'p1', 5)",
        "UPDATE prayed SET prayed_at = 6",
        "DELETE FROM prayed",
        "INSERT INTO snoozes VALUES ('s1', 'p1', 100, 1)",
        "UPDATE snoozes SET due_at = 200",
        "DELETE FROM snoozes",
        "INSERT INTO plan_runs (uuid, plan_id, started_on, schedule_start, created_at, updated_at) VALUES ('u1', 'mcheyne', '2026-03-08', '2026-03-08', 1, 1)",
        "UPDATE plan_runs SET remind_at = '07:00'",
        "INSERT INTO plan_days_read VALUES ('u1', 1, '2026-03-08', 1), ('u1', 2, '2026-03-09', 2)",
        "UPDATE plan_days_read SET read_on = '2026-03-10' WHERE day = 2",
        "DELETE FROM plan_days_read WHERE day = 1",
        "INSERT INTO notes (uuid, short_id, verse_id, text, created_at, updated_at) VALUES ('n1', 'p9x3', 43003016, 'so loved', 1, 1)",
        "UPDATE notes SET text = 'so loved the world'",
        "INSERT INTO highlights (uuid, short_id, verse_id, color, created_at, updated_at) VALUES ('h1', 'h7', 19023001, 'yellow', 1, 1)",
        "UPDATE highlights SET deleted_at = 2",
        "INSERT INTO bookmarks (uuid, short_id, verse_id, created_at, updated_at) VALUES ('b1', 'b7', 19023001, 1, 1)",
        "UPDATE bookmarks SET reference = 'Psalm 23:1-3'",
        "INSERT INTO searches (query, translation, searched_at) VALUES ('love', 'KJV', 1), ('grace', 'WEB', 2)",
        "DELETE FROM searches WHERE query = 'love'",
        "DELETE FROM notes; DELETE FROM highlights; DELETE FROM bookmarks; DELETE FROM reminders; DELETE FROM plan_runs; DELETE FROM prayers",
    ]

    /// What the capture triggers of `database` record for each of `edits`: the records named in
    /// `sync_touched` and whether the state was marked dirty, emptied after each.
    func captured(_ database: Database) throws -> [String] {
        try Self.edits.map { edit in
            try database.execute(edit)
            let touched = try database.prepare("SELECT tbl, key FROM sync_touched ORDER BY tbl, key")
            var rows: [String] = []
            while try touched.step() { rows.append(touched.string(0) + " " + touched.string(1)) }
            let dirty = try database.prepare("SELECT coalesce(max(dirty), 0) FROM sync_state")
            _ = try dirty.step()
            try database.execute("DELETE FROM sync_touched; UPDATE sync_state SET dirty = 0")
            return rows.joined(separator: ", ") + (dirty.int(0) == 1 ? " (dirty)" : "")
        }
    }

    /// The triggers made from the descriptions (migration 16) capture what the ones typed out
    /// by hand (migrations 10 and 11) did, edit by edit: the same records named, the state marked
    /// dirty alike, nothing while the journal does not sync. The search history's update
    /// trigger, which the hand-typed ones lacked, no write fires.
    @Test func generatedCaptureTriggersCaptureWhatTheHandTypedOnesDid() throws {
        let scratch = try Scratch()
        let generated = Journal.migrations.firstIndex { $0.name == "generatedCaptureTriggers" }!
        var captures: [[String]] = []
        // Hand-typed (before migration 16), generated asking whether the journal syncs (16), and
        // generated when it starts syncing (19 on).
        let latest = Journal.migrations.count
        for (version, idleTriggers) in [(generated, 29), (generated + 1, 30), (latest, 0)] {
            let idle = try Database(path: try journal(atVersion: version, in: scratch, name: "v\(version) idle") { _ in }, mode: .readWrite)
            let triggers = try idle.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND sql LIKE '%sync_touched%'")
            _ = try triggers.step()
            #expect(triggers.int(0) == idleTriggers)
            #expect(try captured(idle).allSatisfy(\.isEmpty))
            let syncing = try Database(path: try journal(atVersion: version, in: scratch, name: "v\(version)") { _ in }, mode: .readWrite)
            try syncing.execute("INSERT INTO sync_state (name, device, device_name, folder, clock, sequence, dirty, searches) VALUES ('this', 'd', 'laptop', '/s', 0, 0, 0, 1)")
            if version == latest { try SyncEngine.makeCaptureTriggers(syncing) }
            captures.append(try captured(syncing))
        }
        #expect(captures[0] == captures[1])
        #expect(captures[1] == captures[2])
        #expect(captures[1][1] == "prayers p1 (dirty)")
        #expect(captures[1][14] == "plan_days_read u1\u{1F}2 (dirty)")
        #expect(captures[1].last == "bookmarks b1, highlights h1, notes n1, plan_runs u1, prayers p1, reminders r1 (dirty)")
    }

    /// A synced record type added later is one description: its capture triggers come from it
    /// alone, whatever its identity, and name what is written to its table while the journal syncs.
    @Test func aNewSyncedTableIsCapturedFromItsDescriptionAlone() throws {
        let scratch = try Scratch()
        let journal = try scratch.journal("new table")
        let fasts = ExportTable(
            name: "fasts", record: "fast",
            fields: [Field(name: "uuid", kind: .uuid), Field(name: "day", kind: .date), Field(name: "note", kind: .text, merge: .text)],
            identity: .uuid, order: "day, uuid")
        let psalms = ExportTable(
            name: "psalms_sung", record: "psalm sung",
            fields: [Field(name: "psalm", kind: .count), Field(name: "sung_on", kind: .date)],
            identity: .natural(["psalm", "sung_on"]), order: "sung_on, psalm")
        try journal.database.execute("""
            CREATE TABLE fasts (uuid TEXT PRIMARY KEY, day TEXT NOT NULL, note TEXT NOT NULL);
            CREATE TABLE psalms_sung (psalm INTEGER NOT NULL, sung_on TEXT NOT NULL, PRIMARY KEY (psalm, sung_on)) WITHOUT ROWID;
            """ + fasts.captureTriggers() + psalms.captureTriggers())
        try SyncEngine(journal).start(folder: scratch.file("shared"), device: Journal.newUUID(), name: "laptop")
        try journal.database.execute("""
            DELETE FROM sync_touched;
            INSERT INTO fasts VALUES ('f1', '2026-03-08', 'lent');
            UPDATE fasts SET note = 'lent, day one';
            INSERT INTO psalms_sung VALUES (23, '2026-03-08');
            DELETE FROM psalms_sung;
            """)
        let touched = try journal.database.prepare("SELECT tbl, key FROM sync_touched ORDER BY tbl, key")
        var rows: [String] = []
        while try touched.step() { rows.append(touched.string(0) + " " + touched.string(1)) }
        #expect(rows == ["fasts f1", "psalms_sung 23\u{1F}2026-03-08"])
        #expect(try SyncEngine(journal).state()?.dirty == true)
    }
}
