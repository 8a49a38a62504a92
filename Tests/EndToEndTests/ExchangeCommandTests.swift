import Foundation
import Testing
import MannaKit
import TestSupport

@Suite struct ExchangeCommandTests {
    @Test func exportThenImportIntoAFreshHomeGivesTheSameExport() throws {
        let laptop = try TemporaryHome(), desktop = try TemporaryHome()
        laptop.run("note", "add", "John 3:16", "The gospel in one verse")
        let gone = shortID(laptop.run("note", "add", "Gen 1:1", "gone").stdout, after: "note")
        laptop.run("note", "delete", gone)
        laptop.run("highlight", "Ps 23:1", "--color", "blue")
        laptop.run("bookmark", "add", "Rom 8:28")
        laptop.run("note", "add", "John 1:1", "a third note")
        let file = laptop.url.appendingPathComponent("backup.json").path
        let export = laptop.run("export", file)
        #expect(export.status == 0 && export.stdout == "" && export.stderr == "")
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let written = try String(contentsOfFile: file, encoding: .utf8)
        #expect(laptop.run("export").stdout == written)

        let first = desktop.run("import", file)
        #expect(first.status == 0)
        #expect(first.stdout == """
            imported \(file): 5 changed, 0 unchanged
              notes: 3 added
              highlights: 1 added
              bookmarks: 1 added

            """)
        #expect(desktop.run("import", file).stdout == "imported \(file): 0 changed, 5 unchanged\n")
        #expect(desktop.run("export").stdout == written)
    }

    @Test func aBadFileChangesNothingAndSaysWhere() throws {
        let home = try TemporaryHome()
        home.run("note", "add", "John 3:16", "kept")
        let before = home.run("export").stdout
        let file = home.url.appendingPathComponent("bad.json")
        try #"{"format": "manna-export", "version": 1, "highlights": [{"uuid": 7}]}"#.write(to: file, atomically: true, encoding: .utf8)
        let run = home.run("import", file.path)
        #expect(run.status == 65)
        #expect(run.stderr == "manna: \(file.path): $.highlights[0].uuid: expected a lowercase UUID like 1b4e28ba-2fa1-4d2b-883f-0016d3cca427\n")
        #expect(home.run("export").stdout == before)
        let missing = home.run("import", "/nonexistent/backup.json")
        #expect(missing.status == 74 && missing.stderr == "manna: cannot read /nonexistent/backup.json: no such file\n")
        #expect(home.run("import").stderr == "manna: import needs one file from 'manna export', like 'manna import manna-export.json'\n")
    }

    /// kill -9 at random moments of `manna note add`, many times over: the journal stays whole,
    /// and every note whose command said it was saved (exit 0) is there. MANNA_KILL_ROUNDS=N runs N.
    @Test func killingNoteAddAtAnyMomentLosesNothingItReportedSaved() throws {
        let rounds = ProcessInfo.processInfo.environment["MANNA_KILL_ROUNDS"].flatMap { Int($0) } ?? 100
        let home = try TemporaryHome()
        let environment: Environment = ["HOME": home.url.path, "PATH": "/usr/bin:/bin", "TZ": "UTC", "LANG": "C.UTF-8"]
        func noteAdd(_ text: String, killAfter milliseconds: Int) throws -> Subprocess.Outcome {
            try Subprocess.run(Manna.binary, arguments: ["note", "add", "John 3:16", text], environment: environment, input: "",
                               timeoutMilliseconds: milliseconds)
        }
        // Calibrate: kill anywhere from the start to a little after a normal run would end
        // (Subprocess kills with SIGKILL at its deadline).
        let started = Date()
        _ = try noteAdd("calibration", killAfter: 10_000)
        let span = max(Int(Date().timeIntervalSince(started) * 1300), 2)
        var saved: [String] = []
        var killed = 0
        for round in 0..<rounds {
            let text = "note \(round)"
            switch try noteAdd(text, killAfter: Int.random(in: 0...span)) {
            case .exited(0, let stdout, _):
                #expect(stdout.hasPrefix("added note ") && stdout.hasSuffix(" on John 3:16\n"))
                saved.append(text)
            case .timedOut:
                killed += 1
            case let other:
                Issue.record("note add ended without being killed: \(other)")
            }
        }
        #expect(killed > 0, "no run was killed: the kills came too late to test anything")
        #expect(saved.count > 0, "every run was killed: none got to say it saved")
        let journal = try Journal(path: home.journal)
        #expect(try journal.integrityCheck() == ["ok"])
        let present = Set(try journal.notes(in: try Reference(parsing: "John 3:16")).map(\.text))
        for text in saved { #expect(present.contains(text), "'\(text)' was reported saved and is missing") }
    }

    /// The same while the journal is being created and migrated: whatever is left opens.
    @Test func killingTheFirstWriteLeavesAJournalThatOpens() throws {
        for _ in 0..<30 {
            let home = try TemporaryHome()
            let environment: Environment = ["HOME": home.url.path, "PATH": "/usr/bin:/bin", "TZ": "UTC"]
            let outcome = try Subprocess.run(Manna.binary, arguments: ["note", "add", "John 3:16", "first"], environment: environment,
                                             input: "", timeoutMilliseconds: Int.random(in: 0...12))
            // Subprocess, not Foundation's Process, which polls for the exit every 50 ms.
            let list = try Subprocess.run(Manna.binary, arguments: ["note", "list"], environment: environment, input: "",
                                          timeoutMilliseconds: 10_000)
            guard case .exited(0, let stdout, _) = list else { Issue.record("note list: \(list)"); continue }
            if case .exited(0, _, _) = outcome { #expect(stdout.hasSuffix("  John 3:16  first\n")) }
            if FileManager.default.fileExists(atPath: home.journal) {
                #expect(try Journal(path: home.journal).integrityCheck() == ["ok"])
            }
        }
    }
}

/// `-` reads stdin wherever a text or a file is read.
@Suite struct StandardInputTests {
    @Test func aDashReadsStandardInput() throws {
        let home = try TemporaryHome()
        #expect(home.run(["read", "-"], input: "John 3:16\n").stdout == home.run("read", "John 3:16").stdout)
        #expect(home.run(["search", "-"], input: "love one another\n").stdout == home.run("search", "love one another").stdout)
        let added = home.run(["note", "add", "John 3:16", "-"], input: "written on stdin,\nover two lines\n")
        #expect(added.status == 0, "\(added.stderr)")
        #expect(home.run("note", "list").stdout.contains("written on stdin,"))
        let fresh = try TemporaryHome()
        let imported = fresh.run(["import", "-"], input: home.run("export").stdout)
        #expect(imported.stdout.hasPrefix("imported stdin: 1 changed, 0 unchanged"), "\(imported.stdout)\(imported.stderr)")
        #expect(fresh.run("export").stdout == home.run("export").stdout)
        let nul = home.run(["note", "add", "John 3:16", "-"], input: "a\u{0}b")
        #expect(nul.status == 65)
        #expect(nul.stderr == "manna: the note read from stdin has a NUL character (byte 2); write it without one\n")
    }
}
