// `manna widget --follow`, the one long-running process a panel keeps: it follows the world that
// changes under it (the zone, files that break), and goes when its reader goes.
import Foundation
import Testing
import TestSupport

/// A `manna widget --follow` (or another long-running program) whose stdout a test reads with
/// deadlines (without blocking: a read in progress would keep the pipe's reading end open).
final class Follower {
    let process: RunningProgram
    private var received = Data()
    private var reader: Int32

    init(_ arguments: [String], executable: String = Manna.binary, environment: [String: String]) throws {
        precondition(Manna.textDatabaseReady)
        process = try RunningProgram(executable, arguments, environment: environment, errorOutput: .socket)
        reader = process.output
        for descriptor in [process.output, process.errorOutput] { _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK) }
    }

    /// Everything it printed so far.
    var text: String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while reader >= 0 {
            let count = read(reader, &buffer, buffer.count)
            guard count > 0 else { break }
            received += buffer[..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// Waits until the output holds `lines` lines, or `seconds` pass; the output so far.
    @discardableResult
    func waitForLines(_ lines: Int, seconds: Double) -> String {
        let deadline = Date().addingTimeInterval(seconds)
        while text.filter({ $0 == "\n" }).count < lines && Date() < deadline && process.isRunning { usleep(20_000) }
        return text
    }

    /// Waits until the process ends, or `seconds` pass: true if it ended.
    func waitForExit(seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        return !process.isRunning
    }

    /// Closes the reading end of its stdout, as a panel that stops reading does.
    func closeReader() {
        process.closeOutput()
        reader = -1
    }

    /// What it said on stderr so far.
    var stderr: String {
        let descriptor = process.errorOutput
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            guard count > 0 else { break }
            said += buffer[..<count]
        }
        return String(decoding: said, as: UTF8.self)
    }

    private var said = Data()
}

@Suite struct FollowerTests {
    /// A panel that goes away (its end of the pipe closed) takes the follower with it at once,
    /// not at the next change of verse, up to a day later.
    @Test func aFollowerEndsAsSoonAsItsReaderGoes() throws {
        let home = try TemporaryHome(environment: ["TZ": "UTC", "PATH": "/usr/bin:/bin"])
        #expect(home.run("timeline").status == 0)
        let follower = try Follower(["widget", "--format", "waybar", "--follow"], environment: home.environment)
        #expect(follower.waitForLines(1, seconds: 10) == home.run("widget", "--format", "waybar").stdout)
        #expect(follower.process.isRunning)
        let closed = Date()
        follower.closeReader()
        #expect(follower.waitForExit(seconds: 5), "still running after its reader went")
        #expect(Date().timeIntervalSince(closed) < 5)
        #expect(follower.process.exitStatus == 0)
    }

    /// No timeline and a journal that cannot be read: the follower shows the day's verse from
    /// the shipped list, says why once on stderr, and stays, where it used to exit 74 and leave
    /// the panel empty until the panel restarted. With no text database either, it shows
    /// "Manna" and why, and stays.
    @Test func aFollowerSurvivesWhatItCannotReadByShowingItsFallback() throws {
        let home = try TemporaryHome(environment: ["TZ": "UTC", "PATH": "/usr/bin:/bin"])
        let plain = try TemporaryHome(environment: ["TZ": "UTC", "PATH": "/usr/bin:/bin"])
        let folder = home.path + "/.local/share/manna"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data("this is not a database, it is a broken journal".utf8).write(to: URL(fileURLWithPath: home.journal))
        #expect(home.run("widget", "--format", "waybar").status == 74)  // once, a command says so and ends
        let follower = try Follower(["widget", "--format", "waybar", "--follow"], environment: home.environment)
        #expect(follower.waitForLines(1, seconds: 10) == plain.run("widget", "--format", "waybar").stdout)
        usleep(300_000)
        #expect(follower.process.isRunning, "the follower ended: \(follower.stderr)")

        var environment = home.environment
        environment["MANNA_TEXT_DB"] = home.path + "/no-such-bible.sqlite"
        let bare = try Follower(["widget", "--format", "plain", "--follow"], environment: environment)
        let shown = bare.waitForLines(2, seconds: 10)
        #expect(shown.hasPrefix("Manna\n") && shown.split(separator: "\n").count == 2, "\(shown)")
        usleep(300_000)
        #expect(bare.process.isRunning, "the follower ended: \(bare.stderr)")
    }

    /// The machine's zone changes under a follower (a new /etc/localtime, as timedatectl makes it):
    /// within a minute it shows the new zone's day. /etc is replaced in a mount namespace of the
    /// follower's own by a folder of links to the real one, whose localtime the test points from
    /// Kiritimati (UTC+14) to Pago Pago (UTC-11): always a day apart.
    @Test(.needs(.mountNamespace)) func aFollowerNoticesANewZoneWithinAMinute() throws {
        let unshare = try #require(TestEnvironment.path(of: "unshare"))
        let home = try TemporaryHome(environment: ["PATH": "/usr/bin:/bin"])
        let scratch = try Scratch("etc")
        try FileManager.default.createDirectory(atPath: scratch.path + "/real", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: scratch.path + "/etc", withIntermediateDirectories: true)
        let localtime = scratch.path + "/etc/localtime"
        func pointLocaltime(at zone: String) throws {
            try? FileManager.default.removeItem(atPath: localtime + ".new")
            try FileManager.default.createSymbolicLink(atPath: localtime + ".new", withDestinationPath: "/usr/share/zoneinfo/" + zone)
            #expect(rename(localtime + ".new", localtime) == 0)
        }
        try pointLocaltime(at: "Pacific/Kiritimati")
        let script = """
            set -e
            mount --bind /etc "$1/real"
            for entry in "$1"/real/*; do name=${entry##*/}; [ "$name" = localtime ] || ln -sfn "$entry" "$1/etc/$name"; done
            mount --bind "$1/etc" /etc
            shift
            exec "$@"
            """
        var environment = home.environment
        environment["TZ"] = nil
        let follower = try Follower(["-m", "--propagation", "private", "/bin/sh", "-c", script, "sh", scratch.path,
                                     Manna.binary, "widget", "--format", "plain", "--follow"], executable: unshare, environment: environment)
        /// What `manna widget` prints in `zone` now.
        func widget(in zone: String) -> String {
            var environment = home.environment
            environment["TZ"] = zone
            return Manna.run(["widget", "--format", "plain"], environment: environment).stdout
        }
        let first = follower.waitForLines(2, seconds: 10)
        #expect(first == widget(in: "Pacific/Kiritimati"), "\(follower.stderr)")
        try pointLocaltime(at: "Pacific/Pago_Pago")
        let both = follower.waitForLines(4, seconds: 70)
        #expect(String(both.dropFirst(first.count)) == widget(in: "Pacific/Pago_Pago"), "\(follower.stderr)")
    }
}
