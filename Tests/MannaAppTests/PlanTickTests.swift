// The reading plans in the tick: each running plan's reminder, from the date its day 1 is on.
import Foundation
import MannaKit
import Testing

@testable import MannaApp

@Suite struct PlanTickTests {
    /// Two plans with reminders: each comes at its own time, once, and reading one plan does
    /// not silence the other's.
    @Test func eachRunningPlanHasItsOwnReminder() throws {
        let home = try TestHome(zone: "America/New_York", config: "notify_at = off\n")
        #expect(home.run("plan", "start", "bible-in-a-year", "--remind", "20:00", "--now", "2026-11-01T08:00").status == 0)
        #expect(home.run("plan", "start", "nt-90", "--remind", "20:00", "--now", "2026-11-01T08:01").status == 0)
        home.tick("2026-11-01T20:00")
        home.tick("2026-11-01T20:01")
        #expect(home.notifier.lines == ["The Bible in a Year: day 1 of 365 | Genesis 1-3", "The New Testament in 90 Days: day 1 of 90 | Matthew 1-4"])
        #expect(home.run("plan", "done", "nt-90", "--now", "2026-11-02T12:00").status == 0)
        home.tick("2026-11-02T20:00")
        #expect(home.notifier.lines.last == "The Bible in a Year: day 1 of 365 | Genesis 1-3")
        #expect(home.notifier.shown.count == 3)
    }

    /// A plan set to begin later reminds of nothing before day 1's date, then of day 1.
    @Test func aFutureStartRemindsFromItsFirstDay() throws {
        let home = try TestHome(zone: "Europe/London", config: "notify_at = off\n")
        #expect(home.run("plan", "start", "nt-90", "--from", "2027-01-01", "--remind", "07:00", "--now", "2026-12-30T06:00").status == 0)
        home.tick("2026-12-30T07:00")
        home.tick("2026-12-31T07:00")
        #expect(home.notifier.shown.isEmpty)
        home.tick("2027-01-01T07:00")
        #expect(home.notifier.lines == ["The New Testament in 90 Days: day 1 of 90 | Matthew 1-4"])
    }
}
