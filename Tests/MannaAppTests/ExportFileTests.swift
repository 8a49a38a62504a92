// `manna export FILE` as a careful backup tool writes: never through a link, never into
// what is not a regular file, and never an empty document over a backup.
import Foundation
import MannaKit
import TestSupport
import Testing

@testable import MannaApp

@Suite struct ExportFileTests {
    /// A link may be another user's trap (issue 25, point 2): refused, and what it points to untouched.
    @Test func aLinkIsRefusedAndTheFileItPointsToKept() throws {
        let home = try TestHome()
        #expect(home.run("note", "add", "John 3:16", "Kept").status == 0)
        let synced = try Scratch("synced")
        let target = synced.file("backup.json")
        try "old".write(toFile: target, atomically: true, encoding: .utf8)
        let link = home.url.appendingPathComponent("backup.json").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let export = home.run("export", link)
        #expect(export.status == 74)
        #expect(export.stderr == "manna: cannot write \(link): a symbolic link: Manna never writes through a link; remove it or name another file\n")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "old")
        #expect(try FileManager.default.contentsOfDirectory(atPath: synced.path) == ["backup.json"])
        // Named itself, the file behind the link is replaced, 0600.
        #expect(home.run("export", target).status == 0)
        #expect(try String(contentsOfFile: target, encoding: .utf8).contains("\"text\": \"Kept\""))
        let attributes = try FileManager.default.attributesOfItem(atPath: target)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    /// A FIFO someone else may be reading is never handed the journal, and never opened.
    @Test func aFIFOIsRefusedNotWrittenInto() throws {
        let home = try TestHome()
        #expect(home.run("note", "add", "John 3:16", "Piped").status == 0)
        let scratch = try Scratch("fifo")
        let fifo = scratch.file("pipe")
        #expect(mkfifo(fifo, 0o600) == 0)
        let export = home.run("export", fifo)
        #expect(export.status == 74)
        #expect(export.stderr == "manna: cannot write \(fifo): not a regular file (a device or a pipe): Manna writes only files here\n")
        var info = stat()
        #expect(stat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["pipe"])
    }

    @Test func withNoJournalABackupIsNotOverwrittenWithNothing() throws {
        let home = try TestHome()
        let backup = home.url.appendingPathComponent("backup.json").path
        try "{\"precious\": true}".write(toFile: backup, atomically: true, encoding: .utf8)
        let export = home.run("export", backup)
        #expect(export.status == 65)
        #expect(export.stderr == "manna: there is no journal to export (\(home.paths.journal) does not exist); \(backup) was left as it is\n")
        #expect(try String(contentsOfFile: backup, encoding: .utf8) == "{\"precious\": true}")
        #expect(home.run("export").stdout.contains("\"format\": \"manna-export\""))  // to stdout, the empty document
    }
}

/// An import checks titles, tags and reminder SPECs as the command line does: what `pray add`
/// refuses, a backup cannot bring in (an ESC in a tag would reach the terminal raw).
@Suite struct ImportChecksTests {
    @Test(arguments: [
        ("\"family\"", "\"fam\\u001bily\"", "$.prayers[0].tags: expected a list of tags, each one lowercase word without '#', commas or control characters"),
        ("\"mon,wed 21:00\"", "\"Wed, Mon 21:00\"", "$.reminders[0].spec: expected a reminder SPEC as manna writes it, like 'mon,wed,fri 21:00'"),
        ("\"title\": \"Title\"", "\"title\": \" \"", "$.prayers[0].title: expected a title, not empty, without spaces at its ends"),
    ])
    func whatTheCommandLineRefusesABackupCannotBringIn(field: String, tampered: String, problem: String) throws {
        let home = try TestHome()
        #expect(home.run("pray", "add", "Title", "--tag", "family", "--remind", "mon,wed 21:00").status == 0)
        let export = home.run("export").stdout
        #expect(export.contains(field))
        let file = home.url.appendingPathComponent("tampered.json").path
        try export.replacingOccurrences(of: field, with: tampered).write(toFile: file, atomically: true, encoding: .utf8)
        let imported = home.run("import", file)
        #expect(imported.status == 65)
        #expect(imported.stderr == "manna: \(file): \(problem)\n")
        let file2 = home.url.appendingPathComponent("whole.json").path
        try export.write(toFile: file2, atomically: true, encoding: .utf8)
        #expect(home.run("import", file2).status == 0)
    }

    /// Progress beyond a plan's last day could never be read back: the import is refused.
    @Test func aDayBeyondThePlansLastIsRefused() throws {
        let home = try TestHome()
        #expect(home.run("plan", "start", "psalms-proverbs-month", "--now", "2026-12-01T08:00").status == 0)
        #expect(home.run("plan", "done", "--now", "2026-12-01T09:00").status == 0)
        let export = home.run("export").stdout
        let file = home.url.appendingPathComponent("tampered.json").path
        try export.replacingOccurrences(of: "\"day\": 1,", with: "\"day\": 400,").write(toFile: file, atomically: true, encoding: .utf8)
        let imported = home.run("import", file)
        #expect(imported.status == 65)
        #expect(imported.stderr == "manna: \(file): $.plan_days_read[0].day: a day of plan 'psalms-proverbs-month' from 1 to 31, not 400\n")
    }
}
