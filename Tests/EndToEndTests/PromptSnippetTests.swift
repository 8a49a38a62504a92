import Foundation
import MannaKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The bash and zsh snippets from `manna init` show the verse at every prompt without starting
/// a process, and turn to the next day's line once its start has passed, with nothing else
/// running (issue 15, point 2).
@Suite(.needs(.strace)) struct PromptSnippetTests {
    /// A home whose timer has run: its prompt lines cover now.
    private func homeWithPromptLines() throws -> TemporaryHome {
        let home = try TemporaryHome()
        home.environment["TZ"] = "America/New_York"
        let written = home.run("timeline")
        #expect(written.status == 0, "\(written.stderr)")
        let lines = try String(contentsOfFile: home.path + "/.cache/manna/prompt.tsv", encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 7)
        return home
    }

    /// Runs `script` in `shell` under `strace -f -e trace=process`; fails the test if the shell
    /// started any process (a fork, a clone, an exec other than strace starting it).
    private func traced(_ shell: String, _ arguments: [String], script: String, home: TemporaryHome) throws -> String {
        let shellPath = try #require(TestEnvironment.path(of: shell))
        let log = home.path + "/strace.log"
        let environment = ["PATH": "/usr/bin:/bin", "HOME": home.path, "TERM": "xterm", "LC_ALL": "C.UTF-8", "NO_COLOR": "1"]
        let run = try tool(.strace, ["-f", "-e", "trace=process", "-o", log, shellPath] + arguments + [script], environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        let calls = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
            .filter { line in ["clone", "fork", "execve"].contains { line.contains(" \($0)") } }
        #expect(calls.count == 1 && calls[0].contains("execve(\"\(shellPath)\""), "\(calls)")
        return run.stdout
    }

    /// A file of two days whose second starts two seconds from now, and a FIFO to wait on with
    /// `read -t` (a built-in: the shell waits without `sleep`).
    private func midnightSoon(in home: TemporaryHome) throws {
        let now = Int(Date().timeIntervalSince1970)
        try "\(now - 100)\t2026-12-24\tPsalm 1:1\tDay one\n\(now + 2)\t2026-12-25\tPsalm 2:1\tDay two\n"
            .write(toFile: home.path + "/.cache/manna/prompt.tsv", atomically: true, encoding: .utf8)
        #expect(mkfifo(home.path + "/fifo", 0o600) == 0)
    }

    @Test func bashShowsTheLineOfNowWithoutAProcess() throws {
        let home = try homeWithPromptLines()
        try home.run("init", "bash").stdout.write(toFile: home.path + "/snippet.bash", atomically: true, encoding: .utf8)
        let show = #"eval "$PROMPT_COMMAND"; printf '%s\n' "${PS1@P}""#
        let today = try traced("bash", ["--norc", "--noprofile", "-c"], script: "PS1='$ '; source \"$HOME/snippet.bash\"; " + show, home: home)
        #expect(today == home.run("prompt").stdout + "$ \n")
        // A narrower terminal: cut as manna prompt cuts, after a whole word.
        for width in [21, 34, 47] {
            let narrow = try traced("bash", ["--norc", "--noprofile", "-c"], script: "PS1='$ ' COLUMNS=\(width); source \"$HOME/snippet.bash\"; " + show, home: home)
            #expect(narrow == home.run("prompt", "--width", "\(width)").stdout + "$ \n")
        }
        // Midnight passes while the shell waits: the next prompt shows the next day, nothing run.
        try midnightSoon(in: home)
        let flip = try traced("bash", ["--norc", "--noprofile", "-c"],
                              script: "PS1='$ '; source \"$HOME/snippet.bash\"; \(show); read -t 3 <> \"$HOME/fifo\"; \(show)", home: home)
        #expect(flip == "Day one\n$ \nDay two\n$ \n")
    }

    @Test(.needs(.zsh)) func zshShowsTheLineOfNowWithoutAProcess() throws {
        let home = try homeWithPromptLines()
        try home.run("init", "zsh").stdout.write(toFile: home.path + "/snippet.zsh", atomically: true, encoding: .utf8)
        let show = #"__manna_precmd; print -r -- "$__manna_line""#
        let today = try traced("zsh", ["-f", "-c"], script: "source \"$HOME/snippet.zsh\"; " + show, home: home)
        // The prompt shows the variable (prompt_subst), with % doubled for prompt expansion.
        #expect(today == home.run("prompt").stdout.replacingOccurrences(of: "%", with: "%%"))
        for width in [21, 34, 47] {
            let narrow = try traced("zsh", ["-f", "-c"], script: "COLUMNS=\(width); source \"$HOME/snippet.zsh\"; " + show, home: home)
            #expect(narrow == home.run("prompt", "--width", "\(width)").stdout.replacingOccurrences(of: "%", with: "%%"))
        }
        try midnightSoon(in: home)
        let flip = try traced("zsh", ["-f", "-c"], script: "source \"$HOME/snippet.zsh\"; \(show); read -t 3 <> \"$HOME/fifo\"; \(show)", home: home)
        #expect(flip == "Day one\nDay two\n")
    }

    /// With no line for now (the timer has not run for a week), the snippet asks manna.
    @Test func bashFallsBackToMannaWhenTheLinesAreOld() throws {
        let home = try TemporaryHome()
        home.environment["TZ"] = "UTC"
        #expect(home.run("timeline", "--now", "2020-01-01T12:00").status == 0)
        try home.run("init", "bash").stdout.write(toFile: home.path + "/snippet.bash", atomically: true, encoding: .utf8)
        let binary = URL(fileURLWithPath: Manna.binary).deletingLastPathComponent().path
        let run = try tool(.command("bash", package: "bash"), ["--norc", "--noprofile", "-c", #"source "$HOME/snippet.bash"; __manna_prompt; printf '%s' "$__manna_line""#],
                           environment: ["PATH": binary + ":/usr/bin:/bin", "HOME": home.path, "TZ": "UTC", "NO_COLOR": "1", "LC_ALL": "C.UTF-8"])
        let today = home.run("prompt")
        #expect(!run.stdout.isEmpty)
        #expect(run.stdout + "\n" == today.stdout)
    }
    /// prompt.tsv as anything but Manna's small file (issue 25, point 1) never holds a prompt
    /// up: a FIFO would block the read for ever (Ctrl-C does not help), a link to /dev/zero or
    /// a huge file would grow the shell without end. The snippet then asks `manna prompt`,
    /// within the deadline. A start with leading zeros is decimal (`10#`), not an octal error.
    /// Control characters in the file are shown as spaces.
    @Test(.needs(.zsh), arguments: ["bash", "zsh"]) func aCacheThatIsNotASmallFileNeverHoldsThePromptUp(shell: String) throws {
        let shellPath = try #require(TestEnvironment.path(of: shell))
        let home = try TemporaryHome()
        home.environment["TZ"] = "UTC"
        try home.run("init", shell).stdout.write(toFile: home.path + "/snippet", atomically: true, encoding: .utf8)
        let cache = home.path + "/.cache/manna"
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        let lines = cache + "/prompt.tsv"
        let binary = URL(fileURLWithPath: Manna.binary).deletingLastPathComponent().path
        let environment: Environment = ["PATH": binary + ":/usr/bin:/bin", "HOME": home.path, "TZ": "UTC", "NO_COLOR": "1", "LC_ALL": "C.UTF-8"]
        let show = shell == "bash" ? #"__manna_prompt; printf '%s' "$__manna_line""# : #"__manna_precmd; print -rn -- "$__manna_line""#
        let arguments = (shell == "bash" ? ["--norc", "--noprofile"] : ["-f"]) + ["-c", "source \"$HOME/snippet\"; " + show]
        let fallback = String(home.run("prompt").stdout.dropLast())
        // A start at or before now with an 8 or a 9 in it, so an octal reading would fail.
        let now = Int(Date().timeIntervalSince1970)
        let start = now / 10 * 10 - 1

        let cases: [(String, () throws -> Void, String)] = [
            ("a FIFO", { #expect(mkfifo(lines, 0o600) == 0) }, fallback),
            ("a link to /dev/zero", { try FileManager.default.createSymbolicLink(atPath: lines, withDestinationPath: "/dev/zero") }, fallback),
            ("a folder", { try FileManager.default.createDirectory(atPath: lines, withIntermediateDirectories: false) }, fallback),
            ("3 GB", { #expect(FileManager.default.createFile(atPath: lines, contents: nil) && truncate(lines, 3 << 30) == 0) }, fallback),
            ("leading zeros", { try "000\(start)\t2026-12-24\tPsalm 1:1\tDay one\n".write(toFile: lines, atomically: true, encoding: .utf8) }, "Day one"),
            // A title set, a screen cleared (ESC and C1 CSI), a bell: each a space (issue 25, point 3).
            ("control characters", { try "\(start)\t2026-12-24\tPsalm 1:1\tDay\u{1B}]0;owned\u{07} one\u{9B}2J\u{7F}\n".write(toFile: lines, atomically: true, encoding: .utf8) },
             "Day ]0;owned  one 2J "),
        ]
        for (name, make, expected) in cases {
            try? FileManager.default.removeItem(atPath: lines)
            try make()
            let outcome = try Subprocess.run(shellPath, arguments: arguments, environment: environment, input: "", timeoutMilliseconds: 3000)
            guard case .exited(let status, let stdout, let stderr) = outcome else {
                Issue.record("\(shell), prompt.tsv is \(name): no prompt within 3 s (\(outcome))")
                continue
            }
            #expect(status == 0 && stderr.isEmpty, "\(shell), \(name): \(stderr)")
            #expect(stdout == expected, "\(shell), \(name)")
        }
        try? FileManager.default.removeItem(atPath: lines)
    }
}
