// The reader window's rules, without the window (manna-reader draws ReaderModel): where it
// opens, a reference typed as `manna read` takes it, the translation switcher, back and
// forward, the place kept for next time, and the chapter's markup.
import Foundation
import MannaKit
import TestSupport
import Testing

@testable import MannaApp

@Suite struct ReaderModelTests {
    @Test func opensAtGenesisOneInTheUsersTranslation() throws {
        let home = try TestHome()
        home.variables["MANNA_TRANSLATION"] = "WEB"
        let model = try ReaderModel(context: home.context())
        #expect(model.place == ReaderPlace(translation: "WEB", verse: VerseID(rawValue: 1_001_001)))
        #expect(model.title == "Genesis 1")
        #expect(try model.verses().first?.text == "In the beginning, God created the heavens and the earth.")
        #expect(!model.canGoBack && !model.canGoForward)
    }

    @Test func goesToAReferenceAsReadTakesItWithATranslationAfterIt() throws {
        let model = try ReaderModel(context: TestHome().context())
        try model.go(to: "Jn 3:16")
        #expect(model.title == "John 3")
        #expect(model.place == ReaderPlace(translation: "KJV", verse: VerseID(rawValue: 43_003_016)))
        let john = try model.verses()
        #expect(john.count == 36)
        #expect(john[15].text?.hasPrefix("For God so loved the world") == true)

        try model.go(to: "Ps 23 (WEB)")
        #expect(model.title == "Psalm 23")
        #expect(model.translation.code == "WEB")
        let psalm = try model.verses()
        #expect(psalm.first?.isTitle == true)
        #expect(psalm.first?.text == "A Psalm by David.")
        #expect(psalm.count == 7)
    }

    @Test func refusesWhatIsNoPassageWithTheCommandLinesWordsAndStaysPut() throws {
        let model = try ReaderModel(context: TestHome().context())
        try model.go(to: "John 3")
        for (typed, message) in [
            ("Hezekiah 3", "no book called 'Hezekiah'"),
            ("John 22", "John has only 21 chapters"),
        ] {
            let error = try #require(throws: (any Error).self) { try model.go(to: typed) }
            let report = ReaderModel.report(error)
            #expect(report.message == message)
            #expect(report.status == 65)
        }
        #expect(model.title == "John 3")
        #expect(!model.canGoForward)
        #expect(throws: (any Error).self) { try model.switchTranslation(to: "XYZ") }
        #expect(model.translation.code == "KJV")
    }

    @Test func backAndForwardRetraceTheMovesAndANewMoveForgetsForward() throws {
        let model = try ReaderModel(context: TestHome().context())
        try model.go(to: "John 3")
        try model.switchTranslation(to: "ASV")
        model.go(book: 45, chapter: 8)
        #expect(model.title == "Romans 8" && model.translation.code == "ASV")

        #expect(model.goBack())
        #expect(model.title == "John 3" && model.translation.code == "ASV")
        #expect(model.goBack())
        #expect(model.title == "John 3" && model.translation.code == "KJV")
        #expect(model.goBack())
        #expect(model.title == "Genesis 1")
        #expect(!model.goBack())
        #expect(model.goForward())
        #expect(model.title == "John 3")

        // Going to the place shown is no move; going elsewhere drops what was ahead.
        try model.go(to: "John 3:16")
        try model.go(to: "Acts 2")
        #expect(!model.canGoForward)
        #expect(model.goBack())
        #expect(model.title == "John 3" && model.place.verse == VerseID(rawValue: 43_003_016))
    }

    @Test func opensWhereItWasLeftAndIgnoresADamagedOrStalePlace() throws {
        let home = try TestHome()
        let first = try ReaderModel(context: home.context())
        try first.go(to: "Romans 8:28 WEB")
        #expect(try String(contentsOfFile: home.paths.readerPlace, encoding: .utf8) == "WEB 45008028\n")
        let again = try ReaderModel(context: home.context())
        #expect(again.place == first.place)
        #expect(again.title == "Romans 8")

        // A translation the text database no longer has: the same chapter in the user's own.
        try "GONE 45008028\n".write(toFile: home.paths.readerPlace, atomically: true, encoding: .utf8)
        #expect(try ReaderModel(context: home.context()).place == ReaderPlace(translation: "KJV", verse: VerseID(rawValue: 45_008_028)))
        for damaged in ["", "WEB", "WEB 99001001", "WEB forty", "\u{0}\u{1}"] {
            try damaged.write(toFile: home.paths.readerPlace, atomically: true, encoding: .utf8)
            #expect(try ReaderModel(context: home.context()).title == "Genesis 1", "\(damaged.debugDescription)")
        }
    }

    @Test func theVerseOfTheDayIsTodaysInTheTranslationShown() throws {
        let home = try TestHome()
        let model = try ReaderModel(context: home.context())
        try model.switchTranslation(to: "WEB")
        let verse = try model.verseOfTheDay()
        let today = home.run("today", "--translation", "WEB")
        #expect(today.stdout.hasPrefix("\(verse.label) (WEB)\n"))
        #expect(verse.translation == "WEB")
        try model.goToVerseOfTheDay()
        #expect(model.place == ReaderPlace(translation: "WEB", verse: verse.id))
        #expect(model.canGoBack)
    }
}

@Suite struct ReaderCommandTests {
    /// A second translation beside the first, verse by verse: each verse meets its own, a psalm
    /// title only one has stands alone, and it stays as the reader moves and switches.
    @Test func showsASecondTranslationBesideTheFirstVerseByVerse() throws {
        let model = try ReaderModel(context: TestHome().context())
        try model.go(to: "John 3")
        #expect(try model.parallelVerses() == nil)
        try model.show(beside: "WEB")
        let john = try #require(try model.parallelVerses())
        #expect(john.count == 36)
        #expect(john.allSatisfy { $0.first?.id == $0.second?.id && $0.first != nil })
        #expect(john[15].first?.text?.hasPrefix("For God so loved the world, that he gave his only begotten Son") == true)
        #expect(john[15].second?.text?.hasPrefix("For God so loved the world, that he gave his only born Son") == true)

        try model.go(to: "Ps 23")
        #expect(model.beside?.code == "WEB")
        let psalm = try #require(try model.parallelVerses())
        #expect(psalm.map { $0.first?.id.verse } == Array(0...6))
        #expect(psalm.map { $0.second?.id.verse } == Array(0...6))
        #expect(psalm[1].second?.text == "Yahweh is my shepherd; I shall lack nothing.")

        #expect(throws: (any Error).self) { try model.show(beside: "XYZ") }
        #expect(model.beside?.code == "WEB")
        try model.show(beside: nil)
        #expect(try model.parallelVerses() == nil)
    }

    /// Marks go through the journal as `manna highlight`, `bookmark` and `note` make them, and a
    /// delete can be undone.
    @Test func marksTheVersesSelectedInTheJournalAndUndoesADelete() throws {
        let home = try TestHome()
        let context = home.context()
        let model = try ReaderModel(context: context)
        try model.go(to: "John 3")
        let (v16, v17) = (VerseID(book: 43, chapter: 3, verse: 16), VerseID(book: 43, chapter: 3, verse: 17))
        #expect(try model.marks() == PassageMarks())
        #expect(try model.removeHighlights(from: [v16]) == nil)
        #expect(!Files.exists(context.paths.journal), "reading and finding nothing to remove create no journal")

        try model.highlight([v17, v16], color: .pink)
        #expect(try context.journal().highlights(in: nil).map { "\(Reference($0.verseID)) \($0.color)" } == ["John 3:16 pink", "John 3:17 pink"])
        #expect(try model.marks()[v16].highlight == .pink)
        let removed = try #require(try model.removeHighlights(from: [v16, v17]))
        #expect(removed.message == "2 highlights removed")
        #expect(try model.marks()[v16].highlight == nil)
        try model.undo(removed)
        #expect(try model.marks()[v17].highlight == .pink)

        #expect(try model.toggleBookmark(on: [v16, v17]) == nil)
        #expect(try context.journal().bookmarks(in: nil).map(\.reference.description) == ["John 3:16-17"])
        let unbookmarked = try #require(try model.toggleBookmark(on: [v16]))
        #expect(unbookmarked.message == "Bookmark removed")
        #expect(try context.journal().bookmarks(in: nil).isEmpty)
        try model.undo(unbookmarked)
        #expect(try model.marks()[v16].bookmarked)

        try model.writeNote("The gospel in one verse", on: [v16])
        let note = try #require(try model.notes(on: [v16]).first)
        #expect(note.reference.description == "John 3:16")
        try model.writeNote("The gospel, in one verse", on: [v16], id: note.uuid)
        #expect(try model.notes(on: [v16]).map(\.text) == ["The gospel, in one verse"])
        #expect(throws: MarkError.emptyText) { try model.writeNote("  ", on: [v16]) }
        let deleted = try model.deleteNote(id: note.uuid)
        #expect(deleted.message == "Note deleted")
        #expect(try model.notes(on: [v16]).isEmpty)
        try model.undo(deleted)
        #expect(try model.marks()[v16].notes.map(\.text) == ["The gospel, in one verse"])
    }

    /// Results as `manna search` finds them, in the translation shown, with the exact total; a
    /// result chosen opens its chapter at it.
    @Test func searchesTheTranslationShownAndGoesToAResult() throws {
        let home = try TestHome()
        let model = try ReaderModel(context: home.context())
        #expect(try model.search("  ") == nil)
        let results = try #require(try model.search("loved the world", limit: 5))
        #expect(results.hits.first?.id == VerseID(book: 43, chapter: 3, verse: 16))
        #expect(results.hits.count <= 5)
        // The exact total, as the command line counts it.
        let printed = home.run("search", "loved the world", "--json", "--limit", "1").stdout
        #expect(printed.contains("\"total\": \(results.total)") || printed.contains("\"total\":\(results.total)"), "\(printed.prefix(200))")
        #expect(ChapterMarkup.result(results.hits[0], language: "en").hasPrefix("<b>John 3:16</b>  For God so <span background=\"#ffffaf\" foreground=\"#000000\"><b>loved the world</b></span>, that he gave"))
        #expect(throws: SearchError.self) { try model.search(String(repeating: "a ", count: 40)) }
        model.go(toVerse: results.hits[0].id)
        #expect(model.title == "John 3")
        #expect(model.place.verse == VerseID(book: 43, chapter: 3, verse: 16))
    }

    @Test func pairsVersesByTheirNumberWhereOneSideHasALineTheOtherLacks() {
        let verse = { (number: Int, text: String) in PassageVerse(id: VerseID(book: 19, chapter: 3, verse: number), text: text) }
        let first = [verse(0, "A Psalm of David"), verse(1, "one"), verse(2, "two")]
        let second = [verse(1, "uno"), verse(2, "dos"), verse(3, "tres")]
        #expect(ParallelVerse.pairs(first, second) == [
            ParallelVerse(first: first[0], second: nil), ParallelVerse(first: first[1], second: second[0]),
            ParallelVerse(first: first[2], second: second[1]), ParallelVerse(first: nil, second: second[2]),
        ])
    }

    @Test func opensAPassageTypedInOneOrManyWordsOrWhereTheReaderWas() throws {
        #expect(try ReaderCommand.parse([]) == .open(nil))
        #expect(try ReaderCommand.parse(["John 3:16"]) == .open("John 3:16"))
        #expect(try ReaderCommand.parse(["Ps", "23", "WEB"]) == .open("Ps 23 WEB"))
    }

    @Test func printsItsUsageAndVersionAndRefusesOtherOptions() throws {
        #expect(try ReaderCommand.parse(["--help"]) == .print(ReaderCommand.usage))
        #expect(try ReaderCommand.parse(["-V"]) == .print("manna-reader \(Manna.version)"))
        let error = try #require(throws: (any Error).self) { try ReaderCommand.parse(["--fullscreen", "John 3"]) }
        #expect(ReaderModel.report(error) == (
            "unknown option '--fullscreen': manna-reader takes a passage, like 'manna-reader John 3:16', or --help", 64))
    }
}

@Suite struct ChapterMarkupTests {
    @Test func numbersEachVerseOnItsLineTheTitleInItalicsAndEscapesTheText() {
        let verses = [
            PassageVerse(id: VerseID(rawValue: 19_003_000), text: "A Psalm of David, when he fled from Absalom his son."),
            PassageVerse(id: VerseID(rawValue: 19_003_001), text: "LORD, how are they increased <that> trouble me & mine!"),
            PassageVerse(id: VerseID(rawValue: 19_003_002), text: nil, lostBySource: true),
            PassageVerse(id: VerseID(rawValue: 19_003_003), text: nil),
        ]
        #expect(ChapterMarkup.chapter(verses, language: "en").markup == """
            <i>A Psalm of David, when he fled from Absalom his son.</i>
            <sup><small>1</small></sup> LORD, how are they increased &lt;that&gt; trouble me &amp; mine!
            <sup><small>2</small></sup> <i>missing from this edition's source</i>
            <sup><small>3</small></sup> <i>not in this translation</i>
            """)
    }

    /// Marks as `manna read` shows them: the highlight's colour behind the text, `[bookmark]`,
    /// `[1]` for a note whose text follows the chapter; and where each verse is in the text.
    @Test func showsMarksAsReadDoesAndKnowsWhereEachVerseIs() throws {
        let home = try TestHome()
        let context = home.context()
        let journal = try context.journal()
        let john = (1...3).map { PassageVerse(id: VerseID(book: 43, chapter: 3, verse: $0), text: ["Ä b", "c <d>", "e"][$0 - 1]) }
        _ = try journal.highlight(Reference(john[0].id), color: .green, at: 1_000)
        _ = try journal.bookmark(Reference(john[1].id), at: 1_000)
        let note = try journal.addNote("Born\nagain & again", on: Reference(VerseRange(first: john[1].id, last: john[2].id)), at: 1_000)
        let chapter = ChapterMarkup.chapter(john, language: "en", marks: try journal.marks(on: Reference(VerseRange(first: john[0].id, last: john[2].id))))
        #expect(chapter.markup == """
            <sup><small>1</small></sup> <span background="#afffaf" foreground="#000000">Ä b</span>
            <sup><small>2</small></sup> c &lt;d&gt; [bookmark] [1]
            <sup><small>3</small></sup> e

            [1] John 3:2-3 (\(note.shortID)): Born
                again &amp; again
            """)
        // "1 Ä b\n2 c <d> [bookmark] [1]\n3 e": characters, as GTK counts a label's offsets.
        #expect(chapter.verses.map(\.characters) == [0..<5, 6..<28, 29..<32])
        #expect(chapter.verses(selectedFrom: 3, to: 8) == [john[0].id, john[1].id])
        #expect(chapter.verses(selectedFrom: 33, to: 7) == [john[1].id, john[2].id])
        #expect(chapter.verses(selectedFrom: 12, to: 12) == [john[1].id])
        // The notes' text after the chapter is no verse.
        #expect(chapter.verses(selectedFrom: 40, to: 45) == [])
    }
}
