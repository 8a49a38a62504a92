// manna completions bash|zsh|fish: the shell completion scripts. The scripts ask
// `manna completions --complete -- WORDS...` what may come next (Completion.swift).
import MannaKit

enum CompletionsCommand {
    static let spec = CommandSpec(
        name: "completions",
        usage: "manna completions bash|zsh|fish",
        abstract: "Print the completion script for a shell ('manna install' puts them where the shells look)",
        options: [Options.complete],
        operand: .words(CompletionScripts.shells),
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: Context) throws {
        if arguments.has(Options.complete) {
            for line in Completion.complete(arguments.positionals, context: context).lines { context.stdout.line(line) }
            return
        }
        guard arguments.positionals.count == 1, let script = CompletionScripts.script(for: arguments.positionals[0]) else {
            throw Failure.usage("completions needs one shell: bash, zsh or fish"
                + (arguments.positionals.first.map { ", not '\($0)'" + Suggestion.hint(for: $0, in: CompletionScripts.shells, otherwise: "") } ?? ""))
        }
        context.stdout.write(script)
    }
}
