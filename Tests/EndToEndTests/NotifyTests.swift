import Foundation
import Testing
import TestSupport

/// `manna notify` and `manna-notify` against a real session bus and a recording server: each
/// test has its own bus, so they run in parallel.
@Suite struct NotifyTests {
    static let christmas = "And the angel said unto them, Fear not: for, behold, I bring you good tidings of great joy, which shall be to all people. For unto you is born this day in the city of David a Saviour, which is Christ the Lord."

    /// The run and how long it took (the text database is built first, on its own time).
    func seconds(_ body: () -> Run) -> (Run, Double) {
        precondition(Manna.textDatabaseReady)
        let clock = ContinuousClock()
        let started = clock.now
        let run = body()
        let elapsed = started.duration(to: clock.now).components
        return (run, Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18)
    }

    @Test(.needs(.recordingServer)) func theVerseOfTheDayReachesTheServer() throws {
        let bus = try TestBus()
        try bus.startRecordingServer(capabilities: "body body-markup actions")
        let run = manna("notify", "--date", "2026-12-25", environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        #expect(run.status == 0)
        #expect(run.stdout == "")
        #expect(run.stderr == "")
        let web = manna("notify", "--date=2026-12-25", "--translation", "WEB", environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        #expect(web.status == 0)

        let calls = try bus.notifyCalls()
        try #require(calls.count == 2)
        #expect(calls[0][0] as? String == "Manna")
        #expect(calls[0][1] as? Int == 0)
        #expect(calls[0][2] as? String == "accessories-dictionary")
        #expect(calls[0][3] as? String == "Luke 2:10-11 (KJV)")
        #expect(calls[0][4] as? String == NotifyTests.christmas)
        #expect((calls[0][5] as? [Any])?.isEmpty == true)
        let hints = try #require(calls[0][6] as? [String: Any])
        #expect(hints["category"] as? String == "x-manna.verse")
        #expect(hints["desktop-entry"] as? String == "manna")
        #expect(hints["urgency"] as? Int == 1)
        #expect(calls[0][7] as? Int == -1)
        #expect(calls[1][3] as? String == "Luke 2:10-11 (WEB)")
        #expect((calls[1][4] as? String)?.hasPrefix("The angel said to them, “Don’t be afraid, for behold, I bring you good news of great joy") == true)
    }

    @Test(.needs(.recordingServer)) func fromCronTheUsersBusSocketIsFound() throws {
        let bus = try TestBus()
        try bus.startRecordingServer(capabilities: "body")
        // No DBUS_SESSION_BUS_ADDRESS, as under cron: $XDG_RUNTIME_DIR/bus is the bus.
        let run = manna("notify", "--date", "2026-12-25", environment: ["XDG_RUNTIME_DIR": bus.directory])
        #expect(run.status == 0)
        #expect(run.stderr == "")
        #expect(try bus.notifyCalls().map { $0[3] as? String } == ["Luke 2:10-11 (KJV)"])
    }

    @Test(.needs(.recordingServer)) func todayIsTheDateInTheLocalTimeZone() throws {
        let bus = try TestBus()
        try bus.startRecordingServer(capabilities: "body")
        // Fourteen hours ahead of UTC and eleven behind: never the same date.
        let zones = ["Pacific/Kiritimati", "Pacific/Pago_Pago"]
        var expected: [[String]] = []
        for zone in zones {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = try #require(TimeZone(identifier: zone))
            let before = calendar.dateComponents([.month, .day], from: Date())
            #expect(manna("notify", environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address, "TZ": zone]).status == 0)
            let after = calendar.dateComponents([.month, .day], from: Date())
            expected.append(try [before, after].map { try summary(month: $0.month!, day: $0.day!) })
        }
        let summaries = try bus.notifyCalls().map { $0[3] as? String ?? "" }
        try #require(summaries.count == 2)
        // Either side of a midnight that passes while manna runs.
        #expect(expected[0].contains(summaries[0]))
        #expect(expected[1].contains(summaries[1]))
        #expect(summaries[0] != summaries[1])
    }

    /// "Psalm 23:1 (KJV)": the summary for a day, from curated/daily-verses.tsv and the
    /// reference as `manna read` prints it.
    func summary(month: Int, day: Int) throws -> String {
        let list = try String(contentsOfFile: Manna.root + "/curated/daily-verses.tsv", encoding: .utf8)
        let date = String(format: "%02d-%02d", month, day)
        let row = try #require(list.split(separator: "\n").map { $0.split(separator: "\t") }.first { $0[1] == date })
        let read = manna("read", String(row[2]), "--json")
        let reference = try #require((Manna.json(read) as? [String: Any])?["reference"] as? String)
        return reference + " (KJV)"
    }

    /// No bus socket: said at once. (That no timeout was waited on shows in the message, which
    /// manna gives before it connects to anything; how fast is for bench/, not a test.)
    @Test func noBusIsUnavailableAndSaysWhereItLooked() throws {
        let runtime = try Scratch("runtime")
        let run = manna("notify", "--date", "2026-12-25", environment: ["XDG_RUNTIME_DIR": runtime.path])
        #expect(run.status == 69)
        #expect(run.stderr == "manna: no D-Bus session bus: DBUS_SESSION_BUS_ADDRESS is not set and there is no bus socket at \(runtime.path)/bus\n")
        #expect(run.stdout == "")
        let gone = manna("notify", "--date", "2026-12-25", environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(runtime.path)/bus"])
        #expect(gone.status == 69)
        #expect(gone.stderr == "manna: no D-Bus session bus: Could not connect: No such file or directory\n")
    }

    /// A bus with no server: said at once. The message shows that the helper asked the bus
    /// (NameHasOwner) and did not wait on a probe's timeout; how fast is for bench/, not a test.
    @Test(.needs(.testBus)) func aBusWithoutANotificationServerIsUnavailable() throws {
        let bus = try TestBus()
        let run = manna("notify", "--date", "2026-12-25", environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        #expect(run.status == 69)
        #expect(run.stderr == "manna: no notification server on the session bus (org.freedesktop.Notifications has no owner)\n")
    }

    /// A hung server is given up on: the helper's probe times out after 1.5 s (the message says
    /// it was the probe, not manna's 3 s deadline for the helper). The bound on the whole command
    /// only proves that it returns, not how fast: 15 s, ten times the probe's timeout, because a
    /// loaded two-core CI machine can take seconds to start manna, the helper and their libraries.
    @Test(.needs(.silentServer)) func aServerThatNeverAnswersIsGivenUpOnInTime() throws {
        let bus = try TestBus()
        try bus.startSilentServer(answersProbes: false)
        let (run, elapsed) = seconds { manna("notify", "--date", "2026-12-25", environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address]) }
        #expect(run.status == 69)
        #expect(run.stderr == "manna: the notification server did not answer within 1.5 s\n")
        #expect(elapsed < 15)
    }

    /// A server that answers the probes but never Notify: the helper ends its wait 2.5 s after
    /// it started (the message names it), before manna's 3 s deadline for it. Not sooner: the
    /// run takes 2.5 s however fast the machine (2.4: whole milliseconds, and the helper's start
    /// is counted from its first line). The upper bound only proves the wait ends, not its
    /// speed: 15 s, for a loaded two-core CI machine.
    @Test(.needs(.silentServer)) func aServerThatNeverAnswersNotifyCostsAtMostThreeSeconds() throws {
        let bus = try TestBus()
        try bus.startSilentServer(answersProbes: true)
        let (run, elapsed) = seconds { manna("notify", "--date", "2026-12-25", environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address]) }
        #expect(run.status == 69)
        #expect(run.stderr == "manna: the notification server did not answer within 2.5 s (it may still show the notification)\n")
        #expect(elapsed > 2.4)
        #expect(elapsed < 15)
    }

    @Test(.needs(.recordingServer), arguments: [("body body-markup", "Faith &amp; works: &lt;b&gt;not&lt;/b&gt; &gt; law"), ("body", "Faith & works: <b>not</b> > law")])
    func theHelperEscapesTheBodyOnlyForServersThatReadMarkup(capabilities: String, received: String) throws {
        let bus = try TestBus()
        try bus.startRecordingServer(capabilities: capabilities)
        let request = #"""
            {"app_name":"Manna","summary":"James 2:24 <KJV> & more","body":"Faith & works: <b>not</b> > law\u0007","icon":"accessories-dictionary","category":"x-manna.verse","desktop_entry":"manna","urgency":2,"expire_timeout":10000}
            """#
        let run = Manna.run([], environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address], executable: Manna.helper, input: request)
        #expect(run.status == 0)
        #expect(run.stderr == "")
        let calls = try bus.notifyCalls()
        try #require(calls.count == 1)
        #expect(calls[0][3] as? String == "James 2:24 <KJV> & more")
        #expect(calls[0][4] as? String == received)
        #expect((calls[0][6] as? [String: Any])?["urgency"] as? Int == 2)
        #expect(calls[0][7] as? Int == 10000)
    }

    @Test(.needs(.recordingServer)) func theProbeReportsTheServer() throws {
        let bus = try TestBus()
        try bus.startRecordingServer(capabilities: "body body-markup actions")
        let run = Manna.run(["--probe"], environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address], executable: Manna.helper)
        #expect(run.status == 0)
        #expect(run.stdout == #"{"name":"mock-notify","vendor":"test vendor","version":"1.0","spec_version":"1.1","capabilities":["body","body-markup","actions"]}"# + "\n")
        let empty = try TestBus()
        let none = Manna.run(["--probe"], environment: ["DBUS_SESSION_BUS_ADDRESS": empty.address], executable: Manna.helper)
        #expect(none.status == 11)
        #expect(none.stderr == #"{"error":"no-server","reason":"org.freedesktop.Notifications has no owner","#
            + #""message":"no notification server on the session bus (org.freedesktop.Notifications has no owner)"}"# + "\n")
    }

    @Test(.needs(.recordingServer)) func theHelperIsFoundInLibexecAndAMissingOneIsNamed() throws {
        let bus = try TestBus()
        try bus.startRecordingServer(capabilities: "body")
        // An installed layout: PREFIX/bin/manna, PREFIX/libexec/manna/manna-notify.
        let prefix = bus.directory + "/prefix"
        try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Manna.binary, toPath: prefix + "/bin/manna")
        let environment = ["DBUS_SESSION_BUS_ADDRESS": bus.address, "MANNA_TEXT_DB": Manna.root + "/.build/bible.sqlite"]
        precondition(Manna.textDatabaseReady)
        let missing = Manna.run(["notify", "--date", "2026-12-25"], environment: environment, executable: prefix + "/bin/manna")
        #expect(missing.status == 69)
        #expect(missing.stderr == "manna: the notification helper is not installed: no executable \(prefix)/bin/manna-notify or \(prefix)/libexec/manna/manna-notify\n")
        try FileManager.default.createDirectory(atPath: prefix + "/libexec/manna", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Manna.helper, toPath: prefix + "/libexec/manna/manna-notify")
        let installed = Manna.run(["notify", "--date", "2026-12-25"], environment: environment, executable: prefix + "/bin/manna")
        #expect(installed.status == 0)
        #expect(installed.stderr == "")
        #expect(try bus.notifyCalls().map { $0[3] as? String } == ["Luke 2:10-11 (KJV)"])
    }

    @Test(arguments: [
        (["notify", "--date", "2026-02-30"], [:], 64, "manna: --date must be a date YYYY-MM-DD that exists, like 2026-12-25, not '2026-02-30'\n"),
        (["notify", "--date", "25/12/2026"], [:], 64, "manna: --date must be a date YYYY-MM-DD that exists, like 2026-12-25, not '25/12/2026'\n"),
        (["notify", "today"], [:], 64, "manna: notify takes no arguments; for another day use --date YYYY-MM-DD\n"),
        (["notify"], ["TZ": "Mars/Olympus_Mons"], 64,
         "manna: unknown time zone 'Mars/Olympus_Mons': use a name from /usr/share/zoneinfo, like Europe/London or America/New_York\n"),
        (["notify", "--date", "2026-12-25", "--translation", "NIV"], [:], 64, "manna: unknown translation 'NIV': choose one of KJV, ASV, WBS, WEB or RV1909\n"),
    ] as [([String], [String: String], Int32, String)])
    func badInputIsAUsageError(arguments: [String], environment: [String: String], status: Int32, message: String) throws {
        precondition(Manna.textDatabaseReady)
        let runtime = try Scratch("runtime")
        let run = Manna.run(arguments, environment: environment.merging(["XDG_RUNTIME_DIR": runtime.path]) { $1 })
        #expect(run.status == status)
        #expect(run.stderr == message)
    }

    @Test func aBadTimeZoneDoesNotMatterWithADate() throws {
        let runtime = try Scratch("runtime")
        let run = manna("notify", "--date", "2026-12-25", environment: ["TZ": "Mars/Olympus_Mons", "XDG_RUNTIME_DIR": runtime.path])
        #expect(run.status == 69)
        #expect(run.stderr.hasPrefix("manna: no D-Bus session bus: "))
    }
}
