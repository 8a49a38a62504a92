import Testing
@testable import MannaKit

@Suite struct JSONTests {
    @Test func writesCompactAndPrettyTextInKeyOrder() {
        let value = JSON.object([("b", .int(1)), ("a", .array([.string("x\"\n\u{1}"), .null, .bool(true), .number(1.5)]))])
        #expect(value.text == #"{"b":1,"a":["x\"\n\u0001",null,true,1.5]}"#)
        #expect(value.prettyText == "{\n  \"b\": 1,\n  \"a\": [\n    \"x\\\"\\n\\u0001\",\n    null,\n    true,\n    1.5\n  ]\n}")
    }

    @Test func readsWhatItWrites() throws {
        let value = JSON.object([("text", .string("Jesús “wept” 🙏 \u{2028}")), ("n", .int(-42)), ("e", .object([]))])
        #expect(try JSON(parsing: value.text) == value)
        #expect(try JSON(parsing: value.prettyText) == value)
        #expect(try JSON(parsing: #""\ud83d\ude4f""#) == .string("🙏"))
    }

    @Test(arguments: ["", "{", "[1,]", "{\"a\" 1}", "01", "1.", "tru", "\"\u{1}\"", "\"\\x\"", "\"\\ud800\"", "[1] 2",
                      String(repeating: "[", count: 100_000), "{\"a\":1,}", "nul", "-", "\"unterminated", "1e999", String(repeating: "9", count: 400)])
    func rejectsWhatIsNotJSON(text: String) {
        #expect(throws: JSON.ParseError.self) { try JSON(parsing: text) }
    }
}
