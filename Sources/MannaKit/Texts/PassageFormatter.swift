// Lays out a passage for the terminal: a heading, numbered verses, wrapped with a hanging indent.

public enum PassageFormatter {
    /// What a verse the translation lacks shows instead of text, in the text's `language`.
    public static func absentText(_ translation: String, language: String = "en") -> String {
        Messages.inTextLanguage(language) { tr("[not in the {translation}]", ("translation", translation)) }
    }

    /// What `verse` shows: its text, or why there is none.
    public static func text(of verse: PassageVerse, in translation: String, language: String = "en") -> String {
        if let text = verse.text { return text }
        if let note = note(on: verse, language: language) { return "[\(note)]" }
        return absentText(translation, language: language)
    }

    /// Why a verse with no text has none, when it is not simply left out by the translation:
    /// "missing from this edition's source", "its text is in Numbers 13:32". In the text's
    /// `language`, as the passage around it ("su texto está en Números 13:32"), whatever the locale.
    public static func note(on verse: PassageVerse, language: String = "en") -> String? {
        Messages.inTextLanguage(language) {
            if verse.lostBySource { return tr("missing from this edition's source") }
            if let place = verse.textIn { return tr("its text is in {reference}", ("reference", Reference(place).label(in: language))) }
            return nil
        }
    }

    /// The passage as lines for a terminal (text from the database and the user's notes
    /// neutralised, `TerminalText`).
    ///
    /// Verses are numbered by verse, by chapter:verse when the passage spans chapters, and by
    /// their full reference when it spans books. A psalm's title comes before verse 1, unnumbered.
    /// A marked verse ends with its marks: `[yellow]` (unless `color` paints the highlight
    /// behind the text instead), `[bookmark]`, and `[1]` for each note, whose text follows
    /// the passage after a blank line. A verse with no marks prints as it always has.
    /// - Parameter width: wrap to this many columns; nil leaves lines whole (output to a pipe).
    /// - Parameter color: show highlights as ANSI background colours (a terminal, `NO_COLOR` unset).
    /// - Parameter language: the translation's language, for the book names ("Juan 3:16").
    public static func lines(reference: Reference, translation: String, language: String = "en", verses: [PassageVerse], width: Int?,
                             marks: PassageMarks = PassageMarks(), color: Bool = false) -> [TerminalText] {
        layout(reference: reference, translation: translation, language: language, verses: verses, width: width, marks: marks, color: color).lines
    }

    /// The passage as `lines` shows it, and the lines each verse takes (for following along).
    public static func layout(reference: Reference, translation: String, language: String = "en", verses: [PassageVerse], width: Int?,
                              marks: PassageMarks = PassageMarks(), color: Bool = false) -> (lines: [TerminalText], verseLines: VerseLines) {
        var lines = [TerminalText("\(reference.label(in: language)) (\(translation))")]
        var verseLines = VerseLines()
        // Numbered by verse; by chapter:verse across chapters; by full reference across books
        // ("John 3:16", "Romans 8:28": "3:16" and "8:28" alone would not say where they are).
        let spansBooks = verses.contains { $0.id.book != verses[0].id.book }
        let spansChapters = spansBooks || verses.contains { $0.id.chapter != verses[0].id.chapter }
        // A psalm's title has no number: it stands before verse 1, in line with the text.
        let labels = verses.map {
            $0.isTitle ? "" : spansBooks ? Reference($0.id).label(in: language) : spansChapters ? "\($0.id.chapter):\($0.id.verse)" : "\($0.id.verse)"
        }
        let labelWidth = labels.map(\.count).max() ?? 0
        var notes: [Note] = []
        for (verse, label) in zip(verses, labels) {
            let padding = String(repeating: " ", count: labelWidth - label.count)
            let padded = (spansBooks ? label + padding : padding + label) + " "
            let indent = String(repeating: " ", count: padded.count)
            let text = text(of: verse, in: translation, language: language)
            let verseMarks = marks[verse.id]
            let first = lines.count
            defer { verseLines[verse.id] = first..<lines.count }
            guard !verseMarks.isEmpty else {
                lines += wrap(text, firstPrefix: padded, prefix: indent, width: width).map(TerminalText.init)
                continue
            }
            var suffix = ""
            if let highlight = verseMarks.highlight, !color { suffix += " [\(highlight.rawValue)]" }
            if verseMarks.bookmarked { suffix += " [bookmark]" }
            for note in verseMarks.notes {
                notes.append(note)
                suffix += " [" + String(notes.count) + "]"
            }
            if let highlight = verseMarks.highlight, color {
                lines += wrap([(text, .highlight(highlight)), (suffix, nil)], firstPrefix: padded, prefix: indent, width: width)
            } else {
                lines += wrap(text + suffix, firstPrefix: padded, prefix: indent, width: width).map(TerminalText.init)
            }
        }
        if !notes.isEmpty { lines.append(TerminalText()) }
        // A verse's notes share their passage: its name is made once, not once a note.
        var passageNames: [Reference: String] = [:]
        for (index, note) in notes.enumerated() {
            let label = "[" + String(index + 1) + "] "
            let indent = String(repeating: " ", count: label.count)
            let passage = passageNames[note.reference] ?? note.reference.description
            passageNames[note.reference] = passage
            // A note's own line breaks are kept, each paragraph wrapped as one line.
            for (number, paragraph) in note.paragraphs.enumerated() {
                let head = number == 0 ? label + passage + " (" + note.shortID + "): " : indent
                lines += wrap(paragraph, firstPrefix: head, prefix: indent, width: width).map(TerminalText.init)
            }
        }
        return (lines, verseLines)
    }

    /// Styled pieces of text wrapped like `wrap`, each piece in its style (nil: plain) on every
    /// line it reaches; the indents are plain.
    public static func wrap(_ pieces: [(text: String, style: TerminalStyle?)], firstPrefix: String, prefix: String,
                            width: Int?) -> [TerminalText] {
        guard let width, width > prefix.count + 10 else { return [unwrapped(pieces, firstPrefix: firstPrefix)] }
        // Wrapping joins words with one space, so each line's body is the next stretch of the
        // pieces' text with its runs of spaces made one: that text, each character's style beside it.
        var characters: [Character] = []
        var styles: [TerminalStyle?] = []
        for piece in pieces {
            for character in piece.text where character != " " || (characters.last.map { $0 != " " } ?? false) {
                characters.append(character)
                styles.append(piece.style)
            }
        }
        if characters.last == " " { characters.removeLast() }
        var position = 0
        return wrap(String(characters), firstPrefix: firstPrefix, prefix: prefix, width: width).enumerated().map { index, line in
            let head = index == 0 ? firstPrefix.count : prefix.count
            var text = TerminalText(String(line.prefix(head)))
            var run = ""
            var runStyle: TerminalStyle?
            func endRun() {
                text += runStyle.map { TerminalText(run, style: $0) } ?? TerminalText(run)
                run = ""
            }
            for character in line.dropFirst(head) {
                let style = position < styles.count ? styles[position] : nil
                if style != runStyle {
                    endRun()
                    runStyle = style
                }
                run.append(character)
                position += 1
            }
            endRun()
            position += 1  // the space the line break stands for
            return text
        }
    }

    /// The pieces as `wrap` gives them with no width (in a pipe): one line, runs of spaces made
    /// one as between words, each stretch of one style styled once. Built piece by piece: the
    /// wrapping path's character-by-character rebuild was a third of what a search printed.
    /// Byte by byte: a space is one byte of UTF-8 and never part of another character's, and
    /// walking Characters (grapheme breaking) was a seventh of a search's instructions.
    static func unwrapped(_ pieces: [(text: String, style: TerminalStyle?)], firstPrefix: String) -> TerminalText {
        var runs: [(text: String, style: TerminalStyle?)] = []
        var lastIsSpace = true  // a leading space is dropped, as wrapping drops it
        var bytes: [UInt8] = []
        for piece in pieces {
            bytes.removeAll(keepingCapacity: true)
            for byte in piece.text.utf8 where byte != 0x20 || !lastIsSpace {
                bytes.append(byte)
                lastIsSpace = byte == 0x20
            }
            guard !bytes.isEmpty else { continue }
            let text = String(decoding: bytes, as: UTF8.self)
            if let last = runs.last, last.style == piece.style {
                runs[runs.count - 1].text += text
            } else {
                runs.append((text, piece.style))
            }
        }
        if lastIsSpace, !runs.isEmpty { runs[runs.count - 1].text.removeLast() }
        return runs.reduce(TerminalText(firstPrefix)) { line, run in
            line + (run.style.map { TerminalText(run.text, style: $0) } ?? TerminalText(run.text))
        }
    }

    /// Word-wraps `text`, starting with `firstPrefix` and indenting later lines by `prefix`.
    /// A word longer than the width is kept whole rather than broken.
    public static func wrap(_ text: String, firstPrefix: String, prefix: String, width: Int?) -> [String] {
        guard let width, width > prefix.count + 10 else { return [firstPrefix + text] }
        var lines: [String] = []
        var line = firstPrefix
        var lineLength = firstPrefix.count
        var lineHasWord = false
        for word in text.split(separator: " ") {
            if lineHasWord && lineLength + 1 + word.count > width {
                lines.append(line)
                line = prefix
                lineLength = prefix.count
                lineHasWord = false
            }
            if lineHasWord {
                line += " "
                lineLength += 1
            }
            line += word
            lineLength += word.count
            lineHasWord = true
        }
        lines.append(line)
        return lines
    }
}

/// The lines each verse of a laid-out passage takes, in the passage's order. A list of plain
/// numbers, not a dictionary nor a list of ranges: a passage has a few verses, and a command's
/// first collection of a type whose parameters must conform to a protocol (`Range`'s bound is
/// `Comparable`) costs the Swift runtime a search of the program's conformances (a tenth of a
/// `manna read`).
public struct VerseLines: Sendable, Equatable {
    private var entries: [(id: Int, first: Int, end: Int)] = []

    public init() {}

    public subscript(verse: VerseID) -> Range<Int>? {
        get { entries.first { $0.id == verse.rawValue }.map { $0.first..<$0.end } }
        set {
            entries.removeAll { $0.id == verse.rawValue }
            if let newValue { entries.append((verse.rawValue, newValue.lowerBound, newValue.upperBound)) }
        }
    }

    public static func == (left: VerseLines, right: VerseLines) -> Bool {
        left.entries.elementsEqual(right.entries) { $0 == $1 }
    }
}
