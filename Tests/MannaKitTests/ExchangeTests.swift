import Foundation
import Testing
import TestSupport
@testable import MannaKit

/// Export, import and the merge of two machines' journals.
@Suite struct ExchangeTests {
    static let prayer = "11111111-2fa1-4d2b-883f-0016d3cca427"
    static let run = "22222222-2fa1-4d2b-883f-0016d3cca427"

    /// A journal with a record in every table, tombstones among them.
    func filled(_ journal: Journal) throws {
        try journal.database.execute("""
            INSERT INTO prayers (uuid, short_id, title, body, tags, answered_at, answer_note, created_at, updated_at)
                VALUES ('\(Self.prayer)', 'pr4y', 'For Anna', 'Her exams "this week"', ',family,school,', 500, 'Passed', 100, 500);
            INSERT INTO prayers (uuid, short_id, title, created_at, updated_at, deleted_at)
                VALUES ('33333333-2fa1-4d2b-883f-0016d3cca427', 'gone', 'Old', 50, 60, 60);
            INSERT INTO reminders (uuid, prayer_uuid, spec, created_at, updated_at)
                VALUES ('44444444-2fa1-4d2b-883f-0016d3cca427', '\(Self.prayer)', 'mon,wed,fri 21:00', 100, 100);
            INSERT INTO plan_runs (uuid, plan_id, started_on, schedule_start, remind_at, created_at, updated_at)
                VALUES ('\(Self.run)', 'nt-90', '2026-01-01', '2026-01-03', '06:45', 100, 200);
            INSERT INTO plan_days_read (run_uuid, day, read_on, created_at) VALUES ('\(Self.run)', 1, '2026-01-03', 150);
            INSERT INTO plan_days_read (run_uuid, day, read_on, created_at) VALUES ('\(Self.run)', 2, '2026-01-04', 160);
            INSERT INTO prayed (uuid, prayer_uuid, prayed_at) VALUES ('55555555-2fa1-4d2b-883f-0016d3cca427', '\(Self.prayer)', 300);
            INSERT INTO snoozes (uuid, prayer_uuid, due_at, created_at)
                VALUES ('66666666-2fa1-4d2b-883f-0016d3cca427', '\(Self.prayer)', 900, 300);
            """)
        _ = try journal.addNote("The gospel in one verse ✝\nsecond line", on: ref("John 3:16-18"), at: 1000)
        let gone = try journal.addNote("deleted", on: ref("Gen 1:1"), at: 1001)
        _ = try journal.deleteNote(id: gone.shortID, at: 1002)
        _ = try journal.highlight(ref("Ps 23:1-2"), color: .green, at: 1003)
        _ = try journal.bookmark(ref("Rom 8:28"), at: 1004)
        try journal.recordSearch(SearchRecord(query: "love one another", translation: "KJV", searchedAt: 1005))
    }

    func importing(_ document: JSON, into journal: Journal, file: String = "export.json") throws -> ImportSummary {
        try journal.merge(try ImportFile(parsing: document.prettyText, file: file))
    }

    @Test func anExportImportedIntoAFreshJournalExportsTheSame() throws {
        let scratch = try Scratch()
        let source = try scratch.journal("source")
        try filled(source)
        let exported = try source.export()
        for table in ExportTable.all { #expect(exported[table.name]?.arrayValue?.isEmpty == false, "\(table.name) is empty") }
        let fresh = try scratch.journal("fresh")
        let summary = try importing(exported, into: fresh)
        #expect(summary.changed == 14 && summary.unchanged == 0)
        #expect(try fresh.export().prettyText == exported.prettyText)
        // Times are UTC, tags a list, the deleted prayer a tombstone.
        let prayers = try #require(exported["prayers"]?.arrayValue)
        #expect(prayers[0]["deleted_at"] == .string("1970-01-01T00:01:00Z"))
        #expect(prayers[1]["tags"] == .array([.string("family"), .string("school")]))
    }

    @Test func importingTheSameFileTwiceChangesNothing() throws {
        let scratch = try Scratch()
        let source = try scratch.journal("source")
        try filled(source)
        let target = try scratch.journal("target")
        _ = try target.addNote("mine", on: ref("John 1:1"), at: 2000)
        let first = try importing(try source.export(), into: target)
        #expect(first.changed == 14)
        let before = try target.export().prettyText
        let second = try importing(try source.export(), into: target)
        #expect(second.changed == 0)
        #expect(second.unchanged == 14)
        #expect(try target.export().prettyText == before)
    }

    @Test func theNewestUpdateWinsAndADeletionTravels() throws {
        let scratch = try Scratch()
        let laptop = try scratch.journal("laptop")
        let note = try laptop.addNote("first thought", on: ref("John 3:16"), at: 100)
        let desktop = try scratch.journal("desktop")
        _ = try importing(try laptop.export(), into: desktop)
        // The desktop deletes it later; the laptop's older copy does not bring it back.
        _ = try desktop.deleteNote(id: note.shortID, at: 200)
        #expect(try importing(try laptop.export(), into: desktop).changed == 0)
        #expect(try desktop.notes(in: nil).isEmpty)
        let summary = try importing(try desktop.export(), into: laptop)
        #expect(summary.tables.first { $0.name == "notes" }?.counts == ImportSummary.Counts(updated: 1))
        #expect(try laptop.notes(in: nil).isEmpty)
    }

    /// Two highlights of one verse made on two machines: the newest stays, the other becomes a
    /// tombstone; both notes stay; the newer bookmark stays; one plan started on both runs once
    /// (the newer run), beside another plan. Both machines end the same.
    @Test func twoMachinesMarkingTheSameVerseConverge() throws {
        let scratch = try Scratch()
        let a = try scratch.journal("a"), b = try scratch.journal("b")
        _ = try a.highlight(ref("John 3:16"), color: .green, at: 100)
        _ = try b.highlight(ref("John 3:16"), color: .pink, at: 200)
        _ = try a.addNote("from a", on: ref("John 3:16"), at: 100)
        _ = try b.addNote("from b", on: ref("John 3:16"), at: 150)
        _ = try a.bookmark(ref("John 3:16"), at: 300)
        _ = try b.bookmark(ref("John 3:16-18"), at: 250)
        try a.database.execute("""
            INSERT INTO plan_runs (uuid, plan_id, started_on, schedule_start, created_at, updated_at)
                VALUES ('\(Self.run)', 'nt-90', '2026-01-01', '2026-01-01', 100, 100);
            INSERT INTO plan_days_read (run_uuid, day, read_on, created_at) VALUES ('\(Self.run)', 1, '2026-01-01', 100);
            INSERT INTO plan_days_read (run_uuid, day, read_on, created_at) VALUES ('\(Self.run)', 2, '2026-01-02', 100)
            """)
        try b.database.execute("""
            INSERT INTO plan_runs (uuid, plan_id, started_on, schedule_start, created_at, updated_at)
                VALUES ('55555555-2fa1-4d2b-883f-0016d3cca427', 'psalms-proverbs-month', '2026-02-01', '2026-02-01', 400, 400);
            INSERT INTO plan_runs (uuid, plan_id, started_on, schedule_start, created_at, updated_at)
                VALUES ('77777777-2fa1-4d2b-883f-0016d3cca427', 'nt-90', '2026-01-05', '2026-01-05', 300, 300);
            INSERT INTO plan_days_read (run_uuid, day, read_on, created_at) VALUES ('77777777-2fa1-4d2b-883f-0016d3cca427', 2, '2026-01-05', 300);
            INSERT INTO plan_days_read (run_uuid, day, read_on, created_at) VALUES ('77777777-2fa1-4d2b-883f-0016d3cca427', 3, '2026-01-06', 300)
            """)
        let fromA = try a.export(), fromB = try b.export()
        let intoA = try importing(fromB, into: a)
        let intoB = try importing(fromA, into: b)
        #expect(intoA.tables.first { $0.name == "highlights" }?.counts == ImportSummary.Counts(added: 1, superseded: 1))
        #expect(intoB.tables.first { $0.name == "highlights" }?.counts == ImportSummary.Counts(added: 1, superseded: 1))

        for journal in [a, b] {
            #expect(try journal.highlights(in: nil).map(\.color) == [.pink])
            #expect(try journal.notes(in: nil).map(\.text) == ["from a", "from b"])
            #expect(try journal.bookmarks(in: nil).map(\.reference) == [ref("John 3:16")])
            let running = try journal.database.prepare("SELECT uuid FROM plan_runs WHERE stopped_at IS NULL AND deleted_at IS NULL ORDER BY uuid")
            var uuids: [String] = []
            while try running.step() { uuids.append(running.string(0)) }
            #expect(uuids == ["55555555-2fa1-4d2b-883f-0016d3cca427", "77777777-2fa1-4d2b-883f-0016d3cca427"])
            let stopped = try journal.database.prepare("SELECT stopped_at, updated_at FROM plan_runs WHERE uuid = '\(Self.run)'")
            #expect(try stopped.step() && stopped.int(0) == 300 && stopped.int(1) == 300)
            // The days read in the run that stopped are in the one that runs: none hidden.
            let days = try journal.runningPlans().first { $0.planID == "nt-90" }?.daysRead
            #expect(days?.keys.sorted() == [1, 2, 3] && days?[2] == LocalDate(parsing: "2026-01-05"), "\(String(describing: days))")
        }
        #expect(withoutShortIDs(try a.export()) == withoutShortIDs(try b.export()))
        // And they stay so: each other's merged exports change nothing.
        #expect(try importing(try b.export(), into: a).changed == 0)
        #expect(try importing(try a.export(), into: b).changed == 0)
    }

    @Test func aTieOfUpdateTimesIsBrokenTheSameWayOnBothMachines() throws {
        let scratch = try Scratch()
        let a = try scratch.journal("a"), b = try scratch.journal("b")
        let uuid = "66666666-2fa1-4d2b-883f-0016d3cca427"
        for (journal, text) in [(a, "apple"), (b, "banana")] {
            try journal.database.execute("""
                INSERT INTO notes (uuid, short_id, verse_id, reference, text, created_at, updated_at)
                    VALUES ('\(uuid)', 'same', 43003016, 'John 3:16', '\(text)', 1, 5)
                """)
        }
        let fromA = try a.export(), fromB = try b.export()
        _ = try importing(fromB, into: a)
        _ = try importing(fromA, into: b)
        #expect(try a.notes(in: nil).map(\.text) == ["banana"])
        #expect(try b.notes(in: nil).map(\.text) == ["banana"])
        // At the same second a deletion beats an edit.
        _ = try a.deleteNote(id: "same", at: 9)
        try b.database.execute("UPDATE notes SET text = 'cherry', updated_at = 9")
        _ = try importing(try a.export(), into: b)
        #expect(try b.notes(in: nil).isEmpty)
    }

    @Test func importedShortIDsThatAreTakenGetNewOnes() throws {
        let scratch = try Scratch()
        let a = try scratch.journal("a"), b = try scratch.journal("b")
        let mine = try b.addNote("b's own", on: ref("Gen 1:1"), at: 1)
        let theirs = try a.addNote("a's", on: ref("John 1:1"), at: 2)
        try a.database.execute("UPDATE notes SET short_id = '\(mine.shortID)'")
        _ = try importing(try a.export(), into: b)
        let notes = try b.notes(in: nil)
        #expect(notes.map(\.uuid) == [mine.uuid, theirs.uuid])
        #expect(notes[0].shortID == mine.shortID && notes[1].shortID != mine.shortID)
    }

    @Test func searchesMergeToTheNewestHundredOnce() throws {
        let scratch = try Scratch()
        let a = try scratch.journal("a"), b = try scratch.journal("b")
        for number in 1...100 { try a.recordSearch(SearchRecord(query: "a\(number)", translation: "KJV", searchedAt: number * 10)) }
        for number in 1...100 { try b.recordSearch(SearchRecord(query: "b\(number)", translation: "WEB", searchedAt: number * 10 + 5)) }
        let first = try importing(try b.export(), into: a)
        #expect(first.tables.first { $0.name == "searches" }?.counts == ImportSummary.Counts(added: 50, removed: 50))
        let history = try a.searchHistory()
        #expect(history.count == 100)
        #expect(history.first?.query == "b100" && history.last?.query == "a51")
        #expect(try importing(try b.export(), into: a).changed == 0)
    }

    static let note = """
        {"uuid": "77777777-2fa1-4d2b-883f-0016d3cca427", "short_id": "n0te", "verse_id": 43003016, "reference": "John 3:16",
         "text": "t", "created_at": "2026-03-08T12:00:00Z", "updated_at": "2026-03-08T12:00:00Z", "deleted_at": null}
        """

    static func file(_ body: String) -> String { #"{"format": "manna-export", "version": 1, "# + body + "}" }

    static let badFiles: [(String, String)] = [
        ("not json", "f.json: not valid JSON at byte 0: expected a value"),
        ("[]", "f.json: $: expected an object, the export of 'manna export'"),
        (#"{"format": "other", "version": 1}"#, #"f.json: $.format: expected "manna-export""#),
        (#"{"format": "manna-export", "version": 2}"#, "f.json: $.version: 2 is newer than this manna reads (1); update manna"),
        (file(#""notes": {}"#), "f.json: $.notes: expected a list of note records"),
        (file(#""notes": [1]"#), "f.json: $.notes[0]: expected a note record (an object)"),
        (file(#""sermons": []"#), "f.json: $.sermons: unknown key; allowed here: format, version, prayers, reminders, prayed, snoozes, plan_runs, plan_days_read, notes, highlights, bookmarks, searches"),
        (file(#""notes": [\#(note.replacingOccurrences(of: #""text": "t","#, with: ""))]"#),
         "f.json: $.notes[0].text: missing; a note has uuid, short_id, verse_id, reference, text, created_at, updated_at, deleted_at"),
        (file(#""notes": [\#(note.replacingOccurrences(of: #""text": "t""#, with: #""text": 5"#))]"#), "f.json: $.notes[0].text: expected a string"),
        (file(#""notes": [\#(note.replacingOccurrences(of: "}", with: #", "colour": "red"}"#))]"#),
         "f.json: $.notes[0].colour: unknown key; allowed here: uuid, short_id, verse_id, reference, text, created_at, updated_at, deleted_at"),
        (file(#""notes": [\#(note.replacingOccurrences(of: "}", with: #", "text": "u"}"#))]"#), "f.json: $.notes[0].text: given twice"),
        (file(#""notes": [\#(note.replacingOccurrences(of: "77777777", with: "7777777G"))]"#),
         "f.json: $.notes[0].uuid: expected a lowercase UUID like 1b4e28ba-2fa1-4d2b-883f-0016d3cca427"),
        (file(#""notes": [\#(note.replacingOccurrences(of: "43003016", with: "43003099"))]"#),
         "f.json: $.notes[0].verse_id: expected a verse id like 43003016 (John 3:16)"),
        (file(#""notes": [\#(note.replacingOccurrences(of: #""John 3:16""#, with: #""John 3:15-16""#))]"#),
         "f.json: $.notes[0].reference: expected a passage starting at verse_id (John 3:16)"),
        (file(#""notes": [\#(note.replacingOccurrences(of: #""2026-03-08T12:00:00Z", "deleted_at""#, with: #"12, "deleted_at""#))]"#),
         "f.json: $.notes[0].updated_at: expected a time in UTC like 2026-03-08T12:00:00Z"),
        (file(#""notes": [\#(note), \#(note)]"#), "f.json: $.notes[1].uuid: the same note as $.notes[0]"),
        (file(#""notes": [\#(note.replacingOccurrences(of: #""text": "t""#, with: #""text": "a\u0000b""#))]"#),
         #"f.json: $.notes[0].text: expected text without NUL characters (\u0000)"#),
        (file(#""highlights": [{"uuid": "77777777-2fa1-4d2b-883f-0016d3cca427", "short_id": "h1", "verse_id": 43003016, "reference": "John 3:16-17", "color": "yellow", "created_at": "2026-03-08T12:00:00Z", "updated_at": "2026-03-08T12:00:00Z", "deleted_at": null}]"#),
         "f.json: $.highlights[0].reference: expected John 3:16, the verse of verse_id"),
        (file(#""highlights": [{"uuid": "77777777-2fa1-4d2b-883f-0016d3cca427", "short_id": "h1", "verse_id": 43003016, "reference": "John 3:16", "color": "red", "created_at": "2026-03-08T12:00:00Z", "updated_at": "2026-03-08T12:00:00Z", "deleted_at": null}]"#),
         "f.json: $.highlights[0].color: expected yellow, green, blue, pink or purple"),
        (file(#""prayers": [{"uuid": "88888888-2fa1-4d2b-883f-0016d3cca427", "short_id": "p1", "title": "T", "body": "", "tags": ["a,b"], "answered_at": null, "answer_note": null, "created_at": "2026-03-08T12:00:00Z", "updated_at": "2026-03-08T12:00:00Z", "deleted_at": null}]"#),
         "f.json: $.prayers[0].tags: expected a list of tags, each one lowercase word without '#', commas or control characters"),
        // Checked against the journal, inside the transaction: the prayer before it is rolled back too.
        (file(#""prayers": [{"uuid": "88888888-2fa1-4d2b-883f-0016d3cca427", "short_id": "p1", "title": "T", "body": "", "tags": [], "answered_at": null, "answer_note": null, "created_at": "2026-03-08T12:00:00Z", "updated_at": "2026-03-08T12:00:00Z", "deleted_at": null}], "reminders": [{"uuid": "99999999-2fa1-4d2b-883f-0016d3cca427", "prayer_uuid": "aaaaaaaa-2fa1-4d2b-883f-0016d3cca427", "spec": "07:30", "created_at": "2026-03-08T12:00:00Z", "updated_at": "2026-03-08T12:00:00Z", "deleted_at": null}]"#),
         "f.json: $.reminders[0].prayer_uuid: no prayer with this uuid in the file or the journal"),
    ]

    @Test(arguments: badFiles)
    func aBadFileIsNamedByPathAndChangesNothing(text: String, message: String) throws {
        try expectRefused(text, message: message)
    }

    /// Hostile input: too deep for the stack, too long a string (kept out of the arguments
    /// above, which the test log prints).
    @Test func hostileFilesAreRefusedWithOneLine() throws {
        try expectRefused(String(repeating: "[", count: 100_000), message: "f.json: not valid JSON at byte 64: expected at most 64 levels of nesting")
        let huge = "\"text\": \"" + String(repeating: "x", count: Journal.maxTextBytes + 1) + "\""
        try expectRefused(Self.file(#""notes": [\#(Self.note.replacingOccurrences(of: #""text": "t""#, with: huge))]"#),
                          message: "f.json: $.notes[0].text: expected at most 1048576 bytes of text")
    }

    func expectRefused(_ text: String, message: String) throws {
        let scratch = try Scratch()
        let journal = try scratch.journal()
        try filled(journal)
        let before = try journal.export().prettyText
        do {
            _ = try journal.merge(try ImportFile(parsing: text, file: "f.json"))
            Issue.record("imported a bad file")
        } catch {
            #expect(error.message == message)
        }
        #expect(try journal.export().prettyText == before)
    }

    @Test func theRecordsOfAGoodHandWrittenFileAreTaken() throws {
        let scratch = try Scratch()
        let journal = try scratch.journal()
        // Tables may be left out; a reference may be written any way the parser reads.
        let text = Self.file(#""notes": [\#(Self.note.replacingOccurrences(of: #""John 3:16""#, with: #""jn 3:16-18""#))]"#)
        let summary = try journal.merge(try ImportFile(parsing: text, file: "f.json"))
        #expect(summary.changed == 1)
        #expect(try journal.notes(in: nil).map(\.reference.description) == ["John 3:16-18"])
        #expect(try journal.notes(in: nil).map(\.createdAt) == [1_772_971_200])
    }

    @Test func timesAreWrittenInUTCAndReadBackExactly() {
        for instant in [0, 1, 86_399, 86_400, 1_772_971_200, -1, -86_401, 253_402_300_799] {
            let text = ExportFormat.timestamp(instant)
            #expect(ExportFormat.instant(text) == instant, "\(text)")
        }
        #expect(ExportFormat.timestamp(1_772_971_200) == "2026-03-08T12:00:00Z")
        #expect(ExportFormat.timestamp(-1) == "1969-12-31T23:59:59Z")
        #expect(ExportFormat.instant("2026-03-08T12:00:00+00:00") == nil)
        #expect(ExportFormat.instant("2026-03-08T12:00Z") == nil)
    }
}

/// The document with every record's `short_id` left out: each journal chooses its own.
func withoutShortIDs(_ json: JSON) -> JSON {
    switch json {
    case .object(let pairs): return .object(pairs.filter { $0.0 != "short_id" }.map { ($0.0, withoutShortIDs($0.1)) })
    case .array(let items): return .array(items.map(withoutShortIDs))
    default: return json
    }
}

extension Error {
    var message: String {
        switch self {
        case let error as ImportError: return error.message
        default: return "\(self)"
        }
    }
}
