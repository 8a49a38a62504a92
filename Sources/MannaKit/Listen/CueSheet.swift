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

    /// A time as the defects name it: "12.5 s".
    public static func time(_ seconds: Double) -> String { Self.seconds(seconds).text + " s" }

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

// MARK: - Reading and checking

/// Why a file is not a cue sheet at all.
public struct CueSheetError: Error, Equatable, Sendable {
    public let problem: String
    public init(_ problem: String) { self.problem = problem }
}

/// What is known of a cue sheet's audio file, read from the file itself.
public struct AudioFacts: Equatable, Sendable {
    public let duration: Double
    public let sha256: String

    public init(duration: Double, sha256: String) {
        self.duration = duration
        self.sha256 = sha256
    }
}

extension CueSheet {
    /// Reads a cue sheet strictly: every field there with its type, nothing else. The verses'
    /// order and times are left to `defects`, which names each problem.
    public init(json: JSON) throws(CueSheetError) {
        guard case .object(let fields) = json else { throw CueSheetError("not a JSON object") }
        let known: Set = ["format", "version", "passage", "translation", "voice", "audio", "sample_rate", "duration", "sha256", "verses"]
        if let unknown = fields.first(where: { !known.contains($0.0) }) { throw CueSheetError("unknown field '\(unknown.0)'") }
        guard json["format"]?.stringValue == Self.format else { throw CueSheetError("\"format\" must be \"\(Self.format)\"") }
        guard json["version"]?.intValue == Self.version else { throw CueSheetError("\"version\" must be \(Self.version): this Manna reads no other") }
        func string(_ name: String) throws(CueSheetError) -> String {
            guard let value = json[name]?.stringValue, !value.isEmpty else { throw CueSheetError("\"\(name)\" must be a non-empty string") }
            return value
        }
        func number(_ value: JSON?, _ name: String) throws(CueSheetError) -> Double {
            guard case .number? = value, let seconds = Seconds.parse(value) else { throw CueSheetError("\(name) must be \(Seconds.allowed)") }
            return seconds
        }
        let audio = try string("audio")
        guard !audio.contains("/") else { throw CueSheetError("\"audio\" must be a file name beside the cue sheet, not a path") }
        guard let sampleRate = json["sample_rate"]?.intValue, sampleRate > 0 else { throw CueSheetError("\"sample_rate\" must be a whole number of Hz") }
        let sha256 = try string("sha256")
        guard sha256.count == 64, sha256.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else {
            throw CueSheetError("\"sha256\" must be 64 lowercase hexadecimal digits")
        }
        guard let list = json["verses"]?.arrayValue, !list.isEmpty else { throw CueSheetError("\"verses\" must be a non-empty list") }
        var cues: [Cue] = []
        for (index, item) in list.enumerated() {
            guard let id = item["id"]?.intValue else { throw CueSheetError("verses[\(index)] has no \"id\" (a verse id, like 43003016)") }
            cues.append(Cue(id: VerseID(rawValue: id), start: try number(item["start"], "verses[\(index)].start"),
                            end: try number(item["end"], "verses[\(index)].end")))
        }
        self.init(passage: try string("passage"), translation: try string("translation"), voice: try string("voice"), audio: audio,
                  sampleRate: sampleRate, duration: try number(json["duration"], "\"duration\""), sha256: sha256, cues: cues)
    }

    /// How far apart the audio's own length and the sheet's may be: decoders of lossy formats
    /// disagree by a few milliseconds (encoder delay, padding), never by this much.
    public static let durationTolerance = 0.05

    /// Every defect, one line each, in the order of the sheet; none means it can be followed.
    /// - Parameters:
    ///   - passage: the verses of `passage` the translation has, in order, each needing a cue;
    ///     nil when the passage could not be read (that is said by the caller).
    ///   - audio: the audio file's facts; nil when it could not be read (said by the caller).
    public func defects(passage: [VerseID]?, audio: AudioFacts?) -> [String] {
        var defects: [String] = []
        func name(_ index: Int) -> String {
            let id = cues[index].id
            return "verses[\(index)] (" + (id.isVerse ? Reference(id).description : "\(id.rawValue)") + ")"
        }
        var seen: [VerseID: Int] = [:]
        for index in cues.indices {
            let cue = cues[index]
            guard cue.id.isVerse else {
                defects.append("verses[\(index)]: \(cue.id.rawValue) is not a verse (book × 1,000,000 + chapter × 1,000 + verse, of a verse that exists)")
                continue
            }
            if let earlier = seen[cue.id] { defects.append("\(name(index)) is cued twice (verses[\(earlier)] too)") }
            seen[cue.id] = index
            if let passage, !passage.contains(cue.id) { defects.append("\(name(index)) is not a verse of \(self.passage) in the \(translation)") }
            if cue.end < cue.start { defects.append("\(name(index)) ends at \(Self.time(cue.end)), before it starts at \(Self.time(cue.start))") }
            if index > 0 {
                let before = cues[index - 1]
                if cue.start < before.start {
                    defects.append("\(name(index)) starts at \(Self.time(cue.start)), before \(name(index - 1)) at \(Self.time(before.start)): starts must be in order")
                } else if cue.start < before.end {
                    defects.append("\(name(index)) starts at \(Self.time(cue.start)), before \(name(index - 1)) ends at \(Self.time(before.end)): cues overlap")
                }
            }
            let length = audio?.duration ?? duration
            if cue.start >= length { defects.append("\(name(index)) starts at \(Self.time(cue.start)), past the audio's end at \(Self.time(length))") }
        }
        if let passage {
            for id in passage where seen[id] == nil {
                defects.append("\(Reference(id)) has no cue: every verse of \(self.passage) in the \(translation) needs one")
            }
        }
        if let audio {
            if audio.sha256 != sha256 { defects.append("the audio's SHA-256 is \(audio.sha256), not the sheet's \(sha256): it is other audio, or was changed") }
            if abs(audio.duration - duration) > Self.durationTolerance {
                defects.append("the audio lasts \(Self.time(audio.duration)), not the sheet's \(Self.time(duration))")
            }
        }
        return defects
    }
}

extension VerseID {
    /// True for a verse that exists in the canon: a known book, chapter and verse.
    public var isVerse: Bool {
        guard verse >= 1, let book = Canon.book(number: book), let count = book.verseCount(chapter: chapter) else { return false }
        return verse <= count
    }
}
