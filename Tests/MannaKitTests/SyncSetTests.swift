import Foundation
import Testing
import TestSupport
@testable import MannaKit

/// Tags sync as a set (`SyncSet`, issue 24 point 5): the rules by which a record's synced
/// fields name its members, and a list from a Manna before sync schema 14 read as one.
@Suite struct SyncSetTests {
    static let tags = Field(name: "tags", kind: .tags)

    static func version(_ time: Int) -> SyncVersion { SyncVersion(time: time, device: "a") }

    @Test(arguments: [
        ("nothing known: the record's creation has not arrived", [:], nil),
        ("a whole list alone", ["tags": (Cell.text(",work,family,"), version(5))], ["family", "work"]),
        ("members alone, in and out", ["tags#work": (.int(1), version(5)), "tags#family": (.int(0), version(6))], ["work"]),
        ("a member after the whole list decides it", ["tags": (.text(",work,"), version(5)), "tags#work": (.int(0), version(6)),
                                                      "tags#home": (.int(1), version(7))], ["home"]),
        ("a member before the whole list is overruled by it", ["tags": (.text(",work,"), version(5)), "tags#work": (.int(0), version(4)),
                                                              "tags#home": (.int(1), version(3))], ["work"]),
        ("an empty list", ["tags": (.text(""), version(5))], []),
        ("other fields are no members", ["title": (.text("For Anna"), version(5)), "tagsx": (.int(1), version(5))], nil),
    ] as [(String, [String: (value: Cell, version: SyncVersion)], Set<String>?)])
    func theMembersOfARecord(_ what: String, fields: [String: (value: Cell, version: SyncVersion)], members: Set<String>?) {
        #expect(SyncSet.members(of: Self.tags, in: fields) == members, "\(what)")
    }

    @Test func aListIsKeptAsItIsWhenItNamesTheMembersElseWrittenInOrder() {
        #expect(SyncSet.cell(["family", "work"], keeping: [nil, .text(",work,family,")]) == .text(",work,family,"))
        #expect(SyncSet.cell(["family", "work"], keeping: [.text(",family,"), .text(",work,")]) == .text(",family,work,"))
        #expect(SyncSet.cell([], keeping: [nil, nil]) == .text(""))
    }

    @Test(arguments: [(",a,b,", true), ("", true), (",b,a,", true), ("a,b", false), (",a,,b,", false), (",", false), (",,", false)])
    func aStoredList(_ text: String, isOne: Bool) {
        #expect(SyncSet.isList(.text(text)) == isOne, "\(text)")
    }

    @Test func aMemberFieldNamesItsSetAndMember() {
        #expect(SyncSet.member("tags#family", in: .prayers).map { [$0.field.name, $0.member] } == ["tags", "family"])
        #expect(SyncSet.member("title#x", in: .prayers) == nil)
        #expect(SyncSet.member("tags", in: .prayers) == nil)
        #expect(SyncSet.member("tags#x", in: .notes) == nil)
    }

    /// A peer's whole list, as a Manna before schema 14 writes it, applies as it was typed; a
    /// member changed after it changes that member alone.
    @Test func aWholeListFromAMannaBeforeAppliesAndItsMembersMoveOnAlone() throws {
        let scratch = try Scratch("sync-set")
        let shared = scratch.file("shared")
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        let laptop = try TestDevice(scratch, "laptop", folder: shared)
        let folder = SyncFolder(root: shared)
        let (peer, prayer, time) = (SyncRefusedTests.peer, SyncRefusedTests.prayer, SyncRefusedTests.time)
        let changes = SyncRefusedTests.valid.map { change in
            SyncChange(table: change.table, key: change.key, field: change.field, value: change.field == "tags" ? .text(",work,family,") : change.value, time: time)
        }
        _ = try folder.write(SyncSegment(device: peer, name: "phone", sequence: 1, schema: 13, after: [:], changes: changes))
        #expect(try laptop.sync().problems == [])
        #expect(try laptop.journal.prayer(id: prayer)?.tags == ["work", "family"])
        _ = try folder.write(SyncSegment(device: peer, name: "phone", sequence: 2, schema: Sync.schema, after: [:], changes: [
            SyncChange(table: "prayers", key: prayer, field: "tags#work", value: .int(0), time: time + 1),
            SyncChange(table: "prayers", key: prayer, field: "tags#home", value: .int(1), time: time - 1),
        ]))
        #expect(try laptop.sync().problems == [])
        #expect(try laptop.journal.prayer(id: prayer)?.tags == ["family"])
    }
}
