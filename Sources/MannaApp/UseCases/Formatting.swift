// Small pieces of text more than one command writes.
enum Formatting {
    /// Seconds as m:ss (h:mm:ss from an hour).
    static func clock(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.down))
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return whole >= 3600 ? "\(whole / 3600):\(two(whole / 60 % 60)):\(two(whole % 60))" : "\(whole / 60):\(two(whole % 60))"
    }

    /// "1 change", "2 changes" ("copy", "copies" with `plural`).
    static func plural(_ count: Int, _ word: String, _ plural: String? = nil) -> String { count == 1 ? word : plural ?? word + "s" }
}
