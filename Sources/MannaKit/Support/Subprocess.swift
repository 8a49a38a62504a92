// Running other programs with glibc's posix_spawn, never through a shell: the notification
// helper (input on stdin, a deadline after which it is killed with SIGKILL so it cannot hold
// Manna) and the tools `manna install` calls (systemctl, crontab), found on PATH.
#if canImport(Glibc)
import Glibc
#endif

/// What a finished program said and how it ended.
public struct ProcessResult: Equatable, Sendable {
    /// The exit status, or 128 + the signal number when a signal ended it (as sh reports it).
    public let status: Int32
    public let output: String
    public let errorOutput: String

    public init(status: Int32, output: String = "", errorOutput: String = "") {
        self.status = status
        self.output = output
        self.errorOutput = errorOutput
    }

    /// The first line of what it wrote on stderr (else stdout), for a one-line message.
    public var firstLine: String {
        let text = errorOutput.contains(where: { !$0.isWhitespace }) ? errorOutput : output
        return text.split(separator: "\n").lazy.map { String($0).trimmingSpaces }.first { !$0.isEmpty } ?? ""
    }
}

/// Why a program could not be run at all.
public enum SubprocessError: Error, Equatable, Sendable {
    /// No executable file of that name in any folder of `PATH`.
    case notFound(program: String)
    case failed(program: String, reason: String)

    public var message: String {
        switch self {
        case .notFound(let program): "\(program) was not found on PATH"
        case .failed(let program, let reason): "cannot run \(program): \(reason)"
        }
    }
}

/// Runs a program found on `PATH` with arguments and optional standard input, and returns what
/// it printed. The installer takes one of these so that tests can stand in for systemctl and crontab.
public typealias ProcessRunner = @Sendable (_ program: String, _ arguments: [String], _ input: String?) throws(SubprocessError) -> ProcessResult

public enum Subprocess {
    /// How a run ended.
    public enum Outcome: Equatable, Sendable {
        case exited(status: Int32, stdout: String, stderr: String)
        case killedBySignal(Int32, stderr: String)
        /// Still running at the deadline: killed with SIGKILL and reaped.
        case timedOut
    }

    /// A program started with `start`: its process id and the parent's ends of its streams.
    public struct Child: Sendable {
        public let pid: pid_t
        public let input: Int32
        public let output: Int32
        public let errorOutput: Int32

        /// Waits for the child to end: its exit status, or 128 + the signal that ended it.
        public func wait() -> Int32 {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 {
                if errno != EINTR { return 128 + SIGKILL }
            }
            let signal = status & 0x7F
            return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
        }
    }

    /// Why a program could not be run at all.
    public struct SpawnError: Error, Equatable, Sendable {
        public let path: String
        public let reason: String
        public var message: String { "cannot run \(path): \(reason)" }
    }

    /// Output beyond this many bytes per stream is read and dropped.
    static let outputLimit = 1 << 20

    /// Runs the program at `path` (not searched in `PATH`) with exactly `environment`, gives it
    /// `input` on stdin, and collects what it writes until it exits or `timeoutMilliseconds` pass.
    ///
    /// The child starts with no blocked signals and default dispositions for the usual
    /// termination signals, whatever this process inherited. Its standard streams are
    /// sockets: writing to a child that exits without reading fails with EPIPE instead of
    /// raising SIGPIPE in Manna (`send` with `MSG_NOSIGNAL`).
    public static func run(_ path: String, arguments: [String], environment: Environment, input: String,
                           timeoutMilliseconds: Int) throws(SpawnError) -> Outcome {
        let deadline = Clock.monotonicMilliseconds() + timeoutMilliseconds
        let child = try start(path, arguments: arguments, environment: environment)
        let pid = child.pid
        var streams = Streams(input: child.input, stdout: child.output, stderr: child.errorOutput, pending: Array(input.utf8))
        defer { streams.closeAll() }
        while streams.isOpen {
            let remaining = deadline - Clock.monotonicMilliseconds()
            guard remaining > 0 else { return kill(pid) }
            streams.exchange(timeoutMilliseconds: remaining)
        }
        // Both outputs are closed, so the child is exiting: reap it, still within the deadline.
        while true {
            var status: Int32 = 0
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid {
                let stdout = String(decoding: streams.stdoutBytes, as: UTF8.self)
                let stderr = String(decoding: streams.stderrBytes, as: UTF8.self)
                let signal = status & 0x7F
                return signal == 0 ? .exited(status: (status >> 8) & 0xFF, stdout: stdout, stderr: stderr)
                    : .killedBySignal(signal, stderr: stderr)
            }
            if reaped < 0 && errno != EINTR {
                throw SpawnError(path: path, reason: "lost track of process \(pid): " + String(cString: strerror(errno)))
            }
            if Clock.monotonicMilliseconds() >= deadline { return kill(pid) }
            usleep(1000)
        }
    }

    /// Where one of a started child's standard streams goes.
    public enum Stream: Equatable, Sendable {
        /// A socket whose other end the parent holds (`Child.input`, `output`, `errorOutput`).
        case socket
        /// A file the child opens, never through a symbolic link: read for stdin; made (0600)
        /// or emptied, and written, for stdout and stderr. `/dev/null` gives nothing or throws away.
        case file(String)
    }

    /// Starts the program at `path` with exactly `environment` and returns it running, with the
    /// parent's ends of its stdin, stdout and stderr: sockets, close-on-exec, or -1 for a stream
    /// sent to a file. The caller reads, writes, closes them and reaps the child (`Child.wait`).
    /// With `ownProcessGroup`, the child leads a process group of its own: a Ctrl-C at the
    /// terminal reaches this process alone, which stops the child in its own time.
    public static func start(_ path: String, arguments: [String], environment: Environment, ownProcessGroup: Bool = false,
                             input: Stream = .socket, output: Stream = .socket, errorOutput: Stream = .socket) throws(SpawnError) -> Child {
        let streams = [input, output, errorOutput]
        // Per stream: the parent's end and the child's end of its socket pair, or -1.
        var pairs: [[Int32]] = [[-1, -1], [-1, -1], [-1, -1]]
        func closeAll() { for fd in pairs.joined() where fd >= 0 { close(fd) } }
        // Socket pairs rather than pipes: made close-on-exec atomically (Glibc does not export
        // pipe2), so a child spawned by another thread meanwhile cannot inherit them.
        let socketType = Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue)
        for index in streams.indices where streams[index] == .socket {
            guard socketpair(AF_UNIX, socketType, 0, &pairs[index]) == 0 else {
                let error = SpawnError(path: path, reason: String(cString: strerror(errno)))
                closeAll()
                throw error
            }
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (index, stream) in streams.enumerated() {
            switch stream {
            case .socket: posix_spawn_file_actions_adddup2(&actions, pairs[index][1], Int32(index))
            case .file(let file):
                let flags = (index == 0 ? O_RDONLY : O_WRONLY | O_CREAT | O_TRUNC) | O_NOFOLLOW
                posix_spawn_file_actions_addopen(&actions, Int32(index), file, flags, 0o600)
            }
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaultSignals = sigset_t()
        sigemptyset(&defaultSignals)
        for signal in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT] { sigaddset(&defaultSignals, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if ownProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.entries.map { strdup($0) } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid = pid_t()
        var spawned = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        // A program file just written can be held open for writing, for an instant, by a child
        // that another thread forked meanwhile (until its exec closes it): exec then fails with
        // ETXTBSY. Wait that instant out.
        for _ in 0..<50 where spawned == ETXTBSY {
            usleep(2000)
            spawned = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        }
        // The child's ends belong to the child now.
        for index in pairs.indices where pairs[index][1] >= 0 {
            close(pairs[index][1])
            pairs[index][1] = -1
        }
        guard spawned == 0 else {
            closeAll()
            throw SpawnError(path: path, reason: String(cString: strerror(spawned)))
        }
        return Child(pid: pid, input: pairs[0][0], output: pairs[1][0], errorOutput: pairs[2][0])
    }

    private static func kill(_ pid: pid_t) -> Outcome {
        _ = Glibc.kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return .timedOut
    }

    /// The parent's ends of the child's stdin, stdout and stderr, moved along with poll(2).
    private struct Streams {
        var input: Int32
        var stdout: Int32
        var stderr: Int32
        var pending: [UInt8]
        var sent = 0
        var stdoutBytes: [UInt8] = []
        var stderrBytes: [UInt8] = []

        init(input: Int32, stdout: Int32, stderr: Int32, pending: [UInt8]) {
            (self.input, self.stdout, self.stderr, self.pending) = (input, stdout, stderr, pending)
            for fd in [input, stdout, stderr] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
            if pending.isEmpty { Streams.close(&self.input) }
        }

        /// True until the child has closed both stdout and stderr.
        var isOpen: Bool { stdout >= 0 || stderr >= 0 }

        /// Waits up to `timeoutMilliseconds` for any stream to be ready, then moves what it can.
        mutating func exchange(timeoutMilliseconds: Int) {
            var fds = [input, stdout, stderr].map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            fds[0].events = Int16(POLLOUT)
            let ready = poll(&fds, nfds_t(fds.count), Int32(min(timeoutMilliseconds, Int(Int32.max))))
            guard ready > 0 else { return }  // timeout or EINTR: the caller checks the deadline
            if fds[0].revents != 0 { send() }
            if fds[1].revents != 0 { Streams.read(&stdout, into: &stdoutBytes) }
            if fds[2].revents != 0 { Streams.read(&stderr, into: &stderrBytes) }
        }

        private mutating func send() {
            let count = pending.withUnsafeBytes { bytes in
                Glibc.send(input, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            }
            if count > 0 { sent += count }
            // All sent, or the child will never read it (EPIPE, ECONNRESET): either way, done.
            if sent == pending.count || (count < 0 && errno != EAGAIN && errno != EINTR) { Streams.close(&input) }
        }

        private static func read(_ fd: inout Int32, into bytes: inout [UInt8]) {
            var chunk = [UInt8](repeating: 0, count: 16 * 1024)
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                if bytes.count < Subprocess.outputLimit { bytes.append(contentsOf: chunk[..<min(count, Subprocess.outputLimit - bytes.count)]) }
            } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                close(&fd)
            }
        }

        private static func close(_ fd: inout Int32) {
            if fd >= 0 { Glibc.close(fd) }
            fd = -1
        }

        mutating func closeAll() {
            Streams.close(&input)
            Streams.close(&stdout)
            Streams.close(&stderr)
        }
    }
}

/// Programs found on PATH.
extension Subprocess {
    /// A runner that spawns real programs with `environment` (its `PATH` says where they are).
    public static func runner(environment: Environment) -> ProcessRunner {
        { program, arguments, input throws(SubprocessError) in
            try run(program, arguments, input: input, environment: environment)
        }
    }

    /// The first executable `program` in the folders of `PATH` (default `/usr/bin:/bin`), or nil.
    /// A name with a slash is taken as a path.
    public static func find(_ program: String, environment: Environment) -> String? {
        if program.contains("/") { return access(program, X_OK) == 0 ? program : nil }
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":", omittingEmptySubsequences: true) {
            let candidate = folder + "/" + program
            var info = stat()
            if stat(candidate, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Runs `program`, found on `PATH`, with `arguments`, `input` on stdin and `environment`,
    /// and waits for it (at most two minutes: systemctl and crontab answer in well under a second).
    public static func run(_ program: String, _ arguments: [String], input: String?, environment: Environment) throws(SubprocessError) -> ProcessResult {
        guard let executable = find(program, environment: environment) else { throw .notFound(program: program) }
        let outcome: Outcome
        do {
            outcome = try run(executable, arguments: arguments, environment: environment, input: input ?? "", timeoutMilliseconds: 120_000)
        } catch {
            throw .failed(program: program, reason: error.reason)
        }
        switch outcome {
        case .exited(let status, let output, let errorOutput): return ProcessResult(status: status, output: output, errorOutput: errorOutput)
        case .killedBySignal(let signal, let errorOutput): return ProcessResult(status: 128 + signal, errorOutput: errorOutput)
        case .timedOut: throw .failed(program: program, reason: "it did not finish within two minutes")
        }
    }
}
