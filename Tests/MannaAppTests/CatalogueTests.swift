// A translation added as data alone: its text and one catalogue row, built by the real builder,
// is read, searched, named in help and completion, and read aloud in its language's voice,
// with no code changed (issue 26: "Adding a translation is its text plus one catalogue row").
import Foundation
import MannaKit
import TestSupport
import Testing

@testable import MannaApp

@Suite struct CatalogueTests {
    /// Tests/MannaAppTests/Fixtures/added-translation: `NUEVA.tsv`, four verses of a Spanish
    /// text, and `catalogue-row.tsv`, its row of translations.tsv.
    static let fixtures = BuiltTexts.root + "/Tests/MannaAppTests/Fixtures/added-translation"

    /// A curated/ holding the KJV as shipped and the fixture: translations.tsv is the shipped
    /// header and KJV row plus the fixture's row. The builder also wants a verse of the day for
    /// each of 366 days whole in every translation: John 3:16 each day, which both have.
    static func curated(in scratch: Scratch) throws -> String {
        let root = scratch.path + "/curated"
        let manager = FileManager.default
        try manager.createDirectory(atPath: root + "/translations/titles", withIntermediateDirectories: true)
        let shipped = BuiltTexts.root + "/curated/translations"
        let catalogue = try String(contentsOfFile: shipped + "/translations.tsv", encoding: .utf8).split(separator: "\n")
        let row = try String(contentsOfFile: fixtures + "/catalogue-row.tsv", encoding: .utf8)
        try (catalogue.prefix(2).joined(separator: "\n") + "\n" + row).write(toFile: root + "/translations/translations.tsv", atomically: true, encoding: .utf8)
        try manager.createSymbolicLink(atPath: root + "/translations/KJV.tsv", withDestinationPath: shipped + "/KJV.tsv")
        try manager.createSymbolicLink(atPath: root + "/translations/titles/KJV.tsv", withDestinationPath: shipped + "/titles/KJV.tsv")
        try manager.copyItem(atPath: fixtures + "/NUEVA.tsv", toPath: root + "/translations/NUEVA.tsv")
        let days = try String(contentsOfFile: BuiltTexts.root + "/curated/daily-verses.tsv", encoding: .utf8).split(separator: "\n").enumerated().map {
            $0.offset == 0 ? String($0.element) : $0.element.split(separator: "\t").prefix(2).joined(separator: "\t") + "\tJohn 3:16"
        }
        try (days.joined(separator: "\n") + "\n").write(toFile: root + "/daily-verses.tsv", atomically: true, encoding: .utf8)
        return root
    }

    @Test func aTranslationAddedAsDataIsReadSearchedListedAndSpokenInItsLanguage() throws {
        let scratch = try Scratch("catalogue")
        let database = scratch.path + "/bible.sqlite"
        try TextDatabaseBuilder.build(curatedDirectory: try Self.curated(in: scratch), outputPath: database) { _ in }
        let home = try TestHome()
        home.variables["MANNA_TEXT_DB"] = database

        // read and search, with the labels of its language
        #expect(home.run("read", "John 3:16", "-t", "NUEVA").stdout.hasPrefix("Juan 3:16 (NUEVA)\n16 Porque de tal manera amó Dios al mundo"))
        #expect(home.run("read", "Ps 23:1-2", "--translation", "nueva").stdout.hasPrefix("Salmo 23:1-2 (NUEVA)\n"))
        let search = home.run("search", "unigenito", "-t", "NUEVA")
        #expect(search.status == 0 && search.stdout.contains("Juan 3:16"), "\(search.stdout)\(search.stderr)")
        // help, the man page and completion
        let listed = "KJV or NUEVA (Spanish) (default: $MANNA_TRANSLATION, else the config's translation, else KJV)"
        for command in ["read", "search", "listen", "today"] {
            #expect(home.run(command, "--help").stdout.contains("--translation VALUE   " + listed + "\n"), "manna \(command) --help")
        }
        #expect(home.run("manpage", "manna").stdout.contains("aloud two public\\-domain translations (KJV in English, NUEVA in Spanish)"))
        #expect(home.run("manpage", "manna-config").stdout.contains("Allowed: a translation's code: KJV or NUEVA (Spanish).\n"))
        #expect(home.run("completions", "--complete", "--", "read", "-t", "").stdout == "KJV\tKing James Version\nNUEVA\tVersión nueva (a test fixture)\n")
        // the voice that reads it: its language's, unless --voice names another
        let context = Context(environment: home.environment, clock: home.clock, stdout: .captured(), stderr: .captured(), notifier: home.notifier,
                              executablePath: TestHome.manna, userID: 1000)
        let nueva = try context.translation("NUEVA", in: try context.openTextDatabase())
        #expect(Listening.voice(recording: nil, asked: nil, resume: nil, translation: nueva) == "es")
        #expect(Listening.voice(recording: nil, asked: "en-us", resume: nil, translation: nueva) == "en-us")
    }

    /// `listen` reads the RV1909 with its language's voice (it was en-us) unless `--voice`, or
    /// the listening resumed, names another (each translation's voice: `PlayerProtocolTests`).
    @Test func listeningChoosesTheTranslationsVoiceUnlessOneIsNamed() throws {
        let rv1909 = try BuiltTexts.database.translation(code: "RV1909")
        #expect(Listening.voice(recording: nil, asked: nil, resume: nil, translation: rv1909) == "es")
        #expect(Listening.voice(recording: nil, asked: "en-us", resume: nil, translation: rv1909) == "en-us", "--voice wins")
        let resumed = ListeningPosition(passage: "Juan 3", translation: "RV1909", verse: VerseID(rawValue: 43_003_016), voice: "es-419", rate: nil,
                                        updatedAt: 0)
        #expect(Listening.voice(recording: nil, asked: nil, resume: resumed, translation: rv1909) == "es-419")
    }
}
