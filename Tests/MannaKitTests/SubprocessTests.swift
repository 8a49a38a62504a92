import Glibc
import Testing
@testable import MannaKit

@Suite struct SubprocessTests {
    let environment: Environment = ["PATH": "/usr/bin:/bin"]

    @Test func passesInputAndArgumentsAsTheyAreAndCapturesBothOutputs() throws {
        let result = try Subprocess.run("sh", ["-c", "cat; printf '%s|' \"$@\" >&2; exit 3", "sh", "a b", "$HOME", "*"], input: "line 1\nline 2\n", environment: environment)
        #expect(result == ProcessResult(status: 3, output: "line 1\nline 2\n", errorOutput: "a b|$HOME|*|"))
        #expect(result.firstLine == "a b|$HOME|*|")
    }

    @Test func theChildGetsOnlyTheEnvironmentGiven() throws {
        let result = try Subprocess.run("env", [], input: nil, environment: ["PATH": "/usr/bin:/bin", "MANNA_X": "1"])
        #expect(result.output.split(separator: "\n").sorted() == ["MANNA_X=1", "PATH=/usr/bin:/bin"])
    }

    @Test func aSignalEndsWith128PlusItsNumber() throws {
        let result = try Subprocess.run("sh", ["-c", "kill -9 $$"], input: nil, environment: environment)
        #expect(result.status == 137)
    }

    @Test func aProgramNotOnPathIsNotFound() {
        #expect(throws: SubprocessError.notFound(program: "crontab")) {
            try Subprocess.run("crontab", ["-l"], input: nil, environment: ["PATH": "/nonexistent"])
        }
    }

    /// A stream sent to a file goes there, and never through a symbolic link: a link planted
    /// where the file should be stops the start, and what it points to is left as it was.
    @Test func aStreamGoesToItsFileAndNeverThroughALink() throws {
        let folder = "/tmp/manna-subprocess-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        #expect(mkdir(folder, 0o700) == 0)
        defer { _ = try? Subprocess.run("rm", ["-rf", folder], input: nil, environment: environment) }
        let child = try Subprocess.start("/bin/sh", arguments: ["-c", "echo out; echo err >&2"], environment: environment,
                                         input: .file("/dev/null"), output: .file(folder + "/out"), errorOutput: .file(folder + "/err"))
        #expect(child.output == -1 && child.errorOutput == -1 && child.input == -1)
        #expect(child.wait() == 0)
        #expect(try Files.readText(folder + "/out") == "out\n" && Files.readText(folder + "/err") == "err\n")

        let target = folder + "/target"
        #expect(symlink(target, folder + "/link") == 0)
        #expect(throws: Subprocess.SpawnError.self) {
            try Subprocess.start("/bin/echo", arguments: ["written through the link"], environment: environment, output: .file(folder + "/link"))
        }
        #expect(access(target, F_OK) != 0, "nothing was made through the link")
    }
}
