// manna compare REF: one passage in every translation, one after another.
import MannaKit

enum CompareCommand {
    static let spec = CommandSpec(
        name: "compare",
        usage: "manna compare REF [--json]",
        abstract: "Print a passage in every translation: manna compare John 3:16",
        options: [Options.json.help("print a JSON array with one passage per translation")],
        operand: .reference,
        pages: true,
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: Context) throws {
        guard !arguments.positionals.isEmpty else { throw Failure.usage("compare needs a reference, like 'manna compare John 3:16'") }
        let database = try context.openTextDatabase()
        // Shown in every translation, but read in the language of the one the user chose.
        let reference = try PassageInput.parse(String.spaced(arguments.positionals), in: database,
                                               language: context.chosenTranslation(nil, in: database)?.language).reference
        try PassageInput.checkSize(reference)
        var passages: [JSON] = []
        for (index, translation) in database.translations.enumerated() {
            let verses: [PassageVerse] = try database.passage(reference, in: translation, titles: true)
            if arguments.has(Options.json) {
                passages.append(.passage(reference, translation: translation, verses: verses))
                continue
            }
            if index > 0 { context.stdout.line("") }
            for line in PassageFormatter.lines(reference: reference, translation: translation.code, language: translation.language, verses: verses, width: context.terminalWidth) {
                context.stdout.line(line)
            }
        }
        if arguments.has(Options.json) { context.json(.array(passages)) }
    }
}
