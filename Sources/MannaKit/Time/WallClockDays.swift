// Many wall-clock times on a few dates, resolved exactly as `Zone.firstInstant(on:at:)` does,
// at a fraction of its cost: a tick checks every prayer reminder every minute.

/// Resolves wall-clock times on a few dates in one zone, caching what it learns per date.
///
/// `Zone.firstInstant(on:at:)` asks glibc four times per time. On a date with no clock change
/// (nearly every date), every time is the date's first instant plus its minutes, so one
/// look-up per date serves all the reminders of that date; a date with a change goes through
/// `firstInstant` time by time.
public final class WallClockDays {
    public let zone: Zone
    /// (day number, first instant, true when no clock change falls in the date).
    private var days: [(dayNumber: Int, start: Instant, regular: Bool)] = []

    public init(zone: Zone) { self.zone = zone }

    /// The instant `zone.firstInstant(on: date, at: time)`.
    public func instant(on date: LocalDate, at time: LocalTime) -> Instant {
        let day = self.day(date)
        return day.regular ? day.start + time.minutesSinceMidnight * 60 : zone.firstInstant(on: date, at: time)
    }

    private func day(_ date: LocalDate) -> (dayNumber: Int, start: Instant, regular: Bool) {
        let number = date.dayNumber
        if let known = days.first(where: { $0.dayNumber == number }) { return known }
        let start = zone.startOfDay(date)
        let end = zone.startOfDay(date.adding(days: 1))
        let first = zone.local(start)
        // 24 hours from a midnight that exists, with the same offset at both ends: no change
        // inside. (Two changes that cancel within one date would fool this; no zone has one.)
        let regular = end - start == 86_400 && first.hour == 0 && first.minute == 0 && first.second == 0
            && first.offset == zone.local(end - 1).offset
        let day = (dayNumber: number, start: start, regular: regular)
        days.append(day)
        return day
    }
}
