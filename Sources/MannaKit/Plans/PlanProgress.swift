// Reading-plan progress in the journal: the running plan, the days read, catching up, streaks.
// Everything is in local dates, so travelling across time zones never breaks a streak.

/// A plan the user started, as the journal records it.
public struct PlanRun: Equatable, Sendable {
    public let uuid: String
    public let planID: String
    /// The local date the user started.
    public let startedOn: LocalDate
    /// The local date of day 1 as now scheduled (catch-up moves it later).
    public let scheduleStart: LocalDate
    /// An optional daily reminder to read.
    public let remindAt: LocalTime?
    /// The plan's days marked read, and the local date each was marked.
    public let daysRead: [Int: LocalDate]
}

/// Where the user stands in a plan on a date.
public struct PlanStatus: Equatable, Sendable {
    public let days: Int
    public let daysRead: Int
    /// The first day not read yet; nil when every day is read.
    public let nextUnread: Int?
    /// The day the schedule says is for today (can be before 1 or past the end).
    public let scheduledDay: Int
    /// Scheduled days before today's that are not read.
    public let behind: Int
    /// Consecutive local dates, ending today (or yesterday, if today has none yet), with a reading.
    public let streak: Int

    public var percent: Int { days == 0 ? 0 : daysRead * 100 / days }
}

public enum PlanProgressError: Error, Equatable, Sendable {
    case noRunningPlan
    case noSuchDay(Int, days: Int)
    case unknownPlan(String)

    public var message: String {
        switch self {
        case .noRunningPlan: "no plan is running: start one with 'manna plan start PLAN' (see 'manna plan list')"
        case .noSuchDay(let day, let days): "there is no day \(day): the plan has days 1 to \(days)"
        case .unknownPlan(let id): "no plan called '\(id)': see 'manna plan list'"
        }
    }
}

extension PlanRun {
    /// The status on `today` for a plan of `days` days.
    public func status(days: Int, today: LocalDate) -> PlanStatus {
        let nextUnread = days < 1 ? nil : (1...days).first { daysRead[$0] == nil }
        let scheduled = today.dayNumber - scheduleStart.dayNumber + 1
        let dueBeforeToday = min(max(scheduled - 1, 0), days)
        let behind = dueBeforeToday < 1 ? 0 : (1...dueBeforeToday).filter { daysRead[$0] == nil }.count
        return PlanStatus(days: days, daysRead: daysRead.count, nextUnread: nextUnread, scheduledDay: scheduled,
                          behind: behind, streak: PlanRun.streak(Set(daysRead.values), today: today))
    }

    /// Days in a row with a reading, counted back from today (or from yesterday, so that a
    /// streak is not broken before the day is over).
    static func streak(_ dates: Set<LocalDate>, today: LocalDate) -> Int {
        var day = dates.contains(today) ? today : today.adding(days: -1)
        var count = 0
        while dates.contains(day) {
            count += 1
            day = day.adding(days: -1)
        }
        return count
    }

    /// The step to show for `date`: the next unread day on today, the ones after it on the
    /// following dates (as if one day is read per date). Nil past the plan's end.
    public func step(for date: LocalDate, today: LocalDate, plan: Plan) -> PlanStep? {
        guard date >= today, let next = status(days: plan.days.count, today: today).nextUnread else { return nil }
        let day = next + (date.dayNumber - today.dayNumber)
        guard day >= 1 && day <= plan.days.count else { return nil }
        return PlanStep(planID: plan.id, planName: plan.name, day: day, days: plan.days.count, readings: plan.days[day - 1])
    }
}

extension Journal {
    /// The running plan, if any.
    public func runningPlan() throws(JournalError) -> PlanRun? {
        try reading {
            let statement = try database.prepare("""
                SELECT uuid, plan_id, started_on, schedule_start, remind_at FROM plan_runs
                WHERE stopped_at IS NULL AND deleted_at IS NULL ORDER BY created_at DESC LIMIT 1
                """)
            guard try statement.step() else { return nil }
            let uuid = try statement.string("uuid")
            let read = try database.prepare("SELECT day, read_on FROM plan_days_read WHERE run_uuid = ?1")
            try read.bind(uuid, at: 1)
            var days: [Int: LocalDate] = [:]
            while try read.step() { days[try read.int("day")] = LocalDate(parsing: try read.string("read_on")) }
            guard let started = LocalDate(parsing: try statement.string("started_on")),
                  let schedule = LocalDate(parsing: try statement.string("schedule_start")) else {
                throw JournalError.damaged(path: path)
            }
            return try PlanRun(uuid: uuid, planID: statement.string("plan_id"), startedOn: started, scheduleStart: schedule,
                               remindAt: statement.optionalString("remind_at").flatMap(LocalTime.init(parsing:)), daysRead: days)
        }
    }

    /// True when any plan was ever started (running or stopped).
    public func hasPlanRuns() throws(JournalError) -> Bool {
        try reading { try database.prepare("SELECT 1 FROM plan_runs LIMIT 1").step() }
    }

    /// Starts `planID` on `from` (day 1's date), stopping any running plan. Returns the new run.
    @discardableResult
    public func startPlan(_ planID: String, from: LocalDate, today: LocalDate, remindAt: LocalTime?, now: Instant) throws(JournalError) -> PlanRun {
        let uuid = Journal.newUUID()
        try writing {
            let stop = try database.prepare("UPDATE plan_runs SET stopped_at = ?1, updated_at = ?1 WHERE stopped_at IS NULL")
            try stop.bind(now, at: 1)
            try stop.run()
            let insert = try database.prepare("INSERT INTO plan_runs (uuid, plan_id, started_on, schedule_start, remind_at, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6)")
            try insert.bind(uuid, at: 1)
            try insert.bind(planID, at: 2)
            try insert.bind(today.description, at: 3)
            try insert.bind(from.description, at: 4)
            if let remindAt { try insert.bind(remindAt.description, at: 5) } else { try insert.bindNull(at: 5) }
            try insert.bind(now, at: 6)
            try insert.run()
        }
        return PlanRun(uuid: uuid, planID: planID, startedOn: today, scheduleStart: from, remindAt: remindAt, daysRead: [:])
    }

    /// Marks `day` of the running plan read on `today` (again: keeps the first date).
    public func markRead(day: Int, of run: PlanRun, today: LocalDate, now: Instant) throws(JournalError) {
        try writing {
            let insert = try database.prepare("INSERT OR IGNORE INTO plan_days_read VALUES (?1, ?2, ?3, ?4)")
            try insert.bind(run.uuid, at: 1)
            try insert.bind(day, at: 2)
            try insert.bind(today.description, at: 3)
            try insert.bind(now, at: 4)
            try insert.run()
            try touch(run, now: now)
        }
    }

    /// Moves the schedule so that the next unread day falls on `today`.
    public func catchUp(_ run: PlanRun, nextUnread: Int, today: LocalDate, now: Instant) throws(JournalError) {
        try update(run, now: now, set: "schedule_start = ?2", today.adding(days: 1 - nextUnread).description)
    }

    /// Sets or clears the daily reading reminder.
    public func setPlanReminder(_ run: PlanRun, at time: LocalTime?, now: Instant) throws(JournalError) {
        try update(run, now: now, set: "remind_at = ?2", time?.description)
    }

    public func stopPlan(_ run: PlanRun, now: Instant) throws(JournalError) {
        try writing {
            let stop = try database.prepare("UPDATE plan_runs SET stopped_at = ?1, updated_at = ?1 WHERE uuid = ?2")
            try stop.bind(now, at: 1)
            try stop.bind(run.uuid, at: 2)
            try stop.run()
        }
    }

    private func update(_ run: PlanRun, now: Instant, set assignment: String, _ value: String?) throws(JournalError) {
        try writing {
            let statement = try database.prepare("UPDATE plan_runs SET \(assignment), updated_at = ?3 WHERE uuid = ?1")
            try statement.bind(run.uuid, at: 1)
            if let value { try statement.bind(value, at: 2) } else { try statement.bindNull(at: 2) }
            try statement.bind(now, at: 3)
            try statement.run()
        }
    }

    private func touch(_ run: PlanRun, now: Instant) throws {
        let statement = try database.prepare("UPDATE plan_runs SET updated_at = ?1 WHERE uuid = ?2")
        try statement.bind(now, at: 1)
        try statement.bind(run.uuid, at: 2)
        try statement.run()
    }
}
