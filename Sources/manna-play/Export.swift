// Renders the whole passage to an audio file with libsndfile, counting where each verse starts
// and ends: the cue sheet `manna` writes beside it (MannaKit's CueSheet) comes from these counts.
// Opus takes only 8, 12, 16, 24 or 48 kHz, so its speech is resampled to 24 kHz (libsoxr,
// high quality); cue times are kept in seconds at the speech's own rate, exact either way.
import CSndfile
import CSoxr
#if canImport(Glibc)
import Glibc
#endif
import MannaKit

enum Export {
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

        /// The rate the file is written at, for speech at `rate`.
        func fileRate(speechRate rate: Int) -> Int { self == .opus ? 24000 : rate }
    }

    /// Writes every verse of `request` from its start, spoken by `engine` at `speechRate`, to
    /// `path` and returns the counts as JSON:
    /// `{"sample_rate", "frames", "verses": [{"index", "start", "end"}]}`, starts and ends in
    /// samples at the speech's rate (`sample_rate`); `frames` is the file's length in its own rate.
    static func write(_ request: ListenRequest, format: Format, to path: String, engine: any SpeechEngine, speechRate: Int) throws(PlayError) -> JSON {
        let fileRate = format.fileRate(speechRate: speechRate)
        var info = SF_INFO(frames: 0, samplerate: Int32(fileRate), channels: 1, format: format.sndfileFormat, sections: 0, seekable: 0)
        guard let file = sf_open(path, Int32(SFM_WRITE), &info) else {
            throw .io("cannot write \(path): " + String(cString: sf_strerror(nil)))
        }
        var closed = false
        defer { if !closed { sf_close(file) } }
        var resampler: soxr_t?
        if fileRate != speechRate {
            var io = soxr_io_spec(SOXR_INT16_I, SOXR_INT16_I)
            var quality = soxr_quality_spec(UInt(SOXR_HQ), 0)
            resampler = soxr_create(Double(speechRate), Double(fileRate), 1, nil, &io, &quality, nil)
        }
        defer { if let resampler { soxr_delete(resampler) } }

        var frames = 0
        /// Writes `samples`; through the resampler, if any, where nil flushes what it holds.
        func put(_ samples: [Int16]?) throws(PlayError) {
            var output = samples ?? []
            if let resampler {
                output = [Int16](repeating: 0, count: (samples?.count ?? 0) * fileRate / speechRate + 4096)
                var made = 0
                output.withUnsafeMutableBufferPointer { out in
                    if let samples {
                        samples.withUnsafeBufferPointer { input in
                            _ = soxr_process(resampler, input.baseAddress, input.count, nil, out.baseAddress, out.count, &made)
                        }
                    } else {
                        _ = soxr_process(resampler, nil, 0, nil, out.baseAddress, out.count, &made)
                    }
                }
                output.removeSubrange(made...)
            }
            guard !output.isEmpty else { return }
            guard sf_write_short(file, output, sf_count_t(output.count)) == output.count else {
                throw .io("cannot write \(path): " + String(cString: sf_strerror(file)))
            }
            frames += output.count
        }

        var verses: [JSON] = []
        var position = 0
        for index in request.start..<request.verses.count {
            let samples = engine.synthesize(request.verses[index].text)
            verses.append(.object([("index", .int(index)), ("start", .int(position)), ("end", .int(position + samples.count))]))
            position += samples.count
            try put(samples)
        }
        // What the resampler still holds (its filter's delay): an empty input flushes it.
        if resampler != nil {
            var before = -1
            while frames != before {
                before = frames
                try put(nil)
            }
        }
        closed = true
        guard sf_close(file) == 0 else { throw .io("cannot finish \(path): " + String(cString: sf_strerror(nil))) }
        return .object([("sample_rate", .int(speechRate)), ("frames", .int(frames)), ("file_rate", .int(fileRate)), ("verses", .array(verses))])
    }

    /// The audio file at `path` opened for libsndfile by Manna's rule for readers
    /// (`Files.openForReading`: without blocking, a regular file), so a FIFO or a device is
    /// refused at once; libsndfile decodes the very descriptor that was checked.
    static func openForDecoding(_ path: String, _ info: inout SF_INFO) throws(PlayError) -> OpaquePointer {
        let opened: (descriptor: Int32, size: Int)?
        do { opened = try Files.openForReading(path) } catch { throw .badAudio(error.message) }
        guard let (descriptor, _) = opened else { throw .badAudio("\(path): no such file") }
        guard let file = sf_open_fd(descriptor, Int32(SFM_READ), &info, 1) else {
            close(descriptor)
            throw .badAudio("cannot decode \(path): " + String(cString: sf_strerror(nil)))
        }
        return file
    }

    /// The audio file at `path` decoded to its end: `{"sample_rate", "channels", "frames",
    /// "duration"}`. Every frame is read, so a file cut short or damaged midway is found out,
    /// not just one whose header is bad.
    static func info(_ path: String) throws(PlayError) -> JSON {
        var info = SF_INFO()
        let file = try openForDecoding(path, &info)
        defer { sf_close(file) }
        var buffer = [Int16](repeating: 0, count: 16384 * Int(max(info.channels, 1)))
        var frames = 0
        while true {
            let read = buffer.withUnsafeMutableBufferPointer { sf_readf_short(file, $0.baseAddress, 16384) }
            if read <= 0 { break }
            frames += Int(read)
        }
        if sf_error(file) != 0 { throw .badAudio("cannot decode \(path): " + String(cString: sf_strerror(file))) }
        guard info.samplerate > 0 else { throw .badAudio("cannot decode \(path): no sample rate") }
        return .object([("sample_rate", .int(Int(info.samplerate))), ("channels", .int(Int(info.channels))), ("frames", .int(frames)),
                        ("duration", .number(Double(frames) / Double(info.samplerate)))])
    }
}
