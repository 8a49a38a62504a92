// One listening: a passage spoken, a recording played by its cue sheet, or speech rendered to a
// file, as `manna listen` and `manna plan today --listen` ask for it. The session itself (the
// player, the terminal, the keys) is Listen/ListenSession.
#if canImport(Glibc)
import Glibc
#endif
import MannaKit

enum Listening {
    /// Speaks (or, with `--export`, renders) `reference`, from where `resume` stopped if given,
    /// with the options in `arguments` (`plan today --listen` has only `--translation`), in
    /// `typed`, the translation a passage typed with it is shown in (`PassageInput.typed`), else
    /// the one the options, the place resumed or the recording name.
    static func speak(_ reference: Reference, in typed: Translation? = nil, resume: ListeningPosition?, _ arguments: ParsedArguments, _ context: Context) throws {
        try PassageInput.checkSize(reference)
        let controls = try Controls(arguments, context)
        let database = try context.openTextDatabase()
        let rate = try arguments.value(Options.rate, context)
        var recording = try arguments.value(Options.audio, context).map { path in
            try Recorded(path, cues: arguments.value(Options.cues, context), exporting: arguments.value(Options.export, context))
        }
        // Resuming a recording plays it again, if it is still there; else the place is read aloud.
        if recording == nil, let audio = resume?.audio {
            do {
                recording = try Recorded(audio, cues: resume?.cues, exporting: nil)
            } catch let error as UserError {
                context.stderr.line("the recording listened to cannot be played (\(error.message)): speaking instead")
                context.stderr.flush()
            }
        }
        if controls.continues && recording != nil {
            throw Failure.usage("--continue reads on in the Bible's text, not in a recording (--audio, or the recording resumed)")
        }
        let translation = try typed ?? context.translation(arguments.value(Options.translation, context) ?? resume?.translation ?? recording?.sheet.translation, in: database)
        let passage = try database.passage(reference, in: translation)
        var spoken = spokenVerses(passage)
        guard !spoken.isEmpty else { throw Failure.data("the \(translation.code) has no verse of \(reference)") }
        // A registered recording that covers the passage is played rather than speech (not
        // when a voice, a speed, an export or reading on was asked for), and it is said which.
        if recording == nil && !arguments.gave(Options.export) && !arguments.gave(Options.voice) && !arguments.gave(Options.rate) && !controls.continues,
           let registered = try Listening.registeredRecording(covering: spoken, translation: translation.code, context) {
            recording = registered
            context.stderr.line("playing the recording \(registered.path), read by \(registered.sheet.voice) ('manna audio list')")
            context.stderr.flush()
        }
        if let recording {
            // A recording plays the verses it has cues for, from each cue's start.
            let cues = Dictionary(recording.sheet.cues.map { ($0.id.rawValue, $0) }, uniquingKeysWith: { first, _ in first })
            spoken = spoken.compactMap { verse in cues[verse.id].map { ListenRequest.Verse(id: verse.id, text: verse.text, start: $0.start, end: $0.end) } }
            guard !spoken.isEmpty else { throw Failure.data("\(recording.cuesPath) has no cue for a verse of \(reference)") }
        }
        var start = 0
        if let from = try arguments.value(Options.startVerse, context) {
            start = try startIndex(from, in: spoken, of: reference)
        } else if let resume, let index = spoken.firstIndex(where: { $0.id >= resume.verse.rawValue }) {
            start = index
        }
        var request = ListenRequest(verses: spoken, voice: voice(recording: recording, asked: try arguments.value(Options.voice, context), resume: resume, translation: translation),
                                    rate: rate ?? resume?.rate ?? ListenRequest.defaultRate, start: start, audio: recording?.path)
        request.title = "\(reference) (\(translation.code))"
        // No voice asked for (nor one resumed other than the translation's or the configured):
        // the voice the config chose for its language reads, else a natural voice of it if one
        // is installed, else the translation's espeak-ng voice.
        let configured = context.config().voices[translation.language]
        if recording == nil && !arguments.gave(Options.voice) && [translation.voice, configured].contains(resume?.voice ?? translation.voice) {
            request.naturalLanguage = translation.language
            if let configured { (request.voice, request.fallbackVoice) = (configured, translation.voice) }
        }
        request.audioDuration = recording?.sheet.duration
        if let path = try arguments.value(Options.export, context) {
            return try export(request, reference: reference, translation: translation.code, to: path, context)
        }
        try listen(request, cues: recording?.cuesPath, reference: reference, translation: translation, passage: passage, controls: controls,
                   json: arguments.has(Options.json), database: database, context)
    }

    /// The verses of `passage` to speak: those the translation has (a verse it lacks is not
    /// read aloud as its brackets).
    static func spokenVerses(_ passage: [PassageVerse]) -> [ListenRequest.Verse] {
        passage.compactMap { verse in verse.text.map { ListenRequest.Verse(id: verse.id.rawValue, text: $0) } }
    }

    /// Listens to `request`, and as `controls` say: starting it again after its end (in the
    /// player), going on chapter by chapter, and falling asleep (the timer goes on across
    /// chapters).
    static func listen(_ request: ListenRequest, cues: String?, reference: Reference, translation: Translation, passage: [PassageVerse],
                       controls: Controls, json: Bool, database: TextDatabase, _ context: Context) throws {
        var (request, reference, passage) = (request, reference, passage)
        request.repeats = controls.repeats
        if case .after(let seconds) = controls.sleep { request.sleepAfterSeconds = seconds }
        while true {
            if controls.sleep == .endOfChapter { request.sleepAfterVerse = chapterEnd(in: request.verses, from: request.start) }
            // Read on after this passage: there is a next chapter (none after Revelation 22).
            request.goesOn = controls.continues && controls.sleep != .endOfChapter && chapter(after: reference) != nil
            var longer: Double?
            if case .after(let seconds) = controls.sleep { longer = seconds }
            var session = ListenSession(request: request, cues: cues, reference: reference, translation: translation, passage: passage,
                                        json: json, sleepLonger: longer, context: context)
            guard try session.run(), controls.continues, controls.sleep != .endOfChapter else { return }
            // Asleep at the chapter's end: the timer ran out with it.
            if let left = session.sleepLeft, left <= 0 { return }
            var spoken: [ListenRequest.Verse] = []
            repeat {
                guard let next = chapter(after: reference) else { return }
                (reference, passage) = (next, try database.passage(next, in: translation))
                spoken = spokenVerses(passage)
            } while spoken.isEmpty
            var following = ListenRequest(verses: spoken, voice: request.voice, rate: session.rate, start: 0)
            following.title = "\(reference) (\(translation.code))"
            following.naturalLanguage = request.naturalLanguage
            following.sleepAfterSeconds = session.sleepLeft
            request = following
        }
    }

    /// The chapter after `reference`'s last verse (its rest, when it ends mid-chapter), across
    /// books; nil after Revelation 22:21.
    static func chapter(after reference: Reference) -> Reference? {
        guard let next = reference.ranges.last?.last.next, let count = Canon.book(number: next.book)?.verseCount(chapter: next.chapter) else { return nil }
        return Reference(VerseRange(first: next, last: VerseID(book: next.book, chapter: next.chapter, verse: count)))
    }

    /// The index of the last of `verses` in the chapter of the one at `start`.
    static func chapterEnd(in verses: [ListenRequest.Verse], from start: Int) -> Int {
        let chapter = verses[start].id / 1000
        return verses.lastIndex { $0.id / 1000 == chapter } ?? start
    }

    /// How a listening goes on and ends: `--continue`, `--repeat`, `--sleep`.
    struct Controls: Equatable {
        enum Sleep: Equatable {
            /// After this many seconds heard.
            case after(Double)
            /// At the end of the chapter being heard.
            case endOfChapter
        }

        var continues = false
        var repeats = false
        var sleep: Sleep?

        init(continues: Bool = false, repeats: Bool = false, sleep: Sleep? = nil) {
            (self.continues, self.repeats, self.sleep) = (continues, repeats, sleep)
        }

        /// From the command line, refusing what cannot go together (`plan today --listen` has none).
        init(_ arguments: ParsedArguments, _ context: Context) throws {
            self.init(continues: arguments.has(Options.continueReading), repeats: arguments.has(Options.repeatPassage),
                      sleep: try arguments.value(Options.sleep, context))
            if continues && repeats { throw Failure.usage("--continue reads on after the passage and --repeat starts it again: give one of them") }
            let asked = [("continue", continues), ("repeat", repeats), ("sleep", sleep != nil)].first { $0.1 }
            if arguments.gave(Options.export), let (option, _) = asked {
                throw Failure.usage("--export writes the passage once, to a file: --\(option) is for listening")
            }
        }

        /// `--sleep`'s value: a whole number of seconds, minutes or hours (`90s`, `20m`, `1h`),
        /// at most a day, or `chapter`.
        static func sleep(_ text: String) throws -> Sleep {
            if text == "chapter" { return .endOfChapter }
            let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600]
            let digits = text.dropLast()
            guard let unit = text.last.flatMap({ units[$0] }), !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let count = Double(digits), count > 0, let seconds = Seconds.checked(count * unit) else {
                throw Failure.usage("--sleep must be a time like 90s, 20m or 1h (at most 24h), or 'chapter', not '\(text)'")
            }
            return .after(seconds)
        }
    }

    /// Who reads: a recording's reader, else `--voice`, else the voice of the listening resumed,
    /// else the translation's own (`translations.tsv`), else its language's (`languages.tsv`).
    static func voice(recording: Recorded?, asked: String?, resume: ListeningPosition?, translation: Translation) -> String {
        recording?.sheet.voice ?? asked ?? resume?.voice ?? translation.voice
    }

    /// A recording to play (`--audio`) and its cue sheet, read and checked for order.
    struct Recorded {
        let path: String
        let cuesPath: String
        let sheet: CueSheet

        init(_ path: String, cues: String?, exporting: String?) throws {
            guard exporting == nil else { throw Failure.usage("--audio plays a recording and --export writes speech: give one of them") }
            guard Files.isRegularFile(path) else { throw Failure.data("--audio '\(path)': no such file") }
            // Absolute: the place kept for resuming names the files wherever it is resumed.
            self.path = UserPath.absolute(path)
            cuesPath = UserPath.absolute(cues ?? CueSheet.path(forAudio: path))
            guard Files.exists(cuesPath) else {
                throw Failure.data("\(cuesPath): no cue sheet for \(path): make one with 'manna cues import', or give --cues")
            }
            sheet = try CueSheetFile.read(cuesPath)
            // Cues out of order would play verses out of order: refused, the first defect named.
            if let defect = sheet.defects(passage: nil, audio: nil).first {
                throw Failure.data("\(cuesPath): \(defect) ('manna cues check' lists every defect)")
            }
        }
    }

    /// The index of the spoken verse `--from` names: a verse number (of the passage's first
    /// chapter), chapter:verse (of its book), or a reference.
    static func startIndex(_ from: String, in spoken: [ListenRequest.Verse], of reference: Reference) throws -> Int {
        let first = VerseID(rawValue: spoken[0].id)
        let target: VerseID
        let parts = from.split(separator: ":", omittingEmptySubsequences: false)
        if let verse = Int(from) {
            target = VerseID(book: first.book, chapter: first.chapter, verse: verse)
        } else if parts.count == 2, let chapter = Int(parts[0]), let verse = Int(parts[1]) {
            target = VerseID(book: first.book, chapter: chapter, verse: verse)
        } else {
            target = try Reference(parsing: from).ranges[0].first
        }
        guard let index = spoken.firstIndex(where: { $0.id == target.rawValue }) else {
            throw Failure.usage("--from '\(from)' is not a verse of \(reference)")
        }
        return index
    }

    /// The file types `--export` writes, by extension.
    static let exportFormats = ["wav", "flac", "ogg", "opus"]

    /// Renders the reading to `path` and writes its cue sheet beside it. The audio is written
    /// into a temporary file Manna makes exclusively beside its destination (the player is
    /// given only that) and renamed into place once whole; the cue sheet, with the audio's
    /// hash, then replaces any before it. Both destinations are checked as every write's
    /// (`Files.checkWritable`: no link, FIFO or folder) before a sound is rendered.
    static func export(_ request: ListenRequest, reference: Reference, translation: String, to path: String, _ context: Context) throws {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), exportFormats.contains(name[name.index(after: dot)...].lowercased()) else {
            throw Failure.usage("--export '\(path)': the name must end in " + exportFormats.map { "." + $0 }.joined(separator: ", ") + " (the kind of audio to write)")
        }
        let format = name[name.index(after: dot)...].lowercased()
        let sheetPath = CueSheet.path(forAudio: path)
        let temporary: String
        do {
            try Files.checkWritable(sheetPath, link: .refuse)
            let created = try Files.createTemporary(beside: path, mode: 0o644)
            close(created.descriptor)
            temporary = created.path
        } catch {
            throw Failure.io("--export: cannot write \(error.message)")
        }
        defer { _ = try? Files.remove(temporary) }
        let report: JSON
        do { report = try PlayerProcess.export(request, format: format, to: temporary, context: context) } catch let error as PlayerFailure {
            // The player knows only the temporary name: the user named `path`.
            throw PlayerFailure(message: error.message.replacingAll(temporary, with: path), status: error.status)
        }
        guard let speechRate = report["sample_rate"]?.intValue, let fileRate = report["file_rate"]?.intValue,
              let frames = report["frames"]?.intValue, let verses = report["verses"]?.arrayValue else {
            throw Failure.unavailable("the player's export report lacks its counts: \(report.text)")
        }
        var cues: [CueSheet.Cue] = []
        for verse in verses {
            guard let index = verse["index"]?.intValue, request.verses.indices.contains(index),
                  let start = verse["start"]?.intValue, let end = verse["end"]?.intValue else {
                throw Failure.unavailable("the player's export report has a bad verse: \(verse.text)")
            }
            cues.append(CueSheet.Cue(id: VerseID(rawValue: request.verses[index].id),
                                     start: Double(start) / Double(speechRate), end: Double(end) / Double(speechRate)))
        }
        if let unavailable = report["natural_voice_unavailable"]?.stringValue { sayOnce(reads: report["voice"]?.stringValue ?? request.voice, because: unavailable, context) }
        let sha256 = try SHA256.hexDigest(ofFile: temporary)
        // Who read: the voice the player chose (a natural voice, when one read), else the one asked.
        let sheet = CueSheet(passage: reference.description, translation: translation, voice: report["voice"]?.stringValue ?? request.voice, audio: name,
                             sampleRate: fileRate, duration: Double(frames) / Double(fileRate), sha256: sha256, cues: cues)
        do {
            try Files.moveIntoPlace(temporary, to: path)
            try Files.writeAtomically(sheet.json.prettyText + "\n", to: sheetPath)
        } catch {
            throw Failure.io("--export: cannot write \(error.message)")
        }
        context.stdout.line("wrote \(path) (\(Formatting.clock(sheet.duration)), \(cues.count) verses) and \(CueSheet.path(forAudio: path))")
    }

    /// Says on stderr that `voice` reads because the natural voice, or the one configured,
    /// cannot, and why: once, not at every listening (the reason said is kept in the cache;
    /// another is said again).
    static func sayOnce(reads voice: String, because reason: String, _ context: Context) {
        let said = context.paths.cacheDirectory + "/natural-voice-unavailable"
        guard (try? Files.readText(said)) != reason + "\n" else { return }
        context.stderr.line("\(voice) reads instead: \(reason)")
        context.stderr.flush()
        try? Files.makeDirectories(context.paths.cacheDirectory)
        try? Files.writeAtomically(reason + "\n", to: said)
    }

    /// The first registered recording in `translation` whose cues cover every verse of
    /// `verses`, or nil. Recordings whose files are gone or changed are passed over.
    static func registeredRecording(covering verses: [ListenRequest.Verse], translation: String, _ context: Context) throws -> Recorded? {
        guard let journal = try context.existingJournal() else { return nil }
        let wanted = Set(verses.map(\.id))
        for recording in try RecordingStore(journal).all() where recording.translation == translation {
            guard let found = try? Recorded(recording.audio, cues: recording.cues, exporting: nil) else { continue }
            if wanted.isSubset(of: Set(found.sheet.cues.map(\.id.rawValue))) { return found }
        }
        return nil
    }
}
