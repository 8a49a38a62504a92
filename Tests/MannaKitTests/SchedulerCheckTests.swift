import Foundation
import Testing
import TestSupport
@testable import MannaKit

@Suite struct SchedulerCheckTests {
    static let own = Installation.own
    static let package = Installation.system(prefix: "/usr")
    static let unit = "/usr/lib/systemd/user/manna.timer"
    static let line = SchedulerFiles.cronLine(program: "/usr/bin/manna", home: "/home/ann")
    static let present = SchedulerFacts.CronLine(line: line, program: "/usr/bin/manna", exists: true)
    static let gone = SchedulerFacts.CronLine(line: "* * * * * $HOME/.local/bin/manna tick", program: "/home/ann/.local/bin/manna", exists: false)
    static let noManager = "no systemd user manager runs for you here (as over ssh, or in a container) to start a timer: run 'manna install --cron' to use cron"

    /// Doctor's scheduler line for each combination that matters: ok only when something will
    /// run `manna tick`, else the one thing to do, said for how manna was installed.
    @Test(arguments: [
        // The timer: enabled, active, under a running manager.
        (SchedulerFacts(installation: package, timerUnit: unit, timerEnabled: true, userManager: true, timerActive: true), true,
         "systemd timer manna.timer (\(unit)), enabled and active"),
        // Installed, not enabled: the package's own command enables it, copying nothing.
        (SchedulerFacts(installation: package, timerUnit: unit, userManager: true), false,
         "systemd timer \(unit) is installed but not enabled: run 'manna install' (it enables the packaged manna.timer; it copies nothing)"),
        (SchedulerFacts(installation: own, timerUnit: "/home/ann/.config/systemd/user/manna.timer", userManager: true), false,
         "systemd timer /home/ann/.config/systemd/user/manna.timer is installed but not enabled: run 'manna install' (it installs manna in ~/.local and enables manna.timer)"),
        (SchedulerFacts(installation: package, timerUnit: unit), false, "systemd timer \(unit) is installed but not enabled, and " + noManager),
        // Enabled, but nothing starts it.
        (SchedulerFacts(installation: package, timerUnit: unit, timerEnabled: true), false, "manna.timer is enabled, but " + noManager),
        (SchedulerFacts(installation: package, timerUnit: unit, timerEnabled: true, userManager: true), false,
         "manna.timer is enabled but not active: run 'systemctl --user start manna.timer'"),
        // Active without a manager cannot be: what is-active said without one is not believed.
        (SchedulerFacts(installation: package, timerUnit: unit, timerEnabled: true, timerActive: true), false, "manna.timer is enabled, but " + noManager),
        // cron: the line and a daemon.
        (SchedulerFacts(installation: package, cronLines: [present], cronDaemon: true), true, "crontab line: " + line),
        (SchedulerFacts(installation: package, cronLines: [present]), false,
         "your crontab runs manna, but no cron daemon is running: start one (Debian: systemctl enable --now cron)"),
        (SchedulerFacts(installation: package, timerUnit: unit, timerEnabled: true, userManager: true, timerActive: true, cronLines: [present]), true,
         "systemd timer manna.timer (\(unit)), enabled and active"),
        // A line whose program is gone fails, whatever else runs, and says what to do.
        (SchedulerFacts(installation: package, cronLines: [gone], cronDaemon: true), false,
         "your crontab runs /home/ann/.local/bin/manna, which is not there: run 'manna install --cron' (it replaces that line)"),
        (SchedulerFacts(installation: package, cronLines: [gone, present], cronDaemon: true), false,
         "your crontab runs /home/ann/.local/bin/manna, which is not there: remove that line ('crontab -e')"),
        (SchedulerFacts(installation: package, timerUnit: unit, timerEnabled: true, userManager: true, timerActive: true, cronLines: [gone]), false,
         "your crontab runs /home/ann/.local/bin/manna, which is not there: remove that line ('crontab -e')"),
        // Nothing at all.
        (SchedulerFacts(installation: package, userManager: true), false,
         "nothing runs 'manna tick': run 'manna install' (it enables the packaged manna.timer; it copies nothing)"),
        (SchedulerFacts(installation: own), false, "nothing runs 'manna tick', and " + noManager),
    ])
    func theVerdictFollowsWhatWillRunTheTick(facts: SchedulerFacts, ok: Bool, detail: String) {
        #expect(facts.verdict.ok == ok)
        #expect(facts.verdict.detail == detail)
    }

    @Test(arguments: [
        ("/usr/bin/manna", Installation.system(prefix: "/usr")),
        ("/opt/manna/bin/manna", .system(prefix: "/opt/manna")),
        ("/home/ann/.local/bin/manna", .own),
        ("/home/ann/apps/bin/manna", .own),
        // Not a prefix's bin/manna: a build, or a copy somewhere.
        ("/usr/local/manna", .own),
    ])
    func aMannaOutsideTheHomeAndAnyCheckoutIsInstalledForEveryone(executable: String, installation: Installation) {
        #expect(Installation.of(executable: executable, home: "/home/ann") == installation)
    }

    @Test func aBuildInACheckoutIsTheUsersOwnWhereverTheCheckoutIs() {
        // This test's own manna: .build/debug/manna in the checkout, which is not under HOME here.
        let checkout = BuiltTexts.root
        #expect(Installation.of(executable: checkout + "/.build/debug/bin/manna", home: "/nonexistent") == .own)
    }
}
