import Foundation
import Testing
import TestSupport

@Suite struct DoctorTests {
    @Test(.needs(.recordingServer)) func allIsWellWhenEverythingIsInPlace() throws {
        let bus = try TestBus()
        try bus.startRecordingServer(capabilities: "body body-markup actions")
        let home = try TemporaryHome(config: "translation = WEB\n")
        // An installed, enabled timer, as `manna install` leaves it.
        let units = home.url.appendingPathComponent(".config/systemd/user")
        try FileManager.default.createDirectory(at: units.appendingPathComponent("timers.target.wants"), withIntermediateDirectories: true)
        try String(contentsOfFile: Manna.root + "/systemd/manna.timer", encoding: .utf8).write(to: units.appendingPathComponent("manna.timer"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: units.appendingPathComponent("timers.target.wants/manna.timer").path, withDestinationPath: "../manna.timer")
        // A user manager in which it is enabled and active: a systemctl that says so, and its socket.
        let manager = try Scratch("manager")
        try FileManager.default.createDirectory(atPath: manager.path + "/bin", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: manager.path + "/run/systemd", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: manager.path + "/run/systemd/private", contents: nil)
        try "#!/bin/sh\ncase \"$2\" in is-enabled) echo enabled ;; is-active) echo active ;; esac\n"
            .write(toFile: manager.path + "/bin/systemctl", atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: manager.path + "/bin/systemctl")
        let environment = ["HOME": home.path, "TZ": "Europe/London", "DBUS_SESSION_BUS_ADDRESS": bus.address,
                           "PATH": manager.path + "/bin:/usr/bin:/bin", "XDG_RUNTIME_DIR": manager.path + "/run"]
        #expect(manna("tick", "--now", "2026-06-01T12:00", environment: environment).status == 0)
        let run = manna("doctor", "--now", "2026-06-01T12:05", environment: environment)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 12)
        #expect(lines.contains("ok    sync: not syncing"))
        #expect(lines.allSatisfy { $0.hasPrefix("ok    ") })
        #expect(lines.contains { $0.hasPrefix("ok    notification server: ") && $0.contains("capabilities: body body-markup actions") })
        #expect(lines.contains { $0 == "ok    time zone: Europe/London" })
        #expect(lines.contains("ok    scheduler: systemd timer manna.timer (\(home.path)/.config/systemd/user/manna.timer), enabled and active"))
    }

    @Test func eachProblemIsNamedWithWhatToDo() throws {
        let home = try TemporaryHome(config: "notify_at = breakfast\n")
        let runtime = try Scratch("runtime")
        let run = manna("doctor", environment: ["HOME": home.path, "TZ": "Atlantis/Capital", "XDG_RUNTIME_DIR": runtime.path])
        #expect(run.status == 69)
        #expect(run.stderr == "manna: 7 of 12 checks failed\n")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("FAIL  config: \(home.path)/.config/manna/config:1: notify_at must be a time HH:MM (24-hour), like 07:00, or off, not 'breakfast': "
                               + "that line is ignored, the defaults standing in; fix or remove it ('manna config unset KEY', or edit the file)"))
        #expect(lines.contains("FAIL  time zone: unknown time zone 'Atlantis/Capital': use a name from /usr/share/zoneinfo, like Europe/London or America/New_York"))
        #expect(lines.contains { $0.hasPrefix("FAIL  session bus: no D-Bus session bus") })
        #expect(lines.contains("FAIL  scheduler: nothing runs 'manna tick', and no systemd user manager runs for you here (as over ssh, "
            + "or in a container) to start a timer: run 'manna install --cron' to use cron"))
        #expect(lines.contains { $0.hasPrefix("ok    text database: ") })
    }

    /// A replayed tick (README's `manna tick --now`) ran now, not at the moment it replayed.
    @Test func theLastTickIsWhenATickRanNotTheMomentItReplayed() throws {
        let home = try TemporaryHome(config: "notify_at = off\n")
        let environment = ["HOME": home.path, "TZ": "UTC"]
        #expect(manna("tick", "--now", "2030-01-01T07:00", environment: environment).status == 0)
        let line = manna("doctor", environment: environment).stdout.split(separator: "\n").first { $0.contains(" last tick: ") }
        let today = String(ISO8601DateFormatter().string(from: Date()).prefix(10))
        #expect(line?.hasPrefix("ok    last tick: at \(today)T") == true, "\(line ?? "")")
    }
}
