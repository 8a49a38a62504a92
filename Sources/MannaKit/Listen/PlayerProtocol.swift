// What `manna` and its player helper `manna-play` say to each other (docs/ARCHITECTURE.md,
// "Listening"): one request as a JSON line on the helper's stdin, then commands as text lines;
// the helper answers with events as JSON lines on its stdout. Both sides use these types, so
// the two programs cannot disagree on a field.

/// What to speak: the passage's verses (those the translation has, in order), the voice, the
/// speed, and the verse to start at.
public struct ListenRequest: Equatable, Sendable {
    public struct Verse: Equatable, Sendable {
        public let id: Int
        public let text: String
        /// In a recording, where the verse starts and ends (seconds, from its cue).
        public let start: Double?
        public let end: Double?
        public init(id: Int, text: String, start: Double? = nil, end: Double? = nil) {
            self.id = id
            self.text = text
            self.start = start
            self.end = end
        }
    }

    public let verses: [Verse]
    /// What the media controls show as the album: the passage and translation, like "John 3 (KJV)".
    public var title: String?
    /// A recording to play instead of speaking: its path; the verses then have their cues.
    public let audio: String?
    /// The recording's length by its cue sheet, in seconds: a file of another length is other
    /// audio (or cut short), which the player refuses.
    public var audioDuration: Double?
    /// Seconds a pause may hold the sound device before the player closes its stream (30 if nil).
    public var releaseAfter: Double?
    /// An espeak-ng voice: a language like `en-us`, or a voice's name.
    public var voice: String
    /// A language (`en`) whose natural voice, when one is installed, reads instead of `voice`:
    /// set when no voice was asked for, so the translation's espeak-ng voice is the fallback.
    public var naturalLanguage: String?
    /// Who reads when `voice` (the config's for the language) cannot: the translation's voice,
    /// or a natural voice of `naturalLanguage` first.
    public var fallbackVoice: String?
    /// Words a minute (espeak-ng's rate).
    public let rate: Int
    /// The index in `verses` to start at.
    public let start: Int
    /// After the last verse, the first again (`--repeat`), until stopped or asleep.
    public var repeats = false
    /// After the last verse, manna reads on with the next chapter (`--continue`): the media
    /// controls' Next goes there, past the last verse, as it goes to a verse before it.
    public var goesOn = false
    /// The sleep timer: listening ends, fading out, after this many seconds heard (`--sleep 20m`).
    public var sleepAfterSeconds: Double?
    /// Listening ends, fading out, with the verse at this index (`--sleep chapter`: the
    /// chapter's last).
    public var sleepAfterVerse: Int?

    public init(verses: [Verse], voice: String, rate: Int, start: Int, audio: String? = nil) {
        self.verses = verses
        self.voice = voice
        self.rate = rate
        self.start = start
        self.audio = audio
    }

    public static let defaultRate = 175
    /// The speeds espeak-ng speaks intelligibly.
    public static let rates = 80...450

    public var json: JSON {
        var fields: [(String, JSON)] = [("voice", .string(voice)), ("rate", .int(rate)), ("start", .int(start))]
        if let audio { fields.append(("audio", .string(audio))) }
        if let title { fields.append(("title", .string(title))) }
        if let audioDuration { fields.append(("audio_duration", .number(audioDuration))) }
        if let releaseAfter { fields.append(("release_after", .number(releaseAfter))) }
        if let naturalLanguage { fields.append(("natural_language", .string(naturalLanguage))) }
        if let fallbackVoice { fields.append(("fallback_voice", .string(fallbackVoice))) }
        if repeats { fields.append(("repeat", .bool(true))) }
        if goesOn { fields.append(("goes_on", .bool(true))) }
        if let sleepAfterSeconds { fields.append(("sleep_after_seconds", .number(sleepAfterSeconds))) }
        if let sleepAfterVerse { fields.append(("sleep_after_verse", .int(sleepAfterVerse))) }
        fields.append(("verses", .array(verses.map { verse in
            var fields: [(String, JSON)] = [("id", .int(verse.id)), ("text", .string(verse.text))]
            if let start = verse.start, let end = verse.end { fields += [("start", .number(start)), ("end", .number(end))] }
            return .object(fields)
        })))
        return .object(fields)
    }

    public init(json: JSON) throws(PlayerProtocolError) {
        guard let voice = json["voice"]?.stringValue, let rate = json["rate"]?.intValue, let start = json["start"]?.intValue,
              let list = json["verses"]?.arrayValue else {
            throw PlayerProtocolError("a request needs voice, rate, start and verses")
        }
        var verses: [Verse] = []
        for item in list {
            guard let id = item["id"]?.intValue, let text = item["text"]?.stringValue else {
                throw PlayerProtocolError("each verse needs an id and a text")
            }
            func seconds(_ name: String) -> Double? { if case .number(let value)? = item[name] { value } else { nil } }
            verses.append(Verse(id: id, text: text, start: seconds("start"), end: seconds("end")))
        }
        guard !verses.isEmpty, verses.indices.contains(start) else { throw PlayerProtocolError("start \(start) is not one of the \(verses.count) verses") }
        let audio = json["audio"]?.stringValue
        if audio != nil && verses.contains(where: { $0.start == nil || $0.end == nil }) {
            throw PlayerProtocolError("a recording's verses each need a start and an end")
        }
        self.init(verses: verses, voice: voice, rate: rate, start: start, audio: audio)
        title = json["title"]?.stringValue
        if case .number(let seconds)? = json["audio_duration"], seconds.isFinite, seconds > 0 { audioDuration = seconds }
        if case .number(let seconds)? = json["release_after"], seconds.isFinite, seconds >= 0 { releaseAfter = seconds }
        naturalLanguage = json["natural_language"]?.stringValue
        fallbackVoice = json["fallback_voice"]?.stringValue
        repeats = json["repeat"] == .bool(true)
        goesOn = json["goes_on"] == .bool(true)
        if case .number(let seconds)? = json["sleep_after_seconds"], Seconds.checked(seconds) != nil { sleepAfterSeconds = seconds }
        sleepAfterVerse = json["sleep_after_verse"]?.intValue.flatMap { verses.indices.contains($0) ? $0 : nil }
    }
}

/// A line `manna` sends the playing helper.
public enum PlayerCommand: Equatable, Sendable {
    case pause
    case resume
    case toggle
    /// The next or previous verse (+1, -1).
    case skip(Int)
    /// Forward or back by this many seconds of speech.
    case seek(Double)
    /// The verse at this index of the request.
    case verse(Int)
    /// This many seconds from the start of the passage (the media controls' position).
    case position(Double)
    /// The sleep timer (re)set: listening ends, fading out, this many seconds from what is heard.
    case sleep(Double)
    /// Speak at this many words a minute from what is heard on (`rates`; a recording keeps its own).
    case rate(Int)
    case quit

    public var line: String {
        switch self {
        case .pause: "pause"
        case .resume: "resume"
        case .toggle: "toggle"
        case .skip(let count): "skip \(count)"
        case .seek(let seconds): "seek \(seconds)"
        case .verse(let index): "verse \(index)"
        case .position(let seconds): "position \(seconds)"
        case .sleep(let seconds): "sleep \(seconds)"
        case .rate(let wordsPerMinute): "rate \(wordsPerMinute)"
        case .quit: "quit"
        }
    }

    public init?(line: String) {
        let words = line.split(separator: " ")
        switch (words.first, words.count) {
        case ("pause", 1): self = .pause
        case ("resume", 1): self = .resume
        case ("toggle", 1): self = .toggle
        case ("quit", 1): self = .quit
        case ("skip", 2): guard let count = Int(words[1]) else { return nil }
            self = .skip(count)
        case ("seek", 2):
            // Relative: back when negative, each way at most `Seconds.longest`.
            let back = words[1].hasPrefix("-")
            guard let seconds = Seconds.parse(back ? words[1].dropFirst() : words[1]) else { return nil }
            self = .seek(back ? -seconds : seconds)
        case ("verse", 2): guard let index = Int(words[1]) else { return nil }
            self = .verse(index)
        case ("position", 2): guard let seconds = Seconds.parse(words[1]) else { return nil }
            self = .position(seconds)
        case ("sleep", 2): guard let seconds = Seconds.parse(words[1]) else { return nil }
            self = .sleep(seconds)
        case ("rate", 2): guard let wordsPerMinute = Int(words[1]), ListenRequest.rates.contains(wordsPerMinute) else { return nil }
            self = .rate(wordsPerMinute)
        default: return nil
        }
    }
}

/// What the playing helper reports. `t` is the time of the event on the listening's clock:
/// seconds of speech heard since playback began (paused time not counted), read from the
/// sound server's playback clock.
public enum PlayerEvent: Equatable, Sendable {
    /// Connected and speaking: the sample rate, the voice in use, the MPRIS name the media
    /// controls reach the player at (nil without a session bus), and why a natural voice could
    /// not read when one would have (its engine's library missing, say).
    case started(sampleRate: Int, voice: String, controls: String? = nil, naturalVoiceUnavailable: String? = nil)
    /// The verse at `index` of the request became audible at `t`.
    case verse(index: Int, t: Double)
    /// Paused: by the listener (`reason` nil), or by what the player watches for.
    case paused(index: Int, t: Double, reason: PauseReason? = nil)
    case resumed(index: Int, t: Double)
    /// Speaking at a new speed (words a minute) from the verse at `index`, heard at `t`.
    case rate(wordsPerMinute: Int, index: Int, t: Double)
    /// Stopped before the end at verse `index` (the next to hear): by the media controls'
    /// (MPRIS) Stop, or by the sleep timer. The player then exits.
    case stopped(index: Int, t: Double)
    /// The last verse has been heard to its end.
    case ended(t: Double)
    /// The helper stops: the sysexits status and one line for the user.
    case failed(status: Int32, message: String)

    public var json: JSON {
        func time(_ t: Double) -> JSON { .number((t * 1000).rounded() / 1000) }
        switch self {
        case .started(let rate, let voice, let controls, let unavailable):
            var fields: [(String, JSON)] = [("event", .string("started")), ("sample_rate", .int(rate)), ("voice", .string(voice))]
            if let controls { fields.append(("controls", .string(controls))) }
            if let unavailable { fields.append(("natural_voice_unavailable", .string(unavailable))) }
            return .object(fields)
        case .verse(let index, let t): return .object([("event", .string("verse")), ("index", .int(index)), ("t", time(t))])
        case .paused(let index, let t, let reason):
            var fields: [(String, JSON)] = [("event", .string("paused")), ("index", .int(index)), ("t", time(t))]
            if let reason { fields.append(("reason", .string(reason.rawValue))) }
            return .object(fields)
        case .stopped(let index, let t): return .object([("event", .string("stopped")), ("index", .int(index)), ("t", time(t))])
        case .resumed(let index, let t): return .object([("event", .string("resumed")), ("index", .int(index)), ("t", time(t))])
        case .rate(let wordsPerMinute, let index, let t):
            return .object([("event", .string("rate")), ("rate", .int(wordsPerMinute)), ("index", .int(index)), ("t", time(t))])
        case .ended(let t): return .object([("event", .string("ended")), ("t", time(t))])
        case .failed(let status, let message):
            return .object([("event", .string("failed")), ("status", .int(Int(status))), ("message", .string(message))])
        }
    }

    public init(line: String) throws(PlayerProtocolError) {
        let json: JSON
        do { json = try JSON(parsing: line) } catch { throw PlayerProtocolError("not a JSON line: \(line.singleLine)") }
        let index = json["index"]?.intValue
        let t = json["t"].flatMap { if case .number(let n) = $0 { n } else { nil } }
        switch json["event"]?.stringValue {
        case "started":
            guard let rate = json["sample_rate"]?.intValue, let voice = json["voice"]?.stringValue else { break }
            self = .started(sampleRate: rate, voice: voice, controls: json["controls"]?.stringValue,
                            naturalVoiceUnavailable: json["natural_voice_unavailable"]?.stringValue)
            return
        case "verse": if let index, let t { self = .verse(index: index, t: t); return }
        case "paused":
            let reason = json["reason"]?.stringValue.flatMap(PauseReason.init(rawValue:))
            if let index, let t, reason != nil || json["reason"] == nil { self = .paused(index: index, t: t, reason: reason); return }
        case "stopped": if let index, let t { self = .stopped(index: index, t: t); return }
        case "resumed": if let index, let t { self = .resumed(index: index, t: t); return }
        case "rate": if let rate = json["rate"]?.intValue, let index, let t { self = .rate(wordsPerMinute: rate, index: index, t: t); return }
        case "ended": if let t { self = .ended(t: t); return }
        case "failed":
            if let status = json["status"]?.intValue, let message = json["message"]?.stringValue {
                self = .failed(status: Int32(status), message: message)
                return
            }
        default: break
        }
        throw PlayerProtocolError("not an event: \(line.singleLine)")
    }
}

/// Why the player paused by itself. It resumes by itself only after a call.
public enum PauseReason: String, Equatable, Sendable {
    /// A stream with media.role phone or communication, or the server asking for a pause
    /// (request-cork): resumed when it ends.
    case call
    /// The sound device went away or changed (headphones unplugged): the listener resumes.
    case device
    /// The machine is about to sleep (logind's PrepareForSleep): the listener resumes.
    case sleep

    /// What the follow-along screen says.
    public var description: String {
        switch self {
        case .call: "for a call"
        case .device: "the sound device changed"
        case .sleep: "the computer went to sleep"
        }
    }
}

/// An installed voice: espeak-ng's, or a natural (Piper) voice.
public struct SpeechVoice: Equatable, Sendable {
    /// What `--voice` takes: the voice's first language, like `en-us`.
    public let language: String
    public let name: String
    /// Its file in espeak-ng-data/voices, like `gmw/en-US`, or `piper/NAME` for a Piper voice.
    public let identifier: String
    public let languages: [String]
    /// The engine that speaks it: `espeak-ng` or `piper`.
    public let engine: String

    public init(language: String, name: String, identifier: String, languages: [String], engine: String) {
        self.language = language
        self.name = name
        self.identifier = identifier
        self.languages = languages
        self.engine = engine
    }

    public var json: JSON {
        .object([("voice", .string(language)), ("name", .string(name)), ("identifier", .string(identifier)),
                 ("languages", .array(languages.map(JSON.string))), ("engine", .string(engine))])
    }

    public init(json: JSON) throws(PlayerProtocolError) {
        guard let language = json["voice"]?.stringValue, let name = json["name"]?.stringValue,
              let identifier = json["identifier"]?.stringValue, let languages = json["languages"]?.arrayValue?.compactMap(\.stringValue) else {
            throw PlayerProtocolError("not a voice: \(json.text)")
        }
        self.init(language: language, name: name, identifier: identifier, languages: languages,
                  engine: json["engine"]?.stringValue ?? "espeak-ng")
    }
}

/// A line one side could not understand: a bug, or a helper from another version.
public struct PlayerProtocolError: Error, Equatable, Sendable {
    public let problem: String
    public init(_ problem: String) { self.problem = problem }
}
