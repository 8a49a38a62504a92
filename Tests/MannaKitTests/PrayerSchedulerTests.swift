import Foundation
import Testing
import TestSupport
@testable import MannaKit

/// The scheduler's prayer reminders: the window a tick looks at, on time against missed,
/// snoozes, the "While you were away" text, and claiming a group once.
@Suite struct PrayerSchedulerTests {
    let newYork = try! Zone(identifier: "America/New_York")
    func at(_ text: String) -> Instant { Moment.parse(text, zone: .utc)! }

    func reminder(_ spec: String, uuid: String = "r", prayer: String = "p", created: Instant = 0) throws -> ActiveReminder {
        ActiveReminder(uuid: uuid, prayerUUID: prayer, spec: try ReminderSpec(parsing: spec), since: created)
    }

    /// The reminder kinds' occurrences due in (after, now].
    func remindersDue(_ reminders: [ActiveReminder], snoozes: [Snooze], after: Instant, now: Instant, zone: Zone) -> RemindersDue {
        Scheduler.remindersDue(DueInputs(now: now, zone: zone, remindersAfter: after, reminders: reminders, snoozes: snoozes))
    }

    @Test func theWindowRunsFromTheMarkButNeverMoreThanADay() {
        let now = at("2026-03-08T12:00:00Z")
        #expect(Scheduler.reminderWindow(handledThrough: nil, now: now) == (now - 86_400, now))
        #expect(Scheduler.reminderWindow(handledThrough: now - 60, now: now) == (now - 60, now))
        #expect(Scheduler.reminderWindow(handledThrough: now - 3 * 86_400, now: now) == (now - 86_400, now))
        // The clock was set back: the last day, and the ledger keeps what was shown from showing again.
        #expect(Scheduler.reminderWindow(handledThrough: now + 3600, now: now) == (now - 86_400, now))
    }

    @Test func dueWithinTwoMinutesIsOnTimeEarlierIsMissed() throws {
        let now = at("2026-06-01T11:31:00Z")  // 07:31 in New York
        let due = remindersDue([try reminder("07:30", uuid: "a"), try reminder("06:00", uuid: "b"), try reminder("12:00", uuid: "c")],
                                            snoozes: [], after: now - 86_400, now: now, zone: newYork)
        #expect(due.onTime.map(\.occurrence) == [Journal.Occurrence(kind: .prayer, key: "a", label: "2026-06-01 07:30")])
        #expect(due.onTime[0].scheduled == at("2026-06-01T11:30:00Z"))
        // Missed, oldest first: yesterday's 12:00, then this morning's 06:00.
        #expect(due.missed.map(\.occurrence.label) == ["2026-05-31 12:00", "2026-06-01 06:00"])
        #expect(due.missed.allSatisfy { $0.late && ($0.subject as? PrayerReminder)?.prayerUUID == "p" })
    }

    @Test func occurrencesBeforeAReminderWasAddedAreNotDue() throws {
        let now = at("2026-06-01T16:00:00Z")  // 12:00 in New York
        let added = at("2026-06-01T15:00:00Z")  // added at 11:00
        let due = remindersDue([try reminder("07:30", created: added), try reminder("11:30", uuid: "s", created: added)],
                                            snoozes: [], after: now - 86_400, now: now, zone: newYork)
        #expect(due.onTime.isEmpty)
        #expect(due.missed.map(\.occurrence.label) == ["2026-06-01 11:30"])
    }

    @Test func aSnoozeIsAOneOffOccurrence() throws {
        let now = at("2026-06-01T11:40:00Z")
        let snoozes = [Snooze(uuid: "s1", prayerUUID: "p1", dueAt: now - 30), Snooze(uuid: "s2", prayerUUID: "p2", dueAt: now + 60)]
        let due = remindersDue([], snoozes: snoozes, after: now - 60, now: now, zone: newYork)
        #expect(due.onTime == [Due(subject: PrayerSnooze(snoozeUUID: "s1", prayerUUID: "p1", dueAt: newYork.local(now - 30)),
                                   scheduled: now - 30, late: false)])
        #expect(due.onTime.map(\.occurrence) == [Journal.Occurrence(kind: .snooze, key: "s1", label: "2026-06-01 07:39")])
        #expect(due.missed.isEmpty)
    }

    @Test func whileYouWereAwayNamesFiveAndCountsTheRest() {
        let now = at("2026-06-04T16:00:00Z")  // 12:00 in New York
        let missed = (0..<7).map { (title: "Prayer <\($0)>\n", due: now - 86_000 + $0 * 3600) }
        let notification = DesktopNotification(missed: missed, now: now, zone: newYork)
        #expect(notification.summary == "While you were away")
        #expect(notification.body == """
            Prayer <0>  (yesterday 12:06)
            Prayer <1>  (yesterday 13:06)
            Prayer <2>  (yesterday 14:06)
            Prayer <3>  (yesterday 15:06)
            Prayer <4>  (yesterday 16:06)
            and 2 more
            """)
        #expect(notification.category.rawValue == "x-manna.prayer")
        #expect(notification.actions.isEmpty)
        let one = DesktopNotification(missed: [(title: "For Mum", due: now - 600)], now: now, zone: newYork)
        #expect(one.body == "For Mum (11:50)")
    }

    @Test func aGroupIsClaimedOnceAndGivenBackWhenItCannotBeShown() throws {
        let scratch = try Scratch()
        let path = scratch.path()
        let now = at("2026-06-04T16:00:00Z")
        let due = remindersDue([try reminder("07:00", uuid: "a"), try reminder("08:00", uuid: "b")],
                                            snoozes: [], after: now - 86_400, now: now, zone: newYork).missed
        #expect(due.count == 2)
        let failed = try Scheduler.deliverTogether(due, journal: try Journal(path: path), now: now) { _ in .notShown("no server") }
        #expect(failed == due.map { .failed($0, reason: "no server") })
        let counter = Counter()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            let journal = try! Journal(path: path)
            _ = try! Scheduler.deliverTogether(due, journal: journal, now: now) { items in
                #expect(items.count == 2)
                counter.increment()
                return .shown
            }
        }
        #expect(counter.value == 1)
        let again = try Scheduler.deliverTogether(due, journal: try Journal(path: path), now: now) { _ in
            Issue.record("shown twice")
            return .shown
        }
        #expect(again == due.map(DeliveryOutcome.alreadyClaimed))
    }
}
