// What the player asks of a speech engine, and the table of engines a voice is looked up in.
// An engine turns one verse's text into 16-bit mono samples at its own rate; the player calls
// it once per verse, so a verse starts exactly at the running sample count whatever timing
// marks the engine reports (espeak-ng's SSML marks drop verses; a neural engine may report
// none). Playing, exporting and measuring all go through this one call.
import MannaKit

/// A speech engine: its voices, one of them chosen, and a verse's text made into samples.
protocol SpeechEngine: AnyObject {
    /// Its name, as `--voices` and an export's report give it: `espeak-ng`, `piper`.
    static var name: String { get }

    /// Whether its voices are natural ones, which read a language when no voice was asked for.
    static var isNatural: Bool { get }

    /// The chosen voice as `--voice` takes it and a cue sheet names it.
    var chosen: String { get }

    /// Starts the engine: its library loaded and initialised. Throws `.unavailable` saying
    /// what is missing (a library, its data).
    init() throws(PlayError)

    /// The voices it has: what `--voice` takes, and what `manna listen --voices` lists.
    func voices() -> [SpeechVoice]

    /// Chooses `voice` (a language like en-us, or a voice's name) spoken at `wordsPerMinute`,
    /// and returns the rate of the samples it will make. Nil if the engine has no such voice.
    func choose(voice: String, wordsPerMinute: Int) throws(PlayError) -> Int?

    /// `text` spoken in the chosen voice: 16-bit mono samples at the chosen voice's rate.
    /// Called on one thread at a time (the render thread while playing).
    func synthesize(_ text: String) -> [Int16]
}

extension SpeechEngine {
    static var isNatural: Bool { false }
}

enum SpeechEngines {
    /// Every engine, in the order a voice is looked for: the first that has it speaks it. A
    /// natural voice (Piper) speaks its language when installed; espeak-ng speaks the rest, and
    /// everything when the natural voices' engine is not installed.
    static var all: [any SpeechEngine.Type] { [Piper.self, Espeak.self] }

    /// The voices of every engine that starts; if none starts, why the last could not (the
    /// fallback, espeak-ng, whose absence is the one that matters).
    static func voices(of engines: [any SpeechEngine.Type] = all) throws(PlayError) -> [SpeechVoice] {
        var voices: [SpeechVoice] = []
        var failure: PlayError?
        for kind in engines {
            do throws(PlayError) { voices += try kind.init().voices() } catch { failure = error }
        }
        if voices.isEmpty, let failure { throw failure }
        return voices
    }

    /// The engine that has `voice`, with it chosen, and the rate of its samples. An engine
    /// that cannot start is passed over; if none that started has the voice, the voices they
    /// have are named, or, when none started, why the last could not.
    /// With `naturalLanguage` (no voice was asked for), a natural voice of that language
    /// speaks if one is installed and loads; else `voice` is looked for as above, and
    /// `passedOver` says why a natural voice could not read (its engine or voice would not
    /// load; nil when there is simply none for the language).
    /// With `fallback`, `voice` alone is looked for first (a voice the config chose), and if it
    /// cannot read, `fallback` as above, `passedOver` saying why.
    static func start(voice: String, naturalLanguage: String? = nil, fallback: String? = nil, wordsPerMinute: Int,
                      engines: [any SpeechEngine.Type] = all) throws(PlayError) -> (engine: any SpeechEngine, sampleRate: Int, passedOver: PlayError?) {
        if let fallback {
            do throws(PlayError) { return try start(voice: voice, wordsPerMinute: wordsPerMinute, engines: engines) } catch {
                let started = try start(voice: fallback, naturalLanguage: naturalLanguage, wordsPerMinute: wordsPerMinute, engines: engines)
                return (started.engine, started.sampleRate, started.passedOver ?? error)
            }
        }
        var passedOver: PlayError?
        if let naturalLanguage {
            for kind in engines where kind.isNatural {
                // A natural voice that cannot start or load is passed over: espeak-ng reads.
                do throws(PlayError) {
                    let engine = try kind.init()
                    if let rate = try engine.choose(voice: naturalLanguage, wordsPerMinute: wordsPerMinute) { return (engine, rate, nil) }
                } catch {
                    passedOver = error
                }
            }
        }
        var installed: [String] = []
        var failure: PlayError?
        for kind in engines {
            let engine: any SpeechEngine
            do throws(PlayError) { engine = try kind.init() } catch {
                failure = error
                continue
            }
            if let rate = try engine.choose(voice: voice, wordsPerMinute: wordsPerMinute) { return (engine, rate, passedOver) }
            installed += engine.voices().map(\.language)
        }
        if installed.isEmpty, let failure { throw failure }
        throw .unknownVoice(voice, installed: installed)
    }
}
