// One listening: `manna-play` speaks, this process owns the terminal. It follows the player's
// events (driven by the sound server's clock), turns keys into commands, keeps the place in
// the journal as each verse is heard, and puts the terminal back on every way out.
#if canImport(Glibc)
import Glibc
#endif
import MannaKit

struct ListenSession {
    let request: ListenRequest
    /// A recording's cue sheet, kept with the place to resume it.
    let cues: String?
    let reference: Reference
    let translation: Translation
    /// The whole passage as `read` shows it, verses the translation lacks included.
    let passage: [PassageVerse]
    let json: Bool
    /// The sleep timer's length (`--sleep 20m`): the s key sets it again from what is heard.
    let sleepLonger: Double?
    let context: Context

    /// The verse being heard (an index of `request.verses`), and the listening clock.
    private var current: Int
    private var t = 0.0
    private var paused = false
    /// Why the player paused by itself (nil: the listener paused).
    private var pauseReason: PauseReason?
    /// The player has started playing.
    private var started = false
    private var terminal: RawTerminal?
    private var screen: FollowAlong?
    private var screenWidth = 0
    /// Where on the listening clock the sleep timer ends, as last set.
    private var sleepEndsAt: Double?
    /// Speech's speed, words a minute: the request's, then as the keys or the media controls set it.
    private(set) var rate: Int

    init(request: ListenRequest, cues: String?, reference: Reference, translation: Translation, passage: [PassageVerse], json: Bool,
         sleepLonger: Double? = nil, context: Context) {
        self.request = request
        self.cues = cues
        self.reference = reference
        self.translation = translation
        self.passage = passage
        self.json = json
        self.sleepLonger = sleepLonger
        self.context = context
        current = request.start
        sleepEndsAt = request.sleepAfterSeconds
        rate = request.rate
    }

    /// Seconds of the sleep timer left when listening ended (nil: none was set).
    var sleepLeft: Double? { sleepEndsAt.map { $0 - t } }

    private var interactive: Bool { context.stdinIsTerminal && context.stdoutIsTerminal && !json }
    private var currentID: VerseID { VerseID(rawValue: request.verses[current].id) }

    /// How listening ended.
    private enum Ending {
        case heardToTheEnd
        case quit
        case signal(Int32)
        case playerGone
        case playerFailed(PlayerFailure)
    }

    /// Listens until the end (true), or until stopped, keeping the place (false).
    @discardableResult
    mutating func run() throws -> Bool {
        let journal = try context.journal()
        SignalPipe.install()
        let player = try PlayerProcess.start(request, context: context)
        var ending = Ending.playerGone
        do {
            ending = try follow(player, journal: journal)
        } catch {
            terminal?.restore()
            _ = player.finish()
            throw error
        }
        let (status, lastError) = player.finish()
        terminal?.restore()
        switch ending {
        case .heardToTheEnd:
            try ListeningStore(journal).clear()
            return true
        case .playerFailed(let failure) where !started:
            // Before a sound (no server, no such voice): nothing was heard, no place to keep.
            throw failure
        case .quit, .signal, .playerGone, .playerFailed:
            break
        }
        // The place is kept however listening stopped (a sound server gone mid-verse too).
        try save(journal)
        let place = "'manna listen' goes on from \(Reference(currentID))"
        if case .playerFailed(let failure) = ending { throw PlayerFailure(message: failure.message + "; " + place, status: failure.status) }
        if json { emit([("event", .string("stopped")), ("id", .int(currentID.rawValue)), ("reference", .string(Reference(currentID).description)), ("t", seconds(t))]) }
        switch ending {
        case .signal: throw Failure.interrupted("stopped; \(place)")
        case .playerGone:
            let how = status > 128 ? "killed by signal \(status - 128)" : "exit status \(status)"
            throw Failure.unavailable("the player stopped (\(how))" + (lastError.isEmpty ? "" : ": " + lastError) + "; \(place)")
        default:
            if interactive { context.stdout.line("stopped; \(place)") }
        }
        return false
    }

    /// Reads the player's events, the keys and the signals until listening ends.
    private mutating func follow(_ player: PlayerProcess, journal: Journal) throws -> Ending {
        while true {
            var descriptors = [pollfd(fd: player.events, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: SignalPipe.readEnd, events: Int16(POLLIN), revents: 0)]
            if interactive && terminal != nil { descriptors.append(pollfd(fd: 0, events: Int16(POLLIN), revents: 0)) }
            if poll(&descriptors, nfds_t(descriptors.count), -1) < 0 && errno != EINTR {
                throw Failure.io("cannot wait for the player: " + String(cString: strerror(errno)))
            }
            for signal in SignalPipe.drain() {
                if signal == SIGWINCH { redraw() } else { return .signal(signal) }
            }
            if descriptors.count > 2 && descriptors[2].revents != 0, let terminal {
                for key in ListenKey.keys(in: terminal.readKeys()) {
                    switch key {
                    case .quit: return .quit
                    case .command(let command): player.send(command)
                    case .sleepLonger:
                        guard let sleepLonger else { continue }
                        player.send(.sleep(sleepLonger))
                        sleepEndsAt = t + sleepLonger
                        redraw()
                    case .faster, .slower:
                        // A recording plays at its own speed.
                        guard request.audio == nil else { continue }
                        let asked = rate + (key == .faster ? ListenKey.speedStep : -ListenKey.speedStep)
                        player.send(.rate(min(max(asked, ListenRequest.rates.lowerBound), ListenRequest.rates.upperBound)))
                    }
                }
            }
            guard descriptors[0].revents != 0 else { continue }
            guard let events = try player.readEvents() else { return .playerGone }
            for event in events {
                switch event {
                case .started(_, let voice, let controls, let unavailable):
                    started = true
                    if let unavailable { Listening.sayOnce(reads: voice, because: unavailable, context) }
                    if interactive {
                        terminal = try RawTerminal()
                        redraw()
                    } else if json {
                        var fields: [(String, JSON)] = [("event", .string("started")), ("passage", .string(reference.description)),
                                                        ("translation", .string(translation.code)), ("voice", .string(voice))]
                        // The MPRIS name media keys and `playerctl` reach it by.
                        if let controls { fields.append(("controls", .string(controls))) }
                        // What is heard: espeak-ng at a speed, or a recording.
                        if let audio = request.audio {
                            fields += [("source", .string("recording")), ("audio", .string(audio))]
                        } else {
                            fields += [("source", .string("speech")), ("rate", .int(request.rate))]
                        }
                        emit(fields)
                    }
                case .verse(let index, let time):
                    guard request.verses.indices.contains(index) else { continue }
                    (current, t) = (index, time)
                    try save(journal)
                    report("verse")
                case .paused(let index, let time, let reason):
                    (current, t, paused, pauseReason) = (min(max(index, 0), request.verses.count - 1), time, true, reason)
                    report("paused", reason: reason)
                case .resumed(let index, let time):
                    (current, t, paused) = (min(max(index, 0), request.verses.count - 1), time, false)
                    report("resumed")
                case .rate(let wordsPerMinute, let index, let time):
                    (rate, current, t) = (wordsPerMinute, min(max(index, 0), request.verses.count - 1), time)
                    try save(journal)
                    report("rate")
                case .stopped(let index, let time):
                    // The media controls' Stop: as if the listener pressed q.
                    (current, t) = (min(max(index, 0), request.verses.count - 1), time)
                    return .quit
                case .ended(let time):
                    t = time
                    if json { emit([("event", .string("ended")), ("t", seconds(time))]) }
                    return .heardToTheEnd
                case .failed(let status, let message):
                    return .playerFailed(PlayerFailure(message: message, status: status))
                }
            }
        }
    }

    /// Says what happened: the screen redrawn, or a line (JSON, or the time, reference and text).
    private mutating func report(_ event: String, reason: PauseReason? = nil) {
        if terminal != nil { return redraw() }
        if json {
            var fields: [(String, JSON)] = [("event", .string(event)), ("id", .int(currentID.rawValue)),
                                            ("reference", .string(Reference(currentID).description)), ("t", seconds(t))]
            if let reason { fields.append(("reason", .string(reason.rawValue))) }
            if event == "rate" { fields.append(("rate", .int(rate))) }
            return emit(fields)
        }
        guard event == "verse" else { return }
        context.stdout.line(ListenSession.time(t) + "  " + Reference(currentID).description + "  " + request.verses[current].text.singleLine)
        context.stdout.flush()
    }

    private func emit(_ fields: [(String, JSON)]) {
        context.json(.object(fields))
        context.stdout.flush()
    }

    private func seconds(_ value: Double) -> JSON { .number((value * 1000).rounded() / 1000) }

    /// Seconds with two decimals, like 12.34.
    static func time(_ seconds: Double) -> String {
        let hundredths = Int((seconds * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }

    private func save(_ journal: Journal) throws {
        try ListeningStore(journal).save(ListeningPosition(
            passage: reference.description, translation: translation.code, verse: currentID,
            voice: request.audio == nil ? request.voice : nil, rate: request.audio == nil ? rate : nil,
            audio: request.audio, cues: cues, updatedAt: context.clock.now()))
    }

    /// Draws the follow-along screen: the passage, the verse being heard highlighted and in
    /// view, and a status line with the keys.
    private mutating func redraw() {
        guard let terminal else { return }
        let (rows, columns) = RawTerminal.size()
        if screen == nil || columns != screenWidth {
            let marks = (try? context.existingJournal()?.marks(on: reference)) ?? nil
            let layout = PassageFormatter.layout(reference: reference, translation: translation.code, language: translation.language, verses: passage, width: columns,
                                                 marks: marks ?? PassageMarks(), color: context.colorChoice != .never && context.environment.nonEmpty("NO_COLOR") == nil)
            screen = FollowAlong(lines: layout.lines, verseLines: layout.verseLines)
            screenWidth = columns
        }
        let height = max(1, rows - 1)
        screen!.follow(currentID, height: height)
        var lines = screen!.screen(current: currentID, height: height, width: columns)
        let state = paused ? "paused" + (pauseReason.map { " (\($0.description))" } ?? "") + "  " : "playing "
        let sleep = sleepEndsAt.map { "  sleep in " + Formatting.clock(max(0, $0 - t)) } ?? ""
        let status = state + Reference(currentID).description + "  " + Formatting.clock(t) + sleep
            + "   space pause · n/p verse · ←/→ 10 s" + (request.audio == nil ? " · +/- \(rate) wpm" : "")
            + (sleepLonger == nil ? "" : " · s sleep later") + " · q quit"
        lines.append(TerminalText(status, style: .dim).cut(to: columns))
        terminal.draw(lines)
    }
}
