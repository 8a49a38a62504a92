// The player's command line: list the voices, render a passage to a file, or speak it through
// the sound server while taking commands on stdin and reporting events on stdout
// (MannaKit's PlayerProtocol).
#if canImport(Glibc)
import Glibc
#endif
import MannaKit

enum PlayHelper {
    static let usage = """
        usage: manna-play < REQUEST.json           speak, commands on stdin, events on stdout
               manna-play --export FORMAT FILE < REQUEST.json
               manna-play --voices
               manna-play --info AUDIO

        REQUEST.json is one line: {"voice", "rate", "start", "verses": [{"id", "text"}]}, and
        optionally "repeat": true, "sleep_after_seconds", "sleep_after_verse".
        Playing, each further line of stdin is a command: pause, resume, toggle, skip N,
        seek SECONDS, verse INDEX, position SECONDS, sleep SECONDS, rate WPM, quit; each line of stdout
        an event: started, verse, paused, resumed, rate, stopped, ended, failed. While playing, the player is
        the MPRIS media player org.mpris.MediaPlayer2.manna on the session bus. --export writes FORMAT (wav, flac, ogg, opus) and prints where
        each verse starts and ends. --info decodes AUDIO and prints its sample rate, channels,
        frames and duration. Exit status: 0, or 64 usage, 65 unknown voice or audio that cannot
        be decoded, 69 no sound server, 74 the file cannot be written.

        """

    static func run(arguments: [String]) -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        var input = LineReader(descriptor: 0)
        do throws(PlayError) {
            switch arguments {
            case ["--voices"]:
                for voice in try SpeechEngines.voices() { write(voice.json.text + "\n") }
            case _ where arguments.count == 2 && arguments[0] == "--info":
                write(try Export.info(arguments[1]).text + "\n")
            case _ where arguments.count == 3 && arguments[0] == "--export":
                let (name, path) = (arguments[1], arguments[2])
                guard let format = FileOutput.Format(rawValue: name) else { throw .usage("no export format '\(name)'") }
                let request = try readRequest(&input)
                write(try Export.write(request, format: format, to: path).text + "\n")
            case []:
                let request = try readRequest(&input)
                try play(request, input: &input)
            case ["--help"], ["-h"]:
                write(usage)
            default:
                Files.write(usage, toDescriptor: 2)
                return 64
            }
            return 0
        } catch {
            // The same line on stderr for a person, and as an event for `manna`.
            write(PlayerEvent.failed(status: error.status, message: error.message).json.text + "\n")
            Files.write("manna-play: " + error.message + "\n", toDescriptor: 2)
            return error.status
        }
    }

    private static func readRequest(_ input: inout LineReader) throws(PlayError) -> ListenRequest {
        guard let line = input.nextLine(waitingMilliseconds: -1) else { throw .usage("no request on stdin") }
        do {
            return try ListenRequest(json: try JSON(parsing: line))
        } catch let error as PlayerProtocolError {
            throw .usage("bad request: " + error.problem)
        } catch {
            throw .usage("bad request: not JSON")
        }
    }

    /// Speaks `request`, obeying the commands on `input` until the end, `quit` or stdin's end.
    private static func play(_ request: ListenRequest, input: inout LineReader) throws(PlayError) {
        let loop = try EventLoop()
        let source: any AudioSource
        // Who reads: the voice the engine chose (a natural voice may read for the one asked).
        var voice = request.voice
        var passedOver: PlayError?
        if let audio = request.audio {
            source = try Recording(path: audio, verses: request.verses, duration: request.audioDuration)
        } else {
            let (engine, rate, unavailable) = try SpeechEngines.start(voice: request.voice, naturalLanguage: request.naturalLanguage, fallback: request.fallbackVoice,
                                                                      wordsPerMinute: request.rate)
            passedOver = unavailable
            let rendition = Rendition(texts: request.verses.map(\.text), engine: engine, sampleRate: rate, startingAt: request.start,
                                      rendered: loop.wake)
            rendition.start()
            source = rendition
            voice = engine.chosen
        }
        let output = try PulseOutput(sampleRate: source.sampleRate, channels: source.channels, wake: loop.wake)
        let pipeline = try Pipeline(source: source, output: output, startingAt: request.start, releaseAfterSeconds: request.releaseAfter ?? 30,
                                    repeats: request.repeats, sleepAfterSeconds: request.sleepAfterSeconds, sleepAfterVerse: request.sleepAfterVerse,
                                    wake: loop.wake)
        // The sound has started; the media controls come next, a few milliseconds later.
        // Speech's speed, in words a minute; a recording has its own.
        var speed = request.audio == nil ? request.rate : nil
        let controls = DesktopControls(verses: request.verses, title: request.title, goesOn: request.repeats || request.goesOn) {
            pipeline.lock()
            defer { pipeline.unlock() }
            return pipeline.passagePosition().seconds
        }
        defer { controls.flush() }
        write(PlayerEvent.started(sampleRate: source.sampleRate, voice: voice, controls: controls.name, naturalVoiceUnavailable: passedOver?.message).json.text + "\n")
        while true {
            var commands: [PlayerCommand] = []
            var inputEnded = false
            while let line = input.nextLine(waitingMilliseconds: 0) {
                guard let command = PlayerCommand(line: line) else { throw .usage("no command '\(line.singleLine)'") }
                commands.append(command)
            }
            if input.ended { inputEnded = true }
            var stop = false
            var sleep = false
            for request in controls.take() {
                switch request {
                case .command(let command): commands.append(command)
                case .stop: stop = true
                case .sleep: sleep = true
                }
            }
            pipeline.lock()
            var events: [PlayerEvent] = []
            var failure: PlayError?
            var seeked = false
            if sleep { events += [try? pipeline.setPaused(true, reason: .sleep)].compactMap { $0 } }
            for command in commands {
                do throws(PlayError) {
                    switch command {
                    case .pause: events += [try pipeline.setPaused(true)].compactMap { $0 }
                    case .resume: events += [try pipeline.setPaused(false)].compactMap { $0 }
                    case .toggle: events += [try pipeline.setPaused(!pipeline.paused)].compactMap { $0 }
                    case .skip(let count): try pipeline.skip(count)
                    case .seek(let seconds): try pipeline.seek(by: seconds)
                    case .verse(let index): try pipeline.jump(to: index)
                    case .position(let seconds): seeked = try pipeline.setPosition(seconds)
                    case .sleep(let seconds): pipeline.sleep(after: seconds)
                    case .rate(let wordsPerMinute) where speed != nil && wordsPerMinute != speed:
                        if try pipeline.setSpeed(wordsPerMinute) {
                            speed = wordsPerMinute
                            events.append(.rate(wordsPerMinute: wordsPerMinute, index: pipeline.verseHeard(), t: pipeline.listeningClock()))
                        }
                    case .rate: break
                    case .quit: inputEnded = true
                    }
                    if case .skip = command { seeked = true }
                    if case .seek = command { seeked = true }
                    if case .verse = command { seeked = true }
                } catch {
                    failure = error
                }
            }
            // The server asks for more in a callback; what was not rendered then is written now.
            pipeline.topUp()
            events += pipeline.events()
            if failure == nil { failure = pipeline.failure() }
            let ended = pipeline.endReported
            let heard = pipeline.verseHeard()
            if stop && !ended { events.append(.stopped(index: heard, t: pipeline.listeningClock())) }
            let state = DesktopControls.State(status: ended || stop ? "Stopped" : pipeline.paused ? "Paused" : "Playing", verse: heard,
                                              length: pipeline.passageLength(), wordsPerMinute: speed)
            let due = pipeline.millisecondsUntilDue()
            pipeline.unlock()
            for event in events { write(event.json.text + "\n") }
            controls.show(state)
            if seeked { controls.seeked() }
            if let failure { throw failure }
            if ended || inputEnded || stop { return }
            // Asleep until a line from `manna`, a call from the desktop, a wake from libpulse's
            // or the render thread, or the time the next verse becomes audible: each verse is
            // reported as it is heard, stamped with the time it was heard.
            loop.wait(reading: [input.descriptor], milliseconds: due)
        }
    }

    /// Writes to stdout; `manna` gone (EPIPE) ends the player.
    static func write(_ text: String) {
        if !Files.write(text, toDescriptor: 1) { exit(0) }
    }
}

/// Lines from a file descriptor, waiting at most a given time for the next.
struct LineReader {
    let descriptor: Int32
    private var buffer: [UInt8] = []
    private(set) var ended = false

    init(descriptor: Int32) { self.descriptor = descriptor }

    /// The next line (without its newline), or nil when none came within `milliseconds`
    /// (-1: wait as long as it takes) or the input ended (`ended`).
    mutating func nextLine(waitingMilliseconds milliseconds: Int32) -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            if ended { return nil }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            if ready <= 0 { return nil }
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 {
                ended = true
                // A last line without its newline still counts.
                if !buffer.isEmpty {
                    let line = String(decoding: buffer, as: UTF8.self)
                    buffer = []
                    return line
                }
                return nil
            }
            buffer += chunk[..<count]
        }
    }
}
