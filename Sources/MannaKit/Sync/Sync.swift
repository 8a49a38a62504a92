// One sync (docs/sync.md): local edits captured and written as this device's next segment,
// then every other device's new segments applied in order, each in one transaction, stopping
// at a gap, a half-arrived file or one from a newer Manna (tried again next time). The tick
// runs it every minute; when nothing was written here and no device's folder changed, it
// costs a query and a few stat calls.

/// What a sync did and found.
public struct SyncReport: Equatable, Sendable {
    /// Nothing was looked at: nothing written here since, no device's folder changed.
    public var idle = false
    /// Changes written to this device's segments.
    public var sent = 0
    /// Segments and changes applied, by device name.
    public var applied: [String: (segments: Int, changes: Int)] = [:]
    /// Conflict copies made.
    public var copies = 0
    /// Changes refused by the checks `import` makes (the rest of their segments applied).
    public var refused = 0
    /// This journal was a copy of another device's, or was forgotten (`forgotten`): its new device id.
    public var newDevice: String?
    /// The mark another device left in this one's folder (`sync forget`), which made it a new device.
    public var forgotten: SyncFolder.Left?
    /// This device's clock had been this many days ahead and was set right: what it stamped in
    /// its future is stamped again now and sent by it as a new device (`newDevice`).
    public var clockWasAhead: Int?
    /// Another sync of this journal was running: this one did nothing.
    public var busy = false
    /// What stopped part of it, one line each (also kept for `sync status` and `doctor`).
    public var problems: [String] = []
    /// The folder could not be reached or written (unmounted, read-only, full): the sync failed,
    /// rather than waiting on a device. Its line is also among `problems`.
    public var folderUnavailable: String?
    /// Files in the folder that are no segment (a sync tool's temporary files and conflict copies).
    public var ignored: [SyncFolder.Ignored] = []

    public static func == (lhs: SyncReport, rhs: SyncReport) -> Bool {
        lhs.idle == rhs.idle && lhs.busy == rhs.busy && lhs.folderUnavailable == rhs.folderUnavailable && lhs.sent == rhs.sent && lhs.copies == rhs.copies && lhs.refused == rhs.refused && lhs.newDevice == rhs.newDevice
            && lhs.clockWasAhead == rhs.clockWasAhead && lhs.problems == rhs.problems
            && lhs.ignored == rhs.ignored && lhs.applied.mapValues { [$0.segments, $0.changes] } == rhs.applied.mapValues { [$0.segments, $0.changes] }
    }
}

public enum Sync {
    /// The schema segments are written in: a reader with an older one waits. It moves on with
    /// what syncs (a synced table or field, `sync_refused`: the journal's migrations up to 13)
    /// and how it merges (14: tags as sets, `SyncSet`, which a reader before would drop), not
    /// with the journal's own schema: a migration of this device's bookkeeping alone (the
    /// journal's 14) changes nothing a peer reads, and must not make peers wait for an update.
    public static let schema = 14

    /// How far ahead of this device's clock another's changes may be stamped: a day, so a clock
    /// set to local time rather than UTC (hours off) is no problem. A segment stamped further
    /// ahead waits (`ahead(_:now:)`): applied, its versions would win every race for as long as
    /// the skew lasts, on every device, and pull every later edit of those records after them.
    public static let aheadAllowed: Instant = 86_400

    /// Syncs `journal` (which must be syncing) at `now`, holding its sync lock: a sync already
    /// running is waited for, or with `wait` false (the tick's) left to do the work, and the
    /// report says `busy`. `force` looks at the folder even when nothing seems to have changed.
    /// `newDevice` makes an id if this journal turns out to be a copy.
    public static func run(_ journal: Journal, now: Instant, force: Bool = false, wait: Bool = true, segmentsKept: Int = 64,
                           newDevice: () -> String = Journal.newUUID) throws(JournalError) -> SyncReport {
        let sync = SyncEngine(journal)
        // A journal that does not sync (most ticks) takes no lock and makes no lock file.
        guard try sync.state() != nil else { return SyncReport() }
        return try SyncLock.holding(journal, wait: wait) { () throws(JournalError) in
            try unlocked(sync, now: now, force: force, segmentsKept: segmentsKept, newDevice: newDevice)
        } ?? SyncReport(busy: true)
    }

    /// `sync init`: makes `folder` the journal's sync folder as the new device `device`, and
    /// syncs at once, under the sync lock (nil: another sync held it for a minute).
    public static func start(_ journal: Journal, folder: String, device: String, name: String, searches: Bool, now: Instant) throws(JournalError) -> SyncReport? {
        let sync = SyncEngine(journal)
        return try SyncLock.holding(journal, wait: true) { () throws(JournalError) in
            try sync.start(folder: folder, device: device, name: name, searches: searches)
            return try unlocked(sync, now: now, force: true, segmentsKept: 64, newDevice: Journal.newUUID)
        }
    }

    /// What `sync leave` and `sync forget` did.
    public enum Leaving: Equatable, Sendable {
        /// The device's `left` mark is in the folder: the others stop keeping segments for it.
        case marked
        /// The mark could not be written (the folder unmounted, read-only): the others keep
        /// their segments for it until it is forgotten there.
        case unmarked(String)
        /// Another sync of this journal held its lock for a minute: nothing was done.
        case busy
    }

    /// `sync leave` at `now`: syncs once more, so what was written since the last sync goes out
    /// too, then leaves this device's `left` mark in the folder and stops syncing (what it wrote
    /// stays for the others), under the sync lock. That last sync is also where a journal whose
    /// clock was far ahead and is now right withdraws what it stamped ahead and sends it again as
    /// a new device (`newDevice` makes its id), which then leaves: once the journal forgets its
    /// versions, nothing could withdraw them, and the others would wait on them for the skew.
    public static func leave(_ journal: Journal, now: Instant, newDevice: () -> String = Journal.newUUID) throws(JournalError) -> Leaving {
        let sync = SyncEngine(journal)
        return try SyncLock.holding(journal, wait: true) { () throws(JournalError) -> Leaving in
            guard try sync.state() != nil else { return .marked }
            _ = try unlocked(sync, now: now, force: true, segmentsKept: 64, newDevice: newDevice)
            guard let state = try sync.state() else { return .marked }
            let leaving = mark(SyncFolder.Left(device: state.device, name: state.deviceName, at: now), in: SyncFolder(root: state.folder))
            try sync.stop()
            return leaving
        } ?? .busy
    }

    /// `sync forget`: leaves `device`'s `left` mark for it, as if it had left (a laptop lost, a
    /// machine wiped): every device stops keeping segments for it, and should it sync again it
    /// finds the mark and goes on as a new device, sending all it knows.
    public static func forget(_ device: SyncDevice, _ journal: Journal, now: Instant) throws(JournalError) -> Leaving {
        let sync = SyncEngine(journal)
        return try SyncLock.holding(journal, wait: true) { () throws(JournalError) -> Leaving in
            guard let state = try sync.state() else { return .marked }
            let folder = SyncFolder(root: state.folder)
            // Its next segment stamped far ahead (it left, or was wiped, with its clock ahead):
            // no device applies that one or any after it, or they would win every race a year on.
            let next = (try? folder.read(device.device, device.applied + 1)).flatMap { $0 }.flatMap { try? SyncSegment(parsing: $0, schema: schema) }
            let through = next.flatMap { ahead($0, now: now) }.map { _ in device.applied }
            return mark(SyncFolder.Left(device: device.device, name: device.name, at: now, by: state.device, through: through), in: folder)
        } ?? .busy
    }

    private static func mark(_ left: SyncFolder.Left, in folder: SyncFolder) -> Leaving {
        guard Files.isDirectory(folder.root) else { return .unmarked("the sync folder \(folder.root) is not there (not mounted?)") }
        do { try folder.write(left) } catch { return .unmarked(error.message) }
        return .marked
    }

    /// One sync, the lock held. `killedAfterRename` (for tests) stops it as a kill would
    /// between renaming its first segment into place and recording it in the journal.
    static func unlocked(_ sync: SyncEngine, now: Instant, force: Bool, segmentsKept: Int,
                         newDevice: () -> String, killedAfterRename: Bool = false) throws(JournalError) -> SyncReport {
        var report = SyncReport()
        guard var state = try sync.state() else { return report }
        let folder = SyncFolder(root: state.folder)
        let devices = try sync.devices()
        let byID = Dictionary(devices.map { ($0.device, $0) }, uniquingKeysWith: { first, _ in first })
        let folderModified = SyncFolder.modified(folder.devices)
        if !force && !state.dirty && state.problem == nil && folderModified != nil && folderModified == state.folderModified
            && devices.allSatisfy({ SyncFolder.modified(folder.folder(of: $0.device)) == $0.folderModified }) {
            report.idle = true
            return report
        }
        guard Files.isDirectory(state.folder) else {
            report.folderUnavailable = "the sync folder \(state.folder) is not there (not mounted?); the journal is unchanged"
            report.problems.append(report.folderUnavailable!)
            try sync.recordSync(problem: report.problems.first, at: now, folderModified: nil)
            return report
        }

        // A sync killed after renaming its segment into place, before the journal recorded it:
        // the file is this device's own, and is recorded now.
        var scan = folder.scan()
        if (scan.devices[state.device] ?? []).last == state.sequence + 1, try resume(sync, state: state, folder: folder) {
            state = try sync.state()!
        }
        // A journal copied (a cloned home, a restored backup): two journals claim this id. It
        // goes on as a new device, sending all it knows, so nothing is lost or duplicated. So
        // does a device another forgot (`sync forget`), or whose copy left: the others no longer
        // keep its segments, and what it sends under its old id may never be read. So does a
        // device whose clock was far ahead and has been set right (`withdrawFuture`).
        if scan.left.contains(state.device) { report.forgotten = folder.left(of: state.device) }
        // Versions stamped far in this device's future, by any device: none got here but while
        // this clock was ahead too (a version is applied only within a day of it). They are this
        // device's own, or its own under an id it had before (a `sync leave` and `sync init`, a
        // backup put back), whose journal may be gone, or another's that will withdraw them too
        // once its clock is right: adopted and sent again, each arrives once whoever sends it.
        // A copy first applies what the journal it was copied from wrote under their id (ahead or
        // not: `own`) as a new device; what that brings ahead is withdrawn at the next sync.
        let copied = claimedElsewhere(state, folder: folder, scan: scan)
        let future = copied ? [:] : try sync.devicesAhead(of: HybridTime.next(after: 0, wall: now + aheadAllowed) - 1, clock: state.clock)
        if let newest = future.values.max() {
            let days = (HybridTime.instant(newest) - now + 86_399) / 86_400
            do {
                // This id's own segments too: they may carry versions of the others' stamped ahead
                // (a conflict copy), and all they hold is in what the new id sends.
                try withdrawFuture(Set(future.keys).union([state.device]), state: state, folder: folder, now: now)
                report.clockWasAhead = days
            } catch {
                report.folderUnavailable = "this device's clock was \(days) days ahead: cannot withdraw what it stamped then: \(error.message)"
                report.problems.append(report.folderUnavailable!)
            }
        }
        if scan.left.contains(state.device) || report.clockWasAhead != nil || copied {
            if report.clockWasAhead != nil {
                try sync.restamp(Set(future.keys), after: HybridTime.next(after: 0, wall: now + aheadAllowed) - 1, wall: now)
            }
            let id = newDevice()
            try sync.becomeNewDevice(id, appliedOld: report.clockWasAhead != nil ? state.sequence : 0)
            report.newDevice = id
            state = try sync.state()!
            scan = folder.scan()
        }
        // Ids this journal synced under before: their segments were stamped by this device's
        // clock, so one stamped ahead is not held but applied, and withdrawn at the next sync
        // with the versions it brought (`withdrawFuture`).
        let own = try ownIDs(sync, state: state, folder: folder, now: now)

        try sync.capture(now: now)
        report.sent += try send(sync, state: state, folder: folder, report: &report, killedAfterRename: killedAfterRename)
        if killedAfterRename { return report }

        var applied = try sync.applied()
        let appliedBefore = applied
        // Devices that withdrew their segments past a number: those are never applied, nor waited for.
        var withdrawn: [String: Int] = [:]
        for device in scan.left { if let through = folder.left(of: device)?.through { withdrawn[device] = through } }
        var devicesProblems: [String: String] = [:]
        var rejections = Rejections(devices)
        // The records whose texts what was applied brought versions of.
        var texts: [String: Set<String>] = [:]
        var progress = true
        while progress {
            progress = false
            for (device, all) in scan.devices.sorted(by: { $0.key < $1.key }) where device != state.device {
                let sequences = withdrawn[device].map { through in all.filter { $0 <= through } } ?? all
                var next = (applied[device] ?? 0) + 1
                var problem: String?
                while sequences.contains(next) {
                    let file = folder.rejection(device, SyncSegment.fileName(next))
                    if let known = rejections.again(device, file, now: now) {
                        problem = known
                        break
                    }
                    let segment: SyncSegment
                    do {
                        guard let text = try folder.read(device, next) else { break }
                        segment = try SyncSegment(parsing: text, schema: schema)
                    } catch let error as SyncSegment.Problem {
                        problem = "\(folder.folder(of: device))/\(SyncSegment.fileName(next)): \(error.message)"
                        rejections.refuse(device, file)
                        break
                    } catch {
                        problem = "cannot read \(folder.folder(of: device))/\(SyncSegment.fileName(next)): \(error)"
                        break
                    }
                    guard segment.device == device, segment.sequence == next else {
                        problem = "\(folder.folder(of: device))/\(SyncSegment.fileName(next)) says it is \(segment.device)'s segment \(segment.sequence)"
                        rejections.refuse(device, file)
                        break
                    }
                    if let (other, needed) = segment.after.sorted(by: { $0.key < $1.key })
                        .first(where: { $0.key != state.device && (applied[$0.key] ?? 0) < min($0.value, withdrawn[$0.key] ?? .max) }) {
                        problem = "waiting for segment \(needed) of device \(other), which \(segment.name)'s segment \(next) follows"
                        break
                    }
                    if let ahead = ahead(segment, now: now), !own.contains(device) {
                        problem = ahead.problem
                        rejections.hold(device, file, until: ahead.until)
                        break
                    }
                    let result = try sync.apply(segment, at: now)
                    texts.merge(result.texts) { $0.union($1) }
                    applied[device] = next
                    report.applied[segment.name, default: (0, 0)].segments += 1
                    report.applied[segment.name, default: (0, 0)].changes += result.changed
                    report.copies += result.copies
                    report.refused += result.refused
                    next += 1
                    progress = true
                }
                // Segments a snapshot replaced are gone: the snapshot brings them (applying it
                // again over segments already applied changes nothing; versions are kept as they
                // were). It is applied without waiting for what it follows, which may follow it in
                // turn: a text whose history is not all here yet makes no conflict copy until it is.
                // A segment that cannot be read (half-arrived, its whole removed since) is one too.
                if problem != nil || !sequences.contains(next) {
                    switch snapshot(of: device, past: next - 1, through: withdrawn[device], folder: folder, rejections: &rejections, now: now) {
                    case nil: break
                    case .failure(let refused): problem = problem ?? refused.problem
                    case .success(let snapshot) where ahead(snapshot, now: now) != nil && !own.contains(device):
                        problem = ahead(snapshot, now: now)?.problem
                    case .success(let snapshot):
                        problem = nil
                        let result = try sync.apply(snapshot, at: now)
                        texts.merge(result.texts) { $0.union($1) }
                        applied[device] = snapshot.sequence
                        report.applied[snapshot.name, default: (0, 0)].segments += 1
                        report.applied[snapshot.name, default: (0, 0)].changes += result.changed
                        report.copies += result.copies
                        report.refused += result.refused
                        next = snapshot.sequence + 1
                        progress = true
                        continue
                    }
                }
                if problem == nil, let later = sequences.first(where: { $0 > next }) {
                    let name = byID[device]?.name ?? folder.header(device, later, schema: schema)?.name
                    problem = "segment \(next) of " + (name.map { "'\($0)' (device \(device.prefix(8)))" } ?? "device \(device)")
                        + " is missing while \(later) is there: waiting for it"
                }
                devicesProblems[device] = problem
            }
        }
        // A device whose segments have not applied for an hour (one gone, damaged, waiting on what
        // is not there) is asked for a snapshot in their place, rather than waited for for ever.
        var wants: [String: Int] = [:]
        for device in devicesProblems.keys where !scan.left.contains(device) && applied[device] == appliedBefore[device] {
            if let since = byID[device]?.problemSince, now - since >= Sync.stuckFor {
                wants[device] = (applied[device] ?? 0) + 1
            }
        }
        try? folder.write(wants: wants, of: state.device)

        // What applying made the journal do (a superseded highlight, a conflict copy, a copy
        // withdrawn) goes out too.
        try sync.withdrawCopies(of: texts, now: now)
        try sync.capture(now: now)
        report.sent += try send(sync, state: state, folder: folder, report: &report)
        try answerWants(sync, folder: folder, scan: scan)

        if let problem = try compact(sync, folder: folder, segmentsKept: segmentsKept) { report.problems.append(problem) }
        scan = folder.scan()
        report.ignored = scan.ignored
        // A device nothing has been applied from yet is recorded too when it has a problem, so
        // `sync status` names the device that is stuck, by the name its first header gives.
        // What is as it was is not written again: a device stuck on a file it refused costs a tick no write.
        let recorded = Dictionary(try sync.devices().map { ($0.device, $0) }, uniquingKeysWith: { first, _ in first })
        for device in Set(recorded.keys).union(devicesProblems.keys).sorted() {
            let (problem, rejected) = (devicesProblems[device], rejections.refused[device] ?? [])
            let folderModified = SyncFolder.modified(folder.folder(of: device))
            if let stored = recorded[device], stored.problem == problem, stored.rejected == rejected, stored.folderModified == folderModified { continue }
            let name = recorded[device] != nil ? nil
                : (scan.devices[device] ?? []).lazy.compactMap { folder.header(device, $0, schema: schema)?.name }.first
                    ?? folder.snapshotHeader(of: device, schema: schema)?.name ?? device
            try sync.recordDevice(device, name: name, problem: problem, rejected: rejected, folderModified: folderModified, at: now)
        }
        report.problems += devicesProblems.sorted { $0.key < $1.key }.compactMap(\.value)
        // Problems found last time are looked at again next time: the folder's mtime is kept only when all went well.
        try sync.recordSync(problem: report.problems.isEmpty ? nil : report.problems.joined(separator: "; "), at: now,
                               folderModified: report.problems.isEmpty ? SyncFolder.modified(folder.devices) : nil)
        return report
    }

    /// The ids this journal synced under (`SyncDevice.mine`), and the ids those journals took
    /// when they joined again: a journal that left and joined again marks its old id's `left`
    /// with the new one (`Left.then`), so a backup from before, put back over it, knows the
    /// new id's segments for its own too (those it wrote with its clock far ahead are applied
    /// and withdrawn, not held for the skew while no journal is left that knows them).
    private static func ownIDs(_ sync: SyncEngine, state: SyncState, folder: SyncFolder, now: Instant) throws(JournalError) -> Set<String> {
        let mine = Set(try sync.devices().filter(\.mine).map(\.device))
        for device in mine.sorted() {
            // Only a mark it left itself: not one a withdrawal or another device wrote.
            guard let left = folder.left(of: device), left.by == nil, left.through == nil, left.then == nil else { continue }
            try? folder.write(SyncFolder.Left(device: device, name: left.name, at: left.at, then: state.device))
        }
        var own = mine
        var next = Array(mine)
        while let device = next.popLast() {
            if let then = folder.left(of: device)?.then, then != state.device, own.insert(then).inserted { next.append(then) }
        }
        try sync.adopt(own.subtracting(mine))
        return own
    }

    /// How long a device's segments may fail to apply before it is asked for a snapshot: long
    /// enough for a sync tool to bring what is on its way, short enough that a damaged file
    /// does not hold a device's edits back for a day.
    public static let stuckFor: Instant = 3600

    /// Why `segment` waits (nil: it does not): a change in it is stamped more than
    /// `aheadAllowed` ahead of this device's clock; and `until`, the instant it no longer is. The
    /// file is not read again before then while it is unchanged (`Rejections.hold`): it applies
    /// once the clocks agree (this one set right, if it was behind, reads it at once), or is
    /// withdrawn by its device once that device's clock is set right.
    static func ahead(_ segment: SyncSegment, now: Instant) -> (problem: String, until: Instant)? {
        guard let newest = segment.changes.lazy.map(\.time).max(), HybridTime.instant(newest) > now + aheadAllowed else { return nil }
        let days = (HybridTime.instant(newest) - now + 86_399) / 86_400
        return ("'\(segment.name)' (device \(segment.device.prefix(8))) stamped changes \(days) days ahead of this device's clock: "
            + "they wait until one of the two clocks is set right", HybridTime.instant(newest) - aheadAllowed)
    }

    /// The versions a device stamped while its clock was far ahead lie in its future once the
    /// clock is right, and the other devices hold the segments that carry them. It withdraws
    /// every segment of each id that stamped them (`devices`; `left.json` with `through` 0):
    /// which of them another device applied, only that device knows (one that never wrote says
    /// nothing), and every version in them is in what this one sends next. Then (`unlocked`) it
    /// stamps those versions again from now, in their order, and goes on as a new device that
    /// sends all it knows: each edit arrives once, as one made now, and races as an edit of
    /// today, not of the day the clock showed. The marks are made first: were the journal
    /// changed and a mark not made, the segments stamped ahead would apply some day; a sync
    /// killed after them goes on as a device whose folder holds a mark.
    static func withdrawFuture(_ devices: Set<String>, state: SyncState, folder: SyncFolder, now: Instant) throws(FileError) {
        for device in devices.sorted() {
            let left = folder.left(of: device)
            try folder.write(SyncFolder.Left(device: device, name: left?.name ?? state.deviceName, at: left?.at ?? now, by: left?.by, through: 0))
        }
    }

    /// Writes a snapshot of every version this journal knows, through its last segment, when
    /// another device asks for one (`SyncFolder.wants`) from a segment no snapshot here covers
    /// (or the one here cannot be read): the segments it cannot apply are replaced.
    static func answerWants(_ sync: SyncEngine, folder: SyncFolder, scan: SyncFolder.Scan) throws(JournalError) {
        guard let state = try sync.state(), state.sequence > 0 else { return }
        let asked = scan.devices.keys.filter { $0 != state.device && !scan.left.contains($0) }
            .compactMap { folder.wants(of: $0)[state.device] }.filter { $0 <= state.sequence }.max()
        guard let asked else { return }
        if let header = folder.snapshotHeader(of: state.device, schema: schema), header.device == state.device, header.sequence >= asked,
           let text = try? folder.snapshot(of: state.device), (try? SyncSegment(parsing: text, schema: schema)) != nil { return }
        // Not written (the folder read-only, full): the sending of this sync says so.
        _ = try? folder.write(try everythingKnown(sync, state: state), asSnapshot: true)
    }

    /// A snapshot of every version this journal knows, each as it was stamped, through its
    /// last segment: it holds all this device ever sent, whatever became of its files.
    static func everythingKnown(_ sync: SyncEngine, state: SyncState) throws(JournalError) -> SyncSegment {
        SyncSegment(device: state.device, name: state.deviceName, sequence: state.sequence, schema: schema,
                    after: try sync.applied().filter { $0.key != state.device }, changes: try sync.everyVersionKnown())
    }

    /// A problem with one file in the folder, for `Result`.
    struct Refusal: Error { let problem: String }

    /// `device`'s snapshot when it goes past `applied` and not past `through`, the last segment
    /// its device did not withdraw (nil: none does, or none this Manna can read), its header
    /// read alone first; a failure when its content is refused.
    private static func snapshot(of device: String, past applied: Int, through: Int?, folder: SyncFolder,
                                 rejections: inout Rejections, now: Instant) -> Result<SyncSegment, Refusal>? {
        guard let header = folder.snapshotHeader(of: device, schema: schema), header.device == device, header.sequence > applied,
              header.sequence <= through ?? .max else { return nil }
        let file = folder.rejection(device, SyncFolder.snapshotName)
        if let known = rejections.again(device, file, now: now) { return .failure(Refusal(problem: known)) }
        do {
            guard let text = try folder.snapshot(of: device) else { return nil }
            let snapshot = try SyncSegment(parsing: text, schema: schema)
            return snapshot.device == device && snapshot.sequence > applied ? .success(snapshot) : nil
        } catch let error as SyncSegment.Problem {
            rejections.refuse(device, file)
            return .failure(Refusal(problem: "\(folder.folder(of: device))/\(SyncFolder.snapshotName): \(error.message)"))
        } catch {
            return .failure(Refusal(problem: "cannot read \(folder.folder(of: device))/\(SyncFolder.snapshotName): \(error)"))
        }
    }

    /// Files in the folder refused for their content (damaged, half there, from a newer Manna,
    /// another device's), by `SyncFolder.rejection`: one unchanged since is refused again with
    /// last time's problem, unread, so a large bad file costs nothing each tick. What this sync
    /// refused (again) is what the journal remembers next.
    struct Rejections {
        private let known: [String: (files: Set<String>, problem: String?)]
        private(set) var refused: [String: Set<String>] = [:]

        init(_ devices: [SyncDevice]) {
            var known: [String: (files: Set<String>, problem: String?)] = [:]
            for device in devices { known[device.device] = (device.rejected, device.problem) }
            self.known = known
        }

        /// Last time's problem when `file` was refused then and is unchanged, or held then (for
        /// being stamped ahead) until a time not yet come (nil: read it).
        mutating func again(_ device: String, _ file: String?, now: Instant) -> String? {
            guard let file, let known = known[device], let problem = known.problem else { return nil }
            let held = known.files.first { entry in
                entry.hasPrefix(file + Rejections.until) && Int(entry.dropFirst(file.count + Rejections.until.count)).map { now < $0 } == true
            }
            guard let entry = known.files.contains(file) ? file : held else { return nil }
            refused[device, default: []].insert(entry)
            return problem
        }

        /// `file` waits, stamped ahead of this clock, until `until`: not read again before then.
        mutating func hold(_ device: String, _ file: String?, until: Instant) {
            if let file { refused[device, default: []].insert(file + Rejections.until + String(until)) }
        }

        private static let until = " until "

        mutating func refuse(_ device: String, _ file: String?) {
            if let file { refused[device, default: []].insert(file) }
        }
    }

    /// Once this device has written more than `segmentsKept` segments since its snapshot,
    /// collapses them into a new snapshot (every text version it wrote, and the greatest version
    /// of each other field), so a device that joins reads one file. The segments the snapshot
    /// holds are removed once every other device that has written since has applied them, so
    /// the folder does not grow for ever; a device that never wrote, or is further behind,
    /// applies the snapshot. A device that lags does not make every sync rewrite the snapshot:
    /// it is rewritten every `segmentsKept` segments. One of its own files that no longer reads
    /// (damaged in the folder) does not stop it: the snapshot is then every version this journal
    /// knows. Returns the problem when the snapshot cannot be written, for the sync to say.
    static func compact(_ sync: SyncEngine, folder: SyncFolder, segmentsKept: Int) throws(JournalError) -> String? {
        guard let state = try sync.state(), state.sequence > 0 else { return nil }
        let scan = folder.scan()
        let own = scan.devices[state.device] ?? []
        guard own.count > segmentsKept else { return nil }
        var through = folder.snapshotHeader(of: state.device, schema: schema).flatMap { $0.device == state.device ? $0.sequence : nil } ?? 0
        if own.count(where: { $0 > through }) > segmentsKept {
            var snapshot: SyncSegment?
            if through > 0, let text = try? folder.snapshot(of: state.device) { snapshot = try? SyncSegment(parsing: text, schema: schema) }
            var collapsed: Collapsed? = Collapsed()
            if let snapshot { collapsed?.add(snapshot) }
            for sequence in own where sequence > (snapshot?.sequence ?? 0) && sequence <= state.sequence {
                guard let text = try? folder.read(state.device, sequence), let segment = try? SyncSegment(parsing: text, schema: schema) else {
                    collapsed = nil
                    break
                }
                collapsed?.add(segment)
            }
            let written: SyncSegment
            if let collapsed {
                written = SyncSegment(device: state.device, name: state.deviceName, sequence: state.sequence, schema: schema,
                                      after: collapsed.after, changes: collapsed.changes)
            } else {
                written = try everythingKnown(sync, state: state)
            }
            do { _ = try folder.write(written, asSnapshot: true) } catch { return "cannot write this device's snapshot: \(error.message)" }
            through = state.sequence
        }
        // What every other device that has written since says it has applied of this one's; a
        // device that left (or was forgotten) reads no more, and keeps nothing here.
        var safe = through
        for (device, sequences) in scan.devices where device != state.device && !scan.left.contains(device) {
            let header = sequences.last.flatMap { folder.header(device, $0, schema: schema) } ?? folder.snapshotHeader(of: device, schema: schema)
            safe = min(safe, header?.after[state.device] ?? 0)
        }
        // One not removed (the folder read-only) is removed by a later compaction.
        for sequence in own where sequence <= safe {
            _ = try? Files.remove(folder.folder(of: state.device) + "/" + SyncSegment.fileName(sequence))
        }
        return nil
    }

    /// Segments collapsed: every text version, the greatest version of each other field. A text
    /// version another replaced (the base of one in them) goes without its context, the record
    /// as its editor had it: it is no head, and never will be wherever it arrives (more versions
    /// make no version a head again), so no conflict copy is made from it. Most of what a
    /// snapshot of a journal edited often would otherwise hold.
    struct Collapsed {
        private var kept: [SyncChange] = []
        private(set) var after: [String: Int] = [:]
        private var latest: [String: Int] = [:]
        private var seen: Set<String> = []
        /// Each text version kept, by its identity (table, key, field, time, device), and the
        /// identities of those an edit replaced.
        private var versions: [String: Int] = [:]
        private var replaced: Set<String> = []

        var changes: [SyncChange] {
            var changes = kept
            for version in replaced {
                guard let index = versions[version], changes[index].context != nil else { continue }
                let change = changes[index]
                changes[index] = SyncChange(table: change.table, key: change.key, field: change.field, value: change.value, time: change.time,
                                            base: change.base, device: change.device)
            }
            return changes
        }

        mutating func add(_ segment: SyncSegment) {
            after.merge(segment.after) { max($0, $1) }
            for change in segment.changes {
                let device = change.device ?? segment.device
                let field = change.table + "\u{1F}" + change.key + "\u{1F}" + change.field
                if ExportTable.byName[change.table]?.textFields.contains(change.field) == true {
                    let version = field + "\u{1F}\(change.time)\u{1F}" + device
                    guard seen.insert(version).inserted else { continue }
                    versions[version] = kept.count
                    if let base = change.base { replaced.insert(field + "\u{1F}\(base.time)\u{1F}" + base.device) }
                    kept.append(change)
                } else if let index = latest[field] {
                    let old = kept[index]
                    if SyncVersion(time: old.time, device: old.device ?? segment.device) < SyncVersion(time: change.time, device: device) {
                        kept[index] = change
                    }
                } else {
                    latest[field] = kept.count
                    kept.append(change)
                }
            }
        }
    }

    /// Whether another journal writes under `state`'s device id: segments this one never wrote
    /// (a greater number, in a segment or the snapshot, or another file at its last number), or
    /// a sync tool's conflict copy in its folder, made when two devices wrote one file.
    static func claimedElsewhere(_ state: SyncState, folder: SyncFolder, scan: SyncFolder.Scan) -> Bool {
        let own = scan.devices[state.device] ?? []
        if let last = own.last, last > state.sequence { return true }
        // Its segments may all be in its snapshot by now.
        if let snapshot = folder.snapshotHeader(of: state.device, schema: schema), snapshot.sequence > state.sequence { return true }
        if state.sequence > 0, own.contains(state.sequence),
           (try? folder.read(state.device, state.sequence)).flatMap({ $0 }).map(SyncFolder.checksum) != state.sequenceSHA {
            return true
        }
        let mine = folder.folder(of: state.device) + "/"
        return scan.ignored.contains { $0.kind == .conflict && $0.path.hasPrefix(mine) }
    }

    /// Records this device's segment after its last as written, if it is the one its queue
    /// holds (its changes the first queued): a sync that wrote it was killed before it said so.
    private static func resume(_ sync: SyncEngine, state: SyncState, folder: SyncFolder) throws(JournalError) -> Bool {
        let sequence = state.sequence + 1
        guard let text = try? folder.read(state.device, sequence), let segment = try? SyncSegment(parsing: text, schema: schema),
              segment.device == state.device, segment.sequence == sequence,
              let (queued, changes) = try sync.outbox(), queued == sequence, changes.starts(with: segment.changes) else { return false }
        try sync.segmentWritten(sequence, sha: SyncFolder.checksum(text), changes: segment.changes.count)
        return true
    }

    /// Writes the queued changes as this device's next segment; a folder that cannot be
    /// written (read-only, full) leaves them queued for next time.
    private static func send(_ sync: SyncEngine, state: SyncState, folder: SyncFolder, report: inout SyncReport,
                             killedAfterRename: Bool = false) throws(JournalError) -> Int {
        guard let (sequence, changes) = try sync.outbox() else { return 0 }
        let current = try sync.state() ?? state
        let segment = SyncSegment(device: current.device, name: current.deviceName, sequence: sequence, schema: schema,
                                  after: try sync.applied(), changes: changes)
        let sha: String
        do { sha = try folder.write(segment) } catch {
            // Said once, though a sync sends twice (its edits, then what applying made).
            let problem = "cannot write to the sync folder: \(error.message); \(changes.count) changes wait in the journal"
            if !report.problems.contains(problem) { report.problems.append(problem) }
            report.folderUnavailable = report.folderUnavailable ?? problem
            return 0
        }
        if killedAfterRename { return 0 }
        try sync.segmentWritten(sequence, sha: sha, changes: changes.count)
        return changes.count
    }
}
