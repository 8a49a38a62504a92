import Testing
@testable import MannaKit

/// What people type, and the canonical reference Manna reads it as.
let acceptedReferences: [(String, String)] = [
    // As people write them (issue 14, points 1 and 2): read as meant, never as another passage.
    ("Gen 1 1", "Genesis 1:1"),
    ("John 3 16", "John 3:16"),
    ("Ps 119 9", "Psalm 119:9"),
    ("Jude 1,3", "Jude 1:1, 3"),
    ("Philemon 1, 3", "Philemon 1:1, 3"),
    ("2 John 1,5", "2 John 1:1, 5"),
    ("3 John 1-4", "3 John 1:1-4"),
    ("Obad 1,5", "Obadiah 1:1, 5"),
    ("Jude 1", "Jude"),
    ("Rom 8:28.", "Romans 8:28"),
    ("John 3 v. 16", "John 3:16"),
    ("John 3 vv. 16-18", "John 3:16-18"),
    ("John 3, v 16", "John 3:16"),
    ("John 3:16a", "John 3:16"),
    ("John 3:16b-18a", "John 3:16-18"),
    ("John 3:16ff", "John 3:16-36"),
    ("John 3:16ff.", "John 3:16-36"),
    ("John 3:16f", "John 3:16-17"),
    ("Gen.1.1-Gen.1.3", "Genesis 1:1-3"),
    ("Gen.1.1", "Genesis 1:1"),
    ("John 3:16, 1 John 4:8", "John 3:16; 1 John 4:8"),
    ("John 3:16, Rom 8:28, 29", "John 3:16; Romans 8:28, 29"),
    // The forms the issue names.
    ("John 3:16", "John 3:16"), ("jn 3:16-18", "John 3:16-18"), ("John 3:16,18", "John 3:16, 18"),
    ("Ephesians 2:4,5", "Ephesians 2:4, 5"), ("Ps 23", "Psalm 23"), ("Gen 1:1-2:3", "Genesis 1:1-2:3"),
    ("1 Cor 13:4-7", "1 Corinthians 13:4-7"), ("Matthew 28:5,6; 24:44", "Matthew 28:5, 6; 24:44"),
    ("Romans 5:3-5", "Romans 5:3-5"),
    // Book names and abbreviations.
    ("Jno 3:16", "John 3:16"), ("Jhn 3:16", "John 3:16"), ("1 Jn 4:8", "1 John 4:8"), ("I John 4:8", "1 John 4:8"),
    ("1John 4:8", "1 John 4:8"), ("1 john 4:8", "1 John 4:8"), ("1st John 4:8", "1 John 4:8"),
    ("First John 4:8", "1 John 4:8"), ("II Timothy 3:16", "2 Timothy 3:16"), ("2Tim 3:16", "2 Timothy 3:16"),
    ("2 Tim. 3:16", "2 Timothy 3:16"), ("III John 1:4", "3 John 1:4"), ("Psalm 23:1", "Psalm 23:1"),
    ("Psalms 23:1", "Psalm 23:1"), ("Psa 119:105", "Psalm 119:105"), ("Pss 1", "Psalm 1"),
    ("Song of Solomon 2:4", "Song of Solomon 2:4"), ("Song of Songs 2:4", "Song of Solomon 2:4"),
    ("Canticles 2:4", "Song of Solomon 2:4"), ("Song 8:7", "Song of Solomon 8:7"), ("Rev 21:4", "Revelation 21:4"),
    ("Revelation of John 21:4", "Revelation 21:4"), ("Revelations 21:4", "Revelation 21:4"),
    ("Apocalypse 1:8", "Revelation 1:8"), ("Gen 1:1", "Genesis 1:1"), ("Gn 1:1", "Genesis 1:1"),
    ("Ex 20:3", "Exodus 20:3"), ("Exod 20:3", "Exodus 20:3"), ("Lev 19:18", "Leviticus 19:18"),
    ("Num 6:24-26", "Numbers 6:24-26"), ("Deut 6:4", "Deuteronomy 6:4"), ("Dt 6:4", "Deuteronomy 6:4"),
    ("Josh 1:9", "Joshua 1:9"), ("Judg 6:12", "Judges 6:12"), ("Ruth 1:16", "Ruth 1:16"),
    ("1 Sam 16:7", "1 Samuel 16:7"), ("1 Kgs 19:12", "1 Kings 19:12"), ("2 Ki 6:16", "2 Kings 6:16"),
    ("1 Chr 16:34", "1 Chronicles 16:34"), ("2 Chron 7:14", "2 Chronicles 7:14"), ("Neh 8:10", "Nehemiah 8:10"),
    ("Esth 4:14", "Esther 4:14"), ("Job 19:25", "Job 19:25"), ("Prov 3:5-6", "Proverbs 3:5-6"),
    ("Eccl 3:1", "Ecclesiastes 3:1"), ("Qoh 3:1", "Ecclesiastes 3:1"), ("Isa 40:31", "Isaiah 40:31"),
    ("Jer 29:11", "Jeremiah 29:11"), ("Lam 3:22-23", "Lamentations 3:22-23"), ("Ezek 36:26", "Ezekiel 36:26"),
    ("Dan 3:17", "Daniel 3:17"), ("Hos 6:6", "Hosea 6:6"), ("Joel 2:28", "Joel 2:28"), ("Amos 5:24", "Amos 5:24"),
    ("Jonah 2:9", "Jonah 2:9"), ("Mic 6:8", "Micah 6:8"), ("Nah 1:7", "Nahum 1:7"), ("Hab 3:17-18", "Habakkuk 3:17-18"),
    ("Zeph 3:17", "Zephaniah 3:17"), ("Hag 2:4", "Haggai 2:4"), ("Zech 4:6", "Zechariah 4:6"), ("Mal 3:10", "Malachi 3:10"),
    ("Mt 5:9", "Matthew 5:9"), ("Mk 10:45", "Mark 10:45"), ("Lk 2:11", "Luke 2:11"), ("Acts 1:8", "Acts 1:8"),
    ("Rom 8:28", "Romans 8:28"), ("Gal 5:22-23", "Galatians 5:22-23"), ("Eph 2:8-9", "Ephesians 2:8-9"),
    ("Phil 4:13", "Philippians 4:13"), ("Php 4:13", "Philippians 4:13"), ("Col 3:23", "Colossians 3:23"),
    ("1 Thess 5:16-18", "1 Thessalonians 5:16-18"), ("2 Thes 3:3", "2 Thessalonians 3:3"),
    ("1 Tim 6:6", "1 Timothy 6:6"), ("Titus 3:5", "Titus 3:5"), ("Heb 11:1", "Hebrews 11:1"),
    ("Jas 1:5", "James 1:5"), ("1 Pet 5:7", "1 Peter 5:7"), ("2 Pet 3:9", "2 Peter 3:9"),
    // Case, spaces, full stops, dashes and the British full stop.
    ("JOHN 3:16", "John 3:16"), ("john 3 : 16", "John 3:16"), ("  John 3:16  ", "John 3:16"),
    ("Jn. 3:16", "John 3:16"), ("John 3.16", "John 3:16"), ("John 3:16–18", "John 3:16-18"),
    ("John 3:16—18", "John 3:16-18"), ("John 3:16 - 18", "John 3:16-18"),
    // Chapters, chapter ranges, whole books.
    ("John 3", "John 3"), ("Ps 23-25", "Psalms 23-25"), ("Ps 23, 24", "Psalm 23; 24"), ("Gen 1-2:3", "Genesis 1:1-2:3"),
    ("John 3:1-36", "John 3"), ("Ruth", "Ruth"), ("Obadiah", "Obadiah"), ("Genesis 1-50", "Genesis"),
    ("John 3:16-4:2", "John 3:16-4:2"), ("Ps 119:105", "Psalm 119:105"),
    // One-chapter books: a number is a verse, except a lone 1, which is the chapter.
    ("Jude 3", "Jude 1:3"), ("Jude 1:3", "Jude 1:3"), ("Jude 1", "Jude"), ("Jude 3-5", "Jude 1:3-5"),
    ("Philemon 6", "Philemon 1:6"), ("3 John 4", "3 John 1:4"), ("Obad 15", "Obadiah 1:15"),
    // Lists.
    ("John 3:16,18,20", "John 3:16, 18, 20"), ("John 3:16-17, 19", "John 3:16-17, 19"),
    ("John 3:16; 1 John 4:8", "John 3:16; 1 John 4:8"), ("Rom 3:23; 6:23; 5:8", "Romans 3:23; 6:23; 5:8"),
    ("Ps 23; 121", "Psalm 23; 121"), ("John 3:16-4:2, 5", "John 3:16-4:2, 5"),
    ("Revelation 22:21", "Revelation 22:21"), ("Matthew 1:1", "Matthew 1:1"),
    // A list's trailing mark, as copied from a list (issue 14, points 1 and 2).
    ("John 3:16,", "John 3:16"), ("John 3:16;", "John 3:16"),
    // The continental comma: chapter,verse only with no space after it, in a book of chapters.
    ("Joh 3,16", "John 3:16"), ("Mt 5,3-12", "Matthew 5:3-12"), ("Mt 5,3-7,2", "Matthew 5:3-7:2"),
    ("Ps 23, 91", "Psalm 23; 91"), ("Jude 1,3", "Jude 1:1, 3"),
    // Ranges across books, one range for each book.
    ("Gen 50 - Exod 2", "Genesis 50; Exodus 1-2"), ("Gen 50:22-Exod 1:7", "Genesis 50:22-26; Exodus 1:1-7"),
    ("Gen 50 - Lev 1", "Genesis 50; Exodus; Leviticus 1"), ("Matthew–John", "Matthew; Mark; Luke; John"),
    ("Gen.1.1-Exod.1.3", "Genesis; Exodus 1:1-3"), ("Jude 3 - Rev 1", "Jude 1:3-25; Revelation 1"),
    ("1Cor.13.4-1Cor.13.7", "1 Corinthians 13:4-7"),
    // Words among the numbers.
    ("John chapter 3 verse 16", "John 3:16"), ("John ch. 3 v. 16", "John 3:16"), ("John 3 vs. 16", "John 3:16"),
    ("John 3:16 to 18", "John 3:16-18"), ("John 3:16 through 18", "John 3:16-18"), ("John 3:16 and 18", "John 3:16, 18"),
    ("Matthew 5 verses 3 to 12", "Matthew 5:3-12"), ("John 3:16 and Rom 8:28", "John 3:16; Romans 8:28"),
    ("Jude v. 3", "Jude 1:3"), ("Jude vv. 24-25", "Jude 1:24-25"), ("Jude v. 1", "Jude 1:1"),
    // Verse parts, f and ff, a chapter and a range of its verses.
    ("Rom 8:28a, 29b", "Romans 8:28, 29"), ("John 13:1-17, 31b-35", "John 13:1-17, 31-35"),
    ("Ps 24:1bc-2, 3-4ab", "Psalm 24:1-2, 3-4"), ("John 3:16 ff", "John 3:16-36"), ("Rom 8:28 f.", "Romans 8:28-29"),
    ("John 3 16-18", "John 3:16-18"), ("John 3 16 - 18", "John 3:16-18"),
    // Every dash, the marks around a quoted reference, the words before it, what a web page adds.
    ("John 3:16‒18", "John 3:16-18"), ("John 3:16―18", "John 3:16-18"), ("John 3:16−18", "John 3:16-18"),
    ("(John 3:16)", "John 3:16"), ("[Ps 23]", "Psalm 23"), ("“John 3:16.”", "John 3:16"), ("\"Rom 8:28\"", "Romans 8:28"),
    ("(John 3:16).", "John 3:16"), ("cf. Rom 8:28", "Romans 8:28"), ("See John 3:16.", "John 3:16"),
    ("St. Matthew 5:9", "Matthew 5:9"), ("Saint John 3:16", "John 3:16"), ("John 3:16; cf. Rom 8:28", "John 3:16; Romans 8:28"),
    ("John\u{a0}3:16", "John 3:16"), ("John ３：１６", "John 3:16"), ("\u{feff}John 3:16\u{200b}", "John 3:16"),
    ("Deu\u{ad}teronomy 6:4", "Deuteronomy 6:4"), ("Phil 4:13 🙏", "Philippians 4:13"), ("Phil 4:13 ❤️✨", "Philippians 4:13"), ("🙏 Phil 4:13", "Philippians 4:13"),
    ("see also Ps 23", "Psalm 23"),
    ("Jgs 6:12", "Judges 6:12"), ("Sg 2:4", "Song of Solomon 2:4"), ("Jms 1:5", "James 1:5"),
    // Chapters in roman numerals, nineteenth-century style.
    ("John iii. 16", "John 3:16"), ("Gen. i. 1", "Genesis 1:1"), ("Ps. xxiii.", "Psalm 23"), ("Matt. v. 3-12", "Matthew 5:3-12"),
    ("Phil. i. 3", "Philippians 1:3"), ("Gen. i. 1-ii. 3", "Genesis 1:1-2:3"), ("Ps. cxix. 105", "Psalm 119:105"),
    ("II Tim. iii. 16", "2 Timothy 3:16"), ("1 Ch 16:34", "1 Chronicles 16:34"),
    // Names whose letters could be roman numerals are still books.
    ("John 3:16, Mic 6:8", "John 3:16; Micah 6:8"), ("Jonah 4 - Mic 1", "Jonah 4; Micah 1"), ("Mic. vi. 8", "Micah 6:8"),
    ("John iii. 16; iv. 1", "John 3:16; 4:1"), ("Isa. i. 18; John iii. 16", "Isaiah 1:18; John 3:16"), ("Jude i. 3", "Jude 1:3"),
]

/// What cannot be meant, and the one line that says why.
let rejectedReferences: [(String, String)] = [
    ("", "no reference given: write one like 'John 3:16', 'Ps 23' or 'Gen 1:1-2:3'"),
    ("   ", "no reference given: write one like 'John 3:16', 'Ps 23' or 'Gen 1:1-2:3'"),
    ("Hezekiah 1:1", "no book called 'Hezekiah'"),
    ("Hezekiah", "no book called 'Hezekiah'"),
    ("Jude 2:1", "Jude has only 1 chapter"),
    ("John 22", "John has only 21 chapters"),
    ("John 22:1", "John has only 21 chapters"),
    ("John 0", "chapters start at 1: John has no chapter 0"),
    ("John 3:0", "verses start at 1: John 3 has no verse 0"),
    ("John 3:37", "John 3 has only 36 verses"),
    ("Jude 26", "Jude 1 has only 25 verses"),
    ("Ps 151", "Psalms has only 150 chapters"),
    ("Jo 3:16", "'Jo' could be Joshua, Job, Joel, Jonah or John: type more of the name"),
    ("Phi 1:1", "'Phi' could be Philippians or Philemon: type more of the name"),
    ("Ju 1", "'Ju' could be Judges or Jude: type more of the name"),
    ("John 3:18-16", "'John 3:18-16' runs backwards: put the earlier verse first"),
    ("Ps 25-23", "'Ps 25-23' runs backwards: put the earlier verse first"),
    ("John 3:16-3:1", "'John 3:16-3:1' runs backwards: put the earlier verse first"),
    ("John 3:x", "cannot read 'John 3:x' as a reference: write it like 'John 3:16', 'John 3:16-18, 20' or 'Ps 23'"),
    ("John 3:16-18-20", "cannot read 'John 3:16-18-20' as a reference: write it like 'John 3:16', 'John 3:16-18, 20' or 'Ps 23'"),
    ("John 3::16", "cannot read 'John 3::16' as a reference: write it like 'John 3:16', 'John 3:16-18, 20' or 'Ps 23'"),
    ("John 3:", "cannot read 'John 3:' as a reference: write it like 'John 3:16', 'John 3:16-18, 20' or 'Ps 23'"),
    ("John :16", "cannot read 'John :16' as a reference: write it like 'John 3:16', 'John 3:16-18, 20' or 'Ps 23'"),
    // Numbers with only a space between, where it is not clear which was meant (issue 14, point 1).
    ("Jn 3:1 6", "'Jn 3:1 6' has numbers with only a space between: write the chapter and verse as '3:16', a range as '16-18'"),
    ("Gen 1:1 3", "'Gen 1:1 3' has numbers with only a space between: write the chapter and verse as '3:16', a range as '16-18'"),
    ("Ps 11 9", "Psalm 11 has only 7 verses"),
    ("John 3:16 ab", "cannot read 'John 3:16 ab' as a reference: write it like 'John 3:16', 'John 3:16-18, 20' or 'Ps 23'"),
    ("John 99999999999999999999", "cannot read 'John 99999999999999999999' as a reference: write it like 'John 3:16', 'John 3:16-18, 20' or 'Ps 23'"),
    ("John -3", "cannot read 'John -3' as a reference: write it like 'John 3:16', 'John 3:16-18, 20' or 'Ps 23'"),
    ("3:16", "'3:16' needs a book name first, like 'John 3:16'"),
    ("16", "'16' needs a book name first, like 'John 16'"),
    ("; John 3:16", "cannot read '; John 3:16' as a reference: write it like 'John 3:16', 'John 3:16-18, 20' or 'Ps 23'"),
    ("John 3:16 John", "cannot read 'John 3:16 John' as a reference: write it like 'John 3:16', 'John 3:16-18, 20' or 'Ps 23'"),
    ("4 John 1:1", "no book called '4 John'; did you mean '1 John'?"),
    ("😀 3:16", "'3:16' needs a book name first, like 'John 3:16'"),
    ("John 😀 3:16", "cannot read 'John 😀 3:16' as a reference: write it like 'John 3:16', 'John 3:16-18, 20' or 'Ps 23'"),
    ("Иоанн 3:16", "no book called 'Иоанн'"),
    ("Exod 2 - Gen 50", "'Exod 2 - Gen 50' runs backwards from one book into an earlier one: put the earlier book first"),
    ("Gen 50 - Hezekiah 2", "no book called 'Hezekiah'"),
    ("Gen 50 - Exod 2, 5", "cannot read 'Gen 50 - Exod 2, 5' as a reference: write it like 'John 3:16', 'John 3:16-18, 20' or 'Ps 23'"),
    ("Joh 3,16, 18", "'Joh 3,16, 18' uses ',' both between chapter and verse and between items: write '3:16, 18' for a list, '3,16' alone for chapter and verse"),
    ("Ps 23,24", "Psalm 23 has only 6 verses"),
    ("John iii 16", "cannot read the roman chapter number in 'John iii 16': write i. to cl. in small letters with a full stop, like 'John iii. 16', or in figures, like 'John 3:16'"),
    ("John III. 16", "cannot read the roman chapter number in 'John III. 16': write i. to cl. in small letters with a full stop, like 'John iii. 16', or in figures, like 'John 3:16'"),
    ("Phil i 3", "cannot read the roman chapter number in 'Phil i 3': write i. to cl. in small letters with a full stop, like 'John iii. 16', or in figures, like 'John 3:16'"),
    ("John verse 16", "cannot read 'John verse 16' as a reference: write it like 'John 3:16', 'John 3:16-18, 20' or 'Ps 23'"),
    ("John 3:16 a", "cannot read 'John 3:16 a' as a reference: write it like 'John 3:16', 'John 3:16-18, 20' or 'Ps 23'"),
    ("John 3 16 18", "'John 3 16 18' has numbers with only a space between: write the chapter and verse as '3:16', a range as '16-18'"),
    ("Ps. cli.", "cannot read the roman chapter number in 'Ps. cli.': write i. to cl. in small letters with a full stop, like 'John iii. 16', or in figures, like 'John 3:16'"),
    ("John 3:16 to", "cannot read 'John 3:16 to' as a reference: write it like 'John 3:16', 'John 3:16-18, 20' or 'Ps 23'"),
    ("i. 5", "'i. 5' needs a book name first, like 'John i. 5'"),
    ("Jude iii.", "Jude has only 1 chapter"),
    ("3 v. 3", "no book called '3 v.'; did you mean '3 John'?"),
    ("🙏", "no reference given: write one like 'John 3:16', 'Ps 23' or 'Gen 1:1-2:3'"),
]

@Suite struct ReferenceParserTests {
    @Test(arguments: acceptedReferences)
    func readsWhatPeopleType(typed: String, canonical: String) throws {
        let reference = try Reference(parsing: typed)
        #expect(reference.description == canonical)
        // The canonical form reads back as the same passage.
        #expect(try Reference(parsing: canonical) == reference)
    }

    @Test(arguments: rejectedReferences)
    func explainsWhatCannotBeMeant(typed: String, message: String) {
        #expect(throws: ReferenceError.self) { try Reference(parsing: typed) }
        do {
            _ = try Reference(parsing: typed)
        } catch {
            #expect(error.message == message)
        }
    }

    @Test func coversWellOverAHundredForms() {
        #expect(acceptedReferences.count + rejectedReferences.count > 150)
    }

    @Test func versesOfAPassage() throws {
        #expect(try Reference(parsing: "John 3:16-18").verseIDs.map(\.rawValue) == [43_003_016, 43_003_017, 43_003_018])
        #expect(try Reference(parsing: "Gen 1:1-2:3").verseIDs.count == 34)
        #expect(try Reference(parsing: "Ps 119").verseIDs.count == 176)
        #expect(try Reference(parsing: "Matthew 28:5,6; 24:44").verseIDs.map(\.rawValue) == [40_028_005, 40_028_006, 40_024_044])
    }
}
