import Foundation
import TestSupport
import Testing
@testable import MannaKit

@Suite struct MarksTests {
    @Test func notesAreOnAPassageFoundAtItsFirstVerse() throws {
        let scratch = try Scratch()
        let journal = try scratch.journal()
        let first = try journal.addNote("The gospel in one verse", on: ref("John 3:16"), at: 100)
        let second = try journal.addNote("Line one\nline two", on: ref("jn 3:16-18"), at: 200)
        let elsewhere = try journal.addNote("In the beginning", on: ref("Gen 1:1"), at: 300)
        #expect(second.reference.description == "John 3:16-18")
        #expect(second.verseID.rawValue == 43_003_016)
        #expect(first.shortID.count == 4 && first.shortID != second.shortID)
        #expect(try journal.notes(in: ref("John 3")) == [first, second])
        #expect(try journal.notes(in: nil) == [elsewhere, first, second])
        // Found at the first verse: reading John 3:17 alone does not show the note on 3:16-18.
        #expect(try journal.notes(in: ref("John 3:17")).isEmpty)

        let deleted = try journal.deleteNote(id: first.shortID.uppercased(), at: 400)
        #expect(deleted == first)
        #expect(try journal.notes(in: ref("John 3")) == [second])
        #expect(throws: MarkError.notFound(.note, id: first.shortID)) { try journal.deleteNote(id: first.shortID, at: 500) }
        #expect(throws: MarkError.notFound(.note, id: "zzzz")) { try journal.deleteNote(id: "zzzz", at: 500) }
        // The deletion is a tombstone that export carries, never a lost row.
        let notes = try #require(try journal.export()["notes"]?.arrayValue)
        #expect(notes.count == 3)
        #expect(notes.first { $0["uuid"]?.stringValue == first.uuid }?["deleted_at"]?.stringValue == "1970-01-01T00:06:40Z")
    }

    @Test func aNoteNeedsTextAndHasALimit() throws {
        let scratch = try Scratch()
        let journal = try scratch.journal()
        #expect(throws: MarkError.emptyText) { try journal.addNote(" \n ", on: ref("John 3:16"), at: 1) }
        let long = String(repeating: "a", count: Journal.maxTextBytes + 1)
        #expect(throws: MarkError.textTooLong(bytes: Journal.maxTextBytes + 1)) { try journal.addNote(long, on: ref("John 3:16"), at: 1) }
        #expect(MarkError.notFound(.highlight, id: "x9").message == "no highlight with id 'x9'")
    }

    @Test func highlightingAHighlightedVerseChangesItsColour() throws {
        let scratch = try Scratch()
        let journal = try scratch.journal()
        let added = try journal.highlight(ref("Ps 23:1-2"), color: .green, at: 100)
        guard case .added(let one) = added[0], case .added(let two) = added[1] else { Issue.record("not added: \(added)"); return }
        #expect(one.verseID.rawValue == 19_023_001 && two.verseID.rawValue == 19_023_002)
        let again = try journal.highlight(ref("Ps 23:2-3"), color: .green, at: 200)
        #expect(again[0] == .unchanged(two))
        let recolored = try journal.highlight(ref("Psalm 23:1"), color: .purple, at: 300)
        #expect(recolored == [.recolored(Highlight(uuid: one.uuid, shortID: one.shortID, verseID: one.verseID, color: .purple,
                                                   createdAt: 100, updatedAt: 300), from: .green)])
        #expect(try journal.highlights(in: ref("Ps 23")).map(\.color) == [.purple, .green, .green])
        _ = try journal.deleteHighlight(id: one.shortID, at: 400)
        // A deleted verse is highlighted afresh: a new record, the tombstone kept.
        guard case .added(let fresh) = try journal.highlight(ref("Ps 23:1"), color: .blue, at: 500)[0] else { Issue.record(); return }
        #expect(fresh.uuid != one.uuid)
        #expect(HighlightColor.allowed == "yellow, green, blue, pink or purple")
    }

    @Test func aVerseHasOneBookmarkWhosePassageCanChange() throws {
        let scratch = try Scratch()
        let journal = try scratch.journal()
        guard case .added(let mark) = try journal.bookmark(ref("John 3:16"), at: 100) else { Issue.record(); return }
        #expect(try journal.bookmark(ref("Jn 3:16"), at: 200) == .unchanged(mark))
        let changed = try journal.bookmark(ref("John 3:16-18"), at: 300)
        #expect(changed == .changed(Bookmark(uuid: mark.uuid, shortID: mark.shortID, reference: ref("John 3:16-18"),
                                             createdAt: 100, updatedAt: 300), from: ref("John 3:16")))
        _ = try journal.bookmark(ref("Ps 23"), at: 50)
        #expect(try journal.bookmarks(in: nil).map(\.reference.description) == ["Psalm 23", "John 3:16-18"])
        // The daily order is by when each was made.
        #expect(try journal.bookmarkedPassages().map(\.description) == ["Psalm 23", "John 3:16-18"])
    }

    @Test func marksOnAPassageComeVerseByVerse() throws {
        let scratch = try Scratch()
        let journal = try scratch.journal()
        let note = try journal.addNote("n", on: ref("John 3:16-18"), at: 1)
        _ = try journal.highlight(ref("John 3:16-17"), color: .pink, at: 2)
        _ = try journal.bookmark(ref("John 3:17"), at: 3)
        _ = try journal.addNote("outside", on: ref("John 3:19"), at: 4)
        let marks = try journal.marks(on: ref("John 3:15-18; 3:16"))
        #expect(marks[VerseID(rawValue: 43_003_015)] == VerseMarks())
        #expect(marks[VerseID(rawValue: 43_003_016)] == VerseMarks(highlight: .pink, bookmarked: false, notes: [note]))
        #expect(marks[VerseID(rawValue: 43_003_017)] == VerseMarks(highlight: .pink, bookmarked: true, notes: []))
        #expect(marks[VerseID(rawValue: 43_003_019)] == VerseMarks())
    }

    /// `read` must cost the passage, not the journal: every part of its query is an index range.
    @Test func theMarksQueryReadsIndexRangesOnly() throws {
        let scratch = try Scratch()
        let journal = try scratch.journal()
        let plan = try journal.database.prepare("EXPLAIN QUERY PLAN " + Journal.marksQuery)
        try plan.bind(43_003_016, at: 1)
        try plan.bind(43_003_018, at: 2)
        var details: [String] = []
        while try plan.step() { details.append(plan.string(3)) }
        for table in ["highlights", "bookmarks", "notes"] {
            #expect(details.contains("SEARCH \(table) USING INDEX \(table)_live (verse_id>? AND verse_id<?)"), "\(details)")
            #expect(!details.contains { $0.hasPrefix("SCAN \(table)") }, "\(details)")
        }
    }

    /// What `read` and `note list` show of a note's text, line by line.
    @Test(arguments: [
        ("one line", ["one line"]),
        ("first\nsecond", ["first", "second"]),
        ("first\r\nsecond\n\nfourth\n", ["first", "second", "", "fourth", ""]),
        ("tab\there \u{1B}[31mred\u{202E}", ["tab here  [31mred "]),
    ])
    func aNotesParagraphsAreItsLinesWithoutControls(text: String, paragraphs: [String]) {
        let note = Note(uuid: "u", shortID: "k7m2", reference: ref("John 3:16"), text: text, createdAt: 1, updatedAt: 1)
        #expect(note.paragraphs == paragraphs)
    }

    @Test func searchHistoryKeepsTheNewestHundred() throws {
        let scratch = try Scratch()
        let journal = try scratch.journal()
        for number in 1...105 {
            try journal.recordSearch(SearchRecord(query: "q\(number)", translation: "KJV", searchedAt: 1000 + number))
        }
        let history = try journal.searchHistory()
        #expect(history.count == 100)
        #expect(history.first == SearchRecord(query: "q105", translation: "KJV", searchedAt: 1105))
        #expect(history.last?.query == "q6")
    }
}

@Suite struct PassageMarksFormatTests {
    let verses = [PassageVerse(id: VerseID(rawValue: 43_003_016), text: "For God so loved the world."),
                  PassageVerse(id: VerseID(rawValue: 43_003_017), text: "For God sent not his Son.")]

    func marks(_ note: Note) -> PassageMarks {
        var marks = PassageMarks()
        marks.verses[43_003_016] = VerseMarks(highlight: .yellow, bookmarked: true, notes: [note])
        return marks
    }

    let note = Note(uuid: "u", shortID: "k7m2", reference: ref("John 3:16-18"), text: "First line\nsecond \u{1B}[31mline",
                    createdAt: 1, updatedAt: 1)

    @Test func unmarkedVersesPrintAsTheyAlwaysHave() {
        let plain = PassageFormatter.lines(reference: ref("John 3:16-17"), translation: "KJV", verses: verses, width: nil)
        let withNone = PassageFormatter.lines(reference: ref("John 3:16-17"), translation: "KJV", verses: verses, width: nil,
                                              marks: PassageMarks(), color: true)
        #expect(plain == withNone)
        #expect(plain.map(\.rendered) == ["John 3:16-17 (KJV)", "16 For God so loved the world.", "17 For God sent not his Son."])
    }

    @Test func marksInAPipeAreWords() {
        #expect(PassageFormatter.lines(reference: ref("John 3:16-17"), translation: "KJV", verses: verses, width: nil, marks: marks(note)).map(\.rendered) == [
            "John 3:16-17 (KJV)",
            "16 For God so loved the world. [yellow] [bookmark] [1]",
            "17 For God sent not his Son.",
            "",
            "[1] John 3:16-18 (k7m2): First line",
            "    second  [31mline",
        ])
    }

    @Test func aHighlightOnATerminalIsABackgroundOnTheTextOnly() {
        let lines = PassageFormatter.lines(reference: ref("John 3:16-17"), translation: "KJV", verses: verses, width: 24,
                                           marks: marks(note), color: true)
        let on = "\u{1B}[38;5;16;48;5;229m", off = "\u{1B}[39;49m"
        #expect(lines.map(\.rendered) == [
            "John 3:16-17 (KJV)",
            "16 \(on)For God so loved the\(off)",
            "   \(on)world.\(off) [bookmark] [1]",
            "17 For God sent not his",
            "   Son.",
            "",
            "[1] John 3:16-18 (k7m2): First",
            "    line",
            "    second [31mline",
        ])
    }
}

@Suite struct DailySourceTests {
    @Test func bookmarksGiveTheDayNumberModTheirCount() {
        let passages = [ref("John 3:16"), ref("Ps 23"), ref("Rom 8:28")]
        let source = DailySource.bookmarks(passages)
        #expect(source.bookmarkedPassage(for: LocalDate(year: 1970, month: 1, day: 1)) == passages[0])
        #expect(source.bookmarkedPassage(for: LocalDate(year: 1970, month: 1, day: 2)) == passages[1])
        // 2026-03-08 is day 20,520: 20,520 mod 3 = 0. Before 1970 still counts forwards.
        #expect(source.bookmarkedPassage(for: LocalDate(year: 2026, month: 3, day: 8)) == passages[0])
        #expect(source.bookmarkedPassage(for: LocalDate(year: 2026, month: 3, day: 9)) == passages[1])
        #expect(source.bookmarkedPassage(for: LocalDate(year: 1969, month: 12, day: 31)) == passages[2])
        #expect(DailySource.bookmarks([]).bookmarkedPassage(for: LocalDate(year: 2026, month: 3, day: 8)) == nil)
        #expect(DailySource.curated.bookmarkedPassage(for: LocalDate(year: 2026, month: 3, day: 8)) == nil)
    }

    @Test func theVerseOfTheDayComesFromABookmarkElseTheCuratedList() throws {
        let database = BuiltTexts.database
        let kjv = try database.translation(code: "KJV")
        let date = LocalDate(year: 2026, month: 3, day: 9)
        let verse = try database.dailyVerse(for: date, in: kjv, source: .bookmarks([ref("Ps 23:1"), ref("John 11:35-36")]))
        #expect(verse.reference == ref("John 11:35-36"))
        #expect(verse.text.hasPrefix("Jesus wept. Then said the Jews"))
        #expect(try database.dailyVerse(for: date, in: kjv, source: .bookmarks([])) == database.dailyVerse(for: date, in: kjv))
        // A bookmarked verse the translation lacks gives the curated verse, never an empty one.
        let asv = try database.translation(code: "ASV")
        #expect(try database.dailyVerse(for: date, in: asv, source: .bookmarks([ref("Matt 17:21")])) == database.dailyVerse(for: date, in: asv))
    }
}
