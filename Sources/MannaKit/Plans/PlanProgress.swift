// Where a reading plan stands: a run, its status on a date (days read, behind, the streak) and
// the step for a date; the journal's queries are Journal/Journal+Plans.swift. Everything is in
// local dates, so travelling across time zones never breaks a streak.

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

    /// The share read, in whole percent rounded down, except that a start is never 0%:
    /// "0%", "under 1%", "2%", … "99%", "100%" (only when every day is read).
    public var percentRead: String {
        let percent = days == 0 ? 0 : daysRead * 100 / days
        return percent == 0 && daysRead > 0 ? "under 1%" : "\(percent)%"
    }
}

public enum PlanProgressError: Error, Equatable, Sendable {
    case noRunningPlan
    /// Several plans run and the command acts on one: which? (`example` shows how to say it.)
    case whichPlan(running: [String], example: String)
    /// The plan named is not one of those running.
    case notRunning(String, running: [String])
    /// `plan start` of a plan that runs already: its start date and days read stay.
    case alreadyRunning(String, name: String, startedOn: LocalDate)
    case noSuchDay(Int, days: Int)
    /// No plan with this id; `closest` is one spelled nearly so.
    case unknownPlan(String, closest: String? = nil)

    public var message: String {
        switch self {
        case .noRunningPlan: tr("no plan is running: start one with 'manna plan start PLAN' (see 'manna plan list')")
        case .whichPlan(let running, let example):
            trn("{count} plan is running ({plans}): name one, like '{example}'", "{count} plans are running ({plans}): name one, like '{example}'", count: running.count,
                ("plans", running.joined(separator: ", ")), ("example", example))
        case .notRunning(let id, let running):
            tr("'{id}' is not a running plan; ", ("id", id))
                + (running.isEmpty ? tr("none is running") : tr("running: {plans}", ("plans", running.joined(separator: ", "))))
        case .alreadyRunning(let id, let name, let startedOn):
            tr("{name} is running already (started {date}); to begin it again, stop it first with 'manna plan stop {id}'",
               ("name", name), ("date", Messages.current.date(startedOn)), ("id", id))
        case .noSuchDay(let day, let days): tr("there is no day {day}: the plan has days 1 to {days}", ("day", day), ("days", days))
        case .unknownPlan(let id, let closest):
            tr("no plan called '{id}'", ("id", id)) + (closest.map { tr("; did you mean '{name}'?", ("name", $0)) } ?? tr(": see 'manna plan list'"))
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

    /// Whether the plan has a reading to remind of on `date`: day 1's date has come, and a day
    /// is left unread.
    public func hasReading(on date: LocalDate, days: Int) -> Bool {
        date >= scheduleStart && status(days: days, today: date).nextUnread != nil
    }

    /// The step to show for `date`: the next unread day on today (or on day 1's date, when that
    /// is later), the ones after it on the following dates (as if one day is read per date).
    /// Nil before then and past the plan's end.
    public func step(for date: LocalDate, today: LocalDate, plan: Plan) -> PlanStep? {
        let first = max(today, scheduleStart)
        guard date >= first, let next = status(days: plan.days.count, today: today).nextUnread else { return nil }
        let day = next + (date.dayNumber - first.dayNumber)
        guard day >= 1 && day <= plan.days.count else { return nil }
        return PlanStep(planID: plan.id, planName: plan.name, day: day, days: plan.days.count, readings: plan.days[day - 1])
    }
}
