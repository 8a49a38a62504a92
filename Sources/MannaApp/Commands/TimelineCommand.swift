// manna timeline [--now T] [--print]: write (or print) the timeline widgets and prompts read.
import MannaKit

enum TimelineCommand {
    static let spec = CommandSpec(
        name: "timeline",
        usage: "manna timeline [--now ISO8601] [--print]",
        abstract: "Write the timeline file (or print it) that prompts and widgets read",
        options: [Options.now, Options.printing],
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: Context) throws {
        guard arguments.positionals.isEmpty else { throw Failure.usage("timeline takes no arguments; see 'manna timeline --help'") }
        let zone = try context.zone()
        let now = try context.now(arguments)
        let entries = try TimelineRefresh.entries(now: now, zone: zone, context)
        if arguments.has(Options.printing) {
            context.stdout.line(Timeline.document(entries: entries, zone: zone, generatedAt: zone.local(now)).prettyText)
            return
        }
        try TimelineRefresh.write(entries, zone: zone, now: now, context)
    }
}
