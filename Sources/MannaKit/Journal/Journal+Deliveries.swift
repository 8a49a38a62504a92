// The delivery ledger: one row per occurrence ever claimed. The primary key (kind, key,
// occurrence) makes a second claim of the same occurrence fail, which is how two ticks at once,
// or a tick re-run, never show one twice. A claim is recorded shown (`shown_at`) once shown; one
// left unshown is taken over by a later tick only when its holder, the process that made it, is
// gone (`ClaimHolder`), so a kill at any instant loses nothing and ticks on any clocks never
// share one (docs/ARCHITECTURE.md, "The journal and the ledger").

/// What an occurrence is of: a notification kind's name in the ledger (`NotificationKind.ledgerKind`;
/// each kind declares its own, in its file under Schedule/Kinds/). Journals keep these names, so
/// a kind's never changes.
public struct OccurrenceKind: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The kind a ledger row names. A kind this Manna does not know (a newer one wrote it, or
    /// the file was edited) is the journal's error, never taken for another kind.
    init(ledger text: String, path: String) throws(JournalError) {
        guard NotificationKinds.all.contains(where: { $0.ledgerKind.rawValue == text }) else {
            throw .unwritable(path: path, reason: "the delivery ledger has an occurrence of unknown kind '\(text.singleLine)'")
        }
        self.init(rawValue: text)
    }
}

extension Journal {
    /// An occurrence of something the scheduler shows: the verse of one day, one reminder time.
    public struct Occurrence: Hashable, Sendable {
        public let kind: OccurrenceKind
        /// Which reminder, plan run or snooze (its UUID); '' for the verse of the day.
        public let key: String
        /// The local date ("2026-03-08"), or local date and time ("2026-03-08 07:30"), it is for.
        public let label: String

        public init(kind: OccurrenceKind, key: String, label: String) {
            self.kind = kind
            self.key = key
            self.label = label
        }
    }

    /// True when the occurrence needs nothing from this tick: shown, or claimed by a tick still
    /// at work (its holder lives, whatever its clock said). Cheap, and no write, for the common tick.
    public func isHandled(_ item: Occurrence) throws(JournalError) -> Bool {
        guard let (shown, holder) = try claimState(of: item) else { return false }
        if shown { return true }
        return try liveHolder().isLive(holder)
    }

    /// True when the occurrence was shown (not merely claimed by a tick still at work, or dead).
    public func isShown(_ item: Occurrence) throws(JournalError) -> Bool {
        try claimState(of: item)?.shown ?? false
    }

    /// Claims the occurrence for this connection: true if this call claimed it, false if some
    /// tick already had. Committed before returning, so it holds across crashes and processes.
    public func claim(_ item: Occurrence, at instant: Instant, late: Bool) throws(JournalError) -> Bool {
        try claim([(item, late)], at: instant)[0]
    }

    /// Claims the occurrences in one transaction: for each, true if this call claimed it, or
    /// took over a claim left unshown by a holder that is gone. The holder's life is asked inside
    /// the transaction, so a holder that lives cannot record its claim shown in between.
    public func claim(_ items: [(occurrence: Occurrence, late: Bool)], at instant: Instant) throws(JournalError) -> [Bool] {
        let holder = try liveHolder()
        return try writing {
            try items.map { item in
                let inserted = try database.withCachedStatement("""
                    INSERT OR IGNORE INTO deliveries (kind, key, occurrence, claimed_at, late, shown_at, holder)
                    VALUES (?1, ?2, ?3, ?4, ?5, NULL, ?6)
                    """) { statement in
                    try bind(item.occurrence, to: statement)
                    try statement.bind(instant, at: 4)
                    try statement.bind(item.late ? 1 : 0, at: 5)
                    try statement.bind(holder.id, at: 6)
                    try statement.run()
                    return database.changes == 1
                }
                if inserted { return true }
                guard let (shown, previous) = try claimState(of: item.occurrence), !shown, !holder.isLive(previous) else { return false }
                return try database.withCachedStatement("""
                    UPDATE deliveries SET claimed_at = ?4, holder = ?5 WHERE kind = ?1 AND key = ?2 AND occurrence = ?3 AND shown_at IS NULL
                    """) { statement in
                    try bind(item.occurrence, to: statement)
                    try statement.bind(instant, at: 4)
                    try statement.bind(holder.id, at: 5)
                    try statement.run()
                    return database.changes == 1
                }
            }
        }
    }

    /// Whether the occurrence's claim was shown, and who holds it; nil when it was never claimed.
    private func claimState(of item: Occurrence) throws(JournalError) -> (shown: Bool, holder: Int?)? {
        try reading {
            try database.withCachedStatement("""
                SELECT shown_at IS NOT NULL AS shown, holder FROM deliveries WHERE kind = ?1 AND key = ?2 AND occurrence = ?3
                """) { statement in
                try bind(item, to: statement)
                guard try statement.step() else { return nil }
                return (try statement.int("shown") != 0, try statement.optionalInt("holder"))
            }
        }
    }

    /// This connection's holder, taken at its first need.
    private func liveHolder() throws(JournalError) -> ClaimHolder {
        if let claimHolder { return claimHolder }
        guard !isReadOnly else { throw .unwritable(path: path, reason: Journal.readOnlyReason) }
        let holder = try ClaimHolder(journalPath: path)
        claimHolder = holder
        return holder
    }

    /// Records the occurrences shown: no tick takes them over any more.
    public func markShown(_ items: [Occurrence], at instant: Instant) throws(JournalError) {
        try writing {
            for item in items {
                try database.withCachedStatement("UPDATE deliveries SET shown_at = ?4 WHERE kind = ?1 AND key = ?2 AND occurrence = ?3") { statement in
                    try bind(item, to: statement)
                    try statement.bind(instant, at: 4)
                    try statement.run()
                }
            }
        }
    }

    /// Gives a claim back when showing failed (no notification server yet), so a later tick tries again.
    public func release(_ item: Occurrence) throws(JournalError) {
        try writing {
            try database.withCachedStatement("DELETE FROM deliveries WHERE kind = ?1 AND key = ?2 AND occurrence = ?3") { statement in
                try bind(item, to: statement)
                try statement.run()
            }
        }
    }

    /// Every occurrence claimed for local dates from `firstLabel` on (labels sort as dates):
    /// the ledger read back, in its own order. For tests (`@testable`): a tick asks the ledger
    /// only whether one occurrence is claimed (`claim`).
    func claimed(from firstLabel: String) throws(JournalError) -> [Occurrence] {
        let rows: [(String, String, String)] = try reading {
            let statement = try database.prepare("SELECT kind, key, occurrence FROM deliveries WHERE occurrence >= ?1 ORDER BY occurrence, kind, key")
            try statement.bind(firstLabel, at: 1)
            var rows: [(String, String, String)] = []
            while try statement.step() {
                try rows.append((statement.string("kind"), statement.string("key"), statement.string("occurrence")))
            }
            return rows
        }
        var occurrences: [Occurrence] = []
        for (kind, key, label) in rows {
            occurrences.append(Occurrence(kind: try OccurrenceKind(ledger: kind, path: path), key: key, label: label))
        }
        return occurrences
    }

    private func bind(_ item: Occurrence, to statement: Statement) throws(SQLiteError) {
        try statement.bind(item.kind.rawValue, at: 1)
        try statement.bind(item.key, at: 2)
        try statement.bind(item.label, at: 3)
    }
}

// MARK: What the scheduler says once

/// A tick that could not show a notification: when, why, and whether it may be on screen.
public struct NotifyFailure: Equatable, Sendable {
    public let instant: Instant
    public let reason: String
    public let mayHaveBeenShown: Bool
}

extension Journal {
    /// The last time a tick could not show a notification, and why (`scheduler_events`); nil
    /// when every notification since was shown. Whether it may have been shown (handed over,
    /// not confirmed) is the event's name, not its words.
    public func notifyFailure() throws(JournalError) -> NotifyFailure? {
        if let (instant, reason) = try schedulerEvent(Journal.notifyFailed) {
            return NotifyFailure(instant: instant, reason: reason, mayHaveBeenShown: false)
        }
        return try schedulerEvent(Journal.notifyUnconfirmed).map { NotifyFailure(instant: $0.instant, reason: $0.reason, mayHaveBeenShown: true) }
    }

    /// Records that a tick could not show a notification at `instant` (`mayHaveBeenShown`: it
    /// handed it over, and the server did not confirm it).
    public func recordNotifyFailure(_ reason: String, mayHaveBeenShown: Bool, at instant: Instant) throws(JournalError) {
        try clearNotifyFailure()
        try recordSchedulerEvent(mayHaveBeenShown ? Journal.notifyUnconfirmed : Journal.notifyFailed, detail: reason, at: instant)
    }

    /// Forgets the last failure: a notification has been shown since.
    public func clearNotifyFailure() throws(JournalError) {
        try clearSchedulerEvent(Journal.notifyFailed)
        try clearSchedulerEvent(Journal.notifyUnconfirmed)
    }

    private static let notifyFailed = "notify-failed"
    private static let notifyUnconfirmed = "notify-unconfirmed"

    /// When the tick last said the config's ignored lines, and what it said.
    public func configWarning() throws(JournalError) -> (instant: Instant, reason: String)? {
        try schedulerEvent("config-ignored")
    }

    public func recordConfigWarning(_ said: String, at instant: Instant) throws(JournalError) {
        try recordSchedulerEvent("config-ignored", detail: said, at: instant)
    }

    /// One of the things the scheduler keeps to say once (`scheduler_events`, one row a name).
    private func schedulerEvent(_ name: String) throws(JournalError) -> (instant: Instant, reason: String)? {
        try reading {
            try database.withCachedStatement("SELECT instant, detail FROM scheduler_events WHERE name = ?1") { statement in
                try statement.bind(name, at: 1)
                return try statement.step() ? (statement.int(0), statement.string(1)) : nil
            }
        }
    }

    private func recordSchedulerEvent(_ name: String, detail: String, at instant: Instant) throws(JournalError) {
        try writing {
            try database.withCachedStatement("INSERT OR REPLACE INTO scheduler_events VALUES (?1, ?2, ?3)") { statement in
                try statement.bind(name, at: 1)
                try statement.bind(instant, at: 2)
                try statement.bind(detail, at: 3)
                try statement.run()
            }
        }
    }

    private func clearSchedulerEvent(_ name: String) throws(JournalError) {
        try writing {
            try database.withCachedStatement("DELETE FROM scheduler_events WHERE name = ?1") { statement in
                try statement.bind(name, at: 1)
                try statement.run()
            }
        }
    }
}
