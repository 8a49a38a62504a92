// A private D-Bus session bus per test, with a recording notification server (python-dbusmock)
// or a stub that never answers. Every process started here is stopped with SIGKILL: Foundation's
// children inherit a blocked SIGTERM on Linux. What it needs of the machine is
// Prerequisite.testBus, .recordingServer and .silentServer (Support.swift): a test that uses it
// says so with `.needs(...)`.
import Foundation
import Testing
import TestSupport

final class TestBus {
    /// This bus's folder: its config, and its socket `bus`, so the folder can stand in for
    /// `$XDG_RUNTIME_DIR`. Removed after the processes are stopped.
    private let scratch: Scratch
    var directory: String { scratch.path }
    let address: String
    /// A system bus (for logind), not a session bus.
    let system: Bool
    private var processes: [RunningProgram] = []

    /// What a client is given to reach this bus.
    var environment: [String: String] { [system ? "DBUS_SYSTEM_BUS_ADDRESS" : "DBUS_SESSION_BUS_ADDRESS": address] }
    private var kind: String { system ? "--system" : "--session" }

    /// Starts `dbus-daemon` with a config of its own: no service directories, so no server
    /// installed on the machine can be activated behind a test's back. `system`: a bus that
    /// stands in for the system bus, the one logind is on.
    init(system: Bool = false) throws {
        self.system = system
        try Prerequisite.testBus.require()
        scratch = try Scratch("bus")
        let directory = scratch.path
        let config = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>\(system ? "system" : "session")</type>
              <listen>unix:path=\(directory)/bus</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """
        try config.write(toFile: directory + "/bus.conf", atomically: true, encoding: .utf8)
        let daemon = try RunningProgram(try #require(TestEnvironment.path(of: "dbus-daemon")),
                                        ["--config-file=\(directory)/bus.conf", "--nofork", "--print-address=1"],
                                        environment: ProcessInfo.processInfo.environment)
        processes.append(daemon)
        // It prints its address once it listens (60 s: a loaded two-core CI machine).
        guard let printed = daemon.readLine(timeout: 60), !printed.isEmpty else { throw TestBusError("dbus-daemon did not listen within 60 s") }
        address = printed.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    deinit {
        for process in processes.reversed() { process.stop() }
    }

    /// python-dbusmock's notification daemon, recording every call, with `capabilities`
    /// (space-separated, like "body body-markup actions").
    func startRecordingServer(capabilities: String) throws {
        try Prerequisite.recordingServer.require()
        try startPython(try #require(TestEnvironment.dbusmockPython), ["-m", "dbusmock", "-t", "notification_daemon", "-p", #"{"capabilities":"\#(capabilities)"}"#])
    }

    /// A server that owns `org.freedesktop.Notifications` but never answers anything
    /// (`answersProbes` false), or answers GetServerInformation and GetCapabilities but never Notify.
    /// (The same script, given "slow", is `startSlowServer`'s.)
    func startSilentServer(answersProbes: Bool) throws {
        try Prerequisite.silentServer.require()
        try startPython(try #require(TestEnvironment.gioPython), ["-c", TestBus.silentServer, answersProbes ? "answer-probes" : "silent"])
    }

    /// A server that answers the probes at once and Notify only after `delaySeconds`, as a
    /// loaded desktop's may. It writes a line to `log` for each notification it shows (at the
    /// end of the delay: "shown SUMMARY") and each it is asked to take back ("closed").
    func startSlowServer(delaySeconds: Double, log: String) throws {
        try Prerequisite.silentServer.require()
        try startPython(try #require(TestEnvironment.gioPython), ["-c", TestBus.silentServer, "slow", String(delaySeconds), log])
    }

    /// The Notify calls the recording server received, each as its eight arguments: app name,
    /// replaces id, icon, summary, body, actions, hints, expire timeout.
    func notifyCalls() throws -> [[Any]] { try calls(of: "Notify") }

    /// How many notifications were taken back (CloseNotification).
    func closeCalls() throws -> Int { try calls(of: "CloseNotification").count }

    /// The arguments of each call of `method` the recording server got, in order.
    private func calls(of method: String) throws -> [[Any]] {
        let run = Manna.run(["-c", TestBus.readCalls, method], environment: ["DBUS_SESSION_BUS_ADDRESS": address],
                            executable: try #require(TestEnvironment.dbusmockPython))
        guard run.status == 0, let calls = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[Any]] else {
            throw TestBusError("could not read the server's calls: \(run.stderr)")
        }
        return calls
    }

    /// Makes the recording server say that the user clicked `key` on notification `id` (the
    /// spec's ActionInvoked signal), as PLATFORM_NOTES.md shows with gdbus.
    func clickAction(id: Int, key: String) throws {
        let run = Manna.run(["call", "--session", "-d", "org.freedesktop.Notifications", "-o", "/org/freedesktop/Notifications",
                             "-m", "org.freedesktop.DBus.Mock.EmitSignal", "org.freedesktop.Notifications", "ActionInvoked", "us",
                             "[<uint32 \(id)>, <\"\(key)\">]"],
                            environment: ["DBUS_SESSION_BUS_ADDRESS": address], executable: try Self.gdbus())
        guard run.status == 0 else { throw TestBusError("could not emit ActionInvoked: \(run.stderr)") }
    }

    private static func gdbus() throws -> String {
        try Prerequisite.gdbus.require()
        return try #require(TestEnvironment.path(of: "gdbus"))
    }

    /// python-dbusmock's logind on this (system) bus, to say the machine is about to sleep.
    func startLogind() throws {
        try Prerequisite.dbusmock.require()
        try startPython(try #require(TestEnvironment.dbusmockPython), ["-m", "dbusmock", "--system", "-t", "logind"], owning: "org.freedesktop.login1")
    }

    /// Makes the mock logind say PrepareForSleep(`sleeping`): true as the machine goes to sleep, false as it wakes.
    func prepareForSleep(_ sleeping: Bool) throws {
        let run = Manna.run(["call", kind, "-d", "org.freedesktop.login1", "-o", "/org/freedesktop/login1",
                             "-m", "org.freedesktop.DBus.Mock.EmitSignal", "org.freedesktop.login1.Manager", "PrepareForSleep", "b",
                             "[<\(sleeping)>]"], environment: environment, executable: try Self.gdbus())
        guard run.status == 0 else { throw TestBusError("could not emit PrepareForSleep: \(run.stderr)") }
    }

    /// Another program holding `name` (a second media player called manna, say).
    func holdName(_ name: String) throws {
        try Prerequisite.silentServer.require()
        try startPython(try #require(TestEnvironment.gioPython), ["-c", TestBus.nameHolder, name], owning: name)
    }

    private static let nameHolder = """
        import sys
        from gi.repository import Gio, GLib
        bus = Gio.bus_get_sync(Gio.BusType.SESSION)
        bus.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "RequestName",
                      GLib.Variant("(su)", (sys.argv[1], 4)), None, 0, -1)
        GLib.MainLoop().run()
        """

    /// Runs `python` (one with the modules the server needs: TestEnvironment) and returns once
    /// the server owns its name.
    private func startPython(_ python: String, _ arguments: [String], owning name: String = "org.freedesktop.Notifications") throws {
        processes.append(try RunningProgram(python, arguments, environment: ["PATH": "/usr/bin:/bin", "HOME": directory].merging(environment) { $1 },
                                            output: .file("/dev/null")))
        // gdbus returns as soon as the name is owned; the 30 s are for a Python that starts slowly
        // on a loaded CI machine, with two cores and several tests starting servers at once.
        let wait = Manna.run(["wait", kind, "--timeout", "30", name], environment: environment, executable: try Self.gdbus())
        guard wait.status == 0 else { throw TestBusError("the test server did not appear on the bus: \(wait.stderr)") }
    }

    private static let readCalls = """
        import dbus, json, sys
        server = dbus.SessionBus().get_object("org.freedesktop.Notifications", "/org/freedesktop/Notifications")
        calls = server.GetCalls(dbus_interface="org.freedesktop.DBus.Mock")
        print(json.dumps([list(arguments) for (_, method, arguments) in calls if method == sys.argv[1]]))
        """

    private static let silentServer = """
        import sys
        from gi.repository import Gio, GLib
        node = Gio.DBusNodeInfo.new_for_xml('''<node><interface name="org.freedesktop.Notifications">
          <method name="GetServerInformation"><arg type="s" direction="out"/><arg type="s" direction="out"/>
            <arg type="s" direction="out"/><arg type="s" direction="out"/></method>
          <method name="GetCapabilities"><arg type="as" direction="out"/></method>
          <method name="Notify"><arg type="s"/><arg type="u"/><arg type="s"/><arg type="s"/><arg type="s"/>
            <arg type="as"/><arg type="a{sv}"/><arg type="i"/><arg type="u" direction="out"/></method>
          <method name="CloseNotification"><arg type="u"/></method>
        </interface></node>''')
        unanswered = []
        shown = []
        def log(line):
            with open(sys.argv[3], "a") as file:
                file.write(line + "\\n")
        def show_late(invocation, summary):
            shown.append(summary)
            log("shown " + summary)
            invocation.return_value(GLib.Variant("(u)", (len(shown),)))
            return False
        def call(connection, sender, path, interface, method, parameters, invocation):
            if sys.argv[1] == "slow" and method == "Notify":
                GLib.timeout_add(int(float(sys.argv[2]) * 1000), show_late, invocation, parameters.unpack()[3])
            elif sys.argv[1] == "slow" and method == "CloseNotification":
                log("closed")
                invocation.return_value(None)
            elif sys.argv[1] == "silent" or method == "Notify":
                unanswered.append(invocation)
            elif method == "GetServerInformation":
                invocation.return_value(GLib.Variant("(ssss)", ("silent", "Manna tests", "1", "1.2")))
            else:
                invocation.return_value(GLib.Variant("(as)", (["body"],)))
        bus = Gio.bus_get_sync(Gio.BusType.SESSION)
        bus.register_object("/org/freedesktop/Notifications", node.interfaces[0], call)
        bus.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "RequestName",
                      GLib.Variant("(su)", ("org.freedesktop.Notifications", 4)), None, 0, -1)
        GLib.MainLoop().run()
        """
}

struct TestBusError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
