// manna init bash|zsh|fish: a snippet for eval "$(manna init bash)" that shows the verse above the prompt.
import MannaKit

enum InitCommand {
    static let spec = CommandSpec(
        name: "init",
        usage: "manna init bash|zsh|fish",
        abstract: "Print a shell snippet that shows today's verse above your prompt: eval \"$(manna init bash)\"",
        operand: .words(["bash", "zsh", "fish"]),
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: Context) throws {
        guard arguments.positionals.count == 1, let snippet = snippets[arguments.positionals[0]] else {
            throw Failure.usage("init needs one shell: bash, zsh or fish")
        }
        context.stdout.write(snippet.replacingAll("@PROMPT_LINES@", with: shellQuoted(context.paths.promptLines)))
    }

    /// `text` in single quotes, each ' written as '\'' : a path any of the three shells reads back as is.
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingAll("'", with: "'\\''") + "'"
    }

    /// The bash and zsh snippets start no process at a prompt. Each keeps the line to show and
    /// the instant it stops being right (the next day's start), and reads the prompt lines the
    /// timer writes (`PromptLines`) again only after that instant or a minute after the last
    /// read (so a changed translation or format shows within a minute): a built-in read (bash
    /// `read -n`, zsh's `mapfile` module) of a regular file only, at most 16 kB (a FIFO would
    /// block the prompt, `/dev/zero` fill memory), the last line whose start (decimal, leading
    /// zeros and all: `10#`) is not after `$EPOCHSECONDS`. Most prompts cost two comparisons. Only when no line covers now
    /// (nothing has run for a week) do they run `manna prompt`. fish has no clock built-in,
    /// so it runs `manna prompt`.
    ///
    /// The line is cut to the terminal's width, on its own line, dimmed unless NO_COLOR is set
    /// or the terminal is dumb, and each snippet adds itself only once however often it is
    /// evaluated. The verse is printed, never evaluated: a variable's value in a prompt is not
    /// expanded again, zsh gets it with `%` doubled, a start that is not all digits ends the
    /// search before it can reach arithmetic, and control characters become spaces.
    static let snippets: [String: String] = [
        "bash": #"""
            # Manna: today's verse above the prompt. Add to ~/.bashrc: eval "$(manna init bash)"
            __manna_lines=@PROMPT_LINES@ __manna_until=0 __manna_read=0 __manna_text=
            __manna_prompt() {
              local entry start text= line head width=${COLUMNS:-80}
              (( width > 0 )) || width=80
              if (( EPOCHSECONDS >= __manna_until || EPOCHSECONDS >= __manna_read + 60 )); then
                __manna_read=$EPOCHSECONDS __manna_until=0 __manna_text=
                # A regular file only, and at most 16 kB of it (a week is 2), up to a NUL (which
                # read would skip, not count): a FIFO would block the prompt for ever, /dev/zero
                # or a huge file would fill memory.
                [[ -f $__manna_lines && -r $__manna_lines ]] && IFS= read -r -d '' -n 16384 text < "$__manna_lines"
                (( ${#text} < 16384 )) || text=
                while [[ -n $text ]]; do
                  entry=${text%%$'\n'*} text=${text:${#entry}+1}
                  start=${entry%%$'\t'*}
                  [[ -z $start || $start == *[!0-9]* || ${#start} -gt 18 ]] && break
                  (( 10#$start <= EPOCHSECONDS )) || { __manna_until=$(( 10#$start )); break; }
                  __manna_text=${entry#*$'\t'*$'\t'*$'\t'} __manna_until=$(( 10#$start + 82800 ))
                done
                # Control characters in the file (an escape that clears the screen or sets the
                # title) become spaces: the file is read, never trusted.
                __manna_text=${__manna_text//[[:cntrl:]]/ }
                if [[ -z $__manna_text ]] || (( EPOCHSECONDS >= __manna_until )); then
                  __manna_text=$(command manna prompt --width "$width" 2>/dev/null) __manna_until=0
                fi
              fi
              line=$__manna_text
              if (( ${#line} > width )); then
                # As manna prompt cuts: after the last whole word that fits, if that keeps half.
                line=${line:0:width-1} head=${line% *}
                if [[ $head != "$line" ]] && (( ${#head} >= width / 2 )); then
                  line=$head
                  while [[ $line == *[,\;:.] ]]; do line=${line%?}; done
                fi
                line+="…"
              fi
              if [[ -n $NO_COLOR || $TERM == dumb ]]; then __manna_line=$line; else __manna_line=$'\001\e[2m\002'"$line"$'\001\e[0m\002'; fi
            }
            case ";${PROMPT_COMMAND};" in
              *";__manna_prompt;"*) ;;
              *) PROMPT_COMMAND="__manna_prompt${PROMPT_COMMAND:+;$PROMPT_COMMAND}" ;;
            esac
            case "$PS1" in
              *__manna_line*) ;;
              *) PS1='${__manna_line}\n'"$PS1" ;;
            esac

            """#,
        "zsh": #"""
            # Manna: today's verse above the prompt. Add to ~/.zshrc: eval "$(manna init zsh)"
            __manna_lines=@PROMPT_LINES@ __manna_until=0 __manna_read=0 __manna_text=
            zmodload zsh/datetime zsh/mapfile
            zmodload -F zsh/stat b:zstat
            __manna_precmd() {
              local entry start line head width=${COLUMNS:-80}
              local -a size
              (( width > 0 )) || width=80
              if (( EPOCHSECONDS >= __manna_until || EPOCHSECONDS >= __manna_read + 60 )); then
                __manna_read=$EPOCHSECONDS __manna_until=0 __manna_text=
                # A regular file only, of at most 16 kB (a week is 2): a FIFO would block the
                # prompt for ever, /dev/zero or a huge file would fill memory.
                if [[ -f $__manna_lines && -r $__manna_lines ]] && zstat -A size +size -- $__manna_lines 2>/dev/null && (( size[1] < 16384 )); then
                  for entry in "${(@f)mapfile[$__manna_lines]}"; do
                    start=${entry%%$'\t'*}
                    [[ $start == <-> && ${#start} -le 18 ]] || break
                    (( 10#$start <= EPOCHSECONDS )) || { __manna_until=$(( 10#$start )); break }
                    __manna_text=${entry#*$'\t'*$'\t'*$'\t'} __manna_until=$(( 10#$start + 82800 ))
                  done
                  __manna_text=${__manna_text//[[:cntrl:]]/ }  # the file is read, never trusted
                fi
                if [[ -z $__manna_text ]] || (( EPOCHSECONDS >= __manna_until )); then
                  __manna_text="$(command manna prompt --width "$width" 2>/dev/null)" __manna_until=0
                fi
              fi
              line=$__manna_text
              if (( ${#line} > width )); then
                # As manna prompt cuts: after the last whole word that fits, if that keeps half.
                line=${line[1,width-1]} head=${line% *}
                if [[ $head != "$line" ]] && (( ${#head} >= width / 2 )); then
                  line=$head
                  while [[ $line == *[,\;:.] ]]; do line=${line%?}; done
                fi
                line+="…"
              fi
              __manna_line="${line//\%/%%}"
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
