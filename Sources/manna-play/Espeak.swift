// espeak-ng as a speech engine, in synchronous mode: one call per verse, the samples collected
// from its callback, so a verse starts exactly at the running sample count (LISTEN_AND_SYNC.md:
// error 0 samples, where SSML marks are dropped after a full stop in espeak-ng 1.51).
import CEspeak
#if canImport(Glibc)
import Glibc
#endif
import MannaKit

final class Espeak: SpeechEngine {
    static let name = "espeak-ng"
    /// The samples of the verse being synthesised. espeak-ng is one engine per process (its
    /// state is the library's), and only one thread synthesises at a time.
    nonisolated(unsafe) private static var collected: [Int16] = []
    /// The rate espeak-ng speaks at (16-bit mono; 22050 Hz for the voices Debian ships).
    private let sampleRate: Int
    private(set) var chosen = ""

    init() throws(PlayError) {
        let rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, nil, 0)
        guard rate > 0 else { throw .unavailable("espeak-ng could not start: are its voices (espeak-ng-data) installed?") }
        espeak_SetSynthCallback { samples, count, _ in
            if let samples, count > 0 { Espeak.collected.append(contentsOf: UnsafeBufferPointer(start: samples, count: Int(count))) }
            return 0
        }
        sampleRate = Int(rate)
    }

    func voices() -> [SpeechVoice] {
        guard var list = espeak_ListVoices(nil) else { return [] }
        var voices: [SpeechVoice] = []
        while let voice = list.pointee {
            // languages: (priority byte, zero-terminated name) pairs, ended by a zero byte.
            var languages: [String] = []
            if var cursor = voice.pointee.languages {
                while cursor.pointee != 0 {
                    cursor += 1
                    let language = String(cString: cursor)
                    languages.append(language)
                    cursor += strlen(cursor) + 1
                }
            }
            let name = voice.pointee.name.map { String(cString: $0) } ?? ""
            let identifier = voice.pointee.identifier.map { String(cString: $0) } ?? ""
            if let first = languages.first {
                voices.append(SpeechVoice(language: first, name: name, identifier: identifier, languages: languages, engine: Espeak.name))
            }
            list += 1
        }
        return voices.sorted { $0.language < $1.language }
    }

    func choose(voice: String, wordsPerMinute: Int) throws(PlayError) -> Int? {
        // A language (en-gb) is one of a voice's languages; a voice's name or file works too.
        let installed = voices()
        let wanted = voice.lowercased()
        guard let match = installed.first(where: { $0.languages.contains { $0.lowercased() == wanted } })
                ?? installed.first(where: { $0.name.lowercased() == wanted || $0.identifier.lowercased() == wanted }),
              espeak_SetVoiceByName(match.identifier) == EE_OK else {
            return nil
        }
        espeak_SetParameter(espeakRATE, Int32(wordsPerMinute), 0)
        chosen = voice
        return sampleRate
    }

    func synthesize(_ text: String) -> [Int16] {
        Espeak.collected = []
        Espeak.collected.reserveCapacity(text.utf8.count * 1500)
        var identifier: UInt32 = 0
        let bytes = Array(text.utf8) + [0]
        _ = bytes.withUnsafeBufferPointer { buffer in
            espeak_Synth(buffer.baseAddress, buffer.count, 0, POS_CHARACTER, 0, UInt32(espeakCHARS_UTF8), &identifier, nil)
        }
        _ = espeak_Synchronize()
        let samples = Espeak.collected
        Espeak.collected = []
        return samples
    }
}
