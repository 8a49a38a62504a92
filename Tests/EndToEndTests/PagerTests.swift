// Long output through the pager on a terminal (tmux), as git's: less waits on a long chapter,
// and a verse that fits on the screen is printed and left.
import Foundation
import MannaKit
import TestSupport
import Testing

@Suite struct PagerTests {
    @Test(.needs(.tmux)) func aLongChapterIsPagedAndAShortPassageIsNot() throws {
        precondition(Manna.textDatabaseReady)
        let home = try TemporaryHome()
        let environment = ["HOME": home.path, "PATH": "/usr/bin:/bin", "PAGER": "less", "TZ": "UTC", "LANG": "C.UTF-8"]
        let long = try TestTerminal(columns: 80, rows: 20, environment: environment, command: [Manna.binary, "read", "Psalm 119"])
        // less holds the first screen and waits; q ends it, and manna exits 0.
        let screen = try long.waitFor { $0.first?.hasPrefix("Psalm 119 (KJV)") == true && $0.count == 20 }
        #expect(!screen.contains { $0.hasPrefix("EXIT=") })
        long.send("q")
        _ = try long.waitFor { $0.contains("EXIT=0") }

        let short = try TestTerminal(columns: 80, rows: 20, environment: environment, command: [Manna.binary, "read", "John 3:16"])
        let printed = try short.waitFor { $0.contains("EXIT=0") }
        #expect(printed.first == "John 3:16 (KJV)")
    }
}
