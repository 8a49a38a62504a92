import Foundation
import Testing
@testable import MannaKit

/// A seeded generator of hostile text for the parsers: fragments of what each parser
/// expects, shuffled with punctuation, control characters, other scripts, emoji and long runs.
/// 10,000 inputs per parser here; MANNA_FUZZ_ITERATIONS=1000000 for a long run.
/// Coverage-guided fuzzing of the same parsers: fuzz/run.
struct HostileText {
    private var random: SeededRandom

    init(seed: UInt64) { random = SeededRandom(seed: seed) }

    mutating func next() -> UInt64 { random.next() }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    static let common = ["", " ", "  ", "\t", "\n", "\r\n", "\u{0}", "\u{7}", "\u{1B}[31m", "\u{202E}", "\u{FEFF}", "\u{2028}",
                         "-", "–", "—", ":", ";", ",", ".", "\"", "'", "(", ")", "*", "^", "+", "{", "}", "[", "]", "\\", "/",
                         "%", "$(", "`", "0", "1", "3", "16", "999", "-1", "99999999999999999999", "1e9", "０", "٣",
                         "é", "e\u{301}", "ß", "İ", "ﬁ", "😀", "🙏🏽", "👨‍👩‍👧", "יְהוָה", "ἀγάπη", "愛", "Жизнь", "\u{10FFFF}"]

    mutating func text(from fragments: [String], maxPieces: Int = 12) -> String {
        let pool = fragments + HostileText.common
        var pieces: [String] = []
        for _ in 0..<(1 + below(maxPieces)) {
            var piece = pool[below(pool.count)]
            if below(50) == 0 { piece = String(repeating: piece.isEmpty ? "a" : piece, count: 1 + below(5_000)) }
            pieces.append(piece)
        }
        return pieces.joined()
    }
}

@Suite struct FuzzTests {
    static let iterations = Int(ProcessInfo.processInfo.environment["MANNA_FUZZ_ITERATIONS"] ?? "") ?? 10_000

    @Test func referenceParser() {
        var generator = HostileText(seed: 1)
        let fragments = ["John", "jn", "1 Cor", "I John", "Ps", "Psalm", "Song of Songs", "Jude", "Gen", "Rev", "Jo", "Phi",
                         "Hezekiah", "3:16", "3:16-18", "1:1-2:3", "23", ",18", "; 24:44", " ", "1", "2", "150", "176", "22:21"]
        for _ in 0..<Self.iterations {
            let input = generator.text(from: fragments)
            do {
                let reference = try Reference(parsing: input)
                #expect((try? Reference(parsing: reference.description)) == reference, "\(input.debugDescription)")
            } catch {
                #expect(!error.message.isEmpty)
            }
        }
    }

    @Test func searchQueryBuilder() {
        var generator = HostileText(seed: 2)
        let fragments = ["love", "one", "another", "\"", "AND", "OR", "NOT", "NEAR(", "text:", "verses_fts", "*", "-", "^"]
        for _ in 0..<Self.iterations {
            let input = generator.text(from: fragments)
            guard let query = try? SearchQuery(parsing: input) else { continue }
            // Outside FTS5 strings there is nothing but spaces and prefix stars.
            var inString = false
            for scalar in query.expression.unicodeScalars {
                if scalar == "\"" { inString.toggle(); continue }
                if !inString { #expect(scalar == " " || scalar == "*", "\(input.debugDescription) gave \(query.expression)") }
            }
            #expect(!inString)
        }
    }

    @Test func configParser() {
        var generator = HostileText(seed: 3)
        let fragments = ["translation", "notify_at", "prompt_format", "timeline_days", "plan", "=", " = ", "#", "\n",
                         "KJV", "web", "07:00", "24:00", "7", "31", "32", "{text:40}", "{", "2026-02-29"]
        for _ in 0..<Self.iterations {
            // Never a crash or a refusal: what cannot be used is ignored, with its line.
            let config = Config(parsing: generator.text(from: fragments, maxPieces: 20), file: "config")
            for line in config.ignored { #expect(line.message.hasPrefix("config:")) }
        }
    }

    @Test func jsonReader() {
        var generator = HostileText(seed: 4)
        let fragments = ["{", "}", "[", "]", ",", ":", "\"a\"", "\"\\u00e9\"", "\"\\ud83d\\ude4f\"", "\"\\ud800\"", "1", "-0", "1.5e3",
                         "true", "false", "null", "\"format\"", "\"days\"", "\"readings\"", "\"John 3:16\""]
        for _ in 0..<Self.iterations {
            let input = generator.text(from: fragments, maxPieces: 30)
            guard let value = try? JSON(parsing: input) else { continue }
            #expect((try? JSON(parsing: value.text)) == value, "\(input.debugDescription) wrote \(value.text.debugDescription)")
        }
        // Depth is bounded: a deep document is refused, not a stack overflow.
        #expect(throws: JSON.ParseError.self) { try JSON(parsing: String(repeating: "[", count: 1_000_000)) }
    }

    @Test func reminderSpecParser() {
        var generator = HostileText(seed: 6)
        let fragments = ["07:30", "7:30", "24:00", "23:59", "mon", "Monday", "wed", "fri", ",", " ", "-", "weekdays", "weekends",
                         "daily", "sun", "1st", "2nd", "31st", "32nd", "0th", "2027-05-01", "2026-02-29", "18:00", "every", "at"]
        for _ in 0..<Self.iterations {
            let input = generator.text(from: fragments, maxPieces: 6)
            do {
                let spec = try ReminderSpec(parsing: input)
                // The canonical text reads back as the same reminder.
                #expect((try? ReminderSpec(parsing: spec.description)) == spec, "\(input.debugDescription) → \(spec)")
            } catch {
                #expect(!error.message.isEmpty)
            }
        }
    }

    @Test func importFileReader() {
        var generator = HostileText(seed: 7)
        let fragments = [#"{"format": "manna-export", "version": 1"#, "}", #", "notes": ["#, "]", ",", "{", #""uuid": "1b4e28ba-2fa1-4d2b-883f-0016d3cca427""#,
                         #""short_id": "ab12""#, #""verse_id": 43003016"#, #""verse_id": 99999999"#, #""text": "x""#, #""reference": "John 3:16""#,
                         #""created_at": "2026-01-01T00:00:00Z""#, #""updated_at": 5"#, #""deleted_at": null"#, #", "prayers": ["#, ":", "null"]
        for _ in 0..<Self.iterations {
            do { _ = try ImportFile(parsing: generator.text(from: fragments, maxPieces: 16), file: "import.json") } catch {
                #expect(error.message.hasPrefix("import.json"), "\(error.message)")
            }
        }
    }

    @Test func planFiles() {
        var generator = HostileText(seed: 5)
        let fragments = ["{\"format\": 1, \"id\": \"x\", \"name\": \"X\", \"description\": \"\", \"days\": [",
                         "{\"day\": 1, \"readings\": [", "\"John 3\"", "\"Hezekiah 1\"", "]}", "]}", ",", "\"day\": 2", "null"]
        for _ in 0..<Self.iterations {
            do { _ = try Plan(json: generator.text(from: fragments, maxPieces: 8), file: "plan.json") } catch {
                #expect(error.message.hasPrefix("plan.json: "))
            }
        }
    }
}
