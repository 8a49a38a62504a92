import Foundation
import Testing
import TestSupport
@testable import MannaKit

@Suite struct SHA256Tests {
    /// FIPS 180-4's examples, and lengths either side of a block's padding boundary, checked
    /// against sha256sum.
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        (String(repeating: "a", count: 55), "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
        (String(repeating: "a", count: 56), "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
        (String(repeating: "a", count: 64), "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
    ])
    func digestsAreTheStandardOnes(input: String, digest: String) {
        var hash = SHA256()
        hash.update(Array(input.utf8))
        #expect(hash.hexDigest() == digest)
    }

    @Test func aFileIsHashedInPiecesLikeAWhole() throws {
        let scratch = try Scratch("sha")
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try Data(bytes).write(to: scratch.url.appendingPathComponent("audio"))
        var whole = SHA256()
        whole.update(bytes)
        #expect(try SHA256.hexDigest(ofFile: scratch.path + "/audio") == whole.hexDigest())
    }
}

@Suite struct PlayerProtocolTests {
    @Test func commandsAndEventsReadBackAsWritten() throws {
        for command in [PlayerCommand.pause, .resume, .toggle, .skip(-1), .skip(1), .seek(-10), .seek(10.5), .verse(3), .quit] {
            #expect(PlayerCommand(line: command.line) == command)
        }
        #expect(PlayerCommand(line: "seek nan") == nil)
        #expect(PlayerCommand(line: "skip") == nil)
        let events: [PlayerEvent] = [.started(sampleRate: 22050, voice: "en-gb"), .verse(index: 2, t: 7.913), .paused(index: 2, t: 9.5),
                                     .resumed(index: 2, t: 9.5), .ended(t: 13.65), .failed(status: 69, message: "no sound server")]
        for event in events {
            #expect(try PlayerEvent(line: event.json.text) == event)
        }
        #expect(PlayerEvent.verse(index: 1, t: 0.7650339).json.text == #"{"event":"verse","index":1,"t":0.765}"#)
        #expect(throws: PlayerProtocolError.self) { try PlayerEvent(line: #"{"event":"verse"}"#) }
    }

    @Test func aRequestReadsBackAndMustStartAtOneOfItsVerses() throws {
        let request = ListenRequest(verses: [.init(id: 43_011_035, text: "Jesus wept.")], voice: "en-gb", rate: 175, start: 0)
        #expect(try ListenRequest(json: request.json) == request)
        let beyond = ListenRequest(verses: request.verses, voice: "en-gb", rate: 175, start: 1)
        #expect(throws: PlayerProtocolError.self) { try ListenRequest(json: beyond.json) }
    }

    @Test func eachTranslationHasAVoiceInItsLanguage() {
        #expect(SpeechVoice.defaultVoice(forTranslation: "KJV") == "en-gb")
        #expect(SpeechVoice.defaultVoice(forTranslation: "WEB") == "en-us")
    }
}

@Suite struct CueSheetTests {
    static let sheet = CueSheet(passage: "John 3", translation: "KJV", voice: "en-gb", audio: "j.flac", sampleRate: 22050, duration: 10,
                                sha256: String(repeating: "0", count: 64), cues: [
                                    .init(id: VerseID(rawValue: 43_003_001), start: 0, end: 3.5),
                                    .init(id: VerseID(rawValue: 43_003_002), start: 3.5, end: 7.25),
                                    .init(id: VerseID(rawValue: 43_003_003), start: 7.25, end: 10),
                                ])

    /// As in the seed: the verse at t is the last whose start is not after it.
    @Test(arguments: [(0.0, 0), (3.49, 0), (3.5, 1), (7.0, 1), (7.25, 2), (99.0, 2), (-1.0, 0)])
    func theVerseHeardIsTheLastStartedByThen(seconds: Double, index: Int) {
        #expect(Self.sheet.cueIndex(at: seconds) == index)
    }

    @Test func itsJSONNamesEachVerseAndRoundsToTheMicrosecond() {
        let sheet = CueSheet(passage: "Jude", translation: "WEB", voice: "en-us", audio: "a.wav", sampleRate: 22050,
                             duration: 1.0 / 3, sha256: "ab", cues: [.init(id: VerseID(rawValue: 65_001_001), start: 0, end: 1.0 / 3)])
        #expect(sheet.json.text == #"{"format":"manna-cues","version":1,"passage":"Jude","translation":"WEB","voice":"en-us","audio":"a.wav","#
            + #""sample_rate":22050,"duration":0.333333,"sha256":"ab","verses":[{"id":65001001,"reference":"Jude 1:1","start":0,"end":0.333333}]}"#)
        #expect(CueSheet.path(forAudio: "/music/john.flac") == "/music/john.flac.cues.json")
    }
}

@Suite struct FollowAlongTests {
    /// Ten verses of two lines each after a heading line: verse n takes lines 2n-1 and 2n.
    static func screen() -> FollowAlong {
        var lines = ["John 3 (KJV)"]
        var ranges: [VerseID: Range<Int>] = [:]
        for verse in 1...10 {
            ranges[VerseID(book: 43, chapter: 3, verse: verse)] = lines.count..<(lines.count + 2)
            lines += ["\(verse) first", "  second"]
        }
        return FollowAlong(lines: lines, verseLines: ranges)
    }

    static func verse(_ number: Int) -> VerseID { VerseID(book: 43, chapter: 3, verse: number) }

    @Test func theScreenScrollsOnlyWhenTheVerseLeavesIt() {
        var screen = Self.screen()
        screen.follow(Self.verse(1), height: 6)
        #expect(screen.top == 0)
        screen.follow(Self.verse(2), height: 6)
        #expect(screen.top == 0, "verse 2 (lines 3-4) is on screen")
        screen.follow(Self.verse(3), height: 6)
        #expect(screen.top == 4, "verse 3 (lines 5-6) went below: it moves up, one line of context above")
        screen.follow(Self.verse(4), height: 6)
        #expect(screen.top == 4)
        screen.follow(Self.verse(1), height: 6)
        #expect(screen.top == 0, "back above the screen")
        screen.follow(Self.verse(10), height: 6)
        #expect(screen.top == 15, "no further than the passage's end")
    }

    @Test func theVerseHeardIsInReverseVideoAndLinesAreCut() {
        var screen = Self.screen()
        screen.follow(Self.verse(1), height: 4)
        let lines = screen.screen(current: Self.verse(1), height: 4, width: 5)
        #expect(lines == ["John ", "\u{1B}[7m1 fir\u{1B}[27m", "\u{1B}[7m  sec\u{1B}[27m", "2 fir"])
        // Escape sequences take no columns.
        #expect(FollowAlong.cut("\u{1B}[38;5;16mabcdef\u{1B}[39m", to: 3) == "\u{1B}[38;5;16mabc\u{1B}[39m")
        #expect(Self.screen().screen(current: nil, height: 30, width: 80).count == 30)
    }

    @Test func theLayoutKnowsEachVersesLines() {
        let verses = [PassageVerse(id: Self.verse(16), text: String(repeating: "word ", count: 30)), PassageVerse(id: Self.verse(17), text: "short")]
        let layout = PassageFormatter.layout(reference: try! Reference(parsing: "John 3:16-17"), translation: "KJV", verses: verses, width: 40)
        #expect(layout.verseLines[Self.verse(16)] == 1..<6)
        #expect(layout.verseLines[Self.verse(17)] == 6..<7)
        #expect(layout.lines == PassageFormatter.lines(reference: try! Reference(parsing: "John 3:16-17"), translation: "KJV", verses: verses, width: 40))
    }
}

@Suite struct ListeningPositionTests {
    @Test func thePlaceIsKeptUntilThePassageIsHeardToItsEnd() throws {
        let scratch = try Scratch("listening")
        let journal = try Journal(path: scratch.path + "/journal.sqlite")
        #expect(try journal.listeningPosition() == nil)
        let position = ListeningPosition(passage: "John 3", translation: "KJV", verse: VerseID(rawValue: 43_003_016), voice: "en-gb", rate: nil,
                                         updatedAt: 1_800_000_000)
        try journal.saveListeningPosition(position)
        #expect(try journal.listeningPosition() == position)
        let later = ListeningPosition(passage: "Ps 23", translation: "WEB", verse: VerseID(rawValue: 19_023_004), voice: nil, rate: 300,
                                      updatedAt: 1_800_000_060)
        try journal.saveListeningPosition(later)
        #expect(try journal.listeningPosition() == later)
        try journal.clearListeningPosition()
        #expect(try journal.listeningPosition() == nil)
    }
}
