import Foundation
import Testing

/// The journal file as a backup sees it: when no manna runs, journal.sqlite alone holds
/// everything (the write-ahead log is checkpointed when a command closes the journal), so
/// copying that one file loses nothing.
@Suite struct JournalFileTests {
    @Test func afterEachCommandTheJournalFileIsCompleteOnItsOwn() throws {
        let home = try Home()
        defer { home.remove() }
        for arguments in [["note", "add", "John 3:16", "Kept"], ["pray", "add", "For the road", "--remind", "07:30"],
                          ["tick", "--now", "2026-12-25T07:00"], ["read", "John 3:16"]] {
            _ = Manna.run(arguments, environment: ["HOME": home.url.path, "XDG_RUNTIME_DIR": "/nonexistent"])
            #expect(!FileManager.default.fileExists(atPath: home.journal + "-wal"), "\(arguments) left a write-ahead log")
        }
        // A copy of the file alone has the note.
        let copy = home.url.appendingPathComponent("copy.sqlite").path
        try FileManager.default.copyItem(atPath: home.journal, toPath: copy)
        let export = Manna.run(["note", "list"], environment: ["HOME": home.url.path, "XDG_DATA_HOME": home.url.path + "/restored"])
        #expect(export.stdout.isEmpty)
        let restored = home.url.appendingPathComponent("restored/manna")
        try FileManager.default.createDirectory(at: restored, withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: copy, toPath: restored.appendingPathComponent("journal.sqlite").path)
        let notes = Manna.run(["note", "list"], environment: ["HOME": home.url.path, "XDG_DATA_HOME": home.url.path + "/restored"])
        #expect(notes.stdout.hasSuffix("John 3:16  Kept\n"), "\(notes.stdout)")
    }
}
