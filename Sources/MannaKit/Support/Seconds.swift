// The one way a time in seconds is read from a file (a label track, a sync map, a WebVTT
// cue, a cue sheet) or from the player's socket: a decimal that is finite and within what a
// recording can be. "1e308" is a finite Double, but scaled to microseconds or to samples it
// is infinity, which the JSON of a cue sheet cannot hold; "nan" and "inf" parse as Doubles too.

public enum Seconds {
    /// The longest recording a time can point into: a day (the longest chapter read aloud, Psalm
    /// 119, takes half an hour).
    public static let longest = 86_400.0

    /// What a time may be, in words, for the line that refuses one.
    public static let allowed = "a number of seconds from 0 to 86400"

    /// `text` as seconds, when it is a decimal from 0 to `longest`; nil otherwise (the caller
    /// names its line). Swift's own spellings that are no decimal (`nan`, `inf`, `0x1p3`) are
    /// refused, as is anything out of range.
    public static func parse<Text: StringProtocol>(_ text: Text) -> Double? {
        guard text.utf8.allSatisfy({ decimal.contains($0) }), let value = Double(text) else { return nil }
        return checked(value)
    }

    /// The bytes a decimal is written with.
    private static let decimal = Set("0123456789.eE+-".utf8)

    /// `value` when it is a time from 0 to `longest`, else nil.
    public static func checked(_ value: Double) -> Double? {
        value.isFinite && value >= 0 && value <= longest ? value : nil
    }

    /// A JSON value as seconds: a number, or a string holding one (aeneas writes strings).
    public static func parse(_ value: JSON?) -> Double? {
        switch value {
        case .number(let number)?: return checked(number)
        case .string(let text)?: return parse(text)
        default: return nil
        }
    }
}
