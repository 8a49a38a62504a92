// The sound server as an audio output, with libpulse (PulseAudio, or PipeWire's pulse layer):
// an asynchronous stream with a small buffer, corked to pause, and the server's playback clock
// (`pa_stream_get_time`) telling what is heard. Its callbacks run on libpulse's own thread
// (the threaded main loop), holding its lock; each wakes the player's loop, which sleeps until
// then. It watches for what pauses playback: a call, the server's cork requests, the device
// going away.
import CPulse
#if canImport(Glibc)
import Glibc
#endif
import MannaKit

final class PulseOutput: AudioOutput, @unchecked Sendable {
    private let rate: Int
    private let channels: Int
    /// Bytes of one frame: a 16-bit sample for each channel.
    private var frameBytes: Int { 2 * channels }
    /// Wakes the player's loop: something it should look at happened on libpulse's thread.
    private let wake: () -> Void
    private let mainloop: OpaquePointer
    private let context: OpaquePointer
    private var stream: OpaquePointer?
    private var refill: (() -> Void)?

    /// The server has begun playing the current stream: before that, nothing is heard.
    private var playing = false
    /// Frames written to the current stream.
    private var written = 0
    private var drainRequested = false
    private(set) var drained = false
    /// The other streams that interrupt: sink inputs with media.role phone or communication.
    private var interrupting: Set<UInt32> = []
    /// Interruptions began or ended since the pipeline last looked.
    private var interruptionChanged = false
    /// PA_INVALID_INDEX, which Swift imports as a macro it cannot use.
    private static let noDevice = UInt32.max
    /// The sink the stream plays on, and its active port (headphones, speakers) once looked up.
    private var device = PulseOutput.noDevice
    private var port: String??
    /// The sink the server last moved the stream from: its removal moved the stream.
    private var formerDevice = PulseOutput.noDevice
    /// The sink went away or its port changed since the pipeline last looked.
    private var deviceLost = false

    /// The second given the server to answer has passed.
    private var connectTimedOut = false

    /// How much the server buffers ahead of what is heard: small, so pause and seek are prompt.
    private static let bufferMilliseconds = 60
    /// How long connecting to the server may take.
    private static let connectMicroseconds: pa_usec_t = 1_000_000

    /// Connects to the sound server, within a second, to play frames of `channels` 16-bit
    /// samples at `sampleRate`.
    init(sampleRate: Int, channels: Int, wake: @escaping () -> Void) throws(PlayError) {
        rate = sampleRate
        self.channels = channels
        self.wake = wake
        guard let mainloop = pa_threaded_mainloop_new() else { throw .unavailable("cannot start PulseAudio's main loop") }
        self.mainloop = mainloop
        let properties = PulseOutput.properties()
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
        // Every change of the context's state (ready, failed, the server gone) wakes whoever waits for it.
        pa_context_set_state_callback(context, { _, output in
            Unmanaged<PulseOutput>.fromOpaque(output!).takeUnretainedValue().signal()
        }, me)
        guard pa_context_connect(context, nil, PA_CONTEXT_NOAUTOSPAWN, nil) >= 0 else {
            throw noServer(String(cString: pa_strerror(pa_context_errno(context))))
        }
        pa_threaded_mainloop_start(mainloop)
        lock()
        defer { unlock() }
        // A server that does not answer: a timer on libpulse's own clock ends the wait.
        let timer = pa_context_rttime_new(context, pa_rtclock_now() + PulseOutput.connectMicroseconds, { _, _, _, output in
            let output = Unmanaged<PulseOutput>.fromOpaque(output!).takeUnretainedValue()
            output.connectTimedOut = true
            output.signal()
        }, me)
        defer { if let timer { pa_threaded_mainloop_get_api(mainloop).pointee.time_free(timer) } }
        while true {
            let state = pa_context_get_state(context)
            if state == PA_CONTEXT_READY { break }
            var reason: String?
            if state == PA_CONTEXT_FAILED || state == PA_CONTEXT_TERMINATED { reason = String(cString: pa_strerror(pa_context_errno(context))) }
            if connectTimedOut { reason = "it did not answer within a second" }
            if let reason {
                // libpulse's thread goes on after this object is gone: it must not call back into it.
                pa_context_set_state_callback(context, nil, nil)
                throw noServer(reason)
            }
            pa_threaded_mainloop_wait(mainloop)
        }
        watchForInterruptions()
    }

    private var me: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// Wakes both the thread waiting in `pa_threaded_mainloop_wait` and the player's loop.
    private func signal() {
        pa_threaded_mainloop_signal(mainloop, 0)
        wake()
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

    // MARK: - Interruptions

    /// Watches the server's other streams: one with media.role phone or communication
    /// interrupts while it plays (Debian 12's PipeWire layer has no module-role-cork, so a
    /// player must do this itself).
    private func watchForInterruptions() {
        pa_context_set_subscribe_callback(context, { context, event, index, output in
            let output = Unmanaged<PulseOutput>.fromOpaque(output!).takeUnretainedValue()
            let type = event.rawValue & PA_SUBSCRIPTION_EVENT_TYPE_MASK.rawValue
            if event.rawValue & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue == PA_SUBSCRIPTION_EVENT_SINK.rawValue {
                return output.sinkChanged(index, removed: type == PA_SUBSCRIPTION_EVENT_REMOVE.rawValue)
            }
            if type == PA_SUBSCRIPTION_EVENT_REMOVE.rawValue {
                if output.interrupting.remove(index) != nil { output.interruptionDidChange() }
                return
            }
            // New or changed: its role decides (looked up; the answer comes in a callback).
            if let operation = pa_context_get_sink_input_info(context, index, { _, info, eol, output in
                guard eol == 0, let info else { return }
                let output = Unmanaged<PulseOutput>.fromOpaque(output!).takeUnretainedValue()
                let role = pa_proplist_gets(info.pointee.proplist, "media.role").map { String(cString: $0) }
                let interrupts = role == "phone" || role == "communication"
                let known = output.interrupting.contains(info.pointee.index)
                if interrupts && !known { output.interrupting.insert(info.pointee.index) } else if !interrupts && known { output.interrupting.remove(info.pointee.index) } else { return }
                output.interruptionDidChange()
            }, output.me) { pa_operation_unref(operation) }
        }, me)
        let mask = PA_SUBSCRIPTION_MASK_SINK_INPUT.rawValue | PA_SUBSCRIPTION_MASK_SINK.rawValue
        if let operation = pa_context_subscribe(context, pa_subscription_mask_t(rawValue: mask), nil, nil) { pa_operation_unref(operation) }
    }

    private func interruptionDidChange() {
        interruptionChanged = true
        wake()
    }

    private func lose() {
        deviceLost = true
        wake()
    }

    /// A sink was removed or changed: the stream's sink gone (the server moves the stream
    /// elsewhere: a Bluetooth headset switched off) or its active port changed (headphones
    /// unplugged from a sound card) loses the device.
    private func sinkChanged(_ index: UInt32, removed: Bool) {
        if removed {
            if index == device || index == formerDevice { lose() }
        } else if index == device {
            lookUpPort()
        }
    }

    /// Asks for the active port of the stream's sink; a change from the one known loses the device.
    private func lookUpPort() {
        guard device != PulseOutput.noDevice else { return }
        let found: pa_sink_info_cb_t = { _, info, eol, output in
            guard eol == 0, let info else { return }
            let output = Unmanaged<PulseOutput>.fromOpaque(output!).takeUnretainedValue()
            guard info.pointee.index == output.device else { return }
            let port = info.pointee.active_port.map { String(cString: $0.pointee.name) }
            if let known = output.port, known != port { output.lose() }
            output.port = .some(port)
        }
        if let operation = pa_context_get_sink_info_by_index(context, device, found, me) { pa_operation_unref(operation) }
    }

    /// Where the stream plays now (a new stream, or moved by the server or the user).
    private func followDevice(of stream: OpaquePointer) {
        device = pa_stream_get_device_index(stream)
        port = nil
        lookUpPort()
    }

    func takeChanges() -> DeviceChanges {
        defer { (interruptionChanged, deviceLost) = (false, false) }
        return DeviceChanges(interrupted: interruptionChanged ? !interrupting.isEmpty : nil, lost: deviceLost)
    }

    // MARK: - The stream

    func open(corked: Bool, refill: @escaping () -> Void) throws(PlayError) {
        var spec = pa_sample_spec(format: PA_SAMPLE_S16LE, rate: UInt32(rate), channels: UInt8(channels))
        let properties = PulseOutput.properties()
        defer { pa_proplist_free(properties) }
        guard let stream = pa_stream_new_with_proplist(context, "Reading aloud", &spec, nil, properties) else {
            throw .unavailable("cannot make a PulseAudio stream: " + String(cString: pa_strerror(pa_context_errno(context))))
        }
        self.stream = stream
        self.refill = refill
        // Reset before connecting: the server may ask for samples while the stream connects.
        written = 0
        drainRequested = false
        drained = false
        playing = false
        pa_stream_set_state_callback(stream, { _, output in
            Unmanaged<PulseOutput>.fromOpaque(output!).takeUnretainedValue().signal()
        }, me)
        pa_stream_set_started_callback(stream, { _, output in
            let output = Unmanaged<PulseOutput>.fromOpaque(output!).takeUnretainedValue()
            output.playing = true
            output.wake()
        }, me)
        // The started callback does not come for every stream (one opened by a seek may never
        // hear it): the server's timing reports say the same, so each one wakes the loop too.
        pa_stream_set_latency_update_callback(stream, { _, output in
            Unmanaged<PulseOutput>.fromOpaque(output!).takeUnretainedValue().wake()
        }, me)
        // The server's own policy may ask us to pause (request-cork) and to go on (request-uncork):
        // the same as a stream that interrupts, under the stream's own index.
        pa_stream_set_event_callback(stream, { stream, name, _, output in
            guard let name, let stream else { return }
            let output = Unmanaged<PulseOutput>.fromOpaque(output!).takeUnretainedValue()
            let me = pa_stream_get_index(stream)
            switch String(cString: name) {
            case "request-cork": output.interrupting.insert(me)
            case "request-uncork": output.interrupting.remove(me)
            default: return
            }
            output.interruptionDidChange()
        }, me)
        // Moved by the server when its sink goes (the move comes before or after the sink's
        // removal), or by the listener in a mixer.
        pa_stream_set_moved_callback(stream, { stream, output in
            guard let stream else { return }
            let output = Unmanaged<PulseOutput>.fromOpaque(output!).takeUnretainedValue()
            output.formerDevice = output.device
            output.followDevice(of: stream)
        }, me)
        pa_stream_set_write_callback(stream, { _, _, output in
            Unmanaged<PulseOutput>.fromOpaque(output!).takeUnretainedValue().refill?()
        }, me)
        let bytes = UInt32(rate * frameBytes * PulseOutput.bufferMilliseconds / 1000)
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
            pa_threaded_mainloop_wait(mainloop)
        }
        refill()
        followDevice(of: stream)
    }

    func close() {
        guard let stream else { return }
        pa_stream_set_state_callback(stream, nil, nil)
        pa_stream_set_write_callback(stream, nil, nil)
        pa_stream_set_started_callback(stream, nil, nil)
        pa_stream_set_latency_update_callback(stream, nil, nil)
        pa_stream_set_event_callback(stream, nil, nil)
        pa_stream_set_moved_callback(stream, nil, nil)
        pa_stream_disconnect(stream)
        device = PulseOutput.noDevice
        pa_stream_unref(stream)
        self.stream = nil
        refill = nil
    }

    func writableFrames() -> Int {
        guard let stream else { return 0 }
        // What the server asks for, or enough to keep the buffer's worth ahead of what is heard,
        // whichever is more: a stream that has not started asks for less than it needs to start.
        let requested = pa_stream_writable_size(stream)
        let ahead = rate * PulseOutput.bufferMilliseconds / 1000 - (written - (framesHeard() ?? 0))
        return max((requested == Int.max || requested == -1 ? 0 : requested) / frameBytes, ahead)
    }

    func write(_ samples: UnsafeBufferPointer<Int16>) {
        guard let stream, let start = samples.baseAddress else { return }
        _ = pa_stream_write(stream, start, samples.count * 2, nil, 0, PA_SEEK_RELATIVE)
        written += samples.count / channels
    }

    func framesHeard() -> Int? {
        guard let stream else { return nil }
        var microseconds: pa_usec_t = 0
        // Not a clock that moved: before the stream plays, it runs on the interpolation alone.
        if !playing, let timing = pa_stream_get_timing_info(stream), timing.pointee.playing != 0 { playing = true }
        guard playing else { return nil }
        guard pa_stream_get_time(stream, &microseconds) >= 0 else { return 0 }
        return min(Int(microseconds) * rate / 1_000_000, written)
    }

    func drain() {
        guard let stream, !drainRequested else { return }
        drainRequested = true
        // The server says when the last sample has been played: its clock may stop a block short.
        let drained: pa_stream_success_cb_t = { _, _, output in
            let output = Unmanaged<PulseOutput>.fromOpaque(output!).takeUnretainedValue()
            output.drained = true
            output.wake()
        }
        if let operation = pa_stream_drain(stream, drained, me) { pa_operation_unref(operation) }
    }

    func setCorked(_ corked: Bool) {
        guard let stream else { return }
        if let operation = pa_stream_cork(stream, corked ? 1 : 0, nil, nil) { pa_operation_unref(operation) }
    }

    /// The sound server went away (stopped, crashed, the session ended) or dropped the stream.
    func failure() -> PlayError? {
        let state = pa_context_get_state(context)
        if state == PA_CONTEXT_FAILED || state == PA_CONTEXT_TERMINATED {
            return .unavailable("the sound server went away: " + String(cString: pa_strerror(pa_context_errno(context))))
        }
        if let stream, pa_stream_get_state(stream) == PA_STREAM_FAILED || pa_stream_get_state(stream) == PA_STREAM_TERMINATED {
            return .unavailable("the sound server dropped the stream: " + String(cString: pa_strerror(pa_context_errno(context))))
        }
        return nil
    }
}
