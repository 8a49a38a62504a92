// The delivery ledger: one row per occurrence ever claimed. The primary key (kind, key,
// occurrence) makes a second claim of the same occurrence fail, which is how two ticks at once,
// or a tick re-run, never show one twice. A claim is recorded shown (`shown_at`) once shown; one
// left unshown by a tick that died is taken over by a later tick after `Journal.claimLease`,
// so a kill at any instant loses nothing (docs/ARCHITECTURE.md, "The journal and the ledger").

/// What an occurrence is of: the kinds the scheduler shows.
public enum OccurrenceKind: String, Sendable, CaseIterable {
    /// The morning verse of one local date (key '').
    case verse
    /// The reading-plan reminder of one local date (key: the plan run's UUID).
    case plan
    /// One time of a prayer reminder (key: the reminder's UUID).
    case prayer
    /// A snoozed prayer coming back (key: the snooze's UUID).
    case snooze

    /// The kind a ledger row names. A kind this Manna does not know (a newer one wrote it, or
    /// the file was edited) is the journal's error, never taken for another kind.
    init(ledger text: String, path: String) throws(JournalError) {
        guard let kind = OccurrenceKind(rawValue: text) else {
            throw .unwritable(path: path, reason: "the delivery ledger has an occurrence of unknown kind '\(text.singleLine)'")
        }
        self = kind
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

    /// How long a claim not yet shown belongs to the tick that made it: longer than any tick
    /// takes (its time budget, `Tick.budgetSeconds`, with room to spare), so a claim this old
    /// was left by a tick that died (killed, logged out, shut down), and the next minute's tick
    /// takes it over.
    public static let claimLease = 60

    /// True when the occurrence needs nothing from this tick: shown, or claimed moments ago by
    /// a tick still at work. Cheap, and no write, for the common tick.
    public func isHandled(_ item: Occurrence, at now: Instant) throws(JournalError) -> Bool {
        try reading {
            try database.withCachedStatement("""
                SELECT 1 FROM deliveries WHERE kind = ?1 AND key = ?2 AND occurrence = ?3
                    AND (shown_at IS NOT NULL OR claimed_at > ?4)
                """) { statement in
                try bind(item, to: statement)
                try statement.bind(now - Journal.claimLease, at: 4)
                return try statement.step()
            }
        }
    }

    /// True when the occurrence was shown (not merely claimed by a tick still at work, or dead).
    public func isShown(_ item: Occurrence) throws(JournalError) -> Bool {
        try reading {
            try database.withCachedStatement("""
                SELECT 1 FROM deliveries WHERE kind = ?1 AND key = ?2 AND occurrence = ?3 AND shown_at IS NOT NULL
                """) { statement in
                try bind(item, to: statement)
                return try statement.step()
            }
        }
    }

    /// Claims the occurrence for this process: true if this call claimed it, false if some
    /// tick already had. Committed before returning, so it holds across crashes and processes.
    public func claim(_ item: Occurrence, at instant: Instant, late: Bool) throws(JournalError) -> Bool {
        try claim([(item, late)], at: instant)[0]
    }

    /// Claims the occurrences in one transaction: for each, true if this call claimed it, or
    /// took over a claim left unshown for longer than `claimLease`.
    public func claim(_ items: [(occurrence: Occurrence, late: Bool)], at instant: Instant) throws(JournalError) -> [Bool] {
        try writing {
            try items.map { item in
                let inserted = try database.withCachedStatement("INSERT OR IGNORE INTO deliveries VALUES (?1, ?2, ?3, ?4, ?5, NULL)") { statement in
                    try bind(item.occurrence, to: statement)
                    try statement.bind(instant, at: 4)
                    try statement.bind(item.late ? 1 : 0, at: 5)
                    try statement.run()
                    return database.changes == 1
                }
                if inserted { return true }
                return try database.withCachedStatement("""
                    UPDATE deliveries SET claimed_at = ?4 WHERE kind = ?1 AND key = ?2 AND occurrence = ?3
                        AND shown_at IS NULL AND claimed_at <= ?5
                    """) { statement in
                    try bind(item.occurrence, to: statement)
                    try statement.bind(instant, at: 4)
                    try statement.bind(instant - Journal.claimLease, at: 5)
                    try statement.run()
                    return database.changes == 1
                }
            }
        }
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
    /// the ledger read back, in its own order.
    public func claimed(from firstLabel: String) throws(JournalError) -> [Occurrence] {
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

extension Journal {
    /// The last time a tick could not show a notification, and why (`scheduler_events`); nil
    /// when every notification since was shown.
    public func notifyFailure() throws(JournalError) -> (instant: Instant, reason: String)? {
        try reading {
            try database.withCachedStatement("SELECT instant, detail FROM scheduler_events WHERE name = 'notify-failed'") { statement in
                try statement.step() ? (statement.int(0), statement.string(1)) : nil
            }
        }
    }

    /// Records that a tick could not show a notification at `instant`.
    public func recordNotifyFailure(_ reason: String, at instant: Instant) throws(JournalError) {
        try writing {
            try database.withCachedStatement("INSERT OR REPLACE INTO scheduler_events VALUES ('notify-failed', ?1, ?2)") { statement in
                try statement.bind(instant, at: 1)
                try statement.bind(reason, at: 2)
                try statement.run()
            }
        }
    }

    /// Forgets the last failure: a notification has been shown since.
    public func clearNotifyFailure() throws(JournalError) {
        try writing { try database.execute("DELETE FROM scheduler_events WHERE name = 'notify-failed'") }
    }
}
