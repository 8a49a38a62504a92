import Foundation
import Testing
import MannaKit
import TestSupport

extension InstallSandbox {
    /// A stand-in for a systemd user manager's systemctl: `enable` and `disable` make and remove
    /// the user's link, as systemctl does, and `is-enabled` and `is-active` answer from it.
    static func userManager(home: String) -> String {
        """
        wants='\(home)/.config/systemd/user/timers.target.wants'
        case "$2" in
            enable) mkdir -p "$wants" && ln -sf /usr/lib/systemd/user/manna.timer "$wants/manna.timer" ;;
            disable) rm -f "$wants/manna.timer" ;;
            is-enabled) if [ -L "$wants/manna.timer" ]; then echo enabled; else echo disabled; exit 1; fi ;;
            is-active) if [ -L "$wants/manna.timer" ]; then echo active; else echo inactive; exit 3; fi ;;
        esac
        """
    }

    /// The package's files (`manna install --prefix /usr --destdir`) under the sandbox, outside
    /// the home folder and any checkout: its `usr/bin/manna` is a manna installed for everyone.
    func stagePackage() throws -> String {
        let root = self.root + "/system"
        let staged = manna("install", "--prefix", "/usr", "--destdir", root)
        try #require(staged.status == 0, "\(staged.stderr)")
        return root + "/usr/bin/manna"
    }

    func run(_ program: String, _ arguments: String...) -> Run {
        var environment = self.environment
        // The packaged manna finds its own database, as /usr/bin/manna does.
        environment["MANNA_TEXT_DB"] = nil
        return Manna.run(arguments, environment: environment, executable: program)
    }

    func schedulerLine(_ program: String) -> String? {
        run(program, "doctor").stdout.split(separator: "\n").first { $0.contains(" scheduler: ") }.map(String.init)
    }
}

/// `manna install` run from a package copies nothing (issue 32): the package keeps reaching the
/// user with each upgrade, and a purge leaves no copy behind.
@Suite struct PackageInstallTests {
    @Test func fromAPackageInstallEnablesThePackagedTimerAndCopiesNothing() throws {
        let sandbox = try InstallSandbox(systemd: true)
        let program = try sandbox.stagePackage()
        // A user manager for this sandbox's home.
        try ("#!/bin/sh\necho \"systemctl $*\" >> '\(sandbox.root)/calls'\n" + InstallSandbox.userManager(home: sandbox.home) + "\n")
            .write(toFile: sandbox.fakes + "/systemctl", atomically: false, encoding: .utf8)
        #expect(sandbox.schedulerLine(program) == "FAIL  scheduler: systemd timer \(sandbox.root)/system/usr/lib/systemd/user/manna.timer is installed "
            + "but not enabled: run 'manna install' (it enables the packaged manna.timer; it copies nothing)")

        // An earlier `manna install`'s units in the user's folder would hide the package's.
        try sandbox.write("[Service]\nExecStart=%h/.local/bin/manna tick\n", at: ".config/systemd/user/manna.service")
        let install = sandbox.run(program, "install")
        #expect(install.status == 0, "\(install.stderr)")
        #expect(install.stdout == """
            \(program) is installed for every user: nothing to copy
            removed \(sandbox.home)/.config/systemd/user/manna.service: the package's \(sandbox.root)/system/usr/lib/systemd/user units run instead
            ran systemctl --user daemon-reload
            ran systemctl --user enable --now manna.timer
            wrote \(sandbox.home)/.cache/manna/timeline.json

            """)
        // Nothing of manna's in the home folder but the cache and the link systemctl made.
        #expect(sandbox.filesInHome().keys.sorted() == [".cache/manna/prompt.tsv", ".cache/manna/timeline.json",
                                                        ".config/systemd/user/timers.target.wants/manna.timer"])
        #expect(sandbox.schedulerLine(program) == "ok    scheduler: systemd timer manna.timer (\(sandbox.root)/system/usr/lib/systemd/user/manna.timer), "
            + "enabled and active")

        // uninstall takes away what it set up, and keeps the package's files.
        let uninstall = sandbox.run(program, "uninstall")
        #expect(uninstall.status == 0, "\(uninstall.stderr)")
        #expect(uninstall.stdout.hasPrefix("ran systemctl --user disable --now manna.timer\n"))
        #expect(uninstall.stdout.contains("\nkept \(program): it is installed for every user, and the system's package manager removes it\n"))
        #expect(FileManager.default.isExecutableFile(atPath: program))
        #expect(sandbox.filesInHome() == [:])
    }
}

/// With cron, in CronInstallTests' one-at-a-time suite: a running cron daemon is what they all look for.
extension CronInstallTests {
    @Test(.needs(.crontab)) func fromAPackageCronInstallWritesTheLineForThePackagedProgramInPlaceOfOneForAManaThatIsGone() throws {
        // An older install's line, whose ~/.local/bin/manna is gone.
        let sandbox = try InstallSandbox(crontab: "* * * * * $HOME/.local/bin/manna tick\n")
        try sandbox.startCronDaemon()
        let program = try sandbox.stagePackage()
        #expect(sandbox.schedulerLine(program) == "FAIL  scheduler: your crontab runs \(sandbox.home)/.local/bin/manna, which is not there: "
            + "run 'manna install --cron' (it replaces that line)")
        let install = sandbox.run(program, "install", "--cron")
        #expect(install.status == 0, "\(install.stderr)")
        let line = "* * * * * test -x \(program) && \(program) tick"
        #expect(install.stdout.hasPrefix("\(program) is installed for every user: nothing to copy\nadded to your crontab: \(line)\n"))
        #expect(sandbox.crontab == SchedulerFiles.cronComment + "\n" + line + "\n")
        #expect(try tool(.crontab, ["-n", sandbox.crontabFile]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: sandbox.home + "/.local"))
        #expect(sandbox.schedulerLine(program) == "ok    scheduler: crontab line: " + line)

        // The program gone (the package purged; no maintainer script may edit a crontab): the
        // line does nothing, says nothing, and doctor names it.
        let gone = try Programs.run("/bin/sh", ["-c", "test -x '\(sandbox.root)/gone/manna' && '\(sandbox.root)/gone/manna' tick"],
                                    environment: ProcessInfo.processInfo.environment)
        #expect(gone.stdout.isEmpty && gone.stderr.isEmpty)

        let uninstall = sandbox.run(program, "uninstall")
        #expect(uninstall.status == 0, "\(uninstall.stderr)")
        #expect(uninstall.stdout.hasPrefix("removed from your crontab: \(line)\n"))
        #expect(sandbox.crontab == "")
    }
}
