import Foundation
import Testing
import TestSupport

/// Airplane mode: Manna's commands in a network namespace with no network at all
/// (`unshare -n`, as root in CI), including a tick that notifies over the session bus.
@Suite(.needs(.networkNamespace, .recordingServer)) struct OfflineTests {
    @Test func everythingWorksWithNoNetwork() throws {
        precondition(Manna.textDatabaseReady)
        let unshare = try #require(TestEnvironment.path(of: "unshare"))
        let bus = try TestBus()
        try bus.startRecordingServer(capabilities: "body")
        let home = try TemporaryHome(environment: ["TZ": "Europe/London", "DBUS_SESSION_BUS_ADDRESS": bus.address])
        func offline(_ arguments: String...) -> Run {
            Manna.run(["-n", Manna.binary] + arguments, environment: home.environment, executable: unshare)
        }
        // The namespace really has no network: only a loopback that is down.
        let probe = Manna.run(["-n", "/bin/cat", "/proc/net/dev"], executable: unshare)
        #expect(probe.status == 0, "unshare -n needs root: \(probe.stderr)")
        #expect(!probe.stdout.contains("eth") && probe.stdout.contains("lo:"))

        #expect(offline("read", "John 3:16").stdout.hasPrefix("John 3:16 (KJV)\n16 For God so loved the world"))
        #expect(offline("search", "love one another", "--limit", "1").status == 0)
        #expect(offline("today", "--date", "2026-12-25").stdout.hasPrefix("Luke 2:10-11 (KJV)"))
        #expect(offline("plan", "start", "nt-90", "--now", "2026-12-25T06:00").status == 0)
        #expect(offline("tick", "--now", "2026-12-25T07:00").status == 0)
        #expect(offline("prompt", "--now", "2026-12-25T07:01", "--format", "{reference}").stdout == "Luke 2:10-11\n")
        #expect(try bus.notifyCalls().compactMap { $0[3] as? String } == ["Luke 2:10-11 (KJV)"])
    }
}
