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
        options: [
            Options.translation, Options.voice, Options.rate, Options.startVerse, Options.continueReading, Options.repeatPassage,
            Options.sleep, Options.export, Options.audio, Options.cues,
            Options.json.help("one JSON line per event: {\"event\":\"verse\",\"id\",\"reference\",\"t\"} and started, paused, resumed, rate, ended, stopped"),
            Options.voices,
        ],
        operand: .reference,
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: Context) throws {
        if arguments.has(Options.voices) {
            guard arguments.positionals.isEmpty else { throw Failure.usage("--voices takes no passage") }
            return try listVoices(json: arguments.has(Options.json), context)
        }
        // Bad options are refused before anything is opened.
        _ = try arguments.value(Options.rate, context)
        _ = try Listening.Controls(arguments, context)
        // A listening already playing stops (keeping its place) before this one reads where to resume.
        if !arguments.gave(Options.export) { try ListenLock.takeOver(context) }
        var resume: ListeningPosition?
        let reference: Reference
        var typedIn: Translation?
        if arguments.positionals.isEmpty, let audio = try arguments.value(Options.audio, context) {
            // A recording with no passage given: the passage its cue sheet is for.
            reference = try Reference(parsing: try CueSheetFile.read(arguments.value(Options.cues, context) ?? CueSheet.path(forAudio: audio)).passage)
        } else if arguments.positionals.isEmpty {
            guard let position = try context.existingJournal().flatMap({ try ListeningStore($0).position() }) else {
                throw Failure.usage("nothing to resume: give a passage, like 'manna listen John 3'")
            }
            resume = position
            reference = try Reference(parsing: position.passage)
        } else {
            (reference, typedIn) = try PassageInput.typed(arguments.positionals, command: "listen", option: arguments.value(Options.translation, context),
                                                          in: context.openTextDatabase(), context)
        }
        // A recording is in the translation its cue sheet names, unless --translation says otherwise.
        try Listening.speak(reference, in: arguments.gave(Options.audio) ? nil : typedIn, resume: resume, arguments, context)
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
