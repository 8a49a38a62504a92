// Listening as the desktop controls it: Manna as an MPRIS player on a private session bus,
// driven by playerctl and watched with dbus-monitor; logind's PrepareForSleep on a private
// system bus (python-dbusmock); a sound device that goes away (a second null sink unloaded).
import Foundation
import MannaKit
import Testing
import TestSupport

@Suite(.needs(.mediaControls)) struct MediaControlsTests {
    /// playerctl finds Manna, reads what it plays, and pauses, resumes, skips, positions and
    /// stops it; the clients hear of each change; the name goes when listening stops.
    @Test func playerctlControlsListening() throws {
        let sound = try TestSound()
        let bus = try TestBus()
        let home = try TemporaryHome(environment: sound.environment.merging(bus.environment) { $1 })
        let monitor = try bus.monitor("type='signal',path='/org/mpris/MediaPlayer2'")
        let listening = try Listening(["listen", "John", "3", "--json"], home: home)
        let started = try listening.waitFor { $0["event"] as? String == "started" }
        #expect(started["controls"] as? String == "org.mpris.MediaPlayer2.manna")
        try listening.waitFor { $0["event"] as? String == "verse" }

        #expect(bus.playerctl("-l").stdout == "manna\n")
        #expect(bus.playerctl("metadata", "--format", "{{xesam:title}}|{{xesam:album}}|{{mpris:trackid}}").stdout
            == "John 3:1|John 3 (KJV)|'/org/manna/passage/43003001_43003036'\n")
        #expect(bus.playerctl("metadata", "xesam:asText").stdout
            == "There was a man of the Pharisees, named Nicodemus, a ruler of the Jews:\n")
        #expect(bus.playerctl("status").stdout == "Playing\n")
        // Next and Previous move by verse: at the first, there is no previous one.
        #expect(try bus.playerProperty("CanGoPrevious") == "(<false>,)\n")
        #expect(try bus.playerProperty("CanGoNext") == "(<true>,)\n")

        #expect(bus.playerctl("pause").status == 0)
        try listening.waitFor { $0["event"] as? String == "paused" && $0["reason"] == nil }
        #expect(bus.playerctl("status").stdout == "Paused\n")
        #expect(bus.playerctl("play").status == 0)
        try listening.waitFor { $0["event"] as? String == "resumed" }
        #expect(bus.playerctl("next").status == 0)
        try listening.waitFor { $0["event"] as? String == "verse" && $0["id"] as? Int == 43_003_002 }
        // The verse being heard is the track's text, changed as each verse starts.
        #expect(bus.playerctl("metadata", "xesam:title").stdout == "John 3:2\n")
        #expect(bus.playerctl("metadata", "xesam:asText").stdout.hasPrefix("The same came to Jesus by night"))
        #expect(try bus.playerProperty("CanGoPrevious") == "(<true>,)\n")

        // The position counts from the passage's start: 30 s in is a few verses on.
        #expect(bus.playerctl("position", "30").status == 0)
        let position = Double(bus.playerctl("position").stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(position >= 30 && position < 31, "\(position)")
        let length = Int(bus.playerctl("metadata", "mpris:length").stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(length > 120_000_000 && length < 400_000_000, "John 3 read at 175 words a minute: \(length) µs")

        let open = bus.playerctl("open", "file:///tmp/other.flac")
        #expect(open.status != 0)
        #expect(open.stderr.contains("org.freedesktop.DBus.Error.NotSupported"), "\(open.stderr)")

        #expect(bus.playerctl("stop").status == 0)
        try listening.waitFor { $0["event"] as? String == "stopped" }
        #expect(listening.finish() == 0)
        #expect(bus.playerctl("-l").stdout == "")
        // Listening goes on later from where the media controls stopped it.
        let stoppedAt = try #require(listening.events.last { $0["event"] as? String == "stopped" }?["id"] as? Int)
        let again = try Listening(["listen", "--json"], home: home)
        let first = try again.waitFor { $0["event"] as? String == "verse" }
        again.stop()
        #expect(first["id"] as? Int == stoppedAt)

        let signals = monitor.stop()
        #expect(signals.contains("PropertiesChanged"))
        #expect(signals.contains(#"string "Paused""#))
        #expect(signals.contains("member=Seeked"))
    }

    /// The speed changes while playing (MPRIS Rate, as the + and - keys do) without the verse
    /// heard jumping: it goes on from where it was, faster, then the next; and listening goes
    /// on later at that speed. For espeak-ng and for the natural voice.
    @Test(arguments: [false, true]) func theRateChangesWhilePlayingWithoutTheVerseJumping(natural: Bool) throws {
        let sound = try TestSound()
        let bus = try TestBus()
        var environment = sound.environment.merging(bus.environment) { $1 }
        if natural {
            try Prerequisite.naturalVoice.require()
            environment.merge(["MANNA_ENGINE_DIR": NaturalVoice.engine, "MANNA_VOICES_DIR": NaturalVoice.voices]) { $1 }
        }
        let home = try TemporaryHome(environment: environment)
        let path = home.path + "/verse3.wav"
        #expect(home.run("listen", "John", "3:3", "--export", path).status == 0)
        let cues = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: CueSheet.path(forAudio: path)))) as? [String: Any]
        let verse = try #require((cues?["verses"] as? [[String: Any]])?.first)
        let usual = try #require(verse["end"] as? Double) - (verse["start"] as? Double ?? 0)

        let listening = try Listening(["listen", "John", "3", "--json"], home: home)
        try listening.waitFor { $0["event"] as? String == "verse" && $0["id"] as? Int == 43_003_002 }
        #expect(try bus.playerProperties("Set", "Rate", "<2.0>").status == 0)
        #expect(try listening.waitFor { $0["event"] as? String == "started" }["voice"] as? String == (natural ? "en_US-joe-medium" : "en-gb"))
        let changed = try listening.waitFor { $0["event"] as? String == "rate" }
        #expect(changed["rate"] as? Int == 350 && changed["id"] as? Int == 43_003_002)
        #expect(try bus.playerProperties("Get", "Rate").stdout == "(<2.0>,)\n")
        try listening.waitFor { $0["event"] as? String == "verse" && $0["id"] as? Int == 43_003_004 }
        let verses = listening.events.drop { $0["event"] as? String != "rate" }.filter { $0["event"] as? String == "verse" }
        #expect(verses.map { $0["id"] as? Int } == [43_003_002, 43_003_003, 43_003_004], "the verse heard goes on, then the next")
        let fast = (verses[2]["t"] as? Double ?? 0) - (verses[1]["t"] as? Double ?? 0)
        // Twice the speed is not half the time: pauses shrink less (the natural voice's verse
        // takes some 0.72 of its time, espeak-ng's less); unchanged, it would take it all.
        #expect(fast < usual * 0.8, "John 3:3 took \(fast) s at 350 words a minute, \(usual) s at 175")
        listening.stop()
        let again = try Listening(["listen", "--json"], home: home)
        let started = try again.waitFor { $0["event"] as? String == "started" }
        again.stop()
        #expect(started["rate"] as? Int == 350)
    }

    /// At a passage's last verse, Next is there only when something follows: with --continue
    /// it goes on to the next chapter (John 3:36 to John 4:1); alone, there is no next.
    @Test func nextAtTheLastVerseGoesOnWithContinue() throws {
        let sound = try TestSound()
        let bus = try TestBus()
        let home = try TemporaryHome(environment: sound.environment.merging(bus.environment) { $1 })
        let alone = try Listening(["listen", "John", "3:36", "--json"], home: home)
        try alone.waitFor { $0["event"] as? String == "verse" }
        #expect(try bus.playerProperty("CanGoNext") == "(<false>,)\n")
        alone.stop()

        let continuing = try Listening(["listen", "John", "3:36", "--continue", "--json"], home: home)
        try continuing.waitFor { $0["event"] as? String == "verse" && $0["id"] as? Int == 43_003_036 }
        #expect(try bus.playerProperty("CanGoNext") == "(<true>,)\n")
        #expect(bus.playerctl("next").status == 0)
        try continuing.waitFor { $0["event"] as? String == "verse" && $0["id"] as? Int == 43_004_001 }
        continuing.stop()
    }

    /// Another program already called manna: this one takes the MPRIS spec's instance name.
    @Test func aTakenNameGivesAnInstanceName() throws {
        let sound = try TestSound()
        let bus = try TestBus()
        try bus.holdName("org.mpris.MediaPlayer2.manna")
        let home = try TemporaryHome(environment: sound.environment.merging(bus.environment) { $1 })
        let listening = try Listening(["listen", "Ps", "23", "--json"], home: home)
        let started = try listening.waitFor { $0["event"] as? String == "started" }
        let name = try #require(started["controls"] as? String)
        #expect(name.hasPrefix("org.mpris.MediaPlayer2.manna.instance"))
        let player = String(name.dropFirst("org.mpris.MediaPlayer2.".count))
        #expect(bus.playerctl("-p", player, "pause").status == 0)
        try listening.waitFor { $0["event"] as? String == "paused" }
        listening.stop()
    }

    /// Before the machine sleeps, listening pauses; waking does not resume it.
    @Test func sleepPausesListening() throws {
        let sound = try TestSound()
        let system = try TestBus(system: true)
        try system.startLogind()
        let home = try TemporaryHome(environment: sound.environment.merging(system.environment) { $1 })
        let listening = try Listening(["listen", "Ps", "23", "--json"], home: home)
        try listening.waitFor { $0["event"] as? String == "verse" }
        try system.prepareForSleep(true)
        let paused = try listening.waitFor { $0["event"] as? String == "paused" }
        #expect(paused["reason"] as? String == "sleep")
        try system.prepareForSleep(false)
        usleep(500_000)
        listening.stop()
        #expect(!listening.events.contains { $0["event"] as? String == "resumed" })
    }

    /// The sound device going away (headphones unplugged, a Bluetooth headset switched off)
    /// pauses listening, which then waits for the listener.
    @Test func aDeviceThatGoesAwayPausesListening() throws {
        let sound = try TestSound()
        let pactl = try #require(TestEnvironment.path(of: "pactl"))
        let loaded = spawn(pactl, ["load-module", "module-null-sink", "sink_name=headphones"], environment: sound.environment)
        let module = loaded.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(loaded.status == 0 && !module.isEmpty, "\(loaded.stderr)")
        let home = try TemporaryHome(environment: sound.environment.merging(["PULSE_SINK": "headphones"]) { $1 })
        let listening = try Listening(["listen", "Ps", "23", "--json"], home: home)
        try listening.waitFor { $0["event"] as? String == "verse" }
        #expect(spawn(pactl, ["unload-module", module], environment: sound.environment).status == 0)
        let paused = try listening.waitFor { $0["event"] as? String == "paused" }
        #expect(paused["reason"] as? String == "device")
        usleep(500_000)
        listening.stop()
        #expect(!listening.events.contains { $0["event"] as? String == "resumed" })
    }
}

/// `manna ARGUMENTS` running, its JSON events read as they come.
final class Listening {
    private let process: RunningProgram
    private(set) var events: [[String: Any]] = []

    init(_ arguments: [String], home: TemporaryHome) throws {
        precondition(Manna.textDatabaseReady)
        process = try RunningProgram(Manna.binary, arguments, environment: home.environment.merging(["PATH": "/usr/bin:/bin"]) { $1 })
    }

    /// Reads events until one satisfies `condition`, and returns it. A manna that ends first, or
    /// prints nothing for two minutes (a loaded CI machine), fails the test.
    @discardableResult
    func waitFor(_ condition: ([String: Any]) -> Bool) throws -> [String: Any] {
        var checked = 0
        while true {
            for event in events[checked...] where condition(event) { return event }
            checked = events.count
            guard let line = process.readLine(timeout: 120) else {
                throw TestBusError("manna stopped, or printed nothing for 120 s, before the event came; events: \(events)")
            }
            if let event = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] { events.append(event) }
        }
    }

    /// Waits for manna to exit; its status (124 when it has not within two minutes).
    func finish() -> Int32 {
        process.wait(timeout: 120) ?? Programs.timedOut
    }

    /// Stops manna (as Ctrl-C does) and reads what it said last.
    func stop() {
        process.signal(SIGINT)
        _ = try? waitFor { _ in false }
        process.wait(timeout: 60)
    }
}

extension TestBus {
    /// playerctl on this bus.
    func playerctl(_ arguments: String...) -> Run {
        guard let path = TestEnvironment.path(of: "playerctl") else { return Run(status: -1, stdout: "", stderr: "no playerctl") }
        return spawn(path, arguments, environment: environment.merging(["PATH": "/usr/bin:/bin"]) { $1 })
    }

    /// A property of Manna's MPRIS player, as gdbus prints it: `(<true>,)`.
    func playerProperty(_ name: String) throws -> String { try playerProperties("Get", name).stdout }

    /// Gets or sets (`value`, like `<2.0>`) a property of Manna's MPRIS player with gdbus.
    func playerProperties(_ method: String, _ arguments: String...) throws -> Run {
        try Prerequisite.gdbus.require()
        let gdbus = try #require(TestEnvironment.path(of: "gdbus"))
        return spawn(gdbus, ["call", "--session", "-d", "org.mpris.MediaPlayer2.manna", "-o", "/org/mpris/MediaPlayer2", "-m",
                             "org.freedesktop.DBus.Properties." + method, "org.mpris.MediaPlayer2.Player"] + arguments,
                     environment: environment.merging(["PATH": "/usr/bin:/bin"]) { $1 })
    }

    /// dbus-monitor on this bus, printing what `rule` matches until `stop()`.
    func monitor(_ rule: String) throws -> Monitor {
        let path = try #require(TestEnvironment.path(of: "dbus-monitor"))
        var values: Environment = ["PATH": "/usr/bin:/bin"]
        for (name, value) in environment { values[name] = value }
        let child = try Subprocess.start(path, arguments: ["--address", address, rule], environment: values)
        return Monitor(child: child)
    }

    struct Monitor {
        let child: Subprocess.Child

        /// Stops the monitor; what it printed.
        func stop() -> String {
            kill(child.pid, SIGKILL)
            _ = child.wait()
            var text: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = read(child.output, &chunk, chunk.count)
                if count <= 0 { break }
                text += chunk[..<count]
            }
            for descriptor in [child.input, child.output, child.errorOutput] { close(descriptor) }
            return String(decoding: text, as: UTF8.self)
        }
    }
}
