import Foundation
import Testing
@testable import MannaApp
@testable import MannaKit

/// What Manna hands to a notification server, the timeline file, a panel or a prompt is bounded
/// for every kind of text (issue 25, point 4): an excerpt ending in "…", never a megabyte.
@Suite struct SizesTests {
    enum Kind: String, CaseIterable, Sendable {
        /// A prayer of 100 kB title and 900 kB body, reminded at 07:00.
        case prayer
        /// A title that is one letter under a hundred thousand combining marks: one character.
        case markedPrayer
        /// A plan of one's own with a name of 10 kB and a thousand readings a day, reminded at 07:00.
        case plan
        /// A bookmarked whole book as the verse of the day.
        case verse
    }

    func home(for kind: Kind) throws -> TestHome {
        let home = try TestHome(config: "notify_at = 07:00\ndaily_source = bookmarks\n")
        switch kind {
        case .prayer:
            let title = String(repeating: "Lord, hear ", count: 100_000 / 11)
            _ = try home.addPrayer(title, body: String(repeating: "and keep them ", count: 900_000 / 14), reminders: ["daily 07:00"], now: "2027-06-01T12:00")
        case .markedPrayer:
            _ = try home.addPrayer("a" + String(repeating: "\u{301}", count: 100_000), reminders: ["daily 07:00"], now: "2027-06-01T12:00")
        case .plan:
            let plans = home.folder.userPlans
            try FileManager.default.createDirectory(at: plans, withIntermediateDirectories: true)
            let readings = (0..<1000).map { "\"Psalms \($0 % 150 + 1)\"" }.joined(separator: ", ")
            let days = (1...3).map { "{\"day\": \($0), \"readings\": [\(readings)]}" }.joined(separator: ", ")
            let plan = "{\"format\": 1, \"id\": \"mine\", \"name\": \"\(String(repeating: "Psalms ", count: 10_000 / 7))\", \"description\": \"Mine.\", \"days\": [\(days)]}"
            try plan.write(to: plans.appendingPathComponent("mine.json"), atomically: true, encoding: .utf8)
            let started = home.run("plan", "start", "mine", "--from", "2027-06-01", "--remind", "07:00", "--now", "2027-06-01T12:00")
            try #require(started.status == 0, "\(started.stderr)")
        case .verse:
            try #require(home.run("bookmark", "add", "Genesis").status == 0)
        }
        home.tick("2027-06-02T07:00")
        return home
    }

    /// Whether `text` is within `Excerpt`'s bound.
    func bounded(_ text: String) -> Bool { text.count <= Excerpt.characters && text.utf8.count <= Excerpt.bytes }

    @Test(arguments: Kind.allCases)
    func everyOutputIsAnExcerpt(kind: Kind) throws {
        let home = try home(for: kind)
        let shown = home.notifier.shown
        #expect(!shown.isEmpty)
        for notification in shown {
            #expect(bounded(notification.summary) && bounded(notification.body), "\(notification.summary.prefix(80))")
        }
        // The kind's own notification is cut, with "…".
        let own: DesktopNotification.Category = switch kind { case .prayer, .markedPrayer: .prayer; case .plan: .plan; case .verse: .verse }
        let notification = try #require(shown.first { $0.category == own })
        #expect((notification.summary + notification.body).contains("…"))
        if kind == .plan { #expect(notification.summary.hasSuffix(" of 3") && notification.summary.contains("…: day ")) }
        if kind == .markedPrayer { #expect(notification.summary == "…") }

        // Every string of the timeline, and the file, of kilobytes.
        let timeline = try String(contentsOfFile: home.paths.timeline, encoding: .utf8)
        #expect(timeline.utf8.count < 40_000)
        func strings(_ json: JSON) -> [String] {
            switch json {
            case .string(let text): [text]
            case .array(let items): items.flatMap(strings)
            case .object(let pairs): pairs.flatMap { strings($0.1) }
            default: []
            }
        }
        for text in strings(try JSON(parsing: timeline)) { #expect(bounded(text), "\(text.prefix(80))") }

        for format in ["plain", "waybar", "polybar", "i3blocks"] {
            let widget = home.run("widget", "--format", format, "--now", "2027-06-02T08:00")
            #expect(widget.status == 0 && widget.stdout.utf8.count < 3 * Excerpt.bytes, "\(format): \(widget.stdout.utf8.count) bytes")
        }
        for format in ["{reference} {text}", "{plan}"] {
            let prompt = home.run("prompt", "--format", format, "--now", "2027-06-02T08:00")
            #expect(prompt.status == 0 && bounded(prompt.stdout.trimmingCharacters(in: .newlines)))
        }
    }

    /// The bound itself: cut after a whole word that keeps at least half, else after a whole
    /// character; never inside a character; "…" always within both bounds.
    @Test(arguments: [
        ("short", 10, "short"),
        ("exactly ten", 11, "exactly ten"),
        ("In the beginning God created", 20, "In the beginning…"),
        ("In the beginning, God", 19, "In the beginning…"),
        ("Unbreakablewordthatgoeson", 10, "Unbreakab…"),
        ("e\u{301}\u{301}\u{301} and more", 3, "e\u{301}\u{301}\u{301}…"),
        ("🙏🙏🙏🙏", 3, "🙏🙏…"),
        ("anything", 1, "…"),
    ])
    func theBound(text: String, width: Int, expected: String) {
        #expect(Excerpt.of(text, characters: width) == expected)
    }

    @Test func aCharacterOfManyMarksIsCutByItsBytes() {
        let heavy = "a" + String(repeating: "\u{301}", count: 10_000)
        #expect(Excerpt.of(heavy) == "…")
        #expect(Excerpt.of("ok " + heavy).utf8.count <= Excerpt.bytes)
        let many = Array(repeating: "Psalms 119", count: 1000)
        let kept = Excerpt.of(many, joinedBy: "; ")
        #expect(kept.last == "…" && kept.count > 10 && bounded(kept.joined(separator: "; ")))
    }
}
