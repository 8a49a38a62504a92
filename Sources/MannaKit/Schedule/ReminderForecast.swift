// What a tick with nothing due needs of the prayer reminders: when the first of them can next
// come, and the distinct SPECs whose times the timeline shows. A tick works it out from every
// active reminder and the journal keeps it (`Journal.reminderForecast`); triggers drop it on
// any change a reminder's time depends on (migration 18), whoever writes: a command, import or
// sync. So the tick a minute reads one row, not a thousand reminders, until something changes
// or the next reminder comes.

/// The active reminders, as far as the next one and the timeline go.
public struct ReminderForecast: Equatable, Sendable {
    /// The zone and its rules' file (`Zone.rulesKey`) the instants were worked out in.
    public let zone: String
    /// No active reminder comes in (`after`, `next`).
    public let after: Instant
    /// The first time an active reminder comes after `after`; nil when none ever will.
    public let next: Instant?
    /// The open prayers' reminders' SPECs, each once, in their canonical order.
    public let specs: [ReminderSpec]

    public init(zone: String, after: Instant, next: Instant?, specs: [ReminderSpec]) {
        self.zone = zone
        self.after = after
        self.next = next
        self.specs = specs
    }

    /// Worked out from every active reminder at `after`, in `zone`. A reminder comes only after
    /// it was set to its time (`ActiveReminder.since`).
    public init(reminders: [ActiveReminder], after: Instant, zone: Zone) {
        let clock = WallClockDays(zone: zone)
        // A thousand reminders are a few SPECs, most of them set to their time long ago.
        var firsts: [ReminderSpec: [Instant: Instant?]] = [:]
        var next: Instant?
        for reminder in reminders {
            let from = max(after, reminder.since)
            let first: Instant?
            if let known = firsts[reminder.spec]?[from] {
                first = known
            } else {
                first = reminder.spec.firstOccurrence(after: from, clock: clock)?.instant
                firsts[reminder.spec, default: [:]][from] = first
            }
            if let first, first < next ?? .max { next = first }
        }
        self.init(zone: zone.rulesKey, after: after, next: next,
                  specs: firsts.keys.sorted { $0.description < $1.description })
    }

    /// True when it vouches that no active reminder comes in (`windowAfter`, `now`], in `zone`:
    /// worked out in that zone, no later than the window's start, and the next time not yet come.
    public func vouches(after windowAfter: Instant, upTo now: Instant, zone: Zone) -> Bool {
        self.zone == zone.rulesKey && after <= windowAfter && (next.map { now < $0 } ?? true)
    }
}
