import Foundation
import Testing
import TestSupport
@testable import MannaKit

/// Running the helper: where it is looked for, what it is given, how its exit is read, and
/// the deadline. The helper here is a shell script standing in for `manna-notify`.
@Suite final class DesktopNotifierTests {
    let notification = MannaKit.DesktopNotification(summary: "Psalm 23:1 (KJV)", body: "The LORD is my shepherd; I shall not want.", category: .verse)

    /// This test's own folder, removed after it (each test has its own instance of the suite).
    let scratch: Scratch
    var directory: String { scratch.path }

    init() throws { scratch = try Scratch("notifier") }

    /// A notifier for `bin/manna` in this test's folder, with `bin/manna-notify` running `script`.
    func notifier(_ script: String?, timeoutMilliseconds: Int = 3000) throws -> (DesktopNotifier, String) {
        try Files.makeDirectories(directory + "/bin")
        if let script {
            let helper = directory + "/bin/manna-notify"
            try Files.writeAtomically("#!/bin/sh\n" + script + "\n", to: helper, mode: 0o755)
        }
        let notifier = DesktopNotifier(executablePath: directory + "/bin/manna",
                                       environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/tmp/test-bus", "OUT": directory],
                                       userID: 1000, timeoutMilliseconds: timeoutMilliseconds)
        return (notifier, directory)
    }

    @Test func theHelperIsBesideMannaElseInLibexec() {
        let notifier = DesktopNotifier(executablePath: "/usr/local/bin/manna", environment: [:], userID: 1000)
        #expect(notifier.helperCandidates == ["/usr/local/bin/manna-notify", "/usr/local/libexec/manna/manna-notify"])
    }

    @Test func aMissingHelperNamesWhereItWasLookedFor() throws {
        let (notifier, directory) = try notifier(nil)
        #expect(throws: NotifyError.helperMissing([directory + "/bin/manna-notify", directory + "/libexec/manna/manna-notify"])) {
            try notifier.show(notification)
        }
    }

    @Test func theHelperGetsTheRequestOnStdinAndTheBusAddress() throws {
        let (notifier, directory) = try notifier(#"cat > "$OUT/request"; printf %s "$DBUS_SESSION_BUS_ADDRESS" > "$OUT/address""#)
        try notifier.show(notification)
        #expect(try Files.readText(directory + "/request") == notification.request.text + "\n")
        #expect(try Files.readText(directory + "/address") == "unix:path=/tmp/test-bus")
    }

    @Test func theHelpersStatusAndMessageBecomeTheError() throws {
        let (notifier, _) = try notifier(#"""
            cat > /dev/null
            echo '{"error":"no-server","reason":"org.freedesktop.Notifications has no owner","message":"words that are not read"}' >&2
            exit 11
            """#)
        #expect(throws: NotifyError.noServer("org.freedesktop.Notifications has no owner")) { try notifier.show(notification) }
    }

    /// The helper sleeps 30 s; it is killed at the 300 ms deadline, and the notification is
    /// unconfirmed (a slow server may still show it: the scheduler does not send it again). The bound only proves that
    /// it was killed rather than waited for, not how fast: 10 s, a third of the sleep and over
    /// thirty times the deadline, which a loaded two-core CI machine keeps.
    @Test func aHelperThatHangsIsKilledAtTheDeadline() throws {
        let (notifier, _) = try notifier("exec sleep 30", timeoutMilliseconds: 300)
        let clock = ContinuousClock()
        let started = clock.now
        #expect(throws: NotifyError.unconfirmed(milliseconds: 300)) { try notifier.show(notification) }
        #expect(started.duration(to: clock.now) < .seconds(10))
    }

    @Test func aHelperThatClosesItsOutputButKeepsRunningIsKilledToo() throws {
        let (notifier, _) = try notifier("exec sleep 30 >&- 2>&-", timeoutMilliseconds: 300)
        #expect(throws: NotifyError.unconfirmed(milliseconds: 300)) { try notifier.show(notification) }
        // Asking the server who it is sends nothing: a hung probe is a plain time-out.
        #expect(throws: NotifyError.timedOut(milliseconds: 300)) { try notifier.probe() }
    }

    @Test func aHelperThatExitsWithoutReadingALargeRequestDoesNotStopManna() throws {
        var large = notification
        large.body = String(repeating: "In the beginning was the Word. ", count: 40_000)
        let (notifier, _) = try notifier("exit 13")
        #expect(throws: NotifyError.failed("manna-notify exited with status 13")) { try notifier.show(large) }
    }

    @Test func aHelperKilledByASignalIsAFailure() throws {
        let (notifier, _) = try notifier("echo 'manna-notify: about to crash' >&2; kill -SEGV $$")
        #expect(throws: NotifyError.failed("manna-notify was killed by signal 11: manna-notify: about to crash")) {
            try notifier.show(notification)
        }
    }

    /// A notifier run "under systemd" (INVOCATION_ID set) with a stand-in `systemd-run` on PATH
    /// that records its arguments, then runs what follows `--` or exits with `status`.
    func scopedNotifier(systemdRunStatus status: Int?) throws -> DesktopNotifier {
        _ = try notifier(#"cat > "$OUT/request"; echo helper >> "$OUT/ran""#)
        try Files.makeDirectories(directory + "/path")
        let run = status.map { "exit \($0)" } ?? #"while [ "$1" != -- ]; do shift; done; shift; exec "$@""#
        try Files.writeAtomically("#!/bin/sh\necho \"$@\" > \"$OUT/systemd-run\"\n" + run + "\n", to: directory + "/path/systemd-run", mode: 0o755)
        return DesktopNotifier(executablePath: directory + "/bin/manna",
                               environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/tmp/test-bus", "OUT": directory,
                                             "INVOCATION_ID": "0123", "PATH": directory + "/path:/usr/bin:/bin"],
                               userID: 1000)
    }

    @Test func underSystemdAHelperWithActionsGetsAScopeOfItsOwn() throws {
        let notifier = try scopedNotifier(systemdRunStatus: nil)
        let reminder = MannaKit.DesktopNotification(prayer: "t", firstLine: "", prayerUUID: "u", manna: "/bin/manna")
        try notifier.show(reminder)
        #expect(try Files.readText(directory + "/systemd-run")
            == "--user --scope --quiet --collect --description=Manna: waiting for a click on a prayer reminder -- \(directory)/bin/manna-notify\n")
        #expect(try Files.readText(directory + "/request") == reminder.request.text + "\n")
        // Without actions nothing stays behind: no scope.
        _ = try Files.remove(directory + "/systemd-run")
        try notifier.show(notification)
        #expect(!Files.exists(directory + "/systemd-run"))
        #expect(try Files.readText(directory + "/ran") == "helper\nhelper\n")
    }

    @Test func whenSystemdRunFailsTheHelperRunsAnyway() throws {
        let notifier = try scopedNotifier(systemdRunStatus: 1)
        try notifier.show(MannaKit.DesktopNotification(prayer: "t", firstLine: "", prayerUUID: "u", manna: "/bin/manna"))
        #expect(Files.exists(directory + "/systemd-run"))
        #expect(try Files.readText(directory + "/ran") == "helper\n")
    }

    @Test func withoutSystemdThereIsNoScope() {
        let notifier = DesktopNotifier(executablePath: "/usr/bin/manna", environment: ["PATH": "/usr/bin:/bin"], userID: 1000)
        #expect(notifier.scopeCommand() == nil)
    }

    @Test func aHelperThatWritesALotDoesNotStall() throws {
        let (notifier, _) = try notifier("head -c 3000000 /dev/zero; head -c 3000000 /dev/zero >&2; exit 0")
        try notifier.show(notification)
    }
}
