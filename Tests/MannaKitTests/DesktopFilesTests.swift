import Foundation
import TestSupport
import Testing
@testable import MannaKit

@Suite struct DesktopFilesTests {
    @Test func theCheckedInDesktopEntryAndIconAreWhatInstallWrites() throws {
        #expect(try String(contentsOfFile: BuiltTexts.root + "/packaging/manna.desktop", encoding: .utf8) == DesktopFiles.windowEntry)
        #expect(try String(contentsOfFile: BuiltTexts.root + "/packaging/manna-terminal.desktop", encoding: .utf8) == DesktopFiles.terminalEntry)
        #expect(try String(contentsOfFile: BuiltTexts.root + "/packaging/manna.svg", encoding: .utf8) == DesktopFiles.icon)
    }

    /// Notifications name the entry by its id: a rename here would leave them nameless.
    @Test func theEntryIsTheOneNotificationsNameAndUsesTheIcon() {
        #expect(DesktopFiles.entryName == DesktopNotification(summary: "", body: "", category: .verse).desktopEntry + ".desktop")
        for entry in [DesktopFiles.windowEntry, DesktopFiles.terminalEntry] {
            #expect(entry.contains("\nIcon=\(DesktopFiles.iconName)\n"))
            #expect(entry.contains("\nX-GNOME-UsesNotifications=true\n"))
        }
    }

    /// The window's entry runs the reader and is the one GNOME Shell ties its window to (by the
    /// application id); the terminal's stays out of the menus.
    @Test func theWindowEntryOpensTheReaderAndTheOtherATerminal() {
        #expect(DesktopFiles.entry(window: true).contains("\nExec=\(DesktopFiles.readerName)\nTerminal=false\n"))
        #expect(DesktopFiles.entry(window: true).contains("\nStartupWMClass=invalid.manna.Reader\n"))
        #expect(!DesktopFiles.entry(window: true).contains("NoDisplay"))
        #expect(DesktopFiles.entry(window: false).contains("\nTerminal=true\n"))
        #expect(DesktopFiles.entry(window: false).contains("\nNoDisplay=true\n"))
    }
}
