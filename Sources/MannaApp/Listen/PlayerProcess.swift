// `manna-play`, the helper that speaks (docs/ARCHITECTURE.md, "Listening"): started with the
// request on its stdin, then sent commands and read for events, one line each.
#if canImport(Glibc)
import Glibc
#endif
import MannaKit

final class PlayerProcess {
    private let child: Subprocess.Child
    private var pending: [UInt8] = []
    private var errorText: [UInt8] = []
    /// The helper's stdout: readable when it has events (or has gone).
    var events: Int32 { child.output }

    private init(child: Subprocess.Child) { self.child = child }

    /// The installed helper, or why there is none.
    static func helperPath(_ context: Context) throws -> String {
        guard let path = HelperProgram.play.find(besideProgram: context.executablePath) else {
            let candidates = HelperProgram.play.candidates(besideProgram: context.executablePath)
            throw Failure.unavailable("the player is not installed: no executable " + candidates.joined(separator: " or "))
        }
        return path
    }

    /// Starts speaking `request`.
    static func start(_ request: ListenRequest, context: Context) throws -> PlayerProcess {
        let path = try helperPath(context)
        let child: Subprocess.Child
        do { child = try Subprocess.start(path, arguments: [], environment: context.environment, ownProcessGroup: true) } catch { throw Failure.unavailable(error.message) }
        let player = PlayerProcess(child: child)
        player.send(line: request.json.text)
        return player
    }

    func send(_ command: PlayerCommand) { send(line: command.line) }

    /// A line to the helper; if it has gone, reading its output says how.
    private func send(line: String) { Files.send(Array((line + "\n").utf8), toSocket: child.input) }

    /// The events the helper has written since the last call; nil once it has closed its output.
    func readEvents() throws -> [PlayerEvent]? {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let count = chunk.withUnsafeMutableBytes { read(child.output, $0.baseAddress, $0.count) }
        if count < 0 && (errno == EINTR || errno == EAGAIN) { return [] }
        guard count > 0 else { return nil }
        pending += chunk[..<count]
        var events: [PlayerEvent] = []
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            let line = String(decoding: pending[..<newline], as: UTF8.self)
            pending.removeSubrange(...newline)
            do { events.append(try PlayerEvent(line: line)) } catch { throw Failure.unavailable("the player said something unexpected: \(error.problem)") }
        }
        return events
    }

    /// Ends the helper (asked to quit, killed if it does not within a second) and returns how
    /// it ended and the last line it wrote on stderr.
    func finish() -> (status: Int32, lastError: String) {
        send(.quit)
        var waited = 0
        var status: Int32 = 0
        while waitpid(child.pid, &status, WNOHANG) == 0 {
            if waited >= 1000 { kill(child.pid, SIGKILL) }
            usleep(5000)
            waited += 5
        }
        readErrors()
        for descriptor in [child.input, child.output, child.errorOutput] { close(descriptor) }
        let signal = status & 0x7F
        let line = String(decoding: errorText, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
        return (signal == 0 ? (status >> 8) & 0xFF : 128 + signal, line)
    }

    private func readErrors() {
        _ = fcntl(child.errorOutput, F_SETFL, fcntl(child.errorOutput, F_GETFL) | O_NONBLOCK)
        var chunk = [UInt8](repeating: 0, count: 4096)
        while errorText.count < 1 << 16 {
            let count = chunk.withUnsafeMutableBytes { read(child.errorOutput, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            errorText += chunk[..<count]
        }
    }

    // MARK: - One-shot runs

    /// The installed voices.
    static func voices(_ context: Context) throws -> [SpeechVoice] {
        let output = try runToEnd(["--voices"], input: "", context)
        return try output.split(separator: "\n").map { line in
            do { return try SpeechVoice(json: try JSON(parsing: String(line))) } catch { throw Failure.unavailable("the player listed a voice unexpectedly: \(line)") }
        }
    }

    /// The length in seconds and the sample rate of the audio at `path`, decoded to its end.
    static func info(_ path: String, context: Context) throws -> (duration: Double, sampleRate: Int) {
        let output = try runToEnd(["--info", path], input: "", context)
        guard let json = try? JSON(parsing: output.trimmingSpaces), case .number(let duration)? = json["duration"],
              let rate = json["sample_rate"]?.intValue else {
            throw Failure.unavailable("the player's --info report is not what it should be: \(output.singleLine)")
        }
        return (duration, rate)
    }

    /// Renders `request` to `path` as `format`; what the helper printed (where verses start and end).
    static func export(_ request: ListenRequest, format: String, to path: String, context: Context) throws -> JSON {
        let output = try runToEnd(["--export", format, path], input: request.json.text + "\n", context)
        do { return try JSON(parsing: output.trimmingSpaces) } catch { throw Failure.unavailable("the player's export report is not JSON") }
    }

    /// Runs the helper until it ends; its stdout, or its failure as the user's error.
    private static func runToEnd(_ arguments: [String], input: String, _ context: Context) throws -> String {
        let path = try helperPath(context)
        let outcome: Subprocess.Outcome
        // Rendering is some 800 times faster than speech: a day's timeout is beyond any passage.
        do { outcome = try Subprocess.run(path, arguments: arguments, environment: context.environment, input: input, timeoutMilliseconds: 86_400_000) } catch {
            throw Failure.unavailable(error.message)
        }
        switch outcome {
        case .exited(0, let stdout, _): return stdout
        case .exited(_, let stdout, let stderr):
            // The helper's last line is a `failed` event: its status and message are the user's.
            if let line = stdout.split(separator: "\n").last, case .failed(let status, let message)? = try? PlayerEvent(line: String(line)) {
                throw PlayerFailure(message: message, status: status)
            }
            throw Failure.unavailable("the player failed: " + (stderr.split(separator: "\n").last.map(String.init) ?? "no reason given"))
        case .killedBySignal(let signal, _): throw Failure.unavailable("the player was killed by signal \(signal)")
        case .timedOut: throw Failure.unavailable("the player did not finish within a day")
        }
    }
}

/// What the player stopped for, with the status it chose (64, 65, 69 or 74).
struct PlayerFailure: UserError {
    let message: String
    let status: Int32
    var exitStatus: ExitStatus { ExitStatus(rawValue: status) ?? .unavailable }
}
