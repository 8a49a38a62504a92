// Two Syncthing instances on 127.0.0.1 sharing one folder, each in a home of its own: keys
// from `syncthing generate`, a config of ours (discovery, relays, NAT and upgrades off; each
// device knows the other by id at a static address; a rescan every two seconds besides the
// file watcher). Stopped with SIGKILL by process id.
import Foundation
import MannaKit
import Testing
import TestSupport

final class TestSyncthing {
    private let scratch: Scratch
    /// Each instance's copy of the shared folder.
    private(set) var folders: [String] = []
    private var children: [Subprocess.Child] = []

    init(instances: Int = 2) throws {
        try Prerequisite.syncthing.require()
        scratch = try Scratch("syncthing")
        let syncthing = try #require(TestEnvironment.path(of: "syncthing"))
        var ids: [String] = []
        var homes: [String] = []
        for index in 0..<instances {
            let home = scratch.file("home\(index)")
            let generated = spawn(syncthing, ["generate", "--home=" + home, "--no-default-folder", "--skip-port-probing"],
                                  environment: ["PATH": "/usr/bin:/bin", "HOME": scratch.path])
            guard generated.status == 0 else { throw TestBusError("syncthing generate failed: \(generated.stderr)") }
            let id = spawn(syncthing, ["serve", "--home=" + home, "--device-id"], environment: ["PATH": "/usr/bin:/bin", "HOME": scratch.path])
            ids.append(id.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            homes.append(home)
            let folder = scratch.file("Sync\(index)")
            try FileManager.default.createDirectory(atPath: folder + "/.stfolder", withIntermediateDirectories: true)
            folders.append(folder)
        }
        let listen = try ids.map { _ in try TestSyncthing.freePort() }
        for index in 0..<instances {
            let devices = ids.indices.map { other in
                "<device id=\"\(ids[other])\" name=\"device\(other)\" compression=\"metadata\"><address>tcp://127.0.0.1:\(listen[other])</address></device>"
            }.joined(separator: "\n")
            let config = """
                <configuration version="36">
                  <folder id="manna" label="manna" path="\(folders[index])" type="sendreceive" rescanIntervalS="2" fsWatcherEnabled="true" fsWatcherDelayS="1">
                    \(ids.map { "<device id=\"\($0)\"></device>" }.joined())
                  </folder>
                  \(devices)
                  <gui enabled="true" tls="false"><address>127.0.0.1:\(try TestSyncthing.freePort())</address><apikey>manna-test</apikey></gui>
                  <options>
                    <listenAddress>tcp://127.0.0.1:\(listen[index])</listenAddress>
                    <globalAnnounceEnabled>false</globalAnnounceEnabled>
                    <localAnnounceEnabled>false</localAnnounceEnabled>
                    <relaysEnabled>false</relaysEnabled>
                    <natEnabled>false</natEnabled>
                    <startBrowser>false</startBrowser>
                    <urAccepted>-1</urAccepted>
                    <autoUpgradeIntervalH>0</autoUpgradeIntervalH>
                    <crashReportingEnabled>false</crashReportingEnabled>
                  </options>
                </configuration>
                """
            try config.write(toFile: homes[index] + "/config.xml", atomically: true, encoding: .utf8)
            var environment: Environment = ["PATH": "/usr/bin:/bin", "HOME": scratch.path, "STNOUPGRADE": "1"]
            environment["STNORESTART"] = "1"
            children.append(try Subprocess.start(syncthing, arguments: ["serve", "--home=" + homes[index], "--no-browser", "--no-restart",
                                                                        "--logfile=" + homes[index] + "/log"], environment: environment))
        }
    }

    deinit {
        for child in children.reversed() {
            kill(child.pid, SIGKILL)
            _ = child.wait()
            for descriptor in [child.input, child.output, child.errorOutput] { close(descriptor) }
        }
    }

    /// A TCP port nothing listens on now (the kernel's choice for port 0).
    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound else { throw TestBusError("no free port: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// What the instances logged, for a failing test.
    var logs: String {
        folders.indices.map { (try? String(contentsOfFile: scratch.file("home\($0)") + "/log", encoding: .utf8)) ?? "" }.joined(separator: "\n---\n")
    }
}
