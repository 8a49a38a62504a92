import Foundation
import Testing
import TestSupport
@testable import MannaKit

/// A change from another device is checked as `import` checks a backup (issue 24, point 6):
/// one that `import` would refuse is kept aside and named, never applied, never blocking the
/// rest of its segment, and the journal can still be listed and exported.
@Suite struct SyncRefusedTests {
    static let peer = "7c69b029-1fa5-44aa-8bae-73b06cbb1562"
    static let prayer = "5b4e28ba-2fa1-4d2b-883f-0016d3cca427"
    static let note = "6b4e28ba-2fa1-4d2b-883f-0016d3cca427"
    static let reminder = "8b4e28ba-2fa1-4d2b-883f-0016d3cca427"
    static let time = HybridTime.next(after: 0, wall: 1_800_000_000)

    /// A prayer, a reminder of it and a note, every field valid.
    static var valid: [(table: String, key: String, field: String, value: Cell)] {
        let instant = Cell.int(1_800_000_000)
        return [
            ("prayers", prayer, "short_id", .text("p1")), ("prayers", prayer, "title", .text("For Anna")), ("prayers", prayer, "body", .text("exams")),
            ("prayers", prayer, "tags", .text(",family,")), ("prayers", prayer, "answered_at", .null), ("prayers", prayer, "answer_note", .null),
            ("prayers", prayer, "created_at", instant), ("prayers", prayer, "updated_at", instant), ("prayers", prayer, "deleted_at", .null),
            ("reminders", reminder, "prayer_uuid", .text(prayer)), ("reminders", reminder, "spec", .text("07:00")),
            ("reminders", reminder, "created_at", instant), ("reminders", reminder, "updated_at", instant), ("reminders", reminder, "deleted_at", .null),
            ("notes", note, "short_id", .text("n1")), ("notes", note, "verse_id", .int(43_003_016)), ("notes", note, "reference", .null),
            ("notes", note, "text", .text("Written on the train")), ("notes", note, "created_at", instant), ("notes", note, "updated_at", instant),
            ("notes", note, "deleted_at", .null),
        ]
    }

    /// Each change a peer could send that `import` would refuse, and what the refusal says.
    @Test(arguments: [
        ("a verse id past the canon", "notes", note, "verse_id", Cell.int(99_999_999), "verse_id must be a verse id like 43003016"),
        ("a null title", "prayers", prayer, "title", .null, "title must be a title, not empty"),
        ("a text past the cap", "notes", note, "text", .text(String(repeating: "a", count: Journal.maxTextBytes + 1)), "text must be at most"),
        ("a reminder SPEC that does not parse", "reminders", reminder, "spec", .text("whenever"), "spec must be a reminder SPEC"),
        ("an escape in a short id", "notes", note, "short_id", .text("\u{1B}[2J"), "short_id must be a short id"),
        ("tags not as stored", "prayers", prayer, "tags", .text("family"), "tags must be tags in the form manna stores it"),
        ("tags with an empty one", "prayers", prayer, "tags", .text(",family,,work,"), "tags must be tags in the form manna stores it"),
        ("a tag of two words", "prayers", prayer, "tags#two words", .int(1), "tags must be a list of tags"),
        ("a tag neither in nor out", "prayers", prayer, "tags#family", .int(2), "a tags member neither in (1) nor out (0)"),
        ("a tag as text", "prayers", prayer, "tags#family", .text("yes"), "a tags member neither in (1) nor out (0)"),
        ("a time as text", "notes", note, "created_at", .text("yesterday"), "created_at must be a time in UTC"),
        ("a key that is no uuid", "notes", "../../etc", "text", .text("x"), "its uuid is not a lowercase UUID"),
    ] as [(String, String, String, String, Cell, String)])
    func aChangeImportWouldRefuseIsKeptAsideAndTheRestApplied(_ what: String, table: String, key: String, field: String, value: Cell, says: String) throws {
        let scratch = try Scratch("sync-refused")
        let shared = scratch.file("shared")
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        let laptop = try TestDevice(scratch, "laptop", folder: shared)
        #expect(try laptop.sync().problems == [])
        // The peer's one segment: every valid change, one of them replaced by the bad one.
        var changes = Self.valid.map { SyncChange(table: $0.table, key: $0.key, field: $0.field, value: $0.value, time: Self.time) }
        let bad = SyncChange(table: table, key: key, field: field, value: value, time: Self.time)
        if let index = changes.firstIndex(where: { $0.table == table && $0.key == key && $0.field == field }) { changes[index] = bad } else { changes.append(bad) }
        _ = try SyncFolder(root: shared).write(SyncSegment(device: Self.peer, name: "phone", sequence: 1, schema: Sync.schema, after: [:], changes: changes))

        let report = try laptop.sync()
        #expect(report.refused == 1 && report.problems == [], "\(what): \(report)")
        #expect(report.applied["phone"]?.segments == 1)
        let refused = try #require(try SyncEngine(laptop.journal).refused()[Self.peer], "\(what)")
        #expect(refused.count == 1 && refused.first.contains(says), "\(what): \(refused.first)")
        #expect(!refused.first.contains("\u{1B}"))
        // The journal reads and exports; the records the bad change was not part of are there.
        let export = try laptop.export()
        if table != "notes" || key != Self.note { #expect(try laptop.notes().map(\.text) == ["Written on the train"], "\(what)") }
        if table != "prayers" { #expect(export.contains("For Anna"), "\(what)") }
        #expect(!export.contains("99999999") && !export.contains("whenever"))
        // Applied once: a second sync refuses nothing more and reads nothing new.
        #expect(try laptop.sync().refused == 0)
    }
}
