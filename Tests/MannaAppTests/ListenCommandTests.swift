import Testing
import TestSupport
@testable import MannaApp
@testable import MannaKit

@Suite struct ListenCommandTests {
    @Test func keysBecomeCommands() {
        #expect(ListenKey.keys(in: Array(" np".utf8)) == [.command(.toggle), .command(.skip(1)), .command(.skip(-1))])
        #expect(ListenKey.keys(in: [0x1B, 0x5B, 0x43, 0x1B, 0x5B, 0x44]) == [.command(.seek(10)), .command(.seek(-10))])
        #expect(ListenKey.keys(in: [0x1B, 0x4F, 0x43]) == [.command(.seek(10))], "application cursor mode")
        #expect(ListenKey.keys(in: [3]) == [.quit], "Ctrl-C, a key in raw mode")
        #expect(ListenKey.keys(in: Array("qx".utf8)) == [.quit])
        #expect(ListenKey.keys(in: [0x1B]) == [], "a lone escape is no key")
        #expect(ListenKey.keys(in: Array("s".utf8)) == [.sleepLonger])
        #expect(ListenKey.keys(in: Array("+=-".utf8)) == [.faster, .faster, .slower])
    }

    /// What is refused before any sound: the command line, the passage, the place to start.
    @Test(arguments: [
        (["listen", "John", "3", "--rate", "500"], 64, "manna: --rate must be words a minute from 80 to 450, not '500'\n"),
        (["listen", "John", "3", "--from", "3:40"], 64, "manna: --from '3:40' is not a verse of John 3\n"),
        (["listen", "Nosuch", "3"], 65, "manna: no book called 'Nosuch'"),
        (["listen"], 64, "manna: nothing to resume: give a passage, like 'manna listen John 3'\n"),
        (["listen", "John", "3", "--export", "reading.mp3"], 64, "manna: --export 'reading.mp3': the name must end in .wav, .flac, .ogg, .opus (the kind of audio to write)\n"),
        (["listen", "--voices", "John"], 64, "manna: --voices takes no passage\n"),
        (["listen", "John", "3", "--sleep", "20x"], 64, "manna: --sleep must be a time like 90s, 20m or 1h (at most 24h), or 'chapter', not '20x'\n"),
        (["listen", "John", "3", "--sleep", "0m"], 64, "manna: --sleep must be a time like 90s, 20m or 1h (at most 24h), or 'chapter', not '0m'\n"),
        (["listen", "John", "3", "--sleep", "25h"], 64, "manna: --sleep must be a time like 90s, 20m or 1h (at most 24h), or 'chapter', not '25h'\n"),
        (["listen", "John", "3", "--continue", "--repeat"], 64, "manna: --continue reads on after the passage and --repeat starts it again: give one of them\n"),
        (["listen", "John", "3", "--export", "reading.wav", "--repeat"], 64, "manna: --export writes the passage once, to a file: --repeat is for listening\n"),
    ])
    func badInputIsRefusedInOneLine(arguments: [String], status: Int32, message: String) throws {
        let home = try TestHome()
        let outcome = home.run(arguments)
        #expect(outcome.status == status)
        #expect(outcome.stderr.hasPrefix(message), "\(outcome.stderr)")
        #expect(outcome.stdout == "")
    }

    /// `--sleep` as people write it: seconds, minutes or hours, or the chapter's end.
    @Test func sleepTakesATimeOrTheChapter() throws {
        #expect(try Listening.Controls.sleep("90s") == .after(90))
        #expect(try Listening.Controls.sleep("20m") == .after(1200))
        #expect(try Listening.Controls.sleep("1h") == .after(3600))
        #expect(try Listening.Controls.sleep("chapter") == .endOfChapter)
        for bad in ["20", "m", "-5m", "+5m", "1.5h", "1h30m", "", "٣m"] {
            #expect(throws: Failure.self, "\(bad)") { try Listening.Controls.sleep(bad) }
        }
    }

    /// `--continue` reads on a chapter at a time: the rest of the chapter, the next, the next
    /// book, and nothing after Revelation 22:21; `--sleep chapter` stops with the chapter's last verse.
    @Test func readingOnGoesChapterByChapterAcrossBooks() throws {
        #expect(Listening.chapter(after: try Reference(parsing: "John 3:36"))?.description == "John 4")
        #expect(Listening.chapter(after: try Reference(parsing: "John 3:16"))?.description == "John 3:17-36")
        #expect(Listening.chapter(after: try Reference(parsing: "John 21"))?.description == "Acts 1")
        #expect(Listening.chapter(after: try Reference(parsing: "Ps 23; Malachi 4"))?.description == "Matthew 1")
        #expect(Listening.chapter(after: try Reference(parsing: "Revelation 22:21")) == nil)
        let spoken = [43_003_035, 43_003_036, 43_004_001, 43_004_002].map { ListenRequest.Verse(id: $0, text: "") }
        #expect(Listening.chapterEnd(in: spoken, from: 0) == 1)
        #expect(Listening.chapterEnd(in: spoken, from: 2) == 3)
    }

    /// `--from` as people write it: a verse of the passage's chapter, chapter:verse, a reference.
    @Test func fromTakesAVerseNumberChapterAndVerseOrAReference() throws {
        let spoken = (1...36).map { ListenRequest.Verse(id: 43_003_000 + $0, text: "v\($0)") }
        let reference = try Reference(parsing: "John 3")
        #expect(try Listening.startIndex("16", in: spoken, of: reference) == 15)
        #expect(try Listening.startIndex("3:16", in: spoken, of: reference) == 15)
        #expect(try Listening.startIndex("John 3:36", in: spoken, of: reference) == 35)
        #expect(throws: Failure.usage("--from '4:1' is not a verse of John 3")) { try Listening.startIndex("4:1", in: spoken, of: reference) }
    }

    @Test func timesReadAsPeopleReadThem() {
        #expect(ListenSession.time(0) == "0.00")
        #expect(ListenSession.time(7.913) == "7.91")
        #expect(ListenSession.time(61.005) == "61.01")
        #expect(Formatting.clock(214.83) == "3:34")
        #expect(Formatting.clock(3725) == "1:02:05")
    }
}
