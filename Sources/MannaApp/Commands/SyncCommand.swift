// manna sync init DIR | status | now | leave | forget NAME: the journal on every device, through a folder a
// sync tool (Syncthing, Nextcloud, Dropbox) keeps in step. The design is docs/sync.md; the
// tick runs `tickSync` every minute.
#if canImport(Glibc)
import Glibc
#endif
import MannaKit

enum SyncCommand {
    static let spec = CommandSpec(
        name: "sync",
        usage: "manna sync init DIR [--name NAME] [--searches] | status [--json] | now | leave | forget NAME",
        abstract: "Keep the journal the same on each of your devices through a folder Syncthing (or another sync tool) keeps in step",
        options: [Options.deviceName, Options.json.help("print JSON"), Options.searches],
        subcommands: Subcommand.specs,
        run: run)

    enum Subcommand: String, MannaApp.Subcommand {
        /// `init` (a word Swift keeps for initialisers).
        case start = "init"
        case status, now, leave, forget

        var options: [any CommandOption] {
            switch self {
            case .start: [Options.deviceName, Options.searches]
            case .status: [Options.json]
            case .now, .leave, .forget: []
            }
        }
        var operand: Operand? { self == .start ? .directory : nil }
    }

    static func run(_ arguments: ParsedArguments, _ context: Context) throws {
        switch (arguments.subcommand(Subcommand.self), arguments.positionals.count) {
        case (.start, 2): try start(arguments.positionals[1], name: arguments.value(Options.deviceName, context), searches: arguments.has(Options.searches), context)
        case (.status, 1): try status(json: arguments.has(Options.json), context)
        case (.now, 1): try now(context)
        case (.leave, 1): try leave(context)
        case (.forget, 2): try forget(arguments.positionals[1], context)
        case (.forget, _): throw Failure.usage("sync forget needs the name (or id) of one device, as 'manna sync status' shows it, like 'manna sync forget laptop'")
        default:
            throw spec.subcommandFailure(arguments.positionals.first, usage: "sync needs one of: init DIR, status, now, leave, forget NAME; see 'manna sync --help'")
        }
    }

    /// Makes `folder` this journal's sync folder, as a new device, and syncs at once.
    static func start(_ folder: String, name: String?, searches: Bool, _ context: Context) throws {
        guard Files.isDirectory(folder) else {
            throw Failure.data("\(folder) is not a folder: make it, and have Syncthing (or Nextcloud, Dropbox) keep it in step between your devices")
        }
        let directory = UserPath.absolute(folder)
        let journalPath = UserPath.absolute(context.paths.journal)
        let journalFolder = UserPath.absolute(Files.parent(of: context.paths.journal))
        // A sync tool copying the live database (and its -wal file) corrupts it: never.
        if journalPath.hasPrefix(directory + "/") || journalFolder == directory || journalFolder.hasPrefix(directory + "/") {
            throw Failure.data("\(directory) holds the journal (\(context.paths.journal)): a sync tool copying a database in use damages it; "
                + "choose a folder of its own, like ~/Sync/manna")
        }
        let journal = try context.journal()
        if let state = try SyncEngine(journal).state() {
            throw Failure.data("this journal already syncs through \(state.folder) as '\(state.deviceName)': 'manna sync leave' first")
        }
        let deviceName = try name.map(checkedName) ?? hostName()
        guard let report = try Sync.start(journal, folder: directory, device: Journal.newUUID(), name: deviceName, searches: searches,
                                          now: context.clock.now()) else { throw busy }
        let state = try SyncEngine(journal).state()!
        context.stdout.line("this journal syncs through \(directory) as '\(deviceName)' (device \(state.device.prefix(8)))")
        try say(report, context)
    }

    static func now(_ context: Context) throws {
        guard let journal = try context.existingJournal(), try SyncEngine(journal).state() != nil else { throw notSyncing }
        let report = try Sync.run(journal, now: context.clock.now(), force: true)
        if report.busy { throw busy }
        try say(report, context)
    }

    static func leave(_ context: Context) throws {
        guard let journal = try context.existingJournal(), let state = try SyncEngine(journal).state() else { throw notSyncing }
        let leaving = try Sync.leave(journal, now: context.clock.now())
        if leaving == .busy { throw busy }
        context.stdout.line("this journal no longer syncs; what it wrote stays in \(state.folder) for the other devices, "
            + "in \(SyncFolder(root: state.folder).folder(of: state.device))")
        if case .unmarked(let reason) = leaving {
            context.stderr.line("manna: could not tell the other devices it left (\(reason)): they keep what they write for it until "
                + "'manna sync forget \(state.deviceName)' on one of them")
        }
    }

    /// `sync forget NAME`: the device named (or whose id starts so) is taken as gone; the others
    /// stop keeping what they write for it.
    static func forget(_ which: String, _ context: Context) throws {
        guard let journal = try context.existingJournal(), let state = try SyncEngine(journal).state() else { throw notSyncing }
        let key = which.trimmingSpaces.lowercased()
        if key == state.deviceName.lowercased() || (key.count >= 4 && state.device.hasPrefix(key)) {
            throw Failure.usage("'\(which.singleLine)' is this device: 'manna sync leave' stops it syncing")
        }
        let devices = try SyncEngine(journal).devices().filter { !$0.mine }
        var matches = devices.filter { $0.name.lowercased() == key }
        if matches.isEmpty && key.count >= 4 { matches = devices.filter { $0.device.hasPrefix(key) } }
        guard matches.count == 1, let device = matches.first else {
            if matches.isEmpty {
                let names = devices.map { "'\($0.name.singleLine)'" }
                throw Failure.data("no device called '\(which.singleLine)' has synced here; "
                    + (names.isEmpty ? "none has yet" : "the others are \(names.joined(separator: ", "))"))
            }
            throw Failure.usage("\(matches.count) devices are called '\(which.singleLine)' (\(matches.map { "device \($0.device.prefix(8))" }.joined(separator: ", "))): "
                + "forget one by its id")
        }
        switch try Sync.forget(device, journal, now: context.clock.now()) {
        case .busy: throw busy
        case .unmarked(let reason): throw Failure.unavailable("could not forget '\(device.name.singleLine)': \(reason)")
        case .marked:
            context.stdout.line("forgot '\(device.name.singleLine)' (device \(device.device.prefix(8))): no device keeps what it writes for it now; "
                + "should it sync again, it goes on as a new device and sends all it knows")
        }
    }

    /// Another sync of this journal held its lock for a minute (a folder that hangs, a very large sync).
    static let busy = Failure.unavailable("another sync of this journal has been running for a minute: try again when it is done")

    static let notSyncing = Failure.data("this journal does not sync: 'manna sync init DIR' makes DIR (a folder Syncthing keeps in step) its sync folder")

    /// What a sync did, a line each; the problems on stderr, and a folder that cannot be
    /// reached or written exits 69.
    static func say(_ report: SyncReport, _ context: Context) throws {
        if let device = report.newDevice, let days = report.clockWasAhead {
            context.stdout.line("this device's clock was \(days) days ahead and has been set right: what it changed meanwhile is sent again "
                + "as changes of now, from a new device id (device \(device.prefix(8)))")
        } else if let device = report.newDevice, let forgotten = report.forgotten {
            context.stdout.line("this device was forgotten on another (" + (forgotten.by.map { "device \($0.prefix(8)), " } ?? "")
                + "'manna sync forget'): it goes on as a new device (device \(device.prefix(8))) and sends all it knows")
        } else if let device = report.newDevice {
            context.stdout.line("this journal was a copy of another device's: it is now a device of its own (device \(device.prefix(8)))")
        }
        var lines: [String] = []
        if report.sent > 0 { lines.append("sent \(report.sent) \(Formatting.plural(report.sent, "change"))") }
        for (name, applied) in report.applied.sorted(by: { $0.key < $1.key }) {
            lines.append("applied \(applied.changes) \(Formatting.plural(applied.changes, "change")) from '\(name)' (\(applied.segments) \(Formatting.plural(applied.segments, "segment")))")
        }
        if report.copies > 0 {
            lines.append("kept \(report.copies) \(Formatting.plural(report.copies, "text")) edited on two devices at once as \(Formatting.plural(report.copies, "copy", "copies")) beside the other")
        }
        if report.refused > 0 {
            lines.append("refused \(report.refused) \(Formatting.plural(report.refused, "change")) another device sent that a backup would not take: 'manna sync status' names them")
        }
        for line in lines.isEmpty && report.problems.isEmpty ? ["nothing new"] : lines { context.stdout.line(line) }
        if !report.ignored.isEmpty { context.stdout.line(ignoredLine(report.ignored, lead: "ignored ")) }
        // A folder that cannot be reached or written is the sync failing (69, said last, by the
        // error's edge); the rest is waited for, and said.
        for problem in report.problems where problem != report.folderUnavailable { context.stderr.line("manna: " + problem) }
        if let failure = report.folderUnavailable { throw Failure.unavailable(failure) }
    }

    /// "ignored 3 files in the folder: 2 temporary files, 1 conflict copy".
    static func ignoredLine(_ ignored: [SyncFolder.Ignored], lead: String) -> String {
        var counts: [(SyncFolder.Ignored.Kind, Int)] = []
        for kind in SyncFolder.Ignored.Kind.allCases {
            let count = ignored.filter { $0.kind == kind }.count
            if count > 0 { counts.append((kind, count)) }
        }
        return lead + "\(ignored.count) \(Formatting.plural(ignored.count, "file")) in the folder: "
            + counts.map { "\($0.1) \($0.1 == 1 ? $0.0.rawValue : $0.0.plural)" }.joined(separator: ", ")
    }

    static func status(json: Bool, _ context: Context) throws {
        guard let journal = try context.existingJournal(), let state = try SyncEngine(journal).state() else { throw notSyncing }
        let zone = try context.zone()
        // The ids this journal synced under before are not other devices.
        let sync = SyncEngine(journal)
        let devices = try sync.devices().filter { !$0.mine }
        let refused = try sync.refused()
        let pending = try sync.outbox()?.changes.count ?? 0
        let folder = SyncFolder(root: state.folder)
        let scan = Files.isDirectory(state.folder) ? folder.scan() : SyncFolder.Scan()
        let ignored = scan.ignored
        var left: [String: SyncFolder.Left?] = [:]
        for device in scan.left { left[device] = folder.left(of: device) }
        let silent = Syncing.silence(devices, left: scan.left, now: context.clock.now(), days: context.config().syncSilentDays)
        let wants = Files.isDirectory(state.folder) ? folder.wants(of: state.device) : [:]
        func when(_ time: Int?) -> String? { time.map { zone.local(HybridTime.instant($0)).iso8601 } }
        if json {
            context.json(.object([
                ("folder", .string(state.folder)), ("reachable", .bool(Files.isDirectory(state.folder))),
                ("device", .string(state.device)), ("name", .string(state.deviceName)), ("segments_written", .int(state.sequence)),
                ("last_sync", state.checkedAt.map { .string(zone.local($0).iso8601) } ?? .null),
                ("last_sync_without_problem", state.syncedAt.map { .string(zone.local($0).iso8601) } ?? .null),
                ("pending_changes", .int(pending)), ("unsent_edits", .bool(state.dirty)), ("searches", .bool(state.searches)),
                ("devices", .array(devices.map { device in
                    .object([("device", .string(device.device)), ("name", .string(device.name)), ("segments_applied", .int(device.applied)),
                             ("last_change", when(device.lastTime).map(JSON.string) ?? .null),
                             ("last_applied", device.appliedAt.map { .string(zone.local($0).iso8601) } ?? .null),
                             ("left", leftJSON(left[device.device], zone)),
                             ("silent_days", silent[device.device].map(JSON.int) ?? .null),
                             ("problem", device.problem.map(JSON.string) ?? .null),
                             ("problem_since", device.problemSince.map { .string(zone.local($0).iso8601) } ?? .null),
                             ("snapshot_asked_from", wants[device.device].map(JSON.int) ?? .null),
                             ("refused_changes", .int(refused[device.device]?.count ?? 0))])
                })),
                ("ignored", .array(ignored.map { .object([("path", .string($0.path)), ("kind", .string($0.kind.rawValue))]) })),
                ("problem", state.problem.map(JSON.string) ?? .null),
            ]))
            return
        }
        context.stdout.line("folder   \(state.folder)" + (Files.isDirectory(state.folder) ? "" : " (not there: not mounted?)"))
        context.stdout.line("this     '\(state.deviceName)' (device \(state.device.prefix(8))), \(state.sequence) \(Formatting.plural(state.sequence, "segment")) written"
            + lastSynced(state, zone)
            + (state.searches ? "; the search history syncs too" : ""))
        context.stdout.line("pending  " + (pending > 0 ? "\(pending) \(Formatting.plural(pending, "change")) not yet written to the folder"
            : state.dirty ? "edits since the last sync (the next tick sends them)" : "nothing"))
        if devices.isEmpty { context.stdout.line("devices  none seen yet") }
        for (index, device) in devices.enumerated() {
            // When the change was made (its clock), and when it arrived here (this one's).
            let last = device.appliedAt.map { applied in
                (when(device.lastTime).map { "last change made \($0), " } ?? "") + "applied here \(zone.local(applied).iso8601)"
            } ?? "nothing applied yet"
            context.stdout.line((index == 0 ? "devices  " : "         ") + "'\(device.name)' (device \(device.device.prefix(8))): \(last), "
                + "\(device.applied) \(Formatting.plural(device.applied, "segment")) applied"
                + leftNote(left[device.device], zone) + silentNote(silent[device.device], device)
                + (device.problem.map { "; \($0)" } ?? "")
                + (device.problem == nil ? "" : device.problemSince.map { " (since \(zone.local($0).iso8601))" } ?? "")
                + (wants[device.device].map { "; asked it for a snapshot in place of segments \($0) on (it writes one at its next sync)" } ?? "")
                + (refused[device.device].map { "; refused \($0.count) \(Formatting.plural($0.count, "change")), like \($0.first)" } ?? ""))
        }
        if !ignored.isEmpty { context.stdout.line("ignored  " + ignoredLine(ignored, lead: "")) }
        context.stdout.line("problem  " + (state.problem ?? "none"))
    }

    /// ", last synced T", and when a sync last went without a problem if the last did not.
    static func lastSynced(_ state: SyncState, _ zone: Zone) -> String {
        guard let checked = state.checkedAt else { return ", never synced" }
        let last = ", last synced \(zone.local(checked).iso8601)"
        guard state.problem != nil else { return last }
        return last + (state.syncedAt.map { " (with a problem; without one \(zone.local($0).iso8601))" } ?? " (with a problem; never without one)")
    }

    /// A left device in `sync status --json`: when it left (true: a mark not read), or null.
    static func leftJSON(_ left: SyncFolder.Left??, _ zone: Zone) -> JSON {
        guard let left else { return .null }
        guard let mark = left else { return .bool(true) }
        return .string(zone.local(mark.at).iso8601)
    }

    /// "; left 2026-12-01: nothing is kept for it" ("forgotten" when another device forgot it).
    static func leftNote(_ left: SyncFolder.Left??, _ zone: Zone) -> String {
        guard let left else { return "" }
        let how = left.map { "\($0.by == nil ? "left" : "forgotten") \(zone.local($0.at).date)" } ?? "left"
        return "; " + how + ": nothing is kept for it"
    }

    static func silentNote(_ days: Int?, _ device: SyncDevice) -> String {
        guard let days else { return "" }
        return "; nothing from it for \(days) days: if it is gone for good, 'manna sync forget \(device.name)' lets the folder shrink"
    }

    static func checkedName(_ name: String) throws -> String {
        let trimmed = name.trimmingSpaces
        guard !trimmed.isEmpty, trimmed.utf8.count <= 64, !trimmed.unicodeScalars.contains(where: { $0.value < 0x20 }) else {
            throw Failure.usage("--name must be 1 to 64 characters on one line, like 'laptop'")
        }
        return trimmed
    }

    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return "this device" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "this device" : name
    }
}
