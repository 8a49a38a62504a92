// The audio-output seam: one Pipeline drives the sound server and the file writer alike. Here
// it drives a stand-in sound server whose clock the test moves, and the real FileOutput, and
// both get the same frames with the same verse starts; what falls due by the clock (the next
// verse heard, a long pause letting go of the device) is said as a time to sleep, not polled.
import CSndfile
import Foundation
import MannaKit
import Testing
import TestSupport
@testable import manna_play

@Suite struct PipelineTests {
    /// Three verses of known lengths, at 1000 frames a second so a frame is a millisecond.
    static let verses: [[Int16]] = [Array(repeating: 1, count: 300), Array(repeating: 2, count: 500), Array(repeating: 3, count: 200)]

    @Test func anExportIsTheFramesAndVerseStartsPlaybackHears() throws {
        let scratch = try Scratch("pipeline")
        let texts = ["In the beginning", "was the Word,", "and the Word was with God."]
        let request = ListenRequest(verses: texts.enumerated().map { .init(id: 43_001_001 + $0.offset, text: $0.element) }, voice: "tone", rate: 175, start: 0)
        let report = try Export.write(request, format: .wav, to: scratch.file("john.wav"), engines: [ToneEngine.self])

        // Played: the same speech through the same pipeline to a sound server, heard as it goes.
        let engine = try ToneEngine()
        let speech = texts.map(engine.synthesize)
        let server = StandInOutput()
        let pipeline = try Pipeline(source: MemorySource(speech, rate: ToneEngine.sampleRate), output: server, startingAt: 0, wake: {})
        var heard: [(index: Int, clock: Int)] = []
        var end: Int?
        while end == nil {
            server.hear((server.heard ?? -1) + 1, through: pipeline)
            heard += pipeline.versesHeard()
            end = pipeline.endHeard()
        }
        let ends = heard.dropFirst().map(\.clock) + [end!]
        let played = zip(heard, ends).map { JSON.object([("index", .int($0.index)), ("start", .int($0.clock)), ("end", .int($1))]) }
        #expect(report["verses"] == .array(played))
        #expect(report["verses"]?.arrayValue?.last?["end"]?.intValue == speech.joined().count)
        #expect(report["sample_rate"]?.intValue == ToneEngine.sampleRate && report["file_rate"]?.intValue == ToneEngine.sampleRate)

        // The file holds exactly the frames the sound server was given.
        var info = SF_INFO()
        let file = try Export.openForDecoding(scratch.file("john.wav"), &info)
        defer { sf_close(file) }
        var written = [Int16](repeating: 0, count: Int(info.frames))
        #expect(written.withUnsafeMutableBufferPointer { Int(sf_readf_short(file, $0.baseAddress, info.frames)) } == written.count)
        #expect(report["frames"]?.intValue == written.count)
        #expect(written == server.streams.joined().map { $0 })
        #expect(written == Array(speech.joined()))
    }

    @Test func aVerseIsHeardWhenTheServersClockReachesItAndNotBefore() throws {
        let now = 1_000_000
        let server = StandInOutput(buffer: 1000)
        var wakes = 0
        let pipeline = try Pipeline(source: MemorySource(Self.verses, rate: 1000), output: server, startingAt: 0, now: { now },
                                    wake: { wakes += 1 })
        // Each verse's start written wakes the loop: its deadline is new.
        #expect(wakes == 3)
        // Written, not yet playing: nothing is heard, and nothing falls due by the clock (the
        // server's started callback wakes the loop).
        #expect(pipeline.events().isEmpty)
        #expect(pipeline.millisecondsUntilDue() == nil)
        server.heard = 0
        #expect(pipeline.events() == [.verse(index: 0, t: 0)])
        #expect(pipeline.millisecondsUntilDue() == 300)
        server.heard = 299
        #expect(pipeline.events().isEmpty)
        #expect(pipeline.millisecondsUntilDue() == 1)
        server.heard = 300
        #expect(pipeline.events() == [.verse(index: 1, t: 0.3)])
        #expect(pipeline.millisecondsUntilDue() == 500)
        // Paused, the clock stands still: nothing falls due until the pause has lasted 30 s.
        #expect(try pipeline.setPaused(true) == .paused(index: 1, t: 0.3))
        #expect(server.corked)
        #expect(pipeline.millisecondsUntilDue() == 30_000)
    }

    @Test func aLongPauseLetsGoOfTheStreamAndResumingGoesOnFromTheSamePlace() throws {
        var now = 1_000_000
        let server = StandInOutput()
        let pipeline = try Pipeline(source: MemorySource(Self.verses, rate: 1000), output: server, startingAt: 0, releaseAfterSeconds: 2,
                                    now: { now }, wake: {})
        server.hear(350, through: pipeline)
        #expect(pipeline.events() == [.verse(index: 0, t: 0), .verse(index: 1, t: 0.3)])
        _ = try pipeline.setPaused(true)
        now += 1999
        _ = pipeline.events()
        #expect(server.isOpen)
        #expect(pipeline.millisecondsUntilDue() == 1)
        now += 1
        _ = pipeline.events()
        #expect(!server.isOpen, "two seconds of pause let go of the stream")
        #expect(pipeline.millisecondsUntilDue() == nil)

        #expect(try pipeline.setPaused(false) == .resumed(index: 1, t: 0.35))
        #expect(server.streams.count == 2)
        #expect(server.streams[1] == Array(Self.verses[1][50..<150]), "the new stream starts where the listener stopped")
        server.hear(450, through: pipeline)
        #expect(pipeline.events() == [.verse(index: 1, t: 0.35), .verse(index: 2, t: 0.8)], "the listening clock goes on where it stopped")
    }

    @Test func aCallPausesUntilItEndsAndALostDeviceWaitsForTheListener() throws {
        let server = StandInOutput()
        let pipeline = try Pipeline(source: MemorySource(Self.verses, rate: 1000), output: server, startingAt: 0, wake: {})
        server.heard = 100
        _ = pipeline.events()
        server.changes.interrupted = true
        #expect(pipeline.events() == [.paused(index: 0, t: 0.1, reason: .call)])
        server.changes.interrupted = false
        #expect(pipeline.events() == [.resumed(index: 0, t: 0.1)])
        server.changes.lost = true
        #expect(pipeline.events() == [.paused(index: 0, t: 0.1, reason: .device)])
        server.changes.interrupted = false
        #expect(pipeline.events().isEmpty)
        #expect(pipeline.paused)
    }

    /// `--repeat`: after the last verse the first is heard again, on the same clock, and the
    /// next verse after the last is the first; a passage of one verse starts again too.
    @Test func aRepeatedPassageStartsAgainAfterItsLastVerse() throws {
        let server = StandInOutput()
        let pipeline = try Pipeline(source: MemorySource(Self.verses, rate: 1000), output: server, startingAt: 0, repeats: true, wake: {})
        server.hear(1100, through: pipeline)
        #expect(pipeline.events() == [.verse(index: 0, t: 0), .verse(index: 1, t: 0.3), .verse(index: 2, t: 0.8), .verse(index: 0, t: 1)])
        #expect(Array(server.streams[0][1000..<1200]) == Array(Self.verses[0][0..<200]), "the first verse follows the last in the same stream")
        try pipeline.skip(3)
        server.hear(10, through: pipeline)
        #expect(pipeline.events() == [.verse(index: 0, t: 1.1)])
        #expect(pipeline.endHeard() == nil)

        let one = StandInOutput()
        let single = try Pipeline(source: MemorySource([Self.verses[0]], rate: 1000), output: one, startingAt: 0, repeats: true, wake: {})
        one.hear(650, through: single)
        #expect(single.events() == [.verse(index: 0, t: 0), .verse(index: 0, t: 0.3), .verse(index: 0, t: 0.6)])
    }

    /// A new speed while playing: the verse heard is made again at that speed and goes on from
    /// the same fraction of it (no jump, the listening clock going on), and the verses after
    /// it are as much shorter.
    @Test func aNewSpeedGoesOnFromTheSameFractionOfTheVerseHeard() throws {
        // A hundred characters a verse, each its own tone: where a stream starts says where in the verse.
        let texts = [String(String.UnicodeScalarView((0..<100).map { Unicode.Scalar(0x100 + $0)! })), "the next verse"]
        let engine = try ToneEngine()
        let rendition = Rendition(texts: texts, engine: engine, sampleRate: ToneEngine.sampleRate, startingAt: 0, rendered: {})
        rendition.start()
        _ = rendition.waitForSamples(0)
        let server = StandInOutput()
        let pipeline = try Pipeline(source: rendition, output: server, startingAt: 0, wake: {})
        server.hear(2000, through: pipeline)
        #expect(pipeline.events() == [.verse(index: 0, t: 0)])
        #expect(try pipeline.setSpeed(350))
        _ = rendition.waitForSamples(0)
        server.hear(10, through: pipeline)
        #expect(server.streams.count == 2)
        #expect(server.streams[1].first.map(Int.init) == 0x100 + 50, "half of the verse was heard: the new stream starts at its 51st character")
        #expect(pipeline.events() == [.verse(index: 0, t: 0.125)])
        #expect(rendition.waitForSamples(0).count == 100 * 20 && rendition.waitForSamples(1).count == "the next verse".count * 20)
        // A recording has its own speed.
        let memory = try Pipeline(source: MemorySource(Self.verses, rate: 1000), output: StandInOutput(), startingAt: 0, wake: {})
        #expect(try memory.setSpeed(350) == false)
    }

    /// The sleep timer: full loudness, then its last seconds (half of it, at most 5 s) fade
    /// down to silence, and the sound ends where it said, the place kept being the verse it
    /// stopped in. Set again while it runs, it counts from what is heard.
    @Test func theSleepTimerFadesOutAndEndsWhereItSaid() throws {
        let loud = Array(repeating: Array(repeating: Int16(1000), count: 3000), count: 3)
        let server = StandInOutput()
        let pipeline = try Pipeline(source: MemorySource(loud, rate: 1000), output: server, startingAt: 0, sleepAfterSeconds: 4, wake: {})
        server.hear(5000, through: pipeline)
        let played = server.streams[0]
        #expect(played.count == 4000, "4 s at 1000 frames a second, and no more")
        #expect(played[..<2000].allSatisfy { $0 == 1000 })
        #expect(played[2500] == 750 && played[3000] == 500 && played[3999] == 0)
        #expect(pipeline.events() == [.verse(index: 0, t: 0), .verse(index: 1, t: 3), .stopped(index: 1, t: 4)])

        let again = StandInOutput()
        let longer = try Pipeline(source: MemorySource(loud, rate: 1000), output: again, startingAt: 0, sleepAfterSeconds: 4, wake: {})
        again.hear(1000, through: longer)
        longer.sleep(after: 4)
        again.hear(6000, through: longer)
        #expect(again.streams[0].count == 5000)
        #expect(again.streams[0][2000] == 1000 && again.streams[0][4000] == 500)
    }

    /// `--sleep chapter`: the sound ends with the chapter's last verse, its last seconds faded,
    /// and the place kept is the verse after it.
    @Test func sleepingAfterAVerseEndsWithIt() throws {
        let loud = Array(repeating: Array(repeating: Int16(1000), count: 3000), count: 3)
        let server = StandInOutput()
        let pipeline = try Pipeline(source: MemorySource(loud, rate: 1000), output: server, startingAt: 0, sleepAfterVerse: 1, wake: {})
        server.hear(7000, through: pipeline)
        #expect(server.streams[0].count == 6000)
        #expect(server.streams[0][3000] == 1000 && server.streams[0][4500] == 500)
        #expect(pipeline.events().last == .stopped(index: 2, t: 6))
    }

    @Test func aWakeFromAnotherThreadEndsTheLoopsSleepAndNoneIsLost() throws {
        let loop = try EventLoop()
        // Made while the loop was busy: the next wait returns at once.
        loop.wake()
        var started = Clock.monotonicMilliseconds()
        loop.wait(reading: [], milliseconds: 10_000)
        #expect(Clock.monotonicMilliseconds() - started < 1000)
        // Nothing due and no wake: it sleeps the time it was given.
        started = Clock.monotonicMilliseconds()
        loop.wait(reading: [], milliseconds: 50)
        #expect(Clock.monotonicMilliseconds() - started >= 50)
        // A wake from the render thread or libpulse's: the sleep ends then, not at its time.
        let waker = Thread {
            usleep(50_000)
            loop.wake()
        }
        started = Clock.monotonicMilliseconds()
        waker.start()
        loop.wait(reading: [], milliseconds: nil)
        let slept = Clock.monotonicMilliseconds() - started
        #expect(slept >= 40 && slept < 5000, "\(slept) ms")
    }
}

/// Verses' frames already in memory, mono at `rate`.
final class MemorySource: AudioSource, @unchecked Sendable {
    let sampleRate: Int
    let channels = 1
    let texts: [String]
    let failure: PlayError? = nil
    private let verses: [[Int16]]

    init(_ verses: [[Int16]], rate: Int) {
        self.verses = verses
        sampleRate = rate
        texts = verses.indices.map { "verse \($0)" }
    }

    func frameCount(_ index: Int) -> Int? { verses[index].count }
    func samples(_ index: Int) -> [Int16]? { verses[index] }
    func waitForSamples(_ index: Int) -> [Int16] { verses[index] }
    func want(_ index: Int) {}
    func setSpeed(_ wordsPerMinute: Int) -> Bool { false }
}

/// A sound server whose clock the test sets: what it was given, stream by stream.
final class StandInOutput: AudioOutput {
    /// How far ahead of what is heard it takes frames, as a sound server's buffer.
    private let buffer: Int
    /// Frames of the current stream heard, as the test sets it; nil: not playing yet.
    var heard: Int?
    var changes = DeviceChanges()
    /// The end is heard by the clock the test moves, never by a drain.
    let drained = false
    private(set) var streams: [[Int16]] = []
    private(set) var isOpen = false
    private(set) var corked = false

    init(buffer: Int = 100) { self.buffer = buffer }

    func lock() {}
    func unlock() {}

    func open(corked: Bool, refill: @escaping () -> Void) throws(PlayError) {
        streams.append([])
        (isOpen, self.corked, heard) = (true, corked, nil)
        refill()
    }

    /// Plays the current stream up to frame `frames`, the pipeline writing as it asks for more.
    func hear(_ frames: Int, through pipeline: Pipeline) {
        while (heard ?? 0) < frames || heard == nil {
            heard = min(frames, (heard ?? 0) + 10)
            pipeline.topUp()
        }
    }

    func close() { isOpen = false }
    func writableFrames() -> Int { isOpen ? buffer - (streams[streams.count - 1].count - (heard ?? 0)) : 0 }
    func write(_ samples: UnsafeBufferPointer<Int16>) { streams[streams.count - 1] += samples }
    func framesHeard() -> Int? { isOpen ? heard.map { min($0, streams[streams.count - 1].count) } : nil }
    func drain() {}
    func setCorked(_ corked: Bool) { self.corked = corked }
    func failure() -> PlayError? { nil }

    func takeChanges() -> DeviceChanges {
        defer { changes = DeviceChanges() }
        return changes
    }
}
