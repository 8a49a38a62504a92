// espeak-ng in synchronous mode: one call per verse, the samples collected from its callback,
// so a verse starts exactly at the running sample count (LISTEN_AND_SYNC.md: error 0 samples,
// where SSML marks are dropped after a full stop in espeak-ng 1.51).
import CEspeak
#if canImport(Glibc)
import Glibc
#endif
import MannaKit

enum Speech {
    /// The samples of the verse being synthesised; only the rendering thread synthesises.
    nonisolated(unsafe) private static var collected: [Int16] = []

    /// Starts espeak-ng and returns its sample rate (16-bit mono).
    static func start() throws(PlayError) -> Int {
        let rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, nil, 0)
        guard rate > 0 else { throw .unavailable("espeak-ng could not start: are its voices (espeak-ng-data) installed?") }
        espeak_SetSynthCallback { samples, count, _ in
            if let samples, count > 0 { Speech.collected.append(contentsOf: UnsafeBufferPointer(start: samples, count: Int(count))) }
            return 0
        }
        return Int(rate)
    }

    /// The installed voices: what `--voice` takes (a language, like en-us), and its name.
    static func voices() -> [SpeechVoice] {
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
                voices.append(SpeechVoice(language: first, name: name, identifier: identifier, languages: languages))
            }
            list += 1
        }
        return voices.sorted { $0.language < $1.language }
    }

    /// Chooses the voice (a language like en-us, or a voice's name) and the speed in words a minute.
    static func configure(voice: String, rate: Int) throws(PlayError) {
        // A language (en-gb) is one of a voice's languages; a voice's name or file works too.
        let installed = voices()
        let wanted = voice.lowercased()
        guard let match = installed.first(where: { $0.languages.contains { $0.lowercased() == wanted } })
                ?? installed.first(where: { $0.name.lowercased() == wanted || $0.identifier.lowercased() == wanted }),
              espeak_SetVoiceByName(match.identifier) == EE_OK else {
            throw .unknownVoice(voice, installed: installed.map(\.language))
        }
        espeak_SetParameter(espeakRATE, Int32(rate), 0)
    }

    /// The samples of `text` spoken.
    static func synthesize(_ text: String) -> [Int16] {
        collected = []
        collected.reserveCapacity(text.utf8.count * 1500)
        var identifier: UInt32 = 0
        let bytes = Array(text.utf8) + [0]
        _ = bytes.withUnsafeBufferPointer { buffer in
            espeak_Synth(buffer.baseAddress, buffer.count, 0, POS_CHARACTER, 0, UInt32(espeakCHARS_UTF8), &identifier, nil)
        }
        _ = espeak_Synchronize()
        let samples = collected
        collected = []
        return samples
    }
}
