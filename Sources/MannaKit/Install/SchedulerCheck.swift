// How the running manna was installed, what could run `manna tick` here, and doctor's verdict
// on it: a pure function of the facts, so every case is tested without systemd or cron.

/// How the running manna was installed: it decides what `install` and `uninstall` do and
/// what `doctor` tells the user to do.
public enum Installation: Equatable, Sendable {
    /// The user's own manna: a build in a checkout, or one under the home folder (where
    /// `manna install` copies it, `~/.local`). `install` copies it into the prefix.
    case own
    /// Installed for every user at `prefix` (`prefix/bin/manna`), outside the home folder and
    /// any checkout: the Debian package's `/usr`. `install` copies nothing: it sets up the
    /// scheduler for that program (the package's own user units, or a crontab line), and
    /// `uninstall` takes only that away.
    case system(prefix: String)

    /// The rule: a manna at `PREFIX/bin/manna` that is neither under `home` nor inside a
    /// checkout (an ancestor holding `Package.swift` and `curated/`) is installed for everyone.
    public static func of(executable: String, home: String) -> Installation {
        let bin = Files.parent(of: executable)
        guard executable.hasSuffix("/bin/manna"), !home.isEmpty, !executable.hasPrefix(home + "/"),
              TextDatabaseLocator.checkout(containing: bin) == nil else { return .own }
        return .system(prefix: Files.parent(of: bin))
    }
}

/// What doctor observed about what could run `manna tick` for this user.
public struct SchedulerFacts: Equatable, Sendable {
    /// A line of the user's crontab that runs a manna's tick, the program it runs, and whether
    /// that program is there.
    public struct CronLine: Equatable, Sendable {
        public var line: String
        public var program: String
        public var exists: Bool

        public init(line: String, program: String, exists: Bool) {
            self.line = line
            self.program = program
            self.exists = exists
        }
    }

    public var installation: Installation
    /// The timer unit systemd would load (the user's, or a package's), nil when there is none.
    public var timerUnit: String?
    /// `systemctl --user is-enabled manna.timer` said enabled.
    public var timerEnabled: Bool
    /// A systemd user manager answered `systemctl --user is-active`.
    public var userManager: Bool
    /// It said the timer is active.
    public var timerActive: Bool
    /// The crontab lines that run a manna's tick.
    public var cronLines: [CronLine]
    /// A cron daemon is among the running processes (or systemd-cron runs crontabs).
    public var cronDaemon: Bool

    public init(installation: Installation, timerUnit: String? = nil, timerEnabled: Bool = false, userManager: Bool = false,
                timerActive: Bool = false, cronLines: [CronLine] = [], cronDaemon: Bool = false) {
        self.installation = installation
        self.timerUnit = timerUnit
        self.timerEnabled = timerEnabled
        self.userManager = userManager
        self.timerActive = timerActive
        self.cronLines = cronLines
        self.cronDaemon = cronDaemon
    }

    /// Doctor's scheduler line: ok only when something will run `manna tick` (the timer enabled
    /// and active under a running user manager, or a crontab line whose program is there with a
    /// cron daemon running); else what is wrong and the one thing to do, for this installation.
    public var verdict: (ok: Bool, detail: String) {
        let timer = SchedulerFiles.timerName
        let systemdRuns = userManager && timerEnabled && timerActive
        let stale = cronLines.first { !$0.exists }
        let running = cronLines.first { $0.exists }
        // A line whose program is gone does nothing (`test -x`), or mails "not found" every minute
        // (a line by hand, or from an older Manna): either way it should go.
        if let stale {
            let fix = systemdRuns || (running != nil && cronDaemon)
                ? "remove that line ('crontab -e')" : "run 'manna install --cron' (it replaces that line)"
            return (false, "your crontab runs \(stale.program), which is not there: " + fix)
        }
        if systemdRuns { return (true, "systemd timer \(timer) (\(timerUnit ?? timer)), enabled and active") }
        if let running {
            if cronDaemon { return (true, "crontab line: " + running.line) }
            if !(userManager && timerEnabled) {
                return (false, "your crontab runs manna, but no cron daemon is running: start one (Debian: systemctl enable --now cron)")
            }
        }
        // The install command that sets up the systemd timer, said for what it does here.
        let install = switch installation {
        case .own: "run 'manna install' (it installs manna in ~/.local and enables \(timer))"
        case .system: "run 'manna install' (it enables the packaged \(timer); it copies nothing)"
        }
        let noManager = "no systemd user manager runs for you here (as over ssh, or in a container) to start a timer: "
            + "run 'manna install --cron' to use cron"
        if timerEnabled {
            return (false, userManager ? "\(timer) is enabled but not active: run 'systemctl --user start \(timer)'" : "\(timer) is enabled, but " + noManager)
        }
        if let timerUnit {
            return (false, "systemd timer \(timerUnit) is installed but not enabled" + (userManager ? ": " + install : ", and " + noManager))
        }
        return (false, "nothing runs 'manna tick'" + (userManager ? ": " + install : ", and " + noManager))
    }
}
