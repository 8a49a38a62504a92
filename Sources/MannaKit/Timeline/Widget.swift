// Panel output: waybar's JSON line, i3blocks' lines, polybar's line, or plain text.

public enum Widget {
    public enum Kind: String, Sendable {
        case waybar, i3blocks, polybar, plain
    }

    /// Columns of verse text a panel shows before cutting.
    static let panelWidth = 60

    /// The output for `day`, ending in a newline.
    public static func render(_ day: ShownDay, as kind: Kind) -> String {
        let short = "\(day.reference): " + PromptFormat.cut(day.text, to: panelWidth)
        switch kind {
        case .waybar:
            // Waybar reads Pango markup: escape it. Tooltip lines are separated by "\r".
            var tooltip = "\(day.reference) (\(day.translation))\r\(day.text)"
            if let plan = day.plan { tooltip += "\r\r" + plan }
            return JSON.object([
                ("text", .string(pango(day.reference))),
                ("alt", .string("verse")),
                ("tooltip", .string(pango(tooltip))),
                ("class", .string("manna")),
            ]).text + "\n"
        case .i3blocks:
            // full_text, then short_text for narrow bars.
            return short.singleLine + "\n" + day.reference.singleLine + "\n"
        case .polybar:
            return short.singleLine + "\n"
        case .plain:
            var text = "\(day.reference) (\(day.translation))\n\(day.text.singleLine)\n"
            if let plan = day.plan { text += plan.singleLine + "\n" }
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
                ("tooltip", .string(pango(reason.singleLine))),
                ("class", .string("manna-unavailable")),
            ]).text + "\n"
        case .i3blocks: return "Manna\nManna\n"
        case .polybar: return "Manna\n"
        case .plain: return "Manna\n" + reason.singleLine + "\n"
        }
    }

    /// Escapes the characters Pango markup reserves.
    public static func pango(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(character)
            }
        }
        return out
    }
}
