import Foundation
import Testing
import TestSupport
@testable import MannaKit

/// The SQLite wrapper's own rules, each on a fresh database in its own temporary directory.
@Suite struct SQLiteTests {
    @Test func resetReportsTheErrorOfTheStepThatFailed() throws {
        let folder = try Scratch("sqlite")
        let database = try folder.database()
        try database.execute("CREATE TABLE people (name TEXT NOT NULL UNIQUE)")
        let insert = try database.prepare("INSERT INTO people (name) VALUES (?1)")
        try insert.bind("Ruth", at: 1)
        try insert.run()
        try insert.reset()
        try insert.bind("Ruth", at: 1)
        let stepError = try #require(throws: SQLiteError.self) { try insert.run() }
        let resetError = try #require(throws: SQLiteError.self) { try insert.reset() }
        #expect(resetError.code == stepError.code)
        #expect(resetError.code & 0xff == 19)
        #expect(resetError.message == "UNIQUE constraint failed: people.name")
        // Reported, and rewound all the same: the statement runs again.
        try insert.bind("Naomi", at: 1)
        try insert.run()
        try insert.reset()
    }

    @Test func prepareRefusesASecondStatementButNotCommentsAfterTheFirst() throws {
        let folder = try Scratch("sqlite")
        let database = try folder.database()
        for sql in ["SELECT 1; SELECT 2", "SELECT 1; -- a comment\nSELECT 2", "SELECT 1 /* a comment */; DELETE FROM t"] {
            let error = try #require(throws: SQLiteError.self) { try database.prepare(sql) }
            #expect(error.message == "more than one statement: prepare takes one, execute runs several")
            #expect(error.sql == sql)
        }
        for sql in ["SELECT 1; -- c", "SELECT 1 /* c */ ;\n", "SELECT 1;\n  /* a\n b */ -- c\n;", "SELECT 1 /* to the end"] {
            let statement = try database.prepare(sql)
            #expect(try statement.step() && statement.int(0) == 1, "\(sql)")
        }
        #expect(throws: SQLiteError.self) { try database.prepare("-- nothing but a comment") }
        // execute is the way to run several.
        try database.execute("CREATE TABLE t (x); INSERT INTO t VALUES (1); -- done")
    }

    @Test func aParameterNotBoundSinceTheResetIsAnErrorNamingIt() throws {
        let folder = try Scratch("sqlite")
        let database = try folder.database()
        try database.execute("CREATE TABLE people (name TEXT, age INTEGER)")
        let insert = try database.prepare("INSERT INTO people (name, age) VALUES (?1, ?2)")
        try insert.bind("Ruth", at: 1)
        let error = try #require(throws: SQLiteError.self) { try insert.run() }
        #expect(error.code == 21)
        #expect(error.message == "parameter 2 is not bound")
        #expect(error.description.contains("INSERT INTO people (name, age) VALUES (?1, ?2)"))
        // NULL bound on purpose is bound.
        try insert.bindNull(at: 2)
        try insert.run()
        // A reset forgets every binding: each must be bound again.
        try insert.reset()
        try insert.bind(30, at: 2)
        #expect(throws: SQLiteError.self) { try insert.run() }
        try insert.bind(nil as String?, at: 1)
        try insert.run()
        // A named parameter is named.
        let named = try database.prepare("SELECT count(*) FROM people WHERE name = :name OR age = :age")
        try named.bind(30, at: 2)
        let namedError = try #require(throws: SQLiteError.self) { try named.step() }
        #expect(namedError.message == "parameter 1 (:name) is not bound")
        let count = try database.prepare("SELECT count(*) FROM people")
        #expect(try count.step() && count.int(0) == 2)
    }

    @Test func columnsAreReadByTheNamesTheSelectGivesThem() throws {
        let folder = try Scratch("sqlite")
        let database = try folder.database()
        try database.execute("""
            CREATE TABLE people (name TEXT, age INTEGER, note TEXT);
            INSERT INTO people VALUES ('Ruth', 30, NULL), ('Naomi', 60, 'mother-in-law');
            """)
        let select = try database.prepare("SELECT p.note, p.name, age, age * 12 AS months FROM people p ORDER BY age")
        var rows: [String] = []
        while try select.step() {
            rows.append("\(try select.string("name")) \(try select.int("age")) \(try select.int("months")) \(try select.optionalString("note") ?? "-")")
        }
        #expect(rows == ["Ruth 30 360 -", "Naomi 60 720 mother-in-law"])
        // The same names after a reset: the name map belongs to the statement, not the row.
        try select.reset()
        #expect(try select.step() && select.optionalInt("age") == 30 && select.string("note") == "")
        // Of two columns with one name, the leftmost is read.
        let twice = try database.prepare("SELECT 1 AS n, 2 AS n")
        #expect(try twice.step() && twice.int("n") == 1)
    }

    /// An unknown column name throws (SQLITE_MISUSE) rather than traps: a mistyped name in a
    /// command's query must not crash the command line.
    @Test func anUnknownColumnNameIsAnError() throws {
        let folder = try Scratch("sqlite")
        let database = try folder.database()
        let select = try database.prepare("SELECT 'Ruth' AS name, 30 AS age")
        #expect(try select.step())
        for name in ["title", "Name"] {
            let error = try #require(throws: SQLiteError.self) { try select.string(name) }
            #expect(error.code == 21)
            #expect(error.message == "no column named '\(name)' (the columns are name, age)")
        }
    }

    @Test func theCacheHandsOutOneStatementPerSQLRewoundWithNothingBound() throws {
        let folder = try Scratch("sqlite")
        let database = try folder.database()
        try database.execute("CREATE TABLE people (name TEXT); INSERT INTO people VALUES ('Ruth'), ('Naomi')")
        let sql = "SELECT name FROM people WHERE name <> ?1 ORDER BY name"
        var lent: [Statement] = []
        for _ in 0..<2 {
            let first = try database.withCachedStatement(sql) { statement in
                lent.append(statement)
                // Nothing is bound: the last use's binding is gone.
                let error = try #require(throws: SQLiteError.self) { try statement.step() }
                #expect(error.message == "parameter 1 is not bound")
                try statement.bind("Orpah", at: 1)
                // Rewound: the first row again, though the last use stopped after it.
                #expect(try statement.step())
                return try statement.string("name")
            }
            #expect(first == "Naomi")
        }
        #expect(lent.count == 2 && lent[0] === lent[1])
        let another = try database.withCachedStatement("SELECT 1") { statement in statement !== lent[0] }
        #expect(another)
    }

    @Test func aNestedRequestForALentStatementGetsOneOfItsOwn() throws {
        let folder = try Scratch("sqlite")
        let database = try folder.database()
        try database.execute("CREATE TABLE people (name TEXT); INSERT INTO people VALUES ('Ruth'), ('Naomi')")
        let sql = "SELECT name FROM people ORDER BY name"
        var outerNames: [String] = []
        try database.withCachedStatement(sql) { outer in
            while try outer.step() {
                outerNames.append(try outer.string("name"))
                let inner = try database.withCachedStatement(sql) { inner in
                    #expect(inner !== outer)
                    _ = try inner.step()
                    return try inner.string("name")
                }
                #expect(inner == "Naomi")
            }
        }
        // The inner runs did not move the outer one.
        #expect(outerNames == ["Naomi", "Ruth"])
    }

    /// A statement stopped mid-iteration keeps its read snapshot, and in WAL mode a checkpoint
    /// cannot restart the log while a reader uses it; a cached statement is reset when lent
    /// back, however its user left it.
    @Test func aCachedStatementLeftMidIterationHoldsNoReadTransaction() throws {
        struct Stop: Error {}
        let folder = try Scratch("sqlite")
        let writer = try folder.database()
        try writer.execute("PRAGMA journal_mode = WAL; CREATE TABLE people (name TEXT); INSERT INTO people VALUES ('Ruth'), ('Naomi')")
        let reader = try folder.database()
        /// True when a checkpoint of the log could not finish for a reader (the first column, `busy`).
        func checkpointIsBlocked() throws -> Bool {
            let checkpoint = try writer.prepare("PRAGMA wal_checkpoint(TRUNCATE)")
            #expect(try checkpoint.step())
            return checkpoint.int(0) == 1
        }
        let sql = "SELECT name FROM people"

        // What the rule prevents: a statement kept mid-iteration blocks the checkpoint.
        try writer.execute("INSERT INTO people VALUES ('Orpah')")
        let kept = try reader.prepare(sql)
        #expect(try kept.step())
        #expect(try checkpointIsBlocked())
        try kept.reset()
        #expect(try !checkpointIsBlocked())

        try writer.execute("INSERT INTO people VALUES ('Boaz')")
        let stepped = try reader.withCachedStatement(sql) { statement in try statement.step() }
        #expect(stepped)
        #expect(try !checkpointIsBlocked())

        try writer.execute("INSERT INTO people VALUES ('Obed')")
        #expect(throws: Stop.self) {
            try reader.withCachedStatement(sql) { statement in
                #expect(try statement.step())
                throw Stop()
            }
        }
        #expect(try !checkpointIsBlocked())
    }

    /// Text is bound by its length: a NUL inside it is stored, never where the text ends.
    @Test func textIsBoundWholeNULsAndAll() throws {
        let folder = try Scratch("sqlite")
        let database = try folder.database()
        let select = try database.prepare("SELECT length(CAST(?1 AS BLOB)), ?2 = ''")
        try select.bind("a\u{0}b", at: 1)
        try select.bind("", at: 2)
        #expect(try select.step())
        #expect(select.int(0) == 3)
        #expect(select.int(1) == 1)  // the empty text is text, not NULL
    }
}

extension Scratch {
    /// A new connection to `name` in the folder, created when missing.
    func database(_ name: String = "test.sqlite") throws -> Database {
        try Database(path: file(name), mode: .readWriteCreate)
    }
}
