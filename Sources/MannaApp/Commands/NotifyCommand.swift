// manna notify [--date YYYY-MM-DD] [--translation T]: the verse of the day as a desktop notification, now.
import MannaKit

enum NotifyCommand {
    static let spec = CommandSpec(
        name: "notify",
        usage: "manna notify [--date YYYY-MM-DD] [--translation T]",
        abstract: "Show the verse of the day as a desktop notification now",
        options: [Options.date, Options.translation],
        run: run)

    /// Prints nothing when the notification was shown: the notification is the output.
    static func run(_ arguments: ParsedArguments, _ context: Context) throws {
        guard arguments.positionals.isEmpty else {
            throw Failure.usage("notify takes no arguments; for another day use --date YYYY-MM-DD")
        }
        let date = try context.date(arguments)
        let verse = try context.dailyVerse(for: date, translation: arguments.value(Options.translation, context))
        try context.notifier.show(DesktopNotification(dailyVerse: verse))
    }
}
