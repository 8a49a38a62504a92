import Testing
@testable import MannaKit

/// Finding the session bus, including from cron where DBUS_SESSION_BUS_ADDRESS is unset.
@Suite struct SessionBusTests {
    func address(_ environment: Environment, sockets: Set<String> = []) throws(NotifyError) -> String {
        try SessionBus.address(environment: environment, userID: 1000, isSocket: { sockets.contains($0) })
    }

    @Test func theVariableWinsWhenSet() throws {
        let given = "unix:path=/tmp/dbus-x,guid=0123"
        #expect(try address(["DBUS_SESSION_BUS_ADDRESS": given], sockets: ["/run/user/1000/bus"]) == given)
    }

    @Test func withoutItTheRuntimeDirectorysSocketIsUsed() throws {
        #expect(try address([:], sockets: ["/run/user/1000/bus"]) == "unix:path=/run/user/1000/bus")
        #expect(try address(["DBUS_SESSION_BUS_ADDRESS": ""], sockets: ["/run/user/1000/bus"]) == "unix:path=/run/user/1000/bus")
        #expect(try address(["XDG_RUNTIME_DIR": "/tmp/rt/"], sockets: ["/tmp/rt/bus"]) == "unix:path=/tmp/rt/bus")
        // A relative XDG_RUNTIME_DIR is invalid (XDG spec): the default applies.
        #expect(try address(["XDG_RUNTIME_DIR": "rt"], sockets: ["/run/user/1000/bus"]) == "unix:path=/run/user/1000/bus")
    }

    @Test func unusualPathsAreEscapedForTheAddressSyntax() throws {
        #expect(try address(["XDG_RUNTIME_DIR": "/tmp/a b,c=é"], sockets: ["/tmp/a b,c=é/bus"])
            == "unix:path=/tmp/a%20b%2cc%3d%c3%a9/bus")
    }

    @Test func noVariableAndNoSocketIsNoBus() {
        #expect(throws: NotifyError.noBus("DBUS_SESSION_BUS_ADDRESS is not set and there is no bus socket at /run/user/1000/bus")) {
            try address([:])
        }
        #expect(throws: NotifyError.noBus("DBUS_SESSION_BUS_ADDRESS is not set and there is no bus socket at /tmp/rt/bus")) {
            try address(["XDG_RUNTIME_DIR": "/tmp/rt"], sockets: ["/run/user/1000/bus"])
        }
    }
}
