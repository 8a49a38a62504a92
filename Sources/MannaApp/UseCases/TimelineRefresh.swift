// The timeline and the prompt lines made anew: by `manna timeline`, by each tick, and by the
// commands that change what they show (install, plan start and stop).
#if canImport(Glibc)
import Glibc
#endif
import MannaKit

enum TimelineRefresh {
    /// Writes the timeline as of `now` in the configured zone.
    static func refresh(now: Instant, _ context: Context) throws {
        let zone = try context.zone()
        try write(try entries(now: now, zone: zone, context), zone: zone, now: now, context)
    }

    static func entries(now: Instant, zone: Zone, _ context: Context) throws -> [TimelineEntry] {
        let database = try context.openTextDatabase()
        let inputs = try context.timelineInputs(database: database, zone: zone, now: now)
        return try Timeline.entries(now: now, inputs: inputs, database: database)
    }

    /// Writes the timeline and the prompt lines the shell snippets read (in the configured
    /// `prompt_format`). A format with an unknown token writes no prompt lines: the snippets
    /// then run `manna prompt`, which says what is wrong.
    static func write(_ entries: [TimelineEntry], zone: Zone, now: Instant, _ context: Context) throws {
        do {
            try Timeline.write(entries: entries, zone: zone, now: now, to: context.paths.timeline)
        } catch {
            throw Failure.io("cannot write the timeline \(error.message)")
        }
        let format = context.config().promptFormat.map { PromptFormat(format: $0, width: nil) } ?? .standard
        do {
            try PromptLines.write(try PromptLines.text(entries: entries, format: format), to: context.paths.promptLines)
        } catch let error as FileError {
            throw Failure.io("cannot write the prompt lines \(error.message)")
        } catch {
            unlink(context.paths.promptLines)
        }
    }
}
