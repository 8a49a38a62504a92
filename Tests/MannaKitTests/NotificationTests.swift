import Testing
@testable import MannaKit

/// The notification value, the text rules of the Desktop Notifications spec, and the request
/// and error protocol between `manna` and `manna-notify`.
@Suite struct NotificationTests {
    let sample = DesktopNotification(summary: "John 3:16 (KJV)", body: "For God so loved the world", category: .verse)

    @Test func theVerseOfTheDayIsReferenceAndTranslationOverTheText() throws {
        let verse = DailyVerse(date: LocalDate(year: 2026, month: 12, day: 25), reference: try Reference(parsing: "Luke 2:11"),
                               translation: "KJV", text: "For unto you is born this day")
        let notification = DesktopNotification(dailyVerse: verse)
        #expect(notification.summary == "Luke 2:11 (KJV)")
        #expect(notification.body == "For unto you is born this day")
        #expect(notification.category.rawValue == "x-manna.verse")
        #expect(notification.urgency == .normal)
        #expect(notification.expireTimeout == nil)
        #expect(notification.appName == "Manna")
        #expect(notification.desktopEntry == "manna")
        #expect(notification.icon == "accessories-dictionary")
    }

    @Test func markupCharactersAreEscapedOnlyForServersThatReadMarkup() {
        #expect(DesktopNotification.bodyText("a & <b>", serverReadsMarkup: true) == "a &amp; &lt;b&gt;")
        #expect(DesktopNotification.bodyText("a & <b>", serverReadsMarkup: false) == "a & <b>")
        // The summary is never markup.
        #expect(DesktopNotification.summaryText("Faith & works <1>") == "Faith & works <1>")
    }

    @Test func controlCharactersAreRemovedAndOnlyTheBodyKeepsLineBreaks() {
        let text = "a\u{0}b\u{7}c\td\r\ne\u{1B}[1mf\u{85}g\u{7F}h é 🕊"
        #expect(DesktopNotification.bodyText(text, serverReadsMarkup: false) == "abc d\ne[1mfgh é 🕊")
        #expect(DesktopNotification.summaryText(text) == "abc d e[1mfgh é 🕊")
    }

    @Test func theRequestIsOneStableJSONObject() {
        #expect(sample.request.text == #"""
            {"app_name":"Manna","summary":"John 3:16 (KJV)","body":"For God so loved the world","icon":"accessories-dictionary","category":"x-manna.verse","desktop_entry":"manna","urgency":1,"expire_timeout":-1}
            """#)
    }

    @Test func actionsTravelInTheRequestOnlyWhenThereAreSome() throws {
        let reminder = DesktopNotification(prayer: "For Mum", firstLine: "She starts on Monday", prayerUUID: "u-1", manna: "/opt/bin/manna")
        #expect(reminder.request.text == #"""
            {"app_name":"Manna","summary":"For Mum","body":"She starts on Monday","icon":"accessories-dictionary","category":"x-manna.prayer","desktop_entry":"manna","urgency":1,"expire_timeout":-1,"actions":[{"key":"prayed","label":"Prayed","command":["/opt/bin/manna","pray","prayed","u-1"]},{"key":"snooze","label":"Snooze 10 min","command":["/opt/bin/manna","pray","snooze","u-1"]}]}
            """#)
        #expect(try DesktopNotification(request: reminder.request.text) == reminder)
        #expect(!sample.request.text.contains("actions"))
    }

    @Test(arguments: [
        #"[{"key":"k","label":"L","command":["manna","pray"]}]"#,
        #"[{"key":"k","label":"L","command":[]}]"#,
        #"[{"key":"","label":"L","command":["/bin/true"]}]"#,
        #"[{"key":"k","command":["/bin/true"]}]"#,
        #"[{"key":"k","label":"L","command":["/bin/true",1]}]"#,
    ])
    func anActionMustRunAProgramByAbsolutePath(actions: String) {
        let text = String(sample.request.text.dropLast()) + #","actions":"# + actions + "}"
        #expect(throws: NotificationRequestError(problem: "each action needs a \"key\", a \"label\" and a \"command\" that starts with an absolute path")) {
            try DesktopNotification(request: text)
        }
    }

    @Test func aRequestReadsBackAsTheSameNotification() throws {
        var other = sample
        other.body = "line one\nline \"two\" & <three>"
        other.urgency = .critical
        other.expireTimeout = 5000
        other.category = DesktopNotification.Category(rawValue: "x-manna.test")
        for notification in [sample, other] {
            #expect(try DesktopNotification(request: notification.request.text) == notification)
        }
    }

    @Test(arguments: [
        ("", "bad request on stdin: not valid JSON at byte 0: expected a value"),
        (#"{"summary":"s"}"#, "bad request on stdin: \"urgency\" must be 0, 1 or 2"),
        (#"{"urgency":3,"expire_timeout":-1}"#, "bad request on stdin: \"urgency\" must be 0, 1 or 2"),
        (#"{"urgency":1,"expire_timeout":-2}"#, "bad request on stdin: \"expire_timeout\" must be milliseconds, or -1"),
        (#"{"urgency":1,"expire_timeout":-1,"summary":"s"}"#, "bad request on stdin: no string \"body\""),
    ])
    func aBadRequestSaysWhatIsWrong(text: String, message: String) {
        #expect(throws: NotificationRequestError.self) { try DesktopNotification(request: text) }
        do {
            _ = try DesktopNotification(request: text)
        } catch {
            #expect(error.message == message)
        }
    }

    @Test func errorMessagesAreOneLineNamingTheCause() {
        #expect(NotifyError.noBus("Could not connect: No such file or directory").message
            == "no D-Bus session bus: Could not connect: No such file or directory")
        #expect(NotifyError.noServer("org.freedesktop.Notifications has no owner").message
            == "no notification server on the session bus (org.freedesktop.Notifications has no owner)")
        #expect(NotifyError.timedOut(milliseconds: 1500).message == "the notification server did not answer within 1.5 s")
        #expect(NotifyError.timedOut(milliseconds: 3000).message == "the notification server did not answer within 3 s")
        #expect(NotifyError.helperMissing(["/a/manna-notify", "/libexec/manna/manna-notify"]).message
            == "the notification helper is not installed: no executable /a/manna-notify or /libexec/manna/manna-notify")
    }

    @Test(arguments: [
        NotifyError.noBus("Could not connect: Connection refused"),
        .noServer("org.freedesktop.Notifications has no owner"),
        .noServer("org.freedesktop.Notifications could not be started: (x)"),
        .timedOut(milliseconds: NotifyError.probeTimeoutMilliseconds),
        .timedOut(milliseconds: NotifyError.confirmMilliseconds),
        .unconfirmed(milliseconds: NotifyError.confirmMilliseconds),
        .failed("GDBus.Error: refused"),
    ])
    func whatTheHelperReportsReadsBackAsTheSameError(error: NotifyError) {
        let stderr = "GLib-WARNING: a line before\n" + error.json.text + "\n"
        #expect(NotifyError(helperStatus: error.helperStatus.rawValue, stderr: stderr) == error)
        // The kind comes from the report, never from the words: any message reads back.
        #expect(NotifyError(json: error.json) == error)
    }

    /// What is no report, or a report that does not go with the status, is a failure naming both.
    @Test(arguments: [
        (64, NotifyError.failed("bad request on stdin: x").json.text, "manna-notify exited with status 64: notification not shown: bad request on stdin: x"),
        (70, "", "manna-notify exited with status 70"),
        (13, "Fatal error: Unexpectedly found nil", "manna-notify exited with status 13: Fatal error: Unexpectedly found nil"),
        (12, #"{"error":"timed-out"}"#, #"manna-notify exited with status 12: {"error":"timed-out"}"#),
        (10, NotifyError.timedOut(milliseconds: 1500).json.text, "manna-notify exited with status 10: the notification server did not answer within 1.5 s"),
        (0, NotifyError.noBus("x").json.text, "manna-notify exited with status 0: no D-Bus session bus: x"),
    ])
    func anUnexpectedHelperReportIsAFailureWithItsOutput(status: Int32, stderr: String, message: String) {
        #expect(NotifyError(helperStatus: status, stderr: stderr + "\n") == .failed(message))
    }

    @Test func theProbeIsOneJSONLine() {
        let server = NotificationServer(name: "dunst", vendor: "knopwob", version: "1.9.0", specVersion: "1.2",
                                        capabilities: ["body", "body-markup"])
        #expect(server.json.text == #"{"name":"dunst","vendor":"knopwob","version":"1.9.0","spec_version":"1.2","capabilities":["body","body-markup"]}"#)
    }
}
