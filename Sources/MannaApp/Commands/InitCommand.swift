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

    /// Each snippet runs `manna prompt` once per prompt, cut to the terminal's width, on its
    /// own line, dimmed unless NO_COLOR is set or the terminal is dumb, and adds itself only
    /// once however often it is evaluated. The verse is printed, never evaluated: zsh's prompt
    /// expansion would read `%` in it, so zsh gets it from a variable with `%` doubled.
    static let snippets: [String: String] = [
        "bash": #"""
            # Manna: today's verse above the prompt. Add to ~/.bashrc: eval "$(manna init bash)"
            __manna_prompt() {
              local line; line=$(command manna prompt --width "${COLUMNS:-80}" 2>/dev/null)
              if [[ -n $NO_COLOR || $TERM == dumb ]]; then printf '%s' "$line"; else printf '\001\e[2m\002%s\001\e[0m\002' "$line"; fi
            }
            case "$PS1" in
              *__manna_prompt*) ;;
              *) PS1='$(__manna_prompt)\n'"$PS1" ;;
            esac

            """#,
        "zsh": #"""
            # Manna: today's verse above the prompt. Add to ~/.zshrc: eval "$(manna init zsh)"
            __manna_precmd() {
              __manna_line="$(command manna prompt --width "${COLUMNS:-80}" 2>/dev/null)"; __manna_line="${__manna_line//\%/%%}"
              [[ -n $NO_COLOR || $TERM == dumb ]] || __manna_line="%F{8}${__manna_line}%f"
            }
            autoload -Uz add-zsh-hook
            add-zsh-hook precmd __manna_precmd
            setopt prompt_subst
            case "$PROMPT" in
              *__manna_line*) ;;
              *) PROMPT='${__manna_line}'$'\n'"$PROMPT" ;;
            esac

            """#,
        "fish": #"""
            # Manna: today's verse above the prompt. Add to ~/.config/fish/config.fish: manna init fish | source
            function __manna_prompt --on-event fish_prompt
                set -l plain (set -q NO_COLOR; or test "$TERM" = dumb; and echo 1)
                test -n "$plain"; or set_color brblack
                command manna prompt --width $COLUMNS 2>/dev/null
                test -n "$plain"; or set_color normal
            end

            """#,
    ]
}
