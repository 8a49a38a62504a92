// Sync as the tick and doctor use it (the commands themselves are SyncCommand).
import MannaKit

enum Syncing {
    /// One sync as part of the tick: what goes wrong is kept for `sync status` and `doctor`,
    /// and never stops the tick. A sync already running (another tick, `sync now`) is left to
    /// do the work: the tick does not wait for it.
    static func inTick(_ journal: Journal, now: Instant) {
        _ = try? Sync.run(journal, now: now, wait: false)
    }

    /// For `doctor`: how syncing stands, or why it failed.
    static func health(_ context: Context) throws -> String {
        guard let sync = try context.existingJournal().map(SyncEngine.init), let state = try sync.state() else { return "not syncing" }
        if let problem = state.problem { throw Failure.unavailable(problem) }
        // The ids this journal synced under before are not other devices.
        let devices = try sync.devices().filter { !$0.mine }
        let refused = try sync.refused()
        if !refused.isEmpty {
            let names = Dictionary(devices.map { ($0.device, $0.name) }, uniquingKeysWith: { first, _ in first })
            let count = refused.values.map(\.count).reduce(0, +)
            let example = refused.sorted { $0.key < $1.key }.first!
            throw Failure.data("\(count) \(Formatting.plural(count, "change")) from '\(names[example.key] ?? example.key)' refused, like \(example.value.first); "
                + "the rest applied: update Manna on that device, or edit the record there")
        }
        var when = ""
        if let checked = state.checkedAt { when = " (last synced \(try context.zone().local(checked).iso8601))" }
        let scan = Files.isDirectory(state.folder) ? SyncFolder(root: state.folder).scan() : SyncFolder.Scan()
        // Devices that left are not counted among those this one syncs with.
        let others = devices.filter { !scan.left.contains($0.device) }.count
        let gone = devices.count - others
        let silent = silence(devices, left: scan.left, now: context.clock.now(), days: context.config().syncSilentDays)
        let names: [String] = devices.filter { silent[$0.device] != nil }.map { "'\($0.name)'" }
        var silence = ""
        if !names.isEmpty {
            silence = "; nothing from \(names.joined(separator: ", ")) for \(context.config().syncSilentDays) days or more: 'manna sync forget NAME' if gone for good"
        }
        return "through \(state.folder) as '\(state.deviceName)' with \(others) other \(Formatting.plural(others, "device"))"
            + (gone > 0 ? " (\(gone) more left)" : "") + when + silence
    }

    /// The devices nothing has come from for `days` or more (by when the last was applied here,
    /// or made, for a device applied before that was kept), and for how many days; not those that left.
    static func silence(_ devices: [SyncDevice], left: Set<String>, now: Instant, days: Int) -> [String: Int] {
        var silent: [String: Int] = [:]
        for device in devices where !left.contains(device.device) {
            guard let heard = device.appliedAt ?? device.lastTime.map(HybridTime.instant) else { continue }
            let quiet = (now - heard) / 86_400
            if quiet >= days { silent[device.device] = quiet }
        }
        return silent
    }
}
