// What a command gets from the outside world, every piece injected: environment, clock,
// output streams, notifier, terminal; and what it opens through them (text database, journal,
// config, zone), each once per command.
#if canImport(Glibc)
import Glibc
#endif
import MannaKit

/// The collaborators every command runs with. The executable builds the live one
/// (`main.swift`); tests build one over a temporary home, a fixed clock, captured output and a
/// recording notifier.
public final class Context {
    public let environment: Environment
    /// The real time, unless a command's `--now` says otherwise (see `now(_:zone:)`).
    public let clock: Clock
    public let stdout: Output
    public let stderr: Output
    public let notifier: any Notifier
    /// The running `manna` (resolved): notification buttons run it, `install` copies it, and in
    /// a checkout the text database and `manna-notify` are found beside it.
    public let executablePath: String
    /// The real user id: the default session bus is `/run/user/UID/bus`.
    public let userID: UInt32
    /// Columns to wrap to, when stdout is a terminal.
    public let terminalWidth: Int?
    public let stdoutIsTerminal: Bool
    /// A person may be typing: search history keeps only what was searched at a terminal.
    public let stdinIsTerminal: Bool
    /// Starts a pager that stdout then goes to, and returns what waits for it to end; nil when
    /// there is none to start (the live context's is `Pager.start`; tests have none).
    public let startPager: (() -> (() -> Void)?)?
    /// `--color auto|always|never`, from the command line.
    var colorChoice = ColorChoice.auto

    /// Whether output may carry colour and bold: `--color`, else a terminal that is not `dumb`
    /// and no `NO_COLOR` (https://no-color.org: set and not empty).
    var usesColor: Bool {
        switch colorChoice {
        case .always: true
        case .never: false
        case .auto: stdoutIsTerminal && environment.nonEmpty("NO_COLOR") == nil && environment["TERM"] != "dumb"
        }
    }

    public init(environment: Environment, clock: Clock, stdout: Output, stderr: Output, notifier: any Notifier,
                executablePath: String, userID: UInt32, terminalWidth: Int? = nil, stdoutIsTerminal: Bool = false,
                stdinIsTerminal: Bool = false, startPager: (() -> (() -> Void)?)? = nil) {
        self.environment = environment
        self.clock = clock
        self.stdout = stdout
        self.stderr = stderr
        self.notifier = notifier
        self.executablePath = executablePath
        self.userID = userID
        self.terminalWidth = terminalWidth
        self.stdoutIsTerminal = stdoutIsTerminal
        self.stdinIsTerminal = stdinIsTerminal
        self.startPager = startPager
    }

    /// The messages of the user's language (`LC_ALL`, `LC_MESSAGES`, `LANG`, `LANGUAGE`), their
    /// catalogues found beside the text database when a message is first looked up.
    public var messages: Messages {
        Messages(environment: environment) { [environment, executablePath] in
            MessageCatalogues.locate(environment: environment, executablePath: executablePath)
        }
    }

    func textDatabaseLocation() throws -> TextDatabaseLocation {
        return try TextDatabaseLocator.locate(environment: environment, executablePath: executablePath)
    }

    /// Opens the text database, first building it from `curated/` when running from a
    /// checkout and it is missing or older than its sources.
    func openTextDatabase() throws -> TextDatabase {
        let location = try textDatabaseLocation()
        if let curated = location.curatedDirectory {
            // In a checkout the database is a build product: make it when missing, stale,
            // or written by another version of Manna.
            if TextDatabaseLocator.needsBuild(location) {
                try buildTextDatabase(from: curated, to: location.path)
            } else if let database = try? TextDatabase(path: location.path) {
                return database
            } else {
                try buildTextDatabase(from: curated, to: location.path)
            }
        }
        return try TextDatabase(path: location.path)
    }

    func buildTextDatabase(from curated: String, to path: String) throws(TextDatabaseError) {
        let started = monotonicSeconds()
        stderr.line("manna: building the text database \(path) from \(curated)/")
        stderr.flush()
        try? Files.makeDirectories(Files.parent(of: path))
        try TextDatabaseBuilder.build(curatedDirectory: curated, outputPath: path) { step in
            self.stderr.line("manna:   " + step)
            self.stderr.flush()
        }
        let elapsed = (monotonicSeconds() - started) * 10
        stderr.line("manna: text database built in \(Double(Int(elapsed.rounded())) / 10) s")
        stderr.flush()
    }

    /// The local time zone: `TZ` (checked against the tz database), else /etc/localtime.
    /// Read once: converting a time sets this process's `TZ` to the zone's file (see `Zone`),
    /// so reading `TZ` again would find that instead of what the user set.
    func zone() throws -> Zone {
        if let systemZone { return systemZone }
        let zone = try Zone.system(environment: environment)
        systemZone = zone
        return zone
    }

    private var systemZone: Zone?

    /// The moment a command acts at: its `--now` when it has one and it was given (ISO 8601;
    /// without an offset it is local time), else the real clock.
    func now(_ arguments: ParsedArguments) throws -> Instant {
        try arguments.value(Options.now, self) ?? clock.now()
    }

    /// Everything the timeline depends on: zone, translation, notification time, days, plan.
    func timelineInputs(database: TextDatabase, zone: Zone, now: Instant) throws -> TimelineInputs {
        let config = config()
        let translation = try translation(nil, in: database)
        // A plan that cannot be loaded leaves the rest of the timeline as it is.
        var plans: [(plan: Plan, run: PlanRun)] = []
        for case .loaded(let plan, let run) in try runningPlans(database: database) { plans.append((plan, run)) }
        var prayerReminders: [ReminderSpec] = []
        if let journal = try existingJournal() {
            prayerReminders = try journal.activeReminderSpecs()
        }
        return TimelineInputs(zone: zone, translation: translation, notifyAt: config.notifyAt, days: config.timelineDays, plans: plans,
                              daily: try dailySource(), prayerReminders: prayerReminders)
    }

    /// The verse of the day for `date`: in the translation asked for (the option, else the
    /// environment, the config, KJV), from the configured source.
    func dailyVerse(for date: LocalDate, translation option: String?) throws -> DailyVerse {
        let database = try openTextDatabase()
        let translation = try translation(option, in: database)
        let source = try dailySource()
        if source == .bookmarks([]) {
            // The setting asks for what is not there: say why the curated verse stands in.
            stderr.line("manna: daily_source is bookmarks, but there are no bookmarks: the verse is from the curated list ('manna bookmark add REF' adds one)")
        }
        return try database.dailyVerse(for: date, in: translation, source: source)
    }

    /// Where the verse of the day comes from (config `daily_source`). Bookmarks are read from
    /// the journal only when it exists: a missing journal has none, and is not created.
    func dailySource() throws -> DailySource {
        guard config().dailySource == .bookmarks else { return .curated }
        guard let journal = try existingJournal() else { return .bookmarks([]) }
        return .bookmarks(try journal.bookmarkedPassages())
    }

    /// The reading plan with this id (the user's file, else the shipped one); nil when there
    /// is none. A user plan file that cannot be read stops the command with its reason.
    func plan(id: String, database: TextDatabase) throws -> Plan? {
        let found: Result<Plan, PlanError>? = try PlanLibrary(database: database, userDirectory: paths.userPlans).plan(id: id)
        switch found {
        case .none: return nil
        case .success(let plan): return plan
        case .failure(let problem): throw Failure.data(problem.message)
        }
    }

    /// The running plans and their progress, in the order they were started; none when no
    /// journal exists (none is created for this), unless an older config file names a plan:
    /// then the journal is made to take it in. A plan that cannot be loaded (its file deleted
    /// or broken, or an imported journal running a plan this machine lacks) is `.broken`, not
    /// an error: the verse, the reminders, the timeline and the other plans go on without it,
    /// and `plan stop` still stops it.
    func runningPlans(database: TextDatabase) throws -> [RunningPlan] {
        guard Files.exists(paths.journal) || config().plan != nil else { return [] }
        let library = PlanLibrary(database: database, userDirectory: paths.userPlans)
        return try (existingJournal() ?? journal()).runningPlans().map { run throws -> RunningPlan in
            let stop = "; stop it with 'manna plan stop \(run.planID)'"
            switch try library.plan(id: run.planID) {
            case .success(let plan): return .loaded(plan, run)
            case .failure(let problem): return .broken(run, reason: problem.message + stop)
            case .none: return .broken(run, reason: "the running plan '\(run.planID)' is not a known plan any more (see 'manna plan list')" + stop)
            }
        }
    }

    /// The user's files (XDG directories).
    var paths: Paths { Paths(environment: environment) }

    /// The user's config, read once. A line that cannot be used never stops a command: it is
    /// ignored, its default standing in, and said on stderr, one line each, once a command
    /// (unless `saysIgnoredConfig` is off).
    func config() -> Config {
        if let loadedConfig { return loadedConfig }
        let config = Config.load(paths.config)
        loadedConfig = config
        sayIgnoredConfig(config.ignored)
        return config
    }

    private var loadedConfig: Config?

    /// The config with every line it ignores, a configured translation the text database lacks
    /// included (found only by asking the database): for `doctor` and `config list`.
    func configWithEveryIgnoredLine() -> Config {
        if let database = try? openTextDatabase() { _ = try? translation(nil, in: database) }
        return config()
    }

    /// Whether `config()` says the lines it ignores on stderr. Off for what runs on every
    /// prompt or panel refresh, and for the commands that say them their own way: the tick
    /// (once a day), `doctor` and `config list` (in their output).
    var saysIgnoredConfig = true

    private func sayIgnoredConfig(_ lines: [Config.IgnoredLine]) {
        guard saysIgnoredConfig else { return }
        for line in lines { stderr.line("manna: " + line.message) }
    }

    /// The translations of the text database, which help and the man pages name; nil when it
    /// cannot be opened (they then say what a code is like), and for the help of a `command`
    /// that takes no `--translation` (which then opens nothing).
    func translationsForHelp(_ command: CommandSpec? = nil) -> [Translation]? {
        if let command, !command.takesValue(Options.translation.name) { return nil }
        return (try? openTextDatabase())?.translations
    }

    /// The translation to use: the option, else `MANNA_TRANSLATION`, else the config, else KJV.
    /// A configured translation this text database lacks is an ignored line like any other.
    func translation(_ option: String?, in database: TextDatabase) throws -> Translation {
        try chosenTranslation(option, in: database) ?? defaultTranslation(in: database, language: nil)
    }

    /// The translation when the user chose none: the first of the database in `language` (that
    /// of a reference written in Spanish, "Juan 3:16"), else KJV.
    func defaultTranslation(in database: TextDatabase, language: String?) throws -> Translation {
        if let language, let first = database.translations.first(where: { $0.language == language }) { return first }
        return try database.translation(code: Config.defaultTranslation)
    }

    /// The language of the translation the user chose (`MANNA_TRANSLATION`, else the config),
    /// for reading a reference a command shows in no translation (a note's, a highlight's);
    /// nil when none is chosen or it cannot be opened. The text database is opened only when
    /// one is chosen.
    func chosenLanguage() -> String? {
        guard environment.nonEmpty("MANNA_TRANSLATION") != nil || config().translation != nil,
              let database = try? openTextDatabase(), let chosen = try? chosenTranslation(nil, in: database) else { return nil }
        return chosen.language
    }

    /// The translation the user chose: the option, else `MANNA_TRANSLATION`, else the config;
    /// nil when none is chosen.
    func chosenTranslation(_ option: String?, in database: TextDatabase) throws -> Translation? {
        if let code = option ?? environment.nonEmpty("MANNA_TRANSLATION") { return try database.translation(code: code) }
        var config = config()
        if let configured = config.translation {
            do { return try database.translation(code: configured) } catch {
                config.ignore("translation", because: error.message, file: paths.config)
                loadedConfig = config
                if let line = config.ignored.last(where: { $0.key == "translation" }) { sayIgnoredConfig([line]) }
            }
        }
        return nil
    }

    /// The local date to act for: `--date` when given (then `TZ` is not consulted), else the
    /// date of the real clock in the local zone.
    func date(_ arguments: ParsedArguments) throws -> LocalDate {
        try arguments.value(Options.date, self) ?? zone().local(clock.now()).date
    }

    /// The user's journal, opened (and created, and migrated) once per command. A plan an
    /// older config file still names moves into it as it is migrated, and that is said once.
    func journal() throws -> Journal {
        try opened { () throws -> Journal in try Journal(path: paths.journal, legacyPlan: legacyPlan()) }
    }

    private func opened(_ open: () throws -> Journal) throws -> Journal {
        if let openedJournal { return openedJournal }
        let journal = try open()
        if journal.adoptedLegacyPlan {
            stderr.line("manna: the reading plan moved from \(paths.config) into the journal; its plan and plan_start lines are no longer read")
        }
        openedJournal = journal
        return journal
    }

    /// The plan the config file names, from versions that kept it there.
    private func legacyPlan() -> Journal.LegacyPlan? {
        guard let id = config().plan else { return nil }
        let now = clock.now()
        let today = (try? zone())?.local(now).date ?? Zone.utc.local(now).date
        return Journal.LegacyPlan(id: id, start: config().planStart, today: today, now: now)
    }

    private var openedJournal: Journal?

    /// The journal when its file exists, else nil: commands that only read never create one,
    /// and change nothing on disk while they read (`Journal(openingForReading:)`); the first
    /// write, if the command makes one, opens it as a writer.
    func existingJournal() throws -> Journal? {
        guard openedJournal != nil || Files.exists(paths.journal) else { return nil }
        return try opened { () throws -> Journal in try Journal(openingForReading: paths.journal, legacyPlan: legacyPlan()) }
    }

    /// Prints one JSON document on one line.
    func json(_ value: JSON) {
        stdout.line(value.text)
    }
}

func monotonicSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// A running plan as the journal names it: loaded, or a run whose plan cannot be loaded.
enum RunningPlan {
    case loaded(Plan, PlanRun)
    case broken(PlanRun, reason: String)

    var run: PlanRun {
        switch self {
        case .loaded(_, let run), .broken(let run, _): run
        }
    }
}

/// `--color`: colour and bold on a terminal (auto), always, or never.
enum ColorChoice: String, CaseIterable {
    case auto, always, never
}
