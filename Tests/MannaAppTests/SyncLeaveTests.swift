import Foundation
import MannaKit
import Testing
import TestSupport
@testable import MannaApp

/// Devices that stop syncing (issue 24, point 8): one that leaves says so in the folder, one
/// silent for long is named with what to do, and one forgotten that syncs again goes on as a
/// new device, losing nothing.
@Suite struct SyncLeaveTests {
    /// Two homes syncing through one folder, the desktop having sent a note.
    func pair(config: String = "notify_at = off\n") throws -> (laptop: TestHome, desktop: TestHome, shared: String) {
        let laptop = try TestHome(config: config), desktop = try TestHome(config: config)
        let shared = laptop.url.path + "-Sync"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        #expect(laptop.run("sync", "init", shared, "--name", "laptop").status == 0)
        #expect(desktop.run("note", "add", "Rom 8:28", "from the desktop").status == 0)
        #expect(desktop.run("sync", "init", shared, "--name", "desktop").status == 0)
        #expect(laptop.run("sync", "now").stdout.contains("from 'desktop'"))
        return (laptop, desktop, shared)
    }

    @Test func aDeviceThatLeftIsSaidToHaveLeft() throws {
        let (laptop, desktop, _) = try pair()
        let left = desktop.run("sync", "leave")
        #expect(left.status == 0 && left.stderr == "", "\(left.stderr)")
        let status = laptop.run("sync", "status").stdout
        #expect(status.contains("'desktop' (device ") && status.contains("; left 2026-12-01: nothing is kept for it"), "\(status)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(laptop.run("sync", "status", "--json").stdout.utf8)) as? [String: Any])
        #expect((json["devices"] as? [[String: Any]])?.first?["left"] as? String == "2026-12-01T12:00:00+00:00")
        // Doctor does not count it among the devices this one syncs with.
        let doctor = laptop.run("doctor").stdout
        #expect(doctor.contains("as 'laptop' with 0 other devices (1 more left)"), "\(doctor)")
        // Long after, a device that left is not called silent.
        laptop.clock = .fixed(instant("2027-06-01T12:00:00Z"))
        #expect(!laptop.run("sync", "status").stdout.contains("nothing from it"))
    }

    /// A device that leaves and joins again keeps its old id as its own: neither `sync status`
    /// nor `doctor` counts it among the other devices, or among those that left.
    @Test func aDeviceThatJoinsAgainIsNotItsOwnOtherDevice() throws {
        let (laptop, desktop, shared) = try pair()
        #expect(laptop.run("note", "add", "Ps 23:1", "from the laptop").status == 0)
        #expect(laptop.run("sync", "now").status == 0)
        #expect(desktop.run("sync", "leave").status == 0)
        #expect(desktop.run("sync", "init", shared, "--name", "desktop").status == 0)
        let doctor = desktop.run("doctor").stdout
        #expect(doctor.contains("as 'desktop' with 1 other device (last synced"), "\(doctor)")
        let status = desktop.run("sync", "status").stdout
        #expect(status.components(separatedBy: "'desktop'").count == 2, "\(status)")
    }

    @Test func aSilentDeviceIsNamedAndOnceForgottenGoesOnAsANewDeviceLosingNothing() throws {
        let (laptop, desktop, _) = try pair()
        // The desktop writes, then is away: 91 days on, the laptop names it.
        #expect(desktop.run("note", "add", "Ps 23:1", "written while away").status == 0)
        laptop.clock = .fixed(instant("2027-03-02T12:00:00Z"))
        let status = laptop.run("sync", "status").stdout
        #expect(status.contains("; nothing from it for 91 days: if it is gone for good, 'manna sync forget desktop' lets the folder shrink"), "\(status)")
        #expect(laptop.run("doctor").stdout.contains("; nothing from 'desktop' for 90 days or more: 'manna sync forget NAME' if gone for good"))

        let forgot = laptop.run("sync", "forget", "Desktop")
        #expect(forgot.status == 0, "\(forgot.stderr)")
        #expect(forgot.stdout.hasPrefix("forgot 'desktop' (device ") && forgot.stdout.hasSuffix("should it sync again, it goes on as a new device and sends all it knows\n"))
        let after = laptop.run("sync", "status").stdout
        #expect(after.contains("; forgotten 2027-03-02: nothing is kept for it") && !after.contains("nothing from it"), "\(after)")

        // It syncs again after all: a new device, its note written while away arrives, nothing twice.
        let back = desktop.run("sync", "now")
        #expect(back.stdout.hasPrefix("this device was forgotten on another (device "), "\(back.stdout)")
        #expect(back.stdout.contains("it goes on as a new device (device "))
        laptop.run("sync", "now")
        desktop.run("sync", "now")
        let notes = laptop.run("note", "list").stdout
        #expect(notes.contains("written while away") && notes.contains("from the desktop"), "\(notes)")
        #expect(notes.split(separator: "\n").count == 2, "\(notes)")
        #expect(laptop.run("export").stdout == desktop.run("export").stdout)
    }

    @Test func theSilenceThatIsNamedIsConfigured() throws {
        let (laptop, _, _) = try pair(config: "notify_at = off\nsync_silent_days = 120\n")
        laptop.clock = .fixed(instant("2027-03-02T12:00:00Z"))
        #expect(!laptop.run("sync", "status").stdout.contains("nothing from it"))
        laptop.clock = .fixed(instant("2027-04-01T12:00:00Z"))
        #expect(laptop.run("sync", "status").stdout.contains("nothing from it for 121 days"))
    }

    @Test(arguments: [
        (["sync", "forget"], 64, "manna: sync forget needs the name (or id) of one device, as 'manna sync status' shows it, like 'manna sync forget laptop'\n"),
        (["sync", "forget", "laptop"], 64, "manna: 'laptop' is this device: 'manna sync leave' stops it syncing\n"),
        (["sync", "forget", "phone"], 65, "manna: no device called 'phone' has synced here; the others are 'desktop'\n"),
    ])
    func forgettingWhatIsNotAnotherDeviceIsOneLine(_ arguments: [String], status: Int32, stderr: String) throws {
        let (laptop, _, _) = try pair()
        let outcome = laptop.run(arguments)
        #expect(outcome.status == status && outcome.stderr == stderr, "\(outcome)")
    }
}
