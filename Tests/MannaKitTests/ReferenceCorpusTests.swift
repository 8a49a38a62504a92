import Foundation
import TestSupport
import Testing
@testable import MannaKit

/// References as people write them (sermon notes, footnotes, lectionaries, OSIS, other tools'
/// docs, what is pasted from web pages), each with the passage a careful reader means or
/// "refuse" (issue 14, point 1): Fixtures/reference-corpus.tsv, `input<TAB>expected<TAB>source`.
/// Fixtures/reference-corpus-es.tsv holds Spanish ones in the same form (issue 29), read as for
/// a Spanish translation. `tools/check-reference-corpus` runs the same lines through the built
/// `manna read` (`--translation RV1909` for the Spanish ones).
struct CorpusLine: Sendable {
    let line: Int
    let input: String
    let expected: String
    let source: String

    var refuses: Bool { expected == "refuse" }

    static func load(_ file: String = "reference-corpus.tsv") throws -> [CorpusLine] {
        let path = BuiltTexts.root + "/Tests/MannaKitTests/Fixtures/" + file
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "input\texpected\tsource")
        var corpus: [CorpusLine] = []
        for (index, line) in lines.enumerated().dropFirst() where !(line.isEmpty && index == lines.count - 1) {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            try #require(fields.count == 3, "line \(index + 1) has \(fields.count) fields, not 3")
            corpus.append(CorpusLine(line: index + 1, input: fields[0], expected: fields[1], source: fields[2]))
        }
        return corpus
    }

    /// What Manna makes of the input: the canonical reference, or the refusal's message.
    /// `manna read` takes a translation written after the reference ("John 3:16 KJV",
    /// "John 3:16 (WEB)") off before parsing (PassageInput.trailingTranslation); so does this.
    /// `language` is that of the translation chosen, nil when none is.
    func outcome(language: String? = nil) -> Result<String, ReferenceError> {
        Result { () throws(ReferenceError) in try Reference(parsing: Self.withoutTranslation(input), language: language).description }
    }

    static let translations = ["KJV", "ASV", "WBS", "WEB", "RV1909"]

    static func withoutTranslation(_ text: String) -> String {
        var trimmed = text.trimmingSpaces
        let parenthesized = trimmed.hasSuffix(")")
        if parenthesized { trimmed.removeLast() }
        guard let space = trimmed.lastIndex(where: { $0 == " " || (parenthesized && $0 == "(") }) else { return text }
        let word = String(trimmed[trimmed.index(after: space)...]).uppercased()
        guard translations.contains(word) else { return text }
        var rest = String(trimmed[..<space])
        if parenthesized {
            guard rest.hasSuffix("(") || trimmed[space] == "(" else { return text }
            if rest.hasSuffix("(") { rest.removeLast() }
        }
        return rest.trimmingSpaces
    }
}

@Suite struct ReferenceCorpusTests {
    /// Every line gives its passage or is refused, never another passage. Each line that does
    /// not is one issue naming its input, what was expected and what Manna made of it.
    @Test func everyReferenceReadsAsMeant() throws {
        try expectEveryLineReadsAsMeant(in: "reference-corpus.tsv", language: nil)
    }

    /// The Spanish corpus, read as for a Spanish translation (RV1909, or one chosen in config).
    @Test func everySpanishReferenceReadsAsMeant() throws {
        try expectEveryLineReadsAsMeant(in: "reference-corpus-es.tsv", language: "es")
    }

    /// The Spanish corpus with no translation chosen: each line is read as meant or refused,
    /// but for the lines here, whose book English names so too ("Mc 6:8" is Micah in the
    /// English corpus; "Es" is Esther, and its comma then lists chapters).
    @Test func theSpanishCorpusWithNoTranslationChosenIsReadOrRefused() throws {
        let readAsEnglish = ["Mc 1:1": "Micah 1:1", "Es 1, 1": "Esther 1; 1"]
        for entry in try CorpusLine.load("reference-corpus-es.tsv") {
            guard case .success(let reference) = entry.outcome() else { continue }
            let meant = readAsEnglish[entry.input] ?? entry.expected
            #expect(reference == meant, "reference-corpus-es.tsv:\(entry.line) \(Self.shown(entry.input)) read as \(reference) with no translation chosen")
        }
    }

    private func expectEveryLineReadsAsMeant(in file: String, language: String?) throws {
        let corpus = try CorpusLine.load(file)
        var passed = 0
        for entry in corpus {
            let got: String
            let agrees: Bool
            switch entry.outcome(language: language) {
            case .success(let reference):
                got = reference
                agrees = !entry.refuses && reference == entry.expected
            case .failure(let error):
                got = "refused: \(error.message)"
                agrees = entry.refuses
            }
            if agrees {
                passed += 1
            } else {
                let kind = entry.refuses ? "read, not refused" : got.hasPrefix("refused: ") ? "refused" : "wrong passage"
                Issue.record("\(file):\(entry.line) [\(kind)] input \(Self.shown(entry.input)), expected \(entry.expected), got \(got) (\(entry.source))")
            }
        }
        let summary = "\(file): \(passed) of \(corpus.count) lines read as meant"
        print(summary)
        #expect(passed == corpus.count, "\(summary)")
    }

    /// The corpus itself: big enough, each input once, and each expected passage written the
    /// way Manna prints it (it reads back as itself).
    @Test(arguments: [("reference-corpus.tsv", 500, 50), ("reference-corpus-es.tsv", 200, 20)])
    func theCorpusIsWellFormed(file: String, lines: Int, refusals: Int) throws {
        let corpus = try CorpusLine.load(file)
        #expect(corpus.count >= lines)
        #expect(corpus.filter(\.refuses).count >= refusals)
        var seen: Set<String> = []
        for entry in corpus {
            #expect(seen.insert(entry.input).inserted, "line \(entry.line): \(Self.shown(entry.input)) is listed twice")
            #expect(!entry.source.isEmpty, "line \(entry.line) names no source")
            guard !entry.refuses else { continue }
            let canonical = Result { () throws(ReferenceError) in try Reference(parsing: entry.expected).description }
            #expect(canonical == .success(entry.expected), "line \(entry.line): expected \(entry.expected) is not canonical")
        }
        // Every book of the canon appears among the passages.
        let books = Set(corpus.compactMap { try? Reference(parsing: $0.expected) }.flatMap { $0.ranges.map(\.first.book) })
        #expect(books.count == Canon.books.count, "books missing: \(Canon.books.filter { !books.contains($0.number) }.map(\.name))")
    }

    /// The input with invisible and unusual characters spelled out ("John\u{a0}3:16").
    static func shown(_ text: String) -> String {
        var out = "'"
        for scalar in text.unicodeScalars {
            if scalar.isASCII && scalar.value >= 0x20 && scalar.value < 0x7F || scalar.properties.isAlphabetic || "–—‘’“”".unicodeScalars.contains(scalar) {
                out.unicodeScalars.append(scalar)
            } else {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            }
        }
        return out + "'"
    }
}
