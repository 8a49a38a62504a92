// Every file Manna reads or writes, against every kind of thing that can be at its path
// (issue 25, point 1): one line and a sysexits status, no hang, nothing written elsewhere.
import Foundation
import MannaKit
import TestSupport
import Testing

/// What can be at a path instead of the file Manna expects.
enum FileKind: String, CaseIterable, CustomStringConvertible, Sendable {
    case regular, empty, huge, fifo, linkToDevZero, linkElsewhere, directory, unreadable, readOnlyFolder
    var description: String { rawValue }
}

/// One file Manna touches, the command that touches it, and what each kind there must give.
struct TouchedFile: CustomStringConvertible, Sendable {
    /// What the file is, for the test's name.
    let name: String
    /// Its path, relative to the home.
    let path: String
    /// For a folder Manna uses (the journal's, the sync folder): `directory` is the good kind,
    /// `regular` a file in the way, and `linkElsewhere` a link to a folder elsewhere.
    var isFolder = false
    /// What a regular file there holds (for a file Manna writes: an old version).
    var content: @Sendable (TemporaryHome) throws -> Data = { _ in Data("old\n".utf8) }
    /// Commands run first (a journal to export, a recording beside the cue sheet); "mkdir",
    /// "write-audio" and "write-labels" are the test's own steps.
    var prepare: [[String]] = []
    /// The command, run after the kind is made.
    let arguments: [String]
    /// The status each kind gives; a kind not named may give any sysexits status (or 0).
    let statuses: [FileKind: Int32]
    /// Whether what is linked to may change: the user's own journal or folder behind a link.
    var linkIsFollowed = false

    var description: String { name }
}

@Suite struct FileKindsTests {
    static let elsewhereName = "elsewhere"

    /// A sound Manna can decode: a second of silence as 16-bit mono WAV at 8 kHz.
    static let silence: Data = {
        var data = Data("RIFF".utf8)
        func le32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        func le16(_ value: UInt16) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        let samples = 8000
        le32(UInt32(36 + samples * 2))
        data.append(contentsOf: Array("WAVEfmt ".utf8))
        le32(16); le16(1); le16(1); le32(8000); le32(16000); le16(2); le16(16)
        data.append(contentsOf: Array("data".utf8))
        le32(UInt32(samples * 2))
        data.append(Data(count: samples * 2))
        return data
    }()

    static let labels = Data("0\t1.0\t35\n".utf8)
    static let importLabels = ["cues", "import", "--from", "audacity", "--ref", "John 11:35"]

    static let files: [TouchedFile] = [
        TouchedFile(name: "config, read", path: ".config/manna/config", content: { _ in Data("translation = KJV\n".utf8) },
                    // Whatever is there, the verse is shown: a config that cannot be read is one line, ignored.
                    arguments: ["today", "--date", "2026-12-25"], statuses: Dictionary(uniqueKeysWithValues: FileKind.allCases.map { ($0, 0) })),
        TouchedFile(name: "config, written", path: ".config/manna/config", content: { _ in Data("translation = KJV\n".utf8) },
                    arguments: ["config", "set", "translation", "ASV"],
                    statuses: [.regular: 0, .empty: 0, .huge: 74, .linkToDevZero: 74, .linkElsewhere: 74, .fifo: 74, .directory: 74]),
        TouchedFile(name: "journal", path: ".local/share/manna/journal.sqlite", content: { home in try Data(contentsOf: URL(fileURLWithPath: home.journal)) }, prepare: [["note", "add", "John 3:16", "first"]],
                    arguments: ["note", "add", "John 3:17", "second"],
                    statuses: [.regular: 0, .empty: 0, .huge: 74, .fifo: 74, .linkToDevZero: 74, .linkElsewhere: 0, .directory: 74], linkIsFollowed: true),
        TouchedFile(name: "journal folder", path: ".local/share/manna", isFolder: true, arguments: ["note", "add", "John 3:17", "second"],
                    statuses: [.directory: 0, .regular: 74, .empty: 74, .huge: 74, .fifo: 74, .linkToDevZero: 74, .linkElsewhere: 0], linkIsFollowed: true),
        TouchedFile(name: "timeline, written", path: ".cache/manna/timeline.json", arguments: ["timeline", "--now", "2026-12-01T12:00"],
                    statuses: [.regular: 0, .empty: 0, .huge: 0, .fifo: 74, .linkToDevZero: 0, .linkElsewhere: 0, .directory: 74, .unreadable: 0]),
        TouchedFile(name: "timeline, read by the prompt", path: ".cache/manna/timeline.json", arguments: ["prompt", "--now", "2026-12-01T12:00"],
                    statuses: Dictionary(uniqueKeysWithValues: FileKind.allCases.map { ($0, 0) })),
        TouchedFile(name: "prompt lines", path: ".cache/manna/prompt.tsv", arguments: ["timeline", "--now", "2026-12-01T12:00"],
                    statuses: [.regular: 0, .empty: 0, .huge: 0, .fifo: 74, .linkToDevZero: 0, .linkElsewhere: 0, .directory: 74, .unreadable: 0]),
        TouchedFile(name: "tick's stamp", path: ".cache/manna/last-tick", arguments: ["tick", "--now", "2026-12-01T03:00"],
                    statuses: [.regular: 0, .empty: 0, .huge: 0, .fifo: 0, .linkToDevZero: 0, .linkElsewhere: 0, .directory: 0]),
        TouchedFile(name: "export", path: "shared/backup.json", prepare: [["note", "add", "John 3:16", "kept"]], arguments: ["export", "shared/backup.json"],
                    statuses: [.regular: 0, .empty: 0, .huge: 0, .fifo: 74, .linkToDevZero: 74, .linkElsewhere: 74, .directory: 74, .unreadable: 0, .readOnlyFolder: 74]),
        TouchedFile(name: "import", path: "backup.json", content: { home in Data(home.run("export").stdout.utf8) }, arguments: ["import", "backup.json"],
                    statuses: [.regular: 0, .empty: 65, .huge: 65, .fifo: 74, .linkToDevZero: 74, .linkElsewhere: 0, .directory: 74, .unreadable: 74]),
        TouchedFile(name: "cue sheet", path: "reading.wav.cues.json", content: { _ in Data("{}".utf8) }, arguments: ["cues", "check", "reading.wav.cues.json"],
                    statuses: Dictionary(uniqueKeysWithValues: FileKind.allCases.map { ($0, 65) })),
        TouchedFile(name: "labels", path: "labels.txt", content: { _ in labels }, prepare: [["write-audio", "reading.wav"]],
                    arguments: importLabels + ["labels.txt", "--audio", "reading.wav"],
                    statuses: [.regular: 0, .empty: 65, .huge: 65, .fifo: 65, .linkToDevZero: 65, .linkElsewhere: 0, .directory: 65, .unreadable: 65, .readOnlyFolder: 74]),
        TouchedFile(name: "audio", path: "audio/reading.wav", content: { _ in silence }, prepare: [["write-labels", "labels.txt"]],
                    arguments: importLabels + ["labels.txt", "--audio", "audio/reading.wav"],
                    statuses: [.regular: 0, .empty: 65, .huge: 65, .fifo: 65, .linkToDevZero: 65, .linkElsewhere: 0, .directory: 65]),
        TouchedFile(name: "plan file", path: ".config/manna/plans/mine.json", content: { _ in Data("{}".utf8) }, arguments: ["plan", "show", "mine"],
                    statuses: Dictionary(uniqueKeysWithValues: FileKind.allCases.map { ($0, 65) })),
        TouchedFile(name: "listen lock", path: ".cache/manna/listen.lock", content: { _ in Data() }, arguments: ["listen", "John 11:35"],
                    statuses: [.regular: 69, .empty: 69, .huge: 69, .fifo: 74, .linkToDevZero: 74, .linkElsewhere: 74, .directory: 74]),
        TouchedFile(name: "journal's claims", path: ".local/share/manna/journal.sqlite-claims", content: { _ in Data() },
                    prepare: [["pray", "add", "Morning", "--remind", "daily 07:00", "--now", "2026-11-30T12:00"]], arguments: ["tick", "--now", "2026-12-01T07:00"],
                    // The reminder is claimed, then finds no bus (the test has none): 69.
                    statuses: [.regular: 69, .empty: 69, .huge: 69, .fifo: 74, .linkToDevZero: 74, .linkElsewhere: 74, .directory: 74]),
        TouchedFile(name: "journal's sync lock", path: ".local/share/manna/journal.sqlite.sync-lock", content: { _ in Data() },
                    prepare: [["mkdir", "sync"], ["sync", "init", "~/sync"]], arguments: ["sync", "now"],
                    statuses: [.regular: 0, .empty: 0, .huge: 0, .fifo: 74, .linkToDevZero: 74, .linkElsewhere: 74, .directory: 74]),
        TouchedFile(name: "sync folder", path: "sync", isFolder: true, arguments: ["sync", "init", "sync"],
                    statuses: [.directory: 0, .regular: 65, .empty: 65, .huge: 65, .fifo: 65, .linkToDevZero: 65, .linkElsewhere: 0], linkIsFollowed: true),
    ]

    /// Runs manna in `home` with the home as its working folder, as `user` when given (root
    /// reads and writes past permissions), killed if it takes a second.
    func run(_ arguments: [String], home: TemporaryHome, as user: TestUser?) throws -> (status: Int32?, stderr: String, milliseconds: Int) {
        precondition(Manna.textDatabaseReady)
        var environment: Environment = ["PATH": "/usr/bin:/bin", "TZ": "UTC", "LANG": "C.UTF-8",
                                        // No sound server, at once: `listen` gets as far as its lock and stops.
                                        "PULSE_SERVER": "unix:/nonexistent"]
        for (name, value) in home.environment { environment[name] = value }
        let started = Date()
        let shell = ["-c", "cd \"$HOME\" && exec \"$0\" \"$@\"", user?.manna ?? Manna.binary] + arguments
        let outcome = try user.map { try $0.run("/bin/sh", shell, home: home.path, timeout: 1000, environment: environment) }
            ?? Subprocess.run("/bin/sh", arguments: shell, environment: environment, input: "", timeoutMilliseconds: 1000)
        let milliseconds = Int(Date().timeIntervalSince(started) * 1000)
        switch outcome {
        case .exited(let status, _, let stderr): return (status, stderr, milliseconds)
        default: return (nil, "", milliseconds)
        }
    }

    /// Makes `kind` at `path`, replacing what is there; `good` is what a regular file there
    /// holds, `elsewhere` what a link points to.
    func make(_ kind: FileKind, at path: String, good: Data, folder: Bool, elsewhere: String) throws {
        let manager = FileManager.default
        try manager.createDirectory(atPath: Files.parent(of: path), withIntermediateDirectories: true)
        try? manager.removeItem(atPath: path)
        switch kind {
        case .regular, .unreadable, .readOnlyFolder:
            if folder && kind != .regular {
                try manager.createDirectory(atPath: path, withIntermediateDirectories: true)
            } else {
                // For a folder, a regular file is what is in the way.
                try good.write(to: URL(fileURLWithPath: path))
            }
            if kind == .unreadable { chmod(path, 0) }
            if kind == .readOnlyFolder { chmod(Files.parent(of: path), 0o555) }
        case .empty: try Data().write(to: URL(fileURLWithPath: path))
        case .huge:
            // 3 GB that take no room: beyond every cap Manna reads with.
            try Data().write(to: URL(fileURLWithPath: path))
            #expect(truncate(path, 3 << 30) == 0)
        case .fifo: #expect(mkfifo(path, 0o600) == 0)
        case .linkToDevZero: try manager.createSymbolicLink(atPath: path, withDestinationPath: "/dev/zero")
        case .linkElsewhere: try manager.createSymbolicLink(atPath: path, withDestinationPath: elsewhere)
        case .directory: try manager.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
    }

    @Test(arguments: files) func everyKindGetsOneLineAndAStatusInASecond(_ file: TouchedFile) throws {
        // As root, the unreadable and read-only kinds run as a user of their own, where one can be made.
        let user = geteuid() == 0 && Prerequisite.twoUsers.isMet ? try TestUser("k") : nil
        let asRoot = geteuid() == 0 && user == nil
        var slowest = 0
        for kind in FileKind.allCases {
            let home = try TemporaryHome()
            let path = home.path + "/" + file.path
            for step in file.prepare {
                switch step[0] {
                case "write-audio": try Self.silence.write(to: home.url.appendingPathComponent(step[1]))
                case "write-labels": try Self.labels.write(to: home.url.appendingPathComponent(step[1]))
                case "mkdir": try FileManager.default.createDirectory(at: home.url.appendingPathComponent(step[1]), withIntermediateDirectories: true)
                // "~/" is the home, as the command itself runs there.
                default: #expect(home.run(step.map { $0.hasPrefix("~/") ? home.path + $0.dropFirst() : $0 }).status == 0, "\(step)")
                }
            }
            let good = try file.content(home)
            // What a link points to: a file (or folder) of someone else's, outside Manna's own.
            let elsewhere = home.path + "/" + Self.elsewhereName + "/" + (file.path.split(separator: "/").last.map(String.init) ?? "file")
            try FileManager.default.createDirectory(atPath: Files.parent(of: elsewhere), withIntermediateDirectories: true)
            if file.isFolder {
                try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
            } else {
                try good.write(to: URL(fileURLWithPath: elsewhere))
            }
            let before = try? FileManager.default.attributesOfItem(atPath: elsewhere)[.modificationDate] as? Date
            try make(kind, at: path, good: good, folder: file.isFolder, elsewhere: elsewhere)
            defer {
                chmod(Files.parent(of: path), 0o755)
                chmod(path, 0o755)
            }

            let unprivileged = [.unreadable, .readOnlyFolder].contains(kind) ? user : nil
            unprivileged?.own(home.path)
            let run = try run(file.arguments, home: home, as: unprivileged)
            slowest = max(slowest, run.milliseconds)
            let label = "\(file.name), \(kind)"
            if let log = ProcessInfo.processInfo.environment["MANNA_FILE_KINDS_LOG"] {
                let line = "\(label)\t\(run.status.map(String.init) ?? "killed")\t\(run.milliseconds) ms\t\(run.stderr.singleLine)\n"
                if let handle = FileHandle(forWritingAtPath: log) { handle.seekToEndOfFile(); handle.write(Data(line.utf8)); try? handle.close() }
            }
            guard let status = run.status else {
                Issue.record("\(label): still running after a second, killed")
                continue
            }
            // Root reads and writes past permissions: those two kinds are regular files then
            // (where no user of its own can be made).
            let expected = asRoot && [.unreadable, .readOnlyFolder].contains(kind) ? file.statuses[file.isFolder ? .directory : .regular] : file.statuses[kind]
            if let expected { #expect(status == expected, "\(label): \(run.stderr)") }
            #expect([0, 64, 65, 69, 74, 78].contains(status), "\(label): status \(status), \(run.stderr)")
            let lines = run.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            #expect(status == 0 ? lines.count <= 1 : lines.count == 1, "\(label): \(run.stderr)")
            #expect(lines.allSatisfy { $0.hasPrefix("manna: ") }, "\(label): \(run.stderr)")
            #expect(!run.stderr.contains(".tmp."), "\(label): \(run.stderr)")

            // Nothing written through a link: what it points to is as it was.
            if !file.linkIsFollowed {
                if !file.isFolder { #expect(try Data(contentsOf: URL(fileURLWithPath: elsewhere)) == good, "\(label): the file linked to changed") }
                let after = try? FileManager.default.attributesOfItem(atPath: elsewhere)[.modificationDate] as? Date
                #expect(after == before, "\(label): the file linked to was touched")
            }
            // A special file is left as it was, or replaced by a file: never a part of one.
            var info = stat()
            if kind == .fifo && status != 0 { #expect(lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "\(label)") }
            if kind == .linkElsewhere && status == 74 {
                #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: path)) == elsewhere, "\(label): the link was replaced")
            }
            // No temporary file left behind, anywhere in the home.
            let leftovers = FileManager.default.enumerator(atPath: home.path)?.compactMap { $0 as? String }.filter { $0.contains(".tmp.") } ?? []
            #expect(leftovers.isEmpty, "\(label): \(leftovers)")
        }
        #expect(slowest < 1000)
    }
}
