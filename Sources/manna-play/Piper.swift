// Piper voices (VITS models: NAME.onnx + NAME.onnx.json) as a speech engine, through
// sherpa-onnx's C API loaded at run time with dlopen: Manna works without the library, and
// espeak-ng speaks when it is absent. Phonemes come from libespeak-ng, as Piper's own do;
// sherpa-onnx 2.0 takes them as IPA code points, one array per sentence. A voice is made
// ready once (the import: sherpa's metadata appended to a copy of the model, a tokens.txt
// from its phoneme_id_map) in Manna's cache, never beside the voice, which may be read-only.
// Facts measured for this: shared/VOICES_AND_LANGUAGES.md.
import CEspeak
import CSherpa
#if canImport(Glibc)
import Glibc
#endif
import MannaKit

final class Piper: SpeechEngine {
    static let name = "piper"
    static let isNatural = true
    /// Where the engine's library, the voices and their imports are.
    struct Places {
        /// Folders that may hold libsherpa-onnx-c-api.so (with its libonnxruntime.so beside it).
        var libraries: [String]
        /// Folders that may hold voices, NAME.onnx + NAME.onnx.json.
        var voices: [String]
        /// Where imported voices are kept, a folder per voice.
        var cache: String

        /// `MANNA_ENGINE_DIR` alone when set, else ~/.local/lib/manna (tools/get-voice) and
        /// /usr/lib/manna (the Debian package); `MANNA_VOICES_DIR` alone when set, else
        /// piper-voices in $XDG_DATA_HOME and each of $XDG_DATA_DIRS (/usr/share/piper-voices).
        init(environment: Environment) {
            let home = environment["HOME"] ?? ""
            let absolute = { (name: String) in environment[name].flatMap { $0.hasPrefix("/") ? $0 : nil } }
            libraries = absolute("MANNA_ENGINE_DIR").map { [$0] } ?? [home + "/.local/lib/manna", "/usr/lib/manna"]
            if let voices = absolute("MANNA_VOICES_DIR") {
                self.voices = [voices]
            } else {
                let dataHome = absolute("XDG_DATA_HOME") ?? home + "/.local/share"
                let dataDirs = (environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share")
                    .split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
                voices = ([dataHome] + dataDirs).map { $0 + "/piper-voices" }
            }
            cache = Paths(environment: environment).cacheDirectory + "/voices"
        }

        init(libraries: [String], voices: [String], cache: String) {
            self.libraries = libraries
            self.voices = voices
            self.cache = cache
        }
    }

    /// A voice found in a voices folder: its model, and what its .onnx.json says.
    struct Voice {
        /// NAME, as in NAME.onnx: en_US-joe-medium.
        let name: String
        let model: String
        /// Its language as `--voice` takes it: en-us (from en_US).
        let language: String
        /// The language's English name, for sherpa's metadata.
        let languageName: String
        /// The espeak-ng voice its phonemes come from.
        let espeakVoice: String
        let sampleRate: Int
        let speakers: Int
        let noiseScale: Double
        let noiseWidth: Double
        let lengthScale: Double
        /// Each phoneme (a character) and its id.
        let phonemeIDs: [(String, Int)]

        /// The voice whose config is `model` + ".json"; nil if it is not a Piper voice's.
        init?(model: String) {
            guard model.hasSuffix(".onnx"), let text = try? Files.readText(model + ".json"), let json = try? JSON(parsing: text),
                  let rate = json["audio"]?["sample_rate"]?.intValue, let espeak = json["espeak"]?["voice"]?.stringValue,
                  case .object(let map)? = json["phoneme_id_map"] else { return nil }
            self.model = model
            name = String(model.split(separator: "/").last!.dropLast(".onnx".count))
            let code = json["language"]?["code"]?.stringValue ?? espeak
            language = String(code.map { $0 == "_" ? "-" : $0 }).lowercased()
            languageName = json["language"]?["name_english"]?.stringValue ?? code
            espeakVoice = espeak
            sampleRate = rate
            speakers = json["num_speakers"]?.intValue ?? 1
            func number(_ key: String) -> Double? {
                if case .number(let value)? = json["inference"]?[key] { value } else { nil }
            }
            noiseScale = number("noise_scale") ?? 0.667
            noiseWidth = number("noise_w") ?? 0.8
            lengthScale = number("length_scale") ?? 1
            phonemeIDs = map.compactMap { symbol, ids in ids.arrayValue?.first?.intValue.map { (symbol, $0) } }
        }

        var speechVoice: SpeechVoice {
            SpeechVoice(language: language, name: name, identifier: "piper/" + name, languages: [language, name], engine: Piper.name)
        }
    }

    /// sherpa-onnx's functions, found in the library once per process.
    private struct Library {
        let create: SherpaOnnxCreateOfflineTtsFunction
        let destroy: SherpaOnnxDestroyOfflineTtsFunction
        let generate: SherpaOnnxOfflineTtsGenerateWithConfigFunction
        let free: SherpaOnnxDestroyOfflineTtsGeneratedAudioFunction
    }

    static let libraryName = "libsherpa-onnx-c-api.so"
    private let library: Library
    private let places: Places
    private let found: [Voice]
    /// The chosen voice, loaded.
    private var loaded: (voice: Voice, tts: OpaquePointer, speed: Float)?

    convenience init() throws(PlayError) { try self.init(places: Places(environment: .process)) }

    /// Loads the library from the first of `places.libraries` that has it, and finds the voices.
    init(places: Places) throws(PlayError) {
        self.places = places
        guard let path = places.libraries.map({ $0 + "/" + Piper.libraryName }).first(where: { Files.isRegularFile($0) }) else {
            throw .unavailable("no natural voice engine: \(Piper.libraryName) is in none of " + places.libraries.joined(separator: ", ")
                + " (tools/get-voice installs it)")
        }
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            throw .unavailable("the natural voice engine \(path) cannot be loaded: " + (dlerror().map { String(cString: $0) } ?? "unknown error"))
        }
        func symbol<T>(_ name: String, as type: T.Type) throws(PlayError) -> T {
            guard let pointer = dlsym(handle, name) else { throw .unavailable("\(path) has no \(name): is it sherpa-onnx 2.0?") }
            return unsafeBitCast(pointer, to: type)
        }
        library = Library(create: try symbol("SherpaOnnxCreateOfflineTts", as: SherpaOnnxCreateOfflineTtsFunction.self),
                          destroy: try symbol("SherpaOnnxDestroyOfflineTts", as: SherpaOnnxDestroyOfflineTtsFunction.self),
                          generate: try symbol("SherpaOnnxOfflineTtsGenerateWithConfig", as: SherpaOnnxOfflineTtsGenerateWithConfigFunction.self),
                          free: try symbol("SherpaOnnxDestroyOfflineTtsGeneratedAudio", as: SherpaOnnxDestroyOfflineTtsGeneratedAudioFunction.self))
        var seen = Set<String>()
        found = places.voices.flatMap { folder in
            Files.list(folder).filter { $0.hasSuffix(".onnx") }.sorted().compactMap { Voice(model: folder + "/" + $0) }
        }.filter { seen.insert($0.name).inserted }
    }

    deinit {
        if let loaded { library.destroy(loaded.tts) }
    }

    func voices() -> [SpeechVoice] { found.map(\.speechVoice) }

    var chosen: String { loaded?.voice.name ?? "" }

    func choose(voice: String, wordsPerMinute: Int) throws(PlayError) -> Int? {
        // A language (en-us), its family (en: any English voice), or a voice's name.
        let wanted = voice.lowercased()
        guard let match = found.first(where: { $0.language == wanted || $0.name.lowercased() == wanted })
                ?? found.first(where: { $0.language.hasPrefix(wanted + "-") }) else { return nil }
        let speed = Float(wordsPerMinute) / Float(ListenRequest.defaultRate)
        if let loaded, loaded.voice.name == match.name {
            self.loaded?.speed = speed
            return match.sampleRate
        }
        let (model, tokens) = try Piper.imported(match, into: places.cache)
        guard espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, nil, 0) > 0, espeak_SetVoiceByName(match.espeakVoice) == EE_OK else {
            throw .unavailable("espeak-ng cannot give the phonemes of \(match.name) (voice \(match.espeakVoice)): is espeak-ng-data installed?")
        }
        let strings: [UnsafeMutablePointer<CChar>] = ([model, tokens, "cpu", ""] as [String]).map { strdup($0)! }
        defer { for string in strings { Glibc.free(string) } }
        var config = SherpaOnnxOfflineTtsConfig()
        config.model.vits.model = UnsafePointer(strings[0])
        config.model.vits.tokens = UnsafePointer(strings[1])
        config.model.vits.lexicon = UnsafePointer(strings[3])
        config.model.vits.data_dir = UnsafePointer(strings[3])
        config.model.vits.dict_dir = UnsafePointer(strings[3])
        config.model.vits.noise_scale = Float(match.noiseScale)
        config.model.vits.noise_scale_w = Float(match.noiseWidth)
        config.model.vits.length_scale = Float(match.lengthScale)
        config.model.num_threads = 2
        config.model.provider = UnsafePointer(strings[2])
        config.max_num_sentences = 1
        guard let tts = library.create(&config) else {
            throw .unavailable("the natural voice \(match.name) could not be loaded from \(model) (delete that folder to import it again)")
        }
        if let loaded { library.destroy(loaded.tts) }
        loaded = (match, tts, speed)
        return match.sampleRate
    }

    func synthesize(_ text: String) -> [Int16] {
        guard let (_, tts, speed) = loaded else { preconditionFailure("a natural voice spoke before one was chosen") }
        let sentences = Piper.phonemes(text)
        guard !sentences.isEmpty else { return [] }
        let codepoints = sentences.flatMap { $0.unicodeScalars.map { Int32($0.value) } }
        let lengths = sentences.map { Int32($0.unicodeScalars.count) }
        var config = SherpaOnnxGenerationConfig()
        config.speed = speed
        config.silence_scale = 0.2
        let audio = codepoints.withUnsafeBufferPointer { points in
            lengths.withUnsafeBufferPointer { lengths in
                config.phoneme_codepoints = points.baseAddress
                config.phoneme_codepoints_lens = lengths.baseAddress
                config.phoneme_codepoints_num_sentences = Int32(lengths.count)
                return library.generate(tts, text, &config, nil, nil)
            }
        }
        guard let audio else { return [] }
        defer { library.free(audio) }
        let samples = UnsafeBufferPointer(start: audio.pointee.samples, count: Int(audio.pointee.n))
        return samples.map { Int16(max(-1, min(1, $0)) * 32767) }
    }

    // MARK: - Phonemes

    /// `text`'s phonemes in IPA, a string per sentence, as Piper makes them: espeak-ng's
    /// phonemes clause by clause, each followed by the punctuation that ended it in the text
    /// (espeak-ng drops it, and the voice pauses at it), clauses joined by a space.
    static func phonemes(_ text: String) -> [String] {
        let bytes = Array(text.utf8CString)
        return bytes.withUnsafeBufferPointer { buffer -> [String] in
            let base = UnsafeRawPointer(buffer.baseAddress!)
            let end = base + buffer.count - 1
            var cursor: UnsafeRawPointer? = base
            var sentences: [String] = []
            var sentence = ""
            while let start = cursor, start < end {
                guard let ipa = espeak_TextToPhonemes(&cursor, Int32(espeakCHARS_UTF8), Int32(espeakPHONEMES_IPA)) else { break }
                // espeak-ng reads one character past the clause (the next clause's first): not this clause's.
                var clause = String(decoding: UnsafeRawBufferPointer(start: start, count: (cursor ?? end) - start), as: UTF8.self)
                if cursor != nil, !clause.isEmpty { clause.removeLast() }
                let mark = clause.last { !" \t\n\"'’”)]".contains($0) }
                sentence += String(cString: ipa)
                if let mark, ",.;:!?".contains(mark) { sentence.append(mark) }
                if let mark, ".!?".contains(mark) {
                    sentences.append(sentence)
                    sentence = ""
                } else {
                    sentence += " "
                }
            }
            while sentence.last == " " { sentence.removeLast() }
            sentences.append(sentence)
            return sentences.filter { !$0.isEmpty }
        }
    }

    // MARK: - The import

    /// The model and tokens.txt sherpa-onnx loads for `voice`, made once in `cache`/NAME and
    /// made again when the voice's files change: a copy of the model with sherpa's metadata
    /// appended (a model is a protobuf ModelProto, and entries appended to its field 14,
    /// metadata_props, are read as part of it), and a line `SYMBOL ID` per phoneme. The voice's
    /// own folder is only read.
    static func imported(_ voice: Voice, into cache: String) throws(PlayError) -> (model: String, tokens: String) {
        let folder = cache + "/" + voice.name
        let (model, tokens, stamp) = (folder + "/model.onnx", folder + "/tokens.txt", folder + "/source")
        let source = "import 1\n" + [voice.model, voice.model + ".json"].map(fileStamp).joined(separator: "\n") + "\n"
        if (try? Files.readText(stamp)) == source && Files.isRegularFile(model) && Files.isRegularFile(tokens) { return (model, tokens) }
        let failed = { (reason: String) in PlayError.unavailable("the natural voice \(voice.name) cannot be made ready in \(folder): " + reason) }
        let copy: String
        do throws(FileError) {
            try Files.makeDirectories(folder)
            try Files.writeAtomically(voice.phonemeIDs.map { "\($0.0) \($0.1)\n" }.joined(), to: tokens)
            copy = try Files.copy(voice.model, beside: model, mode: 0o644)
        } catch {
            throw failed(error.message)
        }
        let appended = metadata(for: voice)
        let descriptor = open(copy, O_WRONLY | O_APPEND | O_CLOEXEC)
        let written = descriptor < 0 ? -1 : appended.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let reason = String(cString: strerror(errno))
        if descriptor >= 0 { close(descriptor) }
        guard written == appended.count else {
            unlink(copy)
            throw failed(model + ": " + reason)
        }
        do throws(FileError) {
            try Files.rename(copy, to: model)
            try Files.writeAtomically(source, to: stamp)
        } catch {
            throw failed(error.message)
        }
        return (model, tokens)
    }

    /// What sherpa-onnx reads from a Piper model's metadata, as protobuf bytes to append to it.
    static func metadata(for voice: Voice) -> [UInt8] {
        let entries = [("model_type", "vits"), ("comment", "piper"), ("language", voice.languageName), ("voice", voice.espeakVoice),
                       ("has_espeak", "1"), ("n_speakers", String(voice.speakers)), ("sample_rate", String(voice.sampleRate)),
                       ("add_blank", "0")]
        func varint(_ value: Int) -> [UInt8] {
            var (value, bytes) = (value, [UInt8]())
            repeat {
                bytes.append(UInt8(value & 0x7f) | (value > 0x7f ? 0x80 : 0))
                value >>= 7
            } while value > 0
            return bytes
        }
        func field(_ tag: UInt8, _ bytes: [UInt8]) -> [UInt8] { [tag] + varint(bytes.count) + bytes }
        // metadata_props is field 14 (tag 14 << 3 | 2); an entry's key is field 1, its value field 2.
        return entries.flatMap { key, value in field(0x72, field(0x0a, Array(key.utf8)) + field(0x12, Array(value.utf8))) }
    }

    /// A file's path, size and modification time, to tell when a voice changed.
    private static func fileStamp(_ path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { return path + " missing" }
        return "\(path) \(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }
}
