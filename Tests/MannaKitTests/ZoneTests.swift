import Testing
@testable import MannaKit

/// Real tz rules (glibc, /usr/share/zoneinfo) on the days clocks change.
@Suite struct ZoneTests {
    func zone(_ name: String) -> Zone { try! Zone(identifier: name) }
    func instant(_ text: String) -> Instant { Moment.parse(text, zone: .utc)! }
    func date(_ text: String) -> LocalDate { LocalDate(parsing: text)! }

    @Test func daysStartAtTheirOwnMidnight() {
        let newYork = zone("America/New_York")
        #expect(newYork.startOfDay(date("2026-03-08")) == instant("2026-03-08T05:00:00Z"))
        #expect(newYork.startOfDay(date("2026-03-09")) == instant("2026-03-09T04:00:00Z"))
        #expect(newYork.local(instant("2026-03-09T04:00:00Z")).iso8601 == "2026-03-09T00:00:00-04:00")
        #expect(zone("Pacific/Kiritimati").startOfDay(date("2027-01-01")) == instant("2026-12-31T10:00:00Z"))
        #expect(zone("Pacific/Kiritimati").local(instant("2026-12-31T10:00:00Z")).iso8601 == "2027-01-01T00:00:00+14:00")
    }

    @Test(arguments: [
        // A time that does not exist fires at the first instant after it.
        ("America/New_York", "2026-03-08", "02:30", "2026-03-08T07:00:00Z"),
        ("Europe/London", "2026-03-29", "01:30", "2026-03-29T01:00:00Z"),
        ("Australia/Lord_Howe", "2026-10-04", "02:15", "2026-10-03T15:30:00Z"),
        // A time that occurs twice fires at its first occurrence.
        ("America/New_York", "2026-11-01", "01:30", "2026-11-01T05:30:00Z"),
        ("Europe/London", "2026-10-25", "01:30", "2026-10-25T00:30:00Z"),
        ("Australia/Lord_Howe", "2026-04-05", "01:45", "2026-04-04T14:45:00Z"),
        // Ordinary times.
        ("America/New_York", "2026-03-08", "07:00", "2026-03-08T11:00:00Z"),
        ("America/New_York", "2026-03-07", "07:00", "2026-03-07T12:00:00Z"),
        ("Asia/Kolkata", "2026-06-01", "07:00", "2026-06-01T01:30:00Z"),
    ])
    func wallClockTimesResolveToOneInstant(zoneName: String, day: String, time: String, expected: String) {
        #expect(zone(zoneName).firstInstant(on: date(day), at: LocalTime(parsing: time)!) == instant(expected))
    }

    /// Each wall time against the definition, by brute force: the first minute at which the
    /// zone's clock shows that time or later (transitions fall on whole minutes). The days are
    /// those clocks change on, in zones whose changes are unusual: a skipped day (Apia, 2011),
    /// changes at midnight (Santiago, Havana), half an hour (Lord Howe), two hours (Troll), a
    /// negative daylight saving (Dublin).
    @Test(arguments: [
        ("Pacific/Apia", "2011-12-30"), ("Pacific/Apia", "2011-12-29"), ("Pacific/Apia", "2011-12-31"),
        ("America/Santiago", "2026-04-05"), ("America/Santiago", "2026-09-06"),
        ("America/Havana", "2026-03-08"), ("America/Havana", "2026-11-01"),
        ("Australia/Lord_Howe", "2026-10-04"), ("Australia/Lord_Howe", "2026-04-05"),
        ("Antarctica/Troll", "2026-03-29"), ("Antarctica/Troll", "2026-10-25"),
        ("Europe/Dublin", "2026-03-29"), ("Europe/Dublin", "2026-10-25"),
        ("America/New_York", "2026-03-08"), ("America/New_York", "2026-11-01"), ("America/New_York", "2026-06-01"),
        ("UTC", "2026-06-01"), ("Asia/Kolkata", "2026-06-01"),
    ])
    func wallClockTimesMatchTheFirstMinuteThatShowsThem(zoneName: String, day: String) {
        let zone = zone(zoneName), date = date(day)
        for time in ["00:00", "00:30", "01:00", "01:30", "02:00", "02:15", "02:30", "03:00", "12:00", "23:00", "23:59"] {
            let wall = LocalTime(parsing: time)!
            let target = (date.dayNumber, wall.minutesSinceMidnight * 60)
            var instant = date.dayNumber * 86_400 + wall.minutesSinceMidnight * 60 - 16 * 3600
            while true {
                let shown = zone.local(instant)
                if (shown.date.dayNumber, shown.hour * 3600 + shown.minute * 60 + shown.second) >= target { break }
                instant += 60
            }
            #expect(zone.firstInstant(on: date, at: wall) == instant, "\(zoneName) \(day) \(time)")
        }
    }

    @Test func aBogusZoneIsReportedNotTreatedAsUTC() throws {
        #expect(throws: ZoneError(identifier: "Mars/Olympus_Mons")) { try Zone(identifier: "Mars/Olympus_Mons") }
        #expect(throws: ZoneError.self) { try Zone(identifier: "../../etc/passwd") }
        #expect(throws: ZoneError.self) { try Zone.system(environment: ["TZ": "Nowhere"]) }
        #expect(ZoneError(identifier: "Nowhere").message == "unknown time zone 'Nowhere': use a name from /usr/share/zoneinfo, like Europe/London or America/New_York")
        #expect(try Zone.system(environment: ["TZ": "Europe/London"]).identifier == "Europe/London")
        #expect(try Zone.system(environment: ["TZ": ":Europe/London"]).identifier == "Europe/London")
        // The TZ a conversion leaves in this process's environment, which programs it starts inherit.
        #expect(try Zone.system(environment: ["TZ": ":/usr/share/zoneinfo/Europe/London"]).identifier == "Europe/London")
        #expect(throws: ZoneError.self) { try Zone.system(environment: ["TZ": ":/usr/share/zoneinfo/../../../etc/passwd"]) }
    }

    @Test func datesAndLeapYearPositions() {
        #expect(date("2026-01-01").leapYearPosition == 1)
        #expect(date("2028-02-29").leapYearPosition == 60)
        #expect(date("2026-03-01").leapYearPosition == 61)
        #expect(date("2028-03-01").leapYearPosition == 61)
        #expect(date("2026-12-31").leapYearPosition == 366)
        #expect(LocalDate(parsing: "2026-02-29") == nil)
        #expect(LocalDate(parsing: "2026-13-01") == nil)
        #expect(date("2026-12-31").adding(days: 1) == date("2027-01-01"))
        #expect(date("2026-11-29").weekday == 0)
        #expect(LocalDate(dayNumber: 0) == date("1970-01-01"))
    }

    @Test func momentsParseWithOffsetsOrInTheZone() {
        let newYork = zone("America/New_York")
        #expect(Moment.parse("2026-03-08T07:00:00-05:00", zone: .utc) == instant("2026-03-08T12:00:00Z"))
        #expect(Moment.parse("2026-03-08T07:00", zone: newYork) == instant("2026-03-08T11:00:00Z"))
        #expect(Moment.parse("2026-03-08T07:00:30Z", zone: newYork) == instant("2026-03-08T07:00:00Z") + 30)
        for bad in ["", "2026-03-08", "2026-03-08T25:00", "2026-02-30T07:00", "yesterday", "2026-03-08T07:00+5"] {
            #expect(Moment.parse(bad, zone: .utc) == nil, "\(bad)")
        }
    }
}
