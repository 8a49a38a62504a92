// Reading the moments people and files give: `--now 2026-03-08T07:00:00-05:00`, or a local
// `2026-03-08T07:00` in the current zone.

public enum Moment {
    /// Parses ISO 8601 `YYYY-MM-DDTHH:MM[:SS]` followed by `Z`, `±HH:MM`, or nothing (then the
    /// wall-clock time in `zone`, as `Zone.firstInstant` resolves it). Nil when it is not one.
    public static func parse(_ text: String, zone: Zone) -> Instant? {
        let characters = Array(text)
        guard characters.count >= 16, characters[10] == "T" || characters[10] == " " else { return nil }
        guard let date = LocalDate(parsing: String(characters[0..<10])) else { return nil }
        var rest = Array(characters[11...])
        var offset: Int?
        if rest.last == "Z" {
            offset = 0
            rest.removeLast()
        } else if rest.count >= 6, rest[rest.count - 6] == "+" || rest[rest.count - 6] == "-" {
            let sign = rest[rest.count - 6] == "-" ? -1 : 1
            guard let zoneTime = LocalTime(parsing: String(rest[(rest.count - 5)...])) else { return nil }
            offset = sign * zoneTime.minutesSinceMidnight * 60
            rest.removeLast(6)
        }
        var second = 0
        if rest.count == 8 {
            guard rest[5] == ":", let seconds = Int(String(rest[6...])), seconds < 60, rest[6...].allSatisfy(\.isNumber) else { return nil }
            second = seconds
            rest.removeLast(3)
        }
        guard rest.count == 5, let time = LocalTime(parsing: String(rest)) else { return nil }
        guard let offset else { return zone.firstInstant(on: date, at: time) + second }
        return date.dayNumber * 86_400 + time.minutesSinceMidnight * 60 + second - offset
    }
}
