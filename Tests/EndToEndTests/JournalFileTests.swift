import Foundation
import Testing
import TestSupport

/// The journal file as a backup sees it: when no manna runs, journal.sqlite alone holds
/// everything (the write-ahead log is checkpointed when a command closes the journal), so
/// copying that one file loses nothing.
@Suite struct JournalFileTests {
    @Test func afterEachCommandTheJournalFileIsCompleteOnItsOwn() throws {
        let home = try TemporaryHome(environment: ["XDG_RUNTIME_DIR": "/nonexistent"])
        for arguments in [["note", "add", "John 3:16", "Kept"], ["pray", "add", "For the road", "--remind", "07:30"],
                          ["tick", "--now", "2026-12-25T07:00"], ["read", "John 3:16"]] {
            home.run(arguments)
            #expect(!FileManager.default.fileExists(atPath: home.journal + "-wal"), "\(arguments) left a write-ahead log")
        }
        // A copy of the file alone, as another machine's journal, has the note.
        let restored = try TemporaryHome()
        try FileManager.default.createDirectory(atPath: (restored.journal as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: home.journal, toPath: restored.journal)
        let notes = restored.run("note", "list")
        #expect(notes.stdout.hasSuffix("John 3:16  Kept\n"), "\(notes.stdout)")
    }
}
