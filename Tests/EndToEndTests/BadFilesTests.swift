import Foundation
import MannaKit
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

/// Output that cannot be written is an error, not a silent exit 0: a backup to a full disk.
@Suite struct OutputErrorTests {
    /// Runs manna with its stdout on `/dev/full` (or closed) and returns the status and stderr.
    func run(_ arguments: [String], home: TemporaryHome, closed: Bool = false) throws -> (Int32, String) {
        precondition(Manna.textDatabaseReady)
        // sh does the redirection, so manna starts with exactly that stdout.
        let finished = try Programs.run("/bin/sh", ["-c", "exec \"$0\" \"$@\" " + (closed ? ">&-" : ">/dev/full"), Manna.binary] + arguments,
                                        environment: ["HOME": home.path, "PATH": "/usr/bin:/bin", "TZ": "UTC"])
        return (finished.status, finished.stderr)
    }

    @Test func aFullDiskOrAClosedStdoutIsAnIOError() throws {
        let home = try TemporaryHome()
        #expect(home.run("note", "add", "John 3:16", "Kept").status == 0)
        for arguments in [["export"], ["read", "John 3"], ["today", "--date", "2026-12-25"], ["search", "Jesus wept"], ["note", "list"]] {
            let (status, stderr) = try run(arguments, home: home)
            #expect(status == 74, "\(arguments)")
            #expect(stderr == "manna: cannot write the output: No space left on device\n", "\(arguments)")
        }
        let (status, stderr) = try run(["read", "John 3:16"], home: home, closed: true)
        #expect(status == 74 && stderr == "manna: cannot write the output: Bad file descriptor\n")
    }
}

/// Files that are not files: a device or a FIFO where Manna expects a config, a plan, a
/// timeline or a backup is refused at once with one line, never read for ever.
@Suite struct SpecialFileTests {
    /// Runs manna, killing it if it takes more than 20 s (it hung): the status, or nil.
    func run(_ arguments: [String], home: TemporaryHome) throws -> (status: Int32?, stdout: String, stderr: String) {
        precondition(Manna.textDatabaseReady)
        let environment: Environment = ["HOME": home.path, "PATH": "/usr/bin:/bin", "TZ": "UTC"]
        switch try Subprocess.run(Manna.binary, arguments: arguments, environment: environment, input: "", timeoutMilliseconds: 20_000) {
        case .exited(let status, let stdout, let stderr): return (status, stdout, stderr)
        default: return (nil, "", "")
        }
    }

    static let refused = "not a regular file (a device, a pipe or a folder): Manna reads only files here"

    @Test func devicesAndFIFOsAreRefusedAndThePromptNeverWaits() throws {
        let home = try TemporaryHome()
        let config = home.path + "/.config/manna/config"
        try FileManager.default.createSymbolicLink(atPath: config, withDestinationPath: "/dev/zero")
        let today = try run(["today"], home: home)
        // The config is ignored with its line, never read, and the verse is shown all the same.
        #expect(today.status == 0 && today.stderr == "manna: \(config): \(Self.refused) (ignored: the defaults stand)\n", "\(today.stderr)")
        try FileManager.default.removeItem(atPath: config)

        let timeline = home.timeline.path
        try FileManager.default.createDirectory(atPath: (timeline as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        #expect(mkfifo(timeline, 0o600) == 0)
        let prompt = try run(["prompt", "--now", "2026-12-01T12:00"], home: home)
        #expect(prompt.status == 0 && prompt.stdout.hasPrefix("Romans 13:11-12: "), "the prompt computes the verse instead")

        let fifo = home.path + "/backup.json"
        #expect(mkfifo(fifo, 0o600) == 0)
        for file in [fifo, "/dev/zero"] {
            let imported = try run(["import", file], home: home)
            #expect(imported.status == 74 && imported.stderr == "manna: cannot read \(file): \(Self.refused)\n")
        }

        let plans = home.path + "/.config/manna/plans"
        try FileManager.default.createDirectory(atPath: plans, withIntermediateDirectories: true)
        #expect(mkfifo(plans + "/mine.json", 0o600) == 0)
        let list = try run(["plan", "list"], home: home)
        #expect(list.status == 0 && list.stderr == "manna: skipped \(plans)/mine.json: \(Self.refused)\n")
    }
}

/// Text with a NUL byte is refused where it is typed, never cut short where it is stored.
@Suite struct NULTests {
    @Test func aPrayerBodyWithANULIsRefused() throws {
        let home = try TemporaryHome()
        let run = home.run(["pray", "add", "Whole", "--body", "-"], input: "before\u{0}after")
        #expect(run.status == 65)
        #expect(run.stderr == "manna: the body read from stdin has a NUL character (byte 7); write it without one\n")
        #expect(home.run("pray", "list").stdout.hasPrefix("no open prayers"))
    }
}

/// What `pray add` takes, a backup restores: a body at the limit goes through export and
/// import; one byte more is refused where it is typed, with the limit named.
@Suite struct BackupRestoresTests {
    @Test func aBodyAtTheLimitRoundTripsAndOneByteMoreIsRefused() throws {
        let home = try TemporaryHome()
        let limit = 1 << 20
        let tooLong = home.run(["pray", "add", "Big", "--body", "-"], input: String(repeating: "a", count: limit + 1))
        #expect(tooLong.status == 65)
        #expect(tooLong.stderr == "manna: a prayer's body can be at most \(limit) bytes (what a backup carries); this one is \(limit + 1)\n")
        #expect(home.run(["pray", "add", "Big", "--body", "-"], input: String(repeating: "a", count: limit)).status == 0)
        let backup = home.path + "/backup.json"
        #expect(home.run("export", backup).status == 0)
        let elsewhere = try TemporaryHome()
        let imported = elsewhere.run("import", backup)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("prayers: 1 added"))
    }
}

/// Every command that writes a file names, when the write fails, the path the user gave or its
/// folder, never the temporary file beside it (issue 32, point 6): with the folder not there
/// (or a file in its place), and with every write failing (`ulimit -f 0`: EFBIG, as a full disk).
@Suite struct WriteErrorTests {
    /// A command, what to break before it runs, and the file it writes.
    struct Writer: CustomStringConvertible, Sendable {
        let description: String
        /// The command, given the home.
        let arguments: @Sendable (String) -> [String]
        /// The file it writes, given the home.
        let target: @Sendable (String) -> String
        /// Makes its folder unusable (for one not there yet: nothing); nil when the folder cannot
        /// be taken away (the audio is in it).
        var breakFolder: (@Sendable (String) throws -> Void)?
        var prepare: @Sendable (TemporaryHome) throws -> Void = { _ in }
        /// False where the journal, written first, is what the limit stops (export, tick).
        var writesOnlyTheFile = true
    }

    static func fileInPlace(of folder: String) throws {
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: Files.parent(of: folder), withIntermediateDirectories: true)
        try "in the way".write(toFile: folder, atomically: true, encoding: .utf8)
    }

    /// A second of silence and its labels, for `cues import`.
    static func writeRecording(in home: TemporaryHome) throws {
        try FileKindsTests.silence.write(to: home.url.appendingPathComponent("reading.wav"))
        try FileKindsTests.labels.write(to: home.url.appendingPathComponent("labels.txt"))
    }

    static let writers: [Writer] = [
        Writer(description: "export", arguments: { ["export", $0 + "/backup/x.json"] }, target: { $0 + "/backup/x.json" },
               breakFolder: { _ in }, prepare: { home in #expect(home.run("note", "add", "John 3:16", "kept").status == 0) }, writesOnlyTheFile: false),
        Writer(description: "config set", arguments: { _ in ["config", "set", "translation", "ASV"] }, target: { $0 + "/.config/manna/config" },
               breakFolder: { try fileInPlace(of: $0 + "/.config/manna") }),
        Writer(description: "timeline", arguments: { _ in ["timeline", "--now", "2026-12-01T12:00"] }, target: { $0 + "/.cache/manna/timeline.json" },
               breakFolder: { try fileInPlace(of: $0 + "/.cache/manna") }),
        Writer(description: "tick", arguments: { _ in ["tick", "--now", "2026-12-01T03:00"] }, target: { $0 + "/.cache/manna/timeline.json" },
               breakFolder: { try fileInPlace(of: $0 + "/.cache/manna") }, writesOnlyTheFile: false),
        Writer(description: "cues import", arguments: { ["cues", "import", "--from", "audacity", $0 + "/labels.txt", "--ref", "John 11:35", "--audio", $0 + "/reading.wav"] },
               target: { $0 + "/reading.wav.cues.json" }, prepare: { try writeRecording(in: $0) }),
        Writer(description: "listen --export", arguments: { ["listen", "John 11:35", "--export", $0 + "/audio/x.wav"] }, target: { $0 + "/audio/x.wav" },
               breakFolder: { _ in }),
    ]

    @Test(arguments: writers, [false, true]) func aFailedWriteNamesTheUsersPath(_ writer: Writer, fullDisk: Bool) throws {
        let home = try TemporaryHome()
        home.environment["TZ"] = "UTC"
        try writer.prepare(home)
        let target = writer.target(home.path)
        if fullDisk {
            guard writer.writesOnlyTheFile else { return }
            try FileManager.default.createDirectory(atPath: Files.parent(of: target), withIntermediateDirectories: true)
            // Speech needs espeak-ng's voices before it writes anything.
            if writer.description == "listen --export" && !Prerequisite.espeakVoices.isMet { return }
        } else {
            guard let breakFolder = writer.breakFolder else { return }
            try breakFolder(home.path)
        }
        precondition(Manna.textDatabaseReady)
        var environment: Environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        for (name, value) in home.environment { environment[name] = value }
        // Output through pipes, which the file size limit does not reach.
        let outcome = try Subprocess.run("/bin/bash", arguments: ["-c", (fullDisk ? "ulimit -f 0; " : "") + "exec \"$0\" \"$@\"", Manna.binary] + writer.arguments(home.path),
                                         environment: environment, input: "", timeoutMilliseconds: 60_000)
        guard case .exited(let status, _, let stderr) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        let run = (status: status, stderr: stderr)
        let folder = Files.parent(of: target)
        // 74, or 65 where reading the file before changing it fails first (config set).
        #expect([65, 74].contains(run.status), "\(run.stderr)")
        #expect(run.stderr.hasPrefix("manna: ") && run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(run.stderr.contains(fullDisk ? target + ": " : folder) && (!fullDisk || run.stderr.contains("File too large")), "\(run.stderr)")
        #expect(!run.stderr.contains(".tmp."), "\(run.stderr)")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        #expect(!left.contains { $0.contains(".tmp.") }, "\(left)")
    }
}
