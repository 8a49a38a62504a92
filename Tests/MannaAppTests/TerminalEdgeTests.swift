// Text that did not come from Manna never reaches the terminal as a control (issue 25, point 3):
// whatever the command, whatever the source (the user, a peer's records, a file), because the
// one output every command writes to neutralises it.
import Foundation
import MannaKit
import TestSupport
import Testing

@testable import MannaApp

@Suite struct TerminalEdgeTests {
    /// A window title set (OSC), the screen cleared (CSI), a one-character C1 CSI, a bell, a
    /// blink (an SGR Manna never uses), a line turned around, a carriage return that would
    /// overwrite the line.
    static let hostile = "\u{1B}]0;owned\u{07}\u{1B}[2J\u{9B}2J\u{1B}[5m\u{202E}x\rcover"

    /// Manna's own styles, the only escape sequences its output may hold.
    static let ownStyles: [String] = {
        var styles: [TerminalStyle] = [.bold, .dim, .reverse]
        styles += [HighlightColor.yellow, .green, .blue, .pink, .purple].map { TerminalStyle.highlight($0) }
        return styles.flatMap { style in
            let rendered = TerminalText("x", style: style).rendered
            return rendered.split(separator: "x", omittingEmptySubsequences: false).map(String.init)
        }
    }()

    /// The control characters `text` holds, Manna's own styles aside.
    static func controls(in text: String) -> [Unicode.Scalar] {
        var rest = text
        for style in ownStyles { rest = rest.replacingAll(style, with: "") }
        return rest.unicodeScalars.filter { String.isTerminalControl($0) && $0 != "\n" && $0 != "\t" }
    }

    @Test func nothingFromAUserAPeerOrAFileReachesTheTerminalAsAControl() throws {
        let h = Self.hostile
        let home = try TestHome(config: "translation = KJV\ncolo\(h)ur = blue\nnotify_at = 07:00\(h)\n")
        home.onTerminal = true
        var outcomes: [(String, Outcome)] = []
        func run(_ arguments: String...) {
            outcomes.append((arguments.joined(separator: " "), home.run(arguments)))
        }

        // The user's own text, and what a peer's records can hold (written as sync would).
        run("pray", "add", "Mum\(h)", "--body", "Her knee\(h)\nand her sleep", "--remind", "daily 07:00")
        let shortID = try #require(try home.journal().prayers(.open, tag: nil).first?.shortID)
        let database = try Database(path: home.paths.journal, mode: .readWrite)
        try database.execute("UPDATE prayers SET tags = ',family\(h),', answer_note = 'yes\(h)'")
        try database.execute("UPDATE reminders SET spec = 'daily 07:00\(h)'")
        run("note", "add", "John 3:16", "Loved\(h)")
        run("highlight", "John 3:16", "yellow")
        run("search", "loved\(h)")
        run("search", "world")
        let folder = home.url.appendingPathComponent("Sync").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        run("sync", "init", folder, "--name", "laptop")
        try database.execute("""
            INSERT INTO sync_devices (device, name, applied, problem) VALUES ('0123456789abcdef', 'desk\(h)top', 0, 'gap\(h)');
            UPDATE notes SET short_id = 'n\(h)';
            """)

        // A cue sheet whose fields came from a file.
        let sheet = home.url.appendingPathComponent("john.wav.cues.json").path
        try JSON.object([
            ("format", .string("manna-cues")), ("version", .int(1)), ("passage", .string("Jude\(h)")), ("translation", .string("WEB")),
            ("voice", .string("en\(h)")), ("audio", .string("john\(h).wav")), ("reader", .string("Ann\(h)")),
        ]).text.write(toFile: sheet, atomically: true, encoding: .utf8)

        run("pray", "list")
        run("pray", "show", shortID)
        run("pray", "today")
        run("pray", "list", "--tag", "family")
        run("pray", "show", "k\(h)")
        run("note", "list")
        run("read", "John 3:16")
        run("read", "John\(h) 3:16")
        run("search", "--history")
        run("sync", "status")
        run("config", "list")
        run("today")
        run("doctor")
        run("cues", "check", sheet)
        run("audio", "add", home.url.path)
        run("audio", "list")
        run("nonsense\(h)")
        run("tick", "--now", "2026-12-02T07:00")
        run("export")
        run("pray", "list", "--json")

        var printedHostileText = 0
        for (command, outcome) in outcomes {
            #expect(Self.controls(in: outcome.stdout).isEmpty, "manna \(command.singleLine): stdout \(outcome.stdout.debugDescription)")
            #expect(Self.controls(in: outcome.stderr).isEmpty, "manna \(command.singleLine): stderr \(outcome.stderr.debugDescription)")
            if (outcome.stdout + outcome.stderr).contains("owned") { printedHostileText += 1 }
        }
        // The text is shown, its controls as "�" (or escaped, in JSON), not dropped unseen.
        #expect(printedHostileText >= 12, "\(outcomes.map { $0.0.singleLine })")
    }

    /// The neutraliser itself: what each kind of character becomes.
    @Test(arguments: [
        ("plain text, ‘quotes’ — and … dashes", "plain text, ‘quotes’ — and … dashes"),
        ("two\nlines\tand a tab", "two\nlines\tand a tab"),
        ("windows\r\nline", "windows\nline"),
        ("over\rwrite", "over\u{FFFD}write"),
        ("\u{1B}[2J", "\u{FFFD}[2J"),
        ("\u{1B}]52;c;cm0gLXJmIH4=\u{07}", "\u{FFFD}]52;c;cm0gLXJmIH4=\u{FFFD}"),
        ("\u{9B}31m\u{9D}0;t\u{9C}", "\u{FFFD}31m\u{FFFD}0;t\u{FFFD}"),
        ("\u{0}\u{8}\u{7F}", "\u{FFFD}\u{FFFD}\u{FFFD}"),
        ("abc\u{202E}fed\u{2066}x\u{2069}", "abc\u{FFFD}fed\u{FFFD}x\u{FFFD}"),
        ("line\u{2028}sep\u{2029}", "line\u{FFFD}sep\u{FFFD}"),
        ("Señor 主 🙏🏽 e\u{301}", "Señor 主 🙏🏽 e\u{301}"),
    ])
    func theNeutraliser(input: String, shown: String) {
        #expect(input.neutralisedForTerminal == shown)
        let output = Output.captured()
        output.write(input)
        #expect(output.text == shown)
        #expect(TerminalText(input, style: .bold).plain == shown)
    }

    @Test func stylesWrapTheTextTheyMarkAndNothingElse() {
        let lines = PassageFormatter.wrap([("For God so ", nil), ("loved", .bold), (" the \u{1B}[2J world", nil)],
                                          firstPrefix: "3:16 ", prefix: "     ", width: 18)
        #expect(lines.map(\.plain) == ["3:16 For God so", "     loved the", "     \u{FFFD}[2J world"])
        #expect(lines[1].rendered == "     \u{1B}[1mloved\u{1B}[22m the")
    }

    /// Replacing matches whole characters, whether or not the bytes said there was nothing to find.
    @Test(arguments: [
        ("no tab here", "\t", " ", "no tab here"), ("a\tb\tc", "\t", " ", "a b c"), ("", "\t", " ", ""),
        ("e\u{301}e", "e", "x", "e\u{301}x"), ("🙏🏽 and 🙏🏽", "🙏🏽", "pray", "pray and pray"), ("aaa", "aa", "b", "ba"),
        ("\r\n", "\n", " ", "\r\n"),
    ])
    func replacingAllMatchesCharacters(text: String, target: String, replacement: String, expected: String) {
        #expect(text.replacingAll(target, with: replacement) == expected)
    }

    /// The columns of a listing count characters as Swift does, whatever the fast path skips.
    @Test(arguments: ["", "k7m2", "John 3:16", "a\r\nb", "\r", "\r\n\r\n", "Señor", "e\u{301}", "主 🙏🏽", "tab\there\u{1B}[2J"])
    func characterCountIsCount(text: String) {
        #expect(text.characterCount == text.count)
    }

    /// With no width (a pipe) the pieces make the one line the wrapping path makes when the
    /// width holds them all: runs of spaces one, the ends trimmed, a style's stretch styled once.
    @Test(arguments: [
        [("For God so ", nil), ("loved", .bold), (" the \u{1B}[2J world", nil)],
        [("  leading  and  ", nil), ("  twice  ", .bold), ("", nil), ("  trailing  ", nil)],
        [("one", .bold), ("two", .bold), (" ", nil), ("three ", .reverse)],
        [("", nil)], [(" ", .bold)], [("e\u{301} \u{301}x  y", nil), ("\r\n", nil)],
    ] as [[(String, TerminalStyle?)]])
    func unwrappedPiecesAreTheWrappedLineThatFits(pieces: [(String, TerminalStyle?)]) {
        let wide = PassageFormatter.wrap(pieces, firstPrefix: "3:16 ", prefix: "     ", width: 10_000)
        #expect(PassageFormatter.wrap(pieces, firstPrefix: "3:16 ", prefix: "     ", width: nil) == wide)
    }

    /// Each panel format escapes its own markup, in one place (`Widget.escaped`): text from the
    /// timeline shows as written, never as a tag, an entity or a click that runs a command.
    @Test(arguments: [
        (Widget.Kind.waybar, "<b>Love</b> & 100%{A1:rm -rf ~:}x%{A}", "&lt;b&gt;Love&lt;/b&gt; &amp; 100%{A1:rm -rf ~:}x%{A}"),
        (.polybar, "<b>Love</b> & 100%{A1:rm -rf ~:}x%{A}", "<b>Love</b> & 100%\u{2060}{A1:rm -rf ~:}x%\u{2060}{A}"),
        (.polybar, "50%% off", "50%\u{2060}%\u{2060} off"),
        (.i3blocks, "<b>Love</b> & 100%{A1:x:}", "<b>Love</b> & 100%{A1:x:}"),
        (.plain, "<b>Love</b> & 100%{A1:x:}", "<b>Love</b> & 100%{A1:x:}"),
        (.plain, "two\nlines\u{1B}[2J", "two lines [2J"),
    ])
    func eachPanelFormatEscapesItsOwnMarkup(kind: Widget.Kind, text: String, shown: String) {
        #expect(Widget.escaped(text, for: kind) == shown)
        let day = ShownDay(date: "2026-12-02", reference: "John 3:16", translation: "KJV", text: text, plan: "Day 1\u{1B}[2J of 2")
        let rendered = Widget.render(day, as: kind)
        #expect(Self.controls(in: rendered).isEmpty, "\(rendered.debugDescription)")
        if kind == .polybar { #expect(!rendered.contains("%{")) }
        if kind == .waybar { #expect(!rendered.contains("<b>") && !rendered.contains("\\u001b")) }
    }
}
