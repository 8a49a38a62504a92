import Foundation
import Testing
@testable import MannaKit

/// The SQLite wrapper's own rules, each on a fresh database in its own temporary directory.
@Suite struct SQLiteTests {
    /// A temporary directory for one test, removed by `remove()`.
    struct Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("manna-sqlite-\(UUID().uuidString)")

        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }

        /// A new connection to `name` in the folder, created when missing.
        func database(_ name: String = "test.sqlite") throws -> Database {
            try Database(path: url.appendingPathComponent(name).path, mode: .readWriteCreate)
        }

        func remove() { try? FileManager.default.removeItem(at: url) }
    }

    @Test func resetReportsTheErrorOfTheStepThatFailed() throws {
        let folder = try Folder()
        defer { folder.remove() }
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
        let folder = try Folder()
        defer { folder.remove() }
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
        let folder = try Folder()
        defer { folder.remove() }
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
        let folder = try Folder()
        defer { folder.remove() }
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
    }

    /// An unknown column name throws (SQLITE_MISUSE) rather than traps: a mistyped name in a
    /// command's query must not crash the command line.
    @Test func anUnknownColumnNameIsAnError() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let database = try folder.database()
        let select = try database.prepare("SELECT 'Ruth' AS name, 30 AS age")
        #expect(try select.step())
        for name in ["title", "Name"] {
            let error = try #require(throws: SQLiteError.self) { try select.string(name) }
            #expect(error.code == 21)
            #expect(error.message == "no column named '\(name)' (the columns are name, age)")
        }
    }
}
