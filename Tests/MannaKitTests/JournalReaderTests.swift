import Foundation
import Testing
import TestSupport
@testable import MannaKit

/// A journal opened for reading (`Journal(openingForReading:)`, issue 31) changes nothing on
/// disk, and still reads what writers commit: a read that a writer overlapped is read again
/// as a writer's connection reads it, and the first write opens it as a writer.
@Suite struct JournalReaderTests {
    /// A journal with one note, closed: no log beside it.
    func journal(_ scratch: Scratch) throws -> String {
        let path = scratch.path()
        _ = try Journal(path: path).addNote("first", on: ref("John 3:16"), at: 1_800_000_000)
        #expect(!Files.exists(path + "-wal"))
        return path
    }

    @Test func readingMakesNoFileAndWritesNothing() throws {
        let scratch = try Scratch("reader")
        let path = try journal(scratch)
        let before = Files.identity(path)
        let files = try FileManager.default.contentsOfDirectory(atPath: Files.parent(of: path)).sorted()
        let reader = try Journal(openingForReading: path)
        #expect(try reader.notes(in: nil).map(\.text) == ["first"])
        #expect(try reader.prayers(.open, tag: nil).isEmpty)
        #expect(try reader.export().prettyText.contains("first"))
        let after = try FileManager.default.contentsOfDirectory(atPath: Files.parent(of: path)).sorted()
        #expect(after == files, "\(after)")
        #expect(!files.contains("journal.sqlite-wal") && !files.contains("journal.sqlite-shm"), "\(files)")
        withExtendedLifetime(reader) {}
        #expect(Files.identity(path) == before)
    }

    /// Each way a writer can come while a reader is open: with its log there (its connection
    /// open), or gone again (its commit checkpointed into the file, the log removed).
    @Test(arguments: [true, false])
    func aReaderReadsWhatAWriterCommittedSinceItOpened(writerStillOpen: Bool) throws {
        let scratch = try Scratch("reader")
        let path = try journal(scratch)
        let reader = try Journal(openingForReading: path)
        #expect(try reader.notes(in: nil).count == 1)
        var writer: Journal? = try Journal(path: path)
        _ = try writer!.addNote("second", on: ref("Rom 8:28"), at: 1_800_000_100)
        // A writer that closes while the reader reads cannot checkpoint into the file: its log stays.
        if !writerStillOpen { writer = nil }
        #expect(Files.exists(path + "-wal"))
        #expect(try reader.notes(in: nil).map(\.text) == ["first", "second"])
        withExtendedLifetime(writer) {}
    }

    /// A writer that committed and closed while a reader was open, the reader not reading again:
    /// the reader's close checkpoints the log, so the file alone holds every commit.
    @Test func aLogAWriterLeftWhileAReaderReadIsCheckpointedAsTheReaderCloses() throws {
        let scratch = try Scratch("reader")
        let path = try journal(scratch)
        var reader: Journal? = try Journal(openingForReading: path)
        #expect(try reader!.notes(in: nil).count == 1)
        _ = try Journal(path: path).addNote("second", on: ref("Rom 8:28"), at: 1_800_000_100)
        #expect(Files.exists(path + "-wal"))
        reader = nil
        #expect(!Files.exists(path + "-wal"))
        let file = try Database(path: path, mode: .immutable)
        let count = try file.prepare("SELECT count(*) FROM notes")
        #expect(try count.step() && count.int(0) == 2)
    }

    @Test func aReaderThatWritesBecomesAWriter() throws {
        let scratch = try Scratch("reader")
        let path = try journal(scratch)
        let reader = try Journal(openingForReading: path)
        _ = try reader.addNote("written by the reader", on: ref("Ps 23:1"), at: 1_800_000_200)
        #expect(Set(try reader.notes(in: nil).map(\.text)) == ["written by the reader", "first"])
        #expect(try Journal(openingForReading: path).notes(in: nil).map(\.text).contains("written by the reader"))
    }

    /// A journal whose schema is older is migrated as it is opened, as a writer opens it.
    @Test func aJournalOfAnOlderSchemaIsMigratedAsItIsOpened() throws {
        let scratch = try Scratch("reader")
        let path = scratch.path()
        try FileManager.default.createDirectory(atPath: Files.parent(of: path), withIntermediateDirectories: true)
        do {
            let old = try Database(path: path, mode: .readWriteCreate)
            for migration in Journal.migrations.dropLast() { try migration.migrate(old) }
            try old.execute("PRAGMA user_version = \(Journal.migrations.count - 1)")
        }
        let reader = try Journal(openingForReading: path)
        #expect(reader.schemaVersion == Journal.migrations.count)
        #expect(try reader.notes(in: nil).isEmpty)
    }
}
