// A private PulseAudio server per test, with a null sink (no sound hardware needed) whose
// monitor a test can record to hear what was played. Stopped with SIGKILL by process id.
import Foundation
import MannaKit
import Testing
import TestSupport

final class TestSound {
    private let scratch: Scratch
    var directory: String { scratch.path }
    /// What PULSE_SERVER is set to for manna.
    var server: String { "unix:" + directory + "/native" }
    /// The server, and the recorders: started with posix_spawn, not Foundation's Process,
    /// because pulseaudio closes every descriptor it inherited, which Foundation takes for the
    /// child's exit and then waits for it, holding up every other Process in the test run.
    private var children: [Subprocess.Child] = []

    static let sinkName = "manna_test"

    init() throws {
        try Prerequisite.soundServer.require()
        scratch = try Scratch("sound")
        // No configuration files (-n): the protocol socket and the null sink only, no idle exit.
        let arguments = ["-n", "--daemonize=no", "--exit-idle-time=-1", "--disable-shm=yes", "--use-pid-file=no",
                         "--log-target=file:\(directory)/log",
                         "-L", "module-native-protocol-unix socket=\(directory)/native auth-anonymous=1",
                         "-L", "module-null-sink sink_name=\(TestSound.sinkName) rate=22050 channels=1"]
        try start(try #require(TestEnvironment.path(of: "pulseaudio")), arguments)
        // Ready once a client can ask it something.
        let pactl = try #require(TestEnvironment.path(of: "pactl"))
        // 20 s: a loaded two-core CI machine starting several at once.
        for _ in 0..<2000 {
            if spawn(pactl, ["info"], environment: environment).status == 0 { return }
            usleep(10_000)
        }
        throw TestBusError("pulseaudio did not start within 20 s: " + ((try? String(contentsOfFile: directory + "/log", encoding: .utf8)) ?? ""))
    }

    private func start(_ path: String, _ arguments: [String]) throws {
        var environment: Environment = ["HOME": directory, "PATH": "/usr/bin:/bin"]
        for (name, value) in self.environment { environment[name] = value }
        let child = try Subprocess.start(path, arguments: arguments, environment: environment)
        // Its streams stay open until it is stopped (closed, a write to them would kill it with
        // SIGPIPE); it writes nothing to them (the server logs to a file, parec to its file).
        children.append(child)
    }

    deinit {
        for child in children.reversed() {
            kill(child.pid, SIGKILL)
            _ = child.wait()
            for descriptor in [child.input, child.output, child.errorOutput] { close(descriptor) }
        }
    }

    /// What manna and the tools run with to reach this server.
    var environment: [String: String] { ["PULSE_SERVER": server, "XDG_RUNTIME_DIR": directory] }

    /// Records what the null sink plays (its monitor) until `stop` is called: 16-bit mono
    /// samples at 22050 Hz.
    func record() throws -> Recording {
        let file = directory + "/monitor-\(children.count).raw"
        try start(try #require(TestEnvironment.path(of: "parec")), ["-d", TestSound.sinkName + ".monitor", "--format=s16le", "--rate=22050",
                                                                   "--channels=1", "--latency-msec=10", "--raw", file])
        return Recording(child: children.last!, file: file)
    }

    struct Recording {
        let child: Subprocess.Child
        let file: String

        /// Stops recording and returns the samples.
        func stop() -> [Int16] {
            kill(child.pid, SIGINT)
            _ = child.wait()
            let data = (try? Data(contentsOf: URL(fileURLWithPath: file))) ?? Data()
            return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        }
    }

    /// The loudness of `samples` (root mean square), 0 for silence.
    static func rms(_ samples: ArraySlice<Int16>) -> Double {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }
}
