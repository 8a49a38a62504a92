// A reading plan's reminder: each running plan with a reminder time, once a local day while it
// has a day to read.

/// A plan's reminder to read on one local date.
public struct PlanReminder: NotificationKind {
    public let plan: Plan
    public let run: PlanRun
    /// The local date whose reading it is.
    public let date: LocalDate

    public static let ledgerKind = OccurrenceKind.plan
    public static let category = DesktopNotification.Category.plan
    public static let timelineKind: TimelineReminder.Kind? = .plan

    /// Each running plan's reminder (each has its own, keyed by its run).
    public static func due(_ tick: DueInputs) -> [Due] {
        tick.plans.compactMap { due(now: tick.now, zone: tick.zone, run: $0.run, plan: $0.plan) }
    }

    /// A plan's reminder, at its time on a day when the plan has begun, nothing of it has been
    /// read yet and a day is left to read; the same rules as the morning verse otherwise.
    public static func due(now: Instant, zone: Zone, run: PlanRun, plan: Plan) -> Due? {
        guard let time = run.remindAt else { return nil }
        let today = zone.local(now).date
        guard run.hasReading(on: today, days: plan.days.count), !run.daysRead.values.contains(today) else { return nil }
        return Scheduler.daily(now: now, zone: zone, at: time) { PlanReminder(plan: plan, run: run, date: $0) }
    }

    /// The running plans' reminder times, on a date from day 1's on while a day is left to read.
    public static func times(on date: LocalDate, inputs: TimelineInputs) -> [LocalTime] {
        inputs.plans.compactMap { plan, run in run.hasReading(on: date, days: plan.days.count) ? run.remindAt : nil }
    }

    /// The plan run's UUID: each running plan has its own reminder.
    public var ledgerKey: String { run.uuid }
    public var ledgerLabel: String { date.description }

    /// "The New Testament in 90 Days: day 12 of 90" over the day's readings; nothing when no
    /// step is left on that date (the plan is read to its end).
    public func notification(late: Bool, from sources: NotificationSources) throws(TextUnavailable) -> DesktopNotification? {
        guard let step = run.step(for: date, today: date, plan: plan) else { return nil }
        // The name cut first, so a long one leaves the day in the summary; the readings cut
        // between two, so a day of a thousand names its first and "…".
        return DesktopNotification(summary: Excerpt.of(plan.name, characters: 100) + ": " + tr("day {day} of {days}", ("day", step.day), ("days", step.days)),
                                   body: Excerpt.of(step.readings.map { $0.label(in: sources.settings.translation.language) }, joinedBy: "; ").joined(separator: "; "),
                                   category: Self.category)
    }
}

extension OccurrenceKind {
    /// A reading plan's reminder of one local date (key: the plan run's UUID).
    public static let plan = OccurrenceKind(rawValue: "plan")
}

extension DesktopNotification.Category {
    /// A reading plan's daily reminder.
    public static let plan = DesktopNotification.Category(rawValue: "x-manna.plan")
}

extension TimelineReminder.Kind {
    /// A reading plan's reminder (the panel calls it "reading").
    public static let plan = TimelineReminder.Kind(rawValue: "plan")
}
