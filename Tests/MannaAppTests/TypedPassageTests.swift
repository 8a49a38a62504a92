// A passage as the user types it reads the same in every command (PassageInput): in the
// language of the translation chosen, shown in the translation it names or implies.
import TestSupport
import Testing
@testable import MannaApp
@testable import MannaKit

@Suite struct TypedPassageTests {
    /// "Mc 1:1" is Micah to an English reader and Marcos (Mark) to a reader of the RV1909,
    /// whichever command takes the passage; "Ez" is Ezekiel in both.
    @Test(arguments: [
        (["note", "add", "Mc 1:1", "growth"], ["note", "list", "--json"]),
        (["highlight", "Mc 1:1"], ["highlight", "list", "--json"]),
        (["bookmark", "add", "Mc 1:1"], ["bookmark", "list", "--json"]),
    ])
    func marksReadAReferenceInTheChosenTranslationsLanguage(add: [String], list: [String]) throws {
        for (chosen, book) in [(nil, "Micah"), ("RV1909", "Mark"), ("KJV", "Micah")] as [(String?, String)] {
            let home = try TestHome(config: chosen.map { "translation = \($0)\n" })
            let added = home.run(add)
            #expect(added.status == 0, "\(added.stderr)")
            let listed = home.run(list)
            #expect(listed.stdout.contains("\"reference\":\"\(book) 1:1\""), "\(add) with \(chosen ?? "none chosen"): \(listed.stdout)")
            // The list of one passage reads it the same way.
            #expect(home.run(list.dropLast() + ["Mc 1"]).stdout.contains("\(book) 1:1"), "\(list) Mc 1")
        }
    }

    @Test func compareReadsAReferenceInTheChosenTranslationsLanguage() throws {
        let home = try TestHome()
        #expect(home.run("compare", "Mc 1:1").stdout.hasPrefix("Micah 1:1 (KJV)\n"))
        home.variables["MANNA_TRANSLATION"] = "RV1909"
        let compared = home.run("compare", "Mc 1:1")
        #expect(compared.stdout.hasPrefix("Mark 1:1 (KJV)\n") && compared.stdout.contains("Marcos 1:1 (RV1909)\n"), "\(compared.stdout)")
    }

    /// read and listen take a typed passage the same way: the translation written after it, or
    /// chosen, or the one its language implies; two at once are refused.
    @Test func readAndListenShowATypedPassageInTheSameTranslation() throws {
        let home = try TestHome()
        let database = try TextDatabase(path: BuiltTexts.path)
        let context = home.context()
        for (words, option, reference, code) in [
            (["Juan", "3:16"], nil, "John 3:16", "RV1909"),
            (["John 3:16 WEB"], nil, "John 3:16", "WEB"),
            (["John 3:16", "(ASV)"], nil, "John 3:16", "ASV"),
            (["Mc 1:1"], "RV1909", "Mark 1:1", "RV1909"),
            (["Mc 1:1"], nil, "Micah 1:1", "KJV"),
        ] as [([String], String?, String, String)] {
            let typed = try PassageInput.typed(words, command: "listen", option: option, in: database, context)
            #expect("\(typed.reference)" == reference && typed.translation.code == code, "\(words) \(option ?? "")")
        }
        #expect(throws: Failure.usage("two translations: --translation KJV and WEB after the reference; give one")) {
            try PassageInput.typed(["John 3:16 WEB"], command: "listen", option: "KJV", in: database, context)
        }
        #expect(throws: Failure.usage("listen needs a reference, like 'manna listen John 3:16'")) {
            try PassageInput.typed([], command: "listen", option: nil, in: database, context)
        }
    }
}
