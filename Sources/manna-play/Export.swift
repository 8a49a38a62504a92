// Renders the whole passage to an audio file: the same pipeline as playing, with a file for
// its output (FileOutput), which counts where each verse starts and ends; the cue sheet
// `manna` writes beside it (MannaKit's CueSheet) comes from these counts. Also decodes audio
// files for `--info` and for Recording.
import CSndfile
#if canImport(Glibc)
import Glibc
#endif
import MannaKit

enum Export {
    /// Speaks every verse of `request` from its start into `path` and returns the counts as
    /// JSON: `{"engine", "voice", "sample_rate", "frames", "file_rate", "verses": [{"index", "start", "end"}]}`,
    /// starts and ends in samples at the speech's rate (`sample_rate`); `frames` is the file's
    /// length in its own rate (`file_rate`). The voice is looked for in `engines`, and `engine`
    /// and `voice` name the one that spoke and its voice (a natural voice, or espeak-ng's);
    /// `natural_voice_unavailable`, when given, why a natural voice could not read.
    static func write(_ request: ListenRequest, format: FileOutput.Format, to path: String,
                      engines: [any SpeechEngine.Type] = SpeechEngines.all) throws(PlayError) -> JSON {
        let (engine, rate, passedOver) = try SpeechEngines.start(voice: request.voice, naturalLanguage: request.naturalLanguage, fallback: request.fallbackVoice,
                                                                 wordsPerMinute: request.rate,
                                                     engines: engines)
        let loop = try EventLoop()
        let output = try FileOutput(path: path, format: format, sampleRate: rate, channels: 1)
        let rendition = Rendition(texts: request.verses.map(\.text), engine: engine, sampleRate: rate, startingAt: request.start,
                                  rendered: loop.wake)
        rendition.start()
        let pipeline = try Pipeline(source: rendition, output: output, startingAt: request.start, wake: loop.wake)
        var starts: [(index: Int, clock: Int)] = []
        while true {
            // The file takes all there is: what waits is the next verse's speech, and its
            // rendering wakes the loop.
            pipeline.lock()
            pipeline.topUp()
            starts += pipeline.versesHeard()
            let (failure, end) = (pipeline.failure(), pipeline.endHeard())
            pipeline.unlock()
            if let failure { throw failure }
            if let end {
                let ends = starts.dropFirst().map(\.clock) + [end]
                let verses = zip(starts, ends).map { start, end in
                    JSON.object([("index", .int(start.index)), ("start", .int(start.clock)), ("end", .int(end))])
                }
                var report: [(String, JSON)] = [("engine", .string(type(of: engine).name)), ("voice", .string(engine.chosen)), ("sample_rate", .int(rate)),
                                                ("frames", .int(output.frames)), ("file_rate", .int(output.fileRate)), ("verses", .array(verses))]
                if let passedOver { report.append(("natural_voice_unavailable", .string(passedOver.message))) }
                return .object(report)
            }
            loop.wait(reading: [], milliseconds: nil)
        }
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
