// manna pray add | list | show | edit | answered | reopen | delete | restore | today | prayed | snooze:
// the prayer list in the journal, with reminders at the times the user chose.
#if canImport(Glibc)
import Glibc
#endif
import MannaKit

enum PrayCommand {
    static let spec = CommandSpec(
        name: "pray",
        usage: """
            manna pray add TITLE [BODY] [--body TEXT] [--tag T]... [--remind SPEC]...
                   manna pray list [--answered | --deleted] [--tag T] [--json]
                   manna pray show ID [--json]
                   manna pray edit ID [--title T] [--body B] [--tag T]... [--no-tag] [--remind SPEC]... [--no-remind]
                   manna pray answered ID [--note TEXT] | manna pray reopen ID
                   manna pray delete ID | manna pray restore ID
                   manna pray today [--date YYYY-MM-DD] [--json]
                   manna pray prayed ID | manna pray snooze ID [--minutes N]
            """,
        abstract: "Keep a prayer list, with reminders at the times you choose",
        options: [
            Options.body, Options.tag, Options.prayerReminder, Options.title, Options.answer, Options.date, Options.minutes,
            Options.now.help(Options.now.help + " (when a change is made, or for show, what is still to come)"),
            Options.answered, Options.deleted.help("the deleted prayers (restore brings one back)"), Options.noTag, Options.noRemind, Options.json,
        ],
        subcommands: Subcommand.specs,
        run: run)

    enum Subcommand: String, MannaApp.Subcommand {
        case add, list, show, edit, answered, reopen, delete, restore, today, prayed, snooze

        /// Anything else is a usage error.
        var options: [any CommandOption] {
            switch self {
            case .add: [Options.body, Options.tag, Options.prayerReminder, Options.now]
            case .list: [Options.answered, Options.deleted, Options.tag, Options.json]
            case .show: [Options.json, Options.now]
            case .edit: [Options.title, Options.body, Options.tag, Options.noTag, Options.prayerReminder, Options.noRemind, Options.now]
            case .answered: [Options.answer, Options.now]
            case .reopen, .delete, .restore, .prayed: [Options.now]
            case .today: [Options.date, Options.json]
            case .snooze: [Options.minutes, Options.now]
            }
        }
        var operand: Operand? { self == .add || self == .list || self == .today ? nil : .prayer }
    }

    static func run(_ arguments: ParsedArguments, _ context: Context) throws {
        guard let subcommand = arguments.subcommand(Subcommand.self) else {
            let names = Subcommand.allCases.map(\.rawValue).joined(separator: ", ")
            throw spec.subcommandFailure(arguments.positionals.first, usage: tr("pray needs one of {names}; see 'manna pray --help'", ("names", names)))
        }
        let words = Array(arguments.positionals.dropFirst())
        if subcommand == .add {
            // A title, and a body as the second word (as note add's text is its last): a third
            // word is refused rather than run into the title.
            guard !words.isEmpty else { throw Failure.usage(tr("pray add needs a title: manna pray add \"For Anna's exams\"")) }
            guard words.count <= 2 else {
                throw Failure.usage(tr("pray add takes a title and, if you like, a body: quote each, like manna pray add \"For Anna\" \"her exams on Friday\""))
            }
            if words.count == 2 && arguments.gave(Options.body) { throw Failure.usage(tr("pray add takes the body once: as its second word or as --body")) }
            return try add(title: words[0], body: words.count == 2 ? words[1] : nil, arguments, context)
        }
        if subcommand == .list || subcommand == .today {
            guard words.isEmpty else { throw Failure.usage(tr("pray {subcommand} takes no arguments; see 'manna pray --help'", ("subcommand", subcommand.rawValue))) }
            return subcommand == .list ? try list(arguments, context) : try today(arguments, context)
        }
        guard words.count == 1 else { throw Failure.usage(tr("pray {subcommand} needs one prayer id, like manna pray {subcommand} k7m2", ("subcommand", subcommand.rawValue))) }
        // No journal yet: no prayer has this id, and looking does not make one.
        guard let journal = try context.existingJournal() else { throw PrayerError.notFound(id: words[0]) }
        let prayer = try find(words[0], in: journal)
        switch subcommand {
        case .show: try show(prayer, journal: journal, arguments, context)
        case .edit: try edit(prayer, journal: journal, arguments, context)
        case .answered: try answered(prayer, journal: journal, arguments, context)
        case .reopen: try reopen(prayer, journal: journal, arguments, context)
        case .delete, .restore: try delete(prayer, journal: journal, restore: subcommand == .restore, arguments, context)
        case .prayed: try prayed(prayer, journal: journal, arguments, context)
        default: try snooze(prayer, journal: journal, arguments, context)
        }
    }

    // MARK: Subcommands

    static func add(title text: String, body given: String?, _ arguments: ParsedArguments, _ context: Context) throws {
        let title = try Prayer.title(text)
        let tags = try tags(arguments, context)
        let now = try context.now(arguments)
        let reminders = try Prayer.reminders(arguments.values(Options.prayerReminder, context), now: now, zone: try context.zone())
        let body = try body(given ?? arguments.value(Options.body, context), context) ?? ""
        let journal = try context.journal()
        let prayer = try journal.addPrayer(title: title, body: body, tags: tags, reminders: reminders, at: now)
        context.stdout.line(tr("added {id}: {title}", ("id", prayer.shortID), ("title", prayer.title.singleLine)) + remindersSuffix(reminders.map(\.description)))
    }

    static func list(_ arguments: ParsedArguments, _ context: Context) throws {
        if arguments.has(Options.answered) && arguments.has(Options.deleted) {
            throw Failure.usage(tr("pray list takes --answered or --deleted, not both"))
        }
        let kind: PrayerListKind = arguments.has(Options.answered) ? .answered : arguments.has(Options.deleted) ? .deleted : .open
        let tag = try arguments.value(Options.tag, context)
        // No journal yet: no prayers, and listing them does not make one.
        let prayers = try context.existingJournal()?.prayers(kind, tag: tag) ?? []
        let zone = try context.zone()
        if arguments.has(Options.json) {
            context.json(.array(prayers.map { prayer in
                .object([
                    ("id", .string(prayer.shortID)),
                    ("uuid", .string(prayer.uuid)),
                    ("title", .string(prayer.title)),
                    ("tags", .array(prayer.tags.map(JSON.string))),
                    ("created_at", .string(zone.local(prayer.createdAt).iso8601)),
                    ("answered_at", prayer.answeredAt.map { .string(zone.local($0).iso8601) } ?? .null),
                    ("deleted_at", prayer.deletedAt.map { .string(zone.local($0).iso8601) } ?? .null),
                ])
            }))
            return
        }
        guard !prayers.isEmpty else {
            let none = kind == .open ? tr("no open prayers") : kind == .answered ? tr("no answered prayers") : tr("no deleted prayers")
            context.stdout.line(none + (tag.map { tr(" tagged #{tag}", ("tag", $0)) } ?? "") + (kind == .open ? tr("; add one with: manna pray add TITLE") : ""))
            return
        }
        let width = prayers.map(\.shortID.count).max() ?? 4
        for prayer in prayers {
            var line = prayer.shortID.padding(to: width + 1) + " "
            if let when = prayer.deletedAt ?? prayer.answeredAt { line += Messages.current.date(zone.local(when).date) + "  " }
            line += prayer.title.singleLine
            for tag in prayer.tags { line += "  #" + tag }
            context.stdout.line(line)
        }
    }

    static func show(_ prayer: Prayer, journal: Journal, _ arguments: ParsedArguments, _ context: Context) throws {
        let reminders = try journal.reminders(ofPrayer: prayer.uuid)
        let prayed = try journal.prayedLog(ofPrayer: prayer.uuid)
        let now = try context.now(arguments)
        let snoozed = try journal.nextSnooze(ofPrayer: prayer.uuid, after: now)
        let zone = try context.zone()
        func minute(_ instant: Instant) -> String {
            let local = zone.local(instant)
            return Messages.current.date(local.date) + " \(local.time)"
        }
        if arguments.has(Options.json) {
            func moment(_ instant: Instant?) -> JSON { instant.map { .string(zone.local($0).iso8601) } ?? .null }
            context.json(.object([
                ("id", .string(prayer.shortID)),
                ("uuid", .string(prayer.uuid)),
                ("title", .string(prayer.title)),
                ("body", .string(prayer.body)),
                ("tags", .array(prayer.tags.map(JSON.string))),
                ("reminders", .array(reminders.map { .string($0.text) })),
                ("created_at", moment(prayer.createdAt)),
                ("updated_at", moment(prayer.updatedAt)),
                ("answered_at", moment(prayer.answeredAt)),
                ("answer_note", .optional(prayer.answerNote)),
                ("deleted_at", moment(prayer.deletedAt)),
                ("prayed", .object([("count", .int(prayed.count)), ("last", moment(prayed.last))])),
                ("snoozed_until", moment(snoozed)),
            ]))
            return
        }
        let out = context.stdout
        out.line("\(prayer.shortID)  \(prayer.title.singleLine)")
        if !prayer.tags.isEmpty { out.line(tr("tags").padding(to: 11) + prayer.tags.joined(separator: ", ")) }
        if !reminders.isEmpty { out.line(tr("reminders").padding(to: 11) + reminders.map(\.text).joined(separator: "; ")) }
        out.line(tr("added").padding(to: 11) + minute(prayer.createdAt))
        switch (prayed.count, prayed.last) {
        case (0, _), (_, nil): out.line(tr("prayed").padding(to: 11) + tr("not yet"))
        case (1, let last?): out.line(tr("prayed").padding(to: 11) + tr("once, {when}", ("when", minute(last))))
        case (let count, let last?): out.line(tr("prayed").padding(to: 11) + trn("{count} time, last {when}", "{count} times, last {when}", count: count, ("when", minute(last))))
        }
        if let snoozed { out.line(tr("snoozed").padding(to: 11) + tr("until {when}", ("when", minute(snoozed)))) }
        if let answered = prayer.answeredAt {
            out.line(tr("answered").padding(to: 11) + minute(answered) + (prayer.answerNote.map { ": " + $0.singleLine } ?? ""))
        }
        if let deleted = prayer.deletedAt {
            out.line(tr("deleted").padding(to: 11) + minute(deleted) + tr(" (undo: manna pray restore {id})", ("id", prayer.shortID)))
        }
        if !prayer.body.isEmpty {
            out.line("")
            out.line(DesktopNotification.withoutControlCharacters(prayer.body, keepingNewlines: true))
        }
    }

    static func edit(_ prayer: Prayer, journal: Journal, _ arguments: ParsedArguments, _ context: Context) throws {
        try requireNotDeleted(prayer)
        let title = try arguments.value(Options.title, context)
        if arguments.has(Options.noTag) && arguments.gave(Options.tag) { throw Failure.usage("pray edit takes --tag or --no-tag, not both") }
        let tags: [String]? = arguments.has(Options.noTag) ? [] : arguments.gave(Options.tag) ? try tags(arguments, context) : nil
        let specs = try arguments.values(Options.prayerReminder, context)
        if arguments.has(Options.noRemind) && !specs.isEmpty { throw Failure.usage("pray edit takes --remind or --no-remind, not both") }
        let reminders: [ReminderSpec]? = arguments.has(Options.noRemind) ? []
            : specs.isEmpty ? nil : try Prayer.reminders(specs, now: try context.now(arguments), zone: try context.zone())
        let body = try body(arguments, context)
        guard title != nil || body != nil || tags != nil || reminders != nil else {
            throw Failure.usage(tr("pray edit needs something to change: --title, --body, --tag, --no-tag, --remind or --no-remind"))
        }
        let now = try context.now(arguments)
        try journal.updatePrayer(uuid: prayer.uuid, title: title, body: body, tags: tags, reminders: reminders, at: now)
        context.stdout.line(tr("edited {id}: {title}", ("id", prayer.shortID), ("title", (title ?? prayer.title).singleLine))
            + (reminders.map { remindersSuffix($0.map(\.description)) } ?? ""))
    }

    static func answered(_ prayer: Prayer, journal: Journal, _ arguments: ParsedArguments, _ context: Context) throws {
        try requireNotDeleted(prayer)
        let now = try context.now(arguments)
        try journal.markAnswered(uuid: prayer.uuid, note: try arguments.value(Options.answer, context), at: now)
        context.stdout.line(tr("answered {id}: {title}", ("id", prayer.shortID), ("title", prayer.title.singleLine)))
    }

    static func reopen(_ prayer: Prayer, journal: Journal, _ arguments: ParsedArguments, _ context: Context) throws {
        try requireNotDeleted(prayer)
        guard prayer.answeredAt != nil else {
            context.stdout.line(tr("{id} is open already: {title}", ("id", prayer.shortID), ("title", prayer.title.singleLine)))
            return
        }
        try journal.reopen(uuid: prayer.uuid, at: try context.now(arguments))
        context.stdout.line(tr("reopened {id}: {title}", ("id", prayer.shortID), ("title", prayer.title.singleLine)))
    }

    static func delete(_ prayer: Prayer, journal: Journal, restore: Bool, _ arguments: ParsedArguments, _ context: Context) throws {
        let title = prayer.title.singleLine
        guard (prayer.deletedAt == nil) == !restore else {
            context.stdout.line(restore ? tr("{id} is not deleted: {title}", ("id", prayer.shortID), ("title", title)) : tr("{id} is already deleted: {title}", ("id", prayer.shortID), ("title", title)))
            return
        }
        let now = try context.now(arguments)
        try journal.setDeleted(uuid: prayer.uuid, !restore, at: now)
        context.stdout.line(restore ? tr("restored {id}: {title}", ("id", prayer.shortID), ("title", title))
            : tr("deleted {id}: {title}", ("id", prayer.shortID), ("title", title)) + tr(" (undo: manna pray restore {id})", ("id", prayer.shortID)))
    }

    static func today(_ arguments: ParsedArguments, _ context: Context) throws {
        let date = try context.date(arguments)
        let (open, prayers) = try context.existingJournal()?.prayersForToday(date) ?? (0, [])
        if arguments.has(Options.json) {
            context.json(.object([
                ("date", .string(date.description)),
                ("open", .int(open)),
                ("prayers", .array(prayers.map { prayer in
                    .object([("id", .string(prayer.shortID)), ("title", .string(prayer.title)), ("first_line", .string(prayer.firstLine))])
                })),
            ]))
            return
        }
        guard !prayers.isEmpty else {
            context.stdout.line(tr("no open prayers") + tr("; add one with: manna pray add TITLE"))
            return
        }
        context.stdout.line(Messages.current.date(date) + ": " + trn("{shown} of {count} open prayer", "{shown} of {count} open prayers", count: open, ("shown", prayers.count)))
        let width = prayers.map(\.shortID.count).max() ?? 4
        for prayer in prayers {
            context.stdout.line(prayer.shortID.padding(to: width + 1) + " " + prayer.title.singleLine)
            let first = prayer.firstLine.singleLine
            if !first.isEmpty { context.stdout.line(String(repeating: " ", count: width + 2) + first) }
        }
    }

    static func prayed(_ prayer: Prayer, journal: Journal, _ arguments: ParsedArguments, _ context: Context) throws {
        try requireNotDeleted(prayer)
        let now = try context.now(arguments)
        try journal.recordPrayed(uuid: prayer.uuid, at: now)
        let count = try journal.prayedLog(ofPrayer: prayer.uuid).count
        context.stdout.line(tr("prayed {id}: {title}", ("id", prayer.shortID), ("title", prayer.title.singleLine)) + " (" + (count == 1 ? tr("once") : trn("{count} time", "{count} times", count: count)) + ")")
    }

    static func snooze(_ prayer: Prayer, journal: Journal, _ arguments: ParsedArguments, _ context: Context) throws {
        try requireNotDeleted(prayer)
        let minutes = try arguments.value(Options.minutes, context) ?? 10
        let now = try context.now(arguments)
        let due = now + minutes * 60
        try journal.addSnooze(prayerUUID: prayer.uuid, due: due, at: now)
        let local = try context.zone().local(due)
        context.stdout.line(tr("snoozed {id}: {title}, until {time}", ("id", prayer.shortID), ("title", prayer.title.singleLine), ("time", local.time.description)))
    }

    // MARK: Helpers

    static func find(_ id: String, in journal: Journal) throws -> Prayer {
        guard let found = try journal.prayer(id: id) else { throw PrayerError.notFound(id: id) }
        return found
    }

    static func requireNotDeleted(_ prayer: Prayer) throws {
        if prayer.deletedAt != nil { throw PrayerError.deleted(id: prayer.shortID) }
    }

    /// The tags given, each once.
    static func tags(_ arguments: ParsedArguments, _ context: Context) throws -> [String] {
        var tags: [String] = []
        for tag in try arguments.values(Options.tag, context) where !tags.contains(tag) { tags.append(tag) }
        return tags
    }

    /// `--body TEXT`, or with `--body -` all of stdin (so the text need not sit in the process
    /// list, where every user can read a command line); nil when not given.
    static func body(_ arguments: ParsedArguments, _ context: Context) throws -> String? {
        try body(arguments.value(Options.body, context), context)
    }

    /// A body as given (`-`: read from stdin), checked.
    static func body(_ given: String?, _ context: Context) throws -> String? {
        guard let body = given else { return nil }
        guard body == "-" else { return try Prayer.checked(body, field: "body") }
        return try Prayer.checked(try StandardInput.text(tr("the body")), field: "body")
    }

    static func remindersSuffix(_ specs: [String]) -> String {
        specs.isEmpty ? "" : " (" + tr("reminders: {list}", ("list", specs.joined(separator: "; "))) + ")"
    }
}
