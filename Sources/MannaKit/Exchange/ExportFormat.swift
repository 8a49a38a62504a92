// The export format (docs/export-format.md): every table of the user's data, each field's JSON
// form and how it is checked on the way back in. One description serves export, validation and
// merge, so a field cannot be written one way and read another.

/// A value as SQLite stores it.
enum Cell: Hashable, Comparable, Sendable {
    case null
    case int(Int)
    case text(String)

    var int: Int? { if case .int(let value) = self { return value } else { return nil } }
    var text: String? { if case .text(let value) = self { return value } else { return nil } }

    static func < (lhs: Cell, rhs: Cell) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return false
        case (.null, _): return true
        case (_, .null): return false
        case (.int(let a), .int(let b)): return a < b
        case (.int, .text): return true
        case (.text, .int): return false
        case (.text(let a), .text(let b)): return Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
        }
    }
}

/// What a field holds, and so how it is written to JSON and checked when read.
enum FieldKind: Sendable {
    /// A lowercase version-4-style UUID.
    case uuid
    /// What users type: 1 to 16 lowercase letters and digits.
    case shortID
    /// Any text up to `Journal.maxTextBytes`.
    case text
    case optionalText
    /// Unix seconds, written `2026-03-08T12:00:00Z`.
    case instant
    case optionalInstant
    /// A local date `2026-03-08`.
    case date
    /// A local time `07:30`, or null.
    case optionalTime
    /// A whole number from 1.
    case count
    /// A verse id of the canon (`43003016`).
    case verseID
    /// The canonical reference of a passage starting at the record's `verse_id`. Stored (a
    /// null column means the verse alone), or, when `stored` is false, written for people only
    /// and checked to be the one verse.
    case passage
    case color
    /// Stored `,a,b,`, written `["a", "b"]`; each tag as `manna pray --tag` makes it.
    case tags
    /// A prayer's title as `manna pray add` takes it: not empty, no space at either end.
    case title
    /// A reminder SPEC in the canonical form `manna pray --remind` stores.
    case spec
    case planID
    case translation
}

struct Field: Sendable {
    /// How sync merges a field two devices changed apart (docs/sync.md, "Merge rules").
    enum Merge: Sendable {
        /// The greatest version wins (its time, then its device).
        case latest
        /// Member by member (`SyncSet`): a tag added on one device and another removed on a
        /// second both hold.
        case set
        /// Words someone wrote: every version is kept with the one it replaced, and a text
        /// that loses a race becomes a conflict copy: never lost.
        case text
    }

    let name: String
    let kind: FieldKind
    /// False for a field written for readers but not kept in a column (a highlight's reference).
    let stored: Bool
    let merge: Merge

    /// A tags field merges as a set unless told otherwise; any other, the latest wins.
    init(name: String, kind: FieldKind, stored: Bool = true, merge: Merge? = nil) {
        (self.name, self.kind, self.stored) = (name, kind, stored)
        self.merge = merge ?? (kind == .tags ? .set : .latest)
    }

    /// Whether the field syncs as a set (`SyncSet`): a prayer's tags.
    var mergesAsSet: Bool { merge == .set }
}

/// One table of the export.
struct ExportTable: Sendable {
    enum Identity: Sendable {
        /// Records merge by `uuid`: the newest `updated_at` wins.
        case uuid
        /// Facts that never change, identified by these fields: added when missing.
        case natural([String])
    }

    let name: String
    /// What one record is called in messages: "note".
    let record: String
    let fields: [Field]
    let identity: Identity
    let order: String
    /// Another table every record must point into: (field, table).
    let parent: (field: String, table: String)?
    /// The fields kept in columns, in column order; computed once, as are the two below.
    let storedFields: [Field]
    /// The fields a record is known by: its uuid, or its natural key.
    let identityFields: [Field]
    /// The fields that sync one by one: every stored field but the identity.
    let syncFields: [Field]
    /// The names of those that merge as text (`Field.Merge.text`).
    let textFields: Set<String>

    init(name: String, record: String, fields: [Field], identity: Identity, order: String, parent: (field: String, table: String)? = nil) {
        (self.name, self.record, self.fields, self.identity, self.order, self.parent) = (name, record, fields, identity, order, parent)
        let stored = fields.filter(\.stored)
        let identityFields: [Field] = switch identity {
        case .uuid: stored.filter { $0.name == "uuid" }
        case .natural(let names): names.compactMap { name in stored.first { $0.name == name } }
        }
        (storedFields, self.identityFields) = (stored, identityFields)
        syncFields = stored.filter { field in !identityFields.contains { $0.name == field.name } }
        textFields = Set(syncFields.filter { $0.merge == .text }.map(\.name))
    }
    var columns: String { storedFields.map(\.name).joined(separator: ", ") }

    /// The position of a stored field among `storedFields`.
    func index(_ name: String) -> Int? { storedFields.firstIndex { $0.name == name } }

    static let all: [ExportTable] = [prayers, reminders, prayed, snoozes, planRuns, planDaysRead, notes, highlights, bookmarks, searches]
    static let byName = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    /// The triggers that, while the journal syncs, name each record written in this table in
    /// `sync_touched` (so a capture compares the records written since the last, not every
    /// record) and mark the state dirty: one for each of insert, update and delete, made from
    /// the table's name and identity. Any before by those names is replaced. (An upsert's DO
    /// NOTHING, not INSERT OR IGNORE: an upsert that fires the trigger overrides its OR clause,
    /// and the insert fails on a record already named. Not WHERE NOT EXISTS, as before migration
    /// 20: SQLite parses the triggers whenever the journal is opened, and the subqueries were
    /// two fifths of what syncing added to a tick.)
    ///
    /// They exist only while the journal syncs (`SyncEngine.start`, migration 19): SQLite parses
    /// every trigger whenever a journal is opened, and these were two thirds of what opening one
    /// cost. Migration 16's, in every journal then, each asked whether it synced
    /// (`checkingSyncState`).
    func captureTriggers(checkingSyncState: Bool = false) -> String {
        zip(captureTriggerNames, [("INSERT", "NEW"), ("UPDATE", "NEW"), ("DELETE", "OLD")]).map { trigger, event in
            let (event, row) = event
            let key = identityFields.map { "\(row).\($0.name)" }.joined(separator: " || char(31) || ")
            let when = checkingSyncState ? " WHEN EXISTS (SELECT 1 FROM sync_state)" : ""
            return """
                DROP TRIGGER IF EXISTS \(trigger);
                CREATE TRIGGER \(trigger) AFTER \(event) ON \(name)\(when)
                    BEGIN INSERT INTO sync_touched VALUES ('\(name)', \(key)) ON CONFLICT DO NOTHING; UPDATE sync_state SET dirty = 1; END;
                """
        }.joined(separator: "\n")
    }

    /// The names of `captureTriggers`: on insert, update and delete.
    var captureTriggerNames: [String] { ["insert", "update", "delete"].map { "sync_touch_\(name)_\($0)" } }

    private static let times = [Field(name: "created_at", kind: .instant), Field(name: "updated_at", kind: .instant),
                                Field(name: "deleted_at", kind: .optionalInstant)]

    static let prayers = ExportTable(
        name: "prayers", record: "prayer",
        fields: [Field(name: "uuid", kind: .uuid), Field(name: "short_id", kind: .shortID), Field(name: "title", kind: .title, merge: .text),
                 Field(name: "body", kind: .text, merge: .text), Field(name: "tags", kind: .tags), Field(name: "answered_at", kind: .optionalInstant),
                 Field(name: "answer_note", kind: .optionalText, merge: .text)] + times,
        identity: .uuid, order: "created_at, uuid")
    static let reminders = ExportTable(
        name: "reminders", record: "reminder",
        fields: [Field(name: "uuid", kind: .uuid), Field(name: "prayer_uuid", kind: .uuid), Field(name: "spec", kind: .spec)] + times,
        identity: .uuid, order: "created_at, uuid", parent: ("prayer_uuid", "prayers"))
    /// Each time a prayer was marked prayed: a fact that never changes, added when missing.
    static let prayed = ExportTable(
        name: "prayed", record: "prayed mark",
        fields: [Field(name: "uuid", kind: .uuid), Field(name: "prayer_uuid", kind: .uuid), Field(name: "prayed_at", kind: .instant)],
        identity: .natural(["uuid"]), order: "prayed_at, uuid", parent: ("prayer_uuid", "prayers"))
    /// A reminder snoozed to show again at `due_at`.
    static let snoozes = ExportTable(
        name: "snoozes", record: "snooze",
        fields: [Field(name: "uuid", kind: .uuid), Field(name: "prayer_uuid", kind: .uuid), Field(name: "due_at", kind: .instant),
                 Field(name: "created_at", kind: .instant)],
        identity: .natural(["uuid"]), order: "due_at, uuid", parent: ("prayer_uuid", "prayers"))
    static let planRuns = ExportTable(
        name: "plan_runs", record: "plan run",
        fields: [Field(name: "uuid", kind: .uuid), Field(name: "plan_id", kind: .planID), Field(name: "started_on", kind: .date),
                 Field(name: "schedule_start", kind: .date), Field(name: "remind_at", kind: .optionalTime),
                 Field(name: "stopped_at", kind: .optionalInstant)] + times,
        identity: .uuid, order: "created_at, uuid")
    static let planDaysRead = ExportTable(
        name: "plan_days_read", record: "day read",
        fields: [Field(name: "run_uuid", kind: .uuid), Field(name: "day", kind: .count), Field(name: "read_on", kind: .date),
                 Field(name: "created_at", kind: .instant)],
        identity: .natural(["run_uuid", "day"]), order: "run_uuid, day", parent: ("run_uuid", "plan_runs"))
    static let notes = ExportTable(
        name: "notes", record: "note",
        fields: [Field(name: "uuid", kind: .uuid), Field(name: "short_id", kind: .shortID), Field(name: "verse_id", kind: .verseID),
                 Field(name: "reference", kind: .passage), Field(name: "text", kind: .text, merge: .text)] + times,
        identity: .uuid, order: "created_at, uuid")
    static let highlights = ExportTable(
        name: "highlights", record: "highlight",
        fields: [Field(name: "uuid", kind: .uuid), Field(name: "short_id", kind: .shortID), Field(name: "verse_id", kind: .verseID),
                 Field(name: "reference", kind: .passage, stored: false), Field(name: "color", kind: .color)] + times,
        identity: .uuid, order: "created_at, uuid")
    static let bookmarks = ExportTable(
        name: "bookmarks", record: "bookmark",
        fields: [Field(name: "uuid", kind: .uuid), Field(name: "short_id", kind: .shortID), Field(name: "verse_id", kind: .verseID),
                 Field(name: "reference", kind: .passage)] + times,
        identity: .uuid, order: "created_at, uuid")
    static let searches = ExportTable(
        name: "searches", record: "search",
        fields: [Field(name: "query", kind: .text), Field(name: "translation", kind: .translation),
                 Field(name: "searched_at", kind: .instant)],
        identity: .natural(["query", "translation", "searched_at"]), order: "searched_at, query, translation")
}

/// The export document's name and version: a reader refuses a version it does not know.
enum ExportFormat {
    static let name = "manna-export"
    static let version = 1
    /// Larger files are refused before they are read: 50,000 notes take about 15 MB.
    static let maxFileBytes = 256 << 20

    /// `2026-03-08T12:00:00Z`.
    static func timestamp(_ instant: Instant) -> String {
        let days = instant >= 0 ? instant / 86_400 : -((-instant + 86_399) / 86_400)
        let seconds = instant - days * 86_400
        return "\(LocalDate(dayNumber: days))T" + pad(seconds / 3600, 2) + ":" + pad(seconds % 3600 / 60, 2) + ":" + pad(seconds % 60, 2) + "Z"
    }

    static func instant(_ text: String) -> Instant? {
        guard text.utf8.count == 20, text.hasSuffix("Z"), let instant = Moment.parse(text, zone: .utc),
              timestamp(instant) == text else { return nil }
        return instant
    }

    /// A field's JSON form. `row` holds the record's stored cells, for fields derived from others.
    static func json(_ field: Field, cell: Cell, row: [Cell], table: ExportTable) -> JSON {
        guard field.kind == .passage else { return json(field.kind, cell) }
        let verse = table.index("verse_id").flatMap { row[$0].int } ?? 0
        return .string(Journal.passage(verseID: verse, reference: field.stored ? cell.text : nil).description)
    }

    /// The JSON form of a field that stands alone (every kind but a passage, which reads the record's verse).
    private static func json(_ kind: FieldKind, _ cell: Cell) -> JSON {
        switch kind {
        case .instant, .optionalInstant:
            return cell.int.map { .string(timestamp($0)) } ?? .null
        case .count, .verseID:
            return cell.int.map(JSON.int) ?? .null
        case .tags:
            return .array((cell.text ?? "").split(separator: ",").map { .string(String($0)) })
        default:
            return cell.text.map(JSON.string) ?? .null
        }
    }

    /// Checks a field as the journal stores it (a change from another device) by the rules
    /// `cell(_:_:)` applies to an import: its JSON form must read back as that very cell. So
    /// import and sync share one validator, caps included. A stored passage is null (the verse
    /// alone) or a reference; that it starts at the record's verse is checked with the record.
    static func check(_ field: Field, stored: Cell) -> Problem? {
        if field.kind == .passage, stored == .null { return nil }
        let value = field.kind == .passage ? stored.json : json(field.kind, stored)
        switch cell(field, value) {
        // Tags are a set: a list Manna wrote in the order typed (before it kept them in order) is one too.
        case .success(let back):
            return back == stored || field.kind == .tags && SyncSet.isList(stored) && SyncSet.members(back) == SyncSet.members(stored) ? nil
                : Problem("\(field.name) in the form manna stores it")
        case .failure(let problem): return problem
        }
    }

    /// Checks one field's JSON value and gives the cell to store; the problem in words if it is wrong.
    static func cell(_ field: Field, _ value: JSON) -> Result<Cell, Problem> {
        func text(_ check: (String) -> Bool, _ expected: String) -> Result<Cell, Problem> {
            guard let string = value.stringValue else { return .failure(Problem(expected)) }
            guard string.utf8.count <= Journal.maxTextBytes else { return .failure(Problem("at most \(Journal.maxTextBytes) bytes of text")) }
            // SQLite's C strings end at a NUL: such text could not be kept as it is.
            guard !string.utf8.contains(0) else { return .failure(Problem("text without NUL characters (\\u0000)")) }
            return check(string) ? .success(.text(string)) : .failure(Problem(expected))
        }
        switch field.kind {
        case .uuid:
            return text(isUUID, "a lowercase UUID like 1b4e28ba-2fa1-4d2b-883f-0016d3cca427")
        case .shortID:
            return text({ (1...16).contains($0.utf8.count) && $0.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) } },
                        "a short id of 1 to 16 lowercase letters and digits, like k7m2")
        case .text:
            return text({ _ in true }, "a string")
        case .optionalText:
            return value == .null ? .success(.null) : text({ _ in true }, "a string or null")
        case .instant, .optionalInstant:
            if value == .null, case .optionalInstant = field.kind { return .success(.null) }
            guard let string = value.stringValue, let instant = instant(string) else {
                return .failure(Problem("a time in UTC like 2026-03-08T12:00:00Z" + (field.kind == .instant ? "" : ", or null")))
            }
            return .success(.int(instant))
        case .date:
            return text({ LocalDate(parsing: $0)?.description == $0 }, "a date like 2026-03-08")
        case .optionalTime:
            return value == .null ? .success(.null) : text({ LocalTime(parsing: $0)?.description == $0 }, "a time like 07:30, or null")
        case .count:
            guard let number = value.intValue, number >= 1, number <= 100_000 else { return .failure(Problem("a whole number from 1")) }
            return .success(.int(number))
        case .verseID:
            guard let number = value.intValue, VerseID(rawValue: number).isValid else {
                return .failure(Problem("a verse id like 43003016 (John 3:16)"))
            }
            return .success(.int(number))
        case .passage:
            guard let string = value.stringValue, string.utf8.count <= 1000, let reference = try? Reference(parsing: string) else {
                return .failure(Problem("a reference like \"John 3:16-18\""))
            }
            return .success(.text(reference.description))
        case .color:
            return text({ HighlightColor(rawValue: $0) != nil }, HighlightColor.allowed)
        case .tags:
            guard let items = value.arrayValue else { return .failure(Problem("a list of tags, like [\"family\"]")) }
            var tags: [String] = []
            for item in items {
                guard let tag = item.stringValue, tag.utf8.count <= 200, (try? Prayer.tag(tag)) == tag else {
                    return .failure(Problem("a list of tags, each one lowercase word without '#', commas or control characters"))
                }
                tags.append(tag)
            }
            return .success(.text(Journal.tagsColumn(tags)))
        case .title:
            return text({ (try? Prayer.title($0)) == $0 }, "a title, not empty, without spaces at its ends")
        case .spec:
            return text({ (try? ReminderSpec(parsing: $0))?.description == $0 }, "a reminder SPEC as manna writes it, like 'mon,wed,fri 21:00'")
        case .planID:
            return text(Plan.isValidID, "a plan id of 1 to 64 lowercase letters, digits or '-'")
        case .translation:
            return text({ (1...16).contains($0.utf8.count) && $0.utf8.allSatisfy { (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) } },
                        "a translation code like KJV")
        }
    }

    /// What a value should have been.
    struct Problem: Error {
        let expected: String
        init(_ expected: String) { self.expected = expected }
    }

    static func isUUID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte) else { return false }
            }
        }
        return true
    }
}

extension FieldKind: Equatable {}
