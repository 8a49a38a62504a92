// What the end-to-end tests share: running the built `manna` as users do, temporary homes and
// folders (one per test, removed after it), and small helpers. The private session bus with its
// notification servers is its own fixture, in TestBus.swift.
import Foundation
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

    /// Builds the checkout's text database once, before the first test that needs it,
    /// so parallel tests do not all build it at once.
    static let textDatabaseReady: Bool = {
        let result = run(["build-db"])
        precondition(result.status == 0, "manna build-db failed: \(result.stderr)")
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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = base
        // Output goes to files, not pipes: a large output cannot fill a pipe and stall the run.
        let outURL = scratch.url.appendingPathComponent(".stdout")
        let errURL = scratch.url.appendingPathComponent(".stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try! FileHandle(forWritingTo: outURL)
        let err = try! FileHandle(forWritingTo: errURL)
        defer { try? out.close(); try? err.close() }
        process.standardOutput = out
        process.standardError = err
        var inputFile: FileHandle?
        defer { try? inputFile?.close() }
        if let input {
            let inURL = scratch.url.appendingPathComponent(".stdin")
            _ = FileManager.default.createFile(atPath: inURL.path, contents: Data(input.utf8))
            inputFile = try! FileHandle(forReadingFrom: inURL)
        }
        process.standardInput = inputFile ?? FileHandle.nullDevice
        try! process.run()
        process.waitUntilExit()
        let outData = (try? Data(contentsOf: outURL)) ?? Data()
        let errData = (try? Data(contentsOf: errURL)) ?? Data()
        return Run(status: process.terminationStatus,
                   stdout: String(decoding: outData, as: UTF8.self),
                   stderr: String(decoding: errData, as: UTF8.self))
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

/// A folder of its own under the system's temporary folder, made now and removed with all it
/// holds when the test lets go of it (at the end of the test that made it).
final class Scratch {
    let url: URL
    var path: String { url.path }

    /// - Parameter label: a word in the folder's name, to tell what left it behind if anything does.
    init(_ label: String = "scratch") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("manna-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// A HOME of its own for the runs of one test, with a config file when given, removed when the
/// test lets go of it. `environment` is what every run through `run` gets: HOME, and anything
/// else given (a TZ, a bus address).
final class TemporaryHome {
    private let scratch: Scratch
    var environment: [String: String]
    var url: URL { scratch.url }
    var path: String { scratch.path }
    /// Where Manna keeps the journal in this home.
    var journal: String { path + "/.local/share/manna/journal.sqlite" }
    /// Where `manna timeline` and the tick write the timeline in this home.
    var timeline: URL { url.appendingPathComponent(".cache/manna/timeline.json") }

    init(config: String? = nil, environment: [String: String] = [:]) throws {
        scratch = try Scratch("home")
        try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent(".config/manna"), withIntermediateDirectories: true)
        if let config {
            try config.write(to: scratch.url.appendingPathComponent(".config/manna/config"), atomically: true, encoding: .utf8)
        }
        self.environment = environment.merging(["HOME": scratch.path]) { $1 }
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

/// `diff -u` of two texts, to show what changed when a golden comparison fails.
func diff(_ expected: String, _ actual: String) -> String {
    guard let scratch = try? Scratch("diff") else { return "" }
    let a = scratch.url.appendingPathComponent("expected"), b = scratch.url.appendingPathComponent("actual")
    try? expected.write(to: a, atomically: true, encoding: .utf8)
    try? actual.write(to: b, atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/diff")
    process.arguments = ["-u", a.path, b.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try? process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: output, as: UTF8.self)
}

// MARK: - Small helpers

/// Exit statuses collected from concurrent runs.
final class Statuses: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Int32] = []
    func append(_ value: Int32) { lock.lock(); values.append(value); lock.unlock() }
    var all: [Int32] { lock.lock(); defer { lock.unlock() }; return values }
}

/// The short id in an "added note k7m2 on John 3:16" style line.
func shortID(_ line: String, after word: String) -> String {
    let words = line.split(separator: " ")
    guard let index = words.firstIndex(of: Substring(word)), index + 1 < words.count else { return "?" }
    return String(words[index + 1])
}
