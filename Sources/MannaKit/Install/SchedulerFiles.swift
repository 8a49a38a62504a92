// The systemd user units and the crontab line that run `manna tick` every minute, and the
// edits `manna install --cron` makes to a crontab. The checked-in systemd/ and cron/ files are
// these texts for the default prefix (~/.local): a test keeps them equal.

public enum SchedulerFiles {
    public static let serviceName = "manna.service"
    public static let timerName = "manna.timer"

    /// The service unit that runs `program tick` once. A program under `home` is spelled
    /// with `%h`, so the unit keeps working when the home folder moves or is renamed.
    public static func service(program: String, home: String) -> String {
        let execStart = program.hasPrefix(home + "/") ? systemdWord(String(program.dropFirst(home.count + 1)), after: "%h/") : systemdWord(program, after: "")
        return """
            # Manna's scheduler: one tick (`manna tick`) shows what is due and rewrites the timeline.
            # manna.timer starts it every minute. `manna install` puts both in ~/.config/systemd/user/
            # and enables the timer (`manna uninstall` takes them out); the package puts them in
            # /usr/lib/systemd/user/ for each user to enable: systemctl --user enable --now manna.timer.
            # A tick is idempotent, so this timer and the crontab line in cron/manna may both run:
            # nothing is ever shown twice.

            [Unit]
            Description=Manna scheduler tick: verse of the day, prayer reminders, timeline

            [Service]
            Type=oneshot
            ExecStart=\(execStart) tick
            # A tick takes milliseconds. A hung one must not hold back the ones after it: the timer
            # does not start the service again while it is still running.
            TimeoutStartSec=2min
            # Everything else goes first, without starving the tick (idle I/O could wait for ever).
            Nice=10
            IOSchedulingClass=best-effort
            IOSchedulingPriority=7
            # Hardening a user manager applies without user namespaces (prctl and seccomp only).
            # PrivateTmp=, ProtectSystem=, ProtectHome= and the other namespace options need
            # PrivateUsers= in a user unit, and the unit fails to start where user namespaces are
            # off; ProtectHome= would also hide the XDG folders a tick writes.
            NoNewPrivileges=yes
            LockPersonality=yes
            RestrictRealtime=yes
            RestrictSUIDSGID=yes
            RestrictNamespaces=yes
            SystemCallArchitectures=native
            SystemCallFilter=@system-service
            SystemCallErrorNumber=EPERM
            # Manna has no network code; notifications go over the session bus, a unix socket.
            RestrictAddressFamilies=AF_UNIX

            """
    }

    /// The timer unit: every minute on the wall clock, caught up after power-off and suspend.
    public static let timer = """
        # Starts manna.service (one scheduler tick) at the start of every minute.
        # `manna install` puts it in ~/.config/systemd/user/ and enables it; from the package
        # (/usr/lib/systemd/user/), each user enables it: systemctl --user enable --now manna.timer.

        [Unit]
        Description=Manna scheduler, every minute

        [Timer]
        OnCalendar=*-*-* *:*:00
        # After the machine was off, tick once at boot (after suspend, OnCalendar= alone does
        # that); the tick collapses what was missed into one notification, never a flood.
        Persistent=true
        # On the minute: the default accuracy (1min) lets systemd start it up to a minute late
        # to save wake-ups, so a 07:00 verse could come at 07:00:59.
        AccuracySec=1s
        # Tick at once when the clock is set (NTP after resume, by hand) or the time zone
        # changes, so reminders and the timeline follow the new local time without waiting
        # for the next minute.
        OnClockChange=yes
        OnTimezoneChange=yes

        [Install]
        WantedBy=timers.target

        """

    /// The crontab line that runs `program tick` every minute: `$HOME/...` for a program
    /// under `home`, so cron's sh finds it whatever the home folder is called. `test -x` first,
    /// as Debian's cron jobs do: a line left behind when the program is gone (a package purged:
    /// no maintainer script may edit a user's crontab) then does nothing, silently, instead of
    /// mailing "not found" every minute; `doctor` names it.
    public static func cronLine(program: String, home: String) -> String {
        let command = cronWord(program, home: home)
        return "* * * * * test -x " + command + " && " + command + " tick"
    }

    /// The line Manna wrote before it tested for the program first: `uninstall` and `install`
    /// still recognise it.
    public static func legacyCronLine(program: String, home: String) -> String {
        "* * * * * " + cronWord(program, home: home) + " tick"
    }

    /// `program` as one word for cron's sh: `$HOME/...` under `home`.
    static func cronWord(_ program: String, home: String) -> String {
        program.hasPrefix(home + "/") ? shellWord(String(program.dropFirst(home.count + 1)), after: "$HOME/") : shellWord(program, after: "")
    }

    /// The program a crontab line runs `tick` with, when it is a line that runs a `manna` every
    /// minute (either form above, or one written by hand like it), with `$HOME` expanded; else nil.
    public static func cronProgram(in line: String, home: String) -> String? {
        guard let words = shellWords(line), words.count >= 7, words.last == "tick" else { return nil }
        var command = Array(words[5..<(words.count - 1)])
        // test -x P && P
        if command.count == 5, command[0] == "test", command[1] == "-x", command[3] == "&&", command[2] == command[4] {
            command = [command[4]]
        }
        guard command.count == 1, var program = command.first, program.hasSuffix("/manna") || program == "manna" else { return nil }
        if program.hasPrefix("$HOME/") { program = home + program.dropFirst("$HOME".count) }
        return program
    }

    /// `line` cut into sh's words, as far as `shellWord` and hand-written crontab lines need:
    /// bare words, double-quoted words with `\` escapes, and cron's `\%`. Nil for anything else
    /// (single quotes, an unclosed quote).
    static func shellWords(_ line: String) -> [String]? {
        var words: [String] = []
        var word: String?
        var quoted = false
        var escaped = false
        for character in line {
            if escaped {
                word = (word ?? "") + String(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
                word = word ?? ""
            } else if character == "\"" {
                quoted.toggle()
                word = word ?? ""
            } else if character == "'" {
                return nil
            } else if !quoted && (character == " " || character == "\t") {
                if let done = word { words.append(done) }
                word = nil
            } else {
                word = (word ?? "") + String(character)
            }
        }
        guard !quoted, !escaped else { return nil }
        if let word { words.append(word) }
        return words
    }

    /// The comment put above the line in the user's crontab, saying where it came from.
    public static let cronComment = "# Manna's scheduler, every minute: added by 'manna install --cron', removed by 'manna uninstall'."

    /// `crontab` with `line` (and the comment above it) appended, less every line `replaces`
    /// picks (an older form of it, one running a program that is gone), or nil when that changes
    /// nothing. Every other line is kept exactly.
    public static func adding(_ line: String, to crontab: String, replacing replaces: (String) -> Bool = { _ in false }) -> String? {
        let kept = removing(where: { $0 != line && replaces($0) }, from: crontab)
        var text = kept ?? crontab
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.contains(where: { String($0).trimmingSpaces == line }) { return kept }
        if !text.isEmpty && !text.hasSuffix("\n") { text += "\n" }
        return text + cronComment + "\n" + line + "\n"
    }

    /// `crontab` without `line` and the comment `adding` put above it, or nil when it does
    /// not have the line. Every other line is kept exactly.
    public static func removing(_ line: String, from crontab: String) -> String? {
        removing(where: { $0 == line }, from: crontab)
    }

    /// `crontab` without the lines `matches` picks (compared without surrounding spaces), each
    /// with the comment `adding` put above it, or nil when it has none.
    public static func removing(where matches: (String) -> Bool, from crontab: String) -> String? {
        var lines = crontab.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.contains(where: { matches($0.trimmingSpaces) }) else { return nil }
        var index = 0
        while index < lines.count {
            if matches(lines[index].trimmingSpaces) {
                lines.remove(at: index)
                if index > 0 && lines[index - 1] == cronComment {
                    lines.remove(at: index - 1)
                    index -= 1
                }
            } else {
                index += 1
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `prefix` + `path` as the program of a unit's command line: a `%` in `path` doubled
    /// (systemd expands specifiers there; it takes `$` literally in the program), all in double
    /// quotes when `path` has a space. systemd refuses quotes and backslashes in a program's
    /// path, so a prefix with one is refused before it gets here.
    static func systemdWord(_ path: String, after prefix: String) -> String {
        var word = prefix
        for character in path {
            if character == "%" { word += "%" }
            word.append(character)
        }
        return path.contains(" ") ? "\"" + word + "\"" : word
    }

    /// `prefix` + `path` as one word for sh, as cron runs it: bare when `path` has only plain
    /// characters, else in double quotes with `$` and `` ` `` escaped (`"` and `\` never get here);
    /// a `%` becomes `\%`, which cron turns back into `%` before sh sees it.
    static func shellWord(_ path: String, after prefix: String) -> String {
        let plain = path.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "/._-+,:@=".contains($0)) }
        var word = ""
        for character in path {
            switch character {
            case "$", "`": word += "\\" + String(character)
            case "%": word += "\\%"
            default: word.append(character)
            }
        }
        return plain ? prefix + word : "\"" + prefix + word + "\""
    }
}
