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
        for command in [PlayerCommand.pause, .resume, .toggle, .skip(-1), .skip(1), .seek(-10), .seek(10.5), .verse(3), .position(30), .sleep(1200), .rate(350), .quit] {
            #expect(PlayerCommand(line: command.line) == command)
        }
        #expect(PlayerCommand(line: "seek nan") == nil)
        #expect(PlayerCommand(line: "skip") == nil)
        #expect(PlayerCommand(line: "position -1") == nil)
        #expect(PlayerCommand(line: "sleep -5") == nil)
        #expect(PlayerCommand(line: "rate 500") == nil, "espeak-ng's speeds: 80 to 450")
        let events: [PlayerEvent] = [.started(sampleRate: 22050, voice: "en-gb"), .started(sampleRate: 22050, voice: "en-gb", naturalVoiceUnavailable: "no engine"), .verse(index: 2, t: 7.913), .paused(index: 2, t: 9.5),
                                     .paused(index: 2, t: 9.6, reason: .call), .paused(index: 3, t: 9.7, reason: .device),
                                     .paused(index: 3, t: 9.8, reason: .sleep), .stopped(index: 3, t: 9.9), .rate(wordsPerMinute: 350, index: 3, t: 10),
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
        // Repeating and asleep after a time or a verse: the player is told so.
        var controlled = request
        (controlled.repeats, controlled.goesOn, controlled.sleepAfterSeconds, controlled.sleepAfterVerse) = (true, true, 240, 0)
        #expect(try ListenRequest(json: controlled.json) == controlled)
        let beyond = ListenRequest(verses: request.verses, voice: "en-gb", rate: 175, start: 1)
        #expect(throws: PlayerProtocolError.self) { try ListenRequest(json: beyond.json) }
    }

    /// Every translation of the text database is read, by default, by a voice of its language:
    /// the RV1909 by a Spanish one, the English ones by English ones (the KJV British).
    @Test func eachTranslationHasAVoiceInItsLanguage() {
        var voices: [String: String] = [:]
        for translation in BuiltTexts.database.translations {
            voices[translation.code] = translation.voice
        }
        #expect(voices == ["KJV": "en-gb", "ASV": "en-us", "WBS": "en-us", "WEB": "en-us", "RV1909": "es"])
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

    /// The binary search agrees with the plain definition (the last cue whose start is not
    /// after t) at 1,000,000 random times over Psalm 119's 176 cues, every boundary included.
    @Test func theSearchAgreesWithALinearScan() {
        var generator = SystemRandomNumberGenerator()
        var start = 0.0
        let cues = (1...176).map { verse -> CueSheet.Cue in
            let length = Double.random(in: 1.5...12, using: &generator)
            defer { start += length }
            return CueSheet.Cue(id: VerseID(book: 19, chapter: 119, verse: verse), start: start, end: start + length)
        }
        let sheet = CueSheet(passage: "Psalm 119", translation: "KJV", voice: "en-gb", audio: "a.flac", sampleRate: 22050, duration: start,
                             sha256: String(repeating: "0", count: 64), cues: cues)
        func linear(_ t: Double) -> Int { max(0, (cues.lastIndex { $0.start <= t } ?? 0)) }
        var mismatches = 0
        let times = cues.flatMap { [$0.start, $0.start.nextDown, $0.start.nextUp] } + (0..<1_000_000).map { _ in Double.random(in: -1...(start + 1), using: &generator) }
        for t in times where sheet.cueIndex(at: t) != linear(t) { mismatches += 1 }
        #expect(mismatches == 0)
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
        var ranges = VerseLines()
        for verse in 1...10 {
            ranges[VerseID(book: 43, chapter: 3, verse: verse)] = lines.count..<(lines.count + 2)
            lines += ["\(verse) first", "  second"]
        }
        return FollowAlong(lines: lines.map(TerminalText.init), verseLines: ranges)
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
        #expect(lines.map(\.rendered) == ["John ", "\u{1B}[7m1 fir\u{1B}[27m", "\u{1B}[7m  sec\u{1B}[27m", "2 fir"])
        // Styles take no columns.
        #expect(TerminalText("abcdef", style: .highlight(.yellow)).cut(to: 3).rendered == "\u{1B}[38;5;16;48;5;229mabc\u{1B}[39;49m")
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
        #expect(try ListeningStore(journal).position() == nil)
        let position = ListeningPosition(passage: "John 3", translation: "KJV", verse: VerseID(rawValue: 43_003_016), voice: "en-gb", rate: nil,
                                         updatedAt: 1_800_000_000)
        try ListeningStore(journal).save(position)
        #expect(try ListeningStore(journal).position() == position)
        let later = ListeningPosition(passage: "Ps 23", translation: "WEB", verse: VerseID(rawValue: 19_023_004), voice: nil, rate: 300,
                                      updatedAt: 1_800_000_060)
        try ListeningStore(journal).save(later)
        #expect(try ListeningStore(journal).position() == later)
        try ListeningStore(journal).clear()
        #expect(try ListeningStore(journal).position() == nil)
    }
}

@Suite struct CueSheetCheckTests {
    static let audio = AudioFacts(duration: 10, sha256: String(repeating: "0", count: 64))
    static let passage = (1...3).map { VerseID(book: 43, chapter: 3, verse: $0) }

    @Test func aSoundSheetHasNoDefects() {
        #expect(CueSheetTests.sheet.defects(passage: Self.passage, audio: Self.audio) == [])
    }

    @Test func eachDefectIsOneLine() {
        let sheet = CueSheet(passage: "John 3:1-3", translation: "KJV", voice: "en-gb", audio: "j.flac", sampleRate: 22050, duration: 10,
                             sha256: String(repeating: "0", count: 64), cues: [
                                 .init(id: VerseID(rawValue: 43_003_002), start: 2, end: 4),
                                 .init(id: VerseID(rawValue: 43_003_001), start: 1, end: 2),
                                 .init(id: VerseID(rawValue: 43_003_099), start: 5, end: 6),
                                 .init(id: VerseID(rawValue: 43_004_001), start: 5.5, end: 5),
                                 .init(id: VerseID(rawValue: 43_003_002), start: 12, end: 13),
                             ])
        let other = AudioFacts(duration: 9, sha256: String(repeating: "1", count: 64))
        #expect(sheet.defects(passage: Self.passage, audio: other) == [
            "verses[1] (John 3:1) starts at 1 s, before verses[0] (John 3:2) at 2 s: starts must be in order",
            "verses[2]: 43003099 is not a verse (book × 1,000,000 + chapter × 1,000 + verse, of a verse that exists)",
            "verses[3] (John 4:1) is not a verse of John 3:1-3 in the KJV",
            "verses[3] (John 4:1) ends at 5 s, before it starts at 5.5 s",
            "verses[3] (John 4:1) starts at 5.5 s, before verses[2] (43003099) ends at 6 s: cues overlap",
            "verses[4] (John 3:2) is cued twice (verses[0] too)",
            "verses[4] (John 3:2) starts at 12 s, past the audio's end at 9 s",
            "John 3:3 has no cue: every verse of John 3:1-3 in the KJV needs one",
            "the audio's SHA-256 is \(String(repeating: "1", count: 64)), not the sheet's \(String(repeating: "0", count: 64)): it is other audio, or was changed",
            "the audio lasts 9 s, not the sheet's 10 s",
        ])
    }

    @Test func whatIsNotACueSheetIsRefusedNamingTheField() throws {
        let good = CueSheetTests.sheet.json
        #expect(try CueSheet(json: good) == CueSheetTests.sheet)
        func without(_ name: String) -> JSON {
            guard case .object(let fields) = good else { return good }
            return .object(fields.filter { $0.0 != name })
        }
        #expect(throws: CueSheetError("\"sha256\" must be a non-empty string")) { try CueSheet(json: without("sha256")) }
        #expect(throws: CueSheetError("\"format\" must be \"manna-cues\"")) { try CueSheet(json: without("format")) }
        guard case .object(var fields) = good else { return }
        fields.append(("speed", .int(2)))
        #expect(throws: CueSheetError("unknown field 'speed'")) { try CueSheet(json: .object(fields)) }
        fields.removeLast()
        fields = fields.map { $0.0 == "audio" ? ("audio", .string("../secret.wav")) : $0 }
        #expect(throws: CueSheetError("\"audio\" must be a file name beside the cue sheet, not a path")) { try CueSheet(json: .object(fields)) }
    }

    @Test func onlyVersesThatExistAreVerses() {
        #expect(VerseID(rawValue: 43_003_016).isVerse)
        #expect(VerseID(rawValue: 65_001_025).isVerse)
        #expect(!VerseID(rawValue: 65_001_026).isVerse)
        #expect(!VerseID(rawValue: 43_022_001).isVerse)
        #expect(!VerseID(rawValue: 67_001_001).isVerse)
        #expect(!VerseID(rawValue: 43_003_000).isVerse)
    }
}

@Suite struct CueImportTests {
    static let john3 = (1...4).map { VerseID(book: 43, chapter: 3, verse: $0) }

    /// A Scripture App Builder timing file: a chapter header, verse parts merged, a heading left out.
    @Test func audacityLabelsAreReadByVerseWithTheirParts() throws {
        let labels = "\\c 3\n0.000000\t1.500000\ts1\n1.500000\t3.000000\t1\n3.000000\t4.000000\t2a\n4.000000\t5.250000\t2b\r\n"
            + "5.250000\t7.000000\t3\n7.000000\t9.500000\t4\n"
        let cues = try CueImport.cues(from: labels, format: .audacity, verses: Self.john3)
        #expect(cues == [
            .init(id: Self.john3[0], start: 1.5, end: 3), .init(id: Self.john3[1], start: 3, end: 5.25),
            .init(id: Self.john3[2], start: 5.25, end: 7), .init(id: Self.john3[3], start: 7, end: 9.5),
        ])
        #expect(throws: CueSheetError("line 2: expected START<tab>END<tab>LABEL, found 'one two'")) {
            try CueImport.cues(from: "0\t1\t1\none two\n", format: .audacity, verses: Self.john3)
        }
    }

    @Test func webVTTCuesGoToTheirVerseOrInOrder() throws {
        let labelled = "WEBVTT\n\n3:1\n00:00.000 --> 00:02.500\nThere was a man\n\n3:2\n00:02.500 --> 00:01:05.125 align:start\nThe same came\n"
        #expect(try CueImport.cues(from: labelled, format: .webvtt, verses: Self.john3)
            == [.init(id: Self.john3[0], start: 0, end: 2.5), .init(id: Self.john3[1], start: 2.5, end: 65.125)])
        let unlabelled = "WEBVTT\n\n" + (0..<4).map { "00:00:0\($0).000 --> 00:00:0\($0 + 1).000\ntext\n" }.joined(separator: "\n")
        #expect(try CueImport.cues(from: unlabelled, format: .webvtt, verses: Self.john3).map(\.id) == Self.john3)
        #expect(throws: CueSheetError("not WebVTT: the first line must be WEBVTT")) { try CueImport.cues(from: "00:00.000 --> 00:01.000\n", format: .webvtt, verses: Self.john3) }
        #expect(CueImport.timestamp("01:02:03.456") == 3723.456)
        #expect(CueImport.timestamp("00:61.000") == nil)
    }

    @Test func aeneasFragmentsGoToTheVersesInOrderAndSilenceIsLeftOut() throws {
        let map = #"{"fragments": [{"id": "f000001", "begin": "0.000", "end": "0.400", "lines": []}, "#
            + (0..<4).map { #"{"id": "f00000\#($0 + 2)", "begin": "\#($0 + 1).000", "end": "\#($0 + 2).000", "lines": ["verse"]}"# }.joined(separator: ", ")
            + "]}"
        #expect(try CueImport.cues(from: map, format: .aeneas, verses: Self.john3).map(\.start) == [1, 2, 3, 4])
        #expect(throws: CueSheetError("4 timed segments for the passage's 3 verses: label them by verse, or give the passage they read")) {
            try CueImport.cues(from: map, format: .aeneas, verses: Array(Self.john3.prefix(3)))
        }
    }
}

/// Every time read from a file, or from the player's socket, is one `Seconds`: finite, from 0
/// to a day (issue 25, point 4: a label of 1e308 once wrote `"end": inf` into a cue sheet).
@Suite struct SecondsTests {
    @Test(arguments: [
        ("0", 0.0), ("1.5", 1.5), ("86400", 86_400), ("2.5e1", 25), ("+3", 3),
        ("86400.001", nil), ("1e308", nil), ("1e400", nil), ("inf", nil), ("infinity", nil), ("nan", nil),
        ("-1", nil), ("-0.5", nil), ("0x1p3", nil), (" 1", nil), ("", nil), ("1,5", nil),
    ] as [(String, Double?)])
    func aTimeIsADecimalWithinADay(text: String, expected: Double?) {
        #expect(Seconds.parse(text) == expected)
    }

    /// Each format that carries times refuses one out of range on its line, and the JSON
    /// writer never writes what JSON cannot hold.
    @Test(arguments: ["1e308", "inf", "nan", "-1", "100000"])
    func eachFormatRefusesATimeOutOfRange(value: String) throws {
        let verses = CueImportTests.john3
        #expect(throws: CueSheetError("line 2: START and END must each be \(Seconds.allowed), found '1 \(value) 2'")) {
            try CueImport.cues(from: "0\t1\t1\n1\t\(value)\t2\n", format: .audacity, verses: verses)
        }
        #expect(throws: CueSheetError("fragments[0]: \"begin\" and \"end\" must each be \(Seconds.allowed)")) {
            try CueImport.cues(from: #"{"fragments": [{"id": "f1", "begin": "0", "end": "\#(value)", "lines": ["a"]}]}"#, format: .aeneas, verses: verses)
        }
        #expect(PlayerCommand(line: "position \(value)") == nil)
        #expect(PlayerCommand(line: "seek \(value)") == nil || value == "-1")
    }

    @Test func webVTTTimesAreWithinADay() {
        #expect(CueImport.timestamp("23:59:59.999") != nil)
        #expect(CueImport.timestamp("24:00:00.001") == nil)
        #expect(CueImport.timestamp("99999999999999999:00:00.000") == nil)
        #expect(CueImport.timestamp("00:00:nan") == nil)
    }

    @Test func theJSONWriterNeverWritesANonFiniteNumber() throws {
        #expect(JSON.array([.number(.infinity), .number(-.infinity), .number(.nan), .number(1.5)]).text == "[null,null,null,1.5]")
    }
}
