// What a command gets from the outside world: environment, output streams, terminal, the text database.
#if canImport(Glibc)
import Glibc
#endif
import MannaKit

/// A buffered writer on a file descriptor (stdout, stderr).
final class Output {
    private let descriptor: Int32
    private var buffer: [UInt8] = []

    init(descriptor: Int32) {
        self.descriptor = descriptor
        buffer.reserveCapacity(4096)
    }

    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 64 * 1024 { flush() }
    }

    func line(_ text: String) { write(text + "\n") }

    func flush() {
        var offset = 0
        while offset < buffer.count {
            let written = buffer[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { break }  // a closed pipe: nothing more can be said
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// The collaborators every command runs with.
final class Context {
    let environment: Environment
    let stdout: Output
    let stderr: Output
    let executablePath: String
    /// Columns to wrap to, when stdout is a terminal.
    let terminalWidth: Int?
    let stdoutIsTerminal: Bool

    init(environment: Environment, stdout: Output, stderr: Output, executablePath: String, terminalWidth: Int?, stdoutIsTerminal: Bool) {
        self.environment = environment
        self.stdout = stdout
        self.stderr = stderr
        self.executablePath = executablePath
        self.terminalWidth = terminalWidth
        self.stdoutIsTerminal = stdoutIsTerminal
    }

    static func live() -> Context {
        let isTerminal = isatty(1) == 1
        var size = winsize()
        let width = isTerminal && ioctl(1, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : nil
        return Context(environment: .process, stdout: Output(descriptor: 1),
                       stderr: Output(descriptor: 2), executablePath: executablePath(), terminalWidth: width,
                       stdoutIsTerminal: isTerminal)
    }

    private static func executablePath() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return CommandLine.arguments.first ?? "manna" }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func textDatabaseLocation() throws(Failure) -> TextDatabaseLocation {
        do {
            return try TextDatabaseLocator.locate(environment: environment, executablePath: executablePath)
        } catch {
            throw Failure(error)
        }
    }

    /// Opens the text database, first building it from `curated/` when running from a
    /// checkout and it is missing or older than its sources.
    func openTextDatabase() throws(Failure) -> TextDatabase {
        let location = try textDatabaseLocation()
        do {
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
        } catch {
            throw Failure(error)
        }
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
    func zone() throws(Failure) -> Zone {
        if let systemZone { return systemZone }
        do {
            let zone = try Zone.system(environment: environment)
            systemZone = zone
            return zone
        } catch {
            throw Failure(message: error.message, code: ExitCode.usage)
        }
    }

    private var systemZone: Zone?

    /// The moment to act as if it were: `--now` when given (ISO 8601; without an offset it is
    /// local time), else the real clock.
    func now(_ option: String?, zone: Zone) throws(Failure) -> Instant {
        guard let option else { return Instant(time(nil)) }
        guard let instant = Moment.parse(option, zone: zone) else {
            throw .usage("--now must be a date and time like 2026-03-08T07:00 or 2026-03-08T07:00:00-05:00, not '\(option)'")
        }
        return instant
    }

    /// Everything the timeline depends on: zone, translation, notification time, days, plan.
    func timelineInputs(database: TextDatabase, zone: Zone, now: Instant) throws(Failure) -> TimelineInputs {
        let config = try config()
        let translation = try translation(nil, in: database)
        let plan = try runningPlan(database: database, today: zone.local(now).date, now: now)
        var prayerReminders: [ReminderSpec] = []
        if Files.exists(paths.journal) {
            let journal = try journal()
            do { prayerReminders = try journal.activeReminders().map(\.spec) } catch { throw Failure(error) }
        }
        return TimelineInputs(zone: zone, translation: translation, notifyAt: config.notifyAt, days: config.timelineDays, plan: plan,
                              daily: try dailySource(), prayerReminders: prayerReminders)
    }

    /// The verse of the day for `date`: in the translation asked for (the option, else the
    /// environment, the config, KJV), from the configured source.
    func dailyVerse(for date: LocalDate, translation option: String?) throws(Failure) -> DailyVerse {
        let database = try openTextDatabase()
        let translation = try translation(option, in: database)
        let source = try dailySource()
        do { return try database.dailyVerse(for: date, in: translation, source: source) } catch { throw Failure(error) }
    }

    /// Where the verse of the day comes from (config `daily_source`). Bookmarks are read from
    /// the journal only when it exists: a missing journal has none, and is not created.
    func dailySource() throws(Failure) -> DailySource {
        guard try config().dailySource == .bookmarks, Files.exists(paths.journal) else { return .curated }
        let journal = try journal()
        do { return .bookmarks(try journal.bookmarkedPassages()) } catch { throw Failure(error) }
    }

    /// The reading plan with this id (the user's file, else the shipped one); nil when there
    /// is none. A user plan file that cannot be read stops the command with its reason.
    func plan(id: String, database: TextDatabase) throws(Failure) -> Plan? {
        let found: Result<Plan, PlanError>?
        do { found = try PlanLibrary(database: database, userDirectory: paths.userPlans).plan(id: id) } catch { throw Failure(error) }
        switch found {
        case .none: return nil
        case .success(let plan): return plan
        case .failure(let problem): throw Failure(message: problem.message, code: ExitCode.dataError)
        }
    }

    /// The running plan and its progress. A plan still named in the config file (where older
    /// versions kept it) moves into the journal the first time, once, and is said so.
    /// No journal and no plan in the config: nil, without creating a journal.
    func runningPlan(database: TextDatabase, today: LocalDate, now: Instant) throws(Failure) -> (plan: Plan, run: PlanRun)? {
        let config = try config()
        guard Files.exists(paths.journal) || config.plan != nil else { return nil }
        let journal = try journal()
        var run: PlanRun?
        do {
            run = try journal.runningPlan()
            if run == nil, let id = config.plan, try !journal.hasPlanRuns() {
                guard try plan(id: id, database: database) != nil else {
                    throw Failure(message: "\(paths.config): plan '\(id)' is not a known plan; see 'manna plan list'", code: ExitCode.dataError)
                }
                run = try journal.startPlan(id, from: config.planStart ?? today, today: today, remindAt: nil, now: now)
                stderr.line("manna: the reading plan moved from \(paths.config) into the journal; its plan and plan_start lines are no longer read")
            }
        } catch let error as JournalError {
            throw Failure(message: error.message, code: ExitCode.ioError)
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(message: "\(error)", code: ExitCode.ioError)
        }
        guard let run else { return nil }
        guard let plan = try plan(id: run.planID, database: database) else {
            throw Failure(message: "the running plan '\(run.planID)' is not a known plan any more; see 'manna plan list'", code: ExitCode.dataError)
        }
        return (plan, run)
    }

    /// The user's files (XDG directories).
    var paths: Paths { Paths(environment: environment) }

    /// The user's config, read once; a bad file stops the command with its file and line.
    func config() throws(Failure) -> Config {
        if let loadedConfig { return loadedConfig }
        do {
            let config = try Config.load(paths.config)
            loadedConfig = config
            return config
        } catch {
            throw Failure(message: error.message, code: ExitCode.dataError)
        }
    }

    private var loadedConfig: Config?

    /// The translation to use: the option, else `MANNA_TRANSLATION`, else the config, else KJV.
    func translation(_ option: String?, in database: TextDatabase) throws(Failure) -> Translation {
        let fromEnvironment = environment.nonEmpty("MANNA_TRANSLATION")
        var code = option ?? fromEnvironment
        if code == nil { code = try config().translation }
        do {
            return try database.translation(code: code ?? "KJV")
        } catch {
            throw Failure(error)
        }
    }

    /// The local date to act for: `--date` when given (then `TZ` is not consulted), else the
    /// date of the real clock in the local zone.
    func date(_ option: String?) throws(Failure) -> LocalDate {
        guard let option else { return try zone().local(Instant(time(nil))).date }
        guard let date = LocalDate(parsing: option) else {
            throw .usage("--date must be a date YYYY-MM-DD that exists, like 2026-12-25, not '\(option)'")
        }
        return date
    }

    /// The user's journal, opened (and created, and migrated) once per command.
    func journal() throws(Failure) -> Journal {
        if let openedJournal { return openedJournal }
        do {
            let journal = try Journal(path: paths.journal)
            openedJournal = journal
            return journal
        } catch {
            throw Failure(message: error.message, code: ExitCode.ioError)
        }
    }

    private var openedJournal: Journal?

    /// Shows desktop notifications through `manna-notify`, found beside this executable.
    var notifier: DesktopNotifier {
        DesktopNotifier(executablePath: executablePath, environment: environment, userID: getuid())
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
