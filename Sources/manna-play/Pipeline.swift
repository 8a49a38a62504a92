// The passage from its source (speech rendered ahead, or a recording) to an audio output (the
// sound server, or a file), verse by verse, counting where each verse starts in the output's
// stream: the output's clock then says which verse is heard. Playing and exporting both run
// through here; only the output differs. A seek starts a new stream at the new place, so each
// stream's clock counts from a known sample.
#if canImport(Glibc)
import Glibc
#endif
import MannaKit

final class Pipeline: @unchecked Sendable {
    private let source: any AudioSource
    private let output: any AudioOutput
    private let rate: Int
    private let channels: Int
    /// The monotonic clock, in milliseconds: how long a pause has lasted.
    private let now: () -> Int
    /// Wakes the player's loop when a verse's start is written (often on the output's own
    /// thread, asked for more): a new time that something falls due.
    private let wake: () -> Void

    /// A stream is open on the output (none while a long pause has let go of the device).
    private var streamOpen = false
    // Where the next sample written comes from.
    private var writeVerse: Int
    private var writeOffset = 0
    private var allWritten = false
    /// Frames written to the current stream.
    private var streamWritten = 0
    /// Where each verse begins in the current stream: (stream frame, verse, offset in the verse).
    private var starts: [(sample: Int, verse: Int, offset: Int)] = []
    /// The next of `starts` not yet reported heard.
    private var nextStart = 0
    /// Frames heard in the streams before the current one.
    private var heardBefore = 0
    private(set) var paused = false
    /// Paused by an interruption (a call, a cork request), not by the listener: resumed when
    /// it ends. A listener's own pause or resume clears it.
    private var pausedForInterruption = false
    /// How long a pause may hold the sound device: then its stream is closed, so other audio
    /// is never held, and resuming opens a new one at the same place.
    private let releaseAfterMilliseconds: Int
    private var pausedSince: Int?
    /// What went wrong where no caller could be told at once (resuming after an interruption).
    private var pendingFailure: PlayError?
    /// Past the last verse: heard to the end, or skipped past it; or asleep.
    private var ended = false
    private(set) var endReported = false
    /// After the last verse, the first again (`--repeat`).
    private let repeats: Bool
    /// The sleep timer: where on the listening clock (frames) the sound ends, faded out over
    /// the `fadeFrames` before it; nil while none is set.
    private var sleepAt: Int?
    private var fadeFrames = 1
    /// Listening ends with this verse (`--sleep chapter`): `sleepAt` is set when it is written.
    private let sleepAfterVerse: Int?
    /// The sleep timer ended the sound before the passage's end.
    private var asleep = false
    /// After a speed change, where in the verse written next to start: the fraction of it
    /// heard at the old speed, so the place heard does not jump.
    private var resumeFraction: Double?
    /// The longest fade: a sleep timer's last seconds.
    static let fadeSeconds = 5.0

    /// Starts writing `source` from `verse` on to `output`; `wake` wakes the loop that waits
    /// for what falls due (`millisecondsUntilDue`).
    /// `repeats` starts again after the last verse; `sleepAfterSeconds` and `sleepAfterVerse`
    /// end listening, fading out, after that much is heard or with that verse.
    init(source: any AudioSource, output: any AudioOutput, startingAt verse: Int, releaseAfterSeconds: Double = 30,
         repeats: Bool = false, sleepAfterSeconds: Double? = nil, sleepAfterVerse: Int? = nil,
         now: @escaping () -> Int = Clock.monotonicMilliseconds, wake: @escaping () -> Void) throws(PlayError) {
        self.source = source
        self.output = output
        self.now = now
        self.wake = wake
        releaseAfterMilliseconds = Int(releaseAfterSeconds * 1000)
        rate = source.sampleRate
        channels = source.channels
        writeVerse = verse
        self.repeats = repeats
        self.sleepAfterVerse = sleepAfterVerse
        lock()
        if let sleepAfterSeconds { sleep(after: sleepAfterSeconds) }
        defer { unlock() }
        try openStream(corked: false)
    }

    /// Holds off the output's own thread: every method below is called with it held.
    func lock() { output.lock() }
    func unlock() { output.unlock() }

    /// A stream for the samples from (`writeVerse`, `writeOffset`) on.
    private func openStream(corked: Bool) throws(PlayError) {
        // Reset before opening: the output may ask for samples while the stream connects.
        streamWritten = 0
        starts = []
        nextStart = 0
        allWritten = false
        streamOpen = true
        do throws(PlayError) {
            try output.open(corked: corked) { [unowned self] in topUp() }
        } catch {
            streamOpen = false
            throw error
        }
    }

    /// Writes as much as the output takes and the source has.
    func topUp() {
        guard streamOpen, !allWritten else { return }
        var room = output.writableFrames()
        while room > 0 {
            if writeVerse >= source.texts.count {
                guard repeats else {
                    allWritten = true
                    break
                }
                (writeVerse, writeOffset) = (0, 0)
            }
            if let sleepAt, writtenClock >= sleepAt {
                (allWritten, asleep) = (true, true)
                break
            }
            guard let chunk = source.samples(writeVerse) else {
                source.want(writeVerse)
                return
            }
            let frames = chunk.count / channels
            if let fraction = resumeFraction {
                writeOffset = min(frames, Int(fraction * Double(frames)))
                resumeFraction = nil
            }
            // A verse begins: another, or the same again (a passage of one verse repeated).
            if starts.last?.verse != writeVerse || (writeOffset == 0 && starts.last!.sample < streamWritten) {
                starts.append((streamWritten, writeVerse, writeOffset))
                wake()
                if writeVerse == sleepAfterVerse {
                    let end = writtenClock + frames - writeOffset
                    if end < sleepAt ?? .max { (sleepAt, fadeFrames) = (end, max(1, min(Int(Pipeline.fadeSeconds) * rate, frames))) }
                }
            }
            var count = min(room, frames - writeOffset)
            if let sleepAt { count = min(count, max(0, sleepAt - writtenClock)) }
            if count > 0 {
                write(chunk, frames: writeOffset..<writeOffset + count)
                streamWritten += count
                writeOffset += count
                room -= count
            }
            // A recording cut short: nothing after the cut (its verses are not in the file).
            if source.failure != nil {
                allWritten = true
                break
            }
            if writeOffset >= frames {
                writeVerse += 1
                writeOffset = 0
                if writeVerse < source.texts.count { source.want(writeVerse) }
            }
        }
        if allWritten { output.drain() }
    }

    /// The listening clock (frames) of the next frame written.
    private var writtenClock: Int { heardBefore + streamWritten }

    /// Writes `frames` of `chunk`, faded out as the sleep timer's end nears.
    private func write(_ chunk: [Int16], frames: Range<Int>) {
        let samples = frames.lowerBound * channels..<frames.upperBound * channels
        guard let sleepAt, sleepAt - writtenClock - frames.count < fadeFrames else {
            return chunk.withUnsafeBufferPointer { output.write(UnsafeBufferPointer(rebasing: $0[samples])) }
        }
        var faded = Array(chunk[samples])
        for frame in 0..<frames.count {
            // Linear down to silence at `sleepAt`.
            let gain = min(1, Double(sleepAt - writtenClock - frame) / Double(fadeFrames))
            for channel in 0..<channels { faded[frame * channels + channel] = Int16(Double(faded[frame * channels + channel]) * max(0, gain)) }
        }
        faded.withUnsafeBufferPointer { output.write($0) }
    }

    /// Sets the sleep timer: the sound ends `seconds` after what is heard now, its last
    /// seconds (at most `fadeSeconds`, at most half of it) fading out.
    func sleep(after seconds: Double) {
        guard !allWritten else { return }
        sleepAt = position().clock + Int(seconds * Double(rate))
        fadeFrames = max(1, Int(min(Pipeline.fadeSeconds, seconds / 2) * Double(rate)))
    }

    /// Frames of the current stream heard so far (none before it plays).
    private func heardInStream() -> Int { streamOpen ? output.framesHeard() ?? 0 : 0 }

    /// Where the listener is: the verse and the offset in it, and the listening clock in frames.
    private func position() -> (verse: Int, offset: Int, clock: Int) {
        let heard = heardInStream()
        guard let start = starts.last(where: { $0.sample <= heard }) else { return (writeVerse, writeOffset, heardBefore + heard) }
        return (start.verse, start.offset + heard - start.sample, heardBefore + heard)
    }

    private func seconds(_ frames: Int) -> Double { Double(frames) / Double(rate) }

    /// The listening clock: seconds heard since playback began.
    func listeningClock() -> Double { seconds(position().clock) }

    /// Why playback cannot go on (the output failed, or resuming did); nil while all is well.
    func failure() -> PlayError? { pendingFailure ?? output.failure() }

    // MARK: - What is heard

    /// The verses that became audible since the last call, each with where it starts on the
    /// listening clock (frames): once the output plays it, not when it is written, nor before
    /// the stream has started (its first frame, at 0, would otherwise be "heard" at once).
    func versesHeard() -> [(index: Int, clock: Int)] {
        guard let heard = streamOpen ? output.framesHeard() : nil else { return [] }
        var verses: [(index: Int, clock: Int)] = []
        while nextStart < starts.count && starts[nextStart].sample <= heard {
            verses.append((starts[nextStart].verse, heardBefore + starts[nextStart].sample))
            nextStart += 1
        }
        return verses
    }

    /// The listening clock (frames) at the end, once, when the last verse has been heard to its
    /// end or skipped past.
    func endHeard() -> Int? {
        let heard = heardInStream()
        if allWritten && !ended && (heard >= streamWritten || output.drained) {
            // A recording cut short plays to the cut, then stops with why.
            if let failure = source.failure { pendingFailure = failure } else { ended = true }
        }
        guard ended && !endReported else { return nil }
        endReported = true
        return heardBefore + heard
    }

    /// The events since the last call: pauses for the device, verses that became audible, and
    /// the end.
    func events() -> [PlayerEvent] {
        var events: [PlayerEvent] = []
        if let event = followDevice() { events.append(event) }
        releaseIfPausedLong()
        events += versesHeard().map { .verse(index: $0.index, t: seconds($0.clock)) }
        if let end = endHeard() {
            // Asleep, the place kept is where the sound stopped: the next verse, at a verse's end.
            events.append(asleep ? .stopped(index: writeVerse, t: seconds(end)) : .ended(t: seconds(end)))
        }
        return events
    }

    /// Milliseconds until something falls due by the clock alone: the next verse becoming
    /// audible, or a long pause letting go of the device. Nil when nothing will without an
    /// event from the output or the source (paused, not yet playing, waiting for the drain).
    func millisecondsUntilDue() -> Int? {
        var due: [Int] = []
        if paused, streamOpen, let since = pausedSince { due.append(max(0, since + releaseAfterMilliseconds - now())) }
        if !paused, nextStart < starts.count, let heard = streamOpen ? output.framesHeard() : nil {
            // Rounded up: woken a millisecond early, the verse is not heard yet.
            due.append(max(0, (starts[nextStart].sample - heard) * 1000 + rate - 1) / rate)
        }
        return due.min()
    }

    /// Pauses for an interruption that began, resumes after one that ended if it paused; the
    /// device gone pauses and waits for the listener.
    private func followDevice() -> PlayerEvent? {
        let changes = output.takeChanges()
        do throws(PlayError) {
            if changes.lost {
                // Never resumed by itself: the sound would come out of the wrong speakers.
                pausedForInterruption = false
                return try setPaused(true, reason: .device)
            }
            if changes.interrupted == true && !paused {
                let event = try setPaused(true, reason: .call)
                pausedForInterruption = true
                return event
            }
            if changes.interrupted == false && pausedForInterruption {
                return try setPaused(false)
            }
        } catch {
            pendingFailure = error
        }
        return nil
    }

    // MARK: - Commands

    /// Pauses or resumes; `reason` says why the player paused by itself.
    func setPaused(_ pause: Bool, reason: PauseReason? = nil) throws(PlayError) -> PlayerEvent? {
        pausedForInterruption = false
        guard pause != paused, !ended else { return nil }
        paused = pause
        pausedSince = pause ? now() : nil
        if streamOpen {
            output.setCorked(pause)
        } else if !pause {
            // Released during a long pause: a new stream from where it stopped.
            try play(from: writeVerse, offset: writeOffset)
        }
        let now = position()
        return pause ? .paused(index: now.verse, t: seconds(now.clock), reason: reason) : .resumed(index: now.verse, t: seconds(now.clock))
    }

    /// Plays from the start of the verse `count` verses from the one heard (the end, past the last).
    func skip(_ count: Int) throws(PlayError) {
        let target = position().verse + count
        try play(from: max(0, target), offset: 0)
    }

    func jump(to verse: Int) throws(PlayError) {
        try play(from: min(max(0, verse), source.texts.count - 1), offset: 0)
    }

    /// Speaks at `wordsPerMinute` from what is heard, without a jump: the verse heard is made
    /// again at the new speed and goes on from the same fraction of it. False, changing
    /// nothing, for a recording.
    func setSpeed(_ wordsPerMinute: Int) throws(PlayError) -> Bool {
        let now = position()
        let fraction = source.frameCount(now.verse).map { Double(now.offset) / Double(max(1, $0)) } ?? 0
        guard !ended, source.setSpeed(wordsPerMinute) else { return false }
        knownLength = nil
        try play(from: now.verse, offset: 0, fraction: fraction)
        return true
    }

    /// Plays from `seconds` after (or before) what is heard.
    func seek(by seconds: Double) throws(PlayError) {
        let now = position()
        var verse = now.verse
        var offset = now.offset + Int(seconds * Double(rate))
        while offset < 0 && verse > 0 {
            verse -= 1
            offset += source.waitForSamples(verse).count / channels
        }
        offset = max(0, offset)
        while verse < source.texts.count && offset >= source.waitForSamples(verse).count / channels {
            offset -= source.waitForSamples(verse).count / channels
            verse += 1
        }
        try play(from: verse, offset: verse < source.texts.count ? offset : 0)
    }

    // MARK: - The passage's clock (the media controls')

    /// Frames from the start of the passage to `verse`, nil while a verse's length is unknown.
    private func framesBefore(_ verse: Int) -> Int? {
        var frames = 0
        for index in 0..<verse {
            guard let count = source.frameCount(index) else { return nil }
            frames += count
        }
        return frames
    }

    /// The verse being heard, and the seconds from the passage's start to what is heard (nil
    /// while the length of a verse before it is not known yet).
    func passagePosition() -> (verse: Int, seconds: Double?) {
        let now = ended ? (verse: source.texts.count, offset: 0, clock: 0) : position()
        return (min(now.verse, source.texts.count - 1), framesBefore(now.verse).map { seconds($0 + now.offset) })
    }

    /// The verse being heard (the last, at the end).
    func verseHeard() -> Int { ended ? source.texts.count - 1 : position().verse }

    /// The passage's length in seconds, once every verse's is known.
    func passageLength() -> Double? {
        if knownLength == nil { knownLength = framesBefore(source.texts.count).map(seconds) }
        return knownLength
    }
    private var knownLength: Double?

    /// Plays from `seconds` after the passage's start. False, doing nothing, past the end or
    /// where the lengths are not known yet.
    func setPosition(_ seconds: Double) throws(PlayError) -> Bool {
        var frames = Int(seconds * Double(rate))
        for verse in source.texts.indices {
            guard let count = source.frameCount(verse) else { return false }
            if frames < count {
                try play(from: verse, offset: frames)
                return true
            }
            frames -= count
        }
        return false
    }

    /// Closes the stream of a pause that has lasted, keeping the place.
    private func releaseIfPausedLong() {
        guard paused, streamOpen, let since = pausedSince, now() - since >= releaseAfterMilliseconds else { return }
        let now = position()
        closeStream()
        (writeVerse, writeOffset) = (now.verse, now.offset)
        starts = []
        nextStart = 0
    }

    /// Ends the current stream, counting what was heard of it.
    private func closeStream() {
        heardBefore += heardInStream()
        guard streamOpen else { return }
        output.close()
        streamOpen = false
    }

    /// Replaces the stream with one playing from `verse` (past the last: the end), paused if
    /// paused; at `offset`, or at `fraction` of the verse once its samples are made.
    private func play(from verse: Int, offset: Int, fraction: Double? = nil) throws(PlayError) {
        guard !ended else { return }
        closeStream()
        resumeFraction = fraction
        (writeVerse, writeOffset) = repeats && verse >= source.texts.count ? (0, 0) : (verse, offset)
        if writeVerse >= source.texts.count {
            ended = true
            return
        }
        source.want(writeVerse)
        try openStream(corked: paused)
    }
}
