// The completion scripts `manna completions bash|zsh|fish` prints, and `manna install` and the
// package install. Each hands the words typed so far to `manna completions --complete` (see
// Completion.swift), so the scripts never change when a command does: nothing to drift.

enum CompletionScripts {
    static let shells = ["bash", "zsh", "fish"]

    static func script(for shell: String) -> String? {
        switch shell {
        case "bash": bash
        case "zsh": zsh
        case "fish": fish
        default: nil
        }
    }

    /// bash, with or without the bash-completion package. COMP_WORDS splits at ':' and '=', which
    /// no word offered contains.
    static let bash = #"""
        # bash completion for manna: from 'manna completions bash' (installed by 'manna install').
        _manna() {
            local IFS=$'\n' line word
            local -a lines
            COMPREPLY=()
            lines=($(command manna completions --complete -- "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)) || return 0
            case ${lines[0]} in
                :files) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "${COMP_WORDS[COMP_CWORD]}")) ;;
                :directories) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "${COMP_WORDS[COMP_CWORD]}")) ;;
                *) for line in "${lines[@]}"; do COMPREPLY+=("${line%%$'\t'*}"); done ;;
            esac
        }
        complete -F _manna manna

        """#

    /// zsh: a `_manna` function for `fpath` (as `_manna`), or sourced after `compinit`.
    static let zsh = #"""
        #compdef manna
        # zsh completion for manna: from 'manna completions zsh' (installed by 'manna install').
        _manna() {
            local -a lines candidates
            local line word
            lines=("${(@f)$(command manna completions --complete -- "${(@)words[2,CURRENT]}" 2>/dev/null)}")
            case $lines[1] in
                :files) _files; return ;;
                :directories) _files -/; return ;;
            esac
            for line in $lines; do
                [[ -n $line ]] || continue
                word=${line%%$'\t'*}
                if [[ $line == *$'\t'* ]]; then candidates+=("${word//:/\\:}:${line#*$'\t'}"); else candidates+=("${word//:/\\:}"); fi
            done
            # Matched as manna matched them: "1jo" is 1John, "web" WEB.
            (( $#candidates )) && _describe -t manna manna candidates -M 'm:{[:lower:]}={[:upper:]}'
        }
        if [[ $zsh_eval_context[-1] == loadautofunc ]]; then _manna "$@"; else compdef _manna manna; fi

        """#

    /// fish: candidates with their descriptions, which fish shows beside them.
    static let fish = #"""
        # fish completion for manna: from 'manna completions fish' (installed by 'manna install').
        function __manna_complete
            set -l tokens (commandline -opc) (commandline -ct)
            set -l lines (command manna completions --complete -- $tokens[2..-1] 2>/dev/null)
            switch "$lines[1]"
                case :files
                    __fish_complete_path (commandline -ct)
                case :directories
                    __fish_complete_directories (commandline -ct)
                case '*'
                    printf '%s\n' $lines
            end
        end
        complete -c manna -f -a '(__manna_complete)'

        """#
}
