// Issue 31: a journal's size must not cost a read. Each everyday command runs in-process on a
// journal, then again once tens of thousands of records it does not print were added (deleted
// marks and reminders, answered and deleted prayers, the ledger's years, stopped plans, sync's
// tables): SQLite's own counters (`Database.costs`) must show the same work, so no query scans them.
import Foundation
import MannaKit
import TestSupport
import Testing

@testable import MannaApp

@Suite struct JournalSizeTests {
    /// The commands, as a user types them: what they print is in the base journal only.
    static let commands: [[String]] = [
        ["read", "John 3:16"],
        ["read", "John 3"],
        ["note", "list"],
        ["note", "list", "John 3:16"],
        ["note", "list", "John 3"],
        ["highlight", "list"],
        ["highlight", "list", "John 3"],
        ["bookmark", "list"],
        ["bookmark", "list", "John 3:16"],
        ["pray", "list"],
        ["today"],
        // Nothing due: the verse at 23:59, the reminders at other times, the last tick a minute ago.
        ["tick", "--now", "2026-12-01T12:01"],
        ["sync", "status"],
    ]

    /// How many records of each kind the filling adds.
    static let filling = 5_000

    @Test func everydayCommandsDoTheSameWorkWithAJournalOfRecordsTheyDoNotPrint() throws {
        let home = try base()
        let before = try Self.commands.map { try cost(of: $0, in: home) }
        try fill(home.paths.journal, count: Self.filling)
        let after = try Self.commands.map { try cost(of: $0, in: home) }
        for (index, command) in Self.commands.enumerated() {
            let (small, big) = (before[index], after[index])
            #expect(big.stdout == small.stdout, "manna \(command.joined(separator: " ")) printed what it did not before: the filling is not what it reads")
            // The depth of an index costs no step; a row visited costs several. So a query
            // that reads none of the added rows costs what it did, to the step.
            #expect(big.steps <= small.steps, """
                manna \(command.joined(separator: " ")): \(small.steps) SQLite steps on the journal, \(big.steps) once \(Self.filling) records \
                of each kind it does not print were added; statements that grew:
                \(grown(from: small.costs, to: big.costs).joined(separator: "\n"))
                """)
        }
    }

    /// A tick with nothing due reads the journal's reminders' forecast, not the reminders: a
    /// thousand more active ones cost it nothing once a tick has worked them out.
    @Test func aTickWithNothingDueReadsNoReminder() throws {
        let home = try base()
        let tick = ["tick", "--now", "2026-12-01T12:01"]
        let small = try cost(of: tick, in: home)
        let database = try Database(path: home.paths.journal, mode: .readWrite)
        try database.execute("""
            WITH RECURSIVE k(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM k WHERE n < 1000)
            INSERT INTO reminders (uuid, prayer_uuid, spec, created_at, updated_at)
                SELECT printf('%08x-0000-4000-8000-%012x', n, 14), (SELECT uuid FROM prayers WHERE title = 'For the family'),
                    CASE n % 3 WHEN 0 THEN '23:30' WHEN 1 THEN 'sat 06:00' ELSE '2027-01-01 08:00' END, 1600000000, 1600000000
                FROM k
            """)
        let big = try cost(of: tick, in: home)
        #expect(big.steps <= small.steps, """
            a tick with nothing due: \(small.steps) SQLite steps on the journal, \(big.steps) with 1,000 more reminders; statements that grew:
            \(grown(from: small.costs, to: big.costs).joined(separator: "\n"))
            """)
    }

    /// The guard itself: with the indexes of live rows back as they were before schema 15 (on
    /// every row), reading a verse and listing notes count the deleted ones, and the measure
    /// above says so.
    @Test func theMeasureSeesTheDeletedRowsAnIndexOfEveryRowVisits() throws {
        let home = try base()
        let commands = [["read", "John 3:16"], ["note", "list"]]
        let small = try commands.map { try cost(of: $0, in: home) }
        try fill(home.paths.journal, count: Self.filling)
        let database = try Database(path: home.paths.journal, mode: .readWrite)
        try database.execute("DROP INDEX notes_live; CREATE INDEX notes_by_verse ON notes(verse_id)")
        let big = try commands.map { try cost(of: $0, in: home) }
        for index in commands.indices {
            #expect(big[index].stdout == small[index].stdout)
            // The filling put a tenth of its deleted notes on John 3:16.
            #expect(big[index].steps > small[index].steps + Self.filling / 10, "\(commands[index]): \(small[index].steps) → \(big[index].steps)")
        }
    }

    /// A home whose journal holds what the commands print: notes, highlights and bookmarks in
    /// John 3 and elsewhere, open and answered prayers with reminders not due; syncing, the
    /// last tick a minute ago.
    func base() throws -> TestHome {
        let home = try TestHome(config: "notify_at = 23:59\n")
        for arguments in [["note", "add", "John 3:16", "For God so loved"], ["note", "add", "John 3:16-18", "The whole thought"],
                          ["note", "add", "Rom 8:28", "All things"], ["highlight", "John 3:16", "--color", "pink"],
                          ["highlight", "Ps 23:1"], ["bookmark", "add", "John 3:16"], ["bookmark", "add", "Gen 1:1"]] {
            let outcome = home.run(arguments)
            try #require(outcome.status == 0, "\(arguments): \(outcome.stderr)")
        }
        _ = try home.addPrayer("For the family", reminders: ["07:30", "mon,wed,fri 21:00"], now: "2026-11-01T09:00")
        _ = try home.addPrayer("For the church", reminders: ["sun 09:00"], now: "2026-11-01T09:00")
        let answered = try home.addPrayer("For the exam", reminders: ["weekdays 12:15"], now: "2026-11-01T09:00")
        try #require(home.run("pray", "answered", answered, "--note", "passed").status == 0)
        let shared = home.url.path + "-Sync"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        try #require(home.run("sync", "init", shared, "--name", "laptop").status == 0)
        home.tick("2026-12-01T12:00")
        return home
    }

    /// What one command prints and costs, measured on its second run (the first may do once
    /// what later runs need not).
    func cost(of arguments: [String], in home: TestHome) throws -> (stdout: String, steps: Int, costs: [StatementCost]) {
        let first = home.run(arguments)
        try #require(first.status == 0, "\(arguments): \(first.stderr)")
        let (outcome, costs) = Database.costs(ofConnectionsTo: home.paths.journal) { home.run(arguments) }
        try #require(outcome.status == 0 && outcome.stdout == first.stdout, "\(arguments): \(outcome.stderr)")
        return (outcome.stdout, costs.map(\.steps).reduce(0, +), costs)
    }

    /// "steps before → after: SQL" for each statement that cost more (by its SQL, all its runs).
    func grown(from small: [StatementCost], to big: [StatementCost]) -> [String] {
        func bySQL(_ costs: [StatementCost]) -> [String: Int] { costs.reduce(into: [:]) { $0[$1.sql, default: 0] += $1.steps } }
        let (before, after) = (bySQL(small), bySQL(big))
        return after.filter { $0.value > before[$0.key] ?? 0 }.map { "\(before[$0.key] ?? 0) → \($0.value): \($0.key)" }.sorted()
    }

    /// Adds `count` records of each kind no command above prints: deleted notes, highlights and
    /// bookmarks (a tenth on John 3:16), answered and deleted prayers, deleted reminders of an
    /// open prayer, prayed and snoozed history, a ledger of past deliveries, stopped plan runs
    /// with their days, and sync's fields and versions of them; left as a sync had just sent them.
    /// Not reminders of answered or deleted prayers: a tick reads every reminder not deleted,
    /// since whether its prayer is open is in another table (issue 31's note).
    func fill(_ journal: String, count: Int) throws {
        let database = try Database(path: journal, mode: .readWrite)
        // Short ids start with 0, which Manna's own never hold.
        let verse = "CASE WHEN n % 10 = 0 THEN 43003016 ELSE 1001001 + n % 50 * 1000 END"
        let uuid = "printf('%08x-0000-4000-8000-%012x', n, %@)"
        func rows(_ kind: Int) -> String {
            "WITH RECURSIVE k(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM k WHERE n < \(count)) SELECT n, "
                + uuid.replacingOccurrences(of: "%@", with: "\(kind)") + " AS id FROM k"
        }
        try database.execute("""
            BEGIN;
            INSERT INTO notes (uuid, short_id, verse_id, reference, text, deleted_at, created_at, updated_at)
                SELECT id, '0n' || n, \(verse), NULL, 'deleted note ' || n, 1700000000 + n, 1600000000 + n, 1700000000 + n FROM (\(rows(1)));
            INSERT INTO highlights (uuid, short_id, verse_id, color, deleted_at, created_at, updated_at)
                SELECT id, '0h' || n, \(verse), 'blue', 1700000000 + n, 1600000000 + n, 1700000000 + n FROM (\(rows(2)));
            INSERT INTO bookmarks (uuid, short_id, verse_id, reference, deleted_at, created_at, updated_at)
                SELECT id, '0b' || n, \(verse), NULL, 1700000000 + n, 1600000000 + n, 1700000000 + n FROM (\(rows(3)));
            INSERT INTO prayers (uuid, short_id, title, body, tags, answered_at, deleted_at, created_at, updated_at)
                SELECT id, '0p' || n, 'Prayer ' || n, 'Body ' || n, ',old,', CASE WHEN n % 2 = 0 THEN 1700000000 + n END,
                    CASE WHEN n % 2 = 1 THEN 1700000000 + n END, 1600000000 + n, 1700000000 + n FROM (\(rows(4)));
            INSERT INTO reminders (uuid, prayer_uuid, spec, deleted_at, created_at, updated_at)
                SELECT id, (SELECT uuid FROM prayers WHERE title = 'For the family'), '12:01', 1700000000 + n, 1600000000 + n, 1700000000 + n
                FROM (\(rows(6)));
            INSERT INTO prayed (uuid, prayer_uuid, prayed_at)
                SELECT id, (SELECT uuid FROM prayers WHERE title = 'For the family'), 1600000000 + n * 60 FROM (\(rows(7)));
            INSERT INTO snoozes (uuid, prayer_uuid, due_at, created_at)
                SELECT id, (SELECT uuid FROM prayers WHERE title = 'For the family'), 1600000000 + n * 60, 1600000000 + n * 60 FROM (\(rows(8)));
            INSERT INTO deliveries (kind, key, occurrence, claimed_at, late, shown_at)
                SELECT 'prayer', id, date(1600000000 + n * 60, 'unixepoch') || 'T07:00', 1600000000 + n * 60, 0, 1600000000 + n * 60 FROM (\(rows(9)));
            INSERT INTO plan_runs (uuid, plan_id, started_on, schedule_start, stopped_at, created_at, updated_at)
                SELECT id, 'bible-in-a-year', '2020-01-01', '2020-01-01', 1600000000 + n, 1600000000 + n, 1600000000 + n FROM (\(rows(10)));
            INSERT INTO plan_days_read (run_uuid, day, read_on, created_at)
                SELECT printf('%08x-0000-4000-8000-%012x', n, 10), 1, '2020-01-01', 1600000000 + n FROM (\(rows(11)));
            INSERT INTO sync_fields (tbl, key, field, value, time, device)
                SELECT 'notes', printf('%08x-0000-4000-8000-%012x', n, 1), 'text', 'deleted note ' || n, n, 'other' FROM (\(rows(12)));
            INSERT INTO sync_versions (tbl, key, field, time, device, value)
                SELECT 'notes', printf('%08x-0000-4000-8000-%012x', n, 1), 'text', n, 'other', 'deleted note ' || n FROM (\(rows(13)));
            DELETE FROM sync_touched;
            UPDATE sync_state SET dirty = 0;
            COMMIT;
            """)
    }
}
