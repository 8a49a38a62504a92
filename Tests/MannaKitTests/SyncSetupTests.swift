import Foundation
import Testing
import TestSupport
@testable import MannaKit

/// The ways people set sync up, and set it up again, end with every record once on every
/// device: records are matched by uuid, and the same text held on two devices is no conflict.
@Suite struct SyncSetupTests {
    /// How the second journal (or the first one again) comes to sync.
    enum Setup: String, CaseIterable, CustomTestStringConvertible {
        /// One journal copied to a second machine, then `sync init` on each.
        case copiedThenInitOnBoth
        /// One journal copied to a second machine, the first syncing and editing on until its
        /// segments are all in its snapshot, then `sync init` on the copy: the texts it restates
        /// were replaced long ago, and the snapshot must still say so (its history whole).
        case copiedThenInitAfterCompaction
        /// `sync leave`, then `sync init` again.
        case leaveThenInit
        /// An older copy of journal.sqlite put back on a syncing device.
        case restoredBackup
        /// A copy made before the journal synced put back, then `sync init`.
        case restoredBackupThenInit
        /// An older journal.sqlite put back once every segment written since is in the snapshot.
        case restoredBackupAfterCompaction
        /// A backup taken while edits waited in the journal for the folder, sent since.
        case restoredBackupWithUnsentEdits
        /// `manna import` of an older export on each syncing device.
        case importedExport
        /// `manna import` on one device of the other's export, newer than what synced.
        case importedNewerExport
        /// A home directory copied to another machine: two devices claim one id.
        case clonedHome
        /// A cloned home whose two devices wrote the same segment number at once: the sync
        /// tool keeps one file and makes a conflict copy of the other, and the original has
        /// written another since.
        case clonedHomeWritingAtOnce

        var testDescription: String { rawValue }
    }

    /// Three notes, two prayers with bodies and a reminder, a highlight, a bookmark.
    static func fill(_ journal: Journal, at now: Instant) throws {
        for (index, verse) in ["John 3:16", "Ps 23:1", "Rom 8:28"].enumerated() {
            _ = try journal.addNote("note \(index)", on: ref(verse), at: now + index)
        }
        _ = try journal.addPrayer(title: "For Anna", body: "her exams", tags: ["family"], reminders: try Prayer.reminders(["21:00"], now: now, zone: .utc),
                                  at: now)
        _ = try journal.addPrayer(title: "For the church", body: "the new roof", tags: [], reminders: [], at: now + 1)
        _ = try journal.highlight(ref("Gen 1:1"), color: .yellow, at: now)
        _ = try journal.bookmark(ref("Ps 23:4"), at: now)
    }

    /// Copies a journal's folder (the database with its log): the file as a backup or a cloned
    /// home would have it.
    static func copy(_ scratch: Scratch, _ from: String, to: String) throws {
        try FileManager.default.copyItem(atPath: Files.parent(of: scratch.path(from)), toPath: Files.parent(of: scratch.path(to)))
    }

    /// Syncs every device in turn until none sends or applies anything.
    @discardableResult
    static func settle(_ devices: [TestDevice]) throws -> [SyncReport] {
        var reports: [SyncReport] = []
        for _ in 0..<6 {
            var quiet = true
            for device in devices {
                device.now += 60
                let report = try device.sync()
                reports.append(report)
                if report.sent > 0 || !report.applied.isEmpty { quiet = false }
            }
            if quiet { return reports }
        }
        Issue.record("the devices did not settle")
        return reports
    }

    /// No record twice, no conflict copy: the notes and prayers are those expected, once each.
    static func expectNoDuplicates(_ devices: [TestDevice], notes: [String], prayers: [String], _ setup: Setup) throws {
        let first = try devices[0].export()
        for device in devices {
            #expect(try device.export() == first, "\(setup): \(device.name) and \(devices[0].name) differ")
            let texts = try device.notes().map(\.text).sorted()
            #expect(texts == notes.sorted(), "\(setup): \(device.name)'s notes: \(texts)")
            let titles = try device.journal.prayers(.open, tag: nil).map(\.title).sorted()
            #expect(titles == prayers.sorted(), "\(setup): \(device.name)'s prayers")
            #expect(try device.journal.highlights(in: nil).count == 1 && device.journal.bookmarks(in: nil).count == 1, "\(setup): \(device.name)'s marks")
        }
    }

    /// Edits the first note on each device in turn (each after the other's arrived): in turn,
    /// no conflict, and no copy of any text the devices held alike before.
    static func editInTurn(_ devices: [TestDevice]) throws -> String {
        var last = ""
        for device in devices {
            try settle(devices)
            device.now += 60
            let note = try #require(try device.notes().first { $0.text.hasPrefix("note 0") })
            last = "note 0, edited on \(device.name)"
            try device.edit(note, last)
            try settle(devices)
        }
        return last
    }

    @Test(arguments: Setup.allCases)
    func everySetupEndsWithEachRecordOnce(_ setup: Setup) throws {
        let scratch = try Scratch("sync-setup")
        let shared = scratch.file("shared")
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        let start: Instant = 1_800_000_000
        var notes = ["note 0", "note 1", "note 2"]
        let prayers = ["For Anna", "For the church"]
        var devices: [TestDevice] = []

        func syncing(_ name: String) throws -> TestDevice {
            let journal = try scratch.journal(name)
            try SyncEngine(journal).start(folder: shared, device: Journal.newUUID(), name: name)
            return TestDevice(journal: journal, name: name, folder: shared, now: start + 100)
        }
        func pair() throws -> (TestDevice, TestDevice) {
            try Self.fill(try scratch.journal("laptop"), at: start)
            let pair = (try syncing("laptop"), try syncing("desktop"))
            try Self.settle([pair.0, pair.1])
            return pair
        }

        switch setup {
        case .copiedThenInitOnBoth:
            try Self.fill(try scratch.journal("laptop"), at: start)
            try SyncSetupTests.copy(scratch, "laptop", to: "desktop")
            devices = [try syncing("laptop"), try syncing("desktop")]
        case .copiedThenInitAfterCompaction:
            try Self.fill(try scratch.journal("laptop"), at: start)
            try SyncSetupTests.copy(scratch, "laptop", to: "desktop")
            let laptop = try syncing("laptop")
            // As `sync init` does: the texts as they were go out first.
            try laptop.sync()
            for round in 0..<4 {
                laptop.now += 60
                try laptop.edit(try #require(try laptop.notes().first { $0.text.hasPrefix("note 1") }), "note 1, edited \(round)")
                try laptop.sync(segmentsKept: 1)
            }
            try laptop.sync(segmentsKept: 0)
            notes[1] = "note 1, edited 3"
            let state = try #require(try SyncEngine(laptop.journal).state())
            #expect(SyncFolder(root: shared).scan().devices[state.device] == [], "every segment is in the snapshot")
            let desktop = try syncing("desktop")
            desktop.now = laptop.now + 60
            devices = [laptop, desktop]
        case .leaveThenInit:
            let (laptop, desktop) = try pair()
            try SyncEngine(laptop.journal).stop()
            try SyncEngine(laptop.journal).start(folder: shared, device: Journal.newUUID(), name: "laptop")
            devices = [laptop, desktop]
        case .restoredBackup:
            let (laptop, desktop) = try pair()
            try Self.copy(scratch, "laptop", to: "backup")
            // Edits after the backup, sent: the restored journal must not undo them, nor copy what it had.
            laptop.now += 60
            try laptop.edit(try #require(try laptop.notes().first { $0.text == "note 1" }), "note 1, after the backup")
            notes[1] = "note 1, after the backup"
            try SyncSetupTests.settle([laptop, desktop])
            try Self.copy(scratch, "backup", to: "restored")
            let restored = TestDevice(journal: try scratch.journal("restored"), name: "laptop", folder: shared, now: laptop.now + 60)
            devices = [restored, desktop]
        case .restoredBackupThenInit:
            try Self.fill(try scratch.journal("laptop"), at: start)
            try Self.copy(scratch, "laptop", to: "backup")
            let laptop = try syncing("laptop"), desktop = try syncing("desktop")
            try SyncSetupTests.settle([laptop, desktop])
            laptop.now += 60
            try laptop.edit(try #require(try laptop.notes().first { $0.text == "note 1" }), "note 1, after the backup")
            notes[1] = "note 1, after the backup"
            try SyncSetupTests.settle([laptop, desktop])
            try Self.copy(scratch, "backup", to: "restored")
            let restored = try syncing("restored")
            restored.now = laptop.now + 60
            devices = [restored, desktop]
        case .restoredBackupAfterCompaction:
            let (laptop, desktop) = try pair()
            try Self.copy(scratch, "laptop", to: "backup")
            for round in 0..<4 {
                laptop.now += 60
                desktop.now += 60
                try laptop.edit(try #require(try laptop.notes().first { $0.text.hasPrefix("note 1") }), "note 1, after the backup \(round)")
                try desktop.edit(try #require(try desktop.notes().first { $0.text.hasPrefix("note 2") }), "note 2, on the desktop \(round)")
                try laptop.sync(segmentsKept: 1)
                try desktop.sync()
            }
            // The desktop's next segment says it has applied the laptop's last: all can go.
            desktop.now += 60
            try desktop.edit(try #require(try desktop.notes().first { $0.text.hasPrefix("note 2") }), "note 2, on the desktop 4")
            try desktop.sync()
            try laptop.sync(segmentsKept: 0)
            notes[1] = "note 1, after the backup 3"
            notes[2] = "note 2, on the desktop 4"
            let state = try #require(try SyncEngine(laptop.journal).state())
            #expect(SyncFolder(root: shared).scan().devices[state.device] == [], "every segment is in the snapshot")
            try Self.copy(scratch, "backup", to: "restored")
            devices = [TestDevice(journal: try scratch.journal("restored"), name: "laptop", folder: shared, now: laptop.now + 60), desktop]
        case .restoredBackupWithUnsentEdits:
            let (laptop, desktop) = try pair()
            laptop.now += 60
            try laptop.edit(try #require(try laptop.notes().first { $0.text == "note 1" }), "note 1, queued at the backup")
            notes[1] = "note 1, queued at the backup"
            try SyncEngine(laptop.journal).capture(now: laptop.now)
            try Self.copy(scratch, "laptop", to: "backup")
            try SyncSetupTests.settle([laptop, desktop])
            try Self.copy(scratch, "backup", to: "restored")
            devices = [TestDevice(journal: try scratch.journal("restored"), name: "laptop", folder: shared, now: laptop.now + 60), desktop]
        case .importedNewerExport:
            let (laptop, desktop) = try pair()
            laptop.now += 60
            try laptop.edit(try #require(try laptop.notes().first { $0.text == "note 1" }), "note 1, exported")
            notes[1] = "note 1, exported"
            let prayer = try #require(try laptop.journal.prayers(.open, tag: nil).first { $0.title == "For Anna" })
            try laptop.journal.updatePrayer(uuid: prayer.uuid, title: nil, body: "her exams, and her driving test", tags: nil, reminders: nil, at: laptop.now)
            _ = try desktop.journal.merge(try ImportFile(parsing: try laptop.export(), file: "export.json"))
            devices = [laptop, desktop]
        case .importedExport:
            let (laptop, desktop) = try pair()
            let export = try laptop.export()
            laptop.now += 60
            try laptop.edit(try #require(try laptop.notes().first { $0.text == "note 1" }), "note 1, after the export")
            notes[1] = "note 1, after the export"
            try SyncSetupTests.settle([laptop, desktop])
            for device in [laptop, desktop] { _ = try device.journal.merge(try ImportFile(parsing: export, file: "export.json")) }
            devices = [laptop, desktop]
        case .clonedHome:
            let (laptop, desktop) = try pair()
            try Self.copy(scratch, "laptop", to: "clone")
            let clone = TestDevice(journal: try scratch.journal("clone"), name: "laptop", folder: shared, now: laptop.now)
            _ = try laptop.journal.addNote("on the original", on: ref("Gen 1:2"), at: laptop.now)
            _ = try clone.journal.addNote("on the clone", on: ref("Gen 1:3"), at: clone.now)
            notes += ["on the original", "on the clone"]
            try laptop.sync()
            let report = try clone.sync()
            #expect(report.newDevice != nil, "the clone took a new id")
            devices = [laptop, desktop, clone]
        case .clonedHomeWritingAtOnce:
            let (laptop, desktop) = try pair()
            try Self.copy(scratch, "laptop", to: "clone")
            let clone = TestDevice(journal: try scratch.journal("clone"), name: "laptop", folder: shared, now: laptop.now)
            _ = try laptop.journal.addNote("on the original", on: ref("Gen 1:2"), at: laptop.now)
            _ = try clone.journal.addNote("on the clone", on: ref("Gen 1:3"), at: clone.now)
            notes += ["on the original", "on the clone"]
            // The original writes two segments, the clone one, before either sees the other's:
            // the sync tool keeps the clone's first, and the original's becomes its conflict copy.
            let state = try #require(try SyncEngine(laptop.journal).state())
            let own = SyncFolder(root: shared).folder(of: state.device) + "/"
            let first = own + SyncSegment.fileName(state.sequence + 1), second = own + SyncSegment.fileName(state.sequence + 2)
            try laptop.sync()
            _ = try laptop.journal.addNote("on the original, later", on: ref("Gen 1:4"), at: laptop.now)
            notes.append("on the original, later")
            try laptop.sync()
            try FileManager.default.moveItem(atPath: first, toPath: scratch.file("first"))
            try FileManager.default.moveItem(atPath: second, toPath: scratch.file("second"))
            try clone.sync()
            try FileManager.default.moveItem(atPath: scratch.file("first"), toPath: first.replacingOccurrences(of: ".jsonl", with: ".sync-conflict-20270101-000000-ABCDEFG.jsonl"))
            try FileManager.default.moveItem(atPath: scratch.file("second"), toPath: second)
            devices = [laptop, desktop, clone]
        }

        let reports = try Self.settle(devices)
        #expect(reports.allSatisfy { $0.copies == 0 }, "\(setup): no conflict copies")
        try Self.expectNoDuplicates(devices, notes: notes, prayers: prayers, setup)
        notes[0] = try Self.editInTurn(devices)
        try Self.expectNoDuplicates(devices, notes: notes, prayers: prayers, setup)
    }
}

/// A device's id and sequence cannot churn: syncs at once wait for each other, a kill after a
/// segment is renamed into place resumes, and only a real copy takes a new id.
@Suite struct SyncIdentityTests {
    func pair(_ scratch: Scratch) throws -> (TestDevice, TestDevice) {
        let shared = scratch.file("shared")
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        let laptop = try TestDevice(scratch, "laptop", folder: shared), desktop = try TestDevice(scratch, "desktop", folder: shared)
        try SyncSetupTests.fill(laptop.journal, at: laptop.now)
        try SyncSetupTests.settle([laptop, desktop])
        return (laptop, desktop)
    }

    /// The segment numbers in a device's folder.
    func sequences(_ device: TestDevice) throws -> [Int] {
        let state = try #require(try SyncEngine(device.journal).state())
        return SyncFolder(root: device.folder).scan().devices[state.device] ?? []
    }

    /// Killed after the rename, before the journal recorded it: the file is this device's own.
    /// One journal copied to a second machine; the first joins and edits a note before the
    /// second joins. The second restates the note's old text as it joins, later than the edit:
    /// the edit still wins (it was made from that very text), and there is no conflict copy.
    @Test func anEditMadeBeforeTheCopyJoinsBeatsTheCopysOldText() throws {
        let scratch = try Scratch("sync-setup")
        let shared = scratch.file("shared")
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        let journal = try scratch.journal("laptop")
        _ = try journal.addNote("first words", on: ref("John 3:16"), at: 1_800_000_000)
        try SyncSetupTests.copy(scratch, "laptop", to: "desktop")
        let laptop = TestDevice(journal: journal, name: "laptop", folder: shared, now: 1_800_000_100)
        let desktop = TestDevice(journal: try scratch.journal("desktop"), name: "desktop", folder: shared, now: 1_800_000_100)
        try SyncEngine(laptop.journal).start(folder: shared, device: Journal.newUUID(), name: "laptop")
        try laptop.sync()
        laptop.now += 60
        try laptop.edit(try #require(try laptop.notes().first), "second words")
        try laptop.sync()
        desktop.now = laptop.now + 60
        try SyncEngine(desktop.journal).start(folder: shared, device: Journal.newUUID(), name: "desktop")
        try SyncSetupTests.settle([laptop, desktop])
        for device in [laptop, desktop] {
            #expect(try device.notes().map(\.text) == ["second words"], "\(device.name)")
        }
        #expect(try laptop.export() == desktop.export())
    }

    @Test func aKillAfterASegmentIsRenamedIntoPlaceResumes() throws {
        let scratch = try Scratch("sync-identity")
        let (laptop, desktop) = try pair(scratch)
        let before = try #require(try SyncEngine(laptop.journal).state())
        _ = try laptop.journal.addNote("written before the kill", on: ref("Gen 1:2"), at: laptop.now)
        try SyncEngine(laptop.journal).capture(now: laptop.now)
        let (sequence, changes) = try #require(try SyncEngine(laptop.journal).outbox())
        // What `send` does up to the rename; the journal's commit never happens.
        _ = try SyncFolder(root: laptop.folder).write(SyncSegment(device: before.device, name: before.deviceName, sequence: sequence, schema: Sync.schema,
                                                                  after: try SyncEngine(laptop.journal).applied(), changes: changes))
        _ = try laptop.journal.addNote("written after it", on: ref("Gen 1:3"), at: laptop.now)
        let resumed = try laptop.sync()
        #expect(resumed.newDevice == nil, "no new id: \(resumed)")
        let after = try #require(try SyncEngine(laptop.journal).state())
        #expect(after.device == before.device)
        // The renamed segment is kept as written; only the later note goes in the next one.
        #expect(try sequences(laptop) == Array(1...sequence + 1))
        #expect(resumed.sent == 7)
        let received = try desktop.sync()
        #expect(received.problems.isEmpty, "\(received.problems)")
        try SyncSetupTests.settle([laptop, desktop])
        #expect(try desktop.export() == laptop.export())
        #expect(try desktop.notes().count == 5)
    }

    /// Four syncs at once on one device (ticks from a timer and cron, `sync now`), with edits
    /// between them: one id, segments without a gap, every note once on the other device.
    @Test func fourSyncsAtOnceKeepOneIdentity() throws {
        let scratch = try Scratch("sync-identity")
        let (laptop, desktop) = try pair(scratch)
        let device = try #require(try SyncEngine(laptop.journal).state()).device
        let path = laptop.journal.path, now = laptop.now
        let failures = Counter(), newDevices = Counter()
        let done = DispatchGroup()
        for index in 0..<4 {
            done.enter()
            Thread {
                defer { done.leave() }
                do {
                    let journal = try Journal(path: path)
                    for round in 0..<20 {
                        _ = try journal.addNote("note \(index)-\(round)", on: ref("Ps 119:\(index * 20 + round + 1)"), at: now + round)
                        if try Sync.run(journal, now: now + round, force: true).newDevice != nil { newDevices.increment() }
                    }
                } catch {
                    failures.increment()
                }
            }.start()
        }
        done.wait()
        #expect(failures.value == 0)
        #expect(newDevices.value == 0)
        #expect(try SyncEngine(laptop.journal).state()?.device == device)
        // Without a gap up to the last written (the oldest may be in a snapshot by now).
        let written = try #require(try SyncEngine(laptop.journal).state()).sequence, kept = try sequences(laptop)
        #expect(kept == Array((kept.first ?? 1)...written))
        try SyncSetupTests.settle([laptop, desktop])
        #expect(try desktop.notes().count == 3 + 80)
        #expect(try desktop.export() == laptop.export())
    }

    /// A sync that does not wait (the tick's) leaves the journal to the sync already running.
    @Test func aTickSyncLeavesTheWorkToTheSyncRunning() throws {
        let scratch = try Scratch("sync-identity")
        let (laptop, _) = try pair(scratch)
        _ = try laptop.journal.addNote("waits for the next", on: ref("Gen 1:2"), at: laptop.now)
        let other = try Journal(path: laptop.journal.path)
        let report = try SyncLock.holding(other, wait: false) { () throws(JournalError) in
            try Sync.run(laptop.journal, now: laptop.now, wait: false)
        }
        #expect(report?.busy == true)
        #expect(try SyncEngine(laptop.journal).outbox() == nil, "nothing captured while another sync runs")
        #expect(try laptop.sync().sent == 7)
    }

    /// Segments applied in any order, any number of times, make the same journal.
    @Test func segmentsAppliedInAnyOrderAnyNumberOfTimesMakeOneJournal() throws {
        let scratch = try Scratch("sync-identity")
        let (laptop, desktop) = try pair(scratch)
        for index in 0..<4 {
            laptop.now += 60
            desktop.now += 60
            let note = try #require(try laptop.notes().first)
            try laptop.edit(note, "laptop \(index)")
            try desktop.edit(note, "desktop \(index)")
            _ = try desktop.journal.highlight(ref("John 3:\(index + 1)"), color: .green, at: desktop.now)
            try laptop.sync()
            try desktop.sync()
        }
        try SyncSetupTests.settle([laptop, desktop])
        let folder = SyncFolder(root: laptop.folder)
        var segments: [SyncSegment] = []
        for (device, sequences) in folder.scan().devices {
            for sequence in sequences { segments.append(try SyncSegment(parsing: try #require(try folder.read(device, sequence)), schema: Sync.schema)) }
        }
        var exports: [String] = []
        var random = SeededRandom(seed: 7)
        for order in 0..<4 {
            let journal = try scratch.journal("order\(order)")
            try SyncEngine(journal).start(folder: laptop.folder, device: Journal.newUUID(), name: "order\(order)")
            var delivery = segments.shuffled(using: &random)
            delivery += delivery.filter { _ in Bool.random(using: &random) }
            for segment in delivery { _ = try SyncEngine(journal).apply(segment, at: 1_800_000_000) }
            for segment in segments { _ = try SyncEngine(journal).apply(segment, at: 1_800_000_000) }
            exports.append(try journal.export().prettyText)
        }
        #expect(Set(exports).count == 1)
        #expect(exports.first == (try laptop.export()))
    }
}
