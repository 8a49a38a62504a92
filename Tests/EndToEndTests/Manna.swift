// Runs the built `manna` binary the way a user does and captures what it says.
import Foundation

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

    /// Runs manna (the built one, or `program`) with `arguments` and an environment of
    /// `environment` over a clean base (HOME and XDG folders in a fresh temporary directory, TZ=UTC).
    @discardableResult
    static func run(_ arguments: [String], environment: [String: String] = [:], program: String = binary) -> Run {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("manna-e2e-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        var base = ["HOME": home.path, "PATH": "/usr/bin:/bin", "TZ": "UTC", "LANG": "C.UTF-8"]
        base.merge(environment) { $1 }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.environment = base
        // Output goes to files, not pipes: a large output cannot fill a pipe and stall the run.
        let outURL = home.appendingPathComponent(".stdout")
        let errURL = home.appendingPathComponent(".stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try! FileHandle(forWritingTo: outURL)
        let err = try! FileHandle(forWritingTo: errURL)
        defer { try? out.close(); try? err.close() }
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try! process.run()
        process.waitUntilExit()
        let outData = (try? Data(contentsOf: outURL)) ?? Data()
        let errData = (try? Data(contentsOf: errURL)) ?? Data()
        return Run(status: process.terminationStatus,
                   stdout: String(decoding: outData, as: UTF8.self),
                   stderr: String(decoding: errData, as: UTF8.self))
    }
}

/// Runs `manna ARGUMENTS...` with the checkout's text database ready.
@discardableResult
func manna(_ arguments: String..., environment: [String: String] = [:]) -> Run {
    precondition(Manna.textDatabaseReady)
    return Manna.run(arguments, environment: environment)
}

extension Manna {
    static func json(_ run: Run) -> Any? {
        try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
    }
}
