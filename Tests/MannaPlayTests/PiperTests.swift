// The natural voice's engine without its library: where it looks, the one-time import of a
// voice into Manna's cache, and Piper's phonemes from espeak-ng. Speaking with the real
// library and voice is NaturalVoiceTests' (end to end).
import CEspeak
import Foundation
import MannaKit
import Testing
import TestSupport
@testable import manna_play

@Suite struct PiperTests {
    @Test func theNaturalVoicesComeFirstAndEspeakSpeaksTheRest() {
        #expect(SpeechEngines.all.map { $0.name } == ["piper", "espeak-ng"])
    }

    @Test func itLooksWhereToolsGetVoiceAndTheDebianPackagePutIt() {
        let places = Piper.Places(environment: ["HOME": "/home/ruth"])
        #expect(places.libraries == ["/home/ruth/.local/lib/manna", "/usr/lib/manna"])
        #expect(places.voices == ["/home/ruth/.local/share/piper-voices", "/usr/local/share/piper-voices", "/usr/share/piper-voices"])
        #expect(places.cache == "/home/ruth/.cache/manna/voices")
        let configured = Piper.Places(environment: ["HOME": "/home/ruth", "MANNA_ENGINE_DIR": "/opt/engine", "MANNA_VOICES_DIR": "/opt/voices",
                                                    "XDG_CACHE_HOME": "/var/cache/ruth"])
        #expect(configured.libraries == ["/opt/engine"] && configured.voices == ["/opt/voices"])
        #expect(configured.cache == "/var/cache/ruth/manna/voices")
    }

    @Test func withoutItsLibraryTheEngineSaysWhereItLooked() throws {
        let scratch = try Scratch("piper")
        let places = Piper.Places(libraries: [scratch.path], voices: [scratch.path], cache: scratch.file("cache"))
        do {
            _ = try Piper(places: places)
            Issue.record("the engine started without its library")
        } catch {
            #expect(error.status == 69)
            #expect(error.message == "no natural voice engine: libsherpa-onnx-c-api.so is in none of \(scratch.path) (tools/get-voice installs it)")
        }
    }

    /// A voice as Piper's releases ship it (a stand-in model: the import only copies its bytes).
    static func voice(in folder: String) throws -> Piper.Voice {
        let config = #"""
            {"audio": {"sample_rate": 22050}, "espeak": {"voice": "en-us"}, "num_speakers": 1,
             "language": {"code": "en_US", "name_english": "English"},
             "phoneme_id_map": {"_": [0], "^": [1], " ": [3], "a": [14], "ə": [59]}}
            """#
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data([0x08, 0x07, 0x3a, 0x02, 0x10, 0x01]).write(to: URL(fileURLWithPath: folder + "/en_US-test-low.onnx"))
        try config.write(toFile: folder + "/en_US-test-low.onnx.json", atomically: true, encoding: .utf8)
        return try #require(Piper.Voice(model: folder + "/en_US-test-low.onnx"))
    }

    @Test func aVoiceIsImportedOnceIntoTheCacheAndItsOwnFolderIsOnlyRead() throws {
        let scratch = try Scratch("piper")
        let voice = try Self.voice(in: scratch.file("voices"))
        #expect(voice.name == "en_US-test-low" && voice.language == "en-us" && voice.sampleRate == 22050)
        let before = try FileManager.default.contentsOfDirectory(atPath: scratch.file("voices")).sorted()

        let (model, tokens) = try Piper.imported(voice, into: scratch.file("cache"))
        #expect(model == scratch.file("cache/en_US-test-low/model.onnx"))
        #expect(try String(contentsOfFile: tokens, encoding: .utf8) == "_ 0\n^ 1\n  3\na 14\nə 59\n")
        // The model's bytes, then sherpa-onnx's metadata as ModelProto field 14 entries.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: model))
        #expect(bytes.prefix(6) == Data([0x08, 0x07, 0x3a, 0x02, 0x10, 0x01]))
        let entry: [UInt8] = [0x72, 0x12, 0x0a, 0x0a] + Array("model_type".utf8) + [0x12, 0x04] + Array("vits".utf8)
        #expect(Array(bytes.dropFirst(6).prefix(entry.count)) == entry)
        for pair in ["comment\u{12}\u{05}piper", "voice\u{12}\u{05}en-us", "sample_rate\u{12}\u{05}22050", "add_blank\u{12}\u{01}0"] {
            #expect(bytes.range(of: Data(pair.utf8)) != nil, "\(pair)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.file("voices")).sorted() == before)

        // Again: nothing is rewritten. The voice changed: it is imported again.
        let written = try FileManager.default.attributesOfItem(atPath: model)[.modificationDate] as? Date
        usleep(20_000)
        _ = try Piper.imported(voice, into: scratch.file("cache"))
        #expect(try FileManager.default.attributesOfItem(atPath: model)[.modificationDate] as? Date == written)
        try Data([0x08, 0x08]).write(to: URL(fileURLWithPath: voice.model))
        _ = try Piper.imported(voice, into: scratch.file("cache"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: model)).prefix(3) == Data([0x08, 0x08, 0x72]))
    }

    /// Piper's phonemes: espeak-ng's IPA clause by clause, with the punctuation that ended each
    /// clause put back (espeak-ng drops it), a string per sentence.
    @Test func phonemesKeepThePunctuationBetweenClauses() throws {
        #expect(espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, nil, 0) > 0)
        #expect(espeak_SetVoiceByName("en-us") == EE_OK)
        let sentences = Piper.phonemes("Jesus wept. Then said the Jews, Behold how he loved him!")
        #expect(sentences.count == 2)
        #expect(sentences.first?.hasSuffix(".") == true && sentences.first?.hasPrefix("dʒ") == true, "\(sentences)")
        #expect(sentences.last?.contains(", ") == true && sentences.last?.hasSuffix("!") == true, "\(sentences)")
    }
}
