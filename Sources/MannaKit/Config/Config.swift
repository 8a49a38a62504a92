// The config file: plain `key = value` lines with `#` comments, every value checked. Read the
// way systemd and git read theirs: a line that cannot be used is reported and skipped, its
// default standing in, so a typo never stops the morning verse or a reminder.

/// Why a config line (or value) cannot be used: file, line, and what is allowed.
public struct ConfigError: Error, Equatable, Sendable {
    public let file: String
    public let line: Int
    public let problem: String

    public var message: String { line > 0 ? "\(file):\(line): \(problem)" : "\(file): \(problem)" }
}

/// The user's settings. A missing file, or a missing key, means the default; so does a line
/// that cannot be used, which is kept in `ignored` for the commands that say so.
public struct Config: Equatable, Sendable {
    public var translation: String? = nil
    /// When the morning notification comes; nil (`off`): never (the timeline and prompt still show the verse).
    public var notifyAt: LocalTime? = LocalTime(hour: 7, minute: 0)
    /// Read from files written before plans moved into the journal (`manna plan start`), to
    /// move them there once; no longer listed or set.
    public var plan: String? = nil
    public var planStart: LocalDate? = nil
    public var promptFormat: String? = nil
    public var timelineDays = 7
    /// After how many days with nothing from a device `sync status` and `doctor` call it silent
    /// and suggest `sync forget` (the folder keeps what it has not read until then).
    public var syncSilentDays = 90
    public var dailySource = DailySourceSetting.curated
    /// The voice that reads each language (`en` to `en_US-joe-medium`), when no `--voice` is given.
    public var voices: [String: String] = [:]
    /// The line of the file each key was set on (the last, where a key is set twice).
    public private(set) var lines: [String: Int] = [:]
    /// The lines of the file that were not used, in file order: the default stands in for each.
    public private(set) var ignored: [IgnoredLine] = []

    /// A line of the file that was not used, and why.
    public struct IgnoredLine: Equatable, Sendable {
        /// The key the line sets; empty when the line is not `key = value` (or the whole file
        /// could not be read, with line 0).
        public let key: String
        /// The value as written (the whole line, when there is no key).
        public let value: String
        public let error: ConfigError
        /// The earlier line of the file whose value stands instead; nil: the default does.
        public var standing: Int? = nil

        /// One line for stderr, `doctor` and `config list`: where, what, and what stands instead.
        public var message: String {
            error.message + " (ignored: " + (error.line == 0 ? "the defaults stand" : standing.map { "line \($0) stands" } ?? "the default stands") + ")"
        }
    }

    /// Where the verse of the day comes from.
    public enum DailySourceSetting: String, Sendable {
        case curated, bookmarks
    }

    public init() {}

    /// Every key, its meaning, and what it accepts (the order `config list` prints).
    public static let keys: [(name: String, allowed: String)] = [
        // Which codes the text database has is its to say: help and manna-config(5) list them.
        ("translation", "a translation's code, like KJV"),
        ("notify_at", "a time HH:MM (24-hour), like 07:00, or off"),
        ("prompt_format", "a prompt format, like '{reference}: {text:60}'"),
        ("timeline_days", "a whole number of days from 1 to 31"),
        ("daily_source", "curated (the shipped list) or bookmarks (your bookmarked passages)"),
        ("sync_silent_days", "a whole number of days from 1 to 3650: a device silent that long is named"),
        ("voices", "language:voice pairs, like 'en:en_US-joe-medium, es:es-419' (the voices are 'manna listen --voices'), or none"),
    ]

    /// Reads `text` (the contents of `file`, for messages). A line that is not `key = value`,
    /// names no key, or holds a value the key does not take is skipped and kept in `ignored`.
    public init(parsing text: String, file: String) {
        self.init()
        var lineNumber = 0
        // Editors on some systems start a UTF-8 file with a byte-order mark: not part of a key.
        let text = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = String(rawLine).trimmingSpaces
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let equals = line.firstIndex(of: "=") else {
                ignored.append(IgnoredLine(key: "", value: line, error: ConfigError(file: file, line: lineNumber, problem: "expected 'key = value', found '\(line)'")))
                continue
            }
            let key = String(line[..<equals]).trimmingSpaces
            let value = String(line[line.index(after: equals)...]).trimmingSpaces
            do {
                try set(key, to: value, allowingMoved: true)
                lines[key] = lineNumber
            } catch {
                ignored.append(IgnoredLine(key: key, value: value, error: ConfigError(file: file, line: lineNumber, problem: error.problem),
                                           standing: lines[key]))
            }
        }
    }

    /// Reads the config at `path`; no file gives the defaults, and so does a file that cannot
    /// be read (a folder, a pipe, no permission), which is then the one line in `ignored`.
    public static func load(_ path: String) -> Config {
        let text: String?
        do {
            text = try Files.readText(path, limit: 1 << 20)
        } catch {
            var config = Config()
            config.ignored = [IgnoredLine(key: "", value: "", error: ConfigError(file: path, line: 0, problem: error.reason))]
            return config
        }
        guard let text else { return Config() }
        return Config(parsing: text, file: path)
    }

    /// The same settings with `key`'s line ignored for `problem` and its default standing in:
    /// for what only the caller can check (a translation the text database lacks).
    public mutating func ignore(_ key: String, because problem: String, file: String) {
        guard let line = lines[key], let value = value(of: key) else { return }
        let defaults = Config()
        switch key {
        case "translation": translation = defaults.translation
        case "notify_at": notifyAt = defaults.notifyAt
        case "prompt_format": promptFormat = defaults.promptFormat
        case "timeline_days": timelineDays = defaults.timelineDays
        case "daily_source": dailySource = defaults.dailySource
        case "sync_silent_days": syncSilentDays = defaults.syncSilentDays
        case "voices": voices = defaults.voices
        default: return
        }
        lines[key] = nil
        ignored.append(IgnoredLine(key: key, value: value, error: ConfigError(file: file, line: line, problem: problem)))
        ignored.sort { $0.error.line < $1.error.line }
    }

    /// Sets one key from its text form, checking it. `plan` and `plan_start` are only read
    /// from existing files (`allowingMoved`).
    public mutating func set(_ key: String, to value: String, allowingMoved: Bool = false) throws(ConfigError) {
        func bad(_ allowed: String? = nil) -> ConfigError {
            let allowed = allowed ?? Config.keys.first { $0.name == key }!.allowed
            return ConfigError(file: "", line: 0, problem: "\(key) must be \(allowed), not '\(value)'")
        }
        if (key == "plan" || key == "plan_start") && !allowingMoved {
            throw ConfigError(file: "", line: 0, problem: "the reading plan is kept in the journal now: use 'manna plan start PLAN [--from YYYY-MM-DD]'")
        }
        switch key {
        case "translation":
            guard !value.isEmpty, value.utf8.allSatisfy({ (0x41...0x5A).contains($0 & ~0x20) || (0x30...0x39).contains($0) }) else { throw bad() }
            translation = value.uppercased()
        case "notify_at":
            if value.lowercased() == "off" {
                notifyAt = nil
            } else {
                guard let time = LocalTime(parsing: value) else { throw bad() }
                notifyAt = time
            }
        case "plan":
            guard Plan.isValidID(value) else { throw bad("a plan id from 'manna plan list', like bible-in-a-year") }
            plan = value
        case "plan_start":
            guard let date = LocalDate(parsing: value) else { throw bad("a date YYYY-MM-DD") }
            planStart = date
        case "prompt_format":
            guard !value.isEmpty, value.count <= 200 else { throw bad() }
            do { try PromptFormat(format: value).validate() } catch { throw ConfigError(file: "", line: 0, problem: error.message) }
            promptFormat = value
        case "timeline_days":
            guard let days = Int(value), (1...31).contains(days) else { throw bad() }
            timelineDays = days
        case "daily_source":
            guard let source = DailySourceSetting(rawValue: value) else { throw bad() }
            dailySource = source
        case "sync_silent_days":
            guard let days = Int(value), (1...3650).contains(days) else { throw bad() }
            syncSilentDays = days
        case "voices":
            voices = [:]
            // none: each language read as if no voice were configured.
            if value == "none" { return }
            for pair in value.split(separator: ",") {
                let parts = pair.split(separator: ":", omittingEmptySubsequences: false).map { String($0).trimmingSpaces }
                guard parts.count == 2, Config.isLanguage(parts[0]), Config.isVoiceName(parts[1]), voices[parts[0].lowercased()] == nil else { throw bad() }
                voices[parts[0].lowercased()] = parts[1]
            }
            guard !voices.isEmpty else { throw bad() }
        default:
            let names = Config.keys.map(\.name)
            throw ConfigError(file: "", line: 0, problem: "unknown key '\(key)'"
                + Suggestion.hint(for: key, in: names, otherwise: "; keys are \(names.joined(separator: ", "))"))
        }
    }

    /// A language as the catalogue names one: `en`, `es`, `pt-br`.
    static func isLanguage(_ text: String) -> Bool {
        let parts = text.lowercased().split(separator: "-", omittingEmptySubsequences: false)
        return (2...3).contains(parts[0].count) && parts[0].utf8.allSatisfy { (0x61...0x7A).contains($0) } && parts.count <= 2
            && parts.dropFirst().allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) } }
    }

    /// A voice's name as `--voice` takes it: letters, digits and `_ - . +`, like en_US-joe-medium or es-419.
    static func isVoiceName(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 100 && text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "_-.+".unicodeScalars.contains($0)) }
    }

    /// The translation when neither the command line, the environment nor the file names one.
    public static let defaultTranslation = "KJV"

    /// What stands in for `key` when the file does not set it, as `config list` and the man
    /// page show it (the translation and the prompt format have no value of their own then).
    public static func defaultValue(of key: String) -> String? {
        switch key {
        case "translation": defaultTranslation
        case "prompt_format": PromptFormat.standard.format
        default: Config().value(of: key)
        }
    }

    /// The value of `key` as the file would spell it, or nil when unset (default).
    public func value(of key: String) -> String? {
        switch key {
        case "translation": return translation
        case "notify_at": return notifyAt?.description ?? "off"
        case "prompt_format": return promptFormat
        case "timeline_days": return String(timelineDays)
        case "daily_source": return dailySource.rawValue
        case "sync_silent_days": return String(syncSilentDays)
        case "voices": return voices.isEmpty ? "none" : voices.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: ", ")
        default: return nil
        }
    }

    /// `text` with `key` set to `value`: the key's line replaced in place (comments and other
    /// lines kept), or appended. A nil `value` removes every line that sets the key (`config unset`).
    public static func updating(_ text: String, key: String, value: String?) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        let setsKey = { (line: String) -> Bool in
            let trimmed = line.trimmingSpaces
            guard !trimmed.hasPrefix("#"), let equals = trimmed.firstIndex(of: "=") else { return false }
            return String(trimmed[..<equals]).trimmingSpaces == key
        }
        guard let value else {
            lines.removeAll(where: setsKey)
            return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
        }
        let newLine = "\(key) = \(value)"
        if let index = lines.lastIndex(where: setsKey) {
            lines[index] = newLine
        } else {
            lines.append(newLine)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
