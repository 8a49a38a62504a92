import Foundation
import Testing
import TestSupport
@testable import MannaKit
#if canImport(Glibc)
import Glibc
#endif

/// The sync folder holds prayer text and is carried by a sync tool that carries links too
/// (issue 24, point 9): what Manna writes there only its user can read, and a link planted
/// there is never followed, for writing or for reading.
@Suite struct SyncFolderSafetyTests {
    func mode(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
    }

    func device(_ scratch: Scratch, _ name: String = "laptop") throws -> TestDevice {
        let shared = scratch.file("shared")
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        return try TestDevice(scratch, name, folder: shared)
    }

    @Test func segmentsAreTheUsersOnlyAndFoldersMadeOpenBeforeAreClosed() throws {
        let scratch = try Scratch("sync-safety")
        let laptop = try device(scratch)
        let state = try #require(try SyncEngine(laptop.journal).state())
        let folder = SyncFolder(root: laptop.folder)
        // As an older Manna left them: open to everyone.
        for path in [laptop.folder + "/manna-sync", folder.devices, folder.folder(of: state.device)] {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            chmod(path, 0o755)
        }
        _ = try laptop.journal.addNote("For Anna", on: ref("John 3:16"), at: laptop.now)
        #expect(try laptop.sync().problems == [])
        for path in [laptop.folder + "/manna-sync", folder.devices, folder.folder(of: state.device)] {
            #expect(mode(path) == 0o700, "\(path): \(String(mode(path), radix: 8))")
        }
        let segment = folder.folder(of: state.device) + "/" + SyncSegment.fileName(1)
        #expect(mode(segment) == 0o600)
    }

    /// Each link a sync tool could carry in: the device's own folder, a folder above it, a
    /// segment of another device. Refused with one line naming it, nothing written or read
    /// through it.
    @Test(arguments: ["manna-sync", "manna-sync/v1", "own folder", "a peer's segment", "a peer's folder", "own next segment"])
    func aLinkPlantedInTheFolderIsNeverFollowed(planted: String) throws {
        let scratch = try Scratch("sync-safety")
        let laptop = try device(scratch)
        let id = try #require(try SyncEngine(laptop.journal).state()).device
        let folder = SyncFolder(root: laptop.folder)
        let elsewhere = scratch.file("elsewhere")
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        let secret = elsewhere + "/" + SyncSegment.fileName(1)
        try "the user's own file\n".write(toFile: secret, atomically: true, encoding: .utf8)
        let peer = "0b27b140-2020-4527-9ceb-d893b7eaf510"
        try FileManager.default.createDirectory(atPath: folder.devices, withIntermediateDirectories: true)
        switch planted {
        case "manna-sync":
            try FileManager.default.removeItem(atPath: laptop.folder + "/manna-sync")
            try FileManager.default.createSymbolicLink(atPath: laptop.folder + "/manna-sync", withDestinationPath: elsewhere)
        case "manna-sync/v1":
            try FileManager.default.removeItem(atPath: folder.devices)
            try FileManager.default.createSymbolicLink(atPath: folder.devices, withDestinationPath: elsewhere)
        case "own folder":
            try FileManager.default.createSymbolicLink(atPath: folder.folder(of: id), withDestinationPath: elsewhere)
        case "a peer's segment":
            try FileManager.default.createDirectory(atPath: folder.folder(of: peer), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: folder.folder(of: peer) + "/" + SyncSegment.fileName(1), withDestinationPath: secret)
        case "own next segment":
            try FileManager.default.createDirectory(atPath: folder.folder(of: id), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: folder.folder(of: id) + "/" + SyncSegment.fileName(1), withDestinationPath: secret)
        default:
            try FileManager.default.createSymbolicLink(atPath: folder.folder(of: peer), withDestinationPath: elsewhere)
        }
        _ = try laptop.journal.addNote("For Anna", on: ref("John 3:16"), at: laptop.now)
        let report = try laptop.sync()
        // Nothing of the journal went elsewhere, and the user's file is as it was.
        #expect(Files.list(elsewhere) == [SyncSegment.fileName(1)])
        #expect(try String(contentsOfFile: secret, encoding: .utf8) == "the user's own file\n")
        switch planted {
        case "manna-sync", "manna-sync/v1", "own folder":
            #expect(report.problems.count == 1 && report.problems[0].contains("symbolic link"), "\(report.problems)")
            #expect(report.sent == 0)
        case "a peer's segment":
            // Not a segment at all: counted, never read, and the peer has nothing to apply.
            #expect(report.ignored == [SyncFolder.Ignored(path: folder.folder(of: peer) + "/" + SyncSegment.fileName(1), kind: .link)], "\(report.ignored)")
            #expect(report.applied.isEmpty && report.problems.isEmpty, "\(report)")
        case "own next segment":
            // The link is replaced by the segment (its target untouched), and no one else is
            // taken to write under this id: the device keeps it.
            #expect(report.problems.isEmpty && report.sent > 0 && report.newDevice == nil, "\(report)")
            #expect(try SyncEngine(laptop.journal).state()?.device == id)
            #expect(Files.isRegularFile(folder.folder(of: id) + "/" + SyncSegment.fileName(1), followLinks: false))
        default:
            #expect(report.ignored.map(\.path) == [folder.folder(of: peer)], "\(report.ignored)")
            #expect(report.applied.isEmpty && report.problems.isEmpty, "\(report)")
        }
    }
}
