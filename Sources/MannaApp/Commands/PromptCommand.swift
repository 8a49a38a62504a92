// manna prompt [--format FMT] and manna widget --format waybar|i3blocks|polybar|plain:
// today's verse in one line, from the timeline file (no database) when it can vouch for now.
#if canImport(Glibc)
import Glibc
#endif
import MannaKit

enum PromptCommand {
    static let spec = CommandSpec(
        name: "prompt",
        usage: "manna prompt [--format FMT] [--width N]",
        abstract: "Print today's verse as one line for a shell prompt",
        valueOptions: [
            "format": "tokens {reference} {translation} {text} {text:N} {plan} {date} (default: '{reference}: {text}' in 80 columns)",
            "width": "cut the line to N columns, so that it never wraps (the snippets from 'manna init' pass the terminal's)",
            "now": "act as if it were this moment (for testing)",
        ],
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: Context) throws {
        guard arguments.positionals.isEmpty else { throw Failure.usage("prompt takes no arguments; see 'manna prompt --help'") }
        let day = try shownDay(arguments, context)
        var format = PromptFormat.standard
        if let given = arguments.value("format") {
            format = PromptFormat(format: given)
        } else if let configured = context.configOrDefaults().promptFormat {
            format = PromptFormat(format: configured)
        }
        if let given = arguments.value("width") {
            guard let columns = Int(given), columns >= 1 else { throw Failure.usage("--width must be a number of columns, like 80, not '\(given)'") }
            format = PromptFormat(format: format.format, width: min(format.width ?? columns, columns))
        }
        do { context.stdout.line(try format.render(day)) } catch { throw Failure.usage(error.message) }
    }

    /// The day to show now. The fast path reads only the timeline file: no database, no
    /// config beyond the zone. When the file is missing, stale, or for another zone, the
    /// answer is worked out from the databases (correct beats fast).
    static func shownDay(_ arguments: ParsedArguments, _ context: Context) throws -> ShownDay {
        let zone = try context.zone()
        let now = try context.now(arguments.value("now"), zone: zone)
        if let text = try? Files.readText(context.paths.timeline), let day = ShownDay.fromTimeline(text, now: now, zone: zone.identifier) {
            return day
        }
        // A bad line in the config never blanks a prompt or a panel: the defaults stand in
        // (`doctor` and the other commands say what is wrong).
        context.configOrDefaults()
        let database = try context.openTextDatabase()
        var inputs = try context.timelineInputs(database: database, zone: zone, now: now)
        inputs = TimelineInputs(zone: zone, translation: inputs.translation, notifyAt: inputs.notifyAt, days: 1, plan: inputs.plan,
                                daily: inputs.daily, prayerReminders: inputs.prayerReminders)
        return ShownDay(try Timeline.entries(now: now, inputs: inputs, database: database)[0])
    }
}

enum WidgetCommand {
    static let spec = CommandSpec(
        name: "widget",
        usage: "manna widget --format waybar|i3blocks|polybar|plain",
        abstract: "Print today's verse for a panel: waybar JSON, i3blocks, polybar or plain text",
        valueOptions: ["format": "waybar, i3blocks, polybar or plain", "now": "act as if it were this moment (for testing)"],
        optionValues: ["format": .words(["waybar", "i3blocks", "polybar", "plain"])],
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: Context) throws {
        guard arguments.positionals.isEmpty else { throw Failure.usage("widget takes no arguments; see 'manna widget --help'") }
        guard let format = arguments.value("format"), let kind = Widget.Kind(rawValue: format) else {
            throw Failure.usage("widget needs --format waybar, i3blocks, polybar or plain")
        }
        context.stdout.write(Widget.render(try PromptCommand.shownDay(arguments, context), as: kind))
    }
}
