// manna audio add DIR | list | remove FILE: the recorded readings `manna listen` plays when one
// covers the passage asked for.
#if canImport(Glibc)
import Glibc
#endif
import MannaKit

enum AudioCommand {
    static let spec = CommandSpec(
        name: "audio",
        usage: "manna audio add DIR | list | remove FILE",
        abstract: "Register recorded readings (each with its FILE.cues.json) for 'manna listen' to play",
        subcommands: Subcommand.specs,
        run: run)

    enum Subcommand: String, MannaApp.Subcommand {
        case add, list, remove

        var options: [any CommandOption] { [] }
        var operand: Operand? {
            switch self {
            case .add: .directory
            case .list: nil
            case .remove: .file
            }
        }
    }

    static func run(_ arguments: ParsedArguments, _ context: Context) throws {
        switch (arguments.subcommand(Subcommand.self), arguments.positionals.count) {
        case (.add, 2): try add(arguments.positionals[1], context)
        case (.list, 1): try list(context)
        case (.remove, 2): try remove(arguments.positionals[1], context)
        default:
            throw spec.subcommandFailure(arguments.positionals.first, usage: "audio needs one of: add DIR, list, remove FILE; see 'manna audio --help'")
        }
    }

    /// Registers every recording in `folder` that has a sound cue sheet beside it; says why
    /// of each it leaves out (and then exits 65).
    static func add(_ folder: String, _ context: Context) throws {
        guard Files.isDirectory(folder) else { throw Failure.data("\(folder) is not a folder") }
        let directory = UserPath.absolute(folder)
        let sheets = Files.list(directory).filter { $0.hasSuffix(".cues.json") }.sorted()
        guard !sheets.isEmpty else {
            throw Failure.data("\(folder) has no cue sheets (FILE.cues.json beside each recording): make them with 'manna cues import'")
        }
        let database = try context.openTextDatabase()
        let journal = try context.journal()
        var skipped = 0
        for name in sheets {
            let path = directory + "/" + name
            do {
                let sheet = try CueSheetFile.read(path)
                let audio = directory + "/" + sheet.audio
                guard Files.isRegularFile(audio) else { throw Failure.data("its audio \(sheet.audio) is not beside it") }
                let translation = try database.translation(code: sheet.translation)
                let verses = try database.passage(try Reference(parsing: sheet.passage), in: translation).filter { $0.text != nil }.map(\.id)
                if let defect = sheet.defects(passage: verses, audio: nil).first { throw Failure.data(defect) }
                try RecordingStore(journal).register(RegisteredRecording(audio: audio, cues: path, passage: sheet.passage, translation: sheet.translation,
                                                         reader: sheet.voice, addedAt: context.clock.now()))
                context.stdout.line("added \(audio): \(sheet.passage) (\(sheet.translation)), \(sheet.cues.count) verses, read by \(sheet.voice)")
            } catch let error as UserError {
                skipped += 1
                context.stdout.line("left out " + (error.message.hasPrefix(path) ? error.message : "\(path): \(error.message)"))
            }
        }
        if skipped > 0 {
            throw Failure.data("\(skipped) of \(sheets.count) left out; 'manna cues check FILE' lists a sheet's every defect")
        }
    }

    static func list(_ context: Context) throws {
        let recordings = try context.existingJournal().map { try RecordingStore($0).all() } ?? []
        guard !recordings.isEmpty else {
            context.stdout.line("no recordings: add a folder of them with 'manna audio add DIR'")
            return
        }
        for recording in recordings {
            context.stdout.line("\(recording.passage) (\(recording.translation))  read by \(recording.reader)  \(recording.audio)")
        }
    }

    static func remove(_ file: String, _ context: Context) throws {
        let audio = UserPath.absolute(file)
        guard let journal = try context.existingJournal(), try RecordingStore(journal).unregister(audio: audio) else {
            throw Failure.data("no recording \(audio) is registered; 'manna audio list' shows them")
        }
        context.stdout.line("removed \(audio) (the file itself is left alone)")
    }
}
