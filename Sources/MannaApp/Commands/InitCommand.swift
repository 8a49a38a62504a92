// manna init bash|zsh|fish: a snippet for eval "$(manna init bash)" that shows the verse above the prompt.
import MannaKit

enum InitCommand {
    static let spec = CommandSpec(
        name: "init",
        usage: "manna init bash|zsh|fish",
        abstract: "Print a shell snippet that shows today's verse above your prompt: eval \"$(manna init bash)\"",
        operands: ["": .words(["bash", "zsh", "fish"])],
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: Context) throws {
        guard arguments.positionals.count == 1, let snippet = snippets[arguments.positionals[0]] else {
            throw Failure.usage("init needs one shell: bash, zsh or fish")
        }
        context.stdout.write(snippet)
    }

    /// Each snippet runs `manna prompt` once per prompt, dimmed, on its own line, and adds
    /// itself only once however often it is evaluated. The verse is printed, never evaluated:
    /// zsh's prompt expansion would read `%` in it, so zsh gets it from a variable.
    static let snippets: [String: String] = [
        "bash": #"""
            # Manna: today's verse above the prompt. Add to ~/.bashrc: eval "$(manna init bash)"
            __manna_prompt() { command manna prompt 2>/dev/null; }
            case "$PS1" in
              *__manna_prompt*) ;;
              *) PS1='\[\e[2m\]$(__manna_prompt)\[\e[0m\]\n'"$PS1" ;;
            esac

            """#,
        "zsh": #"""
            # Manna: today's verse above the prompt. Add to ~/.zshrc: eval "$(manna init zsh)"
            __manna_precmd() { __manna_line="$(command manna prompt 2>/dev/null)"; __manna_line="${__manna_line//\%/%%}"; }
            autoload -Uz add-zsh-hook
            add-zsh-hook precmd __manna_precmd
            setopt prompt_subst
            case "$PROMPT" in
              *__manna_line*) ;;
              *) PROMPT='%F{8}${__manna_line}%f'$'\n'"$PROMPT" ;;
            esac

            """#,
        "fish": #"""
            # Manna: today's verse above the prompt. Add to ~/.config/fish/config.fish: manna init fish | source
            function __manna_prompt --on-event fish_prompt
                set_color brblack
                command manna prompt 2>/dev/null
                set_color normal
            end

            """#,
    ]
}
