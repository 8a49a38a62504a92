// A journal this user cannot write (its folder read-only, or a read-only mount): every command
// that only reads works as it does on a writable one, and a command that writes says why in one
// line. As root, who ignores permissions, the folder is a read-only bind mount in a mount
// namespace of the command's own; otherwise it is chmod 0500.
import Foundation
import MannaKit
import Testing
import TestSupport

@Suite struct ReadOnlyJournalTests {
    /// The commands that only read the journal, each with a journal that holds what it shows.
    static let readers: [[String]] = [
        ["export"],
        ["pray", "list"],
        ["pray", "list", "--json"],
        ["note", "list"],
        ["highlight", "list"],
        ["bookmark", "list"],
        ["read", "John 3:16-18"],
        ["plan", "status", "--now", "2026-06-03T08:00"],
        ["sync", "status"],
        ["today", "--date", "2026-06-03"],
        ["prompt", "--now", "2026-06-03T08:00"],
        ["widget", "--format", "plain", "--now", "2026-06-03T08:00"],
    ]

    /// A home whose journal holds something for each of `readers` to show.
    static func filledHome() throws -> TemporaryHome {
        let home = try TemporaryHome(config: "daily_source = bookmarks\n", environment: ["TZ": "UTC"])
        try FileManager.default.createDirectory(atPath: home.path + "/sync", withIntermediateDirectories: true)
        for command in [["pray", "add", "For the harvest", "--body", "and the workers", "--remind", "07:00"],
                        ["note", "add", "John 3:16", "For God so loved"], ["highlight", "John 3:17", "--color", "green"],
                        ["bookmark", "add", "John 3:16-18"], ["plan", "start", "three-streams", "--now", "2026-06-01T08:00"],
                        ["sync", "init", home.path + "/sync"]] {
            let run = home.run(command)
            try #require(run.status == 0, "\(command): \(run.stderr)")
        }
        return home
    }

    /// Runs `arguments` with the journal's folder read-only, as this user can be kept from writing it.
    static func runReadOnly(_ home: TemporaryHome, _ arguments: [String]) throws -> Run {
        let folder = home.path + "/.local/share/manna"
        guard getuid() == 0 else {
            chmod(folder, 0o500)
            defer { chmod(folder, 0o700) }
            return home.run(arguments)
        }
        let unshare = try #require(TestEnvironment.path(of: "unshare"))
        let script = #"mount --bind "$1" "$1" && mount -o remount,ro,bind "$1" "$1" && shift && exec "$@""#
        return Manna.run(["-m", "--propagation", "private", "/bin/sh", "-c", script, "sh", folder, Manna.binary] + arguments,
                         environment: home.environment, executable: unshare)
    }

    /// With its log checkpointed away (no -wal: SQLite can read it only as immutable) and with a
    /// log another connection keeps (-wal and -shm there, read as any reader reads them).
    @Test(.needs(.readOnlyJournal), arguments: [false, true])
    func everyCommandThatOnlyReadsWorksOnAReadOnlyJournal(logLeft: Bool) throws {
        let home = try ReadOnlyJournalTests.filledHome()
        // A connection that stays open keeps the log (-wal) beside the journal, with a note in it.
        var keeper: Journal?
        if logLeft {
            keeper = try Journal(path: home.journal)
            _ = try keeper!.addNote("only in the log", on: try Reference(parsing: "John 3:18"), at: 1_780_000_000)
        }
        #expect(FileManager.default.fileExists(atPath: home.journal + "-wal") == logLeft)
        for arguments in Self.readers {
            let writable = home.run(arguments)
            #expect(writable.status == 0, "\(arguments): \(writable.stderr)")
            let readOnly = try Self.runReadOnly(home, arguments)
            #expect(readOnly.status == 0 && readOnly.stderr.isEmpty, "\(arguments) on a read-only journal: \(readOnly.stderr)")
            #expect(readOnly.stdout == writable.stdout, "\(arguments)")
        }
        if logLeft { #expect(home.run("note", "list").stdout.contains("only in the log")) }
        // A command that writes says why, in one line, and leaves the journal as it was.
        let journal = home.path + "/.local/share/manna"
        let write = try Self.runReadOnly(home, ["pray", "add", "Not now"])
        #expect(write.status == 74)
        #expect(write.stderr == "manna: cannot use the journal \(journal)/journal.sqlite: it is read-only (its folder, its file or its file system), and this command writes to it\n")
        #expect(!home.run("pray", "list").stdout.contains("Not now"))
        withExtendedLifetime(keeper) {}
    }
}

extension ReadOnlyJournalTests {
    /// A tick with nothing due on a journal it cannot write goes on as on any other, whether or
    /// not a tick could keep the reminders' forecast (issue 31): it is kept only where it can be.
    @Test(.needs(.readOnlyJournal)) func aTickWithNothingDueWorksOnAReadOnlyJournal() throws {
        let home = try TemporaryHome(config: "notify_at = 23:59\n", environment: ["TZ": "UTC"])
        #expect(home.run("pray", "add", "For the harvest", "--remind", "07:00").status == 0)
        #expect(home.run("tick", "--now", "2026-12-05T00:30").status == 0)
        // A new reminder drops the forecast the tick kept: the next tick must read them all.
        #expect(home.run("pray", "add", "For rain", "--remind", "09:00").status == 0)
        let tick = try Self.runReadOnly(home, ["tick", "--now", "2026-12-05T00:31"])
        #expect(tick.status == 0 && tick.stderr.isEmpty, "\(tick.stderr)")
    }
}

/// A command that only reads the journal leaves its files as they were (issue 31): it opens
/// journal.sqlite read-only and nothing beside it (no log or index file made and removed, no
/// checkpoint), as `strace` sees every call that names the journal's files.
@Suite(.needs(.strace)) struct ReadingChangesNothingTests {
    @Test func everyCommandThatOnlyReadsOpensTheJournalReadOnlyAndNothingBesideIt() throws {
        let home = try ReadOnlyJournalTests.filledHome()
        let log = home.path + "/strace.log"
        var wrote: [String] = []
        for arguments in ReadOnlyJournalTests.readers + [["note", "list", "--deleted"], ["pray", "list", "--answered"], ["doctor"]] {
            let run = try tool(.strace, ["-f", "-qq", "-e", "trace=%file", "-o", log, Manna.binary] + arguments, environment: home.environment)
            #expect(run.status == 0 || arguments == ["doctor"], "\(arguments): \(run.stderr)")
            let calls = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").filter { $0.contains("journal.sqlite") }
            let writing = calls.filter { call in
                ["O_RDWR", "O_WRONLY", "O_CREAT", "unlink", "rename"].contains { call.contains($0) } || call.contains("open") && call.contains("journal.sqlite-")
            }
            if !writing.isEmpty { wrote.append("\(arguments.joined(separator: " ")): \(writing.joined(separator: "; "))") }
        }
        #expect(wrote.isEmpty, "\(wrote.joined(separator: "\n"))")
    }
}
