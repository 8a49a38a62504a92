// Reading the moments people and files give: `--now 2026-03-08T07:00:00-05:00`, or a local
// `2026-03-08T07:00` in the current zone. Byte-level, because the prompt reads a timeline's
// worth of these on every shell prompt.

public enum Moment {
    /// Parses ISO 8601 `YYYY-MM-DDTHH:MM[:SS]` followed by `Z`, `±HH:MM`, or nothing (then the
    /// wall-clock time in `zone`, as `Zone.firstInstant` resolves it). Nil when it is not one.
    public static func parse(_ text: String, zone: Zone) -> Instant? {
        let b = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= b.count else { return nil }
            var value = 0
            for i in range {
                guard b[i] >= 0x30 && b[i] <= 0x39 else { return nil }
                value = value * 10 + Int(b[i] - 0x30)
            }
            return value
        }
        guard b.count >= 16, b[4] == 0x2D, b[7] == 0x2D, b[10] == 0x54 || b[10] == 0x20, b[13] == 0x3A,
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), (1...12).contains(month), day >= 1,
              day <= LocalDate.daysIn(month: month, year: year), hour < 24, minute < 60 else { return nil }
        var index = 16
        var second = 0
        if index < b.count, b[index] == 0x3A {
            guard let seconds = number(17..<19), seconds < 60 else { return nil }
            second = seconds
            index = 19
        }
        let date = LocalDate(year: year, month: month, day: day)
        let local = date.dayNumber * 86_400 + (hour * 60 + minute) * 60 + second
        if index == b.count { return zone.firstInstant(on: date, at: LocalTime(hour: hour, minute: minute)) + second }
        if b[index] == 0x5A, index + 1 == b.count { return local }
        guard index + 6 == b.count, b[index] == 0x2B || b[index] == 0x2D, b[index + 3] == 0x3A,
              let offsetHours = number(index + 1..<index + 3), let offsetMinutes = number(index + 4..<index + 6),
              offsetHours < 24, offsetMinutes < 60 else { return nil }
        let offset = (offsetHours * 60 + offsetMinutes) * 60 * (b[index] == 0x2D ? -1 : 1)
        return local - offset
    }
}
