// A thin, checked wrapper over the SQLite C API: the only file that talks to SQLite.
// Every return code is checked where the call is made; statements finalize in deinit.
#if canImport(Glibc)
import Glibc
#endif
import CSQLite

/// A failed SQLite call, with the result code, SQLite's message and the SQL being run.
///
/// The message is for logs and tests; the command layer shows users a plain sentence instead.
public struct SQLiteError: Error, CustomStringConvertible {
    public let code: Int32
    public let message: String
    public let sql: String?

    public var description: String {
        "SQLite error \(code): \(message)" + (sql.map { " - while executing `\($0)`" } ?? "")
    }

    /// True when the file is not a database or is damaged (SQLITE_CORRUPT, SQLITE_NOTADB).
    public var isCorruption: Bool { code & 0xff == SQLITE_CORRUPT || code & 0xff == SQLITE_NOTADB }

    /// True when another connection held a lock this call needed (SQLITE_BUSY).
    public var isBusy: Bool { code & 0xff == SQLITE_BUSY }

    /// True when the connection or its file cannot be written (SQLITE_READONLY).
    public var isReadOnly: Bool { code & 0xff == SQLITE_READONLY }
}

// SQLITE_TRANSIENT is a macro cast Swift cannot import: SQLite copies the bound bytes.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// The sqlite3 handle of one connection, closed when nothing holds it: neither its `Database`
/// nor any `Statement` (each keeps it). So a statement never outlives its connection, and the
/// statements a `Database` caches are no reference cycle.
private final class Connection {
    let handle: OpaquePointer

    init(_ handle: OpaquePointer) { self.handle = handle }

    // Every statement was finalized before this (each held the connection), so SQLite closes
    // now, and in WAL mode checkpoints the log into the file as the last connection closes.
    deinit { sqlite3_close_v2(handle) }

    func error(_ rc: Int32, sql: String?) -> SQLiteError {
        SQLiteError(code: rc, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }
}

/// One SQLite connection.
public final class Database {
    public enum Mode {
        /// Read-only on a file that nothing changes while it is open (`immutable=1`): no locks, no journal.
        case immutable
        /// Read-only on a file that others may write: locks and the WAL as usual.
        case readOnly
        case readWrite
        case readWriteCreate
    }

    private let connection: Connection
    private var handle: OpaquePointer { connection.handle }
    /// The statements `withCachedStatement` prepared, found by their SQL. A connection keeps a
    /// few, so an array searched in order costs less than hashing (and on the command line,
    /// less than a static binary's first use of another Dictionary type).
    private var cache: [Statement] = []

    public init(path: String, mode: Mode) throws(SQLiteError) {
        var db: OpaquePointer?
        let flags: Int32
        let name: String
        switch mode {
        case .immutable:
            flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
            name = "file:" + Database.uriEscaped(path) + "?immutable=1"
        case .readOnly:
            flags = SQLITE_OPEN_READONLY
            name = path
        case .readWrite:
            flags = SQLITE_OPEN_READWRITE
            name = path
        case .readWriteCreate:
            flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
            name = path
        }
        // SQLite opens what it is given and waits on a FIFO for ever: what is there must be a
        // regular file, by the rule every reader follows (Files.openForReading).
        var info = stat()
        if stat(path, &info) == 0 && info.st_mode & S_IFMT != S_IFREG {
            throw SQLiteError(code: SQLITE_CANTOPEN, message: Files.notRegular, sql: nil)
        }
        let rc = sqlite3_open_v2(name, &db, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(db)
            throw SQLiteError(code: rc, message: message, sql: nil)
        }
        connection = Connection(db)
        sqlite3_extended_result_codes(db, 1)
    }

    /// Percent-escapes the characters that would end or change a `file:` URI path.
    private static func uriEscaped(_ path: String) -> String {
        var out = ""
        for scalar in path.unicodeScalars {
            switch scalar {
            case "%", "?", "#": out += "%" + String(scalar.value, radix: 16, uppercase: true)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Attaches the database file at `path` as schema `name`; read-only and immutable when
    /// this connection is (`Mode.immutable`). SQLite parses its schema then, not before.
    public func attach(_ path: String, as name: String, immutable: Bool) throws(SQLiteError) {
        let statement = try prepare("ATTACH DATABASE ?1 AS \(name)")
        try statement.bind(immutable ? "file:" + Database.uriEscaped(path) + "?immutable=1" : path, at: 1)
        try statement.run()
    }

    /// Runs one or more statements that return no rows.
    public func execute(_ sql: String) throws(SQLiteError) {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if rc != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(errorMessage)
            throw SQLiteError(code: rc, message: message, sql: sql)
        }
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// Prepares one statement (more than one is an error: run several with `execute`).
    ///
    /// For a statement run once. One run again and again belongs in `withCachedStatement`.
    public func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        try Statement(connection: connection, sql: sql)
    }

    /// Runs `body` with this connection's statement for `sql`: prepared the first time, kept,
    /// and handed out again afterwards, for the statements every tick or passage runs.
    ///
    /// The statement comes rewound with nothing bound, and is reset when `body` returns or
    /// throws: a statement left mid-iteration would hold its read transaction open (in WAL
    /// mode a reader's snapshot keeps checkpoints from finishing), and a later run would
    /// find stale bindings. If `body` asks for the same SQL again while it has the statement,
    /// that nested call gets a statement of its own. `body` must not keep the statement.
    ///
    /// ```swift
    /// let claimed = try database.withCachedStatement("SELECT 1 FROM deliveries WHERE key = ?1") { statement in
    ///     try statement.bind(key, at: 1)
    ///     return try statement.step()
    /// }
    /// ```
    ///
    /// - Throws: `SQLiteError` when the statement cannot be prepared or reset; what `body` throws.
    public func withCachedStatement<T>(_ sql: String, _ body: (Statement) throws -> T) throws -> T {
        let statement: Statement
        switch cache.first(where: { $0.sql == sql }) {
        case let cached? where !cached.isLent:
            statement = cached
        case .some:
            // Nested use: a statement of its own, finalized when done.
            statement = try prepare(sql)
        case nil:
            statement = try prepare(sql)
            cache.append(statement)
        }
        statement.isLent = true
        defer { statement.isLent = false }
        let result: T
        do {
            result = try body(statement)
        } catch {
            // The error being thrown wins: the reset's code can only repeat a step's error, and
            // the statement is rewound all the same.
            try? statement.reset()
            throw error
        }
        try statement.reset()
        return result
    }

    /// Adds an FTS5 ranking function `name(table)` to this connection: for each matching row,
    /// SQL gets `score(rowid, hits)`, where `hits[p]` counts the instances of the query's
    /// phrase `p` in that row (phrases numbered left to right in the MATCH expression).
    ///
    /// Unlike the built-in bm25 it never asks FTS5 for a row's length: that costs a B-tree
    /// lookup a row, most of a ranked search for a word in 24,000 verses. `score` brings its own.
    /// The `hits` buffer is lent for the call only.
    public func addRankFunction(_ name: String, score: @escaping (_ rowid: Int, _ hits: UnsafeBufferPointer<Int>) -> Double) throws(SQLiteError) {
        let api = try fts5()
        guard let create = api.pointee.xCreateFunction else { throw SQLiteError.noFTS5 }
        let box = Unmanaged.passRetained(RankFunction(score)).toOpaque()
        let created = create(api, name, box, { extensionAPI, context, result, _, _ in
            guard let api = extensionAPI?.pointee, let userData = api.xUserData?(context) else { return }
            let function = Unmanaged<RankFunction>.fromOpaque(userData).takeUnretainedValue()
            sqlite3_result_double(result, function.score(api, context))
        }, { box in box.map { Unmanaged<RankFunction>.fromOpaque($0).release() } })
        guard created == SQLITE_OK else {
            Unmanaged<RankFunction>.fromOpaque(box).release()
            throw connection.error(created, sql: nil)
        }
    }

    /// FTS5's own tokenizer `name`, made with `arguments` as a table's `tokenize` option
    /// gives them: what the index makes of text, for text outside the index.
    public func tokenizer(_ name: String, arguments: [String]) throws(SQLiteError) -> FTS5Tokenizer {
        let api = try fts5()
        var userData: UnsafeMutableRawPointer?
        var methods = fts5_tokenizer()
        guard let find = api.pointee.xFindTokenizer else { throw SQLiteError.noFTS5 }
        let found = find(api, name, &userData, &methods)
        guard found == SQLITE_OK, let create = methods.xCreate else { throw connection.error(found, sql: nil) }
        var instance: OpaquePointer?
        var cArguments = arguments.map { strdup($0) }
        defer { for argument in cArguments { free(argument) } }
        let created = cArguments.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { create(userData, $0.baseAddress, Int32($0.count), &instance) }
        }
        guard created == SQLITE_OK, let instance else { throw connection.error(created, sql: nil) }
        return FTS5Tokenizer(methods: methods, instance: instance)
    }

    /// The connection's `fts5_api`, which registers functions and lends tokenizers.
    private func fts5() throws(SQLiteError) -> UnsafeMutablePointer<fts5_api> {
        var api: UnsafeMutablePointer<fts5_api>?
        let statement = try prepare("SELECT fts5(?1)")
        let rc = withUnsafeMutablePointer(to: &api) { pointer in
            sqlite3_bind_pointer(statement.handle, 1, pointer, "fts5_api_ptr", nil)
        }
        guard rc == SQLITE_OK else { throw connection.error(rc, sql: statement.sql) }
        statement.markBound(1)
        _ = try statement.step()
        guard let api else { throw SQLiteError.noFTS5 }
        return api
    }

    /// Runs `body` in one read transaction: what it reads is one moment's data, and nothing is
    /// locked for writing (so nothing is made on disk for a reader of a WAL database opened
    /// immutable).
    public func readTransaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN DEFERRED")
        defer { try? execute("COMMIT") }
        return try body()
    }

    /// Runs `body` in one transaction: committed if it returns, rolled back if it throws.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }
}

/// A prepared statement. Bind with 1-based indexes, step, read columns by name or by 0-based index.
///
/// Every parameter must be bound (NULL too: `bindNull`) between a reset and the first step:
/// SQLite would quietly run a forgotten one as NULL, so `step()` throws instead.
public final class Statement {
    fileprivate let handle: OpaquePointer
    private let connection: Connection
    public let sql: String
    /// True while `Database.withCachedStatement` has lent the statement out: a nested request
    /// for its SQL must not get it too.
    fileprivate var isLent = false
    /// Which parameters were bound since the last reset, at index - 1. There are
    /// `sqlite3_bind_parameter_count` of them: the largest index, so `?3` alone makes three.
    private var bound: [Bool]
    /// How many of `bound` are true: `step()` compares it, so a step costs no search.
    private var boundCount = 0
    /// The name of each column, read from SQLite at the first lookup by name and kept for
    /// every row after. Searched in order: for a handful of short names that costs less than
    /// hashing, and of two columns with one name the leftmost wins (as in GRDB). SQLite gives
    /// no name only when out of memory; "" stands for it, a name no lookup asks for.
    private lazy var columnNames: [String] = (0..<sqlite3_column_count(handle)).map { column in
        sqlite3_column_name(handle, column).map { String(cString: $0) } ?? ""
    }

    /// Prepares the one statement `sql` holds.
    ///
    /// - Throws: SQLite's error, or SQLITE_MISUSE when `sql` holds no statement or more than
    ///   one: SQLite prepares only the first, and would silently drop the rest.
    fileprivate init(connection: Connection, sql: String) throws(SQLiteError) {
        var statement: OpaquePointer?
        var onlyOne = true
        let rc = sql.withCString { text in
            var tail: UnsafePointer<CChar>?
            let rc = sqlite3_prepare_v2(connection.handle, text, -1, &statement, &tail)
            if rc == SQLITE_OK, let tail { onlyOne = Statement.runsNothing(tail) }
            return rc
        }
        guard rc == SQLITE_OK else { throw connection.error(rc, sql: sql) }
        guard let statement else {
            throw SQLiteError(code: SQLITE_MISUSE, message: "no statement to prepare", sql: sql)
        }
        guard onlyOne else {
            // Never stepped, so finalizing has no error to report.
            sqlite3_finalize(statement)
            throw SQLiteError(code: SQLITE_MISUSE, message: "more than one statement: prepare takes one, execute runs several", sql: sql)
        }
        self.handle = statement
        self.connection = connection
        self.sql = sql
        bound = Array(repeating: false, count: Int(sqlite3_bind_parameter_count(statement)))
    }

    deinit { sqlite3_finalize(handle) }

    /// True when `tail` (what follows a prepared statement) holds nothing SQLite would run:
    /// white space, `--` and `/* */` comments, and semicolons (empty statements).
    private static func runsNothing(_ tail: UnsafePointer<CChar>) -> Bool {
        var at = UnsafeRawPointer(tail).assumingMemoryBound(to: UInt8.self)
        // Reading at[1] is safe wherever at[0] is not the terminating NUL.
        while true {
            switch at[0] {
            case 0:
                return true
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), 0x0C, UInt8(ascii: "\r"), UInt8(ascii: ";"):
                at += 1
            case UInt8(ascii: "-") where at[1] == UInt8(ascii: "-"):
                while at[0] != 0 && at[0] != UInt8(ascii: "\n") { at += 1 }
            case UInt8(ascii: "/") where at[1] == UInt8(ascii: "*"):
                // An unterminated comment runs to the end, as SQLite reads it.
                at += 2
                while at[0] != 0 && !(at[0] == UInt8(ascii: "*") && at[1] == UInt8(ascii: "/")) { at += 1 }
                if at[0] != 0 { at += 2 }
            default:
                return false
            }
        }
    }

    /// Rewinds and clears the bindings, so the statement can run again.
    ///
    /// - Throws: the error of the last `step()`, which SQLite reports again here (the statement
    ///   is rewound all the same), so a failure a caller ignored is not lost.
    public func reset() throws(SQLiteError) {
        let rc = sqlite3_reset(handle)
        if boundCount > 0 {
            for index in bound.indices { bound[index] = false }
            boundCount = 0
        }
        try check(sqlite3_clear_bindings(handle))
        try check(rc)
    }

    /// Binds all of `value`, by its length in bytes: a NUL inside it is kept, never the end
    /// of what is stored (with -1, SQLite would have cut the text there without a word).
    public func bind(_ value: String, at index: Int32) throws(SQLiteError) {
        let length = Int32(value.utf8.count)
        try check(value.withCString { sqlite3_bind_text(handle, index, $0, length, transient) }, bound: index)
    }

    public func bind(_ value: Int, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_int64(handle, index, Int64(value)), bound: index)
    }

    /// Binds the bytes as a BLOB.
    public func bind(_ value: [UInt8], at index: Int32) throws(SQLiteError) {
        try check(value.withUnsafeBytes { sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), transient) }, bound: index)
    }

    /// Counts parameter `index` as bound by a call made outside this class (a pointer binding).
    fileprivate func markBound(_ index: Int32) {
        if !bound[Int(index) - 1] {
            bound[Int(index) - 1] = true
            boundCount += 1
        }
    }

    /// Binds NULL: a parameter bound as NULL on purpose, which counts as bound.
    public func bindNull(at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_null(handle, index), bound: index)
    }

    /// Binds the text, or NULL for nil.
    public func bind(_ value: String?, at index: Int32) throws(SQLiteError) {
        if let value { try bind(value, at: index) } else { try bindNull(at: index) }
    }

    /// Advances to the next row: true while there is one.
    ///
    /// - Throws: SQLite's error, or SQLITE_MISUSE naming the first parameter not bound since
    ///   the last reset.
    public func step() throws(SQLiteError) -> Bool {
        if boundCount < bound.count { throw unboundParameter() }
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.error(rc, sql: sql)
        }
    }

    /// Steps to completion, for statements that return no rows.
    public func run() throws(SQLiteError) {
        while try step() {}
    }

    public func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }

    public func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    public func string(_ column: Int32) -> String {
        guard let text = sqlite3_column_text(handle, column) else { return "" }
        // By its length, as SQLite holds it: no second pass to find its end (a list of a million
        // notes makes a million strings), and a NUL inside does not cut it short.
        return String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(handle, column))), as: UTF8.self)
    }

    /// The bytes of a BLOB (or of text): empty for NULL.
    public func bytes(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let start = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: start, count: count))
    }

    public func optionalInt(_ column: Int32) -> Int? {
        sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : int(column)
    }

    public func optionalString(_ column: Int32) -> String? {
        sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : string(column)
    }

    /// The integer in the column called `name`, as the SELECT names it (`uuid` for `r.uuid`,
    /// `n` for `count(*) AS n`; matched exactly): 0 for NULL.
    ///
    /// - Throws: SQLITE_MISUSE when there is no such column. A programmer's error, but thrown
    ///   rather than trapped: the command line never crashes.
    public func int(_ name: String) throws(SQLiteError) -> Int { int(try column(named: name)) }

    /// The text in the column called `name`: "" for NULL.
    public func string(_ name: String) throws(SQLiteError) -> String { string(try column(named: name)) }

    /// The integer in the column called `name`, or nil for NULL.
    public func optionalInt(_ name: String) throws(SQLiteError) -> Int? { optionalInt(try column(named: name)) }

    /// The text in the column called `name`, or nil for NULL.
    public func optionalString(_ name: String) throws(SQLiteError) -> String? { optionalString(try column(named: name)) }

    /// The index of the column called `name`.
    private func column(named name: String) throws(SQLiteError) -> Int32 {
        // Lengths first: most names differ in length, and comparing two is cheaper than comparing the strings.
        let length = name.utf8.count
        if let index = columnNames.firstIndex(where: { $0.utf8.count == length && $0 == name }) { return Int32(index) }
        let names = columnNames.filter { !$0.isEmpty }
        let columns = names.isEmpty ? "the statement returns none" : "the columns are " + names.joined(separator: ", ")
        throw SQLiteError(code: SQLITE_MISUSE, message: "no column named '\(name)' (\(columns))", sql: sql)
    }

    private func check(_ rc: Int32) throws(SQLiteError) {
        if rc != SQLITE_OK { throw connection.error(rc, sql: sql) }
    }

    /// Checks a bind's code, then counts parameter `index` as bound (SQLite refused any index
    /// out of range with SQLITE_RANGE).
    private func check(_ rc: Int32, bound index: Int32) throws(SQLiteError) {
        try check(rc)
        markBound(index)
    }

    /// The error for the first parameter not bound since the last reset: "parameter 2 is not
    /// bound", with its name when it has one (":title").
    private func unboundParameter() -> SQLiteError {
        let index = Int32((bound.firstIndex(of: false) ?? 0) + 1)
        let name = sqlite3_bind_parameter_name(handle, index).map { String(cString: $0) }
        let named = name.map { $0 == "?\(index)" ? "" : " (\($0))" } ?? ""
        return SQLiteError(code: SQLITE_MISUSE, message: "parameter \(index)\(named) is not bound", sql: sql)
    }
}

extension SQLiteError {
    static let noFTS5 = SQLiteError(code: SQLITE_ERROR, message: "this SQLite has no FTS5", sql: nil)
}

/// One of FTS5's tokenizers, made by `Database.tokenizer`; deleted with this object.
public final class FTS5Tokenizer {
    /// A token as the index keeps it (folded: lowercase, without diacritics for unicode61) and
    /// the bytes of the text it came from.
    public struct Token: Equatable {
        public let text: String
        public let bytes: Range<Int>
    }

    private let methods: fts5_tokenizer
    private let instance: OpaquePointer

    fileprivate init(methods: fts5_tokenizer, instance: OpaquePointer) {
        self.methods = methods
        self.instance = instance
    }

    deinit { methods.xDelete?(instance) }

    /// The tokens of `text`, in order.
    public func tokens(of text: String) -> [Token] {
        var tokens: [Token] = []
        var text = text
        text.withUTF8 { utf8 in
            withUnsafeMutablePointer(to: &tokens) { collected in
                _ = utf8.withMemoryRebound(to: CChar.self) { bytes in
                    methods.xTokenize?(instance, collected, FTS5_TOKENIZE_DOCUMENT, bytes.baseAddress, Int32(bytes.count)) { context, _, token, length, start, end in
                        guard let context, let token else { return SQLITE_OK }
                        let text = String(decoding: UnsafeRawBufferPointer(start: token, count: Int(length)), as: UTF8.self)
                        context.assumingMemoryBound(to: [Token].self).pointee.append(Token(text: text, bytes: Int(start)..<Int(end)))
                        return SQLITE_OK
                    }
                }
            }
        }
        return tokens
    }
}

/// What `Database.addRankFunction` registers: the caller's score, and a buffer for the
/// phrase counts that every row reuses.
private final class RankFunction {
    let body: (Int, UnsafeBufferPointer<Int>) -> Double
    var hits: [Int] = []

    init(_ body: @escaping (Int, UnsafeBufferPointer<Int>) -> Double) { self.body = body }

    /// Counts each phrase's instances in the current row by walking its position list
    /// (xPhraseFirst/Next: no merged instance array is built), then scores the row.
    func score(_ api: Fts5ExtensionApi, _ context: OpaquePointer?) -> Double {
        let phrases = Int(api.xPhraseCount(context))
        if hits.count != phrases { hits = Array(repeating: 0, count: phrases) }
        var iterator = Fts5PhraseIter()
        var column: Int32 = 0
        var offset: Int32 = 0
        for phrase in 0..<phrases {
            var count = 0
            if api.xPhraseFirst(context, Int32(phrase), &iterator, &column, &offset) == SQLITE_OK {
                while column >= 0 {
                    count += 1
                    api.xPhraseNext(context, &iterator, &column, &offset)
                }
            }
            hits[phrase] = count
        }
        let rowid = Int(api.xRowid(context))
        return hits.withUnsafeBufferPointer { body(rowid, $0) }
    }
}

/// What SQLite did to run a statement once, from its counters (`sqlite3_stmt_status`): the
/// measure by which tests keep a command's queries from reading what it does not print.
public struct StatementCost: Equatable, Sendable {
    /// The statement as prepared.
    public let sql: String
    /// Virtual machine steps: every row a statement visits costs some, returned or not, while
    /// the depth of an index it searches costs none.
    public let steps: Int
    /// Rows stepped through by full scans of a table or an index.
    public let scanned: Int
}

extension Database {
    /// Runs `body` and returns, with its result, what each statement cost that ran (to its end,
    /// or reset or finalized before) on a connection to the file at `path` opened meanwhile: a
    /// command run in-process opens its own. For tests; nothing else records.
    public static func costs<T>(ofConnectionsTo path: String, during body: () throws -> T) rethrows -> (result: T, costs: [StatementCost]) {
        let recorder = CostRecorder()
        // SQLite names a connection's file by its full path, links resolved.
        let name = realpath(path, nil).map { resolved in
            defer { free(resolved) }
            return String(cString: resolved)
        } ?? path
        costRecording.withLock {
            // Registered once, for every connection the process opens from then on; it records
            // only those to a file being watched.
            if recorders.isEmpty && !costHookRegistered {
                sqlite3_auto_extension(unsafeBitCast(recordCostsOnOpen, to: (@convention(c) () -> Void).self))
                costHookRegistered = true
            }
            recorders[name] = recorder
        }
        defer { _ = costRecording.withLock { recorders.removeValue(forKey: name) } }
        let result = try body()
        return (result, recorder.costs)
    }
}

/// The costs recorded for one watched file, from any of its connections.
private final class CostRecorder: @unchecked Sendable {
    private let lock = Lock()
    private var recorded: [StatementCost] = []
    var costs: [StatementCost] { lock.withLock { recorded } }
    func add(_ cost: StatementCost) { lock.withLock { recorded.append(cost) } }
}

private let costRecording = Lock()
nonisolated(unsafe) private var recorders: [String: CostRecorder] = [:]
nonisolated(unsafe) private var costHookRegistered = false

/// SQLite's auto-extension entry point, run as each connection opens: a connection to a file
/// being watched reports each statement's counters as the statement finishes (and resets them),
/// and lets go of its recorder as it closes.
private let recordCostsOnOpen: @convention(c) (OpaquePointer?, UnsafeMutablePointer<UnsafePointer<CChar>?>?, UnsafeRawPointer?) -> Int32 = { db, _, _ in
    guard let db, let file = sqlite3_db_filename(db, "main") else { return SQLITE_OK }
    let name = String(cString: file)
    guard let recorder = costRecording.withLock({ recorders[name] }) else { return SQLITE_OK }
    let events = UInt32(SQLITE_TRACE_PROFILE | SQLITE_TRACE_CLOSE)
    return sqlite3_trace_v2(db, events, { event, context, subject, _ in
        guard let context else { return 0 }
        let recorder = Unmanaged<CostRecorder>.fromOpaque(context)
        if event == UInt32(SQLITE_TRACE_CLOSE) {
            recorder.release()
        } else if let subject {
            let statement = OpaquePointer(subject)
            let sql = sqlite3_sql(statement).map { String(cString: $0) } ?? ""
            let steps = Int(sqlite3_stmt_status(statement, SQLITE_STMTSTATUS_VM_STEP, 1))
            let scanned = Int(sqlite3_stmt_status(statement, SQLITE_STMTSTATUS_FULLSCAN_STEP, 1))
            recorder.takeUnretainedValue().add(StatementCost(sql: sql, steps: steps, scanned: scanned))
        }
        return 0
    }, Unmanaged.passRetained(recorder).toOpaque())
}
