// manna-reader, the GNOME window, driven as a screen reader user's tools drive it: on an X
// server of its own (Xvfb) with a private session bus and the accessibility bus, read and
// operated through AT-SPI by a python3 script (pyatspi) that types and presses keys as a
// person would. Every process is started with MannaKit's Subprocess and stopped by its PID.
import Foundation
import MannaKit
import Testing
import TestSupport

extension Prerequisite {
    static let xvfb = command("Xvfb", package: "xvfb")
    static let atSpiBusLauncher = Prerequisite("/usr/libexec/at-spi-bus-launcher (Debian: apt-get install at-spi2-core)") {
        FileManager.default.isExecutableFile(atPath: ReaderSession.busLauncher)
    }
    static let pyatspi = Prerequisite("python3 with pyatspi (Debian: apt-get install python3-pyatspi)") { ReaderSession.python != nil }
    static let imagemagick = Prerequisite(group: "ImageMagick", [command("import", package: "imagemagick"), command("identify", package: "imagemagick")])
    /// An X server, a session bus and the accessibility bus for a window, and the tools that read it.
    static let windowSession = Prerequisite(group: "a window session", [xvfb, dbusDaemon, atSpiBusLauncher, pyatspi, imagemagick])
}

@Suite(.needs(.windowSession)) struct ReaderWindowTests {
    /// Where the screenshots are kept: $MANNA_TEST_ARTIFACTS/reader, else
    /// .build/test-artifacts/reader in the checkout.
    static let artifacts = (ProcessInfo.processInfo.environment["MANNA_TEST_ARTIFACTS"] ?? Manna.root + "/.build/test-artifacts") + "/reader"

    @Test func goesToAPassageSwitchesTranslationAndTakesASecondLaunchsReference() throws {
        let session = try ReaderSession()
        // With no window open, a passage that does not exist is refused and nothing stays running.
        let first = try session.launch("Hezekiah 3")
        #expect(first.status == 65)
        #expect(first.stderr == "manna-reader: no book called 'Hezekiah'\n")
        #expect(try session.launch("--version").stdout == "manna-reader 0.1.0\n")
        try session.open()

        let john = try session.drive("go", "John 3")
        #expect(john.title == "John 3 (KJV) – Manna", "\(john)")
        #expect(john.text.contains("\n16 For God so loved the world, that he gave his only begotten Son, that whosoever believeth in him"), "\(john)")

        let web = try session.drive("translation", "WEB")
        #expect(web.title == "John 3 (WEB) – Manna", "\(web)")
        #expect(web.text.contains("\n16 For God so loved the world, that he gave his only born Son, that whoever believes in him"), "\(web)")
        #expect(web.text != john.text)

        // The KJV beside the WEB, verse by verse: John 3:16 in each, side by side.
        let beside = try session.drive("beside", "KJV")
        #expect(beside.title == "John 3 (WEB, KJV) – Manna", "\(beside)")
        let sixteen = try #require(beside.beside.firstIndex { $0.hasPrefix("16 ") }, "\(beside.beside.prefix(4))")
        #expect(beside.beside.count == 72)
        #expect(beside.beside[sixteen].hasPrefix("16 For God so loved the world, that he gave his only born Son"))
        #expect(beside.beside[sixteen + 1].hasPrefix("16 For God so loved the world, that he gave his only begotten Son"))
        #expect(try session.screenshot(Self.artifacts + "/john-3-web-beside-kjv.png").colours > 100)
        let alone = try session.drive("beside", "None")
        #expect(alone.title == "John 3 (WEB) – Manna")
        #expect(alone.beside == [])

        // Verse 16 selected and highlighted green: in the journal, as `manna highlight` makes it.
        let highlights = { session.home.run("highlight", "list").stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().joined(separator: " ") } }
        _ = try session.drive("select", "16")
        _ = try session.drive("click", "Highlight green")
        #expect(highlights() == ["John 3:16 green"])
        #expect(try session.screenshot(Self.artifacts + "/john-3-16-green.png").colours > 100)
        // Removed, and brought back by the toast's Undo.
        _ = try session.drive("select", "16")
        _ = try session.drive("click", "Remove highlight")
        #expect(highlights() == [])
        _ = try session.drive("click", "Undo")
        #expect(highlights() == ["John 3:16 green"])

        // A second launch hands its reference to the running window and exits at once.
        let second = try session.launch("Romans 8")
        #expect(second.status == 0, "\(second.stderr)")
        let romans = try session.drive("state")
        #expect(romans.title == "Romans 8 (WEB) – Manna", "\(romans)")
        #expect(romans.text.hasPrefix("1 There is therefore now no condemnation to those who are in Christ Jesus"), "\(romans)")
        // One that is no passage is refused there, with the command line's words and status.
        let refused = try session.launch("Hezekiah 3")
        #expect(refused.status == 65)
        #expect(refused.stderr == "manna-reader: no book called 'Hezekiah'\n")
        #expect(try session.drive("state").title == "Romans 8 (WEB) – Manna")

        // Back returns to John 3 in the WEB (Alt+Left), as the history has it.
        #expect(try session.drive("key", "alt+Left").title == "John 3 (WEB) – Manna")
        // Where the reader is is kept for the next start.
        #expect(try String(contentsOfFile: session.home.path + "/.cache/manna/reader-place", encoding: .utf8) == "WEB 43003001\n")

        // Today: the verse `manna today` prints, in the translation shown; its button reads the chapter.
        let today = session.home.run("today", "--translation", "WEB")
        #expect(try session.drive("click", "Today").today + "\n" == today.stdout)
        #expect(try session.screenshot(Self.artifacts + "/today.png").colours > 100)
        let reference = try #require(today.stdout.split(separator: "\n").first?.split(separator: ":").first)
        #expect(try session.drive("click", "Read the Chapter").title == "\(reference) (WEB) – Manna")
        #expect(try session.drive("key", "alt+Left").title == "John 3 (WEB) – Manna")

        let screenshot = try session.screenshot(Self.artifacts + "/john-3-web.png")
        // A window drawn has text, a header bar and a sidebar: many colours, where a blank
        // or black screen has one or two. Light: the window's part of the screen is bright.
        #expect(screenshot.colours > 100, "\(screenshot)")
        #expect(screenshot.brightness > 0.6, "\(screenshot)")

        // Search (Ctrl+F): results as typed, the match highlighted, the exact total; the first opens John 3:16.
        let found = try session.drive("search", "loved the world")
        #expect(found.search.first == "6 verses in the WEB", "\(found.search)")
        #expect(found.search.count == 7, "\(found.search)")
        #expect(found.search.dropFirst().first?.hasPrefix("John 3:16  For God so loved the world") == true, "\(found.search)")
        #expect(try session.drive("activate", "John 3:16").title == "John 3 (WEB) – Manna")
        #expect(try String(contentsOfFile: session.home.path + "/.cache/manna/reader-place", encoding: .utf8) == "WEB 43003016\n")

        // Narrow (the window made as narrow as it goes): still drawn, still John 3.
        let narrow = try session.drive("resize", "360x720")
        #expect(narrow.title == "John 3 (WEB) – Manna")
        #expect(try session.screenshot(Self.artifacts + "/john-3-web-narrow.png").colours > 100)
    }

    /// The system's dark style (libadwaita follows it): the window is drawn dark, wide and narrow.
    @Test func followsTheDarkStyleWideAndNarrow() throws {
        let session = try ReaderSession(dark: true)
        try session.open()
        #expect(try session.drive("go", "Psalm 23").title == "Psalm 23 (KJV) – Manna")
        let wide = try session.screenshot(Self.artifacts + "/psalm-23-dark.png")
        #expect(wide.colours > 100, "\(wide)")
        #expect(wide.brightness < 0.4, "\(wide)")
        _ = try session.drive("resize", "360x720")
        let narrow = try session.screenshot(Self.artifacts + "/psalm-23-dark-narrow.png")
        #expect(narrow.colours > 100, "\(narrow)")
        #expect(narrow.brightness < 0.4, "\(narrow)")
    }
}

/// What manna-reader answers without a window: a package checks it, a user asks over ssh.
@Suite struct ReaderCommandLineTests {
    @Test func helpVersionAndAnUnknownOptionNeedNoDisplayAndNoBus() throws {
        let home = try TemporaryHome()
        let environment = ["HOME": home.path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        let version = try Programs.run(ReaderSession.reader, ["--version"], environment: environment, timeout: 60)
        #expect(version.status == 0)
        #expect(version.stdout == "manna-reader 0.1.0\n")
        #expect(version.stderr == "")
        let help = try Programs.run(ReaderSession.reader, ["--help"], environment: environment, timeout: 60)
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("usage: manna-reader [REFERENCE...]\n"))
        let unknown = try Programs.run(ReaderSession.reader, ["--frobnicate"], environment: environment, timeout: 60)
        #expect(unknown.status == 64)
        #expect(unknown.stdout == "")
        #expect(unknown.stderr == "manna-reader: unknown option '--frobnicate': manna-reader takes a passage, like 'manna-reader John 3:16', or --help\n")
    }
}

/// An X server (Xvfb), a private session bus, the accessibility bus and (`open`) manna-reader
/// in a temporary home; stopped, each by its PID, when the test lets go of it.
final class ReaderSession {
    static let busLauncher = "/usr/libexec/at-spi-bus-launcher"
    static let python = TestEnvironment.python(running: "import pyatspi")
    static let reader = URL(fileURLWithPath: Manna.binary).deletingLastPathComponent().appendingPathComponent("manna-reader").path

    let home: TemporaryHome
    private let scratch: Scratch
    /// Started in this order, stopped in the other.
    private var bus: TestBus?
    private var programs: [RunningProgram] = []
    private(set) var environment: [String: String] = [:]
    private(set) var display = ""

    /// `dark`: the system prefers the dark style (as GNOME's setting does; libadwaita's
    /// ADW_DEBUG_COLOR_SCHEME stands in for the settings portal, which is not here).
    init(dark: Bool = false) throws {
        try Prerequisite.windowSession.require()
        precondition(Manna.textDatabaseReady)
        scratch = try Scratch("window")
        home = try TemporaryHome()
        let runtime = scratch.file("runtime")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        environment = [
            "HOME": home.path, "PATH": "/usr/bin:/bin", "TZ": "UTC", "LANG": "C.UTF-8", "XDG_RUNTIME_DIR": runtime,
            "GTK_A11Y": "atspi", "GDK_BACKEND": "x11", "GSETTINGS_BACKEND": "memory", "NO_AT_BRIDGE": "0",
        ]
        if dark { environment["ADW_DEBUG_COLOR_SCHEME"] = "prefer-dark" }

        // The X server picks a free display and prints its number.
        let xvfb = try start(try #require(TestEnvironment.path(of: "Xvfb")), ["-displayfd", "1", "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                             output: .socket)
        guard let number = xvfb.readLine(timeout: 60), !number.isEmpty else { throw ReaderSessionError("Xvfb chose no display within 60 s: \(log)") }
        display = ":" + number
        environment["DISPLAY"] = display
        let bus = try TestBus()
        self.bus = bus
        environment.merge(bus.environment) { $1 }
        try start(Self.busLauncher, ["--launch-immediately"])
    }

    /// Starts manna-reader and waits for its window: it is up when the accessibility tree shows it.
    func open() throws {
        try start(Self.reader, [])
        _ = try waitFor("the window to show", seconds: 60) { (try? self.drive("state")).map { _ in true } }
    }

    deinit {
        // The reader first, then the bus launcher, asked to end (SIGTERM: it stops the
        // accessibility bus it started) before being killed; then the bus and the X server.
        for program in programs.dropFirst().reversed() {
            program.signal(SIGTERM)
            program.wait(timeout: 5)
        }
        bus = nil
        programs.first?.stop()
    }

    /// What the window shows: its title and the chapter's text.
    struct Shown: CustomStringConvertible {
        let title: String
        let text: String
        /// The Today view: the verse of the day's reference and translation, a line break, its text.
        let today: String
        /// With a translation beside the first: each verse's text, then its text beside.
        let beside: [String]
        /// Search: its total, then each result's text.
        let search: [String]
        var description: String { "title \(title.debugDescription), text \(text.prefix(120).debugDescription)" }
    }

    /// Runs the driver script's `command` ("go REFERENCE", "translation CODE", "key KEYS",
    /// "click BUTTON", "state") and returns what the window shows after it.
    func drive(_ command: String...) throws -> Shown {
        let run = try Programs.run(try #require(Self.python), ["-c", Self.driver] + command, environment: environment, timeout: 60)
        guard run.status == 0, let shown = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any],
              let title = shown["title"] as? String, let text = shown["text"] as? String, let today = shown["today"] as? String,
              let beside = shown["beside"] as? [String], let search = shown["search"] as? [String] else {
            throw ReaderSessionError("the driver failed (\(command.joined(separator: " "))): status \(run.status) \(run.stdout) \(run.stderr)")
        }
        return Shown(title: title, text: text, today: today, beside: beside, search: search)
    }

    /// Launches manna-reader again with `arguments`, as a user would while it runs.
    func launch(_ arguments: String...) throws -> Finished {
        try Programs.run(Self.reader, arguments, environment: environment, timeout: 60)
    }

    /// Takes a screenshot of the whole screen into `path`, counts its colours and measures how
    /// bright the window's corner of it is (0 black to 1 white; the window is at the top left,
    /// as no window manager places it).
    func screenshot(_ path: String) throws -> (path: String, colours: Int, brightness: Double) {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let taken = try Programs.run(try #require(TestEnvironment.path(of: "import")), ["-display", display, "-window", "root", path],
                                     environment: environment, timeout: 60)
        guard taken.status == 0 else { throw ReaderSessionError("import failed: \(taken.stderr)") }
        let counted = try Programs.run(try #require(TestEnvironment.path(of: "identify")), ["-format", "%k", path], environment: environment, timeout: 60)
        let bright = try Programs.run(try #require(TestEnvironment.path(of: "identify")), ["-format", "%[fx:mean]", path + "[320x600+10+60]"],
                                      environment: environment, timeout: 60)
        return (path, Int(counted.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0,
                Double(bright.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1)
    }

    /// Starts `path` in the background, its stderr (and stdout, unless asked for) in a log file
    /// of its own.
    @discardableResult
    private func start(_ path: String, _ arguments: [String], output: Subprocess.Stream? = nil) throws -> RunningProgram {
        let name = (path as NSString).lastPathComponent
        let program = try RunningProgram(path, arguments, environment: environment, output: output ?? .file(scratch.file(name + ".out")),
                                         errorOutput: .file(scratch.file(name + ".log")))
        programs.append(program)
        return program
    }

    /// What the programs wrote on stderr, for a failure's message.
    private var log: String {
        ((try? FileManager.default.contentsOfDirectory(atPath: scratch.path)) ?? [])
            .filter { $0.hasSuffix(".log") }
            .map { $0 + ":\n" + ((try? String(contentsOfFile: scratch.file($0), encoding: .utf8)) ?? "") }
            .joined(separator: "\n")
    }

    /// `value`'s first non-nil answer, asked every 100 ms for up to `seconds`.
    private func waitFor<Value>(_ what: String, seconds: Int = 10, _ value: () -> Value?) throws -> Value {
        let deadline = Clock.monotonicMilliseconds() + seconds * 1000
        while Clock.monotonicMilliseconds() < deadline {
            if let value = value() { return value }
            usleep(100_000)
        }
        throw ReaderSessionError("waited \(seconds) s for \(what); what the programs said:\n\(log)")
    }

    /// The driver: finds manna-reader on the accessibility bus, does one thing as a person
    /// would (types into the go-to entry and presses Enter, opens the translation list and
    /// moves to a code with the arrow keys, presses keys) and prints what the window shows as
    /// JSON. Every wait has a deadline.
    static let driver = #"""
        import json, sys, time
        import pyatspi

        def waiting(seconds):
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                yield
                time.sleep(0.1)

        def find(node, test):
            try:
                if test(node):
                    return node
                children = list(node)
            except Exception:
                return None
            for child in children:
                found = find(child, test) if child is not None else None
                if found is not None:
                    return found
            return None

        def window():
            for _ in waiting(10):
                for app in pyatspi.Registry.getDesktop(0):
                    if app is not None and app.name == "manna-reader":
                        frame = find(app, lambda n: n.getRoleName() == "frame")
                        if frame is not None:
                            return frame
            sys.exit("manna-reader has no window on the accessibility bus")

        def text_of(node):
            text = node.queryText()
            return text.getText(0, text.characterCount)

        def shown():
            frame = window()
            chapter = find(frame, lambda n: n.getRoleName() == "label" and (n.name or "").startswith("1 "))
            # Today's view: its reference and text are the labels before its button.
            read = find(frame, lambda n: n.getRoleName() == "push button" and n.name == "Read the Chapter")
            today = [text_of(n) for n in read.parent if n is not None and n.getRoleName() == "label"] if read else []
            # Side by side: the grid's labels, each verse then its second, in order (a hidden grid
            # is not in the tree).
            grid = find(frame, lambda n: n.name == "Verses side by side")
            beside = [text_of(n) for n in grid if n is not None] if grid else []
            # A toast's button (Undo), which a delete shows.
            undo = find(frame, lambda n: n.getRoleName() == "push button" and n.name in ("Undo", "Undo Undo"))
            # Search: the line after its entry (the total), then each result, when Search is shown.
            results = find(frame, lambda n: n.name == "Search results")
            search = [text_of(n) for n in results.parent if n is not None and n.getRoleName() == "label"] if results else []
            search += [text_of(find(row, lambda n: n.getRoleName() == "label")) for row in results if row is not None] if results else []
            return {"title": frame.name, "text": text_of(chapter) if chapter else "", "today": "\n".join(today), "beside": beside,
                    "undo": "shown" if undo else "", "search": search}

        def click(name):
            # libadwaita 1.2 names a toast's button with its label twice ("Undo Undo").
            button = find(window(), lambda n: n.getRoleName() in ("push button", "page tab") and n.name in (name, name + " " + name))
            action = button.queryAction()
            action.doAction([action.getName(i) for i in range(action.nActions)].index("click"))

        KEYS = {"f": 102, "Return": 65293, "Down": 65364, "Up": 65362, "Left": 65361, "Right": 65363}
        # Modifiers are held by key code (Xvfb's evdev map: Alt_L 64, Control_L 37); a key is
        # pressed and released by its keysym.
        MODIFIERS = {"alt": 64, "control": 37}

        def press(*names):
            *held, key = names
            for name in held:
                pyatspi.Registry.generateKeyboardEvent(MODIFIERS[name], None, pyatspi.KEY_PRESS)
            pyatspi.Registry.generateKeyboardEvent(KEYS[key], None, pyatspi.KEY_SYM)
            for name in reversed(held):
                pyatspi.Registry.generateKeyboardEvent(MODIFIERS[name], None, pyatspi.KEY_RELEASE)
            time.sleep(0.15)

        def settle(before):
            # The window has taken the action when what it shows changes (or after 5 s, when it did not).
            for _ in waiting(5):
                if shown() != before:
                    break
            time.sleep(0.2)

        def resize(width, height):
            import ctypes
            from ctypes import c_void_p, c_ulong, c_uint, c_int, c_long, c_char_p, POINTER, byref
            x = ctypes.cdll.LoadLibrary("libX11.so.6")
            x.XOpenDisplay.restype = c_void_p
            x.XDefaultRootWindow.restype = c_ulong
            x.XDefaultRootWindow.argtypes = [c_void_p]
            x.XQueryTree.argtypes = [c_void_p, c_ulong, POINTER(c_ulong), POINTER(c_ulong), POINTER(POINTER(c_ulong)), POINTER(c_uint)]
            x.XInternAtom.restype = c_ulong
            x.XInternAtom.argtypes = [c_void_p, c_char_p, c_int]
            x.XGetWindowProperty.argtypes = [c_void_p, c_ulong, c_ulong, c_long, c_long, c_int, c_ulong, POINTER(c_ulong), POINTER(c_int),
                                             POINTER(c_ulong), POINTER(c_ulong), POINTER(c_char_p)]
            x.XResizeWindow.argtypes = [c_void_p, c_ulong, c_uint, c_uint]
            x.XFlush.argtypes = [c_void_p]
            x.XCloseDisplay.argtypes = [c_void_p]
            display = x.XOpenDisplay(None)
            root, parent, children, count = c_ulong(), c_ulong(), POINTER(c_ulong)(), c_uint()
            x.XQueryTree(display, x.XDefaultRootWindow(display), byref(root), byref(parent), byref(children), byref(count))
            name_atom = x.XInternAtom(display, b"_NET_WM_NAME", 0)
            for i in range(count.value):
                kind, form, items, after, value = c_ulong(), c_int(), c_ulong(), c_ulong(), c_char_p()
                x.XGetWindowProperty(display, children[i], name_atom, 0, 1024, 0, 0, byref(kind), byref(form), byref(items), byref(after), byref(value))
                if value.value and value.value.decode("utf-8", "replace").endswith("– Manna"):
                    x.XResizeWindow(display, children[i], width, height)
            x.XFlush(display)
            x.XCloseDisplay(display)

        command, argument = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else None)
        before = shown()
        if command == "go":
            entry = find(window(), lambda n: n.getRoleName() == "text" and n.name == "Go to passage")
            entry.queryEditableText().setTextContents(argument)
            press("Return")
            settle(before)
        elif command in ("translation", "beside"):
            combo = find(window(), lambda n: n.getRoleName() == "combo box" and n.name == command.capitalize())
            action = combo[0].queryAction()
            action.doAction([action.getName(i) for i in range(action.nActions)].index("click"))
            listing = None
            for _ in waiting(5):
                listing = find(combo, lambda n: n.getRoleName() == "list")
                if listing is not None and listing.childCount > 0:
                    break
            codes = [find(item, lambda n: n.getRoleName() == "label").name for item in listing]
            # The title names the translation shown and the one beside it: "John 3 (WEB, KJV) – Manna".
            shown_codes = before["title"].split("(")[1].split(")")[0].split(", ")
            current = shown_codes[0] if command == "translation" else (shown_codes + ["None"])[1]
            steps = codes.index(argument) - codes.index(current)
            time.sleep(0.3)
            for _ in range(abs(steps)):
                press("Down" if steps > 0 else "Up")
            press("Return")
            settle(before)
        elif command == "select":
            # Selects verse ARGUMENT of the chapter's text, as a mouse drag would.
            chapter = find(window(), lambda n: n.getRoleName() == "label" and (n.name or "").startswith("1 "))
            text = text_of(chapter)
            start = text.index("\n" + argument + " ") + 1
            end = text.find("\n", start)
            selection = chapter.queryText()
            if selection.getNSelections() > 0:
                selection.setSelection(0, start, end)
            else:
                selection.addSelection(start, end)
        elif command == "search":
            press("control", "f")
            entry = None
            for _ in waiting(5):
                entry = find(window(), lambda n: n.getRoleName() == "entry" and n.name == "Search")
                if entry is not None:
                    break
            entry.queryEditableText().setTextContents(argument)
            for _ in waiting(5):
                if len(shown()["search"]) > 1:
                    break
        elif command == "activate":
            results = find(window(), lambda n: n.name == "Search results")
            result = find(results, lambda n: n.getRoleName() == "label" and text_of(n).startswith(argument))
            action = result.parent.queryAction()
            action.doAction([action.getName(i) for i in range(action.nActions)].index("click"))
            settle(before)
        elif command == "resize":
            # As a window manager would, through Xlib: the window named by _NET_WM_NAME.
            resize(*(int(v) for v in argument.split("x")))
            time.sleep(1)
        elif command == "key":
            press(*argument.split("+"))
            settle(before)
        elif command == "click":
            click(argument)
            settle(before)
        print(json.dumps(shown()))
        """#
}

struct ReaderSessionError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
