import Testing
@testable import MannaKit

/// Reminder SPECs: every form, its canonical text, its errors word for word, and its
/// occurrences, DST days included.
@Suite struct ReminderSpecTests {
    @Test(arguments: [
        ("07:30", "07:30"),
        ("7:30", "07:30"),
        ("  DAILY   07:30 ", "07:30"),
        ("mon,wed,fri 21:00", "mon,wed,fri 21:00"),
        ("Fri, Mon,  wednesday 21:00", "mon,wed,fri 21:00"),
        ("MONDAYS thursdays 06:05", "mon,thu 06:05"),
        ("tues,thurs 06:05", "tue,thu 06:05"),
        ("weekdays 12:15", "weekdays 12:15"),
        ("mon-fri 12:15", "weekdays 12:15"),
        ("mon,tue,wed,thu,fri 12:15", "weekdays 12:15"),
        ("weekends 10:00", "weekends 10:00"),
        ("sat,sun 10:00", "weekends 10:00"),
        ("fri-mon 22:00", "mon,fri,sat,sun 22:00"),
        ("weekdays,weekends 05:00", "05:00"),
        ("Sun 09:00", "sun 09:00"),
        ("sunday 09:00", "sun 09:00"),
        ("1st 08:00", "1st 08:00"),
        ("2nd 08:00", "2nd 08:00"),
        ("3rd 08:00", "3rd 08:00"),
        ("4th 08:00", "4th 08:00"),
        ("11th 08:00", "11th 08:00"),
        ("12th 08:00", "12th 08:00"),
        ("13th 08:00", "13th 08:00"),
        ("21st 08:00", "21st 08:00"),
        ("22nd 08:00", "22nd 08:00"),
        ("23rd 08:00", "23rd 08:00"),
        ("31ST 23:59", "31st 23:59"),
        ("2027-05-01 18:00", "2027-05-01 18:00"),
        ("2028-02-29 00:00", "2028-02-29 00:00"),
    ])
    func everyFormHasOneCanonicalText(typed: String, canonical: String) throws {
        let spec = try ReminderSpec(parsing: typed)
        #expect(spec.description == canonical)
        // The canonical text is what the journal stores: it reads back as the same SPEC.
        #expect(try ReminderSpec(parsing: canonical) == spec)
    }

    static let forms = "write it like 07:30 (daily), mon,wed,fri 21:00, weekdays 12:15, weekends 10:00, 1st 08:00 (monthly, 1st to 31st) or 2027-05-01 18:00 (once)"

    @Test(arguments: [
        ("", "reminder '': nothing given"),
        ("   ", "reminder '': nothing given"),
        ("mon", "reminder 'mon': no time of day at the end (HH:MM, 24-hour)"),
        ("21:00 mon", "reminder '21:00 mon': no time of day at the end (HH:MM, 24-hour)"),
        ("9pm", "reminder '9pm': no time of day at the end (HH:MM, 24-hour)"),
        ("25:00", "reminder '25:00': '25:00' is not a time of day (00:00 to 23:59)"),
        ("mon 7:5", "reminder 'mon 7:5': '7:5' is not a time of day (00:00 to 23:59)"),
        ("fry 21:00", "reminder 'fry 21:00': 'fry' is not a day (mon to sun, weekdays, weekends)"),
        ("mon,fry 21:00", "reminder 'mon,fry 21:00': 'fry' is not a day (mon to sun, weekdays, weekends)"),
        ("every day 07:00", "reminder 'every day 07:00': 'every' is not a day (mon to sun, weekdays, weekends)"),
        ("mon-funday 07:00", "reminder 'mon-funday 07:00': 'mon-funday' is not a day (mon to sun, weekdays, weekends)"),
        ("32nd 08:00", "reminder '32nd 08:00': '32nd' is not a day of the month (1st to 31st)"),
        ("1th 08:00", "reminder '1th 08:00': '1th' is not a day of the month (1st to 31st)"),
        // Quoted as typed, though read in lowercase.
        ("Mon,FRY 21:00", "reminder 'Mon,FRY 21:00': 'FRY' is not a day (mon to sun, weekdays, weekends)"),
        ("32ND 08:00", "reminder '32ND 08:00': '32ND' is not a day of the month (1st to 31st)"),
        ("2st 08:00", "reminder '2st 08:00': '2st' is not a day of the month (1st to 31st)"),
        ("11st 08:00", "reminder '11st 08:00': '11st' is not a day of the month (1st to 31st)"),
        ("23th 08:00", "reminder '23th 08:00': '23th' is not a day of the month (1st to 31st)"),
        ("22th 08:00", "reminder '22th 08:00': '22th' is not a day of the month (1st to 31st)"),
        ("0th 08:00", "reminder '0th 08:00': '0th' is not a day of the month (1st to 31st)"),
        ("1 08:00", "reminder '1 08:00': '1' cannot be read"),
        ("1st mon 08:00", "reminder '1st mon 08:00': '1st mon' cannot be read"),
        ("2027-02-30 18:00", "reminder '2027-02-30 18:00': '2027-02-30' is not a date (YYYY-MM-DD)"),
        ("2027-5-1 18:00", "reminder '2027-5-1 18:00': '2027-5-1' is not a date (YYYY-MM-DD)"),
        ("mon\u{1B}[2J 07:00", "reminder 'mon [2J 07:00': '[2J' is not a day (mon to sun, weekdays, weekends)"),
    ])
    func whatCannotBeMeantGetsOneLineWithTheForms(typed: String, problem: String) {
        #expect(throws: ReminderSpecError.self) { try ReminderSpec(parsing: typed) }
        do {
            _ = try ReminderSpec(parsing: typed)
        } catch {
            #expect(error.message == problem + "; " + ReminderSpecTests.forms)
            #expect(!error.message.contains("\n"))
        }
    }

    @Test func aLongSpecIsShortenedInItsMessage() {
        let typed = String(repeating: "x", count: 100) + " 07:00"
        do {
            _ = try ReminderSpec(parsing: typed)
            Issue.record("parsed")
        } catch {
            #expect(error.message.hasPrefix("reminder '" + String(repeating: "x", count: 60) + "…': '"))
        }
    }

    // MARK: Which dates

    func date(_ text: String) -> LocalDate { LocalDate(parsing: text)! }

    @Test func daysOfTheWeekMonthAndOnce() throws {
        // 2026-03-02 is a Monday.
        let week = (2...8).map { date("2026-03-0\($0)") }
        func days(_ spec: String) throws -> [Int] {
            let parsed = try ReminderSpec(parsing: spec)
            return week.filter(parsed.comes(on:)).map(\.day)
        }
        #expect(try days("07:00") == [2, 3, 4, 5, 6, 7, 8])
        #expect(try days("mon,wed,fri 07:00") == [2, 4, 6])
        #expect(try days("weekdays 07:00") == [2, 3, 4, 5, 6])
        #expect(try days("weekends 07:00") == [7, 8])
        #expect(try days("sun 07:00") == [8])
        #expect(try days("3rd 07:00") == [3])
        #expect(try days("2026-03-05 07:00") == [5])
        #expect(try days("2027-03-05 07:00") == [])
    }

    @Test func aMonthWithoutTheDayHasItOnItsLastDay() throws {
        let thirtyFirst = try ReminderSpec(parsing: "31st 08:00")
        let year = (0..<366).map { date("2028-01-01").adding(days: $0) }
        #expect(year.filter(thirtyFirst.comes(on:)).map(\.description) == [
            "2028-01-31", "2028-02-29", "2028-03-31", "2028-04-30", "2028-05-31", "2028-06-30",
            "2028-07-31", "2028-08-31", "2028-09-30", "2028-10-31", "2028-11-30", "2028-12-31",
        ])
        let thirtieth = try ReminderSpec(parsing: "30th 08:00")
        #expect(thirtieth.comes(on: date("2027-02-28")))
        #expect(!thirtieth.comes(on: date("2027-03-31")))
        #expect(thirtieth.comes(on: date("2027-03-30")))
    }

    // MARK: Occurrences and the wall clock

    static let newYork = try! Zone(identifier: "America/New_York")
    static let london = try! Zone(identifier: "Europe/London")

    func at(_ text: String) -> Instant { Moment.parse(text, zone: .utc)! }

    func occurrences(_ spec: String, _ zone: Zone, after: String, upTo: String) throws -> [String] {
        try ReminderSpec(parsing: spec).occurrences(after: at(after), upTo: at(upTo), clock: WallClockDays(zone: zone))
            .map { "\($0.label) @ " + zone.local($0.instant).iso8601 }
    }

    @Test(arguments: [
        // New York springs forward at 02:00 on 2026-03-08: 02:30 does not exist, so it comes at 03:00 EDT.
        ("02:30", newYork, "2026-03-07T12:00:00Z", "2026-03-09T12:00:00Z",
         ["2026-03-08 02:30 @ 2026-03-08T03:00:00-04:00", "2026-03-09 02:30 @ 2026-03-09T02:30:00-04:00"]),
        // It falls back at 02:00 on 2026-11-01: 01:30 happens twice and comes once, the first time (EDT).
        ("01:30", newYork, "2026-10-31T12:00:00Z", "2026-11-02T12:00:00Z",
         ["2026-11-01 01:30 @ 2026-11-01T01:30:00-04:00", "2026-11-02 01:30 @ 2026-11-02T01:30:00-05:00"]),
        // London springs forward at 01:00 on 2026-03-29: 01:30 comes at 02:00 BST.
        ("01:30", london, "2026-03-28T12:00:00Z", "2026-03-30T12:00:00Z",
         ["2026-03-29 01:30 @ 2026-03-29T02:00:00+01:00", "2026-03-30 01:30 @ 2026-03-30T01:30:00+01:00"]),
        // And falls back at 02:00 on 2026-10-25: 01:30 comes once, at its first (BST) occurrence.
        ("01:30", london, "2026-10-24T12:00:00Z", "2026-10-26T12:00:00Z",
         ["2026-10-25 01:30 @ 2026-10-25T01:30:00+01:00", "2026-10-26 01:30 @ 2026-10-26T01:30:00+00:00"]),
        // Times outside the change are untouched on the change days.
        ("02:30", london, "2026-03-28T12:00:00Z", "2026-03-29T12:00:00Z", ["2026-03-29 02:30 @ 2026-03-29T02:30:00+01:00"]),
        ("02:30", newYork, "2026-10-31T12:00:00Z", "2026-11-01T12:00:00Z", ["2026-11-01 02:30 @ 2026-11-01T02:30:00-05:00"]),
    ] as [(String, Zone, String, String, [String])])
    func onDSTDaysATimeComesExactlyOnce(spec: String, zone: Zone, after: String, upTo: String, expected: [String]) throws {
        #expect(try occurrences(spec, zone, after: after, upTo: upTo) == expected)
    }

    @Test func aGapOrOverlapDayCutIntoMinutesStillGivesOneOccurrence() throws {
        // Ticks every minute through both change nights: each reminder comes in exactly one tick.
        for (spec, zone, start) in [("02:30", ReminderSpecTests.newYork, "2026-03-08T05:00:00Z"),
                                    ("01:30", ReminderSpecTests.newYork, "2026-11-01T04:00:00Z"),
                                    ("01:30", ReminderSpecTests.london, "2026-03-29T00:00:00Z"),
                                    ("01:30", ReminderSpecTests.london, "2026-10-24T23:00:00Z")] {
            let parsed = try ReminderSpec(parsing: spec)
            let clock = WallClockDays(zone: zone)
            var found = 0
            for minute in 0..<(4 * 60) {
                let now = at(start) + minute * 60
                found += parsed.occurrences(after: now - 60, upTo: now, clock: clock).count
            }
            #expect(found == 1, "\(spec) in \(zone.identifier)")
        }
    }

    @Test func theIntervalIsOpenBeforeAndClosedAfter() throws {
        let spec = try ReminderSpec(parsing: "07:00")
        let clock = WallClockDays(zone: .utc)
        #expect(spec.occurrences(after: at("2026-06-01T07:00:00Z"), upTo: at("2026-06-02T06:59:59Z"), clock: clock).isEmpty)
        #expect(spec.occurrences(after: at("2026-06-01T06:59:59Z"), upTo: at("2026-06-01T07:00:00Z"), clock: clock).map(\.label) == ["2026-06-01 07:00"])
        #expect(spec.occurrences(after: at("2026-06-01T08:00:00Z"), upTo: at("2026-06-01T08:00:00Z"), clock: clock).isEmpty)
        // Three days, oldest first.
        #expect(spec.occurrences(after: at("2026-06-01T00:00:00Z"), upTo: at("2026-06-03T23:00:00Z"), clock: clock).map(\.label)
            == ["2026-06-01 07:00", "2026-06-02 07:00", "2026-06-03 07:00"])
    }

    @Test func theFastClockAgreesWithFirstInstantEveryMinuteOfChangeDays() {
        for (zone, day) in [(ReminderSpecTests.newYork, "2026-03-08"), (ReminderSpecTests.newYork, "2026-11-01"),
                            (ReminderSpecTests.london, "2026-03-29"), (ReminderSpecTests.london, "2026-10-25"),
                            (ReminderSpecTests.london, "2026-07-01"), (try! Zone(identifier: "Australia/Lord_Howe"), "2026-10-04")] {
            let clock = WallClockDays(zone: zone)
            for minute in stride(from: 0, to: 24 * 60, by: 5) {
                let time = LocalTime(hour: minute / 60, minute: minute % 60)
                #expect(clock.instant(on: date(day), at: time) == zone.firstInstant(on: date(day), at: time), "\(zone.identifier) \(day) \(time)")
            }
        }
    }
}
