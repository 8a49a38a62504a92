// Timings in the formats people already have, read into verse cues: aeneas sync maps (JSON),
// Audacity label tracks (as SIL's Scripture App Builder writes its timing files) and WebVTT.

public enum CueFormat: String, CaseIterable, Sendable {
    case aeneas, audacity, webvtt
}

/// A timed stretch as a file gives it: its label (a verse number, an id, or nothing) and times.
struct TimedSegment: Equatable {
    let label: String
    let start: Double
    let end: Double
}

public enum CueImport {
    /// The cues `text` (in `format`) gives the verses of a passage (`verses`, in order).
    ///
    /// Segments labelled with a verse number (`16`, `16a`, `3:16`; Audacity's `\c 3` sets the
    /// chapter) go to that verse, parts merged; aeneas fragments and WebVTT cues without such
    /// labels go to the passage's verses in order, and must be as many. Segments labelled with
    /// anything else (a title, a heading) are left out.
    public static func cues(from text: String, format: CueFormat, verses: [VerseID]) throws(CueSheetError) -> [CueSheet.Cue] {
        guard let first = verses.first else { throw CueSheetError("the passage has no verses") }
        let segments: [TimedSegment]
        switch format {
        case .aeneas: segments = try aeneas(text)
        case .audacity: segments = try audacity(text)
        case .webvtt: segments = try webvtt(text)
        }
        guard !segments.isEmpty else { throw CueSheetError("no timings in the file") }

        // Labelled by verse: Audacity always; the others when every label is a verse.
        var chapter = first.chapter
        var labelled: [(VerseID, TimedSegment)] = []
        var allVerses = true
        for segment in segments {
            let label = segment.label.trimmingSpaces
            if let number = chapterHeader(label) {
                chapter = number
                continue
            }
            guard let id = verse(label, book: first.book, chapter: chapter) else {
                allVerses = false
                continue
            }
            labelled.append((id, segment))
        }
        if format == .audacity || (allVerses && !labelled.isEmpty) {
            var cues: [CueSheet.Cue] = []
            for (id, segment) in labelled {
                // "16a" then "16b": one verse from the first part's start to the last part's end.
                if let last = cues.last, last.id == id {
                    cues[cues.count - 1] = CueSheet.Cue(id: id, start: last.start, end: segment.end)
                } else {
                    cues.append(CueSheet.Cue(id: id, start: segment.start, end: segment.end))
                }
            }
            return cues
        }
        // In order: one segment a verse (empty aeneas fragments, silence, are left out).
        let spoken = segments.filter { !($0.label.isEmpty && format == .aeneas) }
        guard spoken.count == verses.count else {
            throw CueSheetError("\(spoken.count) timed segments for the passage's \(verses.count) verses: label them by verse, or give the passage they read")
        }
        return zip(verses, spoken).map { CueSheet.Cue(id: $0, start: $1.start, end: $1.end) }
    }

    /// `\c 3`, `c 3`, `\c3`: a chapter header in a label track.
    static func chapterHeader(_ label: String) -> Int? {
        var rest = Substring(label)
        if rest.hasPrefix("\\") { rest = rest.dropFirst() }
        guard rest.hasPrefix("c") else { return nil }
        return Int(rest.dropFirst().trimmingCharacters(in: " "))
    }

    /// `16`, `16a`, `v16`, `3:16` as a verse of `book`, in `chapter` unless it says.
    static func verse(_ label: String, book: Int, chapter: Int) -> VerseID? {
        var text = Substring(label)
        if text.hasPrefix("v") { text = text.dropFirst() }
        var chapterNumber = chapter
        if let colon = text.firstIndex(of: ":") {
            guard let number = Int(text[..<colon]) else { return nil }
            chapterNumber = number
            text = text[text.index(after: colon)...]
        }
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        let part = text.dropFirst(digits.count)
        guard let number = Int(digits), part.count <= 1, part.allSatisfy({ $0.isLetter && $0.isLowercase }) else { return nil }
        let id = VerseID(book: book, chapter: chapterNumber, verse: number)
        return id.isVerse ? id : nil
    }

    // MARK: - The formats

    /// aeneas: `{"fragments": [{"id", "begin", "end", "lines": [...]}]}`, times as strings of
    /// seconds. The label is the fragment's id when it names a verse, else its text.
    static func aeneas(_ text: String) throws(CueSheetError) -> [TimedSegment] {
        let json: JSON
        do { json = try JSON(parsing: text) } catch { throw CueSheetError("not an aeneas sync map: \(error.message)") }
        guard let fragments = json["fragments"]?.arrayValue else { throw CueSheetError("not an aeneas sync map: no \"fragments\" list") }
        var segments: [TimedSegment] = []
        for (index, fragment) in fragments.enumerated() {
            guard let begin = Seconds.parse(fragment["begin"]), let end = Seconds.parse(fragment["end"]) else {
                throw CueSheetError("fragments[\(index)]: \"begin\" and \"end\" must each be \(Seconds.allowed)")
            }
            let lines = fragment["lines"]?.arrayValue?.compactMap(\.stringValue) ?? []
            let id = fragment["id"]?.stringValue ?? ""
            // An id like "f000003" is a counter, not a verse; a text-less fragment is silence.
            let label = lines.allSatisfy({ $0.trimmingSpaces.isEmpty }) ? "" : (id.hasPrefix("f") ? "text" : id)
            segments.append(TimedSegment(label: label, start: begin, end: end))
        }
        return segments
    }

    /// Audacity label track: `START<TAB>END<TAB>LABEL` a line; a line starting with `\` after a
    /// tab is Audacity's spectral-selection extra, left out.
    static func audacity(_ text: String) throws(CueSheetError) -> [TimedSegment] {
        var segments: [TimedSegment] = []
        // By newline, whatever the line ends (a Character, "\r\n" is one).
        for (number, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            if line.trimmingCharacters(in: " ").isEmpty || line.hasPrefix("\\") { continue }
            let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count >= 2 else {
                throw CueSheetError("line \(number + 1): expected START<tab>END<tab>LABEL, found '\(String(line).singleLine)'")
            }
            guard let start = Seconds.parse(fields[0]), let end = Seconds.parse(fields[1]) else {
                throw CueSheetError("line \(number + 1): START and END must each be \(Seconds.allowed), found '\(String(line).singleLine)'")
            }
            segments.append(TimedSegment(label: fields.count > 2 ? String(fields[2]) : "", start: start, end: end))
        }
        return segments
    }

    /// WebVTT: `WEBVTT`, then cues: an optional identifier line, `HH:MM:SS.mmm --> HH:MM:SS.mmm`,
    /// text lines, a blank line. The label is the identifier.
    static func webvtt(_ text: String) throws(CueSheetError) -> [TimedSegment] {
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        guard let header = lines.first, header.hasPrefix("WEBVTT") || header.hasPrefix("\u{FEFF}WEBVTT") else {
            throw CueSheetError("not WebVTT: the first line must be WEBVTT")
        }
        var segments: [TimedSegment] = []
        for (index, line) in lines.enumerated() where line.contains("-->") {
            let arrow = Array(line.utf8).indices.first { Array(line.utf8)[$0...].starts(with: Array("-->".utf8)) } ?? 0
            let before = String(decoding: Array(line.utf8)[..<arrow], as: UTF8.self)
            let after = String(decoding: Array(line.utf8)[(arrow + 3)...], as: UTF8.self)
            // The end time may be followed by cue settings ("align:start").
            guard let start = timestamp(before), let end = timestamp(String(after.trimmingSpaces.split(separator: " ").first ?? "")) else {
                throw CueSheetError("line \(index + 1): not a WebVTT cue timing (HH:MM:SS.mmm --> HH:MM:SS.mmm, within a day): '\(line.singleLine)'")
            }
            let identifier = index > 0 && !lines[index - 1].trimmingSpaces.isEmpty ? lines[index - 1] : ""
            segments.append(TimedSegment(label: identifier, start: start, end: end))
        }
        return segments
    }

    /// `01:02:03.456` or `02:03.456` in seconds.
    static func timestamp(_ text: String) -> Double? {
        let fields = text.trimmingSpaces.split(separator: ":")
        guard (2...3).contains(fields.count), let seconds = Seconds.parse(fields.last!), seconds < 60 else { return nil }
        var total = seconds
        for (power, field) in fields.dropLast().reversed().enumerated() {
            guard field.utf8.count <= 5, let value = Int(field), value >= 0 else { return nil }
            total += Double(value) * (power == 0 ? 60 : 3600)
        }
        return Seconds.checked(total)
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: Character) -> Substring {
        var text = self
        while text.first == set { text = text.dropFirst() }
        while text.last == set { text = text.dropLast() }
        return text
    }
}
