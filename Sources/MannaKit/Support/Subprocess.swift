// Runs another program (systemctl, crontab) with posix_spawn: no shell, arguments passed as they are.
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
    /// A runner that spawns real programs with `environment` (its `PATH` says where they are).
    public static func runner(environment: [String: String]) -> ProcessRunner {
        { program, arguments, input throws(SubprocessError) in
            try run(program, arguments, input: input, environment: environment)
        }
    }

    /// The first executable `program` in the folders of `PATH` (default `/usr/bin:/bin`), or nil.
    /// A name with a slash is taken as a path.
    public static func find(_ program: String, environment: [String: String]) -> String? {
        if program.contains("/") { return access(program, X_OK) == 0 ? program : nil }
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":", omittingEmptySubsequences: true) {
            let candidate = folder + "/" + program
            var info = stat()
            if stat(candidate, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Runs `program` with `arguments` and `environment` and waits for it. Standard input is
    /// `input` (or empty); standard output and error are captured in unlinked temporary files,
    /// so no pipe can fill up and stall either side, and no SIGPIPE can reach this process.
    public static func run(_ program: String, _ arguments: [String], input: String?, environment: [String: String]) throws(SubprocessError) -> ProcessResult {
        guard let executable = find(program, environment: environment) else { throw .notFound(program: program) }
        let folder = environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        func failure(_ what: String) -> SubprocessError {
            .failed(program: program, reason: what + ": " + String(cString: strerror(errno)))
        }
        guard let stdin = scratchFile(in: folder), let stdout = scratchFile(in: folder), let stderr = scratchFile(in: folder) else {
            throw failure("cannot make a temporary file in \(folder)")
        }
        defer { close(stdin); close(stdout); close(stderr) }
        if let input, !write(input, to: stdin) { throw failure("cannot write its input") }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)

        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0.key + "=" + $0.value) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard spawned == 0 else {
            throw .failed(program: program, reason: String(cString: strerror(spawned)))
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw failure("cannot wait for it") }
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG are macros that Swift cannot call.
        let signal = status & 0x7f
        let exitStatus = signal == 0 ? (status >> 8) & 0xff : 128 + signal
        return ProcessResult(status: exitStatus, output: readAll(stdout), errorOutput: readAll(stderr))
    }

    /// A new empty file in `folder`, open for reading and writing, already unlinked.
    private static func scratchFile(in folder: String) -> Int32? {
        var template = Array((folder + "/manna.XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { return nil }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        return descriptor
    }

    private static func write(_ text: String, to descriptor: Int32) -> Bool {
        guard (try? Files.writeAll(Array(text.utf8)[...], to: descriptor, path: "")) != nil else { return false }
        return lseek(descriptor, 0, SEEK_SET) == 0
    }

    private static func readAll(_ descriptor: Int32) -> String {
        guard lseek(descriptor, 0, SEEK_SET) == 0, let bytes = try? Files.readAll(descriptor, path: "") else { return "" }
        return String(decoding: bytes, as: UTF8.self)
    }
}
