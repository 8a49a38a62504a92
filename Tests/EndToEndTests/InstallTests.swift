import Foundation
import Testing
import MannaKit
import TestSupport

extension Prerequisite {
    static let desktopFileValidate = command("desktop-file-validate", package: "desktop-file-utils")
    static let man = command("man", package: "man-db")
    static let bash = command("bash", package: "bash")
    static let bashCompletion = Prerequisite("bash-completion's loader (Debian: apt-get install bash-completion)") {
        FileManager.default.fileExists(atPath: "/usr/share/bash-completion/bash_completion")
    }
}

/// A temporary home for `manna install`, with stand-ins for systemctl and crontab (shell
/// scripts that record each call, the crontab kept in a file) first on PATH.
final class InstallSandbox {
    private let scratch: Scratch
    var root: String { scratch.path }
    var home: String { root + "/home" }
    var fakes: String { root + "/fakes" }
    var crontabFile: String { root + "/crontab" }
    var environment: [String: String] = [:]
    private var cronDaemon: RunningProgram?

    /// - Parameters:
    ///   - systemd: whether a systemd user manager seems to run (its private socket exists).
    ///   - crontab: the user's crontab before the test, if any.
    ///   - systemctl: the stand-in's body after it records the call.
    ///   - withCrontab: whether there is a crontab program at all.
    init(systemd: Bool = false, crontab: String? = nil, systemctl: String = "", withCrontab: Bool = true) throws {
        scratch = try Scratch("install")
        for folder in [home, fakes, root + "/run"] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        // systemd-analyze wants XDG_RUNTIME_DIR private to the user.
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: root + "/run")
        if systemd {
            try FileManager.default.createDirectory(atPath: root + "/run/systemd", withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: root + "/run/systemd/private", contents: nil)
        }
        try script("systemctl", "echo \"systemctl $*\" >> '\(root)/calls'\n" + systemctl)
        if withCrontab {
            try script("crontab", """
                echo "crontab $*" >> '\(root)/calls'
                case "$1" in
                    -l) [ -f '\(crontabFile)' ] && exec /bin/cat '\(crontabFile)'
                        echo "no crontab for tester" >&2; exit 1 ;;
                    -) exec /bin/cat > '\(crontabFile)' ;;
                esac
                echo "crontab: unexpected arguments: $*" >&2; exit 2
                """)
        }
        if let crontab { try crontab.write(toFile: crontabFile, atomically: false, encoding: .utf8) }
        environment = ["HOME": home, "PATH": fakes + ":/usr/bin:/bin", "XDG_RUNTIME_DIR": root + "/run"]
    }

    deinit {
        if let cronDaemon {
            cronDaemon.stop()
        }
    }

    /// Starts a process named `cron` (a copy of sleep), stopped with the sandbox: a cron daemon
    /// is what install and doctor look for among the running processes.
    func startCronDaemon() throws {
        try FileManager.default.createDirectory(atPath: root + "/sbin", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "/bin/sleep", toPath: root + "/sbin/cron")
        cronDaemon = try RunningProgram(root + "/sbin/cron", ["600"], environment: ProcessInfo.processInfo.environment, output: .file("/dev/null"))
    }

    private func script(_ name: String, _ body: String) throws {
        try ("#!/bin/sh\n" + body + "\n").write(toFile: fakes + "/" + name, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fakes + "/" + name)
    }

    func manna(_ arguments: String...) -> Run {
        precondition(Manna.textDatabaseReady)
        return Manna.run(arguments, environment: environment)
    }

    /// The calls the stand-ins recorded, in order.
    var calls: [String] {
        ((try? String(contentsOfFile: root + "/calls", encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    var crontab: String? { try? String(contentsOfFile: crontabFile, encoding: .utf8) }

    /// Every file and link under the home folder with its contents.
    func filesInHome() -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: home)
        while let name = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: home + "/" + name, isDirectory: &isDirectory), isDirectory.boolValue { continue }
            files[name] = FileManager.default.contents(atPath: home + "/" + name) ?? Data()
        }
        return files
    }

    /// Every folder under the home folder.
    func foldersInHome() -> Set<String> {
        var folders: Set<String> = []
        let enumerator = FileManager.default.enumerator(atPath: home)
        while let name = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: home + "/" + name, isDirectory: &isDirectory), isDirectory.boolValue { folders.insert(name) }
        }
        return folders
    }

    func write(_ text: String, at path: String) throws {
        try FileManager.default.createDirectory(atPath: (home + "/" + path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: home + "/" + path, atomically: false, encoding: .utf8)
    }
}

@Suite struct InstallTests {
    /// The reader window and the helpers other targets build beside manna are installed too,
    /// those that are there: the window beside manna, the helpers in libexec.
    static let helperLines: (installed: String, removed: String) = {
        let built = { (name: String) in FileManager.default.fileExists(atPath: (Manna.binary as NSString).deletingLastPathComponent + "/" + name) }
        let places = (built("manna-reader") ? ["bin/manna-reader"] : []) + ["manna-notify", "manna-play"].filter(built).map { "libexec/manna/" + $0 }
        return (places.map { "installed %h/.local/\($0)\n" }.joined(), places.map { "removed %h/.local/\($0)\n" }.joined())
    }()

    /// The man pages (the window's where it was built), completions, desktop entry and icon, and
    /// the GNOME Shell extension, in the order install writes them.
    static let documents = (FileManager.default.fileExists(atPath: (Manna.binary as NSString).deletingLastPathComponent + "/manna-reader")
        ? ["share/man/man1/manna-reader.1"] : []) + [
        "share/man/man1/manna.1", "share/man/man5/manna-config.5", "share/bash-completion/completions/manna",
        "share/zsh/site-functions/_manna", "share/fish/vendor_completions.d/manna.fish",
        "share/applications/manna.desktop", "share/icons/hicolor/scalable/apps/manna.svg",
    ] + ["metadata.json", "extension.js", "indicator.js", "timeline.js", "stylesheet.css"].map {
        "share/gnome-shell/extensions/manna@manna.invalid/" + $0
    }

    /// The message catalogues, one a language of po/ (compiled in the checkout), under share/locale.
    static func catalogueLines(_ verb: String) -> String {
        let languages = ((try? FileManager.default.contentsOfDirectory(atPath: Manna.root + "/po")) ?? []).filter { $0.hasSuffix(".po") }.sorted()
        return languages.map { "\(verb) %h/.local/share/locale/\($0.dropLast(3))/LC_MESSAGES/manna.mo\n" }.joined()
    }

    static func documentLines(_ verb: String) -> String {
        documents.map { "\(verb) %h/.local/\($0)\n" }.joined()
    }

    static func lines(_ text: String, home: String) -> String {
        text.replacingOccurrences(of: "%h", with: home)
    }

    @Test func installWithSystemdThenUninstallLeavesExactlyWhatWasThere() throws {
        let sandbox = try InstallSandbox(systemd: true)
        // The user's own data: a config, and a journal with a prayer in it.
        try sandbox.write("translation = WEB\n", at: ".config/manna/config")
        #expect(sandbox.manna("pray", "add", "my prayers").status == 0)
        // ~/.cache, as every desktop has: the XDG folders themselves are never removed.
        try FileManager.default.createDirectory(atPath: sandbox.home + "/.cache", withIntermediateDirectories: true)
        let before = sandbox.filesInHome()
        let foldersBefore = sandbox.foldersInHome()

        let install = sandbox.manna("install")
        #expect(install.status == 0)
        #expect(install.stderr == "")
        let installed = Self.lines("""
            installed %h/.local/bin/manna
            \(Self.helperLines.installed)installed %h/.local/share/manna/bible-search.sqlite
            installed %h/.local/share/manna/bible.sqlite
            \(Self.catalogueLines("installed"))\(Self.documentLines("installed"))installed %h/.config/systemd/user/manna.service
            installed %h/.config/systemd/user/manna.timer
            ran systemctl --user daemon-reload
            ran systemctl --user enable --now manna.timer
            note: %h/.local/bin is not on your PATH; add it to run manna by name
            wrote %h/.cache/manna/timeline.json

            """, home: sandbox.home)
        // The widgets and the prompt have the verse before the first tick.
        let timeline = try String(contentsOfFile: sandbox.home + "/.cache/manna/timeline.json", encoding: .utf8)
        #expect(timeline.contains("\"translation\": \"WEB\""))
        #expect(install.stdout == installed)
        #expect(sandbox.calls == ["systemctl --user daemon-reload", "systemctl --user enable --now manna.timer"])
        let units = sandbox.home + "/.config/systemd/user/"
        #expect(FileManager.default.contents(atPath: units + "manna.service") == FileManager.default.contents(atPath: Manna.root + "/systemd/manna.service"))
        #expect(FileManager.default.contents(atPath: units + "manna.timer") == FileManager.default.contents(atPath: Manna.root + "/systemd/manna.timer"))
        let mode = try FileManager.default.attributesOfItem(atPath: sandbox.home + "/.local/bin/manna")[.posixPermissions] as? Int
        #expect(mode == 0o755)

        // The installed manna finds the installed text database, and the user's config still applies.
        let program = sandbox.home + "/.local/bin/manna"
        let paths = Manna.run(["paths"], environment: sandbox.environment, executable: program)
        #expect(paths.stdout.hasPrefix("text_db=\(sandbox.home)/.local/share/manna/bible.sqlite\n"))
        #expect(Manna.run(["read", "John 11:35"], environment: sandbox.environment, executable: program).stdout == "John 11:35 (WEB)\n35 Jesus wept.\n")
        #expect(Manna.run(["search", "Jesus wept"], environment: sandbox.environment, executable: program).stdout.hasPrefix("John 11:35"))

        let again = sandbox.manna("install")
        #expect(again.status == 0)
        #expect(again.stdout == installed)

        // What a `manna listen` leaves in the cache.
        try sandbox.write("4242\n", at: ".cache/manna/listen.lock")
        let uninstall = sandbox.manna("uninstall")
        #expect(uninstall.status == 0)
        #expect(uninstall.stderr == "")
        let keptLine = "kept your own data: %h/.local/share/manna (journal) and %h/.config/manna (config)\n"
        #expect(uninstall.stdout == Self.lines("""
            ran systemctl --user disable --now manna.timer
            removed %h/.config/systemd/user/manna.timer
            removed %h/.config/systemd/user/manna.service
            ran systemctl --user daemon-reload
            removed %h/.local/bin/manna
            \(Self.helperLines.removed)removed %h/.local/share/manna/bible-search.sqlite
            removed %h/.local/share/manna/bible.sqlite
            \(Self.catalogueLines("removed"))\(Self.documentLines("removed"))removed %h/.cache/manna/timeline.json
            removed %h/.cache/manna/prompt.tsv
            removed %h/.cache/manna/listen.lock
            \(keptLine)
            """, home: sandbox.home))
        #expect(sandbox.calls.suffix(3) == ["systemctl --user disable --now manna.timer", "systemctl --user daemon-reload", "crontab -l"])
        #expect(sandbox.filesInHome() == before)
        // And no folder install made for them, now empty.
        #expect(sandbox.foldersInHome() == foldersBefore)

        let twice = sandbox.manna("uninstall")
        #expect(twice.status == 0)
        #expect(twice.stdout == Self.lines("nothing to remove: manna is not installed under %h/.local\n" + keptLine, home: sandbox.home))
        #expect(sandbox.calls.last == "crontab -l")
        #expect(sandbox.filesInHome() == before)
    }

    @Test(.needs(.systemdAnalyze)) func withoutSystemdTheUnitsAreInstalledAndTheExitSaysNothingRunsThem() throws {
        let sandbox = try InstallSandbox(systemd: false)
        let install = sandbox.manna("install")
        #expect(install.status == 69)
        #expect(install.stderr == "manna: installed, but no systemd user manager runs for you here (as over ssh, or in a container), so nothing "
            + "runs 'manna tick': run 'manna install --cron' to use cron, or 'systemctl --user enable --now manna.timer' in a session where systemd runs\n")
        #expect(install.stdout.hasSuffix("\nwrote \(sandbox.home)/.cache/manna/timeline.json\n"))
        #expect(sandbox.calls == [])
        // The checked-in units, with %h/.local/bin/manna now there to run.
        let verify = try tool(.systemdAnalyze, ["--user", "verify", Manna.root + "/systemd/manna.service", Manna.root + "/systemd/manna.timer"],
                              environment: sandbox.environment)
        #expect(verify.status == 0)
        // It exits 0 even on unknown keys and bad calendar specs: those are warnings.
        #expect(verify.stdout + verify.stderr == "")
    }

    @Test func withoutCrontabCronInstallStopsBeforeAnythingIsInstalled() throws {
        let sandbox = try InstallSandbox(withCrontab: false)
        sandbox.environment["PATH"] = sandbox.fakes
        let run = sandbox.manna("install", "--cron")
        #expect(run.status == 69)
        #expect(run.stderr == "manna: crontab was not found on PATH: install cron (Debian: apt-get install cron), or leave out --cron\n")
        #expect(run.stdout == "")
        #expect(sandbox.filesInHome() == [:])
        // Without --cron, uninstall has no crontab to look at and goes on.
        #expect(sandbox.manna("uninstall", "--cron").status == 69)
        #expect(sandbox.manna("uninstall").status == 0)
    }

    @Test func aFailingSystemctlGetsItsOwnWordsAndExit69() throws {
        let sandbox = try InstallSandbox(systemd: true, systemctl: "echo 'Failed to connect to bus: No medium found' >&2; exit 1")
        let run = sandbox.manna("install")
        #expect(run.status == 69)
        #expect(run.stderr == "manna: 'systemctl --user daemon-reload' failed: Failed to connect to bus: No medium found\n")
        #expect(sandbox.calls == ["systemctl --user daemon-reload"])
    }

    @Test func anUnwritablePrefixLeavesNothingHalfInstalled() throws {
        let sandbox = try InstallSandbox()
        // share/ is a file: bin/manna is written, then share/manna cannot be made.
        try sandbox.write("", at: ".local/share")
        let run = sandbox.manna("install")
        #expect(run.status == 74)
        #expect(run.stderr == "manna: cannot install: \(sandbox.home)/.local/share/manna: Not a directory\n")
        #expect(run.stdout == "")
        #expect(sandbox.filesInHome().keys.sorted() == [".local/share"])
    }

    @Test(arguments: [
        (["install", "opt"], 64, "manna: install takes no arguments; see 'manna install --help'\n"),
        (["install", "--prefix", "opt/manna"], 64, "manna: --prefix 'opt/manna': give an absolute path, like /opt/manna\n"),
        (["uninstall", "--prefix", "/opt/it's"], 64,
         "manna: --prefix '/opt/it's': systemd cannot run a program whose path has quotes, backslashes or control characters\n"),
        (["install", "--destdir", "/tmp/root"], 64, "manna: --destdir needs --prefix, the folder the package installs to (like /usr)\n"),
        (["install", "--prefix", "/usr", "--destdir", "/tmp/root", "--cron"], 64,
         "manna: --destdir writes files for a package, which adds no crontab line: leave out --cron\n"),
        (["install", "--prefix", "/usr", "--destdir", "root"], 64, "manna: --destdir 'root': give an absolute path, like /tmp/manna-root\n"),
    ])
    func badCommandLinesGetOneLineAnd64(arguments: [String], status: Int32, message: String) throws {
        let sandbox = try InstallSandbox()
        let run = Manna.run(arguments, environment: sandbox.environment)
        #expect(run.status == status)
        #expect(run.stderr == message)
        #expect(sandbox.filesInHome() == [:])
    }

    /// What man, the shells and the desktop find after an install: what `manna` itself prints, in
    /// the folders each looks in when ~/.local/bin is on PATH.
    @Test(.needs(.desktopFileValidate, .man, .bash, .bashCompletion, .fish)) func manTheShellsAndTheDesktopFindWhatInstallWrote() throws {
        let sandbox = try InstallSandbox(systemd: true)
        #expect(sandbox.manna("install").status == 0)
        let local = sandbox.home + "/.local/"
        let installed = { (path: String) in try String(contentsOfFile: local + path, encoding: .utf8) }
        #expect(try installed("share/man/man1/manna.1") == sandbox.manna("manpage", "manna").stdout)
        #expect(try installed("share/man/man5/manna-config.5") == sandbox.manna("manpage", "manna-config").stdout)
        #expect(try installed("share/bash-completion/completions/manna") == sandbox.manna("completions", "bash").stdout)
        #expect(try installed("share/zsh/site-functions/_manna") == sandbox.manna("completions", "zsh").stdout)
        #expect(try installed("share/fish/vendor_completions.d/manna.fish") == sandbox.manna("completions", "fish").stdout)
        #expect(try installed("share/applications/manna.desktop") == String(contentsOfFile: Manna.root + "/packaging/manna.desktop", encoding: .utf8))

        let validate = try tool(.desktopFileValidate, [local + "share/applications/manna.desktop"])
        #expect(validate.status == 0)
        #expect(validate.stdout + validate.stderr == "")
        // man-db's manpath adds <dir>/../share/man for each folder on PATH.
        let environment = ["HOME": sandbox.home, "PATH": local + "bin:/usr/bin:/bin"]
        let man = try tool(.man, ["-w", "manna", "manna-config"], environment: environment)
        #expect(man.stdout == local + "share/man/man1/manna.1\n" + local + "share/man/man5/manna-config.5\n")
        // bash-completion's loader looks in XDG_DATA_HOME (~/.local/share) first.
        let bash = try tool(.bash, ["-c", "source /usr/share/bash-completion/bash_completion; __load_completion manna && complete -p manna"],
                            environment: environment)
        #expect(bash.status == 0 && bash.stdout.hasPrefix("complete ") && bash.stdout.hasSuffix(" manna\n"), "\(bash.stdout)\(bash.stderr)")
        // fish reads ~/.local/share/fish/vendor_completions.d (not with --no-config) and runs the installed manna.
        let fish = try tool(.fish, ["-c", "complete -C 'manna rea'"], environment: environment)
        #expect(fish.stdout.split(separator: "\n").contains { $0.hasPrefix("read") }, "\(fish.stdout)\(fish.stderr)")

        #expect(sandbox.manna("uninstall").status == 0)
        #expect(Self.documents.allSatisfy { !FileManager.default.fileExists(atPath: local + $0) })
    }

    @Test func destdirWritesAPackagesFilesAndSetsNothingUp() throws {
        let sandbox = try InstallSandbox(systemd: true)
        let root = sandbox.root + "/package"
        let run = sandbox.manna("install", "--prefix", "/usr", "--destdir", root)
        #expect(run.status == 0)
        #expect(run.stderr == "")
        #expect(run.stdout.hasPrefix("installed \(root)/usr/bin/manna\n"))
        #expect(run.stdout.hasSuffix("installed \(root)/usr/lib/systemd/user/manna.service\ninstalled \(root)/usr/lib/systemd/user/manna.timer\n"))
        #expect(sandbox.calls == [])
        #expect(sandbox.filesInHome() == [:])
        for path in ["usr/share/manna/bible.sqlite", "usr/share/manna/bible-search.sqlite", "usr/share/locale/es/LC_MESSAGES/manna.mo",
                     "usr/share/man/man1/manna.1", "usr/share/zsh/vendor-completions/_manna",
                     "usr/share/applications/manna.desktop", "usr/share/icons/hicolor/scalable/apps/manna.svg",
                     "usr/share/gnome-shell/extensions/manna@manna.invalid/extension.js"] {
            #expect(FileManager.default.fileExists(atPath: root + "/" + path), "\(path)")
        }
        let service = try String(contentsOfFile: root + "/usr/lib/systemd/user/manna.service", encoding: .utf8)
        #expect(service.contains("\nExecStart=/usr/bin/manna tick\n"))
    }

    @Test func pathsNamesTheUnitFolder() {
        let run = manna("paths", environment: ["HOME": "/home/ann"])
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("text_db=") == true)
        #expect(lines.contains("units=/home/ann/.config/systemd/user"))
        #expect(manna("paths", environment: ["XDG_CONFIG_HOME": "/cfg"]).stdout.contains("\nunits=/cfg/systemd/user\n"))
    }

    @Test(.needs(.crontab)) func theCheckedInCrontabPassesCronsOwnCheck() throws {
        let run = try tool(.crontab, ["-n", Manna.root + "/cron/manna"])
        #expect(run.status == 0)
    }
}

/// Install and doctor with cron. One at a time: what they look for, a running cron daemon,
/// is a process any of them may start.
@Suite(.serialized) struct CronInstallTests {
    @Test(.needs(.systemdAnalyze, .crontab)) func anOddPrefixIsSpelledSoSystemdAndCronFindTheProgram() throws {
        let sandbox = try InstallSandbox(systemd: false, crontab: "")
        try sandbox.startCronDaemon()
        let prefix = sandbox.root + "/my apps 100% $x"
        let install = sandbox.manna("install", "--prefix", prefix)
        #expect(install.status == 69)
        let units = sandbox.home + "/.config/systemd/user/"
        let service = try String(contentsOfFile: units + "manna.service", encoding: .utf8)
        #expect(service.contains("\nExecStart=\"\(sandbox.root)/my apps 100%% $x/bin/manna\" tick\n"))
        let verify = try tool(.systemdAnalyze, ["--user", "verify", units + "manna.service", units + "manna.timer"], environment: sandbox.environment)
        #expect(verify.status == 0)
        #expect(verify.stdout + verify.stderr == "")

        #expect(sandbox.manna("install", "--cron", "--prefix", prefix).status == 0)
        let word = "\"\(sandbox.root)/my apps 100\\% \\$x/bin/manna\""
        #expect(sandbox.crontab?.hasSuffix("\n* * * * * test -x \(word) && \(word) tick\n") == true)
        #expect(try tool(.crontab, ["-n", sandbox.crontabFile]).status == 0)

        let paths = Manna.run(["paths"], environment: sandbox.environment, executable: prefix + "/bin/manna")
        #expect(paths.stdout.hasPrefix("text_db=\(prefix)/share/manna/bible.sqlite\n"))
        let uninstall = sandbox.manna("uninstall", "--prefix", prefix)
        #expect(uninstall.status == 0)
        #expect(sandbox.crontab == "")
        #expect(!FileManager.default.fileExists(atPath: prefix + "/bin/manna"))
    }

    static let usersCrontab = "MAILTO=\"\"\n# nightly backup\n0 3 * * * /usr/bin/backup --all\n"
    static let cronLine = "* * * * * test -x $HOME/.local/bin/manna && $HOME/.local/bin/manna tick"

    @Test(.needs(.crontab)) func cronInstallAddsOneLineAndKeepsTheUsersOwn() throws {
        let sandbox = try InstallSandbox(crontab: Self.usersCrontab)
        try sandbox.startCronDaemon()
        let install = sandbox.manna("install", "--cron")
        #expect(install.status == 0)
        #expect(install.stdout.contains("\nadded to your crontab: \(Self.cronLine)\n"))
        #expect(!install.stdout.contains(".config/systemd"))
        let withManna = Self.usersCrontab
            + "# Manna's scheduler, every minute: added by 'manna install --cron', removed by 'manna uninstall'.\n"
            + Self.cronLine + "\n"
        #expect(sandbox.crontab == withManna)
        #expect(try tool(.crontab, ["-n", sandbox.crontabFile]).status == 0)

        let again = sandbox.manna("install", "--cron")
        #expect(again.status == 0)
        #expect(again.stdout.contains("\nyour crontab already has: \(Self.cronLine)\n"))
        #expect(sandbox.crontab == withManna)
        #expect(sandbox.calls == ["crontab -l", "crontab -", "crontab -l"])
        #expect(!FileManager.default.fileExists(atPath: sandbox.home + "/.config/systemd"))

        let uninstall = sandbox.manna("uninstall", "--cron")
        #expect(uninstall.status == 0)
        #expect(uninstall.stdout.hasPrefix("removed from your crontab: \(Self.cronLine)\nremoved \(sandbox.home)/.local/bin/manna\n"))
        #expect(sandbox.crontab == Self.usersCrontab)
        #expect(sandbox.manna("uninstall", "--cron").status == 0)
        #expect(sandbox.crontab == Self.usersCrontab)
        #expect(sandbox.calls.suffix(3) == ["crontab -l", "crontab -", "crontab -l"])
    }

    @Test(.needs(.crontab)) func withoutACronDaemonTheLineIsAddedAndTheExitSaysNothingRunsIt() throws {
        try #require(!Installer.cronIsRunning(environment: [:]), "a cron daemon runs on this machine")
        let sandbox = try InstallSandbox(crontab: "")
        let install = sandbox.manna("install", "--cron")
        #expect(install.status == 69)
        #expect(install.stderr == "manna: installed, but no cron daemon is running, so nothing runs the crontab line: start one "
            + "(Debian: apt-get install cron, then systemctl enable --now cron), or leave out --cron to use the systemd timer\n")
        #expect(install.stdout.contains("\nadded to your crontab: \(Self.cronLine)\n"))
        #expect(install.stdout.hasSuffix("\nwrote \(sandbox.home)/.cache/manna/timeline.json\n"))
        #expect(sandbox.crontab?.hasSuffix(Self.cronLine + "\n") == true)

        // doctor: a crontab line is not a scheduler without a daemon to run it.
        let scheduler = { sandbox.manna("doctor").stdout.split(separator: "\n").first { $0.contains(" scheduler: ") }.map(String.init) }
        #expect(scheduler() == "FAIL  scheduler: your crontab runs manna, but no cron daemon is running: start one (Debian: systemctl enable --now cron)")
        try sandbox.startCronDaemon()
        #expect(scheduler() == "ok    scheduler: crontab line: " + Self.cronLine)
    }
}
