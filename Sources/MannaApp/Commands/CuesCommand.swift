// manna cues check FILE: checks a cue sheet against its audio and its passage, one line per defect.
// manna cues import --from FORMAT FILE --ref PASSAGE --audio AUDIO: converts timings people have.
import MannaKit

enum CuesCommand {
    static let spec = CommandSpec(
        name: "cues",
        usage: "manna cues check FILE.cues.json | import --from aeneas|audacity|webvtt FILE --ref PASSAGE --audio AUDIO [--reader NAME] [--translation T]",
        abstract: "Check a cue sheet (docs/cues.md) against its passage and audio, or make one from aeneas, Audacity or WebVTT timings",
        options: [
            Options.cueFormat, Options.passage, Options.audio.help("the recording; the cue sheet is written beside it as AUDIO.cues.json"),
            Options.reader, Options.translation,
        ],
        subcommands: Subcommand.specs,
        run: run)

    enum Subcommand: String, MannaApp.Subcommand {
        case check, `import`

        var options: [any CommandOption] {
            self == .check ? [] : [Options.cueFormat, Options.passage, Options.audio, Options.reader, Options.translation]
        }
        var operand: Operand? { .file }
    }

    static func run(_ arguments: ParsedArguments, _ context: Context) throws {
        switch (arguments.subcommand(Subcommand.self), arguments.positionals.count) {
        case (.check, 2): try check(arguments.positionals[1], context)
        case (.import, 2): try importTimings(arguments.positionals[1], arguments, context)
        default: throw Failure.usage("cues needs: check FILE.cues.json, or import --from FORMAT FILE --ref PASSAGE --audio AUDIO; see 'manna cues --help'")
        }
    }

    static func check(_ path: String, _ context: Context) throws {
        let sheet = try CueSheetFile.read(path)
        var defects: [String] = []

        // The passage: the verses of it that the translation has each need a cue.
        var passage: [VerseID]?
        do {
            let database = try context.openTextDatabase()
            let reference = try Reference(parsing: sheet.passage)
            let translation = try database.translation(code: sheet.translation)
            passage = try database.passage(reference, in: translation).filter { $0.text != nil }.map(\.id)
        } catch let error as UserError {
            defects.append("\"passage\" \(sheet.passage) in \"translation\" \(sheet.translation): \(error.message)")
        }

        // The audio, beside the sheet: decoded to its end and hashed.
        var audio: AudioFacts?
        let audioPath = Files.parent(of: path) + "/" + sheet.audio
        if !Files.exists(audioPath) {
            defects.append("the audio \(sheet.audio) is not beside the cue sheet")
        } else {
            do {
                // Checked as every reader checks (a FIFO would hang the decoder) before the player gets it.
                try Files.checkReadable(audioPath)
                let decoded = try PlayerProcess.info(audioPath, context: context)
                audio = AudioFacts(duration: decoded.duration, sha256: try SHA256.hexDigest(ofFile: audioPath))
            } catch let error as PlayerFailure where error.exitStatus == .dataError {
                defects.append(error.message)
            } catch let error as FileError {
                defects.append("the audio \(error.message)")
            }
        }
        defects += sheet.defects(passage: passage, audio: audio)
        guard defects.isEmpty else {
            for defect in defects { context.stdout.line(path + ": " + defect) }
            throw Failure.data("\(path): \(defects.count) defect\(defects.count == 1 ? "" : "s")")
        }
        context.stdout.line("ok: \(path): \(sheet.passage) (\(sheet.translation)), \(sheet.cues.count) verses, "
            + "\(Formatting.clock(sheet.duration)) of \(sheet.audio)")
    }

    /// Converts the timings in `path` into a cue sheet beside the recording. The sheet must
    /// pass `check` (every verse of the passage cued, in order, within the audio): if not,
    /// its defects are listed and nothing is written. An existing sheet is never replaced.
    static func importTimings(_ path: String, _ arguments: ParsedArguments, _ context: Context) throws {
        let formats = CueFormat.allCases.map(\.rawValue).joined(separator: ", ")
        guard let format = try arguments.value(Options.cueFormat, context) else { throw Failure.usage("cues import needs --from \(formats) (the timings' format)") }
        guard let passageText = try arguments.value(Options.passage, context) else { throw Failure.usage("cues import needs --ref PASSAGE: the passage the recording reads") }
        guard let audioPath = try arguments.value(Options.audio, context) else { throw Failure.usage("cues import needs --audio AUDIO: the recording the timings are for") }
        let sheetPath = CueSheet.path(forAudio: audioPath)
        guard !Files.exists(sheetPath) else { throw Failure.data("\(sheetPath) exists: move it aside to import again") }
        let text = try CueSheetFile.readText(path)
        let reference = try Reference(parsing: passageText)
        let database = try context.openTextDatabase()
        let translation = try context.translation(arguments.value(Options.translation, context), in: database)
        let verses = try database.passage(reference, in: translation).filter { $0.text != nil }.map(\.id)
        let cues: [CueSheet.Cue]
        do { cues = try CueImport.cues(from: text, format: format, verses: verses) } catch { throw Failure.data("\(path): \(error.problem)") }
        do { try Files.checkReadable(audioPath) } catch { throw Failure.data(error.message) }
        let decoded = try PlayerProcess.info(audioPath, context: context)
        let audio = AudioFacts(duration: decoded.duration, sha256: try SHA256.hexDigest(ofFile: audioPath))
        let sheet = CueSheet(passage: reference.description, translation: translation.code, voice: try arguments.value(Options.reader, context) ?? "recording",
                             audio: audioPath.split(separator: "/").last.map(String.init) ?? audioPath, sampleRate: decoded.sampleRate,
                             duration: decoded.duration, sha256: audio.sha256, cues: cues)
        let defects = sheet.defects(passage: verses, audio: audio)
        guard defects.isEmpty else {
            for defect in defects { context.stdout.line(path + ": " + defect) }
            throw Failure.data("\(path): \(defects.count) defect\(defects.count == 1 ? "" : "s"); no cue sheet written")
        }
        do { try Files.writeAtomically(sheet.json.prettyText + "\n", to: sheetPath) } catch { throw Failure.io("cannot write \(error.message)") }
        context.stdout.line("wrote \(sheetPath): \(sheet.passage) (\(sheet.translation)), \(cues.count) verses, \(Formatting.clock(sheet.duration))")
    }
}
