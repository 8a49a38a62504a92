import Foundation
import Testing
import TestSupport
@testable import MannaKit

/// A device whose clock is far ahead (a year, a dead battery's 2038): what it stamps waits on
/// every other device, named in `sync status`, instead of winning every race on those records
/// for as long as the skew lasts; once its clock is set right it withdraws those segments and
/// sends the same changes again as changes of now, so nothing it wrote is lost and no version
/// ahead of the others' clocks is left anywhere (docs/sync.md, "A clock far ahead").
@Suite struct SyncClockTests {
    static let year: Instant = 365 * 86_400

    func pair(_ scratch: Scratch) throws -> (TestDevice, TestDevice) {
        let shared = scratch.file("shared")
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        return (try TestDevice(scratch, "laptop", folder: shared), try TestDevice(scratch, "travel", folder: shared))
    }

    /// The greatest version a device holds, by the wall clock it was stamped at.
    func newestInstant(_ device: TestDevice) throws -> Instant {
        let newest = try device.journal.database.prepare("SELECT max(time) FROM (SELECT time FROM sync_fields UNION ALL SELECT time FROM sync_versions)")
        return try newest.step() ? HybridTime.instant(newest.int(0)) : 0
    }

    /// Both devices synced, then the travel machine's clock a year ahead, and a note written
    /// and sent under it.
    func writtenAYearAhead(_ scratch: Scratch) throws -> (TestDevice, TestDevice) {
        let (laptop, travel) = try pair(scratch)
        try laptop.sync()
        try travel.sync()
        travel.now = laptop.now + Self.year
        _ = try travel.journal.addNote("written a year ahead", on: ref("Gen 1:1"), at: travel.now)
        try travel.sync()
        return (laptop, travel)
    }

    /// A note the travel machine wrote, synced to both, then its clock a year ahead.
    func aYearAheadAfterANote(_ scratch: Scratch) throws -> (TestDevice, TestDevice) {
        let (laptop, travel) = try pair(scratch)
        _ = try travel.journal.addNote("before the backup", on: ref("Ps 23:1"), at: travel.now)
        try travel.sync()
        try laptop.sync()
        travel.now = laptop.now + Self.year
        return (laptop, travel)
    }

    /// A copy of `device`'s journal as it is now (its folder: the database with its log).
    func backUp(_ device: TestDevice, _ scratch: Scratch) throws -> String {
        let backup = scratch.file("backup")
        try FileManager.default.copyItem(atPath: Files.parent(of: device.journal.path), toPath: backup)
        return backup + "/journal.sqlite"
    }

    /// The travel machine's backup put back, its clock set right; both sync until settled, and
    /// end alike, with nothing waiting and no version ahead.
    func putBack(_ backup: String, on travel: TestDevice, laptop: TestDevice) throws {
        travel.journal = try Journal(path: backup)
        travel.now = laptop.now + 60
        for _ in 0..<3 {
            travel.now += 60
            laptop.now += 60
            try travel.sync()
            try laptop.sync()
        }
        #expect(try laptop.sync().problems == [])
        #expect(try travel.sync().problems == [])
        #expect(try laptop.export() == travel.export())
        #expect(try newestInstant(laptop) <= laptop.now + Sync.aheadAllowed)
    }

    @Test func aClockAYearAheadWinsNoRaceAndWhatItWroteArrivesOnceItIsSetRight() throws {
        let scratch = try Scratch("sync-clock")
        let (laptop, travel) = try pair(scratch)
        let note = try laptop.noteAndHighlight("one", syncedWith: travel)

        // The travel machine's clock jumps a year ahead; it recolours the highlight, edits the
        // note and writes a new one. A minute later the laptop, not having synced, recolours too.
        travel.now = laptop.now + Self.year + 30
        _ = try travel.journal.highlight(ref("John 3:16"), color: .blue, at: travel.now)
        try travel.edit(note, "travel's words")
        _ = try travel.journal.addNote("written on the travel machine", on: ref("Gen 1:1"), at: travel.now)
        try travel.sync()
        laptop.now += 60
        _ = try laptop.journal.highlight(ref("John 3:16"), color: .green, at: laptop.now)
        let held = try laptop.sync()
        // Applied, the year-ahead colour would beat the laptop's later one: it waits, named.
        #expect(held.problems.contains { $0.contains("'travel'") && $0.contains("365 days ahead of this device's clock") }, "\(held.problems)")
        #expect(try SyncEngine(laptop.journal).state()?.problem?.contains("days ahead") == true)
        #expect(try laptop.journal.highlights(in: nil).map(\.color) == [.green])
        #expect(try laptop.notes().map(\.text) == ["one"])
        #expect(try newestInstant(laptop) <= laptop.now + Sync.aheadAllowed)
        // Still waiting at the next sync; the laptop edits the note meanwhile.
        laptop.now += 60
        try laptop.edit(note, "laptop's words")
        #expect(try laptop.sync().problems.contains { $0.contains("days ahead") })

        // The travel machine's clock is set right.
        travel.now = laptop.now + 60
        let righted = try travel.sync()
        #expect(righted.clockWasAhead == 365, "\(righted)")
        #expect(righted.newDevice != nil)
        #expect(try newestInstant(travel) <= travel.now + Sync.aheadAllowed)
        for _ in 0..<2 {
            laptop.now += 60
            travel.now += 60
            #expect(try laptop.sync().problems == [])
            #expect(try travel.sync().problems == [])
        }
        #expect(try laptop.export() == travel.export())
        // Nothing written on either is lost: the two edits of the note made apart are both kept.
        #expect(Set(try laptop.notes().map(\.text)) == ["travel's words", "laptop's words", "written on the travel machine"])
        #expect(try laptop.journal.highlights(in: nil).count == 1)
        #expect(try newestInstant(laptop) <= laptop.now + Sync.aheadAllowed)
    }

    /// A segment that waits is not read again while it is unchanged, until the time it is no
    /// longer ahead (a large one would otherwise be read and checked at every tick): damaged in
    /// place with its identity kept, it still waits unread; once this clock reaches its time it is
    /// read, and the damage found.
    @Test func aSegmentThatWaitsIsNotReadAgainUntilItsTime() throws {
        let scratch = try Scratch("sync-clock")
        let (laptop, travel) = try pair(scratch)
        travel.now = laptop.now + Self.year
        _ = try travel.journal.addNote("a year ahead", on: ref("Ps 23:1"), at: travel.now)
        try travel.sync()
        let held = try laptop.sync().problems
        #expect(held.count == 1 && held[0].contains("days ahead"), "\(held)")
        let file = SyncFolder(root: laptop.folder).folder(of: try #require(try SyncEngine(travel.journal).state()).device) + "/" + SyncSegment.fileName(1)
        let rejected = SyncRejectedFileTests()
        let original = try #require(FileManager.default.contents(atPath: file))
        let time = try rejected.modified(file)
        try rejected.overwrite(file, at: UInt64(original.count - 10), with: original[original.count - 10] ^ 0x01)
        try rejected.setModified(file, time)
        laptop.now += 3600
        #expect(try laptop.sync().problems == held)
        laptop.now = travel.now
        let read = try laptop.sync().problems
        #expect(read.count == 1 && read[0].contains("checksum"), "\(read)")
    }

    /// A day ahead is allowed: a clock kept in local time rather than UTC is hours off.
    @Test func aClockHoursAheadIsNoProblem() throws {
        let scratch = try Scratch("sync-clock")
        let (laptop, travel) = try pair(scratch)
        travel.now = laptop.now + 14 * 3600
        _ = try travel.journal.addNote("from fourteen hours ahead", on: ref("Ps 23:1"), at: travel.now)
        try travel.sync()
        let report = try laptop.sync()
        #expect(report.problems == [])
        #expect(try laptop.notes().map(\.text) == ["from fourteen hours ahead"])
        #expect(try travel.sync().clockWasAhead == nil)
    }

    /// A device gone for good with its clock a year ahead (wiped, lost): forgetting it withdraws
    /// the segments that wait, or they would apply a year on and win every race then.
    @Test func forgettingADeviceWhoseSegmentsWaitWithdrawsThem() throws {
        let scratch = try Scratch("sync-clock")
        let (laptop, travel) = try pair(scratch)
        _ = try travel.journal.addNote("before the clock jumped", on: ref("Ps 23:1"), at: travel.now)
        try travel.sync()
        travel.now += Self.year
        _ = try travel.journal.addNote("a year ahead", on: ref("Ps 23:2"), at: travel.now)
        try travel.sync()
        #expect(try laptop.sync().problems.contains { $0.contains("days ahead") })
        let gone = try #require(try SyncEngine(laptop.journal).devices().first { $0.name == "travel" })
        #expect(try Sync.forget(gone, laptop.journal, now: laptop.now) == .marked)
        #expect(SyncFolder(root: laptop.folder).left(of: gone.device)?.through == gone.applied)
        #expect(try laptop.sync().problems == [])
        #expect(try laptop.notes().map(\.text) == ["before the clock jumped"])
    }

    /// A device that withdrew its segments past a number: no device applies one past it, and
    /// none waits for one (a segment whose `after` names a withdrawn one applies).
    @Test func withdrawnSegmentsAreNeitherAppliedNorWaitedFor() throws {
        let scratch = try Scratch("sync-clock")
        let (laptop, travel) = try pair(scratch)
        _ = try travel.journal.addNote("kept", on: ref("Ps 23:1"), at: travel.now)
        try travel.sync()
        let old = try #require(try SyncEngine(travel.journal).state()).device
        _ = try travel.journal.addNote("withdrawn", on: ref("Ps 23:2"), at: travel.now)
        try travel.sync()
        let folder = SyncFolder(root: travel.folder)
        try folder.write(SyncFolder.Left(device: old, name: "travel", at: travel.now, through: 1))
        try laptop.sync()
        let texts = try laptop.notes().map(\.text)
        #expect(texts == ["kept"])
        #expect(try SyncEngine(laptop.journal).devices().first { $0.device == old }?.problem == nil)
    }

    /// A withdrawal is never taken back. The travel machine's clock is set right (its segments
    /// stamped ahead withdrawn), then a backup taken while it was ahead is put back and leaves
    /// sync under the old id: its mark must keep the withdrawal, or the laptop waits a year on
    /// the old segments, and on every segment that follows them.
    @Test func leavingAfterAWithdrawalKeepsIt() throws {
        let scratch = try Scratch("sync-clock")
        let (laptop, travel) = try writtenAYearAhead(scratch)
        let backup = try backUp(travel, scratch)
        let old = try #require(try SyncEngine(travel.journal).state()?.device)
        travel.now = laptop.now + 60
        #expect(try travel.sync().clockWasAhead == 365)
        #expect(SyncFolder(root: travel.folder).left(of: old)?.through == 0)

        travel.journal = try Journal(path: backup)
        #expect(try Sync.leave(travel.journal, now: travel.now) == .marked)
        #expect(SyncFolder(root: travel.folder).left(of: old)?.through == 0)
        laptop.now += 120
        #expect(try laptop.sync().problems == [])
    }

    /// A journal whose clock is set right and that leaves before its next sync: leaving syncs
    /// first, so what it stamped ahead is withdrawn and sent again now, under a new id that then
    /// leaves. Nothing waits on the laptop, and the note written a year ahead arrives.
    @Test func leavingJustAfterTheClockIsSetRightWithdrawsWhatWasStampedAhead() throws {
        let scratch = try Scratch("sync-clock")
        let (laptop, travel) = try writtenAYearAhead(scratch)
        travel.now = laptop.now + 60
        #expect(try Sync.leave(travel.journal, now: travel.now) == .marked)
        laptop.now += 120
        #expect(try laptop.sync().problems == [])
        #expect(try laptop.notes().map(\.text) == ["written a year ahead"])
        #expect(try newestInstant(laptop) <= laptop.now + Sync.aheadAllowed)
    }

    /// A backup put back over a journal that wrote while its clock was far ahead: the prayer
    /// written after the backup is only in that journal's segments, which every device holds for
    /// being ahead. The journal put back, a copy, applies its old id's segments as its own (ahead
    /// or not), and at its next sync withdraws and sends them again stamped now: the prayer
    /// reaches the laptop. Before, withdrawn at once with nothing applied, it was lost.
    @Test func aBackupPutBackOverAJournalThatWroteAheadKeepsWhatThatJournalWrote() throws {
        let scratch = try Scratch("sync-clock")
        let (laptop, travel) = try aYearAheadAfterANote(scratch)
        _ = try travel.journal.addNote("in the backup, a year ahead", on: ref("Rom 8:28"), at: travel.now)
        try travel.sync()
        let backup = try backUp(travel, scratch)
        travel.now += 60
        _ = try travel.journal.addPrayer(title: "only in the folder", body: "written after the backup", tags: [], reminders: [], at: travel.now)
        try travel.sync()
        try putBack(backup, on: travel, laptop: laptop)
        #expect(try laptop.journal.prayers(.open, tag: nil).map(\.title) == ["only in the folder"])
        #expect(Set(try laptop.notes().map(\.text)) == ["before the backup", "in the backup, a year ahead"])
    }

    /// A backup from before a `sync leave` and `sync init`, put back over a journal that wrote
    /// under its new id while its clock was far ahead: the new id's segments wait on every
    /// device, and the journal that could withdraw them is gone. The old id's mark names the new
    /// one (`then`), so the journal put back knows those segments for its own: it applies them
    /// and sends them again stamped now. The prayer reaches the laptop; nothing waits.
    @Test func aBackupFromBeforeALeaveAndJoinKnowsTheNewIdsSegmentsForItsOwn() throws {
        let scratch = try Scratch("sync-clock")
        let (laptop, travel) = try aYearAheadAfterANote(scratch)
        let backup = try backUp(travel, scratch)
        #expect(try travel.leave() == .marked)
        try SyncEngine(travel.journal).start(folder: travel.folder, device: Journal.newUUID(), name: "travel")
        travel.now += 60
        _ = try travel.journal.addPrayer(title: "written a year ahead", body: "under the new id", tags: [], reminders: [], at: travel.now)
        try travel.sync()
        try putBack(backup, on: travel, laptop: laptop)
        #expect(try laptop.journal.prayers(.open, tag: nil).map(\.title) == ["written a year ahead"])
    }
}
