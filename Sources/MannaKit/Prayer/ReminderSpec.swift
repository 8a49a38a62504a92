// When a prayer reminder comes, in plain words: "07:30", "mon,wed,fri 21:00", "weekdays 12:15",
// "weekends 10:00", "sun 09:00", "1st 08:00", "2027-05-01 18:00". Parsing, the canonical text the
// journal stores (`reminders.spec`), and the occurrences that fall in an interval.

/// Why a reminder SPEC cannot be read. The message is one line: the SPEC, what is wrong with
/// it, and the accepted forms.
public enum ReminderSpecError: Error, Equatable, Sendable {
    case empty
    case noTime(spec: String)
    case badTime(spec: String, word: String)
    case badDay(spec: String, word: String)
    case badDayOfMonth(spec: String, word: String)
    case badDate(spec: String, word: String)
    case unreadable(spec: String, words: String)

    /// The same error with its word as `spec` has it (the parser works on lowercase words).
    func quoting(_ spec: String) -> ReminderSpecError {
        func typed(_ word: String) -> String {
            let characters = Array(spec), length = word.count
            guard length > 0, characters.count >= length else { return word }
            for start in 0...(characters.count - length) where String(characters[start..<start + length]).lowercased() == word {
                return String(characters[start..<start + length])
            }
            return word
        }
        switch self {
        case .empty, .noTime: return self
        case .badTime(let s, let word): return .badTime(spec: s, word: typed(word))
        case .badDay(let s, let word): return .badDay(spec: s, word: typed(word))
        case .badDayOfMonth(let s, let word): return .badDayOfMonth(spec: s, word: typed(word))
        case .badDate(let s, let word): return .badDate(spec: s, word: typed(word))
        case .unreadable(let s, let words): return .unreadable(spec: s, words: typed(words))
        }
    }

    /// Every form a SPEC can take, by example.
    public static let forms = "07:30 (daily), mon,wed,fri 21:00, weekdays 12:15, weekends 10:00, "
        + "1st 08:00 (monthly, 1st to 31st) or 2027-05-01 18:00 (once)"

    public var message: String {
        let problem: String
        let spec: String
        switch self {
        case .empty: (spec, problem) = ("", "nothing given")
        case .noTime(let s): (spec, problem) = (s, "no time of day at the end (HH:MM, 24-hour)")
        case .badTime(let s, let word): (spec, problem) = (s, "'\(word)' is not a time of day (00:00 to 23:59)")
        case .badDay(let s, let word): (spec, problem) = (s, "'\(word)' is not a day (mon to sun, weekdays, weekends)")
        case .badDayOfMonth(let s, let word): (spec, problem) = (s, "'\(word)' is not a day of the month (1st to 31st)")
        case .badDate(let s, let word): (spec, problem) = (s, "'\(word)' is not a date (YYYY-MM-DD)")
        case .unreadable(let s, let words): (spec, problem) = (s, "'\(words)' cannot be read")
        }
        return "reminder '\(spec)': \(problem); write it like \(ReminderSpecError.forms)"
    }
}

/// When a reminder comes: on which dates, at what local time.
public struct ReminderSpec: Hashable, Sendable, CustomStringConvertible {
    public enum Days: Hashable, Sendable {
        /// Every day.
        case daily
        /// On some days of the week: bit `n` set for weekday `n` (0 = Sunday … 6 = Saturday),
        /// at least one and never all seven (that is `daily`).
        case weekly(UInt8)
        /// On this day of every month (1-31); in a month that has no such day, on its last day,
        /// so "31st" is the end of every month and "30th" comes in February too.
        case monthly(Int)
        /// Once, on this date.
        case once(LocalDate)
    }

    public let days: Days
    public let time: LocalTime

    public init(days: Days, time: LocalTime) {
        if case .weekly(let mask) = days, mask & ReminderSpec.everyDay == ReminderSpec.everyDay {
            self.days = .daily
        } else {
            self.days = days
        }
        self.time = time
    }

    static let everyDay: UInt8 = 0b111_1111
    static let weekdays: UInt8 = 0b011_1110
    static let weekends: UInt8 = 0b100_0001
    /// Names in the order the canonical form lists them: Monday first.
    static let dayNames = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    /// Weekday numbers (0 = Sunday) of `dayNames`.
    static let mondayFirst = [1, 2, 3, 4, 5, 6, 0]

    /// Reads a SPEC. Case and extra spaces do not matter; day names may be short or long
    /// (`mon`, `Monday`, `mondays`), listed with commas or spaces, or as a range (`mon-fri`).
    ///
    /// - Throws: `ReminderSpecError`, naming the word that cannot be meant.
    public init(parsing text: String) throws(ReminderSpecError) {
        do {
            try self.init(lowercased: text)
        } catch {
            // The parser reads lowercase; a message quotes the word as it was typed.
            throw error.quoting(text.singleLine.trimmingSpaces)
        }
    }

    private init(lowercased text: String) throws(ReminderSpecError) {
        let spec = text.singleLine.trimmingSpaces
        let shown = spec.count > 60 ? String(spec.prefix(60)) + "…" : spec
        var words = spec.lowercased().split(whereSeparator: { $0 == " " }).map(String.init)
        guard let last = words.popLast() else { throw .empty }
        guard let time = LocalTime(parsing: last) else {
            if last.contains(":") { throw .badTime(spec: shown, word: last) }
            throw .noTime(spec: shown)
        }
        // Commas and spaces both separate days: "mon, wed" and "mon,wed" are one list.
        let items = words.joined(separator: ",").split(separator: ",").map(String.init)
        guard let first = items.first else {
            self.init(days: .daily, time: time)
            return
        }
        if items.count == 1 {
            if first == "daily" {
                self.init(days: .daily, time: time)
                return
            }
            if first.first?.isNumber == true {
                if first.contains("-") {
                    guard let date = LocalDate(parsing: first) else { throw .badDate(spec: shown, word: first) }
                    self.init(days: .once(date), time: time)
                } else {
                    self.init(days: .monthly(try ReminderSpec.dayOfMonth(first, spec: shown)), time: time)
                }
                return
            }
        }
        var mask: UInt8 = 0
        for item in items {
            guard let days = ReminderSpec.weekdayMask(item) else {
                let numeric = item.first?.isNumber == true
                throw numeric ? .unreadable(spec: shown, words: words.joined(separator: " ")) : .badDay(spec: shown, word: item)
            }
            mask |= days
        }
        self.init(days: .weekly(mask), time: time)
    }

    /// "1st" … "31st", each with its own suffix ("1st", "2nd", "3rd", "11th", "22nd").
    private static func dayOfMonth(_ word: String, spec: String) throws(ReminderSpecError) -> Int {
        let digits = word.prefix { $0.isASCII && $0.isNumber }
        let suffix = word.dropFirst(digits.count)
        guard ["st", "nd", "rd", "th"].contains(suffix) else {
            throw .unreadable(spec: spec, words: word)
        }
        guard digits.count <= 2, let day = Int(digits), (1...31).contains(day) else {
            throw .badDayOfMonth(spec: spec, word: word)
        }
        // "1th" and "2st" are slips, refused rather than guessed at.
        guard ordinal(day).hasSuffix(suffix) else { throw .badDayOfMonth(spec: spec, word: word) }
        return day
    }

    /// The days one list item names: a day, "weekdays", "weekends", or a range "fri-mon".
    private static func weekdayMask(_ item: String) -> UInt8? {
        switch item {
        case "weekdays": return weekdays
        case "weekends": return weekends
        default: break
        }
        let ends = item.split(separator: "-", omittingEmptySubsequences: false)
        if ends.count == 2 {
            guard let from = weekday(String(ends[0])), let to = weekday(String(ends[1])) else { return nil }
            var mask: UInt8 = 0
            var day = from
            while true {
                mask |= 1 << day
                if day == to { return mask }
                day = (day + 1) % 7
            }
        }
        return weekday(item).map { 1 << $0 }
    }

    /// 0 = Sunday … 6 = Saturday, from a short or long English name.
    private static func weekday(_ word: String) -> Int? {
        switch word {
        case "sun", "sunday", "sundays": return 0
        case "mon", "monday", "mondays": return 1
        case "tue", "tues", "tuesday", "tuesdays": return 2
        case "wed", "wednesday", "wednesdays": return 3
        case "thu", "thur", "thurs", "thursday", "thursdays": return 4
        case "fri", "friday", "fridays": return 5
        case "sat", "saturday", "saturdays": return 6
        default: return nil
        }
    }

    /// The canonical text, which parses back to the same SPEC: "07:30", "weekdays 12:15",
    /// "mon,wed,fri 21:00", "1st 08:00", "2027-05-01 18:00".
    public var description: String {
        switch days {
        case .daily: return time.description
        case .weekly(ReminderSpec.weekdays): return "weekdays \(time)"
        case .weekly(ReminderSpec.weekends): return "weekends \(time)"
        case .weekly(let mask):
            let names = (0..<7).filter { mask & (1 << ReminderSpec.mondayFirst[$0]) != 0 }.map { ReminderSpec.dayNames[$0] }
            return names.joined(separator: ",") + " \(time)"
        case .monthly(let day): return ReminderSpec.ordinal(day) + " \(time)"
        case .once(let date): return "\(date) \(time)"
        }
    }

    static func ordinal(_ number: Int) -> String {
        let suffix: String
        switch (number % 10, number % 100) {
        case (_, 11...13): suffix = "th"
        case (1, _): suffix = "st"
        case (2, _): suffix = "nd"
        case (3, _): suffix = "rd"
        default: suffix = "th"
        }
        return "\(number)\(suffix)"
    }

    // MARK: Occurrences

    /// True when the reminder comes on `date`.
    public func comes(on date: LocalDate) -> Bool {
        switch days {
        case .daily: return true
        case .weekly(let mask): return mask & (1 << date.weekday) != 0
        case .monthly(let day): return date.day == min(day, LocalDate.daysIn(month: date.month, year: date.year))
        case .once(let once): return date == once
        }
    }

    /// One time the reminder comes: the local date and the instant its time resolves to.
    public struct Occurrence: Equatable, Sendable {
        public let date: LocalDate
        public let instant: Instant
        /// The ledger's name for it: the local date and the SPEC's time, "2026-03-08 02:30"
        /// (even when the clock skipped 02:30 and it came at 03:00), so it is one occurrence
        /// per local date whatever the zone does.
        public let label: String
    }

    /// The first occurrence after `after`, if it ever comes again.
    public func firstOccurrence(after: Instant, clock: WallClockDays) -> Occurrence? {
        if case .once(let date) = days {
            let instant = clock.instant(on: date, at: time)
            return instant > after ? Occurrence(date: date, instant: instant, label: "\(date) \(time)") : nil
        }
        // Every other kind comes in any 32 days: a weekday within 7, a month's day (or its
        // last day) within 31.
        return occurrences(after: after, upTo: after + 33 * 86_400, clock: clock).first
    }

    /// The occurrences in `(after, upTo]`, oldest first: each date's time resolved in the
    /// clock's zone like `Zone.firstInstant(on:at:)` (a skipped time comes when the clock jumps
    /// past it, a repeated time comes at its first occurrence, so once).
    public func occurrences(after: Instant, upTo: Instant, clock: WallClockDays) -> [Occurrence] {
        guard after < upTo else { return [] }
        // A date's time can resolve into the next date (a skipped midnight), so look one date
        // either side of the interval's local dates.
        let first = clock.zone.local(after).date.adding(days: -1)
        let last = clock.zone.local(upTo).date.adding(days: 1)
        var found: [Occurrence] = []
        var date = first
        while date <= last {
            if comes(on: date) {
                let instant = clock.instant(on: date, at: time)
                if instant > after && instant <= upTo { found.append(Occurrence(date: date, instant: instant, label: "\(date) \(time)")) }
            }
            date = date.adding(days: 1)
        }
        return found
    }
}
