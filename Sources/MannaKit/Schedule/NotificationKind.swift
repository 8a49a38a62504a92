// The typed delivery model. Each kind of notification the scheduler shows is one file in
// Schedule/Kinds/: when it is due, what it says, its category, its name in the ledger and its
// word in the timeline. `NotificationKinds` lists them, and the tick, the ledger and the
// timeline ask them, so a new kind is its file and its line there (docs/ARCHITECTURE.md,
// "Adding a notification kind").

/// One kind of notification. A value is one occurrence of it, typed: the date of a morning
/// verse, the reminder and the prayer of a reminder's time. `Due.subject` holds it.
public protocol NotificationKind: Equatable, Sendable {
    /// Its name in the delivery ledger.
    static var ledgerKind: OccurrenceKind { get }
    /// The `category` hint its notifications carry.
    static var category: DesktopNotification.Category { get }
    /// Its word in the timeline's reminders (docs/timeline.schema.json); nil when the timeline
    /// never lists it.
    static var timelineKind: TimelineReminder.Kind? { get }

    /// The due rule: its occurrences due at a tick.
    static func due(_ tick: DueInputs) -> [Due]
    /// Its times on a local date, as the timeline lists them (repeats are listed once).
    static func times(on date: LocalDate, inputs: TimelineInputs) -> [LocalTime]

    /// Which reminder, plan run or snooze this occurrence is of (its UUID); '' for one a day.
    var ledgerKey: String { get }
    /// The local date, or date and time, this occurrence is for: "2026-03-08", "2026-03-08 07:30".
    var ledgerLabel: String { get }
    /// The text: its notification, shown on its own (`late`: the tick runs after its time). Nil
    /// when there is nothing to show and nothing is missing (a plan read to its end).
    func notification(late: Bool, from sources: NotificationSources) throws(TextUnavailable) -> DesktopNotification?
}

/// A kind that comes at times in the reminders' window (`Scheduler.reminderWindow`): the ones on
/// time are shown one by one, the missed ones together in one "While you were away".
public protocol ReminderKind: NotificationKind {
    /// What names this occurrence in "While you were away".
    func missedTitle(from sources: NotificationSources) throws(TextUnavailable) -> String
}

/// Every kind, in the order a tick shows them. A kind's line here is all that joins it to the
/// tick, the ledger and the timeline.
public enum NotificationKinds {
    /// Once a local day, at a set time: due from then until the day ends, and shown late on
    /// its own.
    public static let daily: [any NotificationKind.Type] = [MorningVerse.self, PlanReminder.self]
    /// At times in the reminders' window, after the daily ones.
    public static let reminders: [any ReminderKind.Type] = [PrayerReminder.self, PrayerSnooze.self]
    public static let all: [any NotificationKind.Type] = daily + reminders
}

extension NotificationKind {
    /// This occurrence's row in the delivery ledger.
    public var occurrence: Journal.Occurrence {
        Journal.Occurrence(kind: Self.ledgerKind, key: ledgerKey, label: ledgerLabel)
    }

    /// True when `other` is the same occurrence: of this kind, and equal.
    func isSame(as other: any NotificationKind) -> Bool {
        (other as? Self) == self
    }
}

/// What the due rules read at one tick.
public struct DueInputs {
    public let now: Instant
    public let zone: Zone
    /// The morning verse's time; nil when `notify_at = off`.
    public let notifyAt: LocalTime?
    /// The running plans and their progress, in the order they were started.
    public let plans: [(plan: Plan, run: PlanRun)]
    /// The reminders are due in (`remindersAfter`, `now`] (`Scheduler.reminderWindow`).
    public let remindersAfter: Instant
    /// The open prayers' reminders.
    public let reminders: [ActiveReminder]
    /// The snoozes due in the reminders' window.
    public let snoozes: [Snooze]

    public init(now: Instant, zone: Zone, notifyAt: LocalTime? = nil, plans: [(plan: Plan, run: PlanRun)] = [],
                remindersAfter: Instant, reminders: [ActiveReminder] = [], snoozes: [Snooze] = []) {
        self.now = now
        self.zone = zone
        self.notifyAt = notifyAt
        self.plans = plans
        self.remindersAfter = remindersAfter
        self.reminders = reminders
        self.snoozes = snoozes
    }
}

/// What a kind's text is made from.
public struct NotificationSources {
    /// The verse of the day's text.
    public let database: TextDatabase
    /// The prayers' titles and text.
    public let journal: Journal
    /// The translation, the daily source and the zone.
    public let settings: TimelineInputs
    /// The `manna` a notification's buttons run (`pray prayed UUID`), by absolute path.
    public let manna: String

    public init(database: TextDatabase, journal: Journal, settings: TimelineInputs, manna: String) {
        self.database = database
        self.journal = journal
        self.settings = settings
        self.manna = manna
    }
}

/// Why a kind's text cannot be made now (the text database or the journal cannot be read): a
/// later tick tries again.
public struct TextUnavailable: Error, Equatable, Sendable {
    public let reason: String

    public init(reason: String) { self.reason = reason }
}
