// Reading-plan progress in the journal: the running plans (one run per plan id), days read,
// catch-up, stopping.
// What a run means (status, streaks, the step for a date) is Plans/PlanProgress.swift.

extension Journal {
    /// The running plans, in the order they were started: each plan id runs at most once.
    public func runningPlans() throws(JournalError) -> [PlanRun] {
        try reading {
            let statement = try database.prepare("""
                SELECT uuid, plan_id, started_on, schedule_start, remind_at FROM plan_runs
                WHERE stopped_at IS NULL AND deleted_at IS NULL ORDER BY created_at, uuid
                """)
            let read = try database.prepare("SELECT day, read_on FROM plan_days_read WHERE run_uuid = ?1")
            var runs: [PlanRun] = []
            while try statement.step() {
                let uuid = try statement.string("uuid")
                try read.reset()
                try read.bind(uuid, at: 1)
                var days: [Int: LocalDate] = [:]
                while try read.step() { days[try read.int("day")] = LocalDate(parsing: try read.string("read_on")) }
                guard let started = LocalDate(parsing: try statement.string("started_on")),
                      let schedule = LocalDate(parsing: try statement.string("schedule_start")) else {
                    throw JournalError.damaged(path: path)
                }
                runs.append(try PlanRun(uuid: uuid, planID: statement.string("plan_id"), startedOn: started, scheduleStart: schedule,
                                        remindAt: statement.optionalString("remind_at").flatMap(LocalTime.init(parsing:)), daysRead: days))
            }
            return runs
        }
    }

    /// Starts `planID` on `from` (day 1's date), beside any other running plans. Returns the
    /// new run; nil, changing nothing, when `planID` runs already (a run's start date and days
    /// read are the user's: they are never replaced without a word).
    @discardableResult
    public func startPlan(_ planID: String, from: LocalDate, today: LocalDate, remindAt: LocalTime?, now: Instant) throws(JournalError) -> PlanRun? {
        let uuid = Journal.newUUID()
        let started: Bool = try writing {
            let running = try database.prepare("SELECT 1 FROM plan_runs WHERE plan_id = ?1 AND stopped_at IS NULL AND deleted_at IS NULL")
            try running.bind(planID, at: 1)
            guard try !running.step() else { return false }
            let insert = try database.prepare("INSERT INTO plan_runs (uuid, plan_id, started_on, schedule_start, remind_at, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6)")
            try insert.bind(uuid, at: 1)
            try insert.bind(planID, at: 2)
            try insert.bind(today.description, at: 3)
            try insert.bind(from.description, at: 4)
            if let remindAt { try insert.bind(remindAt.description, at: 5) } else { try insert.bindNull(at: 5) }
            try insert.bind(now, at: 6)
            try insert.run()
            return true
        }
        guard started else { return nil }
        return PlanRun(uuid: uuid, planID: planID, startedOn: today, scheduleStart: from, remindAt: remindAt, daysRead: [:])
    }

    /// Marks `day` of a running plan read on `today` (again: keeps the first date).
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

    /// Marks `day` of a running plan unread again (`plan undo`); false when it was not read.
    public func markUnread(day: Int, of run: PlanRun, now: Instant) throws(JournalError) -> Bool {
        try writing {
            let delete = try database.prepare("DELETE FROM plan_days_read WHERE run_uuid = ?1 AND day = ?2")
            try delete.bind(run.uuid, at: 1)
            try delete.bind(day, at: 2)
            try delete.run()
            guard database.changes > 0 else { return false }
            try touch(run, now: now)
            return true
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
