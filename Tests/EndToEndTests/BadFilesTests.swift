import Foundation
import Testing
import TestSupport

/// Files that are not what Manna expects: one clear line, a sysexits status, originals untouched.
@Suite struct BadFilesTests {
    @Test func aFullDiskIsAnErrorAndLosesNothing() throws {
        precondition(Manna.textDatabaseReady)
        let home = try TemporaryHome()
        #expect(manna("note", "add", "John 3:16", "the first note", environment: ["HOME": home.path]).status == 0)
        let journal = URL(fileURLWithPath: home.journal)
        // A note bigger than the space left: refused with one line, exit 74.
        let big = String(repeating: "a", count: 120_000)
        let run = Manna.run(["-c", "ulimit -f 100; \"$0\" \"$@\" 2>&1; echo \"status $?\"", Manna.binary, "note", "add", "John 3:17", big],
                            environment: ["HOME": home.path, "TZ": "UTC"], executable: "/bin/bash")
        #expect(run.stdout.hasPrefix("manna: cannot use the journal \(journal.path): "))
        #expect(run.stdout.hasSuffix("status 74\n"))
        #expect(run.stdout.split(separator: "\n").count == 2)
        // Nothing lost, and the journal is still whole.
        #expect(manna("note", "list", environment: ["HOME": home.path]).stdout.contains("the first note"))
        #expect(manna("note", "add", "John 3:18", "after the disk had room again", environment: ["HOME": home.path]).status == 0)
    }

    @Test func aDataFolderThatIsAFileIsReported() throws {
        precondition(Manna.textDatabaseReady)
        let home = try TemporaryHome()
        try FileManager.default.createDirectory(at: home.url.appendingPathComponent(".local/share"), withIntermediateDirectories: true)
        try "not a folder".write(to: home.url.appendingPathComponent(".local/share/manna"), atomically: true, encoding: .utf8)
        let run = manna("note", "add", "John 3:16", "x", environment: ["HOME": home.path])
        #expect(run.status == 74)
        #expect(run.stderr == "manna: cannot use the journal \(home.path)/.local/share/manna/journal.sqlite: Not a directory\n")
        #expect(try String(contentsOf: home.url.appendingPathComponent(".local/share/manna"), encoding: .utf8) == "not a folder")
    }

    @Test func anUnwritableTimelineFolderIsReported() throws {
        precondition(Manna.textDatabaseReady)
        let home = try TemporaryHome()
        try "in the way".write(to: home.url.appendingPathComponent(".cache"), atomically: true, encoding: .utf8)
        let run = manna("timeline", environment: ["HOME": home.path])
        #expect(run.status == 74)
        #expect(run.stderr == "manna: cannot write the timeline \(home.path)/.cache/manna: Not a directory\n")
    }
}

/// `manna build-db` as a maintainer runs it. (The build itself, by the same builder, makes the
/// text database every test reads: TestSupport's BuiltTexts.)
@Suite struct BuildDatabaseTests {
    @Test func aMissingSourceFolderIsNamedAndNothingIsWritten() throws {
        let scratch = try Scratch("build-db")
        let output = scratch.path + "/bible.sqlite"
        let run = Manna.run(["build-db", "--curated", scratch.path + "/nowhere", "--output", output])
        #expect(run.status == 74)
        #expect(run.stderr.hasSuffix("manna: cannot read \(scratch.path)/nowhere/translations/translations.tsv: no such file\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
        #expect(Manna.run(["build-db", "now"]).stderr == "manna: build-db takes no arguments; see 'manna build-db --help'\n")
    }
}
