import Foundation
import TestSupport
import Testing

@Suite struct ReadTests {
    @Test func readsAVerse() {
        let run = manna("read", "John", "3:16")
        #expect(run.status == 0)
        #expect(run.stderr == "")
        #expect(run.stdout == """
            John 3:16 (KJV)
            16 For God so loved the world, that he gave his only begotten Son, that whosoever believeth in him should not perish, but have everlasting life.

            """)
    }

    @Test func readsAPassageAcrossChapters() {
        let run = manna("read", "Gen 1:31-2:1")
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("Genesis 1:31-2:1 (KJV)\n1:31 And God saw every thing that he had made"))
        #expect(run.stdout.contains("\n 2:1 Thus the heavens and the earth were finished"))
    }

    @Test func jsonGivesIdsReferencesAndText() throws {
        let run = manna("read", "jn 3:16-17", "--json")
        #expect(run.status == 0)
        let object = try #require(Manna.json(run) as? [String: Any])
        #expect(object["reference"] as? String == "John 3:16-17")
        #expect(object["translation"] as? String == "KJV")
        let verses = try #require(object["verses"] as? [[String: Any]])
        #expect(verses.map { $0["id"] as? Int } == [43_003_016, 43_003_017])
        #expect(verses.map { $0["reference"] as? String } == ["John 3:16", "John 3:17"])
        #expect((verses[1]["text"] as? String)?.hasPrefix("For God sent not his Son") == true)
    }

    @Test func aVerseATranslationLacksIsShownAsAbsent() throws {
        let run = manna("read", "Matt 17:20-21", "--translation", "asv")
        #expect(run.status == 0)
        #expect(run.stdout.hasSuffix("21 [not in the ASV]\n"))
        let json = manna("read", "Matt 17:21", "--translation", "ASV", "--json")
        let verses = try #require((Manna.json(json) as? [String: Any])?["verses"] as? [[String: Any]])
        #expect(verses.count == 1)
        #expect(verses[0]["text"] is NSNull)
    }

    @Test func translationComesFromTheOptionThenTheEnvironment() {
        let web = manna("read", "John 11:35", environment: ["MANNA_TRANSLATION": "WEB"])
        #expect(web.stdout.hasPrefix("John 11:35 (WEB)\n"))
        let option = manna("read", "John 11:35", "--translation=KJV", environment: ["MANNA_TRANSLATION": "WEB"])
        #expect(option.stdout == "John 11:35 (KJV)\n35 Jesus wept.\n")
    }

    /// A reference written with a Spanish name reads in the Spanish translation when none is
    /// chosen (issue 29); a translation chosen any way wins, and one that is Spanish makes
    /// Spanish forms win ("Mc" is Marcos, not Micah).
    @Test func aSpanishReferenceReadsInSpanishUnlessATranslationIsChosen() throws {
        let spanish = manna("read", "Juan 3:16")
        #expect(spanish.status == 0)
        #expect(spanish.stderr == "")
        #expect(spanish.stdout == """
            Juan 3:16 (RV1909)
            16 Porque de tal manera amó Dios al mundo, que ha dado á su Hijo unigénito, para que todo aquel que en él cree, no se pierda, mas tenga vida eterna.

            """)
        #expect(manna("read", "Jn 3:16").stdout.hasPrefix("John 3:16 (KJV)\n"))
        #expect(manna("read", "Juan 3:16", "-t", "WEB").stdout.hasPrefix("John 3:16 (WEB)\n"))
        #expect(manna("read", "Juan 3:16 KJV").stdout.hasPrefix("John 3:16 (KJV)\n"))
        #expect(manna("read", "Juan 3:16", environment: ["MANNA_TRANSLATION": "ASV"]).stdout.hasPrefix("John 3:16 (ASV)\n"))
        let home = try TemporaryHome(config: "translation = WBS\n")
        #expect(home.run("read", "Juan 3:16").stdout.hasPrefix("John 3:16 (WBS)\n"))
        #expect(manna("read", "Mc 1:1", "-t", "RV1909").stdout.hasPrefix("Marcos 1:1 (RV1909)\n"))
        #expect(manna("read", "Mt 5, 3-4", "--json").stdout.contains("\"reference\":\"Matthew 5:3-4\""))
    }

    @Test func compareShowsEveryTranslation() {
        let run = manna("compare", "John 11:35")
        #expect(run.status == 0)
        let headings = run.stdout.split(separator: "\n").filter { $0.hasPrefix("John 11:35 (") }
        #expect(headings.count == 4)
        for code in ["KJV", "ASV", "WBS", "WEB"] {
            #expect(headings.contains { $0 == "John 11:35 (\(code))" })
        }
        // The Spanish one with its own book names.
        #expect(run.stdout.hasSuffix("Juan 11:35 (RV1909)\n35 Y lloró Jesús.\n"))
    }

    @Test(arguments: [
        (["read", "Jude", "2:1"], 65, "manna: Jude has only 1 chapter\n"),
        (["read", "Hezekiah", "1"], 65, "manna: no book called 'Hezekiah'\n"),
        (["read", "John", "3:37"], 65, "manna: John 3 has only 36 verses\n"),
        (["read"], 64, "manna: read needs a reference, like 'manna read John 3:16'\n"),
        (["read", "John 3:16", "--translation", "NIV"], 64, "manna: unknown translation 'NIV': choose one of KJV, ASV, WBS, WEB or RV1909\n"),
        (["read", "John 3:16", "--color"], 64, "manna: unknown option '--color' for 'manna read'; see 'manna read --help'\n"),
        (["read", "John 3:16", "--translation"], 64, "manna: option --translation needs a value; see 'manna read --help'\n"),
        (["compare"], 64, "manna: compare needs a reference, like 'manna compare John 3:16'\n"),
        (["frobnicate"], 64, "manna: unknown command 'frobnicate'; see 'manna --help' for the commands\n"),
    ])
    func badInputGetsOneLineAndAnExitCode(arguments: [String], status: Int32, message: String) {
        precondition(Manna.textDatabaseReady)
        let run = Manna.run(arguments)
        #expect(run.status == status)
        #expect(run.stderr == message)
        #expect(run.stdout == "")
    }

    /// Found by fuzzing: an error quoting input with a newline, or a megabyte of it, is still one line.
    @Test func errorsQuotingInputStayOneLine() {
        precondition(Manna.textDatabaseReady)
        let newline = Manna.run(["read", "`\nk'"])
        #expect(newline.status == 65)
        #expect(newline.stderr == "manna: no book called 'k'; did you mean 'Mark'?\n")
        let quoted = Manna.run(["read", "\"\nJohn\u{1B}[2J 3:99"])
        #expect(quoted.status == 65)
        #expect(quoted.stderr.split(separator: "\n").count == 1 && !quoted.stderr.contains("\u{1B}"))
        let huge = Manna.run(["read", "John " + String(repeating: "x", count: 100_000)])
        #expect(huge.status == 65)
        #expect(huge.stderr.split(separator: "\n").count == 1 && huge.stderr.count < 500)
    }

    @Test func pathsNamesTheTextDatabase() {
        let run = manna("paths")
        #expect(run.status == 0)
        #expect(run.stdout.contains("text_db=\(Manna.root)/.build/bible.sqlite\n"))
        let explicit = manna("paths", environment: ["MANNA_TEXT_DB": "/tmp/elsewhere.sqlite"])
        #expect(explicit.stdout.contains("text_db=/tmp/elsewhere.sqlite\n"))
    }

    @Test func aMissingOrDamagedTextDatabaseIsReportedNotCrashedOn() throws {
        let missing = manna("read", "John 3:16", environment: ["MANNA_TEXT_DB": "/nonexistent/bible.sqlite"])
        #expect(missing.status == 74)
        #expect(missing.stderr.hasPrefix("manna: the text database /nonexistent/bible.sqlite is damaged or not a Manna text database"))
        let garbage = FileManager.default.temporaryDirectory.appendingPathComponent("garbage-\(UUID()).sqlite")
        try Data(repeating: 0x41, count: 10_000).write(to: garbage)
        defer { try? FileManager.default.removeItem(at: garbage) }
        let damaged = manna("read", "John 3:16", environment: ["MANNA_TEXT_DB": garbage.path])
        #expect(damaged.status == 74)
        #expect(damaged.stderr.split(separator: "\n").count == 1)
        #expect(!damaged.stderr.lowercased().contains("sqlite error"))
    }

    /// The search index is a file of its own that only a search opens: without it every
    /// other command works, and a search says what is missing in one line.
    @Test func onlyASearchNeedsTheSearchIndex() throws {
        precondition(Manna.textDatabaseReady)
        let scratch = try Scratch("no-index")
        let database = scratch.file("bible.sqlite")
        try FileManager.default.copyItem(atPath: Manna.root + "/.build/bible.sqlite", toPath: database)
        let environment = ["MANNA_TEXT_DB": database]
        let read = manna("read", "John 3:16", "-t", "KJV", environment: environment)
        #expect(read.status == 0 && read.stdout.contains("For God so loved the world"), "\(read.stderr)")
        #expect(manna("today", "--date", "2026-12-25", environment: environment).status == 0)
        let search = manna("search", "love", environment: environment)
        #expect(search.status == 69)
        #expect(search.stderr == "manna: the search index \(scratch.file("bible-search.sqlite")) is missing; run 'manna build-db' (or reinstall) to make it beside the text database\n")
        try FileManager.default.copyItem(atPath: Manna.root + "/.build/bible-search.sqlite", toPath: scratch.file("bible-search.sqlite"))
        #expect(manna("search", "love", environment: environment).status == 0)
    }

    @Test func helpIsPrintedForEachCommand() {
        let run = manna("read", "--help")
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("usage: manna read REF... [--translation T] [--json]\n"))
    }
}
