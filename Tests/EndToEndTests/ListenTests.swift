import Foundation
import MannaKit
import Testing
import TestSupport

/// `manna listen` through the real parts: manna-play, espeak-ng, a PulseAudio server with a
/// null sink (TestSound), tmux as the terminal.
@Suite(.needs(.soundServer)) struct ListenTests {
    /// John 11:35-36 in the KJV read by en-gb at 175 words a minute: verse 36 starts at this
    /// sample of 22050 a second (what the export's cue sheet says too).
    static let verse36Start = 16868.0 / 22050

    @Test func eachVerseIsReportedAsItBecomesAudibleAtItsExactTime() throws {
        let sound = try TestSound()
        let home = try TemporaryHome(environment: sound.environment)
        let run = home.run("listen", "John", "11:35-36", "--json")
        #expect(run.status == 0, "\(run.stderr)")
        let events = run.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(events.map { $0["event"] as? String } == ["started", "verse", "verse", "ended"])
        #expect(events.first?["voice"] as? String == "en-gb")
        #expect(events[1]["id"] as? Int == 43_011_035 && events[1]["reference"] as? String == "John 11:35" && events[1]["t"] as? Double == 0)
        #expect(events[2]["id"] as? Int == 43_011_036)
        // The clock is the sound server's: the time is where verse 36's first sample was heard.
        let t = try #require(events[2]["t"] as? Double)
        let cues = try exportedCues(home: home, "John 11:35-36", format: "wav")
        let start = try #require((cues["verses"] as? [[String: Any]])?[1]["start"] as? Double)
        #expect(abs(t - start) < 0.001, "heard at \(t), rendered at \(start)")
        // Heard to the end: nothing to resume.
        #expect(home.run("listen").stderr == "manna: nothing to resume: give a passage, like 'manna listen John 3'\n")
    }

    @Test func notOnATerminalEachVerseIsOneLine() throws {
        let sound = try TestSound()
        let home = try TemporaryHome(environment: sound.environment)
        let run = home.run("listen", "Jude", "1:24-25", "--translation", "WEB", "--rate", "300")
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("0.00  Jude 1:24  Now to him who is able to keep them from stumbling") == true)
        #expect(lines.last?.contains("  Jude 1:25  to God our Savior, who alone is wise") == true)
    }

    /// Acts 8:37 is not in the WEB: it is shown as such by `read`, and not spoken.
    @Test func versesTheTranslationLacksAreNotSpoken() throws {
        let sound = try TestSound()
        let home = try TemporaryHome(environment: sound.environment)
        let run = home.run("listen", "Acts", "8:37-38", "--translation", "WEB", "--rate", "450", "--json")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stdout.contains("44008037"))
        #expect(run.stdout.contains("\"id\":44008038"))
        #expect(home.run("listen", "Acts", "8:37", "--translation", "WEB").stderr == "manna: the WEB has no verse of Acts 8:37\n")
    }

    /// `plan today --listen` reads the day's readings aloud, and is resumed like any listening.
    @Test func aPlansDayIsReadAloud() throws {
        let sound = try TestSound()
        let home = try TemporaryHome(environment: sound.environment)
        #expect(home.run("plan", "start", "nt-90", "--now", "2026-12-01T08:00").status == 0)
        let (process, output) = try listen(["plan", "today", "--listen", "--now", "2026-12-01T08:00"], home: home, lines: 2)
        process.signal(SIGINT)
        process.wait(timeout: 60)
        #expect(process.exitStatus == 130)
        #expect(output.first == "The New Testament in 90 Days, Day 1 of 90: Matthew 1-4")
        #expect(output.dropFirst().first?.hasPrefix("0.00  Matthew 1:1  The book of the generation of Jesus Christ") == true)
        #expect(try resumed(home: home).first?["passage"] as? String == "Matthew 1-4")
    }

    /// A day of several readings is read in the plan's order, not the Bible's: Three Streams'
    /// day 1 is Genesis 1-2, Matthew 1, then Psalm 1, so Matthew 1:25 is followed by Psalm 1:1.
    @Test func aPlansReadingsAreReadInTheirOrder() throws {
        let sound = try TestSound()
        let home = try TemporaryHome(environment: sound.environment)
        #expect(home.run("plan", "start", "three-streams", "--now", "2026-12-01T08:00").status == 0)
        let (process, events) = try listen(["plan", "today", "--listen", "--json", "--now", "2026-12-01T08:00"], home: home, verses: 1)
        process.signal(SIGKILL)
        process.wait(timeout: 60)
        #expect(events.first?["passage"] as? String == "Genesis 1-2; Matthew 1; Psalm 1")
        #expect(events.last?["id"] as? Int == 1_001_001)
        let (_, verses) = try interrupted(["listen", "--from", "Matthew 1:25", "--json", "--rate", "450"], home: home, verses: 2)
        #expect(verses == [40_001_025, 19_001_001])
    }

    /// `--continue` reads on from the passage's end into the next chapter (John 3:36 into
    /// John 4:1), and the place kept is in the chapter being heard.
    @Test func continuingGoesOnIntoTheNextChapter() throws {
        let sound = try TestSound()
        let home = try TemporaryHome(environment: sound.environment)
        let (events, verses) = try interrupted(["listen", "John", "3:36", "--continue", "--json", "--rate", "450"], home: home, verses: 2)
        #expect(verses == [43_003_036, 43_004_001])
        #expect(events.filter { $0["event"] as? String == "started" }.map { $0["passage"] as? String } == ["John 3:36", "John 4"])
        #expect(try resumed(home: home).first?["passage"] as? String == "John 4")
    }

    /// `--repeat` starts the passage again after its last verse, until stopped.
    @Test func repeatingStartsThePassageAgain() throws {
        let sound = try TestSound()
        let home = try TemporaryHome(environment: sound.environment)
        let (events, verses) = try interrupted(["listen", "Ps", "117", "--repeat", "--json", "--rate", "450"], home: home, verses: 3)
        #expect(verses == [19_117_001, 19_117_002, 19_117_001])
        #expect(!events.contains { $0["event"] as? String == "ended" })
    }

    /// `--sleep 4s` ends a long reading by itself: the sound fades over its last seconds and
    /// stops at 4 s, and listening goes on later from where it fell asleep.
    @Test func theSleepTimerEndsAReadingByItselfFadingOut() throws {
        let sound = try TestSound()
        let home = try TemporaryHome(environment: sound.environment)
        let recording = try sound.record()
        let run = home.run("listen", "Ps", "119", "--sleep", "4s", "--json")
        usleep(500_000)
        let samples = recording.stop()
        #expect(run.status == 0, "\(run.stderr)")
        let events = run.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let stopped = try #require(events.last)
        #expect(stopped["event"] as? String == "stopped", "\(events)")
        let t = try #require(stopped["t"] as? Double)
        #expect(abs(t - 4) < 0.1, "stopped at \(t) s")
        // What the sink played: loud at first, faded in the last second, then silence.
        let rate = 22050
        let first = try #require(samples.firstIndex { abs(Int($0)) > 500 })
        #expect(samples.count > first + 5 * rate / 2, "recorded \(samples.count) samples")
        let loud = TestSound.rms(samples[first..<first + 3 * rate / 2])
        let fading = TestSound.rms(samples[first + 33 * rate / 10..<first + 39 * rate / 10])
        let after = TestSound.rms(samples[min(samples.count, first + 43 * rate / 10)...])
        #expect(fading < loud / 2, "loud \(loud), fading \(fading)")
        #expect(after < loud / 50, "loud \(loud), after the end \(after)")
        #expect(try resumed(home: home).last?["id"] as? Int == stopped["id"] as? Int)
    }

    @Test func withoutASoundServerItSaysWhatItTriedWithinASecond() throws {
        let home = try TemporaryHome(environment: ["PULSE_SERVER": "unix:/nonexistent/native"])
        precondition(Manna.textDatabaseReady)
        let started = Date()
        let run = home.run("listen", "John", "3:16")
        // The player gives a server a second to answer; one that refuses is known at once. The
        // bound allows for a loaded two-core machine starting two debug programs.
        #expect(Date().timeIntervalSince(started) < 3)
        #expect(run.status == 69)
        #expect(run.stderr.hasPrefix("manna: no sound server answered at unix:/nonexistent/native ("))
        #expect(run.stderr.hasSuffix("or write the reading to a file with --export FILE.flac\n"))
        #expect(run.stderr.split(separator: "\n").count == 1)
    }

    @Test(arguments: [
        (["John", "3", "--voice", "en-xx"], 65, "manna: no voice 'en-xx' is installed; for en: en-029, en-gb,"),
        (["John", "3", "--rate", "fast"], 64, "manna: --rate must be words a minute from 80 to 450, not 'fast'"),
        (["John", "3", "--from", "37"], 64, "manna: --from '37' is not a verse of John 3"),
        (["John", "3:99"], 65, "manna: John 3 has only 36 verses"),
        (["John", "3", "--export", "/tmp/x.mp3"], 64, "manna: --export '/tmp/x.mp3': the name must end in .wav, .flac, .ogg, .opus"),
    ])
    func badInputGetsOneLine(arguments: [String], status: Int32, message: String) throws {
        let sound = try TestSound()
        precondition(Manna.textDatabaseReady)
        let run = Manna.run(["listen"] + arguments, environment: sound.environment)
        #expect(run.status == status)
        #expect(run.stderr.hasPrefix(message), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1)
    }

    @Test func voicesAreListed() throws {
        let run = manna("listen", "--voices")
        #expect(run.status == 0)
        #expect(run.stdout.contains("\nen-gb               English (Great Britain)\n"))
        #expect(run.stdout.contains("\nen-us               English (America)\n"))
        #expect(run.stdout.contains("\nes                  Spanish (Spain)\n"), "the RV1909's voice (curated/languages.tsv)")
    }

    /// Each translation is read by its voice when none is asked for (the RV1909 by its
    /// language's, Spanish: it was en-us), and espeak-ng reads it; `--voice` still wins.
    @Test func theRV1909IsReadByASpanishVoice() throws {
        let home = try TemporaryHome()
        for (arguments, voice) in [([String](), "es"), (["--voice", "es-419"], "es-419")] {
            let path = home.path + "/juan-\(voice).wav"
            let run = home.run(["listen", "John", "3:16", "-t", "RV1909", "--export", path] + arguments)
            #expect(run.status == 0, "\(run.stderr)")
            let data = try Data(contentsOf: URL(fileURLWithPath: CueSheet.path(forAudio: path)))
            let cues = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(cues["voice"] as? String == voice)
        }
    }

    /// listen takes a typed passage as read does (PassageInput.typed): "Juan 3:16" is read in
    /// the RV1909, "Mc 1:1" with the RV1909 chosen is Mark's, a translation after it wins.
    @Test func aTypedPassageIsReadInTheTranslationReadWouldShow() throws {
        let home = try TemporaryHome(environment: ["PULSE_SERVER": "unix:/nonexistent/native"])
        for (index, (words, passage, translation)) in [(["Juan 3:16"], "John 3:16", "RV1909"), (["Mc 1:1", "-t", "RV1909"], "Mark 1:1", "RV1909"),
                                                        (["John 11:35 (WEB)"], "John 11:35", "WEB")].enumerated() {
            let path = home.path + "/typed-\(index).wav"
            let run = home.run(["listen"] + words + ["--export", path])
            #expect(run.status == 0, "\(run.stderr)")
            let data = try Data(contentsOf: URL(fileURLWithPath: CueSheet.path(forAudio: path)))
            let cues = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(cues["passage"] as? String == passage && cues["translation"] as? String == translation, "\(words): \(cues)")
        }
    }

    // MARK: - Export

    /// Renders `passage` to a file in `home` and returns its cue sheet.
    func exportedCues(home: TemporaryHome, _ passage: String, format: String) throws -> [String: Any] {
        let path = home.path + "/reading." + format
        let run = home.run("listen", passage, "--export", path)
        #expect(run.status == 0, "\(run.stderr)")
        let data = try Data(contentsOf: URL(fileURLWithPath: CueSheet.path(forAudio: path)))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test(.needs(.jsonschema, .sox, .opusinfo), arguments: ["wav", "flac", "ogg", "opus"])
    func anExportIsAudioAndACueSheetThatAgree(format: String) throws {
        // No sound server is needed to export.
        let home = try TemporaryHome(environment: ["PULSE_SERVER": "unix:/nonexistent/native"])
        let path = home.path + "/psalm23." + format
        let run = home.run("listen", "Ps", "23", "--export", path)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("wrote \(path) ("))
        let sheetPath = CueSheet.path(forAudio: path)
        let sheet = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: sheetPath))) as? [String: Any])
        // Valid by the published schema, checked by an independent validator.
        let validate = Manna.run(["-c", """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            jsonschema.Draft202012Validator.check_schema(schema)
            jsonschema.validate(json.load(open(sys.argv[2])), schema, cls=jsonschema.Draft202012Validator)
            """, Manna.root + "/docs/cues.schema.json", sheetPath], executable: try #require(TestEnvironment.jsonschemaPython))
        #expect(validate.status == 0, "\(validate.stderr)")
        #expect(sheet["sha256"] as? String == (try SHA256.hexDigest(ofFile: path)))
        #expect(sheet["audio"] as? String == "psalm23." + format)
        #expect(sheet["passage"] as? String == "Psalm 23")
        let verses = try #require(sheet["verses"] as? [[String: Any]])
        #expect(verses.map { $0["id"] as? Int } == (1...6).map { 19_023_000 + $0 })
        // Each verse starts where the one before it ended; the last ends where the audio does.
        let starts = verses.compactMap { $0["start"] as? Double }
        let ends = verses.compactMap { $0["end"] as? Double }
        #expect(starts.first == 0)
        #expect(Array(starts.dropFirst()) == Array(ends.dropLast()))
        let duration = try #require(sheet["duration"] as? Double)
        #expect(abs(ends.last! - duration) < 0.01)
        // The audio decodes, to that length, by tools other than the one that wrote it.
        let decoded: Double
        if format == "opus" {
            let info = try tool(.opusinfo, [path]).stdout
            let length = try #require(info.split(separator: "\n").first { $0.contains("Playback length:") })
            // "Playback length: 0m:48.123s"
            let parts = length.split(separator: ":").suffix(2)
            decoded = Double(parts.first!.trimmingCharacters(in: .whitespaces).dropLast())! * 60 + Double(parts.last!.dropLast())!
        } else {
            decoded = try #require(Double(try tool(.sox, ["-D", path]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        }
        #expect(abs(decoded - duration) < 0.03, "decoded \(decoded) s, the cue sheet says \(duration) s")
    }

    /// `manna cues check`: an export is ok; a copy with shifted cues, with the audio cut
    /// short, or with other audio gets a line per defect and exit 65.
    @Test func aCueSheetIsCheckedAgainstItsAudioAndPassage() throws {
        let home = try TemporaryHome(environment: ["PULSE_SERVER": "unix:/nonexistent/native"])
        let path = home.path + "/reading.flac"
        #expect(home.run("listen", "John", "11:35-36", "--export", path).status == 0)
        let sheet = CueSheet.path(forAudio: path)
        let ok = home.run("cues", "check", sheet)
        #expect(ok.status == 0)
        #expect(ok.stdout == "ok: \(sheet): John 11:35-36 (KJV), 2 verses, 0:03 of reading.flac\n")

        // The second verse moved into the first, and a verse that is not there.
        var json = try String(contentsOfFile: sheet, encoding: .utf8)
        json = json.replacingOccurrences(of: "\"start\": 0.765034", with: "\"start\": 0.5")
        try json.write(toFile: home.path + "/shifted.cues.json", atomically: true, encoding: .utf8)
        let shifted = home.run("cues", "check", home.path + "/shifted.cues.json")
        #expect(shifted.status == 65)
        #expect(shifted.stdout == "\(home.path)/shifted.cues.json: verses[1] (John 11:36) starts at 0.5 s, before verses[0] (John 11:35) ends at 0.765034 s: cues overlap\n")
        #expect(shifted.stderr == "manna: \(home.path)/shifted.cues.json: 1 defect\n")

        // The audio cut short: it no longer decodes to its end.
        let audio = try Data(contentsOf: URL(fileURLWithPath: path))
        try audio.prefix(audio.count / 2).write(to: URL(fileURLWithPath: path))
        let cut = home.run("cues", "check", sheet)
        #expect(cut.status == 65)
        #expect(cut.stdout.hasPrefix("\(sheet): cannot decode \(path): "))

        // Other audio of the right kind: the hash and the length say so.
        #expect(home.run("listen", "John", "11:35", "--rate", "400", "--export", path).status == 0)
        try json.replacingOccurrences(of: "\"start\": 0.5", with: "\"start\": 0.765034").write(toFile: sheet, atomically: true, encoding: .utf8)
        let other = home.run("cues", "check", sheet)
        #expect(other.status == 65)
        let lines = other.stdout.split(separator: "\n")
        #expect(lines.contains { $0.contains(": verses[1] (John 11:36) starts at 0.765034 s, past the audio's end at ") })
        #expect(lines.contains { $0.contains(": the audio's SHA-256 is ") && $0.hasSuffix("it is other audio, or was changed") })
        #expect(lines.contains { $0.contains(": the audio lasts ") })

        #expect(home.run("cues", "check", home.path + "/none.json").stderr == "manna: \(home.path)/none.json: no such file\n")
        try "{\"format\": \"manna-cues\", \"version\": 2}".write(toFile: home.path + "/v2.json", atomically: true, encoding: .utf8)
        #expect(home.run("cues", "check", home.path + "/v2.json").stderr
            == "manna: \(home.path)/v2.json: not a cue sheet: \"version\" must be 1: this Manna reads no other\n")
    }

    /// Timings as Audacity labels (verse numbers) for a recording become a cue sheet that
    /// checks; an existing sheet is not replaced.
    @Test func audacityLabelsBecomeACueSheet() throws {
        let home = try TemporaryHome(environment: ["PULSE_SERVER": "unix:/nonexistent/native"])
        let recording = home.path + "/psalm23.wav"
        #expect(home.run("listen", "Ps", "23", "--export", recording).status == 0)
        let exported = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: CueSheet.path(forAudio: recording)))) as? [String: Any])
        let labels = try #require(exported["verses"] as? [[String: Any]]).map { verse in
            "\(verse["start"] as! Double)\t\(verse["end"] as! Double)\t\((verse["id"] as! Int) % 1000)\n"
        }.joined()
        try FileManager.default.removeItem(atPath: CueSheet.path(forAudio: recording))
        try ("\\c 23\n" + labels).write(toFile: home.path + "/labels.txt", atomically: true, encoding: .utf8)
        let arguments = ["cues", "import", home.path + "/labels.txt", "--from", "audacity", "--ref", "Psalm 23", "--audio", recording, "--reader", "Tester"]
        let imported = home.run(arguments)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout == "wrote \(recording).cues.json: Psalm 23 (KJV), 6 verses, 0:30\n")
        #expect(home.run("cues", "check", recording + ".cues.json").status == 0)
        let again = home.run(arguments)
        #expect(again.status == 65)
        #expect(again.stderr == "manna: \(recording).cues.json exists: move it aside to import again\n")

        // A time no recording has (issue 25, point 4: 1e308 once wrote "end": inf, and the sheet
        // then blocked a re-import): one line naming it, nothing written.
        try FileManager.default.removeItem(atPath: CueSheet.path(forAudio: recording))
        for bad in ["1e308", "inf", "nan", "-2"] {
            // The third label ends at `bad`: line 4, after "\\c 23".
            var lines = labels.split(separator: "\n").map(String.init)
            lines[2] = "3.0\t\(bad)\t3"
            try ("\\c 23\n" + lines.joined(separator: "\n") + "\n").write(toFile: home.path + "/labels.txt", atomically: true, encoding: .utf8)
            let refused = home.run(arguments)
            #expect(refused.status == 65)
            #expect(refused.stderr.hasPrefix("manna: \(home.path)/labels.txt: line 4: START and END must each be a number of seconds from 0 to 86400, found '3.0")
                && refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: CueSheet.path(forAudio: recording)))
        }
    }

    /// A recording plays by its cue sheet: `--from` starts at the verse's cue, each verse is
    /// reported when its cue is heard, whatever the file's rate and channels.
    @Test(.needs(.sox)) func aRecordingPlaysVerseByVerseFromItsCues() throws {
        let sound = try TestSound()
        let home = try TemporaryHome(environment: sound.environment)
        let recording = home.path + "/psalm23.flac"
        #expect(home.run("listen", "Ps", "23", "--export", recording).status == 0)
        let sheet = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: CueSheet.path(forAudio: recording)))) as? [String: Any])
        let starts = try #require(sheet["verses"] as? [[String: Any]]).compactMap { $0["start"] as? Double }

        let run = home.run("listen", "--audio", recording, "--from", "5", "--json")
        #expect(run.status == 0, "\(run.stderr)")
        let events = run.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(events.first?["passage"] as? String == "Psalm 23")
        #expect(events.compactMap { $0["id"] as? Int } == [19_023_005, 19_023_006])
        let t = try #require(events[2]["t"] as? Double)
        #expect(abs(t - (starts[5] - starts[4])) < 0.002, "verse 6 heard at \(t) s after verse 5; its cue says \(starts[5] - starts[4]) s")

        // The same reading as 44.1 kHz stereo, with the cue sheet given.
        let stereo = home.path + "/stereo.wav"
        #expect(spawn(try #require(TestEnvironment.path(of: "sox")), [recording, "-c", "2", "-r", "44100", stereo]).status == 0)
        let played = home.run("listen", "Ps", "23:6", "--audio", stereo, "--cues", CueSheet.path(forAudio: recording), "--json")
        #expect(played.status == 0, "\(played.stderr)")
        #expect(played.stdout.contains("\"id\":19023006"))
        #expect(played.stdout.contains("\"event\":\"ended\""))

        let missing = home.run("listen", "Ps", "23", "--audio", stereo)
        #expect(missing.status == 65)
        #expect(missing.stderr == "manna: \(stereo).cues.json: no cue sheet for \(stereo): make one with 'manna cues import', or give --cues\n")
    }

    /// A recording that is not the one its cues are for, or that ends early, or that is no
    /// audio at all: one line and status 65; cut short, it plays to the cut and keeps the place.
    @Test func aRecordingThatDoesNotMatchItsCuesIsRefused() throws {
        let sound = try TestSound()
        let home = try TemporaryHome(environment: sound.environment)
        let recording = home.path + "/psalm23.flac", other = home.path + "/john.flac", cut = home.path + "/cut.flac", garbage = home.path + "/garbage.flac"
        #expect(home.run("listen", "Ps", "23", "--export", recording).status == 0)
        #expect(home.run("listen", "John", "11:35", "--export", other).status == 0)
        let cues = CueSheet.path(forAudio: recording)

        let wrong = home.run("listen", "--audio", other, "--cues", cues)
        #expect(wrong.status == 65)
        #expect(wrong.stderr.hasPrefix("manna: \(other) is 0.765"), "\(wrong.stderr)")
        #expect(wrong.stderr.hasSuffix(" long, and its cue sheet is for 30.762358 s of audio: the cues are for other audio, or the file was cut short ('manna cues check' says more)\n"))

        // Half the file: FLAC's header still gives the whole length, so the player finds the cut as it reads.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: recording))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: cut))
        let short = home.run("listen", "--audio", cut, "--cues", cues, "--from", "4", "--json")
        #expect(short.status == 65)
        #expect(short.stderr.hasPrefix("manna: \(cut) cannot be decoded past "), "\(short.stderr)")
        #expect(short.stderr.hasSuffix(" s: the file is cut short or damaged; 'manna listen' goes on from Psalm 23:4\n"))
        #expect(short.stdout.contains(#""id":19023004"#) && !short.stdout.contains(#""id":19023005"#))

        try Data("not audio".utf8).write(to: URL(fileURLWithPath: garbage))
        let broken = home.run("listen", "--audio", garbage, "--cues", cues)
        #expect(broken.status == 65)
        #expect(broken.stderr.hasPrefix("manna: cannot decode \(garbage): "), "\(broken.stderr)")
        #expect(broken.stderr.split(separator: "\n").count == 1)
    }

    /// A second `manna listen` takes over: the first stops, keeping its place, and exits 130.
    @Test func aSecondListeningTakesOver() throws {
        let sound = try TestSound()
        let home = try TemporaryHome(environment: sound.environment)
        let (first, _) = try listen(["listen", "Ps", "23", "--json"], home: home, verses: 1)
        let second = home.run("listen", "John", "11:35", "--json", "--rate", "450")
        first.wait(timeout: 60)
        #expect(first.exitStatus == 130)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("\"id\":43011035"))
    }

    /// A call (a stream with media.role=phone) pauses listening while it plays; its end
    /// resumes it.
    @Test func aCallPausesListeningUntilItEnds() throws {
        let sound = try TestSound()
        let home = try TemporaryHome(environment: sound.environment)
        let call = home.path + "/call.wav"
        #expect(home.run("listen", "John", "11:35", "--rate", "300", "--export", call).status == 0)
        let (process, _) = try listen(["listen", "Ps", "23", "--json"], home: home, verses: 1)
        let paplay = try #require(TestEnvironment.path(of: "paplay"))
        #expect(spawn(paplay, ["--property=media.role=phone", call], environment: sound.environment.merging(["HOME": home.path]) { $1 }).status == 0)
        // The call has ended: the events so far say paused, then resumed.
        usleep(300_000)
        process.signal(SIGTERM)
        let events = process.readToEnd(timeout: 60)
        process.wait(timeout: 60)
        let kinds = events.split(separator: "\n").compactMap { line in (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["event"] as? String }
        #expect(kinds.firstIndex(of: "paused") != nil && kinds.firstIndex(of: "resumed") != nil)
        #expect((kinds.firstIndex(of: "paused") ?? 99) < (kinds.firstIndex(of: "resumed") ?? 0), "\(kinds)")
    }

    /// The sound server gone mid-play: the player says so, manna keeps the place and exits 69;
    /// with a server again, listening goes on from there.
    @Test func aSoundServerThatGoesAwayStopsListeningCleanly() throws {
        var sound: TestSound? = try TestSound()
        let home = try TemporaryHome(environment: sound!.environment)
        let (process, events) = try listen(["listen", "Ps", "23", "--json"], home: home, verses: 2)
        #expect(events.last?["id"] as? Int == 19_023_002)
        sound = nil  // its server is stopped
        process.wait(timeout: 60)
        #expect(process.exitStatus == 69)

        let second = try TestSound()
        home.environment.merge(second.environment) { $1 }
        let (restarted, again) = try listen(["listen", "--json"], home: home, verses: 1)
        restarted.signal(SIGKILL)
        restarted.wait(timeout: 60)
        #expect(again.last?["id"] as? Int == 19_023_002)
    }

    // MARK: - Resume

    /// Starts `manna ARGUMENTS` in `home` and reads its JSON events until `count` verses have
    /// been heard; returns the process, still running, and the events.
    func listen(_ arguments: [String], home: TemporaryHome, verses count: Int) throws -> (RunningProgram, [[String: Any]]) {
        let (process, lines) = try listen(arguments, home: home) { lines in
            lines.filter { $0.contains("\"event\":\"verse\"") }.count >= count
        }
        return (process, lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
    }

    /// Listens with `arguments` until `count` verses are heard, then stops it as Ctrl-C does:
    /// its events, and the ids of the verses heard.
    func interrupted(_ arguments: [String], home: TemporaryHome, verses count: Int) throws -> (events: [[String: Any]], verses: [Int?]) {
        let (process, events) = try listen(arguments, home: home, verses: count)
        process.signal(SIGINT)
        process.wait(timeout: 60)
        return (events, events.filter { $0["event"] as? String == "verse" }.map { $0["id"] as? Int })
    }

    /// `manna listen --json` resuming in `home`: its events until the first verse is heard.
    func resumed(home: TemporaryHome) throws -> [[String: Any]] {
        let (process, events) = try listen(["listen", "--json"], home: home, verses: 1)
        process.signal(SIGKILL)
        process.wait(timeout: 60)
        return events
    }

    /// The same, reading `count` lines of plain output.
    func listen(_ arguments: [String], home: TemporaryHome, lines count: Int) throws -> (RunningProgram, [String]) {
        try listen(arguments, home: home) { $0.count >= count }
    }

    private func listen(_ arguments: [String], home: TemporaryHome, until enough: ([String]) -> Bool) throws -> (RunningProgram, [String]) {
        precondition(Manna.textDatabaseReady)
        let process = try RunningProgram(Manna.binary, arguments, environment: home.environment.merging(["PATH": "/usr/bin:/bin"]) { $1 })
        var lines: [String] = []
        // 120 s a line: a loaded CI machine; a listener that stops printing fails the test, not the run.
        while !enough(lines), let line = process.readLine(timeout: 120) {
            if !line.isEmpty { lines.append(line) }
        }
        return (process, lines)
    }

    /// Killed (kill -9) as the third verse is heard, listening goes on from it; stopped by a
    /// signal (Ctrl-C) it says so, exits 130, and goes on from where that one stopped.
    @Test func listeningKilledOrInterruptedGoesOnFromTheVerseBeingHeard() throws {
        let sound = try TestSound()
        let home = try TemporaryHome(environment: sound.environment)
        let (killed, heard) = try listen(["listen", "Ps", "23", "--json", "--rate", "400"], home: home, verses: 3)
        killed.signal(SIGKILL)
        killed.wait(timeout: 60)
        #expect(heard.last?["id"] as? Int == 19_023_003)

        let (interrupted, again) = try listen(["listen", "--json"], home: home, verses: 2)
        #expect(again.first?["passage"] as? String == "Psalm 23")
        #expect(again.first?["rate"] as? Int == 400)
        #expect(again.dropFirst().first?["id"] as? Int == 19_023_003)
        #expect(again.last?["id"] as? Int == 19_023_004)
        interrupted.signal(SIGINT)
        interrupted.wait(timeout: 60)
        #expect(interrupted.exitStatus == 130)

        #expect(try resumed(home: home).last?["id"] as? Int == 19_023_004)
    }

    // MARK: - The terminal

    /// The follow-along screen in a real terminal (tmux): the verse heard highlighted and the
    /// status line, keys that move and pause (silence recorded while paused), and on quit the
    /// terminal put back with the place said and kept.
    @Test(.needs(.tmux)) func theFollowAlongScreenMovesWithTheVoiceAndPausesInSilence() throws {
        let sound = try TestSound()
        let home = try TemporaryHome(environment: sound.environment)
        let terminal = try TestTerminal(columns: 80, rows: 12, environment: home.environment,
                                        command: [Manna.binary, "listen", "John", "3"])
        let first = try terminal.waitFor { $0.last?.hasPrefix("playing John 3:1  0:00") == true }
        #expect(first.first == "John 3 (KJV)")
        #expect(try terminal.highlightedLines().first?.hasPrefix(" 1 There was a man of the Pharisees") == true)

        terminal.send("n")
        _ = try terminal.waitFor { $0.last?.hasPrefix("playing John 3:2 ") == true }
        #expect(try terminal.highlightedLines().first?.hasPrefix(" 2 The same came to Jesus by night") == true)

        terminal.send("Space")
        _ = try terminal.waitFor { $0.last?.hasPrefix("paused  John 3:2 ") == true }
        let recording = try sound.record()
        usleep(1_000_000)
        let whilePaused = recording.stop()
        #expect(TestSound.rms(whilePaused[...]) < 50, "sound while paused")
        terminal.send("Space")
        _ = try terminal.waitFor { $0.last?.hasPrefix("playing John 3:2 ") == true }
        let playing = try sound.record()
        usleep(1_000_000)
        #expect(TestSound.rms(playing.stop()[...]) > 500, "silence while playing")

        terminal.send("q")
        let after = try terminal.waitFor { $0.contains { $0.hasPrefix("EXIT=") } }
        #expect(after.contains("stopped; 'manna listen' goes on from John 3:2"))
        #expect(after.contains("EXIT=0"))
        #expect(!after.contains { $0.contains("John 3 (KJV)") }, "the alternate screen is left")
    }

    @Test(.needs(.tmux)) func aKilledPlayerLeavesTheTerminalAsItWas() throws {
        let sound = try TestSound()
        let home = try TemporaryHome(environment: sound.environment)
        let terminal = try TestTerminal(columns: 120, rows: 12, environment: home.environment,
                                        command: [Manna.binary, "listen", "John", "3"])
        _ = try terminal.waitFor { $0.last?.hasPrefix("playing John 3:1") == true }
        let player = spawn("/usr/bin/pgrep", ["-f", "manna-play"]).stdout
        for pid in player.split(separator: "\n") {
            // Only this test's player: its environment names this sound server.
            let environment = (try? String(contentsOfFile: "/proc/\(pid)/environ", encoding: .utf8)) ?? ""
            if environment.contains(sound.server) { kill(pid_t(pid)!, SIGKILL) }
        }
        let after = try terminal.waitFor { $0.contains { $0.hasPrefix("EXIT=") } }
        #expect(after.contains("EXIT=69"))
        #expect(after.contains { $0.hasPrefix("manna: the player stopped (killed by signal 9); 'manna listen' goes on from John 3:1") })
        #expect(try terminal.run(["stty", "-a"]).contains(" icanon "), "the terminal is back in canonical mode")
    }
}

/// A terminal for a test: a tmux session of its own (its own server socket), running one
/// command and then printing its exit status, read with `capture-pane`.
final class TestTerminal {
    private let scratch: Scratch
    private var socket: String { scratch.path + "/tmux" }
    private let tmux: String

    init(columns: Int, rows: Int, environment: [String: String], command: [String]) throws {
        try Prerequisite.tmux.require()
        scratch = try Scratch("terminal")
        tmux = try #require(TestEnvironment.path(of: "tmux"))
        let assignments = environment.map { "\($0.key)=\(TestTerminal.quoted($0.value))" }.joined(separator: " ")
        let line = "env -i TERM=xterm-256color \(assignments) " + command.map(TestTerminal.quoted).joined(separator: " ")
            + "; echo EXIT=$?; exec sleep 600"
        let start = spawn(tmux, ["-S", socket, "-f", "/dev/null", "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", "sh", "-c", line])
        guard start.status == 0 else { throw TestBusError("tmux did not start: \(start.stderr)") }
    }

    deinit {
        _ = spawn(tmux, ["-S", socket, "kill-server"])
    }

    static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// The screen's lines, trailing spaces trimmed.
    func lines() -> [String] {
        let run = spawn(tmux, ["-S", socket, "capture-pane", "-p"])
        var lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map { String($0.reversed().drop { $0 == " " }.reversed()) }
        while lines.last == "" { lines.removeLast() }
        return lines
    }

    /// The lines in reverse video.
    func highlightedLines() throws -> [String] {
        let run = spawn(tmux, ["-S", socket, "capture-pane", "-p", "-e"])
        var highlighted: [String] = []
        var inReverse = false
        for line in run.stdout.split(separator: "\n", omittingEmptySubsequences: false) {
            var plain = ""
            var index = line.startIndex
            var reverseHere = inReverse
            while index < line.endIndex {
                if line[index] == "\u{1B}", let end = line[index...].firstIndex(where: { $0.isLetter }) {
                    let codes = line[line.index(index, offsetBy: 2)..<end].split(separator: ";")
                    if codes.contains("7") { inReverse = true; reverseHere = true }
                    if codes.contains("27") || codes.contains("0") || codes.isEmpty { inReverse = false }
                    index = line.index(after: end)
                    continue
                }
                plain.append(line[index])
                index = line.index(after: index)
            }
            if reverseHere { highlighted.append(plain) }
        }
        return highlighted
    }

    /// Waits (at most 10 s) until the screen satisfies `condition`, and returns it.
    func waitFor(_ condition: ([String]) -> Bool) throws -> [String] {
        for _ in 0..<1000 {
            let screen = lines()
            if condition(screen) { return screen }
            usleep(10_000)
        }
        throw TestBusError("the terminal never showed what was awaited; it shows:\n" + lines().joined(separator: "\n"))
    }

    /// Presses a key (tmux's names: "n", "Space", "Right", "C-c").
    func send(_ key: String) {
        _ = spawn(tmux, ["-S", socket, "send-keys", key])
    }

    /// Runs `command` in the pane's terminal (after the listening ended) and returns its output.
    func run(_ command: [String]) throws -> String {
        let tty = spawn(tmux, ["-S", socket, "display-message", "-p", "#{pane_tty}"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        return spawn("/bin/sh", ["-c", command.joined(separator: " ") + " < " + tty]).stdout
    }
}

/// Runs a program with posix_spawn (MannaKit's Subprocess), not Foundation's Process: tmux's
/// server and pulseaudio outlive or close what Foundation watches to learn a child exited, and
/// then it waits for ever. At most 20 s.
func spawn(_ path: String, _ arguments: [String], environment: [String: String] = ["PATH": "/usr/bin:/bin"]) -> Run {
    var values: Environment = [:]
    for (name, value) in environment { values[name] = value }
    guard let outcome = try? Subprocess.run(path, arguments: arguments, environment: values, input: "", timeoutMilliseconds: 20_000),
          case .exited(let status, let stdout, let stderr) = outcome else {
        return Run(status: -1, stdout: "", stderr: "\(path) did not finish")
    }
    return Run(status: status, stdout: stdout, stderr: stderr)
}

/// `manna audio`: recordings registered by folder, and `listen` choosing one.
@Suite(.needs(.soundServer)) struct AudioRegistryTests {
    /// Stopped in a recording, listening goes on in it; with the recording gone, in speech.
    @Test func aRecordingIsResumedWhereItStopped() throws {
        let sound = try TestSound()
        let home = try TemporaryHome(environment: sound.environment)
        let recording = home.path + "/psalm23.flac"
        #expect(home.run("listen", "Ps", "23", "--export", recording).status == 0)
        let (stopped, heard) = try ListenTests().listen(["listen", "--audio", recording, "--from", "5", "--json"], home: home, verses: 1)
        stopped.signal(SIGINT)
        stopped.wait(timeout: 60)
        #expect(heard.last?["id"] as? Int == 19_023_005)
        let (resumed, events) = try ListenTests().listen(["listen", "--json"], home: home, verses: 1)
        resumed.signal(SIGKILL)
        resumed.wait(timeout: 60)
        #expect(events.first?["source"] as? String == "recording")
        #expect(events.first?["audio"] as? String == recording)
        #expect(events.last?["id"] as? Int == 19_023_005)

        try FileManager.default.removeItem(atPath: recording)
        let (spoken, again) = try ListenTests().listen(["listen", "--json"], home: home, verses: 1)
        spoken.signal(SIGKILL)
        spoken.wait(timeout: 60)
        #expect(again.first?["source"] as? String == "speech")
        #expect(again.last?["id"] as? Int == 19_023_005)
    }

    @Test func aRegisteredRecordingIsPlayedWhenItCoversThePassageAndSaysSo() throws {
        let sound = try TestSound()
        let home = try TemporaryHome(environment: sound.environment)
        let folder = home.path + "/readings"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        #expect(home.run("listen", "Ps", "23", "--export", folder + "/psalm23.flac").status == 0)
        try "{}".write(toFile: folder + "/broken.cues.json", atomically: true, encoding: .utf8)

        let added = home.run("audio", "add", folder)
        #expect(added.status == 65)
        #expect(added.stdout == "left out \(folder)/broken.cues.json: not a cue sheet: \"format\" must be \"manna-cues\"\n"
            + "added \(folder)/psalm23.flac: Psalm 23 (KJV), 6 verses, read by en-gb\n")
        #expect(added.stderr == "manna: 1 of 2 left out; 'manna cues check FILE' lists a sheet's every defect\n")
        #expect(home.run("audio", "list").stdout == "Psalm 23 (KJV)  read by en-gb  \(folder)/psalm23.flac\n")

        // Covered: the recording, said so. Not covered, or another translation: speech.
        let recorded = home.run("listen", "Ps", "23:6", "--json")
        #expect(recorded.status == 0, "\(recorded.stderr)")
        #expect(recorded.stderr == "playing the recording \(folder)/psalm23.flac, read by en-gb ('manna audio list')\n")
        #expect(recorded.stdout.hasPrefix(#"{"event":"started","passage":"Psalm 23:6","translation":"KJV","voice":"en-gb","source":"recording","audio":""#))
        let spoken = home.run("listen", "Ps", "23:6", "--translation", "WEB", "--rate", "450", "--json")
        #expect(spoken.stdout.contains(#""source":"speech""#))
        #expect(spoken.stderr == "")

        #expect(home.run("audio", "remove", folder + "/psalm23.flac").status == 0)
        #expect(home.run("audio", "remove", folder + "/psalm23.flac").status == 65)
        #expect(home.run("audio", "list").stdout == "no recordings: add a folder of them with 'manna audio add DIR'\n")
    }
}

/// The player (manna-play) through its own protocol, where manna's defaults are too slow to test.
@Suite(.needs(.soundServer)) struct PlayerTests {
    /// A pause that lasts closes the stream (the sound device is not held); resuming opens a
    /// new one at the same place, the clock going on as before.
    @Test func aLongPauseLetsGoOfTheSoundDevice() throws {
        let sound = try TestSound()
        let player = try RunningProgram((Manna.binary as NSString).deletingLastPathComponent + "/manna-play", [],
                                        environment: sound.environment.merging(["HOME": sound.directory]) { $1 }, input: .socket)
        var request = ListenRequest(verses: [.init(id: 43_011_035, text: "Jesus wept."), .init(id: 43_011_036, text: "Then said the Jews, Behold how he loved him!")],
                                    voice: "en-gb", rate: 175, start: 0)
        request.releaseAfter = 1
        func send(_ line: String) { player.write(line + "\n") }
        var text = ""
        func waitFor(_ event: String) {
            while !text.contains("\"event\":\"\(event)\""), let line = player.readLine(timeout: 60) { text += line + "\n" }
        }
        let pactl = try #require(TestEnvironment.path(of: "pactl"))
        func streams() -> Int { spawn(pactl, ["list", "sink-inputs", "short"], environment: sound.environment).stdout.split(separator: "\n").count }

        send(request.json.text)
        waitFor("verse")
        send("pause")
        waitFor("paused")
        #expect(streams() == 1, "a short pause keeps the stream")
        usleep(1_600_000)
        #expect(streams() == 0, "a long pause lets it go")
        send("resume")
        waitFor("resumed")
        #expect(streams() == 1)
        waitFor("ended")
        #expect(player.wait(timeout: 60) == 0)
        let events = text.split(separator: "\n").compactMap { try? PlayerEvent(line: String($0)) }
        // Verse 36 starts where it always does on the listening clock: nothing heard twice or lost.
        #expect(events.contains { if case .verse(1, let t) = $0 { abs(t - ListenTests.verse36Start) < 0.002 } else { false } }, "\(events)")
    }
}
