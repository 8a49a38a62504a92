import Foundation
import TestSupport
import Testing
@testable import MannaKit

@Suite struct DesktopFilesTests {
    @Test func theCheckedInDesktopEntryAndIconAreWhatInstallWrites() throws {
        #expect(try String(contentsOfFile: BuiltTexts.root + "/packaging/manna.desktop", encoding: .utf8) == DesktopFiles.entry)
        #expect(try String(contentsOfFile: BuiltTexts.root + "/packaging/manna.svg", encoding: .utf8) == DesktopFiles.icon)
    }

    /// Notifications name the entry by its id: a rename here would leave them nameless.
    @Test func theEntryIsTheOneNotificationsNameAndUsesTheIcon() {
        #expect(DesktopFiles.entryName == DesktopNotification(summary: "", body: "", category: .verse).desktopEntry + ".desktop")
        #expect(DesktopFiles.entry.contains("\nIcon=\(DesktopFiles.iconName)\n"))
        #expect(DesktopFiles.entry.contains("\nX-GNOME-UsesNotifications=true\n"))
    }
}
