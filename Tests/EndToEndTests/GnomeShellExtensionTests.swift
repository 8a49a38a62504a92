// The GNOME Shell extension (widgets/gnome-shell): its logic's unit tests under gjs, on
// timelines this build of manna writes, and the extension loaded in a real headless GNOME
// Shell. Both are scripts beside the extension (tests/run-unit, tests/run-shell: what they
// check is said there); these tests run them, skipped where gjs or GNOME Shell is missing.
import Foundation
import TestSupport
import Testing

extension Prerequisite {
    static let gjs = command("gjs", package: "gjs")
    /// A headless GNOME Shell in a session bus of its own, with dbusmock's logind on a private system bus.
    static let gnomeShell = Prerequisite(group: "a headless GNOME Shell", [
        command("gnome-shell", package: "gnome-shell"), dbusDaemon, command("dbus-run-session", package: "dbus-daemon"), dbusmock, gio,
    ])
}

@Suite struct GnomeShellExtensionTests {
    static let folder = Manna.root + "/widgets/gnome-shell"

    /// Where run-shell keeps its screenshots and the Shell's log: $MANNA_TEST_ARTIFACTS/gnome-shell,
    /// else .build/test-artifacts/gnome-shell in the checkout.
    static let artifacts = (ProcessInfo.processInfo.environment["MANNA_TEST_ARTIFACTS"] ?? Manna.root + "/.build/test-artifacts") + "/gnome-shell"

    @Test(.needs(.gjs)) func theLogicPassesItsUnitTestsOnTimelinesThisMannaWrites() throws {
        precondition(Manna.textDatabaseReady)
        let fixtures = try Scratch("fixtures")
        let made = Manna.run([Manna.binary, fixtures.path], executable: Self.folder + "/tests/make-fixtures")
        #expect(made.status == 0, "\(made.stderr)")
        let run = Manna.run([fixtures.path], environment: ["MANNA": Manna.binary], executable: Self.folder + "/tests/run-unit")
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        // Both ways GNOME Shell loads it: the legacy importer (43-44) and ES modules (45+).
        #expect(run.stdout.contains("\nlegacy: ") && run.stdout.contains("\nmodule: "), "\(run.stdout)")
        #expect(!run.stdout.contains("FAILED"), "\(run.stdout)")
    }

    @Test(.needs(.gnomeShell)) func theExtensionLoadsInARealGnomeShellAndShowsTheVerse() throws {
        precondition(Manna.textDatabaseReady)
        let run = Manna.run([Self.artifacts], environment: ["MANNA": Manna.binary], executable: Self.folder + "/tests/run-shell")
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("\nok: menu.png: the menu at "), "\(run.stdout)")
        for screenshot in ["panel.png", "menu.png", "quiet.png"] {
            #expect(FileManager.default.fileExists(atPath: Self.artifacts + "/" + screenshot), "\(screenshot)")
        }
    }
}
