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
    }

    /// What is refused before any sound: the command line, the passage, the place to start.
    @Test(arguments: [
        (["listen", "John", "3", "--rate", "500"], 64, "manna: --rate must be words a minute from 80 to 450, not '500'\n"),
        (["listen", "John", "3", "--from", "3:40"], 64, "manna: --from '3:40' is not a verse of John 3\n"),
        (["listen", "Nosuch", "3"], 65, "manna: no book called 'Nosuch'"),
        (["listen"], 64, "manna: nothing to resume: give a passage, like 'manna listen John 3'\n"),
        (["listen", "John", "3", "--export", "reading.mp3"], 64, "manna: --export 'reading.mp3': the name must end in .wav, .flac, .ogg, .opus (the kind of audio to write)\n"),
        (["listen", "--voices", "John"], 64, "manna: --voices takes no passage\n"),
    ])
    func badInputIsRefusedInOneLine(arguments: [String], status: Int32, message: String) throws {
        let home = try TestHome()
        let outcome = home.run(arguments)
        #expect(outcome.status == status)
        #expect(outcome.stderr.hasPrefix(message), "\(outcome.stderr)")
        #expect(outcome.stdout == "")
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
