import Foundation
import Testing
import TestSupport
@testable import MannaKit

@Suite struct SchedulerTests {
    let newYork = try! Zone(identifier: "America/New_York")
    func at(_ text: String) -> Instant { Moment.parse(text, zone: .utc)! }

    @Test func theMorningVerseIsDueFromItsTimeUntilTheDayEnds() {
        let seven = LocalTime(hour: 7, minute: 0)
        #expect(MorningVerse.due(now: at("2026-03-08T10:59:59Z"), zone: newYork, at: seven) == nil)
        let onTime = MorningVerse.due(now: at("2026-03-08T11:00:00Z"), zone: newYork, at: seven)
        #expect(onTime?.occurrence == Journal.Occurrence(kind: .verse, key: "", label: "2026-03-08"))
        #expect(onTime?.late == false)
        // Asleep through 07:00, woken at 15:00 local: shown once, marked late.
        let late = MorningVerse.due(now: at("2026-03-08T19:00:00Z"), zone: newYork, at: seven)
        #expect(late?.late == true && late?.occurrence.label == "2026-03-08")
        // Past midnight the next day's occurrence is not due before its time, and yesterday's is gone.
        #expect(MorningVerse.due(now: at("2026-03-09T05:00:00Z"), zone: newYork, at: seven) == nil)
    }

    @Test func aTimeThatDoesNotExistIsDueAtTheFirstInstantAfterIt() {
        let twoThirty = LocalTime(hour: 2, minute: 30)
        #expect(MorningVerse.due(now: at("2026-03-08T06:59:59Z"), zone: newYork, at: twoThirty) == nil)
        #expect(MorningVerse.due(now: at("2026-03-08T07:00:00Z"), zone: newYork, at: twoThirty)?.late == false)
    }

    @Test func eachOccurrenceIsShownExactlyOnceAcrossTicksAndProcesses() throws {
        let scratch = try Scratch()
        let path = scratch.path()
        let due = MorningVerse.due(now: at("2026-03-08T12:00:00Z"), zone: newYork, at: LocalTime(hour: 7, minute: 0))!
        var shown = 0
        // The server is down: the claim is given back.
        let first = try Scheduler.deliver([due], journal: try Journal(path: path), now: 1) { _ in .notShown("no server") }
        #expect(first == [.failed(due, reason: "no server")])
        // Then it is up: shown once, and never again by any later tick (a new connection each).
        for _ in 0..<5 {
            _ = try Scheduler.deliver([due], journal: try Journal(path: path), now: 2) { _ in shown += 1; return .shown }
        }
        #expect(shown == 1)
        // Threads racing, each with its own connection, as separate processes would.
        let other = MorningVerse.due(now: at("2026-03-09T12:00:00Z"), zone: newYork, at: LocalTime(hour: 7, minute: 0))!
        let counter = Counter()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let journal = try! Journal(path: path)
            _ = try! Scheduler.deliver([other], journal: journal, now: 3) { _ in counter.increment(); return .shown }
        }
        #expect(counter.value == 1)
    }

    /// A tick that dies between claiming and showing (kill -9, logout, the unit's timeout)
    /// leaves a claim without `shown_at`: while its holder lives it is that tick's, on any later
    /// clock; once the holder is gone, the next tick takes it over, on any earlier clock, and
    /// shows it once.
    @Test func aClaimLeftUnshownIsTakenOverOnlyWhenItsHolderIsGone() throws {
        let scratch = try Scratch()
        let due = MorningVerse.due(now: at("2026-03-08T12:00:00Z"), zone: newYork, at: LocalTime(hour: 7, minute: 0))!
        let claimedAt = at("2026-03-08T12:00:00Z")
        var holder: Journal? = try Journal(path: scratch.path())
        #expect(try holder!.claim(due.occurrence, at: claimedAt, late: false))  // and then that tick stalls
        var shown = 0
        let journal = try Journal(path: scratch.path())
        for later in [60, 3600, 86_400] {
            let outcome = try Scheduler.deliver([due], journal: journal, now: claimedAt + later) { _ in shown += 1; return .shown }
            #expect(outcome == [.alreadyClaimed(due)] && shown == 0, "\(later) s later")
        }
        holder = nil  // the tick dies: the kernel lets go of its lock
        let earlier = try Scheduler.deliver([due], journal: journal, now: claimedAt - 3600) { _ in shown += 1; return .shown }
        #expect(earlier == [.shown(due)] && shown == 1)
        for minute in 2...5 {
            _ = try Scheduler.deliver([due], journal: try Journal(path: scratch.path()), now: claimedAt + 60 * minute) { _ in shown += 1; return .shown }
        }
        #expect(shown == 1)
    }

    /// Handed to a server that did not confirm it (slow, not dead): recorded as shown, so no
    /// later tick sends it again.
    @Test func anUnconfirmedNotificationIsNeverSentAgain() throws {
        let scratch = try Scratch()
        let journal = try Journal(path: scratch.path())
        let due = MorningVerse.due(now: at("2026-03-08T12:00:00Z"), zone: newYork, at: LocalTime(hour: 7, minute: 0))!
        let first = try Scheduler.deliver([due], journal: journal, now: at("2026-03-08T12:00:00Z")) { _ in .unconfirmed("slow") }
        #expect(first == [.unconfirmed(due, reason: "slow")])
        for minute in 1...5 {
            let again = try Scheduler.deliver([due], journal: journal, now: at("2026-03-08T12:00:00Z") + 60 * minute) { _ in
                Issue.record("sent again")
                return .shown
            }
            #expect(again == [.alreadyClaimed(due)])
        }
    }

    @Test func theJournalIsPrivateAndVersioned() throws {
        let scratch = try Scratch()
        let path = scratch.file("data/manna/journal.sqlite")
        let journal = try Journal(path: path)
        #expect(journal.schemaVersion == Journal.migrations.count)
        let fileMode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        let folderMode = try FileManager.default.attributesOfItem(atPath: scratch.file("data/manna"))[.posixPermissions] as? Int
        #expect(fileMode == 0o600)
        #expect(folderMode == 0o700)
    }

    @Test func aDamagedJournalIsReportedAndLeftUntouched() throws {
        let scratch = try Scratch()
        let path = scratch.file("journal.sqlite")
        let garbage = Data(repeating: 0x5A, count: 8192)
        try garbage.write(to: URL(fileURLWithPath: path))
        #expect(throws: JournalError.damaged(path: path)) { try Journal(path: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)
    }
}
