// manna listen [REF...] [--translation T] [--voice V] [--rate WPM] [--from VERSE] [--continue | --repeat] [--sleep TIME]
//              [--export FILE] [--json]
// manna listen --voices
// Reads a passage aloud through `manna-play`, following along on the terminal (or one line per
// verse elsewhere), keeping the place in the journal; or renders it to a file with a cue sheet.
#if canImport(Glibc)
import Glibc
#endif
import MannaKit

enum ListenCommand {
    static let spec = CommandSpec(
        name: "listen",
        usage: "manna listen [REF...] [--translation T] [--voice V] [--rate WPM] [--from VERSE] [--continue | --repeat] [--sleep TIME|chapter] [--export FILE | --audio FILE [--cues CUES]] [--json] | --voices",
        abstract: "Read a passage aloud, the verse being heard highlighted; with no passage, go on where listening stopped",
        valueOptions: [
            TranslationOption.name: TranslationOption.help,
            "voice": "an espeak-ng voice, like en-us (see --voices; default: the translation's language)",
            "rate": "words a minute, 80 to 450 (default 175)",
            "from": "start at this verse of the passage: 16, 3:16 or John 3:16",
            "export": "write the reading to FILE.wav, .flac, .ogg or .opus, and its cue sheet to FILE.cues.json",
            "audio": "play this recording (FLAC, Ogg, Opus, WAV, MP3) instead of speaking, following its cue sheet",
            "cues": "--audio's cue sheet (default: AUDIO.cues.json beside it; see docs/cues.md)",
            "sleep": "stop by itself, fading out, after this much listening (90s, 20m, 1h; the s key adds as much again) or at the end of the chapter ('chapter')",
        ],
        flags: [
            "json": "one JSON line per event: {\"event\":\"verse\",\"id\",\"reference\",\"t\"} and started, paused, resumed, rate, ended, stopped",
            "voices": "list the installed voices: espeak-ng's, and natural voices (tools/get-voice)",
            "continue": "after the passage, go on reading the next chapters and books",
            "repeat": "after the passage, start it again (until stopped, or --sleep)",
        ],
        operands: ["": .reference],
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: Context) throws {
        if arguments.has("voices") {
            guard arguments.positionals.isEmpty else { throw Failure.usage("--voices takes no passage") }
            return try listVoices(json: arguments.has("json"), context)
        }
        // Bad options are refused before anything is opened.
        _ = try arguments.value("rate").map(Listening.parseRate)
        _ = try Listening.Controls(arguments)
        // A listening already playing stops (keeping its place) before this one reads where to resume.
        if arguments.value("export") == nil { try ListenLock.takeOver(context) }
        var resume: ListeningPosition?
        let reference: Reference
        if arguments.positionals.isEmpty, let audio = arguments.value("audio") {
            // A recording with no passage given: the passage its cue sheet is for.
            reference = try Reference(parsing: try CueSheetFile.read(arguments.value("cues") ?? CueSheet.path(forAudio: audio)).passage)
        } else if arguments.positionals.isEmpty {
            guard let position = try context.existingJournal()?.listeningPosition() else {
                throw Failure.usage("nothing to resume: give a passage, like 'manna listen John 3'")
            }
            resume = position
            reference = try Reference(parsing: position.passage)
        } else {
            reference = try PassageInput.parseReference(arguments.positionals, command: "listen")
        }
        try Listening.speak(reference, resume: resume, arguments, context)
    }

    static func listVoices(json: Bool, _ context: Context) throws {
        for voice in try PlayerProcess.voices(context) {
            if json {
                context.json(voice.json)
            } else {
                // espeak-ng's as they always were; a natural voice says so, and by which engine.
                let natural = voice.engine == "espeak-ng" ? "" : " (natural voice: \(voice.engine))"
                context.stdout.line(voice.language.padding(to: 20) + voice.name + natural)
            }
        }
    }
}
