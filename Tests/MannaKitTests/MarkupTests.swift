// The one markup escaper (notification bodies, waybar's Pango, the reader window), by a table.
import Testing
@testable import MannaKit

@Suite struct MarkupTests {
    @Test(arguments: [
        ("Tom & Jerry <b>bold</b> a > b", "Tom &amp; Jerry &lt;b&gt;bold&lt;/b&gt; a &gt; b"),
        // Text that looks escaped already is shown as written, so it is escaped again.
        ("&amp; &lt;", "&amp;amp; &amp;lt;"),
        // A combining mark makes one Character with the `<` or `&` before it: escaped all the same.
        ("<\u{301}b>\u{301} &\u{308}", "&lt;\u{301}b&gt;\u{301} &amp;\u{308}"),
        // Quotes mean nothing outside an attribute: left as written.
        (#"a "quoted" word's"#, #"a "quoted" word's"#),
        ("", ""),
        ("Psalm 23 🕊 é", "Psalm 23 🕊 é"),
    ])
    func markupCharactersBecomeEntities(text: String, escaped: String) {
        #expect(Markup.escaped(text) == escaped)
    }

    /// Each place that writes markup goes through it.
    @Test func everyMarkupWriterUsesIt() {
        let text = "<\u{301}i>&"
        #expect(DesktopNotification.bodyText(text, serverReadsMarkup: true) == Markup.escaped(text))
        #expect(Widget.escaped(text, for: .waybar) == Markup.escaped(text))
    }
}
