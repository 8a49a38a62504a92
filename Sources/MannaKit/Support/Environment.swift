// The process environment as a value that core code is handed (it never reads it itself).
#if canImport(Glibc)
import Glibc
#endif

/// Environment variables: the running process's (read with getenv on demand), or a given list.
///
/// Not a Dictionary: a static binary pays to instantiate `Dictionary<String, String>` metadata
/// and look up its Hashable conformance at run time, and copying a whole environment costs
/// more than the few lookups a command makes (together a quarter of a `manna prompt`).
public struct Environment: ExpressibleByDictionaryLiteral, Sendable {
    private var pairs: [(String, String)]?
    /// `TZ` as the process started: `Zone` sets glibc's `TZ` while it converts times, so the
    /// user's value is kept here, for the zone and for programs Manna starts.
    private var startingTZ: String?

    /// The environment of this process.
    public static var process: Environment { Environment(pairs: nil, startingTZ: getenv("TZ").map { String(cString: $0) }) }

    private init(pairs: [(String, String)]?, startingTZ: String? = nil) {
        self.pairs = pairs
        self.startingTZ = startingTZ
    }

    public init(dictionaryLiteral elements: (String, String)...) { pairs = elements }

    public subscript(name: String) -> String? {
        get {
            guard let pairs else {
                if name == "TZ" { return startingTZ }
                return getenv(name).map { String(cString: $0) }
            }
            return pairs.last { $0.0 == name }?.1
        }
        set {
            var list = pairs ?? processPairs()
            list.removeAll { $0.0 == name }
            if let newValue { list.append((name, newValue)) }
            pairs = list
        }
    }

    /// The value of `name` when it is set and not empty.
    public func nonEmpty(_ name: String) -> String? {
        guard let value = self[name], !value.isEmpty else { return nil }
        return value
    }

    /// `NAME=value` strings, for starting another process.
    public var entries: [String] { (pairs ?? processPairs()).map { $0.0 + "=" + $0.1 } }

    /// The process environment as it started (with the starting `TZ`).
    private func processPairs() -> [(String, String)] {
        var pairs: [(String, String)] = []
        var entry = environ
        while let pointer = entry.pointee {
            let pair = String(cString: pointer)
            if let equals = pair.firstIndex(of: "="), pair[..<equals] != "TZ" {
                pairs.append((String(pair[..<equals]), String(pair[pair.index(after: equals)...])))
            }
            entry += 1
        }
        if let startingTZ { pairs.append(("TZ", startingTZ)) }
        return pairs
    }
}
