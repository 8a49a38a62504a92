// The speech-engine seam: an engine is one type conforming to SpeechEngine, found by its
// voices in the table of engines, and the render thread speaks with whichever it is given.
import MannaKit
import Testing
@testable import manna_play

@Suite struct SpeechEngineTests {
    @Test func aVoiceIsSpokenByTheFirstEngineThatHasItPassingOverOneThatCannotStart() throws {
        let (engine, rate, _) = try SpeechEngines.start(voice: "xx", wordsPerMinute: 200, engines: [MissingEngine.self, ToneEngine.self])
        let tone = try #require(engine as? ToneEngine)
        #expect(rate == ToneEngine.sampleRate)
        #expect(tone.wordsPerMinute == 200)
    }

    /// No voice asked for: a natural voice of the language reads, else the voice asked of the
    /// rest; a voice asked for is looked for in engine order as ever.
    @Test func aNaturalVoiceReadsItsLanguageWhenNoVoiceWasAskedFor() throws {
        let engines: [any SpeechEngine.Type] = [MissingEngine.self, ToneEngine.self, NaturalEngine.self]
        #expect(try SpeechEngines.start(voice: "xx", naturalLanguage: "nn", wordsPerMinute: 175, engines: engines).engine is NaturalEngine)
        #expect(try SpeechEngines.start(voice: "xx", naturalLanguage: "zz", wordsPerMinute: 175, engines: engines).engine is ToneEngine)
        #expect(try SpeechEngines.start(voice: "xx", wordsPerMinute: 175, engines: engines).engine is ToneEngine)
        #expect(try SpeechEngines.start(voice: "xx", naturalLanguage: "nn", wordsPerMinute: 175, engines: [ToneEngine.self]).engine is ToneEngine)
    }

    /// A natural voice whose engine cannot start is passed over, and why is given, so that
    /// `manna` can say it; no natural voice for the language, or a voice asked for, is nothing to say.
    @Test func aNaturalVoiceThatCannotStartIsPassedOverSayingWhy() throws {
        let started = try SpeechEngines.start(voice: "xx", naturalLanguage: "nn", wordsPerMinute: 175, engines: [MissingNaturalEngine.self, ToneEngine.self])
        #expect(started.engine is ToneEngine && started.passedOver?.message == MissingEngine.problem)
        #expect(try SpeechEngines.start(voice: "xx", naturalLanguage: "zz", wordsPerMinute: 175, engines: [NaturalEngine.self, ToneEngine.self]).passedOver == nil)
        #expect(try SpeechEngines.start(voice: "xx", wordsPerMinute: 175, engines: [MissingNaturalEngine.self, ToneEngine.self]).passedOver == nil)
        // A configured voice (`fallback` given) reads if it can; else the fallback, as without one, saying why.
        let engines: [any SpeechEngine.Type] = [NaturalEngine.self, ToneEngine.self]
        let configured = try SpeechEngines.start(voice: "tone", naturalLanguage: "nn", fallback: "xx", wordsPerMinute: 175, engines: engines)
        #expect(configured.engine is ToneEngine && configured.passedOver == nil)
        let missing = try SpeechEngines.start(voice: "yy", naturalLanguage: "nn", fallback: "xx", wordsPerMinute: 175, engines: engines)
        #expect(missing.engine is NaturalEngine && missing.passedOver?.message.hasPrefix("no voice 'yy' is installed") == true)
    }

    @Test func anUnknownVoiceNamesTheVoicesOfTheEnginesThatStarted() {
        #expect(failure { () throws(PlayError) in _ = try SpeechEngines.start(voice: "yy", wordsPerMinute: 175, engines: [MissingEngine.self, ToneEngine.self]) }
            == "65 no voice 'yy' is installed; all 1 installed: 'manna listen --voices'")
        #expect(failure { () throws(PlayError) in _ = try SpeechEngines.voices(of: [MissingEngine.self, ToneEngine.self]) } == nil)
    }

    @Test func withNoEngineStartingWhyTheLastCouldNotIsSaid() {
        #expect(failure { () throws(PlayError) in _ = try SpeechEngines.start(voice: "xx", wordsPerMinute: 175, engines: [MissingEngine.self]) }
            == "69 " + MissingEngine.problem)
        #expect(failure { () throws(PlayError) in _ = try SpeechEngines.voices(of: [MissingEngine.self]) } == "69 " + MissingEngine.problem)
    }

    /// espeak-ng is the engine today: John 11:35 ("Jesus wept.") in en-gb at 175 words a minute
    /// is about 0.77 s at 22,050 Hz (the end-to-end tests find verse 36 starting at 16,868
    /// samples; espeak-ng's count moves by a few samples from one call to the next).
    @Test func espeakIsTheEngineOfItsVoices() throws {
        let (engine, rate, _) = try SpeechEngines.start(voice: "en-gb", wordsPerMinute: 175)
        #expect(engine is Espeak)
        #expect(rate == 22050)
        #expect(abs(engine.synthesize("Jesus wept.").count - 16868) < 50)
        #expect(try SpeechEngines.voices().contains { $0.language == "en-gb" })
    }

    @Test func theRenderThreadSpeaksWithTheEngineItIsGiven() throws {
        let engine = try ToneEngine()
        let rendition = Rendition(texts: ["In the beginning", "was the Word"], engine: engine, sampleRate: ToneEngine.sampleRate, startingAt: 0,
                                  rendered: {})
        rendition.start()
        #expect(rendition.waitForSamples(1) == engine.synthesize("was the Word"))
        #expect(rendition.waitForSamples(0).count == "In the beginning".count * ToneEngine.samplesPerCharacter)
    }

    /// "STATUS MESSAGE" of what `body` threw, or nil if it threw nothing.
    func failure(_ body: () throws(PlayError) -> Void) -> String? {
        do throws(PlayError) {
            try body()
            return nil
        } catch {
            return "\(error.status) \(error.message)"
        }
    }
}

/// A stand-in engine with one voice, "tone" (also called "xx"), whose speech is each character's
/// code point held for `samplesPerCharacter` samples at 175 words a minute (half as long at
/// 350): known lengths, no library.
final class ToneEngine: SpeechEngine {
    static let name = "tone"
    static let sampleRate = 16000
    static let samplesPerCharacter = 40
    private(set) var wordsPerMinute = ListenRequest.defaultRate
    var chosen: String { "tone" }

    init() throws(PlayError) {}

    func voices() -> [SpeechVoice] { [SpeechVoice(language: "tone", name: "Tone", identifier: "test/tone", languages: ["tone", "xx"], engine: ToneEngine.name)] }

    func choose(voice: String, wordsPerMinute: Int) throws(PlayError) -> Int? {
        guard voices()[0].languages.contains(voice) else { return nil }
        self.wordsPerMinute = wordsPerMinute
        return ToneEngine.sampleRate
    }

    func synthesize(_ text: String) -> [Int16] {
        let count = ToneEngine.samplesPerCharacter * ListenRequest.defaultRate / wordsPerMinute
        return text.unicodeScalars.flatMap { Array(repeating: Int16(truncatingIfNeeded: $0.value), count: count) }
    }
}

/// A natural voice for the language nn (as nn-xx), speaking as ToneEngine does.
final class NaturalEngine: SpeechEngine {
    static let name = "natural"
    static let isNatural = true
    var chosen: String { "nn-xx" }
    init() throws(PlayError) {}
    func voices() -> [SpeechVoice] { [SpeechVoice(language: "nn-xx", name: "Natural", identifier: "test/nn-xx", languages: ["nn-xx"], engine: Self.name)] }
    func choose(voice: String, wordsPerMinute: Int) throws(PlayError) -> Int? { voice == "nn" || voice == "nn-xx" ? ToneEngine.sampleRate : nil }
    func synthesize(_ text: String) -> [Int16] { [] }
}

/// An engine whose library is not installed: it cannot start.
class MissingEngine: SpeechEngine {
    static let name = "missing"
    class var isNatural: Bool { false }
    var chosen: String { preconditionFailure("an engine that did not start was asked for its voice") }
    static let problem = "the test engine's library is not installed"
    required init() throws(PlayError) { throw .unavailable(MissingEngine.problem) }
    func voices() -> [SpeechVoice] { preconditionFailure("an engine that did not start was asked for its voices") }
    func choose(voice: String, wordsPerMinute: Int) throws(PlayError) -> Int? { preconditionFailure("an engine that did not start was asked for a voice") }
    func synthesize(_ text: String) -> [Int16] { preconditionFailure("an engine that did not start was asked to speak") }
}

/// A natural voice's engine whose library is not installed.
final class MissingNaturalEngine: MissingEngine {
    override class var isNatural: Bool { true }
}
