import Testing
@testable import MannaKit

/// References as Spanish Bibles and lectionaries write them (issue 29): "chapter, verse" with a
/// comma and a space, "S. Juan", "Stgo", and the Spanish forms winning where a Spanish
/// translation is chosen.
@Suite struct SpanishReferenceTests {
    /// With no translation chosen: what is read, and the language the reference is in ("es"
    /// when a book is named as only Spanish names it, so that it reads in a Spanish translation).
    @Test(arguments: [
        // The forms of the issue: a comma and a space between chapter and verse.
        ("Mt 5, 3-12", "Matthew 5:3-12", nil),
        ("Jn 3, 16", "John 3:16", nil),
        ("Sal 23, 1", "Psalm 23:1", "es"),
        ("1 Co 13, 4-7", "1 Corinthians 13:4-7", nil),
        ("Is 53, 5", "Isaiah 53:5", nil),
        ("Ap 21, 1-4", "Revelation 21:1-4", "es"),
        ("Gn 1, 1", "Genesis 1:1", nil),
        ("Lc 15, 11-32", "Luke 15:11-32", "es"),
        ("Ro 8, 28", "Romans 8:28", nil),
        ("Hch 2, 38", "Acts 2:38", "es"),
        // Without the space, or with several.
        ("Mt 5,3-12", "Matthew 5:3-12", nil),
        ("Hch 2,  38", "Acts 2:38", "es"),
        // Across chapters, and chapters after a ";".
        ("Mt 5, 3-7, 2", "Matthew 5:3-7:2", nil),
        ("Jn 3, 16; 4, 1", "John 3:16; 4:1", nil),
        ("Juan 3, 16; 1 Jn 4, 8", "John 3:16; 1 John 4:8", "es"),
        // In a book of one chapter the comma is chapter and verse too.
        ("Jds 1, 3", "Jude 1:3", "es"),
        // Names as Spanish Bibles print them.
        ("Juan 3:16", "John 3:16", "es"),
        ("S. Juan 3:16", "John 3:16", "es"),
        ("San Mateo 5:14", "Matthew 5:14", "es"),
        ("S. Lucas 2, 11", "Luke 2:11", "es"),
        ("Stgo 1:5", "James 1:5", "es"),
        ("Santiago 1, 5", "James 1:5", "es"),
        ("Éxodo 20, 1-17", "Exodus 20:1-17", "es"),
        ("Exodo 20:3", "Exodus 20:3", "es"),
        ("Qo 3, 1", "Ecclesiastes 3:1", "es"),
        // English forms stay English: a list of chapters, Micah, KJV.
        ("Ps 23, 24", "Psalm 23; 24", nil),
        ("Psalm 1, 2", "Psalm 1; 2", nil),
        ("Gen 1, 2", "Genesis 1; 2", nil),
        ("Jude 1, 3", "Jude 1:1, 3", nil),
        ("Mc 6:8", "Micah 6:8", nil),
        ("Jn 3:16", "John 3:16", nil),
        ("John 3:16, 18", "John 3:16, 18", nil),
    ] as [(String, String, String?)])
    func readsWithNoTranslationChosen(typed: String, canonical: String, language: String?) throws {
        let read = try Reference.reading(typed, language: nil)
        #expect(read.reference.description == canonical)
        #expect(read.language == language)
    }

    /// With a Spanish translation chosen: Spanish forms win, and every comma between numbers is
    /// chapter and verse.
    @Test(arguments: [
        ("Mc 1:1", "Mark 1:1"),
        ("Mc 1, 1", "Mark 1:1"),
        ("Ez 36:26", "Ezekiel 36:26"),
        ("So 1:1", "Zephaniah 1:1"),
        ("Gen 1, 2", "Genesis 1:2"),
        ("Rom 8, 28", "Romans 8:28"),
        ("Jn 3:16", "John 3:16"),
        ("Jud 1, 3", "Jude 1:3"),
        ("Sal 23", "Psalm 23"),
        ("Mateo 5", "Matthew 5"),
        ("Mt 5, 3-12; 6, 9-13", "Matthew 5:3-12; 6:9-13"),
        // English names are still read.
        ("John 3:16", "John 3:16"),
        ("Revelation 21:1", "Revelation 21:1"),
    ])
    func readsInSpanish(typed: String, canonical: String) throws {
        let read = try Reference.reading(typed, language: "es")
        #expect(read.reference.description == canonical)
        #expect(read.language == "es")
        #expect(try Reference(parsing: typed, language: "es") == read.reference)
    }

    /// What cannot be meant is refused with one line, never guessed, and the names suggested
    /// are Spanish where the reference is read in Spanish.
    @Test(arguments: [
        ("Sal 23, 24", nil, "Psalm 23 has only 6 verses"),
        ("Juan 3, 16, 18", nil, "cannot read 'Juan 3, 16, 18' as a reference: write it like 'John 3:16', 'John 3:16-18, 20' or 'Ps 23'"),
        ("Jds 3, 5", nil, "Jude has only 1 chapter"),
        ("Ez 36:26", nil, "'Ez' could be Ezra or Ezekiel: type more of the name"),
        ("Es 1:1", "es", "'Es' could be Esdras or Ester: type more of the name"),
        ("Stgoo 1:5", "es", "no book called 'Stgoo'; did you mean 'Santiago'?"),
        ("Jaun 3:16", "es", "no book called 'Jaun'; did you mean 'Juan'?"),
        ("Jhon 3:16", nil, "no book called 'Jhon'; did you mean 'John'?"),
        ("Stgoo 1:5", nil, "no book called 'Stgoo'"),
        // Micah's abbreviation in English, Marcos's in Spanish, written the Spanish way.
        ("Mc 1, 1-8", nil, "'Mc' could be Micah or Marcos: type more of the name"),
        ("Hb 11, 1", nil, "'Hb' could be Habakkuk or Hebreos: type more of the name"),
    ] as [(String, String?, String)])
    func refusesWhatIsUnclear(typed: String, language: String?, message: String) {
        #expect(throws: ReferenceError.self) { try Reference.reading(typed, language: language) }
        do {
            _ = try Reference.reading(typed, language: language)
        } catch {
            #expect(error.message == message)
        }
    }

    /// The Spanish table answers first in Spanish, the English one otherwise.
    @Test func theLanguageChoosesTheTableAskedFirst() {
        let micah = Canon.books[32], mark = Canon.books[40]
        #expect(Canon.lookup("Mc") == .found(micah))
        #expect(Canon.lookup("Mc", language: "es") == .found(mark))
        #expect(Canon.lookup("Marcos") == .found(mark))
        #expect(Canon.find("Marcos", language: nil).language == "es")
        #expect(Canon.find("Mk", language: "es").language == "en")
        #expect(Canon.spanishSpelling("Jn") == Canon.books[42] && Canon.spanishSpelling("Génesis") == Canon.books[0])
        #expect(Canon.spanishSpelling("Mc") == mark)
        #expect(Canon.spanishSpelling("Gen") == nil && Canon.spanishSpelling("Rom") == nil && Canon.spanishSpelling("John") == nil)
    }
}
