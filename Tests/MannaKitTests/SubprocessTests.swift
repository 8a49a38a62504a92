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
}
