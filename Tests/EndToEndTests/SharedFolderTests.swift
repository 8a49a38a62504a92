// Files in a folder other users can write (issue 25, point 2), as two real users: what one
// plants in a shared sticky folder, the other's `manna export` refuses, handing over nothing.
import Foundation
import MannaKit
import TestSupport
import Testing

extension Prerequisite {
    static let twoUsers = Prerequisite("root, useradd, userdel and setpriv, to run as two users of their own (CI runs as root)") {
        geteuid() == 0 && ["useradd", "userdel", "setpriv"].allSatisfy { TestEnvironment.path(of: $0) != nil || FileManager.default.isExecutableFile(atPath: "/usr/sbin/" + $0) }
    }
}

/// A user made for one test (root only: `.needs(.twoUsers)`), removed with it.
final class TestUser: Sendable {
    let name: String
    let uid: uid_t
    let gid: gid_t
    /// `manna` installed where this user can reach it (see `installed`).
    let manna: String
    private let prefix: String

    init(_ role: String) throws {
        name = "manna\(role)\(String(UInt32.random(in: 0 ... .max), radix: 16))"
        let made = try Subprocess.run("/usr/sbin/useradd", arguments: ["--no-create-home", "--user-group", "--shell", "/usr/sbin/nologin", name],
                                      environment: ["PATH": "/usr/sbin:/usr/bin:/bin"], input: "", timeoutMilliseconds: 30_000)
        guard case .exited(0, _, _) = made, let entry = getpwnam(name) else { throw TestUserError(problem: "useradd \(name): \(made)") }
        uid = entry.pointee.pw_uid
        gid = entry.pointee.pw_gid
        prefix = FileManager.default.temporaryDirectory.appendingPathComponent("manna-prefix-\(name)").path
        manna = try Self.installed(in: prefix)
    }

    /// The built programs and the test text database in the layout a package installs
    /// (`PREFIX/bin/manna`, `PREFIX/share/manna/bible.sqlite`), under a folder anyone may
    /// enter: the checkout itself may be in one only its owner can (a `mktemp -d` clone is
    /// 0700), and this user runs `manna` as a user of the machine would. Hard links where
    /// the file system allows, copies where it does not.
    private static func installed(in prefix: String) throws -> String {
        precondition(Manna.textDatabaseReady)
        let manager = FileManager.default
        for folder in [prefix, prefix + "/bin", prefix + "/share", prefix + "/share/manna"] {
            try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
            chmod(folder, 0o755)
        }
        let built = Files.parent(of: Manna.binary)
        var files = ["manna", "manna-notify", "manna-play"].map { (built + "/" + $0, prefix + "/bin/" + $0) }
        for name in ["bible.sqlite", "bible-search.sqlite"] { files.append((Manna.root + "/.build/" + name, prefix + "/share/manna/" + name)) }
        for (from, to) in files where manager.fileExists(atPath: from) {
            if link(from, to) != 0 { try manager.copyItem(atPath: from, toPath: to) }
        }
        return prefix + "/bin/manna"
    }

    deinit {
        try? FileManager.default.removeItem(atPath: prefix)
        _ = try? Subprocess.run("/usr/sbin/userdel", arguments: [name], environment: ["PATH": "/usr/sbin:/usr/bin:/bin"], input: "", timeoutMilliseconds: 30_000)
    }

    /// Runs `program` as this user (setpriv: its uid, gid and no other groups) with `home`,
    /// killed after `timeout` milliseconds.
    func run(_ program: String, _ arguments: [String], home: String, timeout: Int = 10_000, environment more: Environment = [:]) throws -> Subprocess.Outcome {
        var environment: Environment = ["HOME": home, "PATH": "/usr/bin:/bin", "TZ": "UTC", "LANG": "C.UTF-8"]
        for name in ["PULSE_SERVER"] { if let value = more[name] { environment[name] = value } }
        return try Subprocess.run("/usr/bin/setpriv", arguments: ["--reuid=\(uid)", "--regid=\(gid)", "--clear-groups", "--", program] + arguments,
                                  environment: environment, input: "", timeoutMilliseconds: timeout)
    }

    /// Gives this user everything under `path` (the folder itself included), links as links.
    func own(_ path: String) {
        lchown(path, uid, gid)
        for name in FileManager.default.enumerator(atPath: path)?.compactMap({ $0 as? String }) ?? [] { lchown(path + "/" + name, uid, gid) }
    }
}

struct TestUserError: Error, CustomStringConvertible {
    let problem: String
    var description: String { problem }
}

@Suite(.needs(.twoUsers)) struct SharedFolderTests {
    @Test func anotherUsersFIFOLinkOrFileIsRefusedAndNothingIsHandedOver() throws {
        precondition(Manna.textDatabaseReady)
        let victim = try TestUser("a")
        let other = try TestUser("b")
        let scratch = try Scratch("shared")
        chmod(scratch.path, 0o755)
        // The victim's home, theirs alone, with a ~/.bashrc.
        let home = scratch.file("home-a")
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: false)
        let bashrc = home + "/.bashrc"
        try "# a's own\n".write(toFile: bashrc, atomically: false, encoding: .utf8)
        for path in [home, bashrc] { #expect(chown(path, victim.uid, victim.gid) == 0) }
        chmod(home, 0o700)
        chmod(bashrc, 0o644)
        // A shared folder like /tmp: anyone writes, sticky.
        let shared = scratch.file("shared")
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
        chmod(shared, 0o1777)

        guard case .exited(0, _, _) = try victim.run(victim.manna, ["note", "add", "John 3:16", "a's secret"], home: home) else {
            Issue.record("the victim cannot keep a note")
            return
        }

        // The other user plants a FIFO, with a reader waiting at it, a link to the victim's
        // ~/.bashrc, and a file of their own, readable by all.
        let fifo = shared + "/b.json", link = shared + "/c.json", planted = shared + "/d.json"
        let received = scratch.file("received")
        #expect(FileManager.default.createFile(atPath: received, contents: nil))
        #expect(chown(received, other.uid, other.gid) == 0)
        guard case .exited(0, _, _) = try other.run("/bin/sh", ["-c", "mkfifo \"$0\" && ln -s \"$1\" \"$2\" && echo mine > \"$3\" && chmod 666 \"$3\"", fifo, bashrc, link, planted], home: "/") else {
            Issue.record("the other user cannot plant their files")
            return
        }
        let reader = Thread { _ = try? other.run("/bin/sh", ["-c", "exec cat \"$0\" > \"$1\"", fifo, received], home: "/", timeout: 5000) }
        reader.start()
        usleep(200_000)

        for (path, reason) in [(fifo, "not a regular file (a device or a pipe): Manna writes only files here"),
                               (link, "a symbolic link: Manna never writes through a link; remove it or name another file"),
                               (planted, "Operation not permitted")] {
            let export = try victim.run(victim.manna, ["export", path], home: home, timeout: 3000)
            guard case .exited(let status, _, let stderr) = export else {
                Issue.record("export \(path): \(export)")
                continue
            }
            #expect(status == 74 && stderr == "manna: cannot write \(path): \(reason)\n", "\(stderr)")
        }
        // Nothing handed over, nothing replaced.
        #expect(try String(contentsOfFile: bashrc, encoding: .utf8) == "# a's own\n")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == bashrc)
        #expect(try String(contentsOfFile: planted, encoding: .utf8) == "mine\n")
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
        #expect(try FileManager.default.contentsOfDirectory(atPath: shared).sorted() == ["b.json", "c.json", "d.json"])
        // Let the reader go: it received nothing from the export.
        let writer = open(fifo, O_WRONLY | O_NONBLOCK)
        if writer >= 0 { close(writer) }
        usleep(200_000)
        #expect(try String(contentsOfFile: received, encoding: .utf8) == "")

        // A name no one prepared: the victim's own file, 0600, which the other cannot read.
        let mine = shared + "/a.json"
        guard case .exited(0, _, _) = try victim.run(victim.manna, ["export", mine], home: home) else {
            Issue.record("the victim cannot export to a new name")
            return
        }
        #expect(stat(mine, &info) == 0 && info.st_uid == victim.uid && info.st_mode & 0o777 == 0o600)
        guard case .exited(let status, _, _) = try other.run("/bin/cat", [mine], home: "/") else { return }
        #expect(status != 0)
    }
}
