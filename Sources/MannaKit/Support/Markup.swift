// The one escaper for the markup Manna writes text into: the notification spec's body markup,
// Pango's (waybar, the reader window) and GtkBuilder's XML.

public enum Markup {
    /// `text` shown as written inside markup: `&`, `<` and `>`, which each of those gives a
    /// meaning to, as entities. (Quotes mean something only inside an attribute's value, and
    /// Manna puts no text there.) Text that looks escaped already is escaped again: `&amp;`
    /// shows as typed. Scalar by scalar, so a combining mark after a `<` cannot hide it
    /// inside one Character.
    public static func escaped(_ text: String) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
