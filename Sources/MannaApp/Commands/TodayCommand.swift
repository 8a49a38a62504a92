// manna today [--date D] [--translation T] [--json]: the verse of the day.
import MannaKit

enum TodayCommand {
    static let spec = CommandSpec(
        name: "today",
        usage: "manna today [--date YYYY-MM-DD] [--translation T] [--json]",
        abstract: "Print the verse of the day (the same on every machine for a date)",
        options: [Options.date, Options.translation, Options.json.help("print JSON: date, verse (id, reference, translation, text)")],
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: Context) throws {
        guard arguments.positionals.isEmpty else { throw Failure.usage(tr("today takes no arguments; see 'manna today --help'")) }
        let date = try context.date(arguments)
        let verse = try context.dailyVerse(for: date, translation: arguments.value(Options.translation, context))
        if arguments.has(Options.json) {
            context.json(.object([
                ("date", .string(date.description)),
                ("verse", .object([
                    ("id", .int(verse.id.rawValue)),
                    ("reference", .string(verse.reference.description)),
                    ("translation", .string(verse.translation)),
                    ("text", .string(verse.text)),
                ])),
            ]))
            return
        }
        context.stdout.line("\(verse.label) (\(verse.translation))")
        for line in PassageFormatter.wrap(verse.text, firstPrefix: "", prefix: "", width: context.terminalWidth) {
            context.stdout.line(line)
        }
    }
}
