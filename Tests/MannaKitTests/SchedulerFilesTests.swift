import Foundation
import TestSupport
import Testing
@testable import MannaKit

@Suite struct SchedulerFilesTests {
    static func checkedIn(_ path: String) throws -> String {
        try String(contentsOfFile: BuiltTexts.root + "/" + path, encoding: .utf8)
    }

    @Test func theCheckedInUnitsAreWhatInstallWrites() throws {
        #expect(try Self.checkedIn("systemd/manna.service") == SchedulerFiles.service(program: "/home/ann/.local/bin/manna", home: "/home/ann"))
        #expect(try Self.checkedIn("systemd/manna.timer") == SchedulerFiles.timer)
    }

    @Test func theCheckedInCronFileEndsWithTheLineInstallAdds() throws {
        let lines = try Self.checkedIn("cron/manna").split(separator: "\n")
        #expect(lines.last.map(String.init) == SchedulerFiles.cronLine(program: "/home/ann/.local/bin/manna", home: "/home/ann"))
        #expect(lines.dropLast().allSatisfy { $0.hasPrefix("#") })
    }

    @Test(arguments: [
        ("/home/ann/.local/bin/manna", "ExecStart=%h/.local/bin/manna tick", "$HOME/.local/bin/manna"),
        ("/home/ann/my apps/bin/manna", "ExecStart=\"%h/my apps/bin/manna\" tick", "\"$HOME/my apps/bin/manna\""),
        ("/opt/manna/bin/manna", "ExecStart=/opt/manna/bin/manna tick", "/opt/manna/bin/manna"),
        ("/opt/100% $x `y`/bin/manna", "ExecStart=\"/opt/100%% $x `y`/bin/manna\" tick", "\"/opt/100\\% \\$x \\`y\\`/bin/manna\""),
    ])
    func programsAreSpelledForSystemdAndForCronsShell(program: String, execStart: String, cronWord: String) {
        let service = SchedulerFiles.service(program: program, home: "/home/ann")
        #expect(service.split(separator: "\n").filter { $0.hasPrefix("ExecStart=") } == [Substring(execStart)])
        // Tested first, so a line whose program is gone does nothing.
        let line = SchedulerFiles.cronLine(program: program, home: "/home/ann")
        #expect(line == "* * * * * test -x \(cronWord) && \(cronWord) tick")
        // doctor reads the program back out of either form.
        #expect(SchedulerFiles.cronProgram(in: line, home: "/home/ann") == program)
        #expect(SchedulerFiles.cronProgram(in: SchedulerFiles.legacyCronLine(program: program, home: "/home/ann"), home: "/home/ann") == program)
    }

    @Test(arguments: ["0 3 * * * /usr/bin/backup --all", "* * * * * /usr/bin/manna today", "* * * * * test -x /a/manna && /b/manna tick",
                      "* * * * * 'x/manna' tick", "MAILTO=\"\"", "* * * * * /usr/bin/mannatee tick"])
    func otherLinesRunNoMannaTick(line: String) {
        #expect(SchedulerFiles.cronProgram(in: line, home: "/home/ann") == nil)
    }

    @Test func addingReplacesTheLinesItIsToldTo() throws {
        let legacy = SchedulerFiles.legacyCronLine(program: "/home/ann/.local/bin/manna", home: "/home/ann")
        let mine = "0 3 * * * /usr/bin/backup\n"
        let replaced = SchedulerFiles.adding(Self.line, to: mine + SchedulerFiles.cronComment + "\n" + legacy + "\n") { $0 == legacy }
        #expect(replaced == mine + Self.added)
        // Nothing to replace and the line there: nothing to write.
        #expect(SchedulerFiles.adding(Self.line, to: mine + Self.added) { $0 == legacy } == nil)
    }

    static let line = SchedulerFiles.cronLine(program: "/home/ann/.local/bin/manna", home: "/home/ann")
    static let added = SchedulerFiles.cronComment + "\n" + line + "\n"

    @Test(arguments: [
        ("", added),
        ("MAILTO=\"\"\n0 3 * * * /usr/bin/backup --all\n", "MAILTO=\"\"\n0 3 * * * /usr/bin/backup --all\n" + added),
        // A crontab without a final newline gets one, so the two lines stay two lines.
        ("0 3 * * * /usr/bin/backup", "0 3 * * * /usr/bin/backup\n" + added),
    ])
    func addingKeepsEveryOtherLine(crontab: String, expected: String) {
        #expect(SchedulerFiles.adding(Self.line, to: crontab) == expected)
    }

    @Test func addingTwiceAddsOnce() throws {
        let once = try #require(SchedulerFiles.adding(Self.line, to: "# mine\n"))
        #expect(SchedulerFiles.adding(Self.line, to: once) == nil)
        // Also when the user put the same line there themselves.
        #expect(SchedulerFiles.adding(Self.line, to: "  " + Self.line + "\n") == nil)
    }

    @Test func removingTakesTheLineAndItsCommentOnly() throws {
        let mine = "MAILTO=\"\"\n# backups\n0 3 * * * /usr/bin/backup --all\n\n"
        let installed = try #require(SchedulerFiles.adding(Self.line, to: mine))
        #expect(SchedulerFiles.removing(Self.line, from: installed) == mine)
        #expect(SchedulerFiles.removing(Self.line, from: mine) == nil)
        // A line without the comment goes; a comment of the user's above it stays.
        #expect(SchedulerFiles.removing(Self.line, from: "# my manna\n" + Self.line + "\n5 * * * * x\n") == "# my manna\n5 * * * * x\n")
        #expect(SchedulerFiles.removing(Self.line, from: Self.added) == "")
    }
}
