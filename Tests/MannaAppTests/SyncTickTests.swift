import Foundation
import MannaKit
import Testing
import TestSupport
@testable import MannaApp

/// Sync as the tick does it: what one device changes reaches the other's reminders.
@Suite struct SyncTickTests {
    /// A reminder moved on the laptop fires on the desktop at its new time, not the old; a
    /// "Prayed" pressed on the desktop is recorded on the laptop.
    @Test func aReminderChangedOnOneDeviceFiresOnTheOtherAtItsNewTime() throws {
        let scratch = try Scratch("sync-tick")
        let shared = scratch.file("Sync")
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        let laptop = try TestHome(config: "notify_at = off\n"), desktop = try TestHome(config: "notify_at = off\n")
        let id = try laptop.addPrayer("For Anna", reminders: ["21:00"], now: "2026-12-01T12:00:00Z")
        #expect(laptop.run("sync", "init", shared, "--name", "laptop").status == 0)
        #expect(desktop.run("sync", "init", shared, "--name", "desktop").status == 0)
        #expect(laptop.run("pray", "edit", id, "--remind", "22:00", "--now", "2026-12-01T13:00:00Z").status == 0)
        #expect(laptop.run("sync", "now").status == 0)

        // The desktop's ticks sync first: 21:00 is no longer a reminder there, 22:00 is.
        desktop.tick("2026-12-01T20:59:00Z")
        desktop.tick("2026-12-01T21:00:00Z")
        #expect(desktop.notifier.shown.isEmpty)
        desktop.tick("2026-12-01T22:00:00Z")
        #expect(desktop.notifier.shown.map(\.summary) == ["For Anna"])

        #expect(desktop.run("pray", "prayed", id, "--now", "2026-12-01T22:01:00Z").status == 0)
        // The desktop's next tick sends it; the laptop's receives it.
        desktop.tick("2026-12-01T22:02:00Z")
        laptop.tick("2026-12-01T22:02:00Z")
        let shown = laptop.run("pray", "show", id, "--json")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
        #expect((json["prayed"] as? [String: Any])?["count"] as? Int == 1)
    }
}
