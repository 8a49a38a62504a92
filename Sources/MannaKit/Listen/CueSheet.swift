// Manna's cue sheet: where each verse of a recording starts and ends, beside the audio
// (`FILE.cues.json`). `manna listen --export` writes one for the speech it renders; recorded
// readings carry the same format (docs/cues.md, docs/cues.schema.json).

public struct CueSheet: Equatable, Sendable {
    public struct Cue: Equatable, Sendable {
        public let id: VerseID
        /// Seconds from the start of the audio.
        public let start: Double
        public let end: Double

        public init(id: VerseID, start: Double, end: Double) {
            self.id = id
            self.start = start
            self.end = end
        }
    }

    public static let format = "manna-cues"
    public static let version = 1

    /// The passage as Manna writes it ("John 3").
    public let passage: String
    public let translation: String
    /// Who reads: the espeak-ng voice, or a reader's name for a recording.
    public let voice: String
    /// The audio file's name, beside the cue sheet.
    public let audio: String
    public let sampleRate: Int
    /// The audio's length in seconds.
    public let duration: Double
    /// The SHA-256 of the audio file, in hexadecimal.
    public let sha256: String
    /// Sorted by start.
    public let cues: [Cue]

    public init(passage: String, translation: String, voice: String, audio: String, sampleRate: Int, duration: Double,
                sha256: String, cues: [Cue]) {
        self.passage = passage
        self.translation = translation
        self.voice = voice
        self.audio = audio
        self.sampleRate = sampleRate
        self.duration = duration
        self.sha256 = sha256
        self.cues = cues
    }

    /// The cue sheet's file for the audio at `path`: the same name with `.cues.json` added.
    public static func path(forAudio path: String) -> String { path + ".cues.json" }

    /// The index of the verse heard at `seconds`: the last whose start is not after it (the
    /// first before any start).
    public func cueIndex(at seconds: Double) -> Int {
        var low = 0, high = cues.count
        while low < high {
            let middle = (low + high) / 2
            if cues[middle].start <= seconds { low = middle + 1 } else { high = middle }
        }
        return max(0, low - 1)
    }

    /// Seconds to the microsecond, as JSON numbers: finer than a sample at any audio rate,
    /// and short.
    static func seconds(_ value: Double) -> JSON { .number((value * 1_000_000).rounded() / 1_000_000) }

    public var json: JSON {
        .object([
            ("format", .string(Self.format)), ("version", .int(Self.version)),
            ("passage", .string(passage)), ("translation", .string(translation)), ("voice", .string(voice)),
            ("audio", .string(audio)), ("sample_rate", .int(sampleRate)), ("duration", Self.seconds(duration)),
            ("sha256", .string(sha256)),
            ("verses", .array(cues.map { cue in
                .object([("id", .int(cue.id.rawValue)), ("reference", .string(Reference(cue.id).description)),
                         ("start", Self.seconds(cue.start)), ("end", Self.seconds(cue.end))])
            })),
        ])
    }
}
