// Local time through glibc's time-zone rules: instants to wall-clock times and back,
// including the days when the wall clock skips or repeats an hour.
#if canImport(Glibc)
import Glibc
#endif

/// Seconds since 1970-01-01T00:00:00Z.
public typealias Instant = Int

/// A calendar date with no time zone: what "today" means to a person.
public struct LocalDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD`, checking that the day exists.
    public init?(parsing text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1...12).contains(month), day >= 1, day <= LocalDate.daysIn(month: month, year: year) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    public static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 (negative before), by the proleptic Gregorian calendar.
    public var dayNumber: Int {
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    public init(dayNumber: Int) {
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        self.init(year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month: month, day: day)
    }

    public func adding(days: Int) -> LocalDate { LocalDate(dayNumber: dayNumber + days) }

    /// 0 = Sunday … 6 = Saturday.
    public var weekday: Int { ((dayNumber % 7) + 7 + 4) % 7 }

    /// The position of this date in a leap year's calendar: Jan 1 = 1, Feb 29 = 60, Mar 1 = 61
    /// in every year, Dec 31 = 366. A common year skips 60.
    public var leapYearPosition: Int {
        let starts = [0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335]
        return starts[month - 1] + day
    }

    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool { lhs.dayNumber < rhs.dayNumber }

    public var description: String {
        pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
    }
}

/// A wall-clock time of day.
public struct LocalTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let hour: Int
    public let minute: Int

    public init(hour: Int, minute: Int) {
        self.hour = hour
        self.minute = minute
    }

    /// Parses `HH:MM` (24-hour).
    public init?(parsing text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let hour = Int(parts[0]), let minute = Int(parts[1]), hour < 24, minute < 60 else { return nil }
        self.init(hour: hour, minute: minute)
    }

    public var minutesSinceMidnight: Int { hour * 60 + minute }

    public static func < (lhs: LocalTime, rhs: LocalTime) -> Bool { lhs.minutesSinceMidnight < rhs.minutesSinceMidnight }

    public var description: String { pad(hour, 2) + ":" + pad(minute, 2) }
}

/// A local date and time with its UTC offset, as a wall clock in some zone showed it.
public struct LocalDateTime: Hashable, Sendable {
    public let date: LocalDate
    public let hour: Int
    public let minute: Int
    public let second: Int
    /// Seconds east of UTC in effect at that instant.
    public let offset: Int

    public var time: LocalTime { LocalTime(hour: hour, minute: minute) }

    /// ISO 8601 with the offset: `2026-03-09T00:00:00-04:00`.
    public var iso8601: String {
        let sign = offset < 0 ? "-" : "+"
        let magnitude = abs(offset)
        return "\(date)T" + pad(hour, 2) + ":" + pad(minute, 2) + ":" + pad(second, 2)
            + sign + pad(magnitude / 3600, 2) + ":" + pad(magnitude % 3600 / 60, 2)
    }
}

func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}

/// Why a time zone cannot be used.
public struct ZoneError: Error, Equatable, Sendable {
    public let identifier: String
    public var message: String {
        "unknown time zone '\(identifier)': use a name from /usr/share/zoneinfo, like Europe/London or America/New_York"
    }
}

/// A time zone with glibc's rules (the tz database in /usr/share/zoneinfo).
///
/// glibc keeps one process-wide zone (`TZ`, `tzset`), so every conversion takes a lock,
/// sets the zone, converts and restores: zones can be passed around as values and used
/// from parallel tests.
public struct Zone: Hashable, Sendable {
    /// The tz name ("America/New_York"), or "UTC".
    public let identifier: String
    /// The value given to glibc's `TZ`.
    private let tzValue: String

    public static let utc = Zone(identifier: "UTC", tzValue: "UTC0")

    private init(identifier: String, tzValue: String) {
        self.identifier = identifier
        self.tzValue = tzValue
    }

    /// The zone named `identifier`; glibc would silently treat an unknown name as UTC, so
    /// the name is checked against the tz database first.
    public init(identifier: String, zoneinfo: String = "/usr/share/zoneinfo") throws(ZoneError) {
        if identifier == "UTC" || identifier == "Etc/UTC" {
            self = .utc
            return
        }
        var name = identifier.hasPrefix(":") ? String(identifier.dropFirst()) : identifier
        // A zone's file by path, as glibc takes it: the form this type itself sets `TZ` to
        // (see `withZone`), which programs Manna starts inherit.
        if name.hasPrefix(zoneinfo + "/") { name.removeFirst(zoneinfo.count + 1) }
        let valid = !name.isEmpty && !name.hasPrefix("/") && !name.split(separator: "/").contains("..")
            && Zone.isTZif(zoneinfo + "/" + name)
        guard valid else { throw ZoneError(identifier: identifier) }
        self.init(identifier: name, tzValue: ":" + zoneinfo + "/" + name)
    }

    /// The machine's zone: `TZ` when set (checked), else /etc/localtime, else UTC.
    public static func system(environment: Environment) throws(ZoneError) -> Zone {
        // ":/etc/localtime" is what `withZone` sets for the machine's zone: the same as no TZ.
        if let tz = environment["TZ"], !tz.isEmpty, tz != ":/etc/localtime" { return try Zone(identifier: tz) }
        // /etc/localtime links to /usr/share/zoneinfo/NAME: the zone's name is what follows.
        if let target = Zone.resolvedLocaltime() {
            let bytes = Array(target.utf8), marker = Array("/zoneinfo/".utf8)
            if let start = (0...max(0, bytes.count - marker.count)).first(where: { bytes[$0..<min(bytes.count, $0 + marker.count)].elementsEqual(marker) }) {
                return (try? Zone(identifier: String(decoding: bytes[(start + marker.count)...], as: UTF8.self))) ?? .utc
            }
        }
        return Zone.isTZif("/etc/localtime") ? Zone(identifier: "localtime", tzValue: ":/etc/localtime") : .utc
    }

    /// Where /etc/localtime links to (one readlink: realpath would walk every component).
    private static func resolvedLocaltime() -> String? {
        var buffer = [CChar](repeating: 0, count: 1024)
        let length = readlink("/etc/localtime", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// True when `path` is a tz database file (it starts with the TZif magic).
    private static func isTZif(_ path: String) -> Bool {
        // TZ may name any file: a FIFO must not make every command wait.
        guard let (descriptor, _) = try? Files.openForReading(path) else { return false }
        defer { close(descriptor) }
        var magic = [UInt8](repeating: 0, count: 4)
        return read(descriptor, &magic, 4) == 4 && magic == Array("TZif".utf8)
    }

    /// What this zone's rules are read from, as it stands now: the file's identity and
    /// modification time (nil for UTC, or a file that is not there). A long-running process
    /// compares it from time to time: a changed file is new rules (a tzdata update, another zone
    /// copied over /etc/localtime) under the same name.
    public func rulesStamp() -> [Int]? {
        guard tzValue.hasPrefix(":") else { return nil }
        var status = stat()
        guard stat(String(tzValue.dropFirst()), &status) == 0 else { return nil }
        return [Int(status.st_dev), Int(status.st_ino), Int(status.st_size), Int(status.st_mtim.tv_sec), Int(status.st_mtim.tv_nsec)]
    }

    /// The zone's name and its rules' file as it stands (`rulesStamp()`): what instants worked out
    /// in this zone and kept are valid for.
    public var rulesKey: String {
        identifier + " " + (rulesStamp() ?? []).map(String.init).joined(separator: ".")
    }

    /// Makes the next conversion read its zone's file again. glibc reads a zone's file once per
    /// `TZ` value and keeps its rules, so a process that lives for days must ask for a changed
    /// file to be read (see `rulesStamp`).
    public static func forgetLoadedRules() {
        zoneLock.withLock {
            setenv("TZ", "UTC0", 1)
            tzset()
            currentTZ = "UTC0"
        }
    }

    // MARK: Conversions

    /// The wall clock at `instant`.
    public func local(_ instant: Instant) -> LocalDateTime {
        withZone {
            var time = time_t(instant)
            var parts = tm()
            localtime_r(&time, &parts)
            return LocalDateTime(date: LocalDate(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday)),
                                 hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec),
                                 offset: parts.tm_gmtoff)
        }
    }

    /// The first instant at which the wall clock shows `time` on `date` or later that day.
    ///
    /// A time that occurs twice (the hour repeated when clocks go back) gives its first
    /// occurrence; a time that does not exist (skipped when clocks go forward) gives the
    /// instant the clock jumps past it. Midnight of a day gives the day's first instant.
    public func firstInstant(on date: LocalDate, at time: LocalTime) -> Instant {
        let target = (date.dayNumber, time.minutesSinceMidnight * 60)
        func reached(_ instant: Instant) -> Bool {
            let wall = local(instant)
            return (wall.date.dayNumber, wall.hour * 3600 + wall.minute * 60 + wall.second) >= target
        }
        // The wall time read as UTC, less each offset the zone has within a day of it (one, or
        // the two either side of a change): the readings that round-trip exist. Offsets come
        // from `localtime_r`, not `mktime`: asked for a daylight reading a zone lacks, glibc's
        // mktime searches hundreds of conversions, and every tick asks for a week of midnights.
        let asUTC = target.0 * 86_400 + target.1
        let offsets = Set([local(asUTC - 86_400).offset, local(asUTC + 86_400).offset])
        let candidates = offsets.map { asUTC - $0 }.filter { instant in
            let wall = local(instant)
            return wall.date == date && wall.time == time && wall.second == 0
        }
        if let first = candidates.min() { return first }
        // In a gap: the wall clock passes the time without showing it. Search the hours
        // before the latest reading (past the gap) for the first instant at or after it.
        var high = asUTC - (offsets.min() ?? 0)
        var low = high - 4 * 3600
        while !reached(high) { high += 3600 }
        while reached(low) { low -= 3600 }
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if reached(middle) { high = middle } else { low = middle }
        }
        return high
    }

    /// The first instant of `date` (its midnight, or the instant after a skipped midnight).
    public func startOfDay(_ date: LocalDate) -> Instant { firstInstant(on: date, at: LocalTime(hour: 0, minute: 0)) }

    private func withZone<T>(_ body: () -> T) -> T {
        zoneLock.withLock {
            if currentTZ != tzValue {
                setenv("TZ", tzValue, 1)
                tzset()
                currentTZ = tzValue
            }
            return body()
        }
    }
}

/// Guards glibc's process-wide zone.
private let zoneLock = Lock()
nonisolated(unsafe) private var currentTZ: String?
