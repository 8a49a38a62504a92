// Speech (or a recording) through the user's sound server with libpulse (PulseAudio, or PipeWire's pulse
// layer): an asynchronous stream with a small buffer, corked to pause, and the server's
// playback clock (`pa_stream_get_time`) telling which verse is being heard. A seek starts a
// new stream at the new place, so each stream's clock counts from a known sample.
import CPulse
#if canImport(Glibc)
import Glibc
#endif
import MannaKit

final class Playback: @unchecked Sendable {
    private let rendition: any AudioSource
    private let rate: Int
    private let channels: Int
    /// Bytes of one frame: a 16-bit sample for each channel.
    private var frameBytes: Int { 2 * channels }
    private let mainloop: OpaquePointer
    private let context: OpaquePointer
    private var stream: OpaquePointer?

    // Where the next sample written comes from.
    private var writeVerse: Int
    private var writeOffset = 0
    private var allWritten = false
    private var drainRequested = false
    private var drained = false
    /// The server has begun playing the current stream: before that, nothing is heard.
    private var playing = false
    /// Samples written to the current stream.
    private var streamWritten = 0
    /// Where each verse begins in the current stream: (stream sample, verse, offset in the verse).
    private var starts: [(sample: Int, verse: Int, offset: Int)] = []
    /// The next of `starts` not yet reported heard.
    private var nextStart = 0
    /// Samples heard in the streams before the current one.
    private var heardBefore = 0
    private(set) var paused = false
    /// Paused by an interruption (a call, a cork request), not by the listener: resumed when
    /// it ends. A listener's own pause or resume clears it.
    private var pausedForInterruption = false
    /// The other streams that interrupt: sink inputs with media.role phone or communication.
    private var interrupting: Set<UInt32> = []
    /// Interruptions began or ended since the main loop last looked (set on the server's thread).
    private var interruptionChanged = false
    /// PA_INVALID_INDEX, which Swift imports as a macro it cannot use.
    private static let noDevice = UInt32.max
    /// The sink the stream plays on, and its active port (headphones, speakers) once looked up.
    private var device = Playback.noDevice
    private var port: String??
    /// The sink the server last moved the stream from: its removal moved the stream.
    private var formerDevice = Playback.noDevice
    /// The sink went away or its port changed since the main loop last looked.
    private var deviceLost = false
    /// How long a pause may hold the sound device: then its stream is closed, so other audio
    /// is never held, and resuming opens a new one at the same place.
    private let releaseAfterMilliseconds: Int
    private var pausedSince: Int?
    /// What went wrong where no caller could be told at once (resuming after an interruption).
    private var pendingFailure: PlayError?
    /// Past the last verse: heard to the end, or skipped past it.
    private var ended = false
    private(set) var endReported = false

    /// How much the server buffers ahead of what is heard: small, so pause and seek are prompt.
    private static let bufferMilliseconds = 60
    /// How long connecting to the server may take.
    private static let connectMilliseconds = 1000

    /// Connects to the sound server, within a second.
    init(rendition: any AudioSource, startingAt verse: Int, releaseAfterSeconds: Double = 30) throws(PlayError) {
        self.rendition = rendition
        releaseAfterMilliseconds = Int(releaseAfterSeconds * 1000)
        rate = rendition.sampleRate
        channels = rendition.channels
        writeVerse = verse
        guard let mainloop = pa_threaded_mainloop_new() else { throw .unavailable("cannot start PulseAudio's main loop") }
        self.mainloop = mainloop
        let properties = Playback.properties()
        defer { pa_proplist_free(properties) }
        guard let context = pa_context_new_with_proplist(pa_threaded_mainloop_get_api(mainloop), "Manna", properties) else {
            throw .unavailable("cannot make a PulseAudio context")
        }
        self.context = context
        let tried = getenv("PULSE_SERVER").map { String(cString: $0) }
            ?? getenv("XDG_RUNTIME_DIR").map { String(cString: $0) + "/pulse/native" } ?? "the default PulseAudio socket"
        func noServer(_ reason: String) -> PlayError {
            .unavailable("no sound server answered at \(tried) (\(reason)): start PulseAudio or PipeWire, "
                + "or write the reading to a file with --export FILE.flac")
        }
        guard pa_context_connect(context, nil, PA_CONTEXT_NOAUTOSPAWN, nil) >= 0 else {
            throw noServer(String(cString: pa_strerror(pa_context_errno(context))))
        }
        pa_threaded_mainloop_start(mainloop)
        lock()
        defer { unlock() }
        let deadline = Clock.monotonicMilliseconds() + Playback.connectMilliseconds
        while true {
            let state = pa_context_get_state(context)
            if state == PA_CONTEXT_READY { break }
            if state == PA_CONTEXT_FAILED || state == PA_CONTEXT_TERMINATED {
                throw noServer(String(cString: pa_strerror(pa_context_errno(context))))
            }
            if Clock.monotonicMilliseconds() > deadline { throw noServer("it did not answer within a second") }
            waitBriefly()
        }
        try openStream(corked: false)
        watchForInterruptions()
    }

    // MARK: - Interruptions

    /// Watches the server's other streams: one with media.role phone or communication pauses
    /// playback while it plays (Debian 12's PipeWire layer has no module-role-cork, so a
    /// player must do this itself).
    private func watchForInterruptions() {
        let me = Unmanaged.passUnretained(self).toOpaque()
        pa_context_set_subscribe_callback(context, { context, event, index, player in
            let playback = Unmanaged<Playback>.fromOpaque(player!).takeUnretainedValue()
            let type = event.rawValue & PA_SUBSCRIPTION_EVENT_TYPE_MASK.rawValue
            if event.rawValue & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue == PA_SUBSCRIPTION_EVENT_SINK.rawValue {
                return playback.sinkChanged(index, removed: type == PA_SUBSCRIPTION_EVENT_REMOVE.rawValue)
            }
            if type == PA_SUBSCRIPTION_EVENT_REMOVE.rawValue {
                if playback.interrupting.remove(index) != nil { playback.interruptionChanged = true }
                return
            }
            // New or changed: its role decides (looked up; the answer comes in a callback).
            if let operation = pa_context_get_sink_input_info(context, index, { _, info, eol, player in
                guard eol == 0, let info else { return }
                let playback = Unmanaged<Playback>.fromOpaque(player!).takeUnretainedValue()
                let role = pa_proplist_gets(info.pointee.proplist, "media.role").map { String(cString: $0) }
                let interrupts = role == "phone" || role == "communication"
                let known = playback.interrupting.contains(info.pointee.index)
                if interrupts && !known { playback.interrupting.insert(info.pointee.index) } else if !interrupts && known { playback.interrupting.remove(info.pointee.index) } else { return }
                playback.interruptionChanged = true
            }, player) { pa_operation_unref(operation) }
        }, me)
        let mask = PA_SUBSCRIPTION_MASK_SINK_INPUT.rawValue | PA_SUBSCRIPTION_MASK_SINK.rawValue
        if let operation = pa_context_subscribe(context, pa_subscription_mask_t(rawValue: mask), nil, nil) { pa_operation_unref(operation) }
    }

    /// A sink was removed or changed (on the server's thread): the stream's sink gone (the
    /// server moves the stream elsewhere: a Bluetooth headset switched off) or its active port
    /// changed (headphones unplugged from a sound card) loses the device.
    private func sinkChanged(_ index: UInt32, removed: Bool) {
        if removed {
            if index == device || index == formerDevice { deviceLost = true }
        } else if index == device {
            lookUpPort()
        }
    }

    /// Asks for the active port of the stream's sink; a change from the one known loses the device.
    private func lookUpPort() {
        guard device != Playback.noDevice else { return }
        let found: pa_sink_info_cb_t = { _, info, eol, player in
            guard eol == 0, let info else { return }
            let playback = Unmanaged<Playback>.fromOpaque(player!).takeUnretainedValue()
            guard info.pointee.index == playback.device else { return }
            let port = info.pointee.active_port.map { String(cString: $0.pointee.name) }
            if let known = playback.port, known != port { playback.deviceLost = true }
            playback.port = .some(port)
        }
        if let operation = pa_context_get_sink_info_by_index(context, device, found, Unmanaged.passUnretained(self).toOpaque()) {
            pa_operation_unref(operation)
        }
    }

    /// Where the stream plays now (a new stream, or moved by the server or the user).
    private func followDevice(of stream: OpaquePointer) {
        device = pa_stream_get_device_index(stream)
        port = nil
        lookUpPort()
    }

    /// Pauses for an interruption that began, resumes after one that ended if it paused
    /// (with the lock held).
    private func followInterruptions() -> PlayerEvent? {
        guard interruptionChanged || deviceLost else { return nil }
        interruptionChanged = false
        do throws(PlayError) {
            if deviceLost {
                // Never resumed by itself: the sound would come out of the wrong speakers.
                deviceLost = false
                pausedForInterruption = false
                return try setPaused(true, reason: .device)
            }
            if !interrupting.isEmpty && !paused {
                let event = try setPaused(true, reason: .call)
                pausedForInterruption = true
                return event
            }
            if interrupting.isEmpty && pausedForInterruption {
                return try setPaused(false)
            }
        } catch {
            pendingFailure = error
        }
        return nil
    }

    private static func properties() -> OpaquePointer {
        let properties = pa_proplist_new()!
        pa_proplist_sets(properties, "application.name", "Manna")
        pa_proplist_sets(properties, "application.id", "manna")
        pa_proplist_sets(properties, "application.icon_name", "accessories-dictionary")
        pa_proplist_sets(properties, "media.role", "music")
        return properties
    }

    func lock() { pa_threaded_mainloop_lock(mainloop) }
    func unlock() { pa_threaded_mainloop_unlock(mainloop) }

    /// Lets the main loop's thread run for a moment (called with the lock held).
    private func waitBriefly() {
        unlock()
        usleep(2000)
        lock()
    }

    /// A stream for the samples from (`writeVerse`, `writeOffset`) on.
    private func openStream(corked: Bool) throws(PlayError) {
        var spec = pa_sample_spec(format: PA_SAMPLE_S16LE, rate: UInt32(rate), channels: UInt8(channels))
        let properties = Playback.properties()
        defer { pa_proplist_free(properties) }
        guard let stream = pa_stream_new_with_proplist(context, "Reading aloud", &spec, nil, properties) else {
            throw .unavailable("cannot make a PulseAudio stream: " + String(cString: pa_strerror(pa_context_errno(context))))
        }
        self.stream = stream
        // Reset before connecting: the server may ask for samples while the stream connects.
        streamWritten = 0
        starts = []
        nextStart = 0
        allWritten = false
        drainRequested = false
        drained = false
        playing = false
        pa_stream_set_started_callback(stream, { _, player in
            Unmanaged<Playback>.fromOpaque(player!).takeUnretainedValue().playing = true
        }, Unmanaged.passUnretained(self).toOpaque())
        // The server's own policy may ask us to pause (request-cork) and to go on (request-uncork):
        // the same as a stream that interrupts, under the stream's own index.
        pa_stream_set_event_callback(stream, { stream, name, _, player in
            guard let name, let stream else { return }
            let playback = Unmanaged<Playback>.fromOpaque(player!).takeUnretainedValue()
            let me = pa_stream_get_index(stream)
            switch String(cString: name) {
            case "request-cork": playback.interrupting.insert(me)
            case "request-uncork": playback.interrupting.remove(me)
            default: return
            }
            playback.interruptionChanged = true
        }, Unmanaged.passUnretained(self).toOpaque())
        // Moved by the server when its sink goes (the move comes before or after the sink's
        // removal), or by the listener in a mixer.
        pa_stream_set_moved_callback(stream, { stream, player in
            guard let stream else { return }
            let playback = Unmanaged<Playback>.fromOpaque(player!).takeUnretainedValue()
            playback.formerDevice = playback.device
            playback.followDevice(of: stream)
        }, Unmanaged.passUnretained(self).toOpaque())
        pa_stream_set_write_callback(stream, { _, _, player in
            Unmanaged<Playback>.fromOpaque(player!).takeUnretainedValue().topUp()
        }, Unmanaged.passUnretained(self).toOpaque())
        let bytes = UInt32(rate * frameBytes * Playback.bufferMilliseconds / 1000)
        var buffer = pa_buffer_attr(maxlength: UInt32.max, tlength: bytes, prebuf: UInt32.max, minreq: UInt32.max, fragsize: UInt32.max)
        var flags = PA_STREAM_INTERPOLATE_TIMING.rawValue | PA_STREAM_AUTO_TIMING_UPDATE.rawValue | PA_STREAM_ADJUST_LATENCY.rawValue
        if corked { flags |= PA_STREAM_START_CORKED.rawValue }
        guard pa_stream_connect_playback(stream, nil, &buffer, pa_stream_flags_t(rawValue: flags), nil, nil) >= 0 else {
            throw .unavailable("cannot play on the sound server: " + String(cString: pa_strerror(pa_context_errno(context))))
        }
        while true {
            let state = pa_stream_get_state(stream)
            if state == PA_STREAM_READY { break }
            if state == PA_STREAM_FAILED || state == PA_STREAM_TERMINATED {
                throw .unavailable("the sound server refused the stream: " + String(cString: pa_strerror(pa_context_errno(context))))
            }
            waitBriefly()
        }
        topUp()
        followDevice(of: stream)
    }

    /// Writes as much as the server asks for and the rendition has (with the lock held).
    func topUp() {
        guard let stream, !allWritten else { return }
        // What the server asks for, or enough to keep the buffer's worth ahead of what is heard,
        // whichever is more: a stream that has not started asks for less than it needs to start.
        let requested = pa_stream_writable_size(stream)
        let ahead = rate * Playback.bufferMilliseconds / 1000 - (streamWritten - heardInStream())
        var room = max(requested == Int.max || requested == -1 ? 0 : requested, ahead * frameBytes)
        guard room > 0 else { return }
        while room >= frameBytes {
            guard writeVerse < rendition.texts.count else {
                allWritten = true
                break
            }
            guard let chunk = rendition.samples(writeVerse) else {
                rendition.want(writeVerse)
                return
            }
            if starts.last?.verse != writeVerse { starts.append((streamWritten, writeVerse, writeOffset)) }
            let frames = chunk.count / channels
            let count = min(room / frameBytes, frames - writeOffset)
            if count > 0 {
                chunk.withUnsafeBufferPointer { samples in
                    _ = pa_stream_write(stream, samples.baseAddress! + writeOffset * channels, count * frameBytes, nil, 0, PA_SEEK_RELATIVE)
                }
                streamWritten += count
                writeOffset += count
                room -= count * frameBytes
            }
            // A recording cut short: nothing after the cut (its verses are not in the file).
            if rendition.failure != nil {
                allWritten = true
                break
            }
            if writeOffset >= frames {
                writeVerse += 1
                writeOffset = 0
                if writeVerse < rendition.texts.count { rendition.want(writeVerse) }
            }
        }
        if allWritten && !drainRequested {
            drainRequested = true
            // The server says when the last sample has been played: its clock may stop a block short.
            let drained: pa_stream_success_cb_t = { _, _, player in
                Unmanaged<Playback>.fromOpaque(player!).takeUnretainedValue().drained = true
            }
            if let operation = pa_stream_drain(stream, drained, Unmanaged.passUnretained(self).toOpaque()) { pa_operation_unref(operation) }
        }
    }

    /// Samples of the current stream heard so far, by the server's clock.
    private func heardInStream() -> Int {
        guard let stream else { return 0 }
        var microseconds: pa_usec_t = 0
        guard pa_stream_get_time(stream, &microseconds) >= 0 else { return 0 }
        // The started callback does not come for every stream (one opened by a seek may never
        // hear it): the server's timing report says the same, a few milliseconds later. Not a
        // clock that moved: before the stream plays, it runs on the interpolation alone.
        if !playing, let timing = pa_stream_get_timing_info(stream), timing.pointee.playing != 0 { playing = true }
        guard playing else { return 0 }
        return min(Int(microseconds) * rate / 1_000_000, streamWritten)
    }

    /// Where the listener is: the verse and the offset in it, and the listening clock in samples.
    private func position() -> (verse: Int, offset: Int, clock: Int) {
        let heard = heardInStream()
        guard let start = starts.last(where: { $0.sample <= heard }) else { return (writeVerse, writeOffset, heardBefore + heard) }
        return (start.verse, start.offset + heard - start.sample, heardBefore + heard)
    }

    private func seconds(_ samples: Int) -> Double { Double(samples) / Double(rate) }

    /// The listening clock: seconds heard since playback began.
    func listeningClock() -> Double { seconds(position().clock) }

    /// Why playback cannot go on: the sound server went away (stopped, crashed, the session
    /// ended) or dropped the stream. Nil while all is well (with the lock held).
    func failure() -> PlayError? {
        if let pendingFailure { return pendingFailure }
        let state = pa_context_get_state(context)
        if state == PA_CONTEXT_FAILED || state == PA_CONTEXT_TERMINATED {
            return .unavailable("the sound server went away: " + String(cString: pa_strerror(pa_context_errno(context))))
        }
        if let stream, pa_stream_get_state(stream) == PA_STREAM_FAILED || pa_stream_get_state(stream) == PA_STREAM_TERMINATED {
            return .unavailable("the sound server dropped the stream: " + String(cString: pa_strerror(pa_context_errno(context))))
        }
        return nil
    }

    /// The events since the last call: verses that became audible, and the end (with the lock held).
    func events() -> [PlayerEvent] {
        var events: [PlayerEvent] = []
        if let event = followInterruptions() { events.append(event) }
        releaseIfPausedLong()
        let heard = heardInStream()
        // A verse is heard once the server plays it: not when it is written, nor before the
        // stream has started (its first sample, at 0, would otherwise be "heard" at once).
        while playing && nextStart < starts.count && starts[nextStart].sample <= heard {
            events.append(.verse(index: starts[nextStart].verse, t: seconds(heardBefore + starts[nextStart].sample)))
            nextStart += 1
        }
        if allWritten && (heard >= streamWritten || drained) {
            // A recording cut short plays to the cut, then stops with why.
            if let failure = rendition.failure { pendingFailure = failure } else { ended = true }
        }
        if ended && !endReported {
            endReported = true
            events.append(.ended(t: seconds(heardBefore + heard)))
        }
        return events
    }

    // MARK: - Commands (with the lock held)

    /// Pauses or resumes; `reason` says why the player paused by itself.
    func setPaused(_ pause: Bool, reason: PauseReason? = nil) throws(PlayError) -> PlayerEvent? {
        pausedForInterruption = false
        guard pause != paused, !ended else { return nil }
        paused = pause
        pausedSince = pause ? Clock.monotonicMilliseconds() : nil
        if let stream {
            if let operation = pa_stream_cork(stream, pause ? 1 : 0, nil, nil) { pa_operation_unref(operation) }
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
        try play(from: min(max(0, verse), rendition.texts.count - 1), offset: 0)
    }

    /// Plays from `seconds` after (or before) what is heard.
    func seek(by seconds: Double) throws(PlayError) {
        let now = position()
        var verse = now.verse
        var offset = now.offset + Int(seconds * Double(rate))
        while offset < 0 && verse > 0 {
            verse -= 1
            offset += rendition.waitForSamples(verse).count / channels
        }
        offset = max(0, offset)
        while verse < rendition.texts.count && offset >= rendition.waitForSamples(verse).count / channels {
            offset -= rendition.waitForSamples(verse).count / channels
            verse += 1
        }
        try play(from: verse, offset: verse < rendition.texts.count ? offset : 0)
    }

    // MARK: - The passage's clock (the media controls')

    /// Frames from the start of the passage to `verse`, nil while a verse's length is unknown.
    private func framesBefore(_ verse: Int) -> Int? {
        var frames = 0
        for index in 0..<verse {
            guard let count = rendition.frameCount(index) else { return nil }
            frames += count
        }
        return frames
    }

    /// The verse being heard, and the seconds from the passage's start to what is heard (nil
    /// while the length of a verse before it is not known yet).
    func passagePosition() -> (verse: Int, seconds: Double?) {
        let now = ended ? (verse: rendition.texts.count, offset: 0, clock: 0) : position()
        return (min(now.verse, rendition.texts.count - 1), framesBefore(now.verse).map { seconds($0 + now.offset) })
    }

    /// The verse being heard (the last, at the end).
    func verseHeard() -> Int { ended ? rendition.texts.count - 1 : position().verse }

    /// The passage's length in seconds, once every verse's is known.
    func passageLength() -> Double? {
        if knownLength == nil { knownLength = framesBefore(rendition.texts.count).map(seconds) }
        return knownLength
    }
    private var knownLength: Double?

    /// Plays from `seconds` after the passage's start. False, doing nothing, past the end or
    /// where the lengths are not known yet.
    func setPosition(_ seconds: Double) throws(PlayError) -> Bool {
        var frames = Int(seconds * Double(rate))
        for verse in rendition.texts.indices {
            guard let count = rendition.frameCount(verse) else { return false }
            if frames < count {
                try play(from: verse, offset: frames)
                return true
            }
            frames -= count
        }
        return false
    }

    /// Closes the stream of a pause that has lasted, keeping the place (with the lock held).
    private func releaseIfPausedLong() {
        guard paused, stream != nil, let since = pausedSince, Clock.monotonicMilliseconds() - since >= releaseAfterMilliseconds else { return }
        let now = position()
        closeStream()
        (writeVerse, writeOffset) = (now.verse, now.offset)
        starts = []
        nextStart = 0
    }

    /// Ends the current stream, counting what was heard of it.
    private func closeStream() {
        heardBefore += heardInStream()
        guard let stream else { return }
        pa_stream_set_write_callback(stream, nil, nil)
        pa_stream_set_started_callback(stream, nil, nil)
        pa_stream_set_event_callback(stream, nil, nil)
        pa_stream_set_moved_callback(stream, nil, nil)
        pa_stream_disconnect(stream)
        device = Playback.noDevice
        pa_stream_unref(stream)
        self.stream = nil
    }

    /// Replaces the stream with one playing from `verse` (past the last: the end), paused if paused.
    private func play(from verse: Int, offset: Int) throws(PlayError) {
        guard !ended else { return }
        closeStream()
        writeVerse = verse
        writeOffset = offset
        if verse >= rendition.texts.count {
            ended = true
            return
        }
        rendition.want(verse)
        try openStream(corked: paused)
    }
}
