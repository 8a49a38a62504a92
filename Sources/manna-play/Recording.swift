// A recorded reading as the player's source: each verse's audio is the stretch of the file
// from its cue's start to the next cue's start (the last to its own end), read with libsndfile
// when playback reaches it, so a seek to a verse starts at its cue's frame.
import CSndfile
#if canImport(Glibc)
import Glibc
#endif
import MannaKit

final class Recording: AudioSource, @unchecked Sendable {
    let texts: [String]
    let sampleRate: Int
    let channels: Int
    private let file: OpaquePointer
    /// Each verse's frames in the file.
    private let spans: [Range<Int>]
    private var mutex = pthread_mutex_t()
    /// The verses read last: playback asks for the one it writes every few milliseconds.
    private var cache: [(index: Int, samples: [Int16])] = []
    private let path: String
    private(set) var failure: PlayError?

    /// Opens the recording at `path`, refusing one whose length is not `duration` (its cue
    /// sheet's, when given): cues for other audio would highlight the wrong verses.
    init(path: String, verses: [ListenRequest.Verse], duration: Double?) throws(PlayError) {
        var info = SF_INFO()
        let file = try Export.openForDecoding(path, &info)
        guard info.samplerate > 0, info.channels > 0 else {
            sf_close(file)
            throw .badAudio("cannot decode \(path): no sample rate or channels")
        }
        self.file = file
        self.path = path
        sampleRate = Int(info.samplerate)
        channels = Int(info.channels)
        texts = verses.map(\.text)
        let frames = Int(info.frames)
        let length = Double(frames) / Double(sampleRate)
        if let duration, abs(length - duration) > CueSheet.durationTolerance {
            sf_close(file)
            throw .badAudio("\(path) is \(CueSheet.time(length)) long, and its cue sheet is for \(CueSheet.time(duration)) of audio: "
                + "the cues are for other audio, or the file was cut short ('manna cues check' says more)")
        }
        var spans: [Range<Int>] = []
        for (index, verse) in verses.enumerated() {
            guard let start = verse.start, let end = verse.end else { throw .usage("verse \(verse.id) has no cue") }
            let first = min(frames, Int((start * Double(sampleRate)).rounded()))
            let next = index + 1 < verses.count ? verses[index + 1].start ?? end : end
            let last = min(frames, max(first, Int((next * Double(sampleRate)).rounded())))
            spans.append(first..<last)
        }
        self.spans = spans
        pthread_mutex_init(&mutex, nil)
    }

    deinit { sf_close(file) }

    func frameCount(_ index: Int) -> Int? { spans[index].count }

    /// A recording is heard at the speed it was read.
    func setSpeed(_ wordsPerMinute: Int) -> Bool { false }

    func samples(_ index: Int) -> [Int16]? { read(index) }

    func waitForSamples(_ index: Int) -> [Int16] { read(index) }

    func want(_ index: Int) {}

    /// Reads verse `index`'s frames (a few seconds: reading them is far quicker than playing).
    private func read(_ index: Int) -> [Int16] {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        if let cached = cache.first(where: { $0.index == index }) { return cached.samples }
        let span = spans[index]
        var samples = [Int16](repeating: 0, count: span.count * channels)
        guard !span.isEmpty else { return [] }
        let read = sf_seek(file, sf_count_t(span.lowerBound), SEEK_SET) < 0 ? 0
            : samples.withUnsafeMutableBufferPointer { Int(sf_readf_short(file, $0.baseAddress, sf_count_t(span.count))) }
        // Fewer frames than the header promised: the file ends early (a download cut short).
        if read < span.count && failure == nil {
            let at = (Double(span.lowerBound + max(0, read)) / Double(sampleRate) * 100).rounded() / 100
            failure = .badAudio("\(path) cannot be decoded past \(CueSheet.time(at)): the file is cut short or damaged")
        }
        samples.removeSubrange((max(0, read) * channels)...)
        cache = Array((cache + [(index, samples)]).suffix(3))
        return samples
    }
}
