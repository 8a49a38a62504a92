// An audio file as an audio output, with libsndfile: what the pipeline writes is "heard" as
// soon as it is written, so the verses' starts it counts are exact sample counts, and `manna`
// writes the cue sheet from them. Opus takes only 8, 12, 16, 24 or 48 kHz, so its audio is
// resampled to 24 kHz (libsoxr, high quality); the clock stays in the pipeline's own rate.
import CSndfile
import CSoxr
#if canImport(Glibc)
import Glibc
#endif

final class FileOutput: AudioOutput {
    /// The file types `--export` writes, by the name's extension.
    enum Format: String, CaseIterable {
        case wav, flac, ogg, opus

        var sndfileFormat: Int32 {
            switch self {
            case .wav: Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16)
            case .flac: Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_16)
            case .ogg: Int32(SF_FORMAT_OGG | SF_FORMAT_VORBIS)
            case .opus: Int32(SF_FORMAT_OGG | SF_FORMAT_OPUS)
            }
        }

        /// The rate the file is written at, for audio at `rate`.
        func fileRate(for rate: Int) -> Int { self == .opus ? 24000 : rate }
    }

    private let path: String
    private let rate: Int
    private let channels: Int
    /// The file's own rate: the pipeline's, unless the format takes no such rate.
    let fileRate: Int
    private var file: OpaquePointer?
    private var resampler: soxr_t?
    /// Frames given by the pipeline: its clock.
    private var written = 0
    /// Frames in the file, at its own rate.
    private(set) var frames = 0
    private(set) var drained = false
    private var writeFailure: PlayError?

    /// Creates `path` as `format`, for frames of `channels` 16-bit samples at `sampleRate`.
    init(path: String, format: Format, sampleRate: Int, channels: Int) throws(PlayError) {
        self.path = path
        rate = sampleRate
        self.channels = channels
        fileRate = format.fileRate(for: sampleRate)
        var info = SF_INFO(frames: 0, samplerate: Int32(fileRate), channels: Int32(channels), format: format.sndfileFormat, sections: 0, seekable: 0)
        guard let file = sf_open(path, Int32(SFM_WRITE), &info) else {
            throw .io("cannot write \(path): " + String(cString: sf_strerror(nil)))
        }
        self.file = file
        if fileRate != sampleRate {
            var io = soxr_io_spec(SOXR_INT16_I, SOXR_INT16_I)
            var quality = soxr_quality_spec(UInt(SOXR_HQ), 0)
            resampler = soxr_create(Double(sampleRate), Double(fileRate), UInt32(channels), nil, &io, &quality, nil)
        }
    }

    deinit {
        if let file { sf_close(file) }
        if let resampler { soxr_delete(resampler) }
    }

    // A file has no thread of its own: nothing to hold off.
    func lock() {}
    func unlock() {}

    /// A file is one stream, from the first frame written to the last: it takes all it is given.
    func open(corked: Bool, refill: @escaping () -> Void) throws(PlayError) { refill() }
    func close() {}
    func writableFrames() -> Int { file == nil || writeFailure != nil ? 0 : Int.max }
    func framesHeard() -> Int? { written }
    func setCorked(_ corked: Bool) {}
    func takeChanges() -> DeviceChanges { DeviceChanges() }
    func failure() -> PlayError? { writeFailure }

    func write(_ samples: UnsafeBufferPointer<Int16>) {
        written += samples.count / channels
        put(samples)
    }

    /// Flushes what the resampler holds (its filter's delay) and closes the file.
    func drain() {
        guard let file else { return }
        if resampler != nil {
            var before = -1
            while frames != before && writeFailure == nil {
                before = frames
                put(nil)
            }
        }
        self.file = nil
        if sf_close(file) != 0 && writeFailure == nil {
            writeFailure = .io("cannot finish \(path): " + String(cString: sf_strerror(nil)))
        }
        drained = writeFailure == nil
    }

    /// Writes `samples`; through the resampler, if any, where nil flushes what it holds.
    private func put(_ samples: UnsafeBufferPointer<Int16>?) {
        guard let file, writeFailure == nil else { return }
        var output = samples.map(Array.init) ?? []
        if let resampler {
            let inputFrames = (samples?.count ?? 0) / channels
            output = [Int16](repeating: 0, count: (inputFrames * fileRate / rate + 4096) * channels)
            var made = 0
            output.withUnsafeMutableBufferPointer { out in
                _ = soxr_process(resampler, samples?.baseAddress, inputFrames, nil, out.baseAddress, out.count / channels, &made)
            }
            output.removeSubrange((made * channels)...)
        }
        guard !output.isEmpty else { return }
        let count = output.count / channels
        guard sf_writef_short(file, output, sf_count_t(count)) == count else {
            writeFailure = .io("cannot write \(path): " + String(cString: sf_strerror(file)))
            return
        }
        frames += count
    }
}
