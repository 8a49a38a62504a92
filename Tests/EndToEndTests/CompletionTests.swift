// Each shell's own completion driving the scripts `manna completions SHELL` prints, with the
// built `manna` on PATH: bash through `complete -p` and its completion function, fish through
// `complete -C`, zsh through a real interactive shell in a terminal (tmux) pressing Tab.
import Foundation
import MannaKit
import TestSupport
import Testing

@Suite struct CompletionTests {
    /// A home with one prayer and a file, and a PATH whose `manna` is the one built.
    final class Setting {
        let home: TemporaryHome
        let bin: String
        let prayer: String
        var environment: [String: String] { ["HOME": home.path, "PATH": bin + ":/usr/bin:/bin", "TZ": "UTC", "LANG": "C.UTF-8"] }

        init() throws {
            home = try TemporaryHome()
            bin = home.path + "/bin"
            try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: bin + "/manna", withDestinationPath: Manna.binary)
            try "{}".write(toFile: home.path + "/backup.json", atomically: true, encoding: .utf8)
            prayer = String(shortID(home.run("pray", "add", "Anna", "--body", "exam Friday").stdout, after: "added").prefix { $0 != ":" })
        }
    }

    @Test func bashCompletesCommandsOptionsValuesAndIds() throws {
        let setting = try Setting()
        let script = """
            cd "$HOME"
            source <(manna completions bash)
            complete -p manna
            c() { COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMPREPLY=(); _manna; local IFS='|'; echo "${COMPREPLY[*]}"; }
            c manna pra
            c manna pray sh
            c manna read -t ''
            c manna --translation WEB read 1jo
            c manna pray show ''
            c manna import back
            c manna sync stauts
            """
        let run = try tool(.command("bash", package: "bash"), ["--norc", "--noprofile", "-c", script], environment: setting.environment)
        #expect(run.stderr == "")
        #expect(run.stdout == """
            complete -F _manna manna
            pray
            show
            KJV|ASV|WBS|WEB|RV1909
            1John
            \(setting.prayer)
            backup.json


            """)
    }

    @Test(.needs(.fish)) func fishCompletesWithDescriptions() throws {
        let setting = try Setting()
        let script = """
            cd $HOME
            manna completions fish | source
            complete -C 'manna pray sh'
            complete -C 'manna read -t W'
            complete -C 'manna pray show '
            complete -C 'manna import back'
            """
        let run = try tool(.fish, ["--no-config", "-c", script], environment: setting.environment)
        #expect(run.stderr == "")
        #expect(run.stdout == """
            show
            WBS\tWebster Bible (Noah Webster's revision)
            WEB\tWorld English Bible
            \(setting.prayer)\tAnna
            backup.json

            """)
    }

    @Test(.needs(.zsh, .tmux)) func zshCompletesWhenTabIsPressed() throws {
        let setting = try Setting()
        let zdotdir = setting.home.path + "/zsh"
        try FileManager.default.createDirectory(atPath: zdotdir + "/functions", withIntermediateDirectories: true)
        try setting.home.run("completions", "zsh").stdout.write(toFile: zdotdir + "/functions/_manna", atomically: true, encoding: .utf8)
        try """
            fpath=(\(zdotdir)/functions $fpath)
            autoload -Uz compinit && compinit -u -d \(zdotdir)/compdump
            PS1='%% '
            cd $HOME

            """.write(toFile: zdotdir + "/.zshrc", atomically: true, encoding: .utf8)
        var environment = setting.environment
        environment["ZDOTDIR"] = zdotdir
        let terminal = try TestTerminal(columns: 100, rows: 20, environment: environment, command: ["zsh", "-i"])
        _ = try terminal.waitFor { $0.last?.hasPrefix("%") == true }
        for (typed, completed) in [("manna pray sh", "manna pray show "), ("manna read -t WE", "manna read -t WEB "),
                                   ("manna read 1jo", "manna read 1John "), ("manna pray show ", "manna pray show \(setting.prayer) "),
                                   ("manna import back", "manna import backup.json ")] {
            terminal.send(typed)
            terminal.send("Tab")
            _ = try terminal.waitFor { $0.contains { $0.hasSuffix(completed.trimmingCharacters(in: .whitespaces)) } }
            terminal.send("C-u")
            _ = try terminal.waitFor { $0.last == "%" }
        }
    }
}
