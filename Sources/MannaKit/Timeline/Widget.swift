// Panel output: waybar's JSON line, i3blocks' lines, polybar's line, or plain text.

public enum Widget {
    public enum Kind: String, Sendable {
        case waybar, i3blocks, polybar, plain
    }

    /// Columns of verse text a panel shows before cutting.
    static let panelWidth = 60

    /// The output for `day`, ending in a newline. Every piece of text passes through
    /// `escaped(_:for:)`, which bounds it, makes it one line and escapes the format's own markup.
    public static func render(_ day: ShownDay, as kind: Kind) -> String {
        let short = "\(day.reference): " + Excerpt.of(day.text, characters: panelWidth)
        switch kind {
        case .waybar:
            // Tooltip lines are separated by "\r".
            var tooltip = [escaped("\(day.reference) (\(day.translation))", for: kind), escaped(day.text, for: kind)]
            if let plan = day.plan { tooltip += ["", escaped(plan, for: kind)] }
            return JSON.object([
                ("text", .string(escaped(day.reference, for: kind))),
                ("alt", .string("verse")),
                ("tooltip", .string(tooltip.joined(separator: "\r"))),
                ("class", .string("manna")),
            ]).text + "\n"
        case .i3blocks:
            // full_text, then short_text for narrow bars.
            return escaped(short, for: kind) + "\n" + escaped(day.reference, for: kind) + "\n"
        case .polybar:
            return escaped(short, for: kind) + "\n"
        case .plain:
            var text = escaped("\(day.reference) (\(day.translation))", for: kind) + "\n" + escaped(day.text, for: kind) + "\n"
            if let plan = day.plan { text += escaped(plan, for: kind) + "\n" }
            return text
        }
    }

    /// What a panel shows when there is no verse to show (no text database, say): "Manna", and
    /// why where the format has room for it (waybar's tooltip, plain's second line).
    public static func render(unavailable reason: String, as kind: Kind) -> String {
        switch kind {
        case .waybar:
            return JSON.object([
                ("text", .string("Manna")),
                ("alt", .string("unavailable")),
                ("tooltip", .string(escaped(reason, for: kind))),
                ("class", .string("manna-unavailable")),
            ]).text + "\n"
        case .i3blocks: return "Manna\nManna\n"
        case .polybar: return "Manna\n"
        case .plain: return "Manna\n" + escaped(reason, for: kind) + "\n"
        }
    }

    /// `text` as one line of the format, shown as written: an excerpt within `Excerpt`'s bound,
    /// cut before escaping (so never inside an entity), control characters as spaces, and the
    /// format's markup escaped. Waybar reads Pango markup (`&`, `<`, `>`); polybar
    /// reads `%{...}` tags, which can run a command on a click (`%{A1:cmd:}`): a word joiner
    /// (U+2060, invisible) after each `%` makes every `%` literal, in polybar before 3.7 (which
    /// knows no `%%`) and after. i3blocks shows text as it is unless its block sets
    /// `markup=pango` (README's example sets `markup=none`); plain is text.
    public static func escaped(_ text: String, for kind: Kind) -> String {
        let line = Excerpt.of(text.singleLine)
        switch kind {
        case .waybar: return Markup.escaped(line)
        case .polybar: return line.contains("%") ? line.replacingAll("%", with: "%\u{2060}") : line
        case .i3blocks, .plain: return line
        }
    }
}
