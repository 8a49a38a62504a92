// Where the passage's frames go: a sound server that plays them (PulseOutput) or a file they
// are written to (FileOutput). The Pipeline drives either the same way, so playing and
// exporting are one pipeline (as mpv's audio outputs are a table of drivers behind one
// interface, a file writer among them); a PipeWire output would be one more file.

/// An audio output: streams of interleaved 16-bit frames, each with a clock of its own.
protocol AudioOutput: AnyObject {
    /// Holds off the output's own thread (a sound server's callbacks) while the pipeline reads
    /// or changes what both share. Everything below is called with it held.
    func lock()
    func unlock()

    /// Starts a stream whose clock counts from its first frame; `corked`, it starts paused.
    /// `refill` is called, on the output's own thread with the lock held, when it takes more.
    func open(corked: Bool, refill: @escaping () -> Void) throws(PlayError)

    /// Ends the stream, dropping what it has not played.
    func close()

    /// How many frames the stream takes now without waiting, as it asks for them.
    func writableFrames() -> Int

    /// Queues `samples` (whole frames) on the stream.
    func write(_ samples: UnsafeBufferPointer<Int16>)

    /// Frames of this stream heard so far, by the output's clock (a file: those written);
    /// nil before the stream has begun playing (no stream, or its first frame not yet heard).
    func framesHeard() -> Int?

    /// Nothing more will be written: play out what is queued; `drained` then turns true.
    func drain()
    var drained: Bool { get }

    /// Pauses or resumes the stream.
    func setCorked(_ corked: Bool)

    /// Why the output cannot go on (the sound server went away, the disk is full), or nil.
    func failure() -> PlayError?

    /// What happened to the device since the last call, for the pipeline to act on.
    func takeChanges() -> DeviceChanges
}

/// Changes on the device that pause or resume playback.
struct DeviceChanges: Equatable {
    /// Another stream that interrupts (a call) began or ended: whether one plays now.
    var interrupted: Bool?
    /// The device went away (unplugged, switched off): playback waits for the listener.
    var lost = false
}
