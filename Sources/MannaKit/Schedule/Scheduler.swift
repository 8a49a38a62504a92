// The scheduler's decisions: what is due at a moment, and showing each due occurrence exactly
// once however many ticks run, by claiming it in the journal's ledger before showing it.

/// Something to show now.
public struct Due: Equatable, Sendable {
    /// What is due, typed by its kind (Schedule/Kinds/): a morning verse's date, a reminder's
    /// time and prayer.
    public let subject: any NotificationKind
    /// When it was meant to be shown.
    public let scheduled: Instant
    /// True when the machine was asleep or off at `scheduled`, and it is shown on waking.
    public let late: Bool

    public init(subject: any NotificationKind, scheduled: Instant, late: Bool) {
        self.subject = subject
        self.scheduled = scheduled
        self.late = late
    }

    /// Its row in the delivery ledger.
    public var occurrence: Journal.Occurrence { subject.occurrence }

    public static func == (left: Due, right: Due) -> Bool {
        left.subject.isSame(as: right.subject) && left.scheduled == right.scheduled && left.late == right.late
    }
}

/// What became of one due occurrence in a tick.
public enum DeliveryOutcome: Equatable, Sendable {
    /// This tick claimed it and showed it.
    case shown(Due)
    /// Another tick (or an earlier one) had claimed it.
    case alreadyClaimed(Due)
    /// This tick claimed it and handed it to a server that did not confirm it in time: a slow
    /// server may yet show it, so it is recorded as shown and never sent again.
    case unconfirmed(Due, reason: String)
    /// This tick claimed it but could not show it; the claim was given back for a later tick.
    case failed(Due, reason: String)
    /// This tick claimed it and did not try: its time for notifications was spent. The claim
    /// was given back; the next tick shows it. No failure.
    case deferred(Due)

    /// Its claim was given back: a later tick shows it (failed or deferred).
    public var givenBack: Bool {
        switch self {
        case .failed, .deferred: true
        case .shown, .alreadyClaimed, .unconfirmed: false
        }
    }
}

/// What became of one attempt to show a notification.
public enum ShowResult: Equatable, Sendable {
    case shown
    /// Handed over, not confirmed: it may be on screen (see `DeliveryOutcome.unconfirmed`).
    case unconfirmed(String)
    /// Not shown, and known not to be (no bus, no server, nothing sent): try again later.
    case notShown(String)
    /// Not tried (the tick's time was spent): the next tick shows it.
    case deferred
}

public enum Scheduler {
    /// How long after its time a notification still counts as on time: the timer fires every
    /// minute (AccuracySec=1s), so anything later means the machine was not running.
    public static let lateAfter = 120

    /// A daily kind's occurrence at `time` on the local date of `now`, when `now` is at or after
    /// it and the day is not over. Missed on a day the machine slept through: shown on waking,
    /// marked late; a day that has ended is never shown.
    static func daily(now: Instant, zone: Zone, at time: LocalTime, _ subject: (LocalDate) -> any NotificationKind) -> Due? {
        let today = zone.local(now).date
        let scheduled = zone.firstInstant(on: today, at: time)
        guard now >= scheduled else { return nil }
        return Due(subject: subject(today), scheduled: scheduled, late: now - scheduled > lateAfter)
    }

    /// The daily kinds' occurrences due at a tick (the morning verse, each plan's reading), in
    /// the order of `NotificationKinds.daily`.
    public static func dailyDue(_ tick: DueInputs) -> [Due] {
        NotificationKinds.daily.flatMap { $0.due(tick) }
    }

    /// Shows each due occurrence that no tick has claimed: claim (committed), then `show`.
    /// A failed `show` gives the claim back so that a later tick tries again.
    public static func deliver(_ due: [Due], journal: Journal, now: Instant,
                               show: (Due) -> ShowResult) throws(JournalError) -> [DeliveryOutcome] {
        var outcomes: [DeliveryOutcome] = []
        for item in due {
            outcomes += try deliverTogether([item], journal: journal, now: now) { _ in show(item) }
        }
        return outcomes
    }

    /// Shows the due occurrences that no tick has claimed as one notification: claims them
    /// all in one transaction (taking over claims that a dead tick left unshown), then calls
    /// `show` once with those this call claimed (not at all when another tick had them), then
    /// records them shown. A `show` that knows nothing was shown gives every claim back.
    public static func deliverTogether(_ due: [Due], journal: Journal, now: Instant,
                                       show: ([Due]) -> ShowResult) throws(JournalError) -> [DeliveryOutcome] {
        // Reading first keeps the common tick (already shown) free of writes.
        var unhandled: [Due] = []
        for item in due where !(try journal.isHandled(item.occurrence)) { unhandled.append(item) }
        let won = unhandled.isEmpty ? [] : try journal.claim(unhandled.map { ($0.occurrence, $0.late) }, at: now)
        let claimed = zip(unhandled, won).filter(\.1).map(\.0)
        var outcomes = due.filter { item in !claimed.contains(item) }.map(DeliveryOutcome.alreadyClaimed)
        guard !claimed.isEmpty else { return outcomes }
        switch show(claimed) {
        case .shown:
            // A kill between showing and this commit shows it again later: the one window in
            // which Manna prefers a repeat to a loss (docs/ARCHITECTURE.md).
            try journal.markShown(claimed.map(\.occurrence), at: now)
            outcomes += claimed.map(DeliveryOutcome.shown)
        case .unconfirmed(let reason):
            try journal.markShown(claimed.map(\.occurrence), at: now)
            outcomes += claimed.map { .unconfirmed($0, reason: reason) }
        case .notShown(let reason):
            for item in claimed { try journal.release(item.occurrence) }
            outcomes += claimed.map { .failed($0, reason: reason) }
        case .deferred:
            for item in claimed { try journal.release(item.occurrence) }
            outcomes += claimed.map(DeliveryOutcome.deferred)
        }
        return outcomes
    }
}
