// One device's changes, as a file in the sync folder (docs/sync.md): a header line, then one
// change per line. A segment is written once (temporary file, fsync, rename) and never changed;
// its header's checksum covers every line after it, so a file cut short or half-arrived is
// told from a whole one.

/// A version of one field: the hybrid logical time it was written at, and by which device.
/// Versions are totally ordered, time first: the greater wins.
public struct SyncVersion: Comparable, Hashable, Sendable {
    public let time: Int
    public let device: String

    public init(time: Int, device: String) {
        self.time = time
        self.device = device
    }

    public static func < (lhs: SyncVersion, rhs: SyncVersion) -> Bool {
        lhs.time != rhs.time ? lhs.time < rhs.time : Array(lhs.device.utf8).lexicographicallyPrecedes(Array(rhs.device.utf8))
    }
}

/// Hybrid logical time: milliseconds since 1970 in the high bits, a counter in the low 10. A
/// device's next time is after both its wall clock and every time it has seen, so an edit made
/// after seeing another is later than it whatever the wall clocks say (Actual Budget's clock).
/// Ten bits keep a time below 2^53, exact as a JSON number until the year 2248; a burst of more
/// than 1,024 changes in a millisecond moves the time on by a millisecond, which only a
/// clock's reading would notice.
public enum HybridTime {
    static let counterBits = 10

    /// The time after `last` (the greatest this device has written or seen) at `wall` (Unix seconds).
    public static func next(after last: Int, wall: Instant) -> Int {
        max(last + 1, wall * 1000 << counterBits)
    }

    /// The Unix second a time was written at (by its writer's clock).
    public static func instant(_ time: Int) -> Instant { (time >> counterBits) / 1000 }
}

/// One field of one record set to a value: a record's creation is all its fields, a deletion
/// its `deleted_at` (or, for a record deleted outright, the field `_deleted` set to 1).
public struct SyncChange: Equatable, Sendable {
    public let table: String
    /// The record: its uuid, or its identity fields joined (a day read: run uuid and day).
    public let key: String
    public let field: String
    let value: Cell
    public let time: Int
    /// For text (a note's, a prayer's): the version this edit replaced, so that two edits of
    /// the same text made apart are both kept (the later wins, the other becomes a copy).
    public let base: SyncVersion?
    /// For text: the record as the editing device had it, from which a conflict copy is made.
    let context: [(String, Cell)]?
    /// The version's device, where it is not the segment's writer: a conflict copy carries the
    /// version of the text it keeps, so every device that makes the same copy makes the same versions.
    public let device: String?

    init(table: String, key: String, field: String, value: Cell, time: Int, base: SyncVersion? = nil, context: [(String, Cell)]? = nil,
         device: String? = nil) {
        self.device = device
        self.table = table
        self.key = key
        self.field = field
        self.value = value
        self.time = time
        self.base = base
        self.context = context
    }

    public static func == (lhs: SyncChange, rhs: SyncChange) -> Bool {
        lhs.table == rhs.table && lhs.key == rhs.key && lhs.field == rhs.field && lhs.value == rhs.value && lhs.time == rhs.time
            && lhs.base == rhs.base && lhs.device == rhs.device && lhs.context?.map(\.0) == rhs.context?.map(\.0) && lhs.context?.map(\.1) == rhs.context?.map(\.1)
    }

    var json: JSON {
        var fields: [(String, JSON)] = [("t", .string(table)), ("k", .string(key)), ("f", .string(field)), ("v", value.json), ("h", .int(time))]
        if let base { fields.append(("b", .array([.int(base.time), .string(base.device)]))) }
        if let context { fields.append(("c", .object(context.map { ($0.0, $0.1.json) }))) }
        if let device { fields.append(("d", .string(device))) }
        return .object(fields)
    }

    init?(json: JSON) {
        guard let table = json["t"]?.stringValue, let key = json["k"]?.stringValue, let field = json["f"]?.stringValue,
              let value = json["v"].flatMap(Cell.init(json:)), let time = json["h"]?.intValue else { return nil }
        var base: SyncVersion?
        if let pair = json["b"] {
            guard let items = pair.arrayValue, items.count == 2, let time = items[0].intValue, let device = items[1].stringValue else { return nil }
            base = SyncVersion(time: time, device: device)
        }
        var context: [(String, Cell)]?
        if let object = json["c"] {
            guard case .object(let pairs) = object else { return nil }
            context = []
            for (name, item) in pairs {
                guard let cell = Cell(json: item) else { return nil }
                context!.append((name, cell))
            }
        }
        if json["d"] != nil && json["d"]?.stringValue == nil { return nil }
        self.init(table: table, key: key, field: field, value: value, time: time, base: base, context: context, device: json["d"]?.stringValue)
    }
}

extension Cell {
    var json: JSON {
        switch self {
        case .null: .null
        case .int(let value): .int(value)
        case .text(let value): .string(value)
        }
    }

    init?(json: JSON) {
        switch json {
        case .null: self = .null
        case .string(let text): self = .text(text)
        default:
            guard let value = json.intValue else { return nil }
            self = .int(value)
        }
    }
}

/// A segment: who wrote it, its number in that device's sequence, and its changes.
public struct SyncSegment: Equatable, Sendable {
    public static let format = "manna-sync"
    public static let version = 1

    public let device: String
    /// The device's name, for people ("laptop").
    public let name: String
    public let sequence: Int
    /// The journal schema the writer had: a reader with an older one waits for an update.
    public let schema: Int
    /// What the writer had applied of each other device: a reader applies this segment only
    /// after those, so an edit never arrives before the version it replaced.
    public let after: [String: Int]
    public let changes: [SyncChange]

    public init(device: String, name: String, sequence: Int, schema: Int, after: [String: Int], changes: [SyncChange]) {
        self.device = device
        self.name = name
        self.sequence = sequence
        self.schema = schema
        self.after = after
        self.changes = changes
    }

    /// The file's name in its device's folder: `0000000012.jsonl`.
    public static func fileName(_ sequence: Int) -> String {
        let digits = String(sequence)
        return String(repeating: "0", count: max(0, 10 - digits.count)) + digits + ".jsonl"
    }

    /// The sequence number a segment's file name holds, or nil for any other name.
    public static func sequence(ofFileName name: String) -> Int? {
        let bytes = Array(name.utf8)
        guard bytes.count == 16, name.hasSuffix(".jsonl"), bytes[..<10].allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(name.prefix(10))
    }

    /// The file's bytes: the header line, then a line per change.
    public var text: String {
        let body = changes.map { $0.json.text + "\n" }.joined()
        var digest = SHA256()
        digest.update(Array(body.utf8))
        let header: JSON = .object([
            ("format", .string(SyncSegment.format)), ("version", .int(SyncSegment.version)), ("device", .string(device)),
            ("name", .string(name)), ("sequence", .int(sequence)), ("schema", .int(schema)),
            ("after", .object(after.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })),
            ("changes", .int(changes.count)), ("sha256", .string(digest.hexDigest())),
        ])
        return header.text + "\n" + body
    }

    /// Why a file is not (yet) a segment to apply.
    public enum Problem: Error, Equatable, Sendable {
        /// Cut short, half-arrived or damaged: its checksum or count does not hold. Waited for.
        case incomplete(String)
        /// Written by a newer Manna: waited for until this one is updated.
        case newer(schema: Int)
        /// Not a segment at all.
        case garbage(String)

        public var message: String {
            switch self {
            case .incomplete(let why): "incomplete (\(why)): waiting for the rest"
            case .newer(let schema): "written by a newer Manna (journal schema \(schema)): update manna to apply it"
            case .garbage(let why): "not a Manna sync segment (\(why))"
            }
        }
    }

    /// A segment's first line: enough to know whose it is, how far it goes and what it
    /// follows, without reading (or checking) the changes after it.
    public struct Header: Equatable, Sendable {
        public let device: String
        public let name: String
        public let sequence: Int
        public let schema: Int
        public let after: [String: Int]
        let changes: Int
        let sha256: String

        /// Reads a header line. `schema` is this Manna's journal schema.
        public init(parsing line: String, schema: Int) throws(Problem) {
            let header: JSON
            do { header = try JSON(parsing: line) } catch { throw .garbage("its first line is not JSON") }
            guard header["format"]?.stringValue == SyncSegment.format else { throw .garbage("no \"format\": \"manna-sync\"") }
            guard let version = header["version"]?.intValue, let device = header["device"]?.stringValue,
                  let name = header["name"]?.stringValue, let sequence = header["sequence"]?.intValue, sequence >= 1,
                  let writerSchema = header["schema"]?.intValue, let count = header["changes"]?.intValue,
                  let sha = header["sha256"]?.stringValue, case .object(let afterPairs)? = header["after"] else {
                throw .garbage("a header without its fields")
            }
            guard version <= SyncSegment.version, writerSchema <= schema else { throw .newer(schema: writerSchema) }
            var after: [String: Int] = [:]
            for (other, value) in afterPairs {
                guard let applied = value.intValue else { throw .garbage("a header without its fields") }
                after[other] = applied
            }
            (self.device, self.name, self.sequence, self.schema, self.after, self.changes, self.sha256) = (device, name, sequence, writerSchema, after, count, sha)
        }
    }

    /// Reads a segment's text, checking it whole. `schema` is this Manna's journal schema.
    public init(parsing text: String, schema: Int) throws(Problem) {
        guard let newline = text.firstIndex(of: "\n") else { throw .incomplete("no header line") }
        let header = try Header(parsing: String(text[..<newline]), schema: schema)
        let body = text[text.index(after: newline)...]
        var digest = SHA256()
        digest.update(Array(body.utf8))
        guard digest.hexDigest() == header.sha256 else { throw .incomplete("its checksum does not match") }
        var changes: [SyncChange] = []
        for line in body.split(separator: "\n") {
            guard let json = try? JSON(parsing: String(line)), let change = SyncChange(json: json) else { throw .garbage("a change that cannot be read") }
            changes.append(change)
        }
        guard changes.count == header.changes else { throw .incomplete("\(changes.count) of \(header.changes) changes") }
        self.init(device: header.device, name: header.name, sequence: header.sequence, schema: header.schema, after: header.after, changes: changes)
    }
}
