import Foundation
import MannaKit
import Testing
import TestSupport
@testable import MannaApp

/// One damaged byte in another device's segment is never silent (issue 24: `sync status` said
/// "waiting" and `doctor` ok while that device's edits stopped arriving for good): `sync now`
/// and `sync status` name the file, `doctor` fails, and once a whole copy arrives it applies
/// and `doctor` is content again.
@Suite struct SyncDamagedCommandTests {
    @Test func aDamagedByteIsNamedAndFailsDoctorUntilMended() throws {
        let (laptop, desktop, shared) = try SyncClockCommandTests.pair()
        #expect(desktop.run("note", "add", "Rom 8:28", "from the desktop").status == 0)
        #expect(desktop.run("sync", "now").status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(desktop.run("sync", "status", "--json").stdout.utf8)) as? [String: Any])
        let device = try #require(json["device"] as? String)
        let folder = SyncFolder(root: shared).folder(of: device)
        let last = try #require(SyncFolder(root: shared).scan().devices[device]?.last)
        let path = folder + "/" + SyncSegment.fileName(last)
        let whole = try #require(FileManager.default.contents(atPath: path))
        var damaged = whole
        damaged[whole.count - 10] ^= 0x01
        try damaged.write(to: URL(fileURLWithPath: path))

        let stuck = laptop.run("sync", "now")
        #expect(stuck.stderr.contains(path) && stuck.stderr.contains("checksum"), "\(stuck.stderr)")
        let status = laptop.run("sync", "status").stdout
        #expect(status.contains("'desktop' (device \(device.prefix(8)))") && status.contains("checksum"), "\(status)")
        let doctor = laptop.run("doctor")
        #expect(doctor.status != 0)
        #expect(doctor.stdout.contains("FAIL  sync: ") && doctor.stdout.contains(path), "\(doctor.stdout)")
        #expect(!laptop.run("note", "list").stdout.contains("from the desktop"))

        // A sync tool brings the whole file (a new one, renamed into place).
        try whole.write(to: URL(fileURLWithPath: path + ".tmp"))
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.moveItem(atPath: path + ".tmp", toPath: path)
        let mended = laptop.run("sync", "now")
        #expect(mended.stdout.contains("from 'desktop'") && mended.stderr == "", "\(mended.stdout)\(mended.stderr)")
        #expect(laptop.run("note", "list").stdout.contains("from the desktop"))
        #expect(laptop.run("doctor").stdout.contains("ok    sync: "))
    }
}
