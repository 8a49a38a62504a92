import Foundation
import Testing
import TestSupport
@testable import MannaKit

/// The typed delivery model, over every kind in `NotificationKinds.all`: each has a due rule, a
/// text, a category, a name in the ledger and (but a snooze) a word in the timeline, and each of
/// these reads back as that kind. A kind added to the table is checked here without a new test.
@Suite struct NotificationKindTests {
    let newYork = try! Zone(identifier: "America/New_York")
    let day = LocalDate(year: 2026, month: 6, day: 1)
    /// 07:31 in New York: the verse, the plan and the prayer (07:30) are on time, the snooze
    /// (07:30:30) too.
    let now = Moment.parse("2026-06-01T11:31:00Z", zone: .utc)!
    let half = LocalTime(hour: 7, minute: 30)
    static let plan = try! Plan(json: #"{"format": 1, "id": "p", "name": "P", "description": "", "days": [{"day": 1, "readings": ["John 1"]}, {"day": 2, "readings": ["John 2"]}]}"#, file: "p")

    /// A day on which every kind has something due at `now`, in a journal of its own.
    func everyKindDue(in scratch: Scratch) throws -> (due: DueInputs, sources: NotificationSources, timeline: TimelineInputs) {
        let journal = try scratch.journal()
        let prayer = try journal.addPrayer(title: "For Mum", body: "She starts on Monday", tags: [],
                                           reminders: [try ReminderSpec(parsing: "07:30")], at: now - 86_400)
        try journal.addSnooze(prayerUUID: prayer.uuid, due: now - 30, at: now - 630)
        let database = BuiltTexts.database
        let run = PlanRun(uuid: "run", planID: "p", startedOn: day, scheduleStart: day, remindAt: half, daysRead: [:])
        let timeline = TimelineInputs(zone: newYork, translation: try database.translation(code: "KJV"), notifyAt: half, days: 1,
                                      plans: [(Self.plan, run)], prayerReminders: try journal.activeReminders().map(\.spec))
        let after = now - Scheduler.missedHorizon
        let due = DueInputs(now: now, zone: newYork, notifyAt: half, plans: [(Self.plan, run)], remindersAfter: after,
                            reminders: try journal.activeReminders(), snoozes: try journal.snoozes(after: after, upTo: now))
        return (due, NotificationSources(database: database, journal: journal, settings: timeline, manna: "/usr/bin/manna"), timeline)
    }

    @Test func everyKindHasADueRuleATextAndACategory() throws {
        let scratch = try Scratch()
        let (tick, sources, _) = try everyKindDue(in: scratch)
        for kind in NotificationKinds.all {
            let due = kind.due(tick)
            #expect(due.count == 1, "\(kind)")
            for item in due {
                // The subject is the kind's own type, and names the kind's ledger rows.
                #expect(type(of: item.subject) == kind)
                #expect(item.occurrence.kind == kind.ledgerKind)
                #expect(!item.late)
                let notification = try #require(try item.subject.notification(late: false, from: sources), "\(kind)")
                #expect(notification.category == kind.category)
                #expect(notification.category.rawValue.hasPrefix("x-manna."))
                #expect(!notification.summary.isEmpty)
                if let reminder = item.subject as? any ReminderKind {
                    #expect(try reminder.missedTitle(from: sources) == "For Mum")
                }
            }
        }
        // The tick's split: the daily kinds' on their own, the reminder kinds' oldest first.
        #expect(Scheduler.dailyDue(tick).map(\.occurrence.kind) == [.verse, .plan])
        #expect(Scheduler.remindersDue(tick).onTime.map(\.occurrence.kind) == [.prayer, .snooze])
    }

    /// What the tick reads to make a text is carried typed in `Due.subject`, never read back
    /// out of the ledger's label.
    @Test func aDueCarriesItsDataTyped() throws {
        let scratch = try Scratch()
        let (tick, _, _) = try everyKindDue(in: scratch)
        let verse = try #require(Scheduler.dailyDue(tick).first?.subject as? MorningVerse)
        #expect(verse == MorningVerse(date: day, time: half))
        let plan = try #require(Scheduler.dailyDue(tick).last?.subject as? PlanReminder)
        #expect(plan.run.uuid == "run" && plan.plan == Self.plan && plan.date == day)
        let reminders = Scheduler.remindersDue(tick).onTime
        let prayerUUID = try scratch.journal().activeReminders()[0].prayerUUID
        #expect((reminders[0].subject as? PrayerReminder)?.prayerUUID == prayerUUID)
        #expect((reminders[1].subject as? PrayerSnooze)?.prayerUUID == prayerUUID)
    }

    @Test func everyLedgerNameReadsBackAsItsKind() throws {
        let scratch = try Scratch()
        let (tick, sources, _) = try everyKindDue(in: scratch)
        #expect(Set(NotificationKinds.all.map { $0.ledgerKind }).count == NotificationKinds.all.count)
        let due = NotificationKinds.all.flatMap { $0.due(tick) }
        #expect(try sources.journal.claim(due.map { ($0.occurrence, $0.late) }, at: now) == due.map { _ in true })
        let claimed = try sources.journal.claimed(from: day.description)
        #expect(Set(claimed) == Set(due.map(\.occurrence)))
        #expect(Set(claimed.map(\.kind)) == Set(NotificationKinds.all.map { $0.ledgerKind }))
    }

    /// Each kind's word in the timeline is one the published schema allows, the schema allows
    /// no other, no two kinds share one, and the file written holds each kind's times under it.
    @Test func everyTimelineWordIsTheSchemasAndReadsBackAsItsKind() throws {
        let scratch = try Scratch()
        let (_, sources, inputs) = try everyKindDue(in: scratch)
        let words = NotificationKinds.all.compactMap { $0.timelineKind }
        #expect(Set(words).count == words.count)
        let schema = try JSON(parsing: try String(contentsOfFile: BuiltTexts.root + "/docs/timeline.schema.json", encoding: .utf8))
        let allowed = schema["properties"]?["entries"]?["items"]?["properties"]?["reminders"]?["items"]?["properties"]?["kind"]?["enum"]
        #expect(Set(try #require(allowed?.arrayValue).compactMap(\.stringValue)) == Set(words.map(\.rawValue)))

        let entries = try Timeline.entries(now: now, inputs: inputs, database: sources.database)
        let file = try JSON(parsing: Timeline.document(entries: entries, zone: newYork, generatedAt: nil).prettyText)
        let listed = try #require(file["entries"]?.arrayValue?.first?["reminders"]?.arrayValue).map { reminder in
            (time: reminder["time"]?.stringValue ?? "", word: reminder["kind"]?.stringValue ?? "")
        }
        for kind in NotificationKinds.all {
            let times = kind.times(on: day, inputs: inputs).map(\.description)
            guard let word = kind.timelineKind else {
                #expect(times.isEmpty, "\(kind) has times but no word for them")
                continue
            }
            #expect(!times.isEmpty, "\(kind)")
            #expect(listed.filter { $0.word == word.rawValue }.map(\.time) == times)
            let readBack = NotificationKinds.all.filter { $0.timelineKind?.rawValue == word.rawValue }
            #expect(readBack.count == 1 && readBack[0] == kind)
        }
    }
}
