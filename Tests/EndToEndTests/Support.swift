// What the end-to-end tests share: running the built `manna` as users do, temporary homes and
// folders (one per test, removed after it), the machine's tools and what each test needs of them.
// The private session bus with its notification servers is its own fixture, in TestBus.swift.
import Foundation
import MannaKit
import TestSupport
import Testing

// MARK: - Running manna

/// One finished run of `manna`.
struct Run {
    let status: Int32
    let stdout: String
    let stderr: String
}

enum Manna {
    /// The package root, found from this file's path.
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// The `manna` binary built beside this test bundle.
    static let binary: String = {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = bundle.deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("manna").path) && directory.path != "/" {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("manna").path
    }()

    /// Puts the test run's text database (TestSupport's BuiltTexts, built by the real builder)
    /// in the checkout's place, once, before the first test that needs it: the binary finds it
    /// there as a user's checkout would, up to date, and does not build its own (in a debug
    /// build that is seconds of the suite). Copied beside it and renamed, so a manna already
    /// running never reads half a file.
    static let textDatabaseReady: Bool = {
        // The search index first: a database is never newer than the index beside it.
        let database = root + "/.build/bible.sqlite"
        for (built, target) in [(TextDatabaseLocator.searchIndexPath(of: BuiltTexts.path), TextDatabaseLocator.searchIndexPath(of: database)),
                                (BuiltTexts.path, database)] {
            let copy = target + ".tests.\(getpid())"
            try? FileManager.default.removeItem(atPath: copy)
            try! FileManager.default.copyItem(atPath: built, toPath: copy)
            precondition(rename(copy, target) == 0, "cannot install the test text database at \(target)")
        }
        return true
    }()

    /// `manna-notify`, built beside `manna`.
    static let helper = URL(fileURLWithPath: binary).deletingLastPathComponent().appendingPathComponent("manna-notify").path

    /// Runs manna (or another `executable`) with `arguments` and an environment of
    /// `environment` over a clean base (HOME and XDG folders in a fresh temporary
    /// directory, TZ=UTC), and `input` on stdin.
    @discardableResult
    static func run(_ arguments: [String], environment: [String: String] = [:], executable: String = binary,
                    input: String? = nil) -> Run {
        let scratch = try! Scratch("run")
        var base = ["HOME": scratch.path, "PATH": "/usr/bin:/bin", "TZ": "UTC", "LANG": "C.UTF-8"]
        base.merge(environment) { $1 }
        // Output through files (Programs.run): it can neither fill a pipe nor be cut.
        let finished: Finished
        do {
            finished = try Programs.run(executable, arguments, environment: base, input: input)
        } catch {
            fatalError("cannot run \(executable): \(error)")
        }
        return Run(status: finished.status, stdout: finished.stdout, stderr: finished.stderr)
    }

    static func json(_ run: Run) -> Any? {
        try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
    }
}

/// Runs `manna ARGUMENTS...` with the checkout's text database ready.
@discardableResult
func manna(_ arguments: String..., environment: [String: String] = [:]) -> Run {
    precondition(Manna.textDatabaseReady)
    return Manna.run(arguments, environment: environment)
}

// MARK: - Temporary folders and homes

/// A HOME of its own for the runs of one test, with a config file when given, removed when the
/// test lets go of it. `environment` is what every run through `run` gets: HOME, and anything
/// else given (a TZ, a bus address).
final class TemporaryHome {
    let folder: HomeFolder
    var environment: [String: String]
    var url: URL { folder.url }
    var path: String { folder.path }
    var journal: String { folder.journal }
    var timeline: URL { folder.timeline }

    init(config: String? = nil, environment: [String: String] = [:]) throws {
        folder = try HomeFolder("home", config: config)
        try FileManager.default.createDirectory(at: folder.configFolder, withIntermediateDirectories: true)
        self.environment = environment.merging(["HOME": folder.path]) { $1 }
    }

    /// Runs `manna ARGUMENTS...` in this home, with the text database ready.
    @discardableResult
    func run(_ arguments: String..., input: String? = nil) -> Run {
        run(arguments, input: input)
    }

    @discardableResult
    func run(_ arguments: [String], input: String? = nil) -> Run {
        precondition(Manna.textDatabaseReady)
        return Manna.run(arguments, environment: environment, input: input)
    }
}

// MARK: - What the machine has

/// The machine the tests run on, asked once for each thing.
/// Where the natural voice the tests speak with is installed.
enum NaturalVoice {
    /// pocketsphinx from PyPI, which bench/word-error-rate imports (.ci/run installs it).
    static let recogniser = ProcessInfo.processInfo.environment["MANNA_RECOGNISER_DIR"] ?? NSHomeDirectory() + "/.local/lib/manna-test/pocketsphinx"
    static let engine = ProcessInfo.processInfo.environment["MANNA_ENGINE_DIR"] ?? NSHomeDirectory() + "/.local/lib/manna"
    static let voices = ProcessInfo.processInfo.environment["MANNA_VOICES_DIR"] ?? NSHomeDirectory() + "/.local/share/piper-voices"
}

enum TestEnvironment {
    /// MANNA_REQUIRE_ALL_TESTS=1 (set by .ci/run): a test whose prerequisite is missing fails
    /// instead of being skipped, so that CI cannot pass having silently skipped it.
    static let requiresAllTests = ProcessInfo.processInfo.environment["MANNA_REQUIRE_ALL_TESTS"] == "1"

    /// The folders of this process's PATH.
    static let searchPath: [String] = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)

    /// `name` as PATH finds it, or nil.
    static func path(of name: String) -> String? {
        searchPath.lazy.map { $0 + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func hasCommand(_ name: String) -> Bool { path(of: name) != nil }

    /// Whether `executable ARGUMENTS...` runs and exits 0, its output thrown away.
    static func succeeds(_ executable: String, _ arguments: [String]) -> Bool {
        Programs.succeeds(executable, arguments, environment: ProcessInfo.processInfo.environment)
    }

    /// A python3 that runs `script` (imports, say) without error: Debian's /usr/bin/python3
    /// first, where Debian's python3-* packages are (a pyenv python3 earlier on PATH has none of
    /// them), then the one on PATH.
    static func python(running script: String) -> String? {
        var candidates = ["/usr/bin/python3"]
        if let onPath = path(of: "python3"), onPath != candidates[0] { candidates.append(onPath) }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) && succeeds($0, ["-c", script]) }
    }

    /// A python3 with python-dbusmock's notification server and dbus-python to read its calls.
    static let dbusmockPython = python(running: "import dbus, dbusmock.templates.notification_daemon")
    /// A python3 with PyGObject's Gio, for a server that never answers.
    static let gioPython = python(running: "from gi.repository import Gio, GLib")
    /// A python3 with jsonschema's Draft 2020-12 validator (python3-jsonschema 4 or later).
    static let jsonschemaPython = python(running: "from jsonschema import Draft202012Validator")

    /// Whether this process may make a network namespace with no network (`unshare -n`): as
    /// root, or with CAP_SYS_ADMIN.
    static let canUnshareNetwork: Bool = path(of: "unshare").map { succeeds($0, ["-n", "true"]) } ?? false

    /// Whether this process may make a mount namespace of its own (`unshare -m`) and mount in it.
    static let canUnshareMounts: Bool = path(of: "unshare").map { succeeds($0, ["-m", "--propagation", "private", "/bin/sh", "-c", "mount --bind / /mnt"]) } ?? false
}

/// Something a test needs from the machine beyond the toolchain: a program, a Python module, a
/// privilege, or a group of them. A test or suite that needs one says so with `.needs(...)`;
/// where it is missing the test is skipped saying why, or, under MANNA_REQUIRE_ALL_TESTS=1,
/// fails saying why.
struct Prerequisite: Sendable, CustomStringConvertible {
    /// What the test needs and where it comes from: "crontab on PATH (Debian: apt-get install cron)".
    let description: String
    /// The program's name, for a program found on PATH.
    let command: String?
    private let check: @Sendable () -> Bool
    private let parts: [Prerequisite]

    init(_ description: String, command: String? = nil, _ check: @escaping @Sendable () -> Bool) {
        self.description = description
        self.command = command
        self.check = check
        parts = []
    }

    /// Several, each checked: `missing` names only those that are.
    init(group description: String, _ parts: [Prerequisite]) {
        self.description = description + ": " + parts.map(\.description).joined(separator: ", ")
        command = nil
        check = { parts.allSatisfy(\.isMet) }
        self.parts = parts
    }

    /// Each check reads a value found once: a program's path when its Prerequisite is first
    /// named, anything dearer (a Python import, `unshare`) when first checked.
    var isMet: Bool { check() }

    /// What is missing, each said as in `description`; empty when this is met.
    var missing: [String] {
        if parts.isEmpty { return isMet ? [] : [description] }
        return parts.flatMap(\.missing)
    }

    /// A program found on PATH, and the Debian package that has it.
    static func command(_ name: String, package: String) -> Prerequisite {
        let found = TestEnvironment.hasCommand(name)
        return Prerequisite("\(name) on PATH (Debian: apt-get install \(package))", command: name) { found }
    }

    static let dbusDaemon = command("dbus-daemon", package: "dbus-daemon")
    static let gdbus = command("gdbus", package: "libglib2.0-bin")
    static let dbusmock = Prerequisite("python3 with dbusmock and dbus (Debian: apt-get install python3-dbusmock python3-dbus)") {
        TestEnvironment.dbusmockPython != nil
    }
    static let gio = Prerequisite("python3 with Gio (Debian: apt-get install python3-gi)") { TestEnvironment.gioPython != nil }
    static let networkNamespace = Prerequisite("a network namespace: 'unshare -n' (util-linux), which needs root") {
        TestEnvironment.canUnshareNetwork
    }
    static let mountNamespace = Prerequisite("a mount namespace: 'unshare -m' and 'mount' (util-linux, mount), which need root") {
        TestEnvironment.canUnshareMounts
    }
    /// A journal folder this user cannot write: any user but root (chmod), or root with a
    /// mount namespace to make it a read-only mount in.
    static let readOnlyJournal = Prerequisite("a read-only folder: a user other than root, or root with 'unshare -m' (util-linux)") {
        getuid() != 0 || TestEnvironment.canUnshareMounts
    }
    static let systemdAnalyze = command("systemd-analyze", package: "systemd")
    static let crontab = command("crontab", package: "cron")
    static let zsh = command("zsh", package: "zsh")
    static let fish = command("fish", package: "fish")
    static let strace = command("strace", package: "strace")
    static let script = command("script", package: "bsdutils")
    static let jsonschema = Prerequisite("python3 with jsonschema 4 or later (Debian: apt-get install python3-jsonschema)") {
        TestEnvironment.jsonschemaPython != nil
    }

    static let pulseaudio = command("pulseaudio", package: "pulseaudio")
    static let pulseTools = Prerequisite(group: "pactl, parec and paplay", [command("pactl", package: "pulseaudio-utils"), command("parec", package: "pulseaudio-utils"),
                                                                           command("paplay", package: "pulseaudio-utils")])
    static let espeakVoices = Prerequisite("espeak-ng's voices (Debian: apt-get install espeak-ng-data)") {
        ["/usr/lib/x86_64-linux-gnu/espeak-ng-data", "/usr/lib/aarch64-linux-gnu/espeak-ng-data", "/usr/share/espeak-ng-data"]
            .contains { FileManager.default.fileExists(atPath: $0 + "/voices") }
    }
    static let tmux = command("tmux", package: "tmux")
    static let sox = command("soxi", package: "sox libsox-fmt-all")
    static let opusinfo = command("opusinfo", package: "opus-tools")
    /// A private PulseAudio server with a null sink (TestSound), and voices to speak with.
    static let soundServer = Prerequisite(group: "a private sound server", [pulseaudio, pulseTools, espeakVoices])

    /// sherpa-onnx's library and the English Piper voice, where tools/get-voice puts them
    /// (.ci/run runs it), or in MANNA_ENGINE_DIR and MANNA_VOICES_DIR when set.
    static let recogniser = Prerequisite("pocketsphinx 5.1.1 in \(NaturalVoice.recogniser) (pip install --target DIR pocketsphinx==5.1.1)") {
        FileManager.default.fileExists(atPath: NaturalVoice.recogniser + "/pocketsphinx/__init__.py")
    }
    static let naturalVoice = Prerequisite("the natural voice's engine in \(NaturalVoice.engine) and en_US-joe-medium in \(NaturalVoice.voices) (tools/get-voice)") {
        FileManager.default.fileExists(atPath: NaturalVoice.engine + "/libsherpa-onnx-c-api.so")
            && FileManager.default.fileExists(atPath: NaturalVoice.voices + "/en_US-joe-medium.onnx")
            && FileManager.default.fileExists(atPath: NaturalVoice.voices + "/en_US-joe-medium.onnx.json")
    }

    static let playerctl = command("playerctl", package: "playerctl")
    static let dbusMonitor = command("dbus-monitor", package: "dbus-bin")
    /// A private sound server, session bus and system bus, playerctl and dbus-monitor as the
    /// media controls' clients, and python-dbusmock's logind.
    static let mediaControls = Prerequisite(group: "media controls", [soundServer, dbusDaemon, gdbus, gio, dbusmock, playerctl, dbusMonitor])

    /// Two Syncthing instances on 127.0.0.1 (TestSyncthing).
    static let syncthing = command("syncthing", package: "syncthing")

    /// A private session bus (TestBus) with nothing on it.
    static let testBus = Prerequisite(group: "a private session bus", [dbusDaemon])
    /// A private session bus with python-dbusmock's recording notification server on it.
    static let recordingServer = Prerequisite(group: "a private session bus with a recording notification server",
                                              [dbusDaemon, gdbus, dbusmock])
    /// A private session bus with a notification server that never answers.
    static let silentServer = Prerequisite(group: "a private session bus with a server that never answers", [dbusDaemon, gdbus, gio])

    /// Throws PrerequisiteMissing when this is missing: for fixtures, so that a test run without
    /// it fails saying what is missing, not somewhere deeper.
    func require() throws {
        let missing = missing
        if !missing.isEmpty { throw PrerequisiteMissing(missing: missing) }
    }
}

struct PrerequisiteMissing: Error, CustomStringConvertible {
    let missing: [String]
    var description: String {
        "missing " + missing.joined(separator: "; ")
            + (TestEnvironment.requiresAllTests ? " (MANNA_REQUIRE_ALL_TESTS=1: every test must run here)" : "")
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test or suite only where every prerequisite is met, else skips it saying what it
    /// needs. Under MANNA_REQUIRE_ALL_TESTS=1 a missing prerequisite is an error instead: the
    /// condition throws, and Swift Testing records that as a failure of the test.
    static func needs(_ prerequisites: Prerequisite..., sourceLocation: SourceLocation = #_sourceLocation) -> Self {
        let reason = "needs " + prerequisites.map(\.description).joined(separator: "; ")
        return .enabled(if: try {
            let missing = prerequisites.flatMap(\.missing)
            if missing.isEmpty { return true }
            if TestEnvironment.requiresAllTests { throw PrerequisiteMissing(missing: missing) }
            return false
        }(), Comment(rawValue: reason), sourceLocation: sourceLocation)
    }
}

// MARK: - The machine's tools

/// Runs a program that `prerequisite` finds on PATH (systemd-analyze, crontab) with `arguments`
/// and `environment`; a missing one throws PrerequisiteMissing.
func tool(_ prerequisite: Prerequisite, _ arguments: [String], environment: [String: String] = ["PATH": "/usr/bin:/bin"]) throws -> Run {
    try prerequisite.require()
    let path = try #require(prerequisite.command.flatMap(TestEnvironment.path(of:)), "\(prerequisite) is not a program")
    let finished = try Programs.run(path, arguments, environment: environment)
    return Run(status: finished.status, stdout: finished.stdout, stderr: finished.stderr)
}

/// `diff -u` of two texts, to show what changed when a golden comparison fails.
func diff(_ expected: String, _ actual: String) -> String {
    guard let scratch = try? Scratch("diff") else { return "" }
    let a = scratch.url.appendingPathComponent("expected"), b = scratch.url.appendingPathComponent("actual")
    try? expected.write(to: a, atomically: true, encoding: .utf8)
    try? actual.write(to: b, atomically: true, encoding: .utf8)
    return (try? Programs.run("/usr/bin/diff", ["-u", a.path, b.path], environment: ["PATH": "/usr/bin:/bin"]))?.stdout ?? ""
}

// MARK: - Small helpers

/// Exit statuses collected from concurrent runs.
/// The short id in an "added note k7m2 on John 3:16" style line.
func shortID(_ line: String, after word: String) -> String {
    let words = line.split(separator: " ")
    guard let index = words.firstIndex(of: Substring(word)), index + 1 < words.count else { return "?" }
    return String(words[index + 1])
}
