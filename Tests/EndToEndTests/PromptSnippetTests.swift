import Foundation
import Testing

/// The bash and zsh snippets from `manna init` show the verse at every prompt without starting
/// a process, and turn to the next day's verse when the date changes, with nothing else running
/// (issue 15, point 2).
@Suite(.needs(.strace)) struct PromptSnippetTests {
    /// Two zones 26 hours apart: at any instant their dates differ, so one prompt in each is a
    /// date change as the shell sees it, whenever the test runs.
    static let behind = "Etc/GMT+12"
    static let ahead = "Etc/GMT-14"

    /// A home whose timer ran yesterday (UTC): its prompt lines cover both zones' dates.
    private func homeWithPromptLines() throws -> (TemporaryHome, [String: String]) {
        let home = try TemporaryHome()
        home.environment["TZ"] = "UTC"
        let yesterday = Date().addingTimeInterval(-86_400)
        let written = home.run("timeline", "--now", Self.day(yesterday, zone: "UTC") + "T12:00")
        #expect(written.status == 0, "\(written.stderr)")
        let text = try String(contentsOfFile: home.path + "/.cache/manna/prompt.tsv", encoding: .utf8)
        var lines: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "\t", maxSplits: 1)
            lines[String(fields[0])] = String(fields[1])
        }
        #expect(lines.count == 7)
        return (home, lines)
    }

    static func day(_ date: Date, zone: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: zone)
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: date)
    }

    /// Runs `script` in `shell` under `strace -f -e trace=process`: its output, and every
    /// process call strace saw after the shell's own start.
    private func traced(_ shell: String, _ arguments: [String], script: String, home: TemporaryHome) throws -> (output: String, calls: [String]) {
        let shellPath = try #require(TestEnvironment.path(of: shell))
        let log = home.path + "/strace.log"
        let environment = ["PATH": "/usr/bin:/bin", "HOME": home.path, "TERM": "xterm", "LC_ALL": "C.UTF-8"]
        let run = try tool(.strace, ["-f", "-e", "trace=process", "-o", log, shellPath] + arguments + [script], environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        let calls = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
            .filter { !$0.contains("exit_group(") && !$0.contains("+++ exited") }
        // The one call allowed: strace starting the shell.
        #expect(calls.count == 1 && calls[0].contains("execve(\"\(shellPath)\""), "\(calls)")
        return (run.stdout, calls)
    }

    @Test func bashShowsEachDaysLineWithoutAProcess() throws {
        let (home, lines) = try homeWithPromptLines()
        let snippet = home.run("init", "bash")
        try snippet.stdout.write(toFile: home.path + "/snippet.bash", atomically: true, encoding: .utf8)
        let script = """
            PS1='$ '; source "$HOME/snippet.bash"
            NO_COLOR=1 TZ=\(Self.behind) eval "$PROMPT_COMMAND"; printf '%s\\n' "${PS1@P}"
            NO_COLOR=1 TZ=\(Self.ahead) eval "$PROMPT_COMMAND"; printf '%s\\n' "${PS1@P}"
            """
        let (output, _) = try traced("bash", ["--norc", "--noprofile", "-c"], script: script, home: home)
        let now = Date()
        let first = try #require(lines[Self.day(now, zone: Self.behind)])
        let second = try #require(lines[Self.day(now, zone: Self.ahead)])
        #expect(first != second)
        #expect(output == first + "\n$ \n" + second + "\n$ \n")
    }

    @Test(.needs(.zsh)) func zshShowsEachDaysLineWithoutAProcess() throws {
        let (home, lines) = try homeWithPromptLines()
        let snippet = home.run("init", "zsh")
        try snippet.stdout.write(toFile: home.path + "/snippet.zsh", atomically: true, encoding: .utf8)
        let script = """
            PROMPT='$ '; source "$HOME/snippet.zsh"
            NO_COLOR=1 TZ=\(Self.behind) __manna_precmd; print -r -- "$__manna_line"
            NO_COLOR=1 TZ=\(Self.ahead) __manna_precmd; print -r -- "$__manna_line"
            """
        let (output, _) = try traced("zsh", ["-f", "-c"], script: script, home: home)
        let now = Date()
        let first = try #require(lines[Self.day(now, zone: Self.behind)])
        let second = try #require(lines[Self.day(now, zone: Self.ahead)])
        // The prompt shows the variable (prompt_subst), with % doubled for prompt expansion.
        #expect(output == first.replacingOccurrences(of: "%", with: "%%") + "\n" + second.replacingOccurrences(of: "%", with: "%%") + "\n")
    }

    /// With no line for today (the timer has not run for a week), the snippet asks manna.
    @Test func bashFallsBackToMannaWhenTheLinesAreOld() throws {
        let home = try TemporaryHome()
        home.environment["TZ"] = "UTC"
        #expect(home.run("timeline", "--now", "2020-01-01T12:00").status == 0)
        let snippet = home.run("init", "bash")
        try snippet.stdout.write(toFile: home.path + "/snippet.bash", atomically: true, encoding: .utf8)
        let binary = URL(fileURLWithPath: Manna.binary).deletingLastPathComponent().path
        let run = try tool(.command("bash", package: "bash"), ["--norc", "--noprofile", "-c", #"source "$HOME/snippet.bash"; __manna_prompt; printf '%s' "$__manna_line""#],
                           environment: ["PATH": binary + ":/usr/bin:/bin", "HOME": home.path, "TZ": "UTC", "NO_COLOR": "1", "LC_ALL": "C.UTF-8"])
        let today = home.run("prompt")
        #expect(run.stdout + "\n" == today.stdout)
        #expect(!run.stdout.isEmpty)
    }
}
