import Foundation
import Testing
import TestSupport
@testable import MannaKit

/// A stand-in for systemctl and crontab: answers from a table and records each call.
final class FakePrograms: @unchecked Sendable {
    var calls: [String] = []
    var answers: [String: ProcessResult] = [:]
    var missing: Set<String> = []

    var runner: ProcessRunner {
        { program, arguments, input throws(SubprocessError) in
            let command = ([program] + arguments).joined(separator: " ")
            self.calls.append(command + (input.map { " <<" + $0 } ?? ""))
            if self.missing.contains(program) { throw .notFound(program: program) }
            return self.answers[command] ?? ProcessResult(status: 0)
        }
    }
}

extension CommandLineFiles {
    /// Stand-ins for what MannaApp generates, each telling which it is.
    static let sample = CommandLineFiles(manual: ".TH MANNA 1\n", configManual: ".TH MANNA-CONFIG 5\n", readerManual: ".TH MANNA-READER 1\n", bashCompletion: "complete -F _manna manna\n",
                                         zshCompletion: "#compdef manna\n", fishCompletion: "complete -c manna\n")
}

/// A temporary home with a program and a text database to install.
final class Sandbox {
    private let scratch: Scratch
    var root: String { scratch.path }
    var home: String { root + "/home" }
    var program: String { root + "/build/manna" }
    var textDatabase: String { root + "/build/bible.sqlite" }

    init() throws {
        scratch = try Scratch("install")
        try FileManager.default.createDirectory(atPath: root + "/build", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/home", withIntermediateDirectories: true)
        try "#!/bin/sh\n".write(toFile: program, atomically: false, encoding: .utf8)
        try "not really sqlite".write(toFile: textDatabase, atomically: false, encoding: .utf8)
        try "nor this".write(toFile: TextDatabaseLocator.searchIndexPath(of: textDatabase), atomically: false, encoding: .utf8)
    }

    /// Every file and link under the home folder, relative to it.
    func filesInHome() -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: home)
        var files: [String] = []
        while let name = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if !FileManager.default.fileExists(atPath: home + "/" + name, isDirectory: &isDirectory) || !isDirectory.boolValue { files.append(name) }
        }
        return files.sorted()
    }
}

@Suite struct InstallerTests {
    @Test func theDefaultPrefixIsDotLocalAndUnitsGoToTheConfigFolder() throws {
        let layout = try InstallLayout(prefix: nil, environment: ["HOME": "/home/ann"])
        #expect(layout.program == "/home/ann/.local/bin/manna")
        #expect(layout.helper(.notify) == "/home/ann/.local/libexec/manna/manna-notify")
        #expect(layout.helper(.play) == "/home/ann/.local/libexec/manna/manna-play")
        #expect(layout.textDatabase == "/home/ann/.local/share/manna/bible.sqlite")
        #expect(layout.service == "/home/ann/.config/systemd/user/manna.service")
        #expect(layout.timerLink == "/home/ann/.config/systemd/user/timers.target.wants/manna.timer")
        let elsewhere = try InstallLayout(prefix: "/opt/manna//", environment: ["HOME": "/home/ann", "XDG_CONFIG_HOME": "/cfg"])
        #expect(elsewhere.program == "/opt/manna/bin/manna")
        #expect(elsewhere.timer == "/cfg/systemd/user/manna.timer")
    }

    @Test(arguments: [
        ("opt/manna", "--prefix 'opt/manna': give an absolute path, like /opt/manna"),
        ("/opt/it's", "--prefix '/opt/it's': systemd cannot run a program whose path has quotes, backslashes or control characters"),
        ("/opt/a\\b", "--prefix '/opt/a\\b': systemd cannot run a program whose path has quotes, backslashes or control characters"),
        ("/opt/a\nb", "--prefix '/opt/a\nb': systemd cannot run a program whose path has quotes, backslashes or control characters"),
    ])
    func aPrefixThatCannotBeWrittenIntoAUnitIsRefused(prefix: String, message: String) {
        do {
            _ = try InstallLayout(prefix: prefix, environment: ["HOME": "/home/ann"])
            Issue.record("--prefix \(prefix) was accepted")
        } catch {
            #expect(error.message == message)
        }
    }

    @Test func aHomeIsNeeded() {
        #expect(throws: InstallError.noHome) { try InstallLayout(prefix: "/opt/manna", environment: [:]) }
    }

    func installer(_ sandbox: Sandbox, _ programs: FakePrograms, systemd: Bool, lines: Box, processRoot: String = "/proc") throws -> Installer {
        var environment: Environment = ["HOME": sandbox.home, "PATH": "/usr/bin:/bin"]
        if systemd {
            try FileManager.default.createDirectory(atPath: sandbox.root + "/run/systemd", withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: sandbox.root + "/run/systemd/private", contents: nil)
            environment["XDG_RUNTIME_DIR"] = sandbox.root + "/run"
        }
        let layout = try InstallLayout(prefix: nil, environment: environment)
        return Installer(layout: layout, environment: environment, runner: programs.runner, report: { lines.lines.append($0) },
                         processRoot: processRoot)
    }

    final class Box { var lines: [String] = [] }

    @Test func installCopiesWithInstallModesThenEnablesTheTimer() throws {
        let sandbox = try Sandbox()
        let programs = FakePrograms()
        let output = Box()
        let installer = try installer(sandbox, programs, systemd: true, lines: output)
        try installer.install(program: sandbox.program, textDatabase: sandbox.textDatabase, documents: .sample, scheduler: .systemd)
        #expect(programs.calls == ["systemctl --user daemon-reload", "systemctl --user enable --now manna.timer"])
        #expect(sandbox.filesInHome() == [
            ".config/systemd/user/manna.service", ".config/systemd/user/manna.timer",
            ".local/bin/manna", ".local/share/applications/manna.desktop", ".local/share/bash-completion/completions/manna",
            ".local/share/fish/vendor_completions.d/manna.fish",
            ".local/share/gnome-shell/extensions/manna@manna.invalid/extension.js",
            ".local/share/gnome-shell/extensions/manna@manna.invalid/indicator.js",
            ".local/share/gnome-shell/extensions/manna@manna.invalid/metadata.json",
            ".local/share/gnome-shell/extensions/manna@manna.invalid/stylesheet.css",
            ".local/share/gnome-shell/extensions/manna@manna.invalid/timeline.js",
            ".local/share/icons/hicolor/scalable/apps/manna.svg",
            ".local/share/man/man1/manna.1", ".local/share/man/man5/manna-config.5", ".local/share/manna/bible-search.sqlite",
            ".local/share/manna/bible.sqlite",
            ".local/share/zsh/site-functions/_manna",
        ])
        let mode = { (path: String) in (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? 0 }
        #expect(try mode(installer.layout.program) == 0o755)
        #expect(try mode(installer.layout.textDatabase) == 0o644)
        #expect(try mode(installer.layout.timer) == 0o644)
        #expect(try mode(installer.layout.manual) == 0o644)
        #expect(output.lines.first == "installed \(sandbox.home)/.local/bin/manna")
    }

    @Test func theHelpersBesideTheProgramAreInstalledToo() throws {
        let sandbox = try Sandbox()
        for helper in ["manna-notify", "manna-play"] {
            try "#!/bin/sh\n".write(toFile: sandbox.root + "/build/" + helper, atomically: false, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: sandbox.root + "/build/" + helper)
        }
        let installer = try installer(sandbox, FakePrograms(), systemd: false, lines: Box())
        try installer.install(program: sandbox.program, textDatabase: sandbox.textDatabase, documents: .sample, scheduler: .systemd)
        #expect(sandbox.filesInHome().contains(".local/libexec/manna/manna-notify"))
        #expect(sandbox.filesInHome().contains(".local/libexec/manna/manna-play"))
        // An installed manna finds them in libexec when installing elsewhere.
        #expect(HelperProgram.notify.find(besideProgram: installer.layout.program) == installer.layout.helper(.notify))
        #expect(HelperProgram.play.find(besideProgram: installer.layout.program) == installer.layout.helper(.play))
    }

    @Test func aCrontabThatCannotBeUsedStopsTheInstallBeforeAnyFileIsWritten() throws {
        let sandbox = try Sandbox()
        let programs = FakePrograms()
        programs.answers["crontab -l"] = ProcessResult(status: 1, errorOutput: "You (ann) are not allowed to use this program (crontab)\nSee crontab(1) for more information\n")
        let installer = try installer(sandbox, programs, systemd: false, lines: Box())
        #expect(throws: InstallError.commandFailed(command: "crontab -l", detail: "You (ann) are not allowed to use this program (crontab)")) {
            try installer.install(program: sandbox.program, textDatabase: sandbox.textDatabase, documents: .sample, scheduler: .cron)
        }
        programs.missing = ["crontab"]
        #expect(throws: InstallError.cronMissing) {
            try installer.install(program: sandbox.program, textDatabase: sandbox.textDatabase, documents: .sample, scheduler: .cron)
        }
        #expect(sandbox.filesInHome() == [])
    }

    @Test func aFileThatCannotBeWrittenLeavesNoneOfTheOthers() throws {
        let sandbox = try Sandbox()
        // share/ is a file, so share/manna/bible.sqlite cannot be made after bin/manna was written.
        try FileManager.default.createDirectory(atPath: sandbox.home + "/.local", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: sandbox.home + "/.local/share", contents: nil)
        let installer = try installer(sandbox, FakePrograms(), systemd: false, lines: Box())
        #expect(throws: InstallError.cannotInstall(FileError(path: sandbox.home + "/.local/share/manna", reason: "Not a directory"))) {
            try installer.install(program: sandbox.program, textDatabase: sandbox.textDatabase, documents: .sample, scheduler: .systemd)
        }
        #expect(sandbox.filesInHome() == [".local/share"])
    }

    @Test func aFailingSystemctlIsReportedWithWhatItSaid() throws {
        let sandbox = try Sandbox()
        let programs = FakePrograms()
        programs.answers["systemctl --user daemon-reload"] = ProcessResult(status: 1, errorOutput: "Failed to connect to bus: No medium found\n")
        let installer = try installer(sandbox, programs, systemd: true, lines: Box())
        do {
            try installer.install(program: sandbox.program, textDatabase: sandbox.textDatabase, documents: .sample, scheduler: .systemd)
            Issue.record("install went on after systemctl failed")
        } catch {
            #expect(error.message == "'systemctl --user daemon-reload' failed: Failed to connect to bus: No medium found")
        }
        #expect(programs.calls == ["systemctl --user daemon-reload"])
    }

    @Test func uninstallStopsTheTimerFirstAndKeepsTheUsersData() throws {
        let sandbox = try Sandbox()
        let programs = FakePrograms()
        let output = Box()
        let installer = try installer(sandbox, programs, systemd: true, lines: output)
        try FileManager.default.createDirectory(atPath: sandbox.home + "/.local/share/manna", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: sandbox.home + "/.local/share/manna/journal.sqlite", contents: Data("prayers".utf8))
        try installer.install(program: sandbox.program, textDatabase: sandbox.textDatabase, documents: .sample, scheduler: .systemd)
        programs.calls = []
        output.lines = []
        try installer.uninstall(cronRequired: false)
        #expect(programs.calls == ["systemctl --user disable --now manna.timer", "systemctl --user daemon-reload", "crontab -l"])
        #expect(sandbox.filesInHome() == [".local/share/manna/journal.sqlite"])
        #expect(output.lines.first == "ran systemctl --user disable --now manna.timer")
        #expect(output.lines.last == "kept your own data: \(sandbox.home)/.local/share/manna (journal) and \(sandbox.home)/.config/manna (config)")
    }

    /// A process table like /proc: a folder per process id with its `comm`.
    func processes(_ names: [String], in sandbox: Sandbox) throws -> String {
        let root = sandbox.root + "/proc"
        for (index, name) in names.enumerated() {
            try FileManager.default.createDirectory(atPath: root + "/\(index + 1)", withIntermediateDirectories: true)
            try (name + "\n").write(toFile: root + "/\(index + 1)/comm", atomically: false, encoding: .utf8)
        }
        // Not a process: a name that is not a number is passed over.
        try FileManager.default.createDirectory(atPath: root + "/sys", withIntermediateDirectories: true)
        try "cron\n".write(toFile: root + "/sys/comm", atomically: false, encoding: .utf8)
        return root
    }

    @Test func aCronLineWithNoCronDaemonRunningIsInstalledButSaidNotToRun() throws {
        let sandbox = try Sandbox()
        let idle = try installer(sandbox, FakePrograms(), systemd: false, lines: Box(), processRoot: processes(["systemd", "bash", "cronjob"], in: sandbox))
        #expect(!idle.cronIsRunning)
        let state = try idle.install(program: sandbox.program, textDatabase: sandbox.textDatabase, documents: .sample, scheduler: .cron)
        guard case .notRunning(let why) = state else { Issue.record("no cron daemon, yet install said the line will run"); return }
        #expect(why.hasPrefix("installed, but no cron daemon is running"))
        #expect(sandbox.filesInHome().contains(".local/bin/manna"))

        for daemon in ["cron", "crond", "fcron"] {
            let other = try Sandbox()
            let running = try installer(other, FakePrograms(), systemd: false, lines: Box(), processRoot: processes(["systemd", daemon], in: other))
            #expect(running.cronIsRunning, "\(daemon)")
            #expect(try running.install(program: other.program, textDatabase: other.textDatabase, documents: .sample, scheduler: .cron) == .running)
        }
    }

    @Test func unitsInstalledWhereSystemdDoesNotRunAreSaidNotToRun() throws {
        let sandbox = try Sandbox()
        let programs = FakePrograms()
        let state = try installer(sandbox, programs, systemd: false, lines: Box()).install(
            program: sandbox.program, textDatabase: sandbox.textDatabase, documents: .sample, scheduler: .systemd)
        #expect(state != .running)
        #expect(programs.calls == [])
        #expect(sandbox.filesInHome().contains(".config/systemd/user/manna.timer"))
    }

    @Test func manPagesCompletionsAndTheDesktopEntryGoWhereManTheShellsAndDesktopsLook() throws {
        let user = try InstallLayout(prefix: nil, environment: ["HOME": "/home/ann"])
        #expect(user.manual == "/home/ann/.local/share/man/man1/manna.1")
        #expect(user.configManual == "/home/ann/.local/share/man/man5/manna-config.5")
        #expect(user.bashCompletion == "/home/ann/.local/share/bash-completion/completions/manna")
        #expect(user.zshCompletion == "/home/ann/.local/share/zsh/site-functions/_manna")
        #expect(user.fishCompletion == "/home/ann/.local/share/fish/vendor_completions.d/manna.fish")
        #expect(user.desktopEntry == "/home/ann/.local/share/applications/manna.desktop")
        #expect(user.icon == "/home/ann/.local/share/icons/hicolor/scalable/apps/manna.svg")
        #expect(user.gnomeShellExtension == "/home/ann/.local/share/gnome-shell/extensions/manna@manna.invalid")
        // A package: Debian's zsh reads packages' completions from vendor-completions.
        let package = try InstallLayout(prefix: "/usr", environment: ["HOME": "/root"], destination: "/tmp/root/")
        #expect(package.zshCompletion == "/usr/share/zsh/vendor-completions/_manna")
        #expect(package.service == "/usr/lib/systemd/user/manna.service")
        #expect(package.gnomeShellExtension == "/usr/share/gnome-shell/extensions/manna@manna.invalid")
        #expect(package.written(package.program) == "/tmp/root/usr/bin/manna")
        #expect(try InstallLayout(prefix: "/usr/local", environment: ["HOME": "/root"]).zshCompletion == "/usr/local/share/zsh/site-functions/_manna")
    }

    @Test func installWritesTheGeneratedTextsAndTheDesktopFilesAndUninstallRemovesThem() throws {
        let sandbox = try Sandbox()
        let output = Box()
        let installer = try installer(sandbox, FakePrograms(), systemd: false, lines: output)
        try installer.install(program: sandbox.program, textDatabase: sandbox.textDatabase, documents: .sample, scheduler: .cron)
        let layout = installer.layout
        let text = { (path: String) in try String(contentsOfFile: path, encoding: .utf8) }
        #expect(try text(layout.manual) == CommandLineFiles.sample.manual)
        #expect(try text(layout.configManual) == CommandLineFiles.sample.configManual)
        #expect(try text(layout.bashCompletion) == CommandLineFiles.sample.bashCompletion)
        #expect(try text(layout.zshCompletion) == CommandLineFiles.sample.zshCompletion)
        #expect(try text(layout.fishCompletion) == CommandLineFiles.sample.fishCompletion)
        // No manna-reader beside the program: the entry opens a terminal.
        #expect(try text(layout.desktopEntry) == DesktopFiles.terminalEntry)
        #expect(!FileManager.default.fileExists(atPath: layout.reader))
        #expect(!FileManager.default.fileExists(atPath: layout.readerManual))
        #expect(try text(layout.icon) == DesktopFiles.icon)
        for (path, contents) in layout.gnomeShellExtensionFiles(forShell: installer.gnomeShell) {
            #expect(try text(path) == contents, "\(path)")
        }
        #expect(output.lines.contains("installed \(layout.desktopEntry)"))
        #expect(output.lines.contains("installed \(layout.gnomeShellExtension)/extension.js"))
        try installer.uninstall(cronRequired: false)
        #expect(sandbox.filesInHome() == [])
    }

    /// manna-reader built beside manna is installed beside it, and the entry opens the window.
    @Test func theReaderWindowBesideTheProgramIsInstalledAndTheEntryOpensIt() throws {
        let sandbox = try Sandbox()
        let reader = sandbox.root + "/build/manna-reader"
        try "#!/bin/sh\necho reader\n".write(toFile: reader, atomically: false, encoding: .utf8)
        #expect(chmod(reader, 0o755) == 0)
        let installer = try installer(sandbox, FakePrograms(), systemd: false, lines: Box())
        try installer.install(program: sandbox.program, textDatabase: sandbox.textDatabase, documents: .sample, scheduler: .cron)
        let layout = installer.layout
        #expect(layout.reader == sandbox.home + "/.local/bin/manna-reader")
        #expect(try String(contentsOfFile: layout.reader, encoding: .utf8) == "#!/bin/sh\necho reader\n")
        #expect((try FileManager.default.attributesOfItem(atPath: layout.reader)[.posixPermissions] as? Int) == 0o755)
        #expect(try String(contentsOfFile: layout.readerManual, encoding: .utf8) == CommandLineFiles.sample.readerManual)
        #expect(try String(contentsOfFile: layout.desktopEntry, encoding: .utf8) == DesktopFiles.windowEntry)
        try installer.uninstall(cronRequired: false)
        #expect(sandbox.filesInHome() == [])
    }

    @Test func aZshUserIsToldHowZshFindsTheCompletion() throws {
        let sandbox = try Sandbox()
        let output = Box()
        let environment: Environment = ["HOME": sandbox.home, "PATH": sandbox.home + "/.local/bin", "SHELL": "/usr/bin/zsh"]
        let installer = Installer(layout: try InstallLayout(prefix: nil, environment: environment), environment: environment,
                                  runner: FakePrograms().runner, report: { output.lines.append($0) })
        try installer.install(program: sandbox.program, textDatabase: sandbox.textDatabase, documents: .sample, scheduler: .systemd)
        #expect(output.lines.last == "note: for zsh to complete manna, add 'fpath=(\(sandbox.home)/.local/share/zsh/site-functions $fpath)' "
            + "to your .zshrc before compinit")
    }

    /// Only in a GNOME session: elsewhere the extension is a folder nothing reads.
    @Test func aGnomeUserIsToldHowToTurnTheExtensionOn() throws {
        let sandbox = try Sandbox()
        for (desktop, told) in [("ubuntu:GNOME", true), ("GNOME", true), ("KDE", false), (nil, false)] {
            let output = Box()
            var environment: Environment = ["HOME": sandbox.home, "PATH": sandbox.home + "/.local/bin"]
            if let desktop { environment["XDG_CURRENT_DESKTOP"] = desktop }
            let installer = Installer(layout: try InstallLayout(prefix: nil, environment: environment), environment: environment,
                                      runner: FakePrograms().runner, report: { output.lines.append($0) })
            try installer.install(program: sandbox.program, textDatabase: sandbox.textDatabase, documents: .sample, scheduler: .systemd)
            let note = "note: for the verse in GNOME's top bar, log out and in, then run 'gnome-extensions enable manna@manna.invalid'"
            #expect(output.lines.contains(note) == told, "XDG_CURRENT_DESKTOP=\(desktop ?? "unset")")
        }
    }

    @Test func stageWritesAPackagesFilesUnderTheDestinationAndSetsNothingUp() throws {
        let sandbox = try Sandbox()
        try "#!/bin/sh\n".write(toFile: sandbox.root + "/build/manna-notify", atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: sandbox.root + "/build/manna-notify")
        let programs = FakePrograms()
        let output = Box()
        let environment: Environment = ["HOME": sandbox.home, "PATH": "/usr/bin:/bin"]
        let root = sandbox.root + "/root"
        let layout = try InstallLayout(prefix: "/usr", environment: environment, destination: root)
        try Installer(layout: layout, environment: environment, runner: programs.runner, report: { output.lines.append($0) })
            .stage(program: sandbox.program, textDatabase: sandbox.textDatabase, documents: .sample)
        #expect(programs.calls == [])
        #expect(sandbox.filesInHome() == [])
        var staged: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let name = enumerator?.nextObject() as? String {
            if enumerator?.fileAttributes?[.type] as? FileAttributeType != .typeDirectory { staged.append(name) }
        }
        #expect(staged.sorted() == [
            "usr/bin/manna", "usr/lib/systemd/user/manna.service", "usr/lib/systemd/user/manna.timer", "usr/libexec/manna/manna-notify",
            "usr/share/applications/manna.desktop", "usr/share/bash-completion/completions/manna",
            "usr/share/fish/vendor_completions.d/manna.fish",
            "usr/share/gnome-shell/extensions/manna@manna.invalid/extension.js",
            "usr/share/gnome-shell/extensions/manna@manna.invalid/indicator.js",
            "usr/share/gnome-shell/extensions/manna@manna.invalid/metadata.json",
            "usr/share/gnome-shell/extensions/manna@manna.invalid/stylesheet.css",
            "usr/share/gnome-shell/extensions/manna@manna.invalid/timeline.js",
            "usr/share/icons/hicolor/scalable/apps/manna.svg",
            "usr/share/man/man1/manna.1", "usr/share/man/man5/manna-config.5", "usr/share/manna/bible-search.sqlite",
            "usr/share/manna/bible.sqlite",
            "usr/share/zsh/vendor-completions/_manna",
        ])
        // The unit runs the packaged program, not one under the destination or a home.
        let service = try String(contentsOfFile: root + "/usr/lib/systemd/user/manna.service", encoding: .utf8)
        #expect(service == SchedulerFiles.service(program: "/usr/bin/manna", home: sandbox.home))
        #expect(service.contains("\nExecStart=/usr/bin/manna tick\n"))
        #expect(output.lines.first == "installed \(root)/usr/bin/manna")
    }

    @Test func aDestinationMustBeAbsolute() {
        #expect(throws: InstallError.badDestination("pkg", problem: "give an absolute path, like /tmp/manna-root")) {
            try InstallLayout(prefix: "/usr", environment: ["HOME": "/root"], destination: "pkg")
        }
    }
}
