// Programs a test runs or starts: MannaKit's Subprocess underneath (posix_spawn, close-on-exec
// sockets, waitpid on the child's own pid) and a deadline on every wait. Never Foundation's
// Process: on Linux it learns that a child ended from a socket the child inherits, so a
// grandchild that keeps it, or a wake-up missed under load, leaves `waitUntilExit` waiting for
// ever. It did: one test's wait held the whole suite past CI's limit. tools/lint keeps
// `Process()` out of the tests.
import Foundation
import MannaKit

/// How a program a test ran ended, and what it printed.
public struct Finished: Sendable {
    /// The exit status, or 128 + the signal that ended it; `Programs.timedOut` when it was
    /// still running at the deadline.
    public let status: Int32
    public let stdout: String
    public let stderr: String
}

public enum Programs {
    /// The status of a run killed at its deadline (it also says so on stderr).
    public static let timedOut: Int32 = 124

    /// Runs the program at `path` to its end: stdin from `input` (nothing when nil), stdout and
    /// stderr through files, so output of any size can neither fill a pipe nor be cut. Killed
    /// after `timeout` seconds, which a test then sees as status 124 and a line on stderr.
    public static func run(_ path: String, _ arguments: [String], environment: [String: String],
                           input: String? = nil, timeout: Double = 300) throws -> Finished {
        let scratch = try Scratch("run")
        let inputFile = scratch.path + "/stdin", outFile = scratch.path + "/stdout", errFile = scratch.path + "/stderr"
        if let input { try Data(input.utf8).write(to: URL(fileURLWithPath: inputFile)) }
        let program = try RunningProgram(path, arguments, environment: environment, input: .file(input == nil ? "/dev/null" : inputFile),
                                         output: .file(outFile), errorOutput: .file(errFile))
        let status = program.wait(timeout: timeout)
        let stdout = (try? String(contentsOfFile: outFile, encoding: .utf8)) ?? ""
        var stderr = (try? String(contentsOfFile: errFile, encoding: .utf8)) ?? ""
        if status == nil { stderr += "\n(test: \(path) \(arguments) was still running after \(timeout) s and was killed)\n" }
        return Finished(status: status ?? timedOut, stdout: stdout, stderr: stderr)
    }

    /// Whether the program at `path` runs and exits 0 within `timeout` seconds.
    public static func succeeds(_ path: String, _ arguments: [String], environment: [String: String] = ["PATH": "/usr/bin:/bin"],
                                timeout: Double = 60) -> Bool {
        guard let program = try? RunningProgram(path, arguments, environment: environment, input: .file("/dev/null"),
                                                output: .file("/dev/null"), errorOutput: .file("/dev/null")) else { return false }
        return program.wait(timeout: timeout) == 0
    }
}

/// A program a test started and stops: its stdout read as it comes (when it is a socket), a
/// deadline on every wait, and killed and reaped when the test lets go of it.
public final class RunningProgram: @unchecked Sendable {
    public let pid: pid_t
    /// The parent's ends of its stdin, stdout and stderr where they are sockets, else -1.
    public private(set) var input: Int32
    public private(set) var output: Int32
    public private(set) var errorOutput: Int32
    private let lock = NSLock()
    private var status: Int32?
    private var pending: [UInt8] = []
    private var ended = false

    /// Starts `path` with exactly `environment`; each stream as `Subprocess.Stream` says
    /// (stderr thrown away unless asked for).
    public init(_ path: String, _ arguments: [String], environment: [String: String], input: Subprocess.Stream = .file("/dev/null"),
                output: Subprocess.Stream = .socket, errorOutput: Subprocess.Stream = .file("/dev/null")) throws {
        var values: Environment = [:]
        for (name, value) in environment { values[name] = value }
        let child = try Subprocess.start(path, arguments: arguments, environment: values, input: input, output: output, errorOutput: errorOutput)
        (pid, self.input, self.output, self.errorOutput) = (child.pid, child.input, child.output, child.errorOutput)
    }

    deinit {
        if reap(waiting: false) == nil {
            kill(pid, SIGKILL)
            _ = reap(waiting: true)
        }
        for descriptor in [input, output, errorOutput] where descriptor >= 0 { close(descriptor) }
    }

    /// Closes this end of its stdout, as a reader that goes away does.
    public func closeOutput() {
        if output >= 0 { close(output) }
        output = -1
    }

    /// Writes `text` to its stdin (asked for as a socket); false when it cannot take it all.
    @discardableResult
    public func write(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let count = bytes.withUnsafeBytes { send(input, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            bytes = bytes.dropFirst(count)
        }
        return true
    }

    /// Sends `signal` (SIGINT, SIGTERM, SIGKILL) unless it has been reaped.
    public func signal(_ signal: Int32) {
        lock.lock()
        defer { lock.unlock() }
        if status == nil { kill(pid, signal) }
    }

    /// Waits up to `timeout` seconds for it to end: its exit status (128 + a signal's number),
    /// or nil when it was still running, after which it is killed and reaped.
    @discardableResult
    public func wait(timeout: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        var pause: useconds_t = 200
        while Date() < deadline {
            if let status = reap(waiting: false) { return status }
            usleep(pause)
            pause = min(pause * 2, 20_000)
        }
        if let status = reap(waiting: false) { return status }
        kill(pid, SIGKILL)
        _ = reap(waiting: true)
        return nil
    }

    /// Whether it has not ended yet.
    public var isRunning: Bool { reap(waiting: false) == nil }

    /// How it ended (as `wait` returns it), nil while it runs.
    public var exitStatus: Int32? { reap(waiting: false) }

    /// Stops it with SIGKILL and reaps it.
    public func stop() {
        signal(SIGKILL)
        _ = reap(waiting: true)
    }

    /// The next line of its stdout, without its newline: nil once stdout ends, or when none
    /// comes within `timeout` seconds.
    public func readLine(timeout: Double) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            guard !ended, let chunk = read(until: deadline) else { return nil }
            pending += chunk
        }
    }

    /// What it wrote on stdout until it closed it (or `timeout` seconds passed).
    public func readToEnd(timeout: Double) -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var text = pending
        pending = []
        while !ended, let chunk = read(until: deadline) { text += chunk }
        return String(decoding: text, as: UTF8.self)
    }

    /// The next bytes on stdout: nil at its end (and then `ended`) or at the deadline.
    private func read(until deadline: Date) -> [UInt8]? {
        precondition(output >= 0, "stdout was not asked for as a socket, or was closed")
        var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(max(0, min(deadline.timeIntervalSinceNow * 1000, Double(Int32.max))))
        var ready: Int32
        repeat { ready = poll(&descriptor, 1, milliseconds) } while ready < 0 && errno == EINTR
        guard ready > 0 else { return nil }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { Glibc.read(output, $0.baseAddress, $0.count) }
        guard count > 0 else {
            ended = true
            return nil
        }
        return Array(chunk[..<count])
    }

    /// Its status once reaped (blocking when `waiting`), nil while it runs.
    private func reap(waiting: Bool) -> Int32? {
        lock.lock()
        defer { lock.unlock() }
        if let status { return status }
        var raw: Int32 = 0
        var reaped: pid_t
        repeat { reaped = waitpid(pid, &raw, waiting ? 0 : WNOHANG) } while reaped < 0 && errno == EINTR
        guard reaped == pid || reaped < 0 else { return nil }
        // Reaped by someone else (waitpid fails): gone all the same, and its pid no longer ours to signal.
        let signal = raw & 0x7F
        status = reaped < 0 ? 128 + SIGKILL : signal == 0 ? (raw >> 8) & 0xFF : 128 + signal
        return status
    }
}
