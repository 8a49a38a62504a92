// manna timeline [--now T] [--print]: write (or print) the timeline widgets and prompts read.
#if canImport(Glibc)
import Glibc
#endif
import MannaKit

enum TimelineCommand {
    static let spec = CommandSpec(
        name: "timeline",
        usage: "manna timeline [--now ISO8601] [--print]",
        abstract: "Write the timeline file (or print it) that prompts and widgets read",
        valueOptions: ["now": "act as if it were this moment, like 2026-03-08T07:00 (local) or 2026-03-08T07:00:00-05:00"],
        flags: ["print": "print the timeline instead of writing it"],
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: Context) throws {
        guard arguments.positionals.isEmpty else { throw Failure.usage("timeline takes no arguments; see 'manna timeline --help'") }
        let zone = try context.zone()
        let now = try context.now(arguments.value("now"), zone: zone)
        let entries = try entries(now: now, zone: zone, context)
        if arguments.has("print") {
            context.stdout.line(Timeline.document(entries: entries, zone: zone, generatedAt: zone.local(now)).prettyText)
            return
        }
        try write(entries, zone: zone, now: now, context)
    }

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
