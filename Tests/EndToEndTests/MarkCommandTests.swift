import Foundation
import Testing
import TestSupport

@Suite struct MarkCommandTests {
    @Test func notesAreAddedListedAndDeleted() throws {
        let home = try TemporaryHome()
        let added = home.run("note", "add", "jn 3:16-18", "The gospel\nin one verse")
        #expect(added.status == 0 && added.stderr == "")
        let id = shortID(added.stdout, after: "note")
        #expect(added.stdout == "added note \(id) on John 3:16-18\n")
        #expect(id.count == 4 && id.allSatisfy { "23456789abcdefghjkmnpqrstuvwxyz".contains($0) })
        let other = shortID(home.run("note", "add", "Genesis", "1:1", "In the beginning").stdout, after: "note")
        #expect(home.run("note", "list").stdout == """
            \(other)  Genesis 1:1   In the beginning
            \(id)  John 3:16-18  The gospel
                                in one verse

            """)
        #expect(home.run("note", "list", "John", "3").stdout.hasPrefix("\(id)  John 3:16-18  The gospel\n"))
        let none = home.run("note", "list", "Ps 23")
        #expect(none.status == 0 && none.stdout == "" && none.stderr == "manna: no notes on Psalm 23\n")
        #expect(home.run("note", "delete", id.uppercased()).stdout == "deleted note \(id) on John 3:16-18 (undo: manna note restore \(id))\n")
        let again = home.run("note", "delete", id)
        #expect(again.status == 65 && again.stderr == "manna: no note with id '\(id)'\n")
        #expect(home.run("note", "list").stdout == "\(other)  Genesis 1:1  In the beginning\n")
    }

    /// A deleted note keeps its text: `note list --deleted` shows it with the day it went, and
    /// `note restore` brings it back (issue 24, point 5: an edit on one device to a note deleted
    /// on another ends here, not lost).
    @Test func deletedNotesAreListedWithTheirTextAndRestored() throws {
        let home = try TemporaryHome()
        let id = shortID(home.run("note", "add", "John 3:16-18", "The gospel\nin one verse", "--now", "2026-03-01T09:00").stdout, after: "note")
        _ = home.run("note", "add", "Gen 1:1", "In the beginning")
        let none = home.run("note", "list", "--deleted")
        #expect(none.status == 0 && none.stdout == "" && none.stderr == "manna: no deleted notes\n")
        home.run("note", "delete", id, "--now", "2026-03-02T10:00")
        #expect(home.run("note", "list", "--deleted").stdout == """
            \(id)  John 3:16-18  2026-03-02  The gospel
                                            in one verse

            """)
        #expect(home.run("note", "list", "--deleted", "Gen 1").stderr == "manna: no deleted notes on Genesis 1\n")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(home.run("note", "list", "--deleted", "--json").stdout.utf8)) as? [[String: Any]])
        #expect(json.count == 1 && json[0]["text"] as? String == "The gospel\nin one verse")
        #expect((json[0]["deleted_at"] as? String)?.hasPrefix("2026-03-02T10:00") == true, "\(json)")
        #expect(home.run("note", "restore", id).stdout == "restored note \(id) on John 3:16-18\n")
        #expect(home.run("note", "list", "--deleted").stderr == "manna: no deleted notes\n")
        #expect(home.run("note", "list", "John 3").stdout.hasPrefix("\(id)  John 3:16-18  The gospel\n"))
    }

    @Test func highlightsChangeColourAndBookmarksTheirPassage() throws {
        let home = try TemporaryHome()
        let added = home.run("highlight", "Ps 23:1-2", "--color", "green")
        let lines = added.stdout.split(separator: "\n").map(String.init)
        let first = String(lines[0].split(separator: "(")[1].dropLast()), second = String(lines[1].split(separator: "(")[1].dropLast())
        #expect(added.stdout == "highlighted Psalm 23:1 green (\(first))\nhighlighted Psalm 23:2 green (\(second))\n")
        #expect(home.run("highlight", "Psalm 23:1").stdout == "highlighted Psalm 23:1 yellow, was green (\(first))\n")
        #expect(home.run("highlight", "add", "Psalm 23:1", "--color=YELLOW").stdout == "Psalm 23:1 is already yellow (\(first))\n")
        #expect(home.run("highlight", "list").stdout == "\(first)  Psalm 23:1  yellow\n\(second)  Psalm 23:2  green\n")
        #expect(home.run("highlight", "delete", second).stdout == "deleted highlight \(second) on Psalm 23:2 (undo: manna highlight restore \(second))\n")

        let bookmark = home.run("bookmark", "add", "John 3:16")
        let id = String(bookmark.stdout.split(separator: "(")[1].dropLast(2))
        #expect(bookmark.stdout == "bookmarked John 3:16 (\(id))\n")
        #expect(home.run("bookmark", "add", "John 3:16").stdout == "John 3:16 is already bookmarked (\(id))\n")
        #expect(home.run("bookmark", "add", "John 3:16-18").stdout == "bookmarked John 3:16-18, was John 3:16 (\(id))\n")
        #expect(home.run("bookmark", "list").stdout == "\(id)  John 3:16-18\n")
        #expect(home.run("bookmark", "delete", id).stdout == "deleted bookmark \(id) on John 3:16-18 (undo: manna bookmark restore \(id))\n")
        #expect(home.run("bookmark", "list").stderr == "manna: no bookmarks\n")
    }

    @Test(arguments: [
        (["note", "add", "John", "3:16"], 64, "manna: note add needs a reference and the note's text, like: manna note add \"John 3:16\" \"The gospel in one verse\"\n"),
        (["note", "add", "Hezekiah 1", "text"], 65, "manna: no book called 'Hezekiah'\n"),
        (["note", "add", "John 3:16", " "], 64, "manna: a note needs some text, like: manna note add \"John 3:16\" \"The gospel in one verse\"\n"),
        (["note", "delete", "zzzz"], 65, "manna: no note with id 'zzzz'\n"),
        (["note", "delete"], 64, "manna: note delete needs one id, like 'manna note delete k7m2'; see 'manna note list'\n"),
        (["note"], 64, "manna: note needs 'add REF TEXT', 'list [REF]', 'edit ID TEXT', 'delete ID' or 'restore ID'; see 'manna note --help'\n"),
        (["note", "list", "John 3:99"], 65, "manna: John 3 has only 36 verses\n"),
        (["highlight", "John 3:16", "--color", "red"], 64, "manna: --color must be yellow, green, blue, pink or purple, not 'red'\n"),
        (["highlight", "list", "--color", "red"], 64, "manna: option --color does not apply to 'highlight list'; see 'manna highlight --help'\n"),
        (["highlight", "Jude 2:1"], 65, "manna: Jude has only 1 chapter\n"),
        (["highlight"], 64, "manna: highlight needs a reference, like 'manna highlight John 3:16'\n"),
        (["highlight", "delete", "x9"], 65, "manna: no highlight with id 'x9'\n"),
        (["bookmark", "add"], 64, "manna: bookmark add needs a reference, like 'manna bookmark add John 3:16'\n"),
        (["bookmark", "delete", "x9"], 65, "manna: no bookmark with id 'x9'\n"),
        (["bookmark", "John 3:16"], 64, "manna: bookmark needs 'add REF', 'list [REF]', 'delete ID' or 'restore ID'; see 'manna bookmark --help'\n"),
    ])
    func badInputGetsOneLineAndNoJournal(arguments: [String], status: Int32, message: String) throws {
        let home = try TemporaryHome()
        precondition(Manna.textDatabaseReady)
        let run = Manna.run(arguments, environment: ["HOME": home.url.path])
        #expect(run.status == status)
        #expect(run.stderr == message)
        #expect(run.stdout == "")
        #expect(!FileManager.default.fileExists(atPath: home.journal))
    }

    @Test func readMarksVersesAndLeavesUnmarkedOnesAsTheyWere() throws {
        let home = try TemporaryHome()
        let unmarked = home.run("read", "John 3:15-17")
        // Reading, listing and exporting never create a journal.
        home.run("note", "list")
        home.run("export")
        #expect(!FileManager.default.fileExists(atPath: home.journal))

        home.run("highlight", "John 3:16", "--color", "pink")
        home.run("bookmark", "add", "John 3:17")
        let note = shortID(home.run("note", "add", "John 3:16-17", "Love, then sending").stdout, after: "note")
        let marked = home.run("read", "John 3:15-17")
        #expect(marked.status == 0)
        let lines = unmarked.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(marked.stdout == """
            \(lines[0])
            \(lines[1])
            \(lines[2]) [pink] [1]
            \(lines[3]) [bookmark]

            [1] John 3:16-17 (\(note)): Love, then sending

            """)
        #expect(home.run("read", "John 3:15").stdout == manna("read", "John 3:15").stdout)

        let json = try #require(Manna.json(home.run("read", "John 3:15-17", "--json")) as? [String: Any])
        let verses = try #require(json["verses"] as? [[String: Any]])
        #expect(verses[0]["highlight"] is NSNull)
        #expect(verses[0]["bookmarked"] as? Bool == false)
        #expect((verses[0]["notes"] as? [Any])?.isEmpty == true)
        #expect(verses[1]["highlight"] as? String == "pink")
        #expect(verses[1]["notes"] as? [[String: String]] == [["id": note, "reference": "John 3:16-17", "text": "Love, then sending"]])
        #expect(verses[2]["bookmarked"] as? Bool == true)
    }

    /// An export whose bookmarks have known creation times, so their order is known.
    static func bookmarksFile(_ passages: [(String, Int, String)]) -> String {
        let records = passages.enumerated().map { index, passage in
            """
            {"uuid": "0000000\(index)-2fa1-4d2b-883f-0016d3cca427", "short_id": "b\(index)", "verse_id": \(passage.1),
             "reference": "\(passage.0)", "created_at": "\(passage.2)", "updated_at": "\(passage.2)", "deleted_at": null}
            """
        }
        return #"{"format": "manna-export", "version": 1, "bookmarks": ["# + records.joined(separator: ", ") + "]}"
    }

    @Test func theVerseOfTheDayCanComeFromBookmarks() throws {
        let home = try TemporaryHome(config: "daily_source = bookmarks\n")
        // No journal, no bookmarks: the curated verse, said so, and no journal created.
        let none = home.run("today", "--date", "2026-12-25")
        #expect(none.stdout == manna("today", "--date", "2026-12-25").stdout)
        #expect(none.stderr == "manna: daily_source is bookmarks, but there are no bookmarks: the verse is from the curated list ('manna bookmark add REF' adds one)\n")
        #expect(!FileManager.default.fileExists(atPath: home.journal))
        let file = home.url.appendingPathComponent("bookmarks.json")
        try Self.bookmarksFile([("John 11:35", 43_011_035, "2026-01-02T00:00:00Z"), ("Psalm 23:1-2", 19_023_001, "2026-01-01T00:00:00Z")])
            .write(to: file, atomically: true, encoding: .utf8)
        #expect(home.run("import", file.path).status == 0)
        // Oldest first: Psalm 23 then John 11:35. 2026-03-08 is day 20,520 since 1970: even.
        #expect(home.run("today", "--date", "2026-03-08").stdout == """
            Psalm 23:1-2 (KJV)
            The LORD is my shepherd; I shall not want. He maketh me to lie down in green pastures: he leadeth me beside the still waters.

            """)
        let bookmarked = home.run("today", "--date", "2026-03-09")
        #expect(bookmarked.stdout == "John 11:35 (KJV)\nJesus wept.\n" && bookmarked.stderr.isEmpty)
        #expect(home.run("today", "--date", "2027-03-09").stdout == home.run("today", "--date", "2026-03-08").stdout)
        let timeline = home.run("timeline", "--print", "--now", "2026-03-08T12:00")
        #expect(timeline.stdout.contains("\"reference\": \"Psalm 23:1-2\""))
        #expect(timeline.stdout.contains("\"reference\": \"John 11:35\""))
        #expect(home.run("config", "get", "daily_source").stdout == "bookmarks\n")
        #expect(home.run("config", "set", "daily_source", "mine").stderr
            == "manna: daily_source must be curated (the shipped list) or bookmarks (your bookmarked passages), not 'mine'\n")
    }

    /// Runs manna on a pseudo-terminal (script(1)), as a person at a terminal does.
    func atTerminal(_ home: TemporaryHome, _ arguments: String...) throws {
        let command = ([Manna.binary] + arguments).map { "'" + $0 + "'" }.joined(separator: " ")
        Manna.run(["-qec", command, "/dev/null"], environment: ["HOME": home.path], executable: try #require(TestEnvironment.path(of: "script")))
    }

    @Test(.needs(.script)) func searchesAtATerminalAreKeptScriptedOnesNot() throws {
        let home = try TemporaryHome()
        try atTerminal(home, "search", "love one another")
        try atTerminal(home, "search", "grace", "--translation", "WEB", "--limit", "1")
        try atTerminal(home, "search", "scripted", "--json")
        home.run("search", "from a pipe")
        let history = home.run("search", "--history")
        let lines = history.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0].hasSuffix("  WEB  grace") && lines[1].hasSuffix("  KJV  love one another"))
        #expect(lines.allSatisfy { $0.count > 18 && LocalDateTimeShape.matches(String($0.prefix(16))) })
        let json = try #require(Manna.json(home.run("search", "--history", "--json")) as? [String: [[String: String]]])
        #expect(json["searches"]?.map { $0["query"] } == ["grace", "love one another"])
        #expect(home.run("search", "--history", "love").status == 64)
    }

    @Test(.needs(.script)) func aDamagedJournalStopsItsCommandsButNotASearch() throws {
        let home = try TemporaryHome()
        try FileManager.default.createDirectory(atPath: (home.journal as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let garbage = Data(repeating: 0x42, count: 9000)
        try garbage.write(to: URL(fileURLWithPath: home.journal))
        let empty = home.url.appendingPathComponent("empty.json")
        try #"{"format": "manna-export", "version": 1}"#.write(to: empty, atomically: true, encoding: .utf8)
        let message = "manna: the journal \(home.journal) is damaged and was left untouched: move it aside (mv \(home.journal) \(home.journal).damaged) to start a new one, or restore it from a backup\n"
        for arguments in [["note", "add", "John 3:16", "x"], ["note", "list"], ["highlight", "John 3:16"], ["bookmark", "add", "Ps 23"],
                          ["export"], ["import", empty.path], ["search", "--history"]] {
            let run = Manna.run(arguments, environment: ["HOME": home.url.path])
            #expect(run.status == 74, "\(arguments)")
            #expect(run.stderr == message, "\(arguments)")
        }
        // Scripture is still read, without marks; the status says the journal is damaged.
        let read = home.run("read", "John 11:35")
        #expect(read.status == 74 && read.stdout == "John 11:35 (KJV)\n35 Jesus wept.\n" && read.stderr == message)
        let command = [Manna.binary, "search", "love one another", "--limit", "1"].map { "'" + $0 + "'" }.joined(separator: " ")
        let search = Manna.run(["-qec", command, "/dev/null"], environment: ["HOME": home.path, "NO_COLOR": "1"],
                               executable: try #require(TestEnvironment.path(of: "script")))
        #expect(search.status == 0)
        // On a terminal stdout and stderr are one stream: the hit, then the line about history.
        #expect(search.stdout.hasPrefix("John 13:34"))
        #expect(search.stdout.contains("manna: the search was not kept in the history: " + message.dropFirst("manna: ".count).dropLast() + "\r\n"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: home.journal)) == garbage)
    }
}

/// `YYYY-MM-DD HH:MM`.
enum LocalDateTimeShape {
    static func matches(_ text: String) -> Bool {
        let shape = Array("dddd-dd-dd dd:dd")
        return text.count == shape.count && zip(text, shape).allSatisfy { $1 == "d" ? $0.isNumber : $0 == $1 }
    }
}
