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
        options: [Options.promptFormat, Options.width, Options.now],
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: Context) throws {
        guard arguments.positionals.isEmpty else { throw Failure.usage("prompt takes no arguments; see 'manna prompt --help'") }
        // A prompt prints on every command line: what the config file ignores is for `doctor`
        // and the other commands to say.
        context.saysIgnoredConfig = false
        let day = try shownDay(arguments, context)
        var format = PromptFormat.standard
        if let given = try arguments.value(Options.promptFormat, context) {
            format = PromptFormat(format: given)
        } else if let configured = context.config().promptFormat {
            format = PromptFormat(format: configured)
        }
        if let columns = try arguments.value(Options.width, context) {
            format = PromptFormat(format: format.format, width: min(format.width ?? columns, columns))
        }
        do { context.stdout.line(try format.render(day)) } catch { throw Failure.usage(error.message) }
    }

    /// The day to show now. The fast path reads only the timeline file: no database, no
    /// config beyond the zone. When the file is missing, stale, or for another zone, the
    /// answer is worked out from the databases (correct beats fast).
    static func shownDay(_ arguments: ParsedArguments, _ context: Context) throws -> ShownDay {
        let zone = try context.zone()
        return try shownDay(at: try context.now(arguments), in: zone, context)
    }

    static func shownDay(at now: Instant, in zone: Zone, _ context: Context) throws -> ShownDay {
        if let text = try? Files.readText(context.paths.timeline, followLinks: false), let day = ShownDay.fromTimeline(text, now: now, zone: zone.identifier) {
            return day
        }
        let database = try context.openTextDatabase()
        var inputs = try context.timelineInputs(database: database, zone: zone, now: now)
        inputs = TimelineInputs(zone: zone, translation: inputs.translation, notifyAt: inputs.notifyAt, days: 1, plans: inputs.plans,
                                daily: inputs.daily, prayerReminders: inputs.prayerReminders)
        return ShownDay(try Timeline.entries(now: now, inputs: inputs, database: database)[0])
    }

    /// The day's verse from the shipped list alone, for a panel when the journal cannot be read
    /// (bookmarks and the plan are in it): the verse, without what the journal adds.
    static func curatedDay(at now: Instant, in zone: Zone, _ context: Context) throws -> ShownDay {
        let database = try context.openTextDatabase()
        let translation = try (try? context.translation(nil, in: database)) ?? database.translation(code: "KJV")
        let inputs = TimelineInputs(zone: zone, translation: translation, notifyAt: nil, days: 1, plans: [], daily: .curated, prayerReminders: [])
        return ShownDay(try Timeline.entries(now: now, inputs: inputs, database: database)[0])
    }
}

enum WidgetCommand {
    static let spec = CommandSpec(
        name: "widget",
        usage: "manna widget --format waybar|i3blocks|polybar|plain [--follow]",
        abstract: "Print today's verse for a panel: waybar JSON, i3blocks, polybar or plain text",
        options: [Options.widgetFormat, Options.now, Options.follow],
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: Context) throws {
        guard arguments.positionals.isEmpty else { throw Failure.usage("widget takes no arguments; see 'manna widget --help'") }
        context.saysIgnoredConfig = false  // as for the prompt: a panel shows, doctor tells
        guard let kind = try arguments.value(Options.widgetFormat, context) else { throw Options.widgetFormatNeeded }
        guard arguments.has(Options.follow) else {
            return context.stdout.write(Widget.render(try PromptCommand.shownDay(arguments, context), as: kind))
        }
        guard !arguments.gave(Options.now) else { throw Failure.usage("--follow follows the clock: it takes no --now") }
        try follow(kind, arguments, context)
    }

    /// One process for the panel's whole session instead of one a minute: reads the timeline
    /// (as `manna widget` does), prints when what it shows changes, and sleeps to the next whole
    /// minute. Every zone's midnight is a whole minute, so the verse turns on the stroke of it.
    /// It follows the world as it changes under it: the zone is read again at every wake (a
    /// new /etc/localtime, or new rules in its file); what cannot be read is shown as well as it
    /// can be (the shipped verse without the journal, else "Manna" and why) and tried again at the
    /// next wake, never an exit; and it ends as soon as the panel stops reading, asleep or not.
    static func follow(_ kind: Widget.Kind, _ arguments: ParsedArguments, _ context: Context) throws {
        // A panel stops it with SIGTERM or SIGHUP. A parent may have blocked them (the mask is
        // inherited across exec), and a process meant to run for days must still end on them.
        var stopping = sigset_t()
        sigemptyset(&stopping)
        for signal in [SIGTERM, SIGHUP, SIGINT] { sigaddset(&stopping, signal) }
        sigprocmask(SIG_UNBLOCK, &stopping, nil)
        var zone = try context.zone()
        var rules = zone.rulesStamp()
        var shown = "", said = ""
        while true {
            if let now = try? Zone.system(environment: context.environment) { zone = now }
            if zone.rulesStamp() != rules {
                rules = zone.rulesStamp()
                Zone.forgetLoadedRules()
            }
            let now = context.clock.now()
            var text: String
            do {
                text = Widget.render(try PromptCommand.shownDay(at: now, in: zone, context), as: kind)
                said = ""
            } catch {
                // Said once on stderr (the panel's log), shown until it is put right.
                let problem = Manna.report(error).message
                if problem != said { context.stderr.line("manna: " + problem.singleLine) }
                context.stderr.flush()
                said = problem
                let day = try? PromptCommand.curatedDay(at: now, in: zone, context)
                text = day.map { Widget.render($0, as: kind) } ?? Widget.render(unavailable: problem, as: kind)
            }
            // Persistent i3blocks reads each line as a new full_text: the short text is left out.
            if kind == .i3blocks { text = String(text.prefix { $0 != "\n" }) + "\n" }
            if text != shown {
                context.stdout.write(text)
                context.stdout.flush()
                if context.stdout.failure != nil { return }
                shown = text
            }
            let seconds = 60 - (context.clock.now() % 60 + 60) % 60
            guard context.stdout.readerStays(milliseconds: seconds * 1000) else { return }
        }
    }
}
