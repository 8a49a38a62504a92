// The interface in the reader's language: how the language is chosen, the named placeholders,
// plurals the gettext way, and the main commands and a tick under es_ES.UTF-8 with no English
// message left (po/es.po through glibc's gettext, the catalogue compiled from the checkout).
import Foundation
@testable import MannaKit
import TestSupport
import Testing

@testable import MannaApp

/// The checkout's catalogues, compiled from po/ as a checkout's manna compiles them.
enum SpanishCatalogue {
    static let directory: String? = MessageCatalogues.locate(environment: .process, executablePath: BuiltTexts.root + "/.build/debug/manna")

    /// Whether glibc has the locale (Debian: the locales package, es_ES.UTF-8 generated).
    static let localeInstalled: Bool = {
        guard let locale = newlocale(LC_MESSAGES_MASK, "es_ES.UTF-8", nil) else { return false }
        freelocale(locale)
        return true
    }()

    /// The Spanish tests run where the locale is installed, and under MANNA_REQUIRE_ALL_TESTS=1
    /// (CI) always, failing where it is missing rather than passing unseen.
    static let runs = localeInstalled || ProcessInfo.processInfo.environment["MANNA_REQUIRE_ALL_TESTS"] == "1"

    static var messages: Messages { Messages(locale: "es_ES.UTF-8", catalogues: { directory }) }

    /// Every message of po/manna.pot, singular and plural, with what es.po makes of it.
    static let catalogue: [(english: String, spanish: String)] = {
        let text = (try? String(contentsOfFile: BuiltTexts.root + "/po/es.po", encoding: .utf8)) ?? ""
        var pairs: [(String, String)] = []
        for entry in text.components(separatedBy: "\n\n") {
            // Each field's string, its continuation lines joined: msgid, msgid_plural, msgstr[0]...
            var fields: [(key: String, value: String)] = []
            for line in entry.split(separator: "\n") where !line.hasPrefix("#") {
                guard let quote = line.firstIndex(of: "\"") else { continue }
                let value = String(line[line.index(after: quote)..<line.index(before: line.endIndex)])
                    .replacingOccurrences(of: "\\\"", with: "\"").replacingOccurrences(of: "\\n", with: "\n")
                if line.hasPrefix("\"") { fields[fields.count - 1].value += value } else { fields.append((String(line[..<quote]).trimmingCharacters(in: .whitespaces), value)) }
            }
            let english = fields.filter { $0.key.hasPrefix("msgid") }.map(\.value)
            let spanish = fields.filter { $0.key.hasPrefix("msgstr") }.map(\.value)
            guard let first = english.first, !first.isEmpty else { continue }
            for (index, id) in english.enumerated() { pairs.append((id, index < spanish.count ? spanish[index] : "")) }
        }
        return pairs
    }()

    /// The English of a message left in `output`: the words of a message between its
    /// placeholders, where they are four words or more and Spanish says them otherwise.
    static func englishLeft(in output: String) -> [String] {
        var left: [String] = []
        for (english, spanish) in catalogue where english != spanish {
            for piece in english.split(separator: "{").map({ $0.split(separator: "}").last.map(String.init) ?? "" })
            where piece.split(separator: " ").count >= 4 && !spanish.contains(piece) && output.contains(piece) {
                left.append(piece)
            }
        }
        return left
    }
}

@Suite struct LanguageTests {
    // MARK: Which language

    @Test func theLocaleOfMessagesIsLcAllThenLcMessagesThenLang() {
        #expect(Messages.localeName(["LANG": "es_ES.UTF-8"]) == "es_ES.UTF-8")
        #expect(Messages.localeName(["LANG": "es_ES.UTF-8", "LC_MESSAGES": "en_GB.UTF-8"]) == "en_GB.UTF-8")
        #expect(Messages.localeName(["LANG": "en_US.UTF-8", "LC_MESSAGES": "en_GB.UTF-8", "LC_ALL": "es_MX.UTF-8"]) == "es_MX.UTF-8")
        #expect(Messages.localeName(["LANG": "", "LC_ALL": ""]) == "C")
        #expect(Messages.localeName([:]) == "C")
    }

    @Test func englishAndTheCLocaleNeverOpenACatalogue() {
        for environment: Environment in [[:], ["LANG": "C"], ["LANG": "POSIX"], ["LANG": "C.UTF-8"], ["LANG": "en_US.UTF-8"],
                                         ["LC_ALL": "C.UTF-8", "LANGUAGE": "es"], ["LANG": "es_ES.UTF-8", "LANGUAGE": "en_GB:es"]] {
            let messages = Messages(environment: environment) {
                Issue.record("a catalogue was looked for under \(environment.entries)")
                return nil
            }
            #expect(messages.locale == nil, "\(environment.entries)")
            #expect(messages.language == "en")
            #expect(messages.text("While you were away") == "While you were away")
        }
        #expect(Messages(environment: ["LANG": "es_ES.UTF-8"]) { nil }.language == "es")
        // LANGUAGE chooses the language under any locale but C; glibc reads it itself.
        let languageFirst = Messages(environment: ["LANG": "en_US.UTF-8", "LANGUAGE": "es:en"]) { nil }
        #expect(languageFirst.locale == "en_US.UTF-8" && languageFirst.language == "es")
    }

    @Test func aTextKeepsItsOwnLanguageForItsNotes() {
        #expect(Messages.english.forText(language: "es").locale == "es_ES.UTF-8")
        #expect(Messages.english.forText(language: "en").locale == nil)
        let mexican = Messages(locale: "es_MX.UTF-8", catalogues: { nil })
        #expect(mexican.forText(language: "es").locale == "es_MX.UTF-8")
        #expect(mexican.forText(language: "en").locale == nil)
    }

    @Test(.enabled(if: SpanishCatalogue.runs)) func aNoteInsideAPassageIsInTheTextsLanguage() throws {
        try #require(SpanishCatalogue.localeInstalled, "es_ES.UTF-8 is not installed (Debian: apt-get install locales; locale-gen es_ES.UTF-8)")
        let moved = PassageVerse(id: VerseID(book: 4, chapter: 13, verse: 33), text: nil, textIn: VerseID(book: 4, chapter: 13, verse: 32))
        let lost = PassageVerse(id: VerseID(book: 4, chapter: 13, verse: 33), text: nil, lostBySource: true)
        // The reader's language English, the text Spanish; the reader's Spanish, the text English.
        let englishReader = Messages(locale: nil, catalogues: { SpanishCatalogue.directory })
        Messages.withCurrent(englishReader) {
            #expect(PassageFormatter.text(of: moved, in: "RV1909", language: "es") == "[su texto está en Números 13:32]")
            #expect(PassageFormatter.text(of: lost, in: "RV1909", language: "es") == "[falta en la fuente de esta edición]")
        }
        Messages.withCurrent(SpanishCatalogue.messages) {
            #expect(PassageFormatter.text(of: moved, in: "KJV", language: "en") == "[its text is in Numbers 13:32]")
            #expect(PassageFormatter.text(of: moved, in: "RV1909", language: "es") == "[su texto está en Números 13:32]")
        }
    }

    // MARK: Placeholders and plurals

    @Test func namedPlaceholdersAreFilledWhereverTheTranslationPutsThem() {
        #expect(Messages.filling("{book} has only {count} chapters", [("book", "John"), ("count", 21)]) == "John has only 21 chapters")
        #expect(Messages.filling("{count} capítulos tiene {book}; {book}", [("book", "Juan"), ("count", 21)]) == "21 capítulos tiene Juan; Juan")
        // A name with no argument stays as written; a lone brace is text.
        #expect(Messages.filling("{missing} and {", [("book", "John")]) == "{missing} and {")
        #expect(Messages.filling("no braces", []) == "no braces")
    }

    @Test func englishPluralsAreOneAndTheRest() {
        Messages.withCurrent(.english) {
            #expect(trn("{count} day behind", "{count} days behind", count: 1) == "1 day behind")
            #expect(trn("{count} day behind", "{count} days behind", count: 0) == "0 days behind")
            #expect(trn("{count} day behind", "{count} days behind", count: 2) == "2 days behind")
        }
    }

    @Test(.enabled(if: SpanishCatalogue.runs)) func spanishPluralsFollowTheCataloguesRule() throws {
        try #require(SpanishCatalogue.localeInstalled, "es_ES.UTF-8 is not installed (Debian: apt-get install locales; locale-gen es_ES.UTF-8)")
        Messages.withCurrent(SpanishCatalogue.messages) {
            #expect(trn("{count} day behind", "{count} days behind", count: 1) == "1 día de retraso")
            #expect(trn("{count} day behind", "{count} days behind", count: 2) == "2 días de retraso")
            #expect(trn("{count} day behind", "{count} days behind", count: 0) == "0 días de retraso")
            #expect(tr("While you were away") == "Mientras no estaba")
            #expect(Messages.current.date(LocalDate(year: 2026, month: 3, day: 7)) == "sábado 7 de marzo de 2026")
        }
        #expect(Messages.english.date(LocalDate(year: 2026, month: 3, day: 7)) == "2026-03-07")
    }

    // MARK: A Spanish reader

    @Test func everyMessageIsTranslatedAndKeepsItsPlaceholders() throws {
        let pot = try String(contentsOfFile: BuiltTexts.root + "/po/manna.pot", encoding: .utf8)
        let ids = pot.split(separator: "\n").filter { $0.hasPrefix("msgid ") || $0.hasPrefix("msgid_plural ") }.count - 1
        #expect(SpanishCatalogue.catalogue.count == ids)
        func names(_ text: String) -> Set<String> {
            Set(text.split(separator: "{", omittingEmptySubsequences: false).dropFirst()
                .compactMap { $0.split(separator: "}", omittingEmptySubsequences: false).first.map(String.init) })
        }
        for (english, spanish) in SpanishCatalogue.catalogue {
            #expect(!spanish.isEmpty, "no Spanish for \(english)")
            #expect(names(spanish) == names(english), "\(english) -> \(spanish)")
        }
    }

    @Test(.enabled(if: SpanishCatalogue.runs)) func theMainCommandsSpeakSpanish() throws {
        try #require(SpanishCatalogue.localeInstalled, "es_ES.UTF-8 is not installed (Debian: apt-get install locales; locale-gen es_ES.UTF-8)")
        let home = try TestHome()
        home.variables = ["LANG": "es_ES.UTF-8", "MANNA_LOCALEDIR": try #require(SpanishCatalogue.directory)]
        home.clock = Clock.fixed(instant("2026-06-01T06:00:00Z"))
        var seen = ""
        func run(_ arguments: String..., status: Int32 = 0) -> Outcome {
            let outcome = home.run(arguments)
            #expect(outcome.status == status, "\(arguments): \(outcome.stderr)")
            seen += outcome.stdout + outcome.stderr
            return outcome
        }
        // Errors of references and reading, with the Spanish book name.
        #expect(run("read", "Juan", "22:1", status: 65).stderr == "manna: Juan solo tiene 21 capítulos\n")
        #expect(run("read", "John", "3:40", status: 65).stderr == "manna: Juan 3 solo tiene 36 versículos\n")
        #expect(run("read", "Jhon", "3:16", status: 65).stderr == "manna: ningún libro se llama 'Jhon'; ¿quiso decir 'John'?\n")
        #expect(run("read", "John 3:16", "--translation", "XX", status: 64).stderr.hasPrefix("manna: traducción desconocida 'XX': elija una de KJV, "))
        #expect(run("today", "--date", "2026-13-01", status: 64).stderr.contains("--date debe ser una fecha AAAA-MM-DD"))
        #expect(run("read", "Juan 3:16").stdout.hasPrefix("Juan 3:16 (RV1909)\n"))
        #expect(run("today", "--date", "2026-12-25").stdout.hasPrefix("Luke 2:10-11 (KJV)\n"))
        #expect(run("search", "qwertyuiop", status: 1).stderr == "manna: ningún versículo de la KJV coincide con 'qwertyuiop'\n")
        // Prayers.
        #expect(run("pray", "list").stdout == "no hay oraciones abiertas; añada una con: manna pray add TÍTULO\n")
        let added = run("pray", "add", "Por Ana", "--remind", "07:30", "--now", "2026-06-01T06:00").stdout
        #expect(added.hasPrefix("añadida ") && added.hasSuffix(": Por Ana (avisos: 07:30)\n"))
        let id = String(added.dropFirst("añadida ".count).prefix { $0 != ":" })
        #expect(run("pray", "show", id).stdout.contains("\nañadida    lunes 1 de junio de 2026 06:00\norada      todavía no\n"))
        #expect(run("pray", "prayed", id, "--now", "2026-06-01T06:10").stdout == "orada \(id): Por Ana (una vez)\n")
        #expect(run("pray", "today", "--date", "2026-06-01").stdout.hasPrefix("lunes 1 de junio de 2026: 1 de 1 oración abierta\n"))
        // A reading plan.
        #expect(run("plan", "start", "nt-90", "--from", "2026-05-30").stdout
            == "empezado The New Testament in 90 Days (90 días), el día 1 es el sábado 30 de mayo de 2026\n")
        #expect(run("plan", "today", "--date", "2026-06-01").stdout == "The New Testament in 90 Days, Día 1 de 90: Mateo 1-4\n")
        #expect(run("plan", "status").stdout.hasPrefix("The New Testament in 90 Days: día 1 de 90, 0 leídos (0%), 2 días de retraso, racha de 0 días\n"))
        // The tick's notifications: the reminder's buttons, and what was missed while away.
        home.tick("2026-06-01T07:30")
        let reminder = try #require(home.notifier.shown.last)
        #expect(reminder.summary == "Por Ana" && reminder.actions.map(\.label) == ["Orada", "Posponer 10 min"])
        _ = run("pray", "add", "Por Luis", "--remind", "08:00", "--now", "2026-06-01T07:40")
        home.tick("2026-06-03T07:00")
        let missed = try #require(home.notifier.shown.last)
        #expect(missed.summary == "Mientras no estaba")
        #expect(missed.body == "Por Ana (ayer 07:30)\nPor Luis (ayer 08:00)", "\(missed.body)")
        let doctor = home.run("doctor")
        seen += doctor.stdout + doctor.stderr
        #expect(doctor.stdout.contains("bien  zona horaria: UTC\n") && doctor.stdout.contains("plan de lectura: The New Testament in 90 Days (nt-90)\n"))
        #expect(doctor.stderr.hasPrefix("manna: fallaron "))
        seen += home.notifier.lines.joined(separator: "\n")
        #expect(SpanishCatalogue.englishLeft(in: seen).isEmpty, "English left: \(SpanishCatalogue.englishLeft(in: seen))")
    }

    @Test func underEnglishAndCNothingChanges() throws {
        for lang in ["en_US.UTF-8", "C", "C.UTF-8"] {
            let home = try TestHome()
            home.variables = ["LANG": lang]
            #expect(home.run("read", "Juan", "22:1").stderr == "manna: John has only 21 chapters\n")
            #expect(home.run("pray", "list").stdout == "no open prayers; add one with: manna pray add TITLE\n")
        }
    }
}
