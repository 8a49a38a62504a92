// Prayers, their reminders, the prayed log and snoozes in the journal: what `manna pray` writes
// and reads, and what the scheduler asks every tick. Every write is one transaction, committed
// before the command reports it saved.

/// A reminder as stored: its SPEC text as the parser wrote it, and the SPEC when it still reads
/// (a journal written by a later manna may hold one this one cannot).
public struct StoredReminder: Equatable, Sendable {
    public let uuid: String
    public let text: String
    public let spec: ReminderSpec?
}

/// A reminder the scheduler watches: an active reminder of an open prayer.
public struct ActiveReminder: Equatable, Sendable {
    public let uuid: String
    public let prayerUUID: String
    public let spec: ReminderSpec
    /// When it was set to its time (added, or moved): occurrences before this instant are never
    /// due. A reminder added at noon for 07:30 has not been missed that morning, nor one moved
    /// at 20:30 from 21:00 to 20:00 that evening.
    public let since: Instant
}

/// A snooze ("Snooze 10 min"): a one-off reminder of a prayer.
public struct Snooze: Equatable, Sendable {
    public let uuid: String
    public let prayerUUID: String
    public let dueAt: Instant
}

extension Journal {
    /// The columns `prayer(from:)` reads.
    private static let prayerColumns = "uuid, short_id, title, body, tags, answered_at, answer_note, deleted_at, created_at, updated_at"

    /// The condition of `PrayerListKind.open`, spelled as the `prayers_open` index is.
    private static let openCondition = "deleted_at IS NULL AND answered_at IS NULL"

    // MARK: Writing

    /// Adds a prayer with its reminders; returns it as stored, with its new short id.
    public func addPrayer(title: String, body: String, tags: [String], reminders: [ReminderSpec],
                          at now: Instant) throws(JournalError) -> Prayer {
        try writing {
            let uuid = Journal.newUUID()
            let shortID = try newShortID(in: "prayers")
            let insert = try database.prepare("""
                INSERT INTO prayers (uuid, short_id, title, body, tags, created_at, updated_at)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6)
                """)
            try insert.bind(uuid, at: 1)
            try insert.bind(shortID, at: 2)
            try insert.bind(title, at: 3)
            try insert.bind(body, at: 4)
            try insert.bind(Journal.tagsColumn(tags), at: 5)
            try insert.bind(now, at: 6)
            try insert.run()
            try insertReminders(reminders, prayerUUID: uuid, at: now)
            return Prayer(uuid: uuid, shortID: shortID, title: title, body: body, tags: tags, answeredAt: nil,
                          answerNote: nil, deletedAt: nil, createdAt: now, updatedAt: now)
        }
    }

    /// Changes what is given (nil: left as it is). New `reminders` replace the old ones: a SPEC
    /// given again keeps its reminder (and so its delivery history); a reminder no longer given
    /// takes a new SPEC in place, in order, so a reminder moved keeps its identity (moved on
    /// two devices at once, it syncs to one time, not two reminders); the rest are deleted or added.
    public func updatePrayer(uuid: String, title: String?, body: String?, tags: [String]?,
                             reminders: [ReminderSpec]?, at now: Instant) throws(JournalError) {
        try writing {
            let update = try database.prepare("""
                UPDATE prayers SET title = coalesce(?2, title), body = coalesce(?3, body),
                    tags = coalesce(?4, tags), updated_at = ?5 WHERE uuid = ?1
                """)
            try update.bind(uuid, at: 1)
            try update.bind(title, at: 2)
            try update.bind(body, at: 3)
            try update.bind(tags.map(Journal.tagsColumn), at: 4)
            try update.bind(now, at: 5)
            try update.run()
            guard let reminders else { return }
            let kept = try activeReminders(ofPrayer: uuid)
            let dropped = kept.filter { old in !reminders.contains { $0.description == old.text } }
            var added = reminders.filter { spec in !kept.contains { $0.text == spec.description } }
            let move = try database.prepare("UPDATE reminders SET spec = ?2, updated_at = ?3 WHERE uuid = ?1")
            let remove = try database.prepare("UPDATE reminders SET deleted_at = ?2, updated_at = ?2 WHERE uuid = ?1")
            for old in dropped {
                if !added.isEmpty {
                    try move.reset()
                    try move.bind(old.uuid, at: 1)
                    try move.bind(added.removeFirst().description, at: 2)
                    try move.bind(now, at: 3)
                    try move.run()
                } else {
                    try remove.reset()
                    try remove.bind(old.uuid, at: 1)
                    try remove.bind(now, at: 2)
                    try remove.run()
                }
            }
            try insertReminders(added, prayerUUID: uuid, at: now)
        }
    }

    /// Marks the prayer answered (keeping the first answer's time) and sets the note when given.
    public func markAnswered(uuid: String, note: String?, at now: Instant) throws(JournalError) {
        try writing {
            let update = try database.prepare("""
                UPDATE prayers SET answered_at = coalesce(answered_at, ?2), answer_note = coalesce(?3, answer_note),
                    updated_at = ?2 WHERE uuid = ?1
                """)
            try update.bind(uuid, at: 1)
            try update.bind(now, at: 2)
            try update.bind(note, at: 3)
            try update.run()
        }
    }

    /// Makes an answered prayer open again (`pray reopen`); its answer note is kept.
    public func reopen(uuid: String, at now: Instant) throws(JournalError) {
        try writing {
            let update = try database.prepare("UPDATE prayers SET answered_at = NULL, updated_at = ?2 WHERE uuid = ?1")
            try update.bind(uuid, at: 1)
            try update.bind(now, at: 2)
            try update.run()
        }
    }

    /// Deletes the prayer (it stays as a tombstone, so it can be restored and a deletion can
    /// travel through export), or restores it.
    public func setDeleted(uuid: String, _ deleted: Bool, at now: Instant) throws(JournalError) {
        try writing {
            let update = try database.prepare("UPDATE prayers SET deleted_at = ?2, updated_at = ?3 WHERE uuid = ?1")
            try update.bind(uuid, at: 1)
            if deleted { try update.bind(now, at: 2) } else { try update.bindNull(at: 2) }
            try update.bind(now, at: 3)
            try update.run()
        }
    }

    /// Logs that the prayer was prayed at `now`.
    public func recordPrayed(uuid: String, at now: Instant) throws(JournalError) {
        try writing {
            let insert = try database.prepare("INSERT INTO prayed (uuid, prayer_uuid, prayed_at) VALUES (?1, ?2, ?3)")
            try insert.bind(Journal.newUUID(), at: 1)
            try insert.bind(uuid, at: 2)
            try insert.bind(now, at: 3)
            try insert.run()
        }
    }

    /// Schedules a one-off reminder of the prayer at `due`.
    public func addSnooze(prayerUUID: String, due: Instant, at now: Instant) throws(JournalError) {
        try writing {
            let insert = try database.prepare("INSERT INTO snoozes (uuid, prayer_uuid, due_at, created_at) VALUES (?1, ?2, ?3, ?4)")
            try insert.bind(Journal.newUUID(), at: 1)
            try insert.bind(prayerUUID, at: 2)
            try insert.bind(due, at: 3)
            try insert.bind(now, at: 4)
            try insert.run()
        }
    }

    private func insertReminders(_ specs: [ReminderSpec], prayerUUID: String, at now: Instant) throws(SQLiteError) {
        let insert = try database.prepare("INSERT INTO reminders (uuid, prayer_uuid, spec, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?4)")
        for spec in specs {
            try insert.reset()
            try insert.bind(Journal.newUUID(), at: 1)
            try insert.bind(prayerUUID, at: 2)
            try insert.bind(spec.description, at: 3)
            try insert.bind(now, at: 4)
            try insert.run()
        }
    }

    /// ",family,health," for ["health", "family"] (so one tag is found with instr(tags, ',tag,')):
    /// in order, so that devices that merge one set of tags (`SyncSet`) write one list.
    static func tagsColumn(_ tags: [String]) -> String {
        let tags = Set(tags).sorted()
        return tags.isEmpty ? "" : "," + tags.joined(separator: ",") + ","
    }

    // MARK: Reading

    /// The prayer whose short id (or UUID) is `id`, deleted or not.
    public func prayer(id: String) throws(JournalError) -> Prayer? {
        try reading {
            // Cached: the tick looks up the prayer of each reminder it shows.
            try database.withCachedStatement("SELECT \(Journal.prayerColumns) FROM prayers WHERE short_id = ?1 OR uuid = ?1") { select in
                try select.bind(id.lowercased(), at: 1)
                return try select.step() ? try Journal.prayer(from: select) : nil
            }
        }
    }

    private static func prayer(from row: Statement) throws(SQLiteError) -> Prayer {
        try Prayer(uuid: row.string("uuid"), shortID: row.string("short_id"), title: row.string("title"), body: row.string("body"),
                   tags: tags(row.string("tags")), answeredAt: row.optionalInt("answered_at"), answerNote: row.optionalString("answer_note"),
                   deletedAt: row.optionalInt("deleted_at"), createdAt: row.int("created_at"), updatedAt: row.int("updated_at"))
    }

    private static func tags(_ column: String) -> [String] { column.split(separator: ",").map(String.init) }

    /// The prayers of one kind, with `tag` if given: short id, title and tags, never bodies.
    public func prayers(_ kind: PrayerListKind, tag: String?) throws(JournalError) -> [PrayerSummary] {
        try reading {
            let (condition, order) = switch kind {
            case .open: (Journal.openCondition, "created_at, short_id")
            case .answered: ("deleted_at IS NULL AND answered_at IS NOT NULL", "answered_at, short_id")
            case .deleted: ("deleted_at IS NOT NULL", "deleted_at, short_id")
            }
            let select = try database.prepare("""
                SELECT short_id, title, tags, created_at, answered_at, deleted_at, uuid FROM prayers
                WHERE \(condition) AND (?1 IS NULL OR instr(tags, ?1) > 0) ORDER BY \(order)
                """)
            try select.bind(tag.map { "," + $0 + "," }, at: 1)
            var found: [PrayerSummary] = []
            // By position, in the SELECT's order: a list of 10,000 prayers reads 60,000 cells, and
            // finding each by name cost `pray list` a seventh more instructions.
            while try select.step() {
                found.append(PrayerSummary(shortID: select.string(0), title: select.string(1), tags: Journal.tags(select.string(2)),
                                           createdAt: select.int(3), answeredAt: select.optionalInt(4), deletedAt: select.optionalInt(5),
                                           uuid: select.string(6)))
            }
            return found
        }
    }

    /// The open prayers `PrayerRotation` picks for `date`, in the rotation's order.
    public func prayersForToday(_ date: LocalDate) throws(JournalError) -> (open: Int, prayers: [Prayer]) {
        try reading {
            let count = try database.prepare("SELECT count(*) FROM prayers WHERE \(Journal.openCondition)")
            _ = try count.step()
            let open = count.int(0)
            let nth = try database.prepare("""
                SELECT short_id FROM prayers WHERE \(Journal.openCondition) ORDER BY created_at, short_id LIMIT 1 OFFSET ?1
                """)
            let byID = try database.prepare("SELECT \(Journal.prayerColumns) FROM prayers WHERE short_id = ?1")
            var prayers: [Prayer] = []
            for position in PrayerRotation.positions(on: date, open: open) {
                try nth.reset()
                try nth.bind(position, at: 1)
                guard try nth.step() else { continue }
                try byID.reset()
                try byID.bind(nth.string(0), at: 1)
                if try byID.step() { prayers.append(try Journal.prayer(from: byID)) }
            }
            return (open, prayers)
        }
    }

    /// The prayer's reminders that are not deleted, oldest first.
    public func reminders(ofPrayer uuid: String) throws(JournalError) -> [StoredReminder] {
        try reading { try activeReminders(ofPrayer: uuid) }
    }

    private func activeReminders(ofPrayer uuid: String) throws(SQLiteError) -> [StoredReminder] {
        let select = try database.prepare("SELECT uuid, spec FROM reminders WHERE prayer_uuid = ?1 AND deleted_at IS NULL ORDER BY created_at, rowid")
        try select.bind(uuid, at: 1)
        var found: [StoredReminder] = []
        while try select.step() {
            let text = try select.string("spec")
            found.append(StoredReminder(uuid: try select.string("uuid"), text: text, spec: try? ReminderSpec(parsing: text)))
        }
        return found
    }

    /// How often the prayer was marked prayed, and when last.
    public func prayedLog(ofPrayer uuid: String) throws(JournalError) -> (count: Int, last: Instant?) {
        try reading {
            let select = try database.prepare("SELECT count(*), max(prayed_at) FROM prayed WHERE prayer_uuid = ?1")
            try select.bind(uuid, at: 1)
            _ = try select.step()
            return (select.int(0), select.optionalInt(1))
        }
    }

    /// When the prayer's next snooze comes, if one is pending after `now`.
    public func nextSnooze(ofPrayer uuid: String, after now: Instant) throws(JournalError) -> Instant? {
        try reading {
            let select = try database.prepare("SELECT min(due_at) FROM snoozes WHERE prayer_uuid = ?1 AND due_at > ?2")
            try select.bind(uuid, at: 1)
            try select.bind(now, at: 2)
            _ = try select.step()
            return select.optionalInt(0)
        }
    }

    // MARK: What the scheduler asks

    /// A SPEC as the journal holds it, parsed once per connection; nil when it does not parse.
    private func parsedSpec(_ text: String) -> ReminderSpec? {
        if let known = parsedSpecs[text] { return known }
        let parsed = try? ReminderSpec(parsing: text)
        parsedSpecs[text] = parsed
        return parsed
    }

    /// Every reminder that can come: not deleted, of a prayer neither deleted nor answered.
    /// A SPEC this manna cannot read is left out.
    public func activeReminders() throws(JournalError) -> [ActiveReminder] {
        try reading {
            try database.withCachedStatement("""
                SELECT r.uuid, r.prayer_uuid, r.spec, r.updated_at FROM reminders r JOIN prayers p ON p.uuid = r.prayer_uuid
                WHERE r.deleted_at IS NULL AND p.deleted_at IS NULL AND p.answered_at IS NULL
                """) { select in
                // By position, in the SELECT's order: every tick reads every active reminder.
                var found: [ActiveReminder] = []
                while try select.step() {
                    guard let spec = parsedSpec(select.string(2)) else { continue }
                    found.append(ActiveReminder(uuid: select.string(0), prayerUUID: select.string(1), spec: spec, since: select.int(3)))
                }
                return found
            }
        }
    }

    /// The forecast the last tick that read every reminder left, unless a change since dropped it.
    public func reminderForecast() throws(JournalError) -> ReminderForecast? {
        try reading {
            try database.withCachedStatement("SELECT zone, after, next, specs FROM reminder_forecast") { select in
                guard try select.step() else { return nil }
                let specs = select.string(3).split(separator: "\n").compactMap { parsedSpec(String($0)) }
                return ReminderForecast(zone: select.string(0), after: select.int(1), next: select.optionalInt(2), specs: specs)
            }
        }
    }

    /// Every active reminder, with the forecast `make` works out from them recorded in the same
    /// transaction: a change another process makes meanwhile comes before the read (and is in
    /// it) or after the record (and drops it again), never between.
    public func activeReminders(recordingForecast make: ([ActiveReminder]) -> ReminderForecast) throws(JournalError) -> [ActiveReminder] {
        // A journal this user cannot write is read as before, every tick: no forecast is kept.
        guard !isReadOnly else { return try activeReminders() }
        return try writing {
            let reminders = try activeReminders()
            let forecast = make(reminders)
            try database.execute("DELETE FROM reminder_forecast")
            try database.withCachedStatement("INSERT INTO reminder_forecast (zone, after, next, specs) VALUES (?1, ?2, ?3, ?4)") { insert in
                try insert.bind(forecast.zone, at: 1)
                try insert.bind(forecast.after, at: 2)
                if let next = forecast.next { try insert.bind(next, at: 3) } else { try insert.bindNull(at: 3) }
                try insert.bind(forecast.specs.map(\.description).joined(separator: "\n"), at: 4)
                try insert.run()
            }
            return reminders
        }
    }

    /// The open prayers' reminders' SPECs, each once: the timeline's. From the forecast while
    /// one stands (they are in it), else from every reminder.
    public func activeReminderSpecs() throws(JournalError) -> [ReminderSpec] {
        if let forecast = try reminderForecast() { return forecast.specs }
        var seen = Set<ReminderSpec>()
        return try activeReminders().map(\.spec).filter { seen.insert($0).inserted }
    }

    /// The snoozes due in `(after, upTo]` of prayers neither deleted nor answered, oldest first.
    public func snoozes(after: Instant, upTo: Instant) throws(JournalError) -> [Snooze] {
        try reading {
            try database.withCachedStatement("""
                SELECT s.uuid, s.prayer_uuid, s.due_at FROM snoozes s JOIN prayers p ON p.uuid = s.prayer_uuid
                WHERE s.due_at > ?1 AND s.due_at <= ?2 AND p.deleted_at IS NULL AND p.answered_at IS NULL ORDER BY s.due_at
                """) { select in
                try select.bind(after, at: 1)
                try select.bind(upTo, at: 2)
                var found: [Snooze] = []
                while try select.step() {
                    try found.append(Snooze(uuid: select.string("uuid"), prayerUUID: select.string("prayer_uuid"), dueAt: select.int("due_at")))
                }
                return found
            }
        }
    }

    /// The instant up to which reminder occurrences have been handled, if a tick ever said so.
    public func remindersHandledThrough() throws(JournalError) -> Instant? {
        try reading {
            try database.withCachedStatement("SELECT instant FROM scheduler_marks WHERE name = 'reminders'") { select in
                try select.step() ? select.int(0) : nil
            }
        }
    }

    /// Records that every reminder occurrence up to `instant` has been handled.
    public func setRemindersHandled(through instant: Instant) throws(JournalError) {
        try writing {
            try database.withCachedStatement("""
                INSERT INTO scheduler_marks (name, instant) VALUES ('reminders', ?1)
                ON CONFLICT (name) DO UPDATE SET instant = excluded.instant
                """) { upsert in
                try upsert.bind(instant, at: 1)
                try upsert.run()
            }
        }
    }
}
