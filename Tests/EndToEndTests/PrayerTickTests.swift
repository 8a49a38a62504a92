import Foundation
import Testing

/// Prayer reminders through `manna tick`, against a real session bus and a recording server:
/// exactly once (re-run, four at once), DST nights, a three-day suspend, text escaped on its
/// way to the server and kept out of the timeline, and a click on "Prayed" or "Snooze 10 min"
/// reaching Manna after the tick has ended. Explicit `--now` and `TZ` throughout.
@Suite(.needs(.recordingServer)) struct PrayerTickTests {
    final class Setup {
        let bus: TestBus
        let home: TemporaryHome
        /// `TZ` for every run: a test may move it, as a traveller does.
        var zone: String { didSet { home.environment["TZ"] = zone } }

        /// The morning verse is moved to 23:59 so that only prayers are shown.
        init(capabilities: String = "body", zone: String = "America/New_York") throws {
            bus = try TestBus()
            try bus.startRecordingServer(capabilities: capabilities)
            home = try TemporaryHome(config: "notify_at = 23:59\n", environment: ["TZ": zone, "DBUS_SESSION_BUS_ADDRESS": bus.address])
            self.zone = zone
        }

        var environment: [String: String] { home.environment }

        @discardableResult
        func manna(_ arguments: String...) -> Run { home.run(arguments) }

        /// Adds a prayer with `reminders` at `now` and returns its id.
        func add(_ title: String, body: String = "", reminders: [String], now: String) throws -> String {
            let run = manna(["pray", "add", title, "--body", body, "--now", now] + reminders.flatMap { ["--remind", $0] })
            try #require(run.status == 0, "\(run.stderr)")
            return String(run.stdout.dropFirst("added ".count).prefix { $0 != ":" })
        }

        func manna(_ arguments: [String]) -> Run { home.run(arguments) }

        func tick(_ now: String) {
            let run = manna("tick", "--now", now)
            #expect(run.status == 0, "tick at \(now): \(run.stderr)")
            #expect(run.stdout == "" && run.stderr == "")
        }

        /// Each notification the server got: summary and body.
        func shown() throws -> [String] {
            try bus.notifyCalls().map { "\($0[3] as? String ?? "?") | \($0[4] as? String ?? "?")" }
        }
    }

    @Test func aReminderComesOnceAtItsTimeWithTitleAndFirstLine() throws {
        let setup = try Setup()
        _ = try setup.add("For Mum", body: "\nShe starts on Monday\nand is nervous", reminders: ["07:30"], now: "2026-03-10T06:00")
        for minute in ["07:00", "07:29"] { setup.tick("2026-03-10T" + minute) }
        #expect(try setup.shown().isEmpty)
        for minute in ["07:30", "07:30", "07:31", "08:00"] { setup.tick("2026-03-10T" + minute) }
        #expect(try setup.shown() == ["For Mum | She starts on Monday"])
        let call = try #require(try setup.bus.notifyCalls().first)
        #expect((call[6] as? [String: Any])?["category"] as? String == "x-manna.prayer")
        // No "actions" capability, no buttons.
        #expect((call[5] as? [Any])?.isEmpty == true)
        // The next morning, again.
        setup.tick("2026-03-11T07:30")
        #expect(try setup.shown().count == 2)
    }

    @Test func fourTicksAtOnceShowEachReminderOnce() throws {
        let setup = try Setup()
        for number in 1...3 { _ = try setup.add("Prayer \(number)", reminders: ["07:3\(number)"], now: "2026-06-01T06:00") }
        for now in ["2026-06-01T07:31", "2026-06-01T07:32", "2026-06-01T07:33", "2026-06-01T07:33"] {
            let statuses = Statuses()
            let environment = setup.environment
            precondition(Manna.textDatabaseReady)
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                statuses.append(Manna.run(["tick", "--now", now], environment: environment).status)
            }
            #expect(statuses.all == [0, 0, 0, 0])
        }
        #expect(try setup.shown() == ["Prayer 1 | ", "Prayer 2 | ", "Prayer 3 | "])
        // Asleep until noon the next day, then four ticks at once: one "While you were away".
        let statuses = Statuses()
        let environment = setup.environment
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            statuses.append(Manna.run(["tick", "--now", "2026-06-02T12:00"], environment: environment).status)
        }
        #expect(statuses.all == [0, 0, 0, 0])
        #expect(try setup.shown().dropFirst(3) == ["While you were away | Prayer 1 (07:31)\nPrayer 2 (07:32)\nPrayer 3 (07:33)"])
    }

    @Test(arguments: [
        // New York springs forward: 02:30 does not exist on 2026-03-08 and comes at 03:00 EDT.
        ("America/New_York", "02:30", "2026-03-07T12:00", ["2026-03-08T01:59:00-05:00"], "2026-03-08T03:00:00-04:00",
         ["2026-03-08T03:01:00-04:00", "2026-03-08T04:00:00-04:00"]),
        // New York falls back: 01:30 happens twice on 2026-11-01 and comes once, the first time.
        ("America/New_York", "01:30", "2026-10-31T12:00", ["2026-11-01T01:29:00-04:00"], "2026-11-01T01:30:00-04:00",
         ["2026-11-01T01:31:00-04:00", "2026-11-01T01:29:00-05:00", "2026-11-01T01:30:00-05:00", "2026-11-01T01:31:00-05:00"]),
        // London springs forward at 01:00 on 2026-03-29: 01:30 comes at 02:00 BST.
        ("Europe/London", "01:30", "2026-03-28T12:00", ["2026-03-29T00:59:00+00:00"], "2026-03-29T02:00:00+01:00",
         ["2026-03-29T02:01:00+01:00", "2026-03-29T03:00:00+01:00"]),
        // London falls back at 02:00 on 2026-10-25: 01:30 comes once, at 01:30 BST.
        ("Europe/London", "01:30", "2026-10-24T12:00", ["2026-10-25T01:29:00+01:00"], "2026-10-25T01:30:00+01:00",
         ["2026-10-25T01:31:00+01:00", "2026-10-25T01:29:00+00:00", "2026-10-25T01:30:00+00:00", "2026-10-25T01:31:00+00:00"]),
    ] as [(String, String, String, [String], String, [String])])
    func onDSTNightsAReminderComesExactlyOnce(zone: String, time: String, added: String, before: [String], at: String, after: [String]) throws {
        let setup = try Setup(zone: zone)
        _ = try setup.add("Night watch", reminders: [time], now: added)
        for now in before { setup.tick(now) }
        #expect(try setup.shown().isEmpty)
        setup.tick(at)
        #expect(try setup.shown() == ["Night watch | "])
        for now in after { setup.tick(now) }
        #expect(try setup.shown() == ["Night watch | "])
    }

    @Test func remindersFollowTheZoneTheTickRunsInOncePerLocalDate() throws {
        let setup = try Setup(zone: "Europe/London")
        _ = try setup.add("Wherever", reminders: ["07:30"], now: "2026-06-01T06:00")
        setup.tick("2026-06-01T07:30")
        #expect(try setup.shown() == ["Wherever | "])
        // Flown to New York the same day: 07:30 there is the same local date and time, so not again.
        setup.zone = "America/New_York"
        setup.tick("2026-06-01T07:30")
        #expect(try setup.shown().count == 1)
        // The next morning at 07:30 New York time, not London's.
        setup.tick("2026-06-02T02:30")
        setup.tick("2026-06-02T07:29")
        #expect(try setup.shown().count == 1)
        setup.tick("2026-06-02T07:30")
        #expect(try setup.shown() == ["Wherever | ", "Wherever | "])
    }

    @Test func afterAThreeDaySuspendOneNotificationNamesFiveAndNothingOlderThanADay() throws {
        let setup = try Setup()
        for hour in [8, 9, 10, 11, 12, 13, 15] {
            _ = try setup.add("At \(hour)", reminders: ["\(hour):00"], now: "2026-06-01T06:00")
        }
        _ = try setup.add("Once on the 2nd", reminders: ["2026-06-02 09:00"], now: "2026-06-01T06:00")
        setup.tick("2026-06-01T07:00")
        #expect(try setup.shown().isEmpty)
        // Suspended from 07:00 on June 1st until 14:00 on June 4th.
        setup.tick("2026-06-04T14:00")
        setup.tick("2026-06-04T14:00")
        setup.tick("2026-06-04T14:01")
        #expect(try setup.shown() == [
            "While you were away | At 15 (yesterday 15:00)\nAt 8 (08:00)\nAt 9 (09:00)\nAt 10 (10:00)\nAt 11 (11:00)\nand 2 more",
        ])
        // Each was claimed once: they are not named again, and the day goes on as usual.
        setup.tick("2026-06-04T15:00")
        #expect(try setup.shown().dropFirst() == ["At 15 | "])
    }

    @Test func aReminderThatCouldNotBeShownComesWhenTheServerIsBack() throws {
        let setup = try Setup()
        _ = try setup.add("Patient", reminders: ["07:30"], now: "2026-06-01T06:00")
        let runtime = try Scratch("runtime")
        precondition(Manna.textDatabaseReady)
        let noBus = Manna.run(["tick", "--now", "2026-06-01T07:30"],
                              environment: ["HOME": setup.home.path, "TZ": setup.zone, "XDG_RUNTIME_DIR": runtime.path])
        #expect(noBus.status == 69)
        #expect(noBus.stderr.hasSuffix(" (the next tick tries again)\n"))
        setup.tick("2026-06-01T07:31")
        #expect(try setup.shown() == ["Patient | "])
    }

    @Test func markupAndControlCharactersReachTheServerEscapedAndNeverTheTimeline() throws {
        let setup = try Setup(capabilities: "body body-markup")
        _ = try setup.add("<b>Mumsy</b> & \u{1B}[31mDaddo", body: "first <i>linnet</i> & moreso\u{07}\nsecundo", reminders: ["07:30", "06:00"], now: "2026-06-01T05:00")
        setup.tick("2026-06-01T07:30")
        // On time: the summary is never markup (the spec), so it is sent as written, less control
        // characters; the body is escaped. Missed: the title is in the body, so it is escaped.
        #expect(try setup.shown() == [
            "<b>Mumsy</b> & [31mDaddo | first &lt;i&gt;linnet&lt;/i&gt; &amp; moreso",
            "While you were away | &lt;b&gt;Mumsy&lt;/b&gt; &amp; [31mDaddo (06:00)",
        ])
        let timeline = try String(contentsOf: setup.home.timeline, encoding: .utf8)
        for secret in ["Mumsy", "Daddo", "linnet", "moreso", "secundo"] { #expect(!timeline.contains(secret)) }
    }

    @Test func clickingPrayedOrSnoozeReachesMannaAfterTheTickHasEnded() throws {
        let setup = try Setup(capabilities: "body actions")
        let id = try setup.add("For Mum", body: "She starts on Monday", reminders: ["2026-03-08 07:30", "2026-03-08 07:40"], now: "2026-03-08T07:00")
        setup.tick("2026-03-08T07:30")
        let calls = try setup.bus.notifyCalls()
        try #require(calls.count == 1)
        #expect(calls[0][5] as? [String] == ["prayed", "Prayed", "snooze", "Snooze 10 min"])
        // The server numbers notifications from 1. The tick is over; the click still lands.
        try setup.bus.clickAction(id: 1, key: "prayed")
        #expect(try waitFor { setup.manna("pray", "show", id).stdout.contains("\nprayed     once, ") })

        setup.tick("2026-03-08T07:40")
        try #require(try setup.bus.notifyCalls().count == 2)
        let clicked = Int(Date().timeIntervalSince1970)
        try setup.bus.clickAction(id: 2, key: "snooze")
        var snoozedUntil: String?
        #expect(try waitFor {
            snoozedUntil = (Manna.json(setup.manna("pray", "show", id, "--json")) as? [String: Any])?["snoozed_until"] as? String
            return snoozedUntil != nil
        })
        // Ten minutes after the click (which used the real clock), shown again, with its buttons.
        let until = try #require(snoozedUntil.flatMap(PrayerTickTests.instant))
        #expect(until >= clicked + 600 && until <= Int(Date().timeIntervalSince1970) + 600)
        setup.tick(PrayerTickTests.iso(until - 1))
        #expect(try setup.bus.notifyCalls().count == 2)
        setup.tick(PrayerTickTests.iso(until))
        let again = try setup.bus.notifyCalls()
        try #require(again.count == 3)
        #expect(again[2][3] as? String == "For Mum")
        #expect(again[2][4] as? String == "She starts on Monday")
        #expect(again[2][5] as? [String] == ["prayed", "Prayed", "snooze", "Snooze 10 min"])
    }

    /// Polls `condition` until it holds, for up to 30 s: a click reaches Manna through
    /// manna-notify, which starts `manna pray ...`; that is well under a second on an idle
    /// machine and can be several on a loaded two-core CI machine. Polling ends as soon as it
    /// holds, so the bound costs nothing when it does.
    func waitFor(_ condition: () throws -> Bool) throws -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(30)
        while clock.now < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return try condition()
    }

    static func instant(_ iso: String) -> Int? {
        let formatter = ISO8601DateFormatter()
        return formatter.date(from: iso).map { Int($0.timeIntervalSince1970) }
    }

    static func iso(_ instant: Int) -> String {
        ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(instant)))
    }
}
