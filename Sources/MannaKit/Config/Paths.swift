// Where the user's files live, by the XDG Base Directory rules.

/// The user's Manna files.
public struct Paths: Equatable, Sendable {
    /// `$XDG_CONFIG_HOME/manna` (default `~/.config/manna`): config and the user's plans.
    public let configDirectory: String
    /// `$XDG_DATA_HOME/manna` (default `~/.local/share/manna`): the journal, mode 0700.
    public let dataDirectory: String
    /// `$XDG_CACHE_HOME/manna` (default `~/.cache/manna`): the timeline, which can always be rebuilt.
    public let cacheDirectory: String
    /// `$XDG_CONFIG_HOME/systemd/user` (default `~/.config/systemd/user`): where `manna install` puts the units.
    public let unitDirectory: String

    public var config: String { configDirectory + "/config" }
    public var userPlans: String { configDirectory + "/plans" }
    public var journal: String { dataDirectory + "/journal.sqlite" }
    public var timeline: String { cacheDirectory + "/timeline.json" }
    /// The prompt line of each day the timeline covers, `DATE<TAB>LINE`: what the shell
    /// snippets read with built-ins only (`PromptLines`).
    public var promptLines: String { cacheDirectory + "/prompt.tsv" }
    /// Stamped by every tick with the moment it ran at (its modification time), for `doctor`.
    public var lastTick: String { cacheDirectory + "/last-tick" }
    /// Held (flock) by the `manna listen` that is playing, and names its process.
    public var listenLock: String { cacheDirectory + "/listen.lock" }
    /// Where the reader window was last (`TRANSLATION VERSE_ID`), to open there again; losing it
    /// loses nothing the user wrote.
    public var readerPlace: String { cacheDirectory + "/reader-place" }

    /// Why the user's folders cannot be known, or nil: `HOME` unset, empty or relative while an
    /// XDG variable needs it (Manna would otherwise make folders at `/` or in the working folder).
    public static func problem(environment: Environment) -> String? {
        let absolute = { (name: String) in environment[name].map { $0.hasPrefix("/") } ?? false }
        guard !absolute("HOME") else { return nil }
        let needing = ["XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"].filter { !absolute($0) }
        guard !needing.isEmpty else { return nil }
        let home = environment.nonEmpty("HOME").map { "HOME is '\($0.singleLine)', not an absolute path" } ?? "HOME is not set"
        return home + ": Manna keeps your files under it (or under " + needing.joined(separator: ", ")
            + ", absolute paths; relative ones are ignored, as the XDG spec says)"
    }

    public init(environment: Environment) {
        let home = environment["HOME"] ?? ""
        func base(_ variable: String, _ fallback: String) -> String {
            // The spec: a relative path in an XDG variable is invalid and is ignored.
            if let value = environment[variable], value.hasPrefix("/") { return value }
            return home + "/" + fallback
        }
        configDirectory = base("XDG_CONFIG_HOME", ".config") + "/manna"
        dataDirectory = base("XDG_DATA_HOME", ".local/share") + "/manna"
        cacheDirectory = base("XDG_CACHE_HOME", ".cache") + "/manna"
        unitDirectory = base("XDG_CONFIG_HOME", ".config") + "/systemd/user"
    }
}
