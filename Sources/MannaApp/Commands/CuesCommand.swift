// manna cues check FILE: checks a cue sheet against its audio and its passage, one line per defect.
import MannaKit

enum CuesCommand {
    static let spec = CommandSpec(
        name: "cues",
        usage: "manna cues check FILE.cues.json",
        abstract: "Check a cue sheet (docs/cues.md): its verses, their times, and the audio beside it",
        run: run)

    /// The largest cue sheet read: a whole Bible's cues take about 3 MB.
    static let sizeLimit = 16 << 20

    static func run(_ arguments: ParsedArguments, _ context: Context) throws {
        guard arguments.positionals.count == 2, arguments.positionals[0] == "check" else {
            throw Failure.usage("cues needs: check FILE.cues.json; see 'manna cues --help'")
        }
        let path = arguments.positionals[1]
        let sheet = try read(path)
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
                let decoded = try PlayerProcess.info(audioPath, context: context)
                audio = AudioFacts(duration: decoded, sha256: try SHA256.hexDigest(ofFile: audioPath))
            } catch let error as PlayerFailure where error.exitStatus == .dataError {
                defects.append(error.message)
            }
        }
        defects += sheet.defects(passage: passage, audio: audio)
        guard defects.isEmpty else {
            for defect in defects { context.stdout.line(path + ": " + defect) }
            throw Failure.data("\(path): \(defects.count) defect\(defects.count == 1 ? "" : "s")")
        }
        context.stdout.line("ok: \(path): \(sheet.passage) (\(sheet.translation)), \(sheet.cues.count) verses, "
            + "\(ListenCommand.clock(sheet.duration)) of \(sheet.audio)")
    }

    /// The cue sheet at `path`, or why it is none.
    static func read(_ path: String) throws -> CueSheet {
        let text: String
        do {
            guard let read = try Files.readText(path, limit: sizeLimit) else { throw Failure.data("\(path): no such file") }
            text = read
        } catch let error as FileError {
            throw Failure.data("\(path): \(error.reason)")
        }
        do {
            return try CueSheet(json: try JSON(parsing: text))
        } catch let error as JSON.ParseError {
            throw Failure.data("\(path): not a cue sheet: \(error.message)")
        } catch let error as CueSheetError {
            throw Failure.data("\(path): not a cue sheet: \(error.problem)")
        }
    }
}
