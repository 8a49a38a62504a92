import Foundation
import Testing
import TestSupport
@testable import MannaKit

@Suite struct JournalMigrationTests {
    /// A journal as an older Manna left it: the first `version` migrations, nothing after.
    func journal(atVersion version: Int, in scratch: Scratch, data: (Database) throws -> Void) throws -> String {
        let path = scratch.path()
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
        #expect(expected.contains { $0.hasPrefix("trigger | sync_touch_notes_update | notes | CREATE TRIGGER") })
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

    /// The capture triggers are made from the synced tables' descriptions: a journal has, for
    /// every table of the export, the three its description makes, and none other names
    /// `sync_touched`; and a write to each, while the journal syncs, names the record there.
    @Test func everySyncedTableHasTheCaptureTriggersItsDescriptionMakes() throws {
        let scratch = try Scratch()
        let journal = try scratch.journal("triggers")
        let stored = try journal.database.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND sql LIKE '%sync_touched%' ORDER BY name")
        var triggers: [String: String] = [:]
        while try stored.step() { triggers[stored.string(0)] = stored.string(1) }
        var made: [String: String] = [:]
        for table in ExportTable.all {
            for statement in table.captureTriggers.components(separatedBy: ";\n").map({ $0.trimmingCharacters(in: .whitespacesAndNewlines) })
            where statement.hasPrefix("CREATE TRIGGER ") {
                let name = String(statement.dropFirst("CREATE TRIGGER ".count).prefix { $0 != " " })
                made[name] = statement.hasSuffix(";") ? String(statement.dropLast()) : statement
            }
        }
        #expect(made.count == 3 * ExportTable.all.count)
        #expect(triggers == made)
        try journal.startSync(folder: scratch.file("shared"), device: Journal.newUUID(), name: "laptop", searches: true)
        try journal.database.execute("DELETE FROM sync_touched")
        _ = try journal.addNote("touched", on: ref("John 3:16"), at: 1)
        try journal.recordSearch(SearchRecord(query: "love", translation: "KJV", searchedAt: 2))
        let touched = try journal.database.prepare("SELECT tbl, key FROM sync_touched ORDER BY tbl")
        var names: [String: String] = [:]
        while try touched.step() { names[touched.string(0)] = touched.string(1) }
        #expect(names["searches"] == "love\u{1F}KJV\u{1F}2")
        #expect(names["notes"]?.count == 36)
    }
}
