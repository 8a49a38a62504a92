// The timeline: today's and the coming days' verse, plan step and reminder times, each with the
// local instant its day starts, so a widget or prompt can flip at midnight with nothing running.
// Schema: docs/timeline.schema.json.

/// What one day shows.
public struct TimelineEntry: Equatable, Sendable {
    public let date: LocalDate
    /// The day's first instant, as the wall clock showed it (with the offset then in force).
    public let start: LocalDateTime
    public let verse: DailyVerse
    /// Each running plan's step for the day, in the order the plans were started.
    public let plans: [PlanStep]
    /// The first plan's step: what `plan` holds in the file, for readers from before plans ran
    /// side by side.
    public var plan: PlanStep? { plans.first }
    /// The times of the day's reminders: times only, never what a prayer says.
    public let reminders: [TimelineReminder]
}

/// A reading plan's step for one day.
public struct PlanStep: Equatable, Sendable {
    public let planID: String
    public let planName: String
    public let day: Int
    public let days: Int
    public let readings: [Reference]

    public init(planID: String, planName: String, day: Int, days: Int, readings: [Reference]) {
        self.planID = planID
        self.planName = planName
        self.day = day
        self.days = days
        self.readings = readings
    }

    /// "Day 12 of 365: Genesis 34-36".
    public var summary: String {
        "Day \(day) of \(days): " + readings.map(\.description).joined(separator: "; ")
    }
}

public struct TimelineReminder: Equatable, Sendable {
    public let time: LocalTime
    /// Which kind of notification comes at that time (`NotificationKind.timelineKind`).
    public let kind: Kind

    /// A notification kind's word in the file's `reminders` ("verse", "plan", "prayer"):
    /// widgets and docs/timeline.schema.json know these words, so a kind's never changes.
    public struct Kind: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
    }
}

/// What the timeline is built from: everything that decides its content.
public struct TimelineInputs {
    public let zone: Zone
    public let translation: Translation
    public let notifyAt: LocalTime?
    public let days: Int
    /// The running plans and their progress, in the order they were started.
    public let plans: [(plan: Plan, run: PlanRun)]
    /// Where each day's verse comes from (config `daily_source`).
    public let daily: DailySource
    /// The open prayers' reminders: their times go in each day's entry (never their text).
    public let prayerReminders: [ReminderSpec]

    public init(zone: Zone, translation: Translation, notifyAt: LocalTime?, days: Int, plans: [(plan: Plan, run: PlanRun)] = [],
                daily: DailySource = .curated, prayerReminders: [ReminderSpec] = []) {
        self.prayerReminders = prayerReminders
        self.zone = zone
        self.translation = translation
        self.notifyAt = notifyAt
        self.days = days
        self.plans = plans
        self.daily = daily
    }
}

public enum Timeline {
    public static let version = 1

    /// The entries for the local date of `now` and the following days.
    public static func entries(now: Instant, inputs: TimelineInputs, database: TextDatabase) throws(TextDatabaseError) -> [TimelineEntry] {
        let today = inputs.zone.local(now).date
        var entries: [TimelineEntry] = []
        for offset in 0..<inputs.days {
            let date = today.adding(days: offset)
            // Dates are written YYYY-MM-DD: the calendar Manna speaks ends with 9999.
            if date.year > 9999 { break }
            let start = inputs.zone.local(inputs.zone.startOfDay(date))
            let verse = try database.dailyVerse(for: date, in: inputs.translation, source: inputs.daily)
            let steps = inputs.plans.compactMap { $0.run.step(for: date, today: today, plan: $0.plan) }
            entries.append(TimelineEntry(date: date, start: start, verse: verse, plans: steps,
                                         reminders: reminders(on: date, inputs: inputs)))
        }
        return entries
    }

    /// The day's reminder times in order (and by kind at one time): each kind's that shows in
    /// the timeline (the verse unless `notify_at = off`, each plan's reading from day 1's date
    /// while it has days to read, each prayer reminder that comes that day), one entry per
    /// time and kind.
    static func reminders(on date: LocalDate, inputs: TimelineInputs) -> [TimelineReminder] {
        var reminders: [TimelineReminder] = []
        for kind in NotificationKinds.all {
            guard let word = kind.timelineKind else { continue }
            var seen: Set<LocalTime> = []
            reminders += kind.times(on: date, inputs: inputs).filter { seen.insert($0).inserted }.map { TimelineReminder(time: $0, kind: word) }
        }
        return reminders.sorted { ($0.time, $0.kind.rawValue) < ($1.time, $1.kind.rawValue) }
    }

    /// The timeline document. `generatedAt` is left out when nil, to compare content.
    public static func document(entries: [TimelineEntry], zone: Zone, generatedAt: LocalDateTime?) -> JSON {
        let last = entries.first.map { zone.local(zone.startOfDay($0.date.adding(days: 1))) }
        var fields: [(String, JSON)] = [("version", .int(version))]
        if let generatedAt { fields.append(("generated_at", .string(generatedAt.iso8601))) }
        fields += [
            ("time_zone", .string(zone.identifier)),
            ("policy", .object([("after", last.map { .string($0.iso8601) } ?? .null)])),
            ("entries", .array(entries.map(json))),
        ]
        return .object(fields)
    }

    static func json(_ entry: TimelineEntry) -> JSON {
        .object([
            ("date", .string(entry.date.description)),
            ("start", .string(entry.start.iso8601)),
            ("verse", .object([
                ("id", .int(entry.verse.id.rawValue)),
                ("reference", .string(entry.verse.label)),
                ("translation", .string(entry.verse.translation)),
                ("text", .string(entry.verse.text)),
            ])),
            ("plan", entry.plan.map(json) ?? .null),
            ("plans", .array(entry.plans.map(json))),
            ("reminders", .array(entry.reminders.map { .object([("time", .string($0.time.description)), ("kind", .string($0.kind.rawValue))]) })),
        ])
    }

    /// A plan's step as the file holds it: its name and readings within `Excerpt`'s bound
    /// (a plan of one's own can have a long name or a thousand readings a day; every prompt
    /// reads this file), "…" the last reading when some were left out.
    static func json(_ step: PlanStep) -> JSON {
        .object([
            ("id", .string(step.planID)),
            ("name", .string(Excerpt.of(step.planName))),
            ("day", .int(step.day)),
            ("days", .int(step.days)),
            ("readings", .array(Excerpt.of(step.readings.map(\.description), joinedBy: "; ").map(JSON.string))),
        ])
    }

    /// Writes the timeline to `path` when its content differs from the file there (the
    /// generation time aside), atomically: a reader sees the old file or the new, never a part.
    /// Returns true when it wrote.
    @discardableResult
    public static func write(entries: [TimelineEntry], zone: Zone, now: Instant, to path: String) throws(FileError) -> Bool {
        let content = document(entries: entries, zone: zone, generatedAt: nil)
        if let existing = try? Files.readText(path, followLinks: false), var old = try? JSON(parsing: existing), case .object(let pairs) = old {
            old = .object(pairs.filter { $0.0 != "generated_at" })
            if old == content { return false }
        }
        try Files.makeDirectories(Files.parent(of: path), mode: 0o700)
        let text = document(entries: entries, zone: zone, generatedAt: zone.local(now)).prettyText + "\n"
        // Manna's own cache: a link here is replaced, never written through.
        try Files.writeAtomically(text, to: path, mode: 0o644, link: .replace)
        return true
    }
}

/// The day a timeline file says to show now: what prompts and widgets print.
public struct ShownDay: Equatable, Sendable {
    public let date: String
    public let reference: String
    public let translation: String
    public let text: String
    /// "Day 12 of 365: Genesis 34-36", when a plan is running.
    public let plan: String?

    public init(date: String, reference: String, translation: String, text: String, plan: String?) {
        self.date = date
        self.reference = reference
        self.translation = translation
        self.text = text
        self.plan = plan
    }

    public init(_ entry: TimelineEntry) {
        self.init(date: entry.date.description, reference: entry.verse.label,
                  translation: entry.verse.translation, text: entry.verse.text, plan: entry.plan?.summary)
    }

    /// The entry of a timeline file to show at `now`: the last whose start has passed, if the
    /// file can vouch for it — written for `zone`, and `now` still inside that entry's day
    /// (before the next entry starts, or, for the last entry, less than 23 hours in: no day is
    /// shorter). Nil means: work it out from the databases instead.
    public static func fromTimeline(_ text: String, now: Instant, zone: String) -> ShownDay? {
        guard let root = try? JSON(parsing: text), root["version"]?.intValue == Timeline.version,
              root["time_zone"]?.stringValue == zone, let entries = root["entries"]?.arrayValue else { return nil }
        let starts = entries.map { $0["start"]?.stringValue.flatMap { Moment.parse($0, zone: .utc) } }
        guard let index = starts.lastIndex(where: { $0 != nil && $0! <= now }) else { return nil }
        let end = index + 1 < starts.count ? starts[index + 1] : starts[index].map { $0 + 23 * 3600 }
        guard let end, now < end else { return nil }
        let entry = entries[index]
        guard let date = entry["date"]?.stringValue, let verse = entry["verse"],
              let reference = verse["reference"]?.stringValue, let translation = verse["translation"]?.stringValue,
              let verseText = verse["text"]?.stringValue else { return nil }
        var plan: String?
        if let step = entry["plan"], let day = step["day"]?.intValue, let days = step["days"]?.intValue,
           let readings = step["readings"]?.arrayValue?.compactMap(\.stringValue) {
            plan = "Day \(day) of \(days): " + readings.joined(separator: "; ")
        }
        return ShownDay(date: date, reference: reference, translation: translation, text: verseText, plan: plan)
    }
}
