// manna manpage manna|manna-config|manna-reader: the man pages in roff, for `manna install` and the package
// (`man manna` then works); `man -l <(manna manpage manna)` reads one in place.
import MannaKit

enum ManpageCommand {
    static let spec = CommandSpec(
        name: "manpage",
        usage: "manna manpage manna|manna-config|manna-reader",
        abstract: "Print a man page in roff: manna(1), manna-config(5) or manna-reader(1) ('manna install' installs them)",
        operand: .words(ManPage.pages),
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: Context) throws {
        guard arguments.positionals.count == 1, let page = ManPage.page(named: arguments.positionals[0], translations: context.translationsForHelp()) else {
            throw Failure.usage("manpage needs one page: manna, manna-config or manna-reader"
                + (arguments.positionals.first.map { ", not '\($0)'" + Suggestion.hint(for: $0, in: ManPage.pages, otherwise: "") } ?? ""))
        }
        context.stdout.write(page)
    }
}
