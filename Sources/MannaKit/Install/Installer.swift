// Puts manna, its helpers (notifications, sound), the reader window, the text database, the man pages, shell
// completions, desktop entry and icon, the GNOME Shell extension, and a scheduler (systemd user timer or crontab line) in
// place, and takes them away again, leaving the user's own data alone. With a destination
// folder (--destdir) it writes the same files under it for a package, and sets nothing up.
import GnomeShellExtension

#if canImport(Glibc)
import Glibc
#endif

/// Why install or uninstall stopped.
public enum InstallError: Error, Equatable, Sendable {
    case badPrefix(String, problem: String)
    case badDestination(String, problem: String)
    case noHome
    case cannotInstall(FileError)
    case cannotRemove(FileError)
    case cronMissing
    /// A program ran (or could not be run) and failed: the command line and what it said.
    case commandFailed(command: String, detail: String)

    public var message: String {
        switch self {
        case .badPrefix(let prefix, let problem): "--prefix '\(prefix)': \(problem)"
        case .badDestination(let destination, let problem): "--destdir '\(destination)': \(problem)"
        case .noHome: "HOME is not set to an absolute path: set it, or give --prefix DIR"
        case .cannotInstall(let error): "cannot install: \(error.message)"
        case .cannotRemove(let error): "cannot remove: \(error.message)"
        case .cronMissing: "crontab was not found on PATH: install cron (Debian: apt-get install cron), or leave out --cron"
        case .commandFailed(let command, let detail): "'\(command)' failed" + (detail.isEmpty ? "" : ": " + detail)
        }
    }
}

/// Whether what `install` set up will run `manna tick` here.
public enum SchedulerState: Equatable, Sendable {
    case running
    /// Installed, but nothing will run it on this machine now: why, and what to do.
    case notRunning(String)
}

/// What runs `manna tick` every minute.
public enum TickScheduler: Sendable {
    /// The user units manna.service and manna.timer, enabled when a systemd user manager runs.
    case systemd
    /// A line in the user's crontab.
    case cron
}

/// What `manna` generates from its own command table: the man pages and the completion
/// scripts. MannaApp makes them (the parser's definitions are there); the installer writes them.
public struct CommandLineFiles: Equatable, Sendable {
    /// manna(1) and manna-config(5), roff.
    public var manual: String
    public var configManual: String
    /// manna-reader(1), installed with the window.
    public var readerManual: String
    public var bashCompletion: String
    public var zshCompletion: String
    public var fishCompletion: String

    public init(manual: String, configManual: String, readerManual: String, bashCompletion: String, zshCompletion: String, fishCompletion: String) {
        self.manual = manual
        self.configManual = configManual
        self.readerManual = readerManual
        self.bashCompletion = bashCompletion
        self.zshCompletion = zshCompletion
        self.fishCompletion = fishCompletion
    }
}

/// Where everything goes, for one prefix.
public struct InstallLayout: Equatable, Sendable {
    public let prefix: String
    public let home: String
    /// `$XDG_CONFIG_HOME/systemd/user`; with a destination, `<prefix>/lib/systemd/user`.
    public let unitDirectory: String
    /// Set by `--destdir`: every file is written to this folder + its path, for a package to be
    /// made of them (paths written into files, like the unit's ExecStart, stay without it).
    public let destination: String?

    public var program: String { prefix + "/bin/manna" }
    /// The reader window, a command of its own (`manna-reader "John 3:16"`) beside `manna`.
    public var reader: String { prefix + "/bin/" + DesktopFiles.readerName }
    /// Where `helper` goes: `<prefix>/libexec/manna/`, where an installed manna looks for it.
    public func helper(_ helper: HelperProgram) -> String { prefix + "/libexec/manna/" + helper.rawValue }
    /// Where `TextDatabaseLocator` looks first for an installed manna: `<bin>/../share/manna/`.
    public var textDatabase: String { prefix + "/share/manna/" + TextDatabaseLocator.fileName }
    public var searchIndex: String { TextDatabaseLocator.searchIndexPath(of: textDatabase) }
    /// Where `MessageCatalogues` looks for an installed manna's messages in `language`:
    /// `<bin>/../share/locale/LANG/LC_MESSAGES/manna.mo`, the place of every program's.
    public func catalogue(language: String) -> String { prefix + "/share/locale/" + language + "/LC_MESSAGES/" + Messages.domain + ".mo" }
    /// The catalogues installed under the prefix, one a language.
    var installedCatalogues: [String] {
        Files.list(prefix + "/share/locale").map(catalogue(language:)).filter(Files.exists)
    }
    public var service: String { unitDirectory + "/" + SchedulerFiles.serviceName }
    public var timer: String { unitDirectory + "/" + SchedulerFiles.timerName }
    // Where the desktop, man and each shell look under a prefix: XDG_DATA_HOME (~/.local/share)
    // for a user's install, /usr/share for a package; man also finds <bin>/../share/man for
    // each folder on PATH, and bash-completion <bin>/../share/bash-completion.
    public var desktopEntry: String { prefix + "/share/applications/" + DesktopFiles.entryName }
    public var icon: String { prefix + "/share/icons/hicolor/scalable/apps/" + DesktopFiles.iconName + ".svg" }
    /// GNOME Shell loads a user's extensions from XDG_DATA_HOME (~/.local/share) and a package's
    /// from /usr/share, each from gnome-shell/extensions/<uuid>.
    public var gnomeShellExtension: String { prefix + "/share/gnome-shell/extensions/" + GnomeShellExtension.uuid }
    /// The extension's files made for GNOME Shell `major`, each with its text, where they go.
    public func gnomeShellExtensionFiles(forShell major: Int) -> [(path: String, text: String)] {
        GnomeShellExtension.files(forShell: major).map { (gnomeShellExtension + "/" + $0.name, $0.text) }
    }
    /// Where the extension's files go, whichever Shell they were made for (the names are the same).
    public var gnomeShellExtensionPaths: [String] { GnomeShellExtension.legacyFiles.map { gnomeShellExtension + "/" + $0.name } }
    public var manual: String { prefix + "/share/man/man1/manna.1" }
    public var configManual: String { prefix + "/share/man/man5/manna-config.5" }
    public var readerManual: String { prefix + "/share/man/man1/" + DesktopFiles.readerName + ".1" }
    public var bashCompletion: String { prefix + "/share/bash-completion/completions/manna" }
    /// Debian's zsh has /usr/share/zsh/vendor-completions on its fpath for packages, and
    /// <prefix>/share/zsh/site-functions for /usr/local; a user's ~/.local needs a line in ~/.zshrc.
    public var zshCompletion: String { prefix + (prefix == "/usr" ? "/share/zsh/vendor-completions/_manna" : "/share/zsh/site-functions/_manna") }
    /// fish reads vendor_completions.d under each of XDG_DATA_HOME and XDG_DATA_DIRS.
    public var fishCompletion: String { prefix + "/share/fish/vendor_completions.d/manna.fish" }
    /// The link `systemctl enable` makes for `WantedBy=timers.target`.
    public var timerLink: String { unitDirectory + "/timers.target.wants/" + SchedulerFiles.timerName }
    public var cronLine: String { SchedulerFiles.cronLine(program: program, home: home) }
    /// The timer a package ships for this prefix, where systemd finds a package's user units
    /// (`/usr/lib/systemd/user` for `/usr`).
    public var packagedTimer: String { prefix + "/lib/systemd/user/" + SchedulerFiles.timerName }

    /// True for the crontab lines that run this layout's manna: the line `install --cron`
    /// writes, and the one older Mannas wrote.
    public func isCronLine(_ line: String) -> Bool {
        line == cronLine || line == SchedulerFiles.legacyCronLine(program: program, home: home)
    }

    /// The layout under `prefix` (default `$HOME/.local`). The prefix must be absolute, and free
    /// of quotes, backslashes and control characters: it is written into a unit (whose program
    /// path systemd refuses to have quotes or backslashes) and into a crontab line.
    /// With a `destination` (`--destdir`), the prefix must be given, and the units go where
    /// systemd finds a package's user units, `<prefix>/lib/systemd/user`.
    public init(prefix: String?, environment: Environment, destination: String? = nil) throws(InstallError) {
        guard let home = environment["HOME"], home.hasPrefix("/") else { throw .noHome }
        var prefix = prefix ?? home + "/.local"
        guard prefix.hasPrefix("/") else { throw .badPrefix(prefix, problem: "give an absolute path, like /opt/manna") }
        guard !prefix.unicodeScalars.contains(where: { "\"'\\".unicodeScalars.contains($0) || $0.properties.generalCategory == .control }) else {
            throw .badPrefix(prefix, problem: "systemd cannot run a program whose path has quotes, backslashes or control characters")
        }
        while prefix.count > 1 && prefix.hasSuffix("/") { prefix.removeLast() }
        self.prefix = prefix == "/" ? "" : prefix
        self.home = home
        if var destination {
            guard destination.hasPrefix("/") else { throw .badDestination(destination, problem: "give an absolute path, like /tmp/manna-root") }
            while destination.count > 1 && destination.hasSuffix("/") { destination.removeLast() }
            self.destination = destination == "/" ? "" : destination
            unitDirectory = self.prefix + "/lib/systemd/user"
        } else {
            self.destination = nil
            unitDirectory = Paths(environment: environment).unitDirectory
        }
    }

    /// Where `path` is written: under the destination, if there is one.
    public func written(_ path: String) -> String { (destination ?? "") + path }
}

/// Installs and uninstalls, reporting each step in one line.
public struct Installer {
    public let layout: InstallLayout
    private let environment: Environment
    private let run: ProcessRunner
    private let report: (String) -> Void
    private let processRoot: String
    /// The GNOME Shell the extension is made for: its major version.
    public let gnomeShell: Int

    /// - Parameters:
    ///   - environment: for `XDG_RUNTIME_DIR` (is systemd running?), `PATH` (a hint) and the
    ///     user's data folders (named when uninstalling).
    ///   - runner: runs systemctl and crontab.
    ///   - report: gets one line per step done.
    ///   - processRoot: where the running processes are listed (`/proc`), to see whether a cron daemon runs.
    ///   - gnomeShell: the GNOME Shell version to make the extension for (see `gnomeShellVersion`);
    ///     nil: 43-44, whose extension also does no harm where there is no GNOME.
    public init(layout: InstallLayout, environment: Environment, runner: @escaping ProcessRunner, report: @escaping (String) -> Void,
                processRoot: String = "/proc", gnomeShell: Int? = nil) {
        self.layout = layout
        self.environment = environment
        self.run = runner
        self.report = report
        self.processRoot = processRoot
        self.gnomeShell = gnomeShell ?? GnomeShellExtension.firstModuleShell - 1
    }

    /// The major version of the GNOME Shell installed here ("GNOME Shell 46.2" gives 46), or nil
    /// when there is none (or it says something else).
    public static func gnomeShellVersion(runner: ProcessRunner) -> Int? {
        guard let result = try? runner("gnome-shell", ["--version"], nil), result.status == 0 else { return nil }
        let words = result.output.split(whereSeparator: \.isWhitespace)
        guard words.count == 3, words[0] == "GNOME", words[1] == "Shell" else { return nil }
        return Int(words[2].prefix { $0.isNumber })
    }

    /// True when a systemd user manager runs for this user: its private socket exists.
    public var systemdIsRunning: Bool { Self.systemdIsRunning(environment: environment) }

    /// True when something will run the lines of a crontab here.
    public var cronIsRunning: Bool { Self.cronIsRunning(environment: environment, processRoot: processRoot) }

    public static func systemdIsRunning(environment: Environment) -> Bool {
        guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else { return false }
        return Files.exists(runtime + "/systemd/private")
    }

    /// The names cron daemons run under: Debian's cron, cronie, busybox and dcron (crond), fcron, bcron.
    static let cronDaemonNames: Set<String> = ["cron", "crond", "fcron", "bcron-sched"]

    /// True when a cron daemon is among the running processes (listed under `processRoot`), or
    /// systemd-cron (no daemon: it turns crontabs into timers) is installed and a systemd user
    /// manager runs.
    public static func cronIsRunning(environment: Environment, processRoot: String = "/proc") -> Bool {
        let generator = "/systemd/system-generators/systemd-crontab-generator"
        if ["/usr/lib", "/lib"].contains(where: { Files.exists($0 + generator) }) && systemdIsRunning(environment: environment) { return true }
        return Files.list(processRoot).contains { entry in
            guard entry.allSatisfy(\.isNumber), let name = try? Files.readText(processRoot + "/" + entry + "/comm", limit: 64) else { return false }
            return cronDaemonNames.contains(name.trimmingSpaces)
        }
    }

    /// What `doctor` judges the scheduler by (`SchedulerFacts.verdict`), observed here for the
    /// manna installed as `installation` (this layout's prefix): where the timer unit is, what
    /// `systemctl --user is-enabled` and `is-active` say (the first works without a manager, the
    /// second is asked only where one may run), the crontab's manna lines and whether a cron
    /// daemon runs.
    public func schedulerFacts(installation: Installation) -> SchedulerFacts {
        var facts = SchedulerFacts(installation: installation)
        facts.timerUnit = [layout.timer, layout.packagedTimer].first(where: Files.exists)
        func answer(_ question: String) -> String? {
            guard let result = try? run("systemctl", ["--user", question, SchedulerFiles.timerName], nil) else { return nil }
            let word = result.output.split(separator: "\n").first.map { String($0).trimmingSpaces } ?? ""
            return word.isEmpty ? nil : word
        }
        facts.timerEnabled = answer("is-enabled").map { $0 == "enabled" || $0 == "enabled-runtime" } ?? Files.exists(layout.timerLink)
        if systemdIsRunning, let state = answer("is-active") {
            facts.userManager = true
            facts.timerActive = state == "active"
        }
        let crontab = (try? readCrontab(required: false)) ?? nil
        for line in (crontab ?? "").split(separator: "\n").map({ String($0).trimmingSpaces }) where !line.hasPrefix("#") {
            if let program = SchedulerFiles.cronProgram(in: line, home: layout.home) {
                facts.cronLines.append(.init(line: line, program: program, exists: Files.isExecutable(program)))
            }
        }
        facts.cronDaemon = cronIsRunning
        return facts
    }

    /// Copies `program` (and its helpers, those there are) and `textDatabase` under the prefix,
    /// writes `documents` (man pages, completions), the desktop entry and icon and the GNOME Shell
    /// extension, then sets up
    /// `scheduler`. The crontab is read first, and every file is written beside its
    /// destination and renamed into place only once all are written, so no crontab, a full disk
    /// or an unwritable prefix leaves things as they were. When systemctl or crontab fails after
    /// that, the files stay in place and the error names the command. Running it again replaces
    /// the files and never adds a second crontab line. Returns whether the scheduler will run
    /// here: installing where no systemd user manager or no cron daemon runs is allowed (a
    /// machine being set up), and the caller says so. For a layout without a destination
    /// (`stage` writes for a package).
    @discardableResult
    public func install(program: String, textDatabase: String, catalogues: [MessageCatalogues.Catalogue] = [], documents: CommandLineFiles,
                        scheduler: TickScheduler) throws(InstallError) -> SchedulerState {
        assert(layout.destination == nil, "install sets up this machine: stage writes for a package")
        let newCrontab = scheduler == .cron ? try crontabAdding() : nil
        try place(files(program: program, textDatabase: textDatabase, catalogues: catalogues, documents: documents, units: scheduler == .systemd))
        let state = try start(scheduler, newCrontab: newCrontab)
        notes()
        return state
    }

    /// For a manna installed for everyone under this layout's prefix (`Installation.system`):
    /// copies nothing. With systemd it enables the units the package ships (or, for a prefix
    /// that ships none, writes the user's own for that program), with cron it adds the crontab
    /// line for that program. Returns whether the scheduler will run here, as `install` does.
    @discardableResult
    public func setUp(_ scheduler: TickScheduler) throws(InstallError) -> SchedulerState {
        assert(layout.destination == nil, "setUp sets up this machine")
        report("\(layout.program) is installed for every user: nothing to copy")
        let newCrontab = scheduler == .cron ? try crontabAdding() : nil
        if scheduler == .systemd && !Files.exists(layout.packagedTimer) {
            try place(schedulerUnits())
        } else if scheduler == .systemd {
            // Units an earlier `manna install` wrote in the user's folder would hide the package's
            // (systemd prefers them), running a copy that is not the package's.
            for unit in [layout.timer, layout.service] {
                do {
                    if try Files.remove(unit) { report("removed \(unit): the package's \(Files.parent(of: layout.packagedTimer)) units run instead") }
                } catch {
                    throw .cannotRemove(error)
                }
            }
        }
        return try start(scheduler, newCrontab: newCrontab)
    }

    /// The user's crontab with the line added (in place of an older form of it and of lines
    /// running a manna that is gone), or nil when it has the line already; read before any file
    /// is written, so no crontab stops the install with nothing done.
    private func crontabAdding() throws(InstallError) -> String? {
        let home = layout.home
        return SchedulerFiles.adding(layout.cronLine, to: try readCrontab(required: true) ?? "") { line in
            layout.isCronLine(line) || SchedulerFiles.cronProgram(in: line, home: home).map { !Files.isExecutable($0) } ?? false
        }
    }

    /// Enables the timer, or writes the crontab, and says whether it will run here.
    private func start(_ scheduler: TickScheduler, newCrontab: String?) throws(InstallError) -> SchedulerState {
        switch scheduler {
        case .systemd where systemdIsRunning:
            try systemctl("daemon-reload")
            try systemctl("enable", "--now", SchedulerFiles.timerName)
            return .running
        case .systemd:
            return .notRunning("installed, but no systemd user manager runs for you here (as over ssh, or in a container), so nothing "
                + "runs 'manna tick': run 'manna install --cron' to use cron, or 'systemctl --user enable --now \(SchedulerFiles.timerName)' "
                + "in a session where systemd runs")
        case .cron:
            if let newCrontab {
                try writeCrontab(newCrontab)
                report("added to your crontab: \(layout.cronLine)")
            } else {
                report("your crontab already has: \(layout.cronLine)")
            }
            guard cronIsRunning else {
                return .notRunning("installed, but no cron daemon is running, so nothing runs the crontab line: start one "
                    + "(Debian: apt-get install cron, then systemctl enable --now cron), or leave out --cron to use the systemd timer")
            }
            return .running
        }
    }

    /// What a user of a copy in the home folder must do by hand: PATH, zsh's fpath, GNOME.
    private func notes() {
        let bin = Files.parent(of: layout.program)
        if !(environment["PATH"] ?? "").split(separator: ":").contains(where: { $0 == bin }) {
            report("note: \(bin) is not on your PATH; add it to run manna by name")
        }
        // zsh looks in /usr/local/share/zsh/site-functions and a package's vendor-completions
        // only: elsewhere (~/.local) the folder must be put on fpath by the user.
        let zshFolder = Files.parent(of: layout.zshCompletion)
        if environment["SHELL"]?.hasSuffix("/zsh") == true && !Self.zshDefaultFunctionFolders.contains(zshFolder) {
            report("note: for zsh to complete manna, add 'fpath=(\(zshFolder) $fpath)' to your .zshrc before compinit")
        }
        // GNOME Shell finds a new extension when it starts, and runs only those the user enabled.
        if environment["XDG_CURRENT_DESKTOP"]?.split(separator: ":").contains(where: { $0 == "GNOME" }) == true {
            report("note: for the verse in GNOME's top bar, log out and in, then run 'gnome-extensions enable \(GnomeShellExtension.uuid)'")
        }
    }

    /// The folders Debian's zsh has on its fpath for functions installed by packages and by root.
    static let zshDefaultFunctionFolders: Set<String> = ["/usr/local/share/zsh/site-functions", "/usr/share/zsh/vendor-completions"]

    /// Writes everything `install` writes, with the units as a package ships them
    /// (`<prefix>/lib/systemd/user`, ExecStart the program under the prefix), under the layout's
    /// destination: no systemctl, no crontab, nothing in the user's folders. `tools/make-deb`
    /// builds the Debian package from it, so the package and `manna install` cannot differ.
    public func stage(program: String, textDatabase: String, catalogues: [MessageCatalogues.Catalogue] = [], documents: CommandLineFiles) throws(InstallError) {
        assert(layout.destination != nil, "stage writes for a package: install sets up this machine")
        try place(files(program: program, textDatabase: textDatabase, catalogues: catalogues, documents: documents, units: true))
    }

    /// Every file install and stage write, in the order they are written.
    private func files(program: String, textDatabase: String, catalogues: [MessageCatalogues.Catalogue], documents: CommandLineFiles, units: Bool) -> [PlacedFile] {
        var files: [PlacedFile] = [PlacedFile(destination: layout.program, source: .copy(program), mode: 0o755)]
        // The reader window where it was built beside manna (a build folder, an installed bin/);
        // the desktop entry opens it, or a terminal without it.
        let reader = Files.parent(of: program) + "/" + DesktopFiles.readerName
        let hasReader = Files.isExecutable(reader)
        if hasReader { files.append(PlacedFile(destination: layout.reader, source: .copy(reader), mode: 0o755)) }
        for helper in HelperProgram.allCases {
            if let found = helper.find(besideProgram: program) {
                files.append(PlacedFile(destination: layout.helper(helper), source: .copy(found), mode: 0o755))
            }
        }
        // The index first: a database is never newer than the index beside it.
        files.append(PlacedFile(destination: layout.searchIndex, source: .copy(TextDatabaseLocator.searchIndexPath(of: textDatabase)), mode: 0o644))
        files.append(PlacedFile(destination: layout.textDatabase, source: .copy(textDatabase), mode: 0o644))
        files += catalogues.map { PlacedFile(destination: layout.catalogue(language: $0.language), source: .copy($0.path), mode: 0o644) }
        let texts = (hasReader ? [(layout.readerManual, documents.readerManual)] : []) + [
            (layout.manual, documents.manual), (layout.configManual, documents.configManual),
            (layout.bashCompletion, documents.bashCompletion), (layout.zshCompletion, documents.zshCompletion),
            (layout.fishCompletion, documents.fishCompletion),
            (layout.desktopEntry, DesktopFiles.entry(window: hasReader)), (layout.icon, DesktopFiles.icon),
        ]
        files += (texts + layout.gnomeShellExtensionFiles(forShell: gnomeShell)).map { PlacedFile(destination: $0.0, source: .text($0.1), mode: 0o644) }
        if units { files += schedulerUnits() }
        return files
    }

    /// manna.service, running this layout's program, and manna.timer.
    private func schedulerUnits() -> [PlacedFile] {
        [PlacedFile(destination: layout.service, source: .text(SchedulerFiles.service(program: layout.program, home: layout.home)), mode: 0o644),
         PlacedFile(destination: layout.timer, source: .text(SchedulerFiles.timer), mode: 0o644)]
    }

    /// Stops and removes the timer and the crontab line (whichever are there), then the files
    /// `install` put under the prefix, and the folders it leaves empty below the prefix and the
    /// XDG folders (never those themselves). The user's journal and config are kept, and it says
    /// so. With `cronRequired`, a crontab that cannot be read is an error instead of skipped.
    /// With `keepingProgram` (a manna installed for every user, `Installation.system`), the
    /// program and its files are not the user's to remove: only the scheduler and the cache go.
    public func uninstall(cronRequired: Bool, keepingProgram: Bool = false) throws(InstallError) {
        var removedAny = false
        let paths = Paths(environment: environment)
        let configHome = Files.parent(of: Files.parent(of: layout.unitDirectory))
        func remove(_ path: String, upTo top: String) throws(InstallError) {
            do {
                if try Files.remove(path) {
                    report("removed \(path)")
                    removedAny = true
                }
            } catch {
                throw .cannotRemove(error)
            }
            // The folders install made for it, once empty; a folder with anything in it stays.
            var folder = Files.parent(of: path)
            while folder.hasPrefix(top + "/") && Files.removeDirectoryIfEmpty(folder) { folder = Files.parent(of: folder) }
        }

        // The user's units, or the package's enabled by the user.
        var link = stat()
        // The link is there even when it points at a unit that is gone (lstat, not stat).
        let hasUnits = Files.exists(layout.service) || Files.exists(layout.timer) || lstat(layout.timerLink, &link) == 0
        if hasUnits && systemdIsRunning {
            try systemctl("disable", "--now", SchedulerFiles.timerName)
            removedAny = true
        }
        // Without a running manager nothing is stopped, but the link an earlier `enable` made goes.
        try remove(layout.timerLink, upTo: configHome)
        try remove(layout.timer, upTo: configHome)
        try remove(layout.service, upTo: configHome)
        if hasUnits && systemdIsRunning { try systemctl("daemon-reload") }

        if let current = try readCrontab(required: cronRequired), let updated = SchedulerFiles.removing(where: layout.isCronLine, from: current) {
            try writeCrontab(updated)
            report("removed from your crontab: \(layout.cronLine)")
            removedAny = true
        }

        if keepingProgram {
            report("kept \(layout.program): it is installed for every user, and the system's package manager removes it")
        } else {
            for file in [layout.program, layout.reader] + HelperProgram.allCases.map(layout.helper) + [layout.searchIndex, layout.textDatabase] + layout.installedCatalogues
                + [layout.readerManual, layout.manual, layout.configManual, layout.bashCompletion, layout.zshCompletion, layout.fishCompletion, layout.desktopEntry, layout.icon]
                + layout.gnomeShellExtensionPaths {
                try remove(file, upTo: layout.prefix)
            }
        }
        // What install and the ticks wrote in the cache: with no manna to keep it current, a
        // widget must not go on showing a timeline that no longer moves.
        let cacheHome = Files.parent(of: paths.cacheDirectory)
        for file in [paths.timeline, paths.promptLines, paths.lastTick, paths.listenLock] { try remove(file, upTo: cacheHome) }

        if !removedAny { report("nothing to remove: manna is not installed under \(layout.prefix.isEmpty ? "/" : layout.prefix)") }
        report("kept your own data: \(paths.dataDirectory) (journal) and \(paths.configDirectory) (config)")
    }

    // MARK: - Files

    private struct PlacedFile {
        enum Source {
            case copy(String)
            case text(String)
        }
        let destination: String
        let source: Source
        let mode: mode_t
    }

    /// Writes every file beside its destination, then renames each into place.
    private func place(_ files: [PlacedFile]) throws(InstallError) {
        var written: [String] = []
        do throws(FileError) {
            for file in files {
                let destination = layout.written(file.destination)
                try Files.makeDirectories(Files.parent(of: destination))
                switch file.source {
                case .copy(let source): written.append(try Files.copy(source, beside: destination, mode: file.mode))
                case .text(let text): written.append(try Files.write(text, beside: destination, mode: file.mode))
                }
            }
            for (file, temporary) in zip(files, written) {
                let destination = layout.written(file.destination)
                try Files.rename(temporary, to: destination)
                report("installed \(destination)")
            }
        } catch {
            for temporary in written { _ = try? Files.remove(temporary) }
            throw .cannotInstall(error)
        }
    }

    // MARK: - Programs

    private func systemctl(_ arguments: String...) throws(InstallError) {
        let arguments = ["--user"] + arguments
        try runChecked("systemctl", arguments)
        report("ran systemctl \(arguments.joined(separator: " "))")
    }

    /// The user's crontab ("" when they have none), or nil when `crontab` cannot be used and
    /// `required` is false.
    private func readCrontab(required: Bool) throws(InstallError) -> String? {
        let result: ProcessResult
        do {
            result = try run("crontab", ["-l"], nil)
        } catch {
            guard required else { return nil }
            if case .notFound = error { throw .cronMissing }
            throw .commandFailed(command: "crontab -l", detail: error.message)
        }
        if result.status == 0 { return result.output }
        // Every cron says so when the user has no crontab yet.
        if result.errorOutput.hasPrefix("no crontab for ") { return "" }
        guard required else { return nil }
        throw .commandFailed(command: "crontab -l", detail: result.firstLine)
    }

    private func writeCrontab(_ text: String) throws(InstallError) {
        try runChecked("crontab", ["-"], input: text)
    }

    private func runChecked(_ program: String, _ arguments: [String], input: String? = nil) throws(InstallError) {
        let command = ([program] + arguments).joined(separator: " ")
        let result: ProcessResult
        do { result = try run(program, arguments, input) } catch { throw .commandFailed(command: command, detail: error.message) }
        guard result.status == 0 else {
            throw .commandFailed(command: command, detail: result.firstLine.isEmpty ? "exit status \(result.status)" : result.firstLine)
        }
    }
}
