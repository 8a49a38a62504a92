// The follow-along screen: the passage laid out as `manna read` shows it, the verse being heard
// in reverse video, scrolled only when that verse leaves the screen (AndBible#3013: a view that
// jumps on every verse cannot be read along).

public struct FollowAlong: Sendable {
    public let lines: [TerminalText]
    private let verseLines: VerseLines
    /// The first line on screen.
    public private(set) var top = 0

    public init(lines: [TerminalText], verseLines: VerseLines) {
        self.lines = lines
        self.verseLines = verseLines
    }

    /// Scrolls so that `verse` is on a screen of `height` lines, only if it is not wholly there
    /// already: then the verse starts one line below the top (the line before it for context),
    /// or as far down as the passage's end allows.
    public mutating func follow(_ verse: VerseID, height: Int) {
        guard height > 0, let range = verseLines[verse] else { return }
        let fits = range.count <= height
        let visible = fits ? range.lowerBound >= top && range.upperBound <= top + height : range.lowerBound == top
        guard !visible else { return }
        // A verse longer than the screen starts at the top.
        top = fits ? max(0, min(range.lowerBound - 1, lines.count - height)) : range.lowerBound
    }

    /// The `height` lines on screen, `current`'s in reverse video, each cut to `width` columns
    /// (styles do not count). Short passages are padded with empty lines.
    public func screen(current: VerseID?, height: Int, width: Int) -> [TerminalText] {
        let highlighted = current.flatMap { verseLines[$0] } ?? 0..<0
        return (top..<(top + height)).map { index in
            guard index < lines.count else { return TerminalText() }
            let line = lines[index].cut(to: width)
            return highlighted.contains(index) ? line.styled(.reverse) : line
        }
    }
}
