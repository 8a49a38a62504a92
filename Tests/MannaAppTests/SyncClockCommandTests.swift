import Foundation
import MannaKit
import Testing
import TestSupport
@testable import MannaApp

/// A device whose clock is a year ahead, as its user meets it through the commands: the other
/// device says which device and what to do, `doctor` fails until it is mended, and once the
/// clock is set right what was written meanwhile arrives (issue 24, point 4).
@Suite struct SyncClockCommandTests {
    /// Two homes syncing through one new folder, as "laptop" and "desktop", nothing due.
    static func pair() throws -> (laptop: TestHome, desktop: TestHome, shared: String) {
        let laptop = try TestHome(config: "notify_at = off\n"), desktop = try TestHome(config: "notify_at = off\n")
        let shared = laptop.url.path + "-Sync"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        #expect(laptop.run("sync", "init", shared, "--name", "laptop").status == 0)
        #expect(desktop.run("sync", "init", shared, "--name", "desktop").status == 0)
        return (laptop, desktop, shared)
    }

    @Test func aDeviceAYearAheadIsNamedUntilItsClockIsSetRightThenWhatItWroteArrives() throws {
        let (laptop, desktop, _) = try Self.pair()

        desktop.clock = .fixed(instant("2027-12-01T12:00:00Z"))
        #expect(desktop.run("note", "add", "Rom 8:28", "written a year ahead").status == 0)
        #expect(desktop.run("sync", "now").status == 0)
        let held = laptop.run("sync", "now")
        #expect(held.stderr.contains("'desktop' (device ") && held.stderr.contains("stamped changes 365 days ahead of this device's clock"), "\(held.stderr)")
        #expect(laptop.run("sync", "status").stdout.contains("365 days ahead"))
        #expect(laptop.run("doctor").stdout.contains("FAIL  sync: 'desktop' (device "))
        #expect(!laptop.run("note", "list").stdout.contains("written a year ahead"))

        desktop.clock = .fixed(instant("2026-12-01T12:05:00Z"))
        let righted = desktop.run("sync", "now")
        #expect(righted.stdout.hasPrefix("this device's clock was 365 days ahead and has been set right"), "\(righted.stdout)")
        let arrived = laptop.run("sync", "now")
        #expect(arrived.stderr == "", "\(arrived.stderr)")
        #expect(laptop.run("note", "list").stdout.contains("written a year ahead"))
        #expect(laptop.run("doctor").stdout.contains("ok    sync: through "))
        #expect(laptop.run("export").stdout == desktop.run("export").stdout)
    }
}
