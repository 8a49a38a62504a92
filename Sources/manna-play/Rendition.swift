// The passage's speech, rendered verse by verse on a thread of its own, ahead of playback:
// a whole book starts speaking as soon as its first verse is rendered (a few milliseconds),
// and memory holds a few minutes around what is heard, never the whole.
#if canImport(Glibc)
import Glibc
#endif

/// Where playback gets each verse's audio: interleaved 16-bit frames of `channels` samples.
protocol AudioSource: AnyObject, Sendable {
    var sampleRate: Int { get }
    var channels: Int { get }
    /// One text a verse: how many verses there are.
    var texts: [String] { get }
    /// Verse `index`'s length in frames, or nil while it is not known yet.
    func frameCount(_ index: Int) -> Int?
    /// Verse `index`'s samples, or nil while they are not ready.
    func samples(_ index: Int) -> [Int16]?
    /// Verse `index`'s samples, waiting for them if need be.
    func waitForSamples(_ index: Int) -> [Int16]
    /// Playback has reached verse `index`.
    func want(_ index: Int)
    /// Why the audio cannot go on (a recording cut short), once found.
    var failure: PlayError? { get }
    /// Speaks at `wordsPerMinute` from now on, every verse's samples and length made again;
    /// false, changing nothing, for audio that has its own speed (a recording).
    func setSpeed(_ wordsPerMinute: Int) -> Bool
}

final class Rendition: AudioSource, @unchecked Sendable {
    let texts: [String]
    let sampleRate: Int
    let channels = 1
    private let engine: any SpeechEngine
    /// Called on the rendering thread after each verse is rendered: playback may be waiting
    /// for it, or the media controls for the passage's length.
    private let rendered: () -> Void
    /// Each verse's samples once rendered; verses far behind playback are let go again.
    private var chunks: [[Int16]?]
    /// Each verse's length once rendered, kept: the media controls' position and length are
    /// counted from the passage's start, so every verse is rendered once, if only to measure it.
    private var frameCounts: [Int?]
    /// The verse playback needs first; rendering goes on from there.
    private var wanted: Int
    /// A speed for the engine, to be set on the render thread before the next verse.
    private var newSpeed: Int?
    /// Counts speed changes: a verse rendered across one is of the old speed, and let go.
    private var speedChanges = 0
    private var mutex = pthread_mutex_t()
    private var changed = pthread_cond_t()
    private var thread: pthread_t?

    /// How far ahead of `wanted` to render, and how many verses behind it to keep.
    private var aheadSamples: Int { sampleRate * 180 }
    private static let keptBehind = 8

    /// Speech is made, not read: nothing to be cut short.
    let failure: PlayError? = nil

    /// Speech of `texts` by `engine`, which makes samples at `sampleRate`, rendered from
    /// verse `start` on once `start()` is called.
    init(texts: [String], engine: any SpeechEngine, sampleRate: Int, startingAt start: Int, rendered: @escaping () -> Void) {
        self.texts = texts
        self.engine = engine
        self.sampleRate = sampleRate
        self.rendered = rendered
        chunks = Array(repeating: nil, count: texts.count)
        frameCounts = Array(repeating: nil, count: texts.count)
        wanted = start
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&changed, nil)
    }

    /// Starts the rendering thread; it lives as long as the process.
    func start() {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        pthread_create(&thread, nil, { context in
            Unmanaged<Rendition>.fromOpaque(context!).takeUnretainedValue().renderForever()
            return nil
        }, context)
        self.thread = thread
    }

    func frameCount(_ index: Int) -> Int? {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return frameCounts[index]
    }

    /// The samples of verse `index`, or nil while it is not rendered yet.
    func samples(_ index: Int) -> [Int16]? {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return chunks[index]
    }

    /// The samples of verse `index`, waiting for them if need be (a seek to a verse not rendered).
    func waitForSamples(_ index: Int) -> [Int16] {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        if chunks[index] == nil {
            wanted = index
            pthread_cond_broadcast(&changed)
        }
        while chunks[index] == nil { pthread_cond_wait(&changed, &mutex) }
        return chunks[index]!
    }

    /// Playback has reached verse `index`: render from there, and let go of what is far behind.
    func want(_ index: Int) {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        guard index != wanted else { return }
        wanted = index
        for behind in 0..<max(0, index - Self.keptBehind) where chunks[behind] != nil { chunks[behind] = nil }
        pthread_cond_broadcast(&changed)
    }

    func setSpeed(_ wordsPerMinute: Int) -> Bool {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        newSpeed = wordsPerMinute
        speedChanges += 1
        chunks = Array(repeating: nil, count: texts.count)
        frameCounts = Array(repeating: nil, count: texts.count)
        pthread_cond_broadcast(&changed)
        return true
    }

    private func renderForever() {
        pthread_mutex_lock(&mutex)
        while true {
            let keep = nextToRender()
            guard let next = keep ?? nextToMeasure() else {
                pthread_cond_wait(&changed, &mutex)
                continue
            }
            let (speed, changes) = (newSpeed, speedChanges)
            newSpeed = nil
            pthread_mutex_unlock(&mutex)
            // The engine is only ever touched here: its voice chosen again at the new speed.
            if let speed { _ = try? engine.choose(voice: engine.chosen, wordsPerMinute: speed) }
            let samples = engine.synthesize(texts[next])
            pthread_mutex_lock(&mutex)
            guard changes == speedChanges else { continue }
            if keep != nil { chunks[next] = samples }
            frameCounts[next] = samples.count
            pthread_cond_broadcast(&changed)
            rendered()
        }
    }

    /// The first verse from `wanted` on not rendered yet, unless enough is rendered ahead.
    private func nextToRender() -> Int? {
        var ahead = 0
        for index in wanted..<texts.count {
            guard let chunk = chunks[index] else { return ahead < aheadSamples ? index : nil }
            ahead += chunk.count
        }
        return nil
    }

    /// Once enough is rendered ahead: the first verse whose length is not known yet, from
    /// `wanted` on and then from the start (rendered to be measured, and let go).
    private func nextToMeasure() -> Int? {
        (wanted..<texts.count).first { frameCounts[$0] == nil } ?? (0..<wanted).first { frameCounts[$0] == nil }
    }
}
