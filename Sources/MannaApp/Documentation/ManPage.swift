// manna(1), manna-config(5) and manna-reader(1), written from the command table the parser
// reads, the exit statuses, the config keys and the window's shortcuts: a command, option or
// shortcut cannot exist without its entry here.
import MannaKit

enum ManPage {
    static let pages = ["manna", "manna-config", "manna-reader"]

    /// The page called `name`; `translations` are the text database's, which the pages name
    /// (nil: none could be opened, and the pages say what a code is like).
    static func page(named name: String, translations: [Translation]?) -> String? {
        switch name {
        case "manna": manna(translations: translations)
        case "manna-config": config(translations: translations)
        case "manna-reader": reader()
        default: nil
        }
    }

    /// Text as roff reads it: backslashes and hyphens escaped, a line never starting as a request.
    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            default: out.append(character)
            }
        }
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }

    /// A paragraph of text.
    static func text(_ paragraph: String) -> String {
        paragraph.split(separator: "\n", omittingEmptySubsequences: false).map { escape(String($0)) }.joined(separator: "\n") + "\n"
    }

    static func manna(translations: [Translation]?) -> String {
        var page = """
            '\\" t
            .\\" manna(1): written by 'manna manpage manna' from the command table; do not edit.
            .TH MANNA 1 "" "manna \(Manna.version)" "User Commands"
            .SH NAME
            manna \\- the verse of the day, prayer reminders and an offline Bible
            .SH SYNOPSIS
            .B manna
            .I command
            .RI [ arguments ]
            .br
            .B manna
            .RB [ \\-h | \\-\\-help | \\-V | \\-\\-version ]
            .SH DESCRIPTION
            Manna shows the verse of the day as a desktop notification, above the shell prompt and in panels, \
            reminds you to pray at the times you choose, follows reading plans, and reads, searches and reads \
            aloud \(escape(translations.map(TranslationOption.described) ?? "the translations")) from a local database.
            It has no network code: it works offline.
            Your prayers, notes, highlights, bookmarks and plan progress are kept in a journal of your own, \
            which \\fBmanna sync\\fR keeps the same on your devices through a folder they share.
            .PP
            Options go after the command or before it (\\fBmanna \\-\\-translation WEB read John 3:16\\fR), \
            as \\fB\\-\\-option value\\fR or \\fB\\-\\-option=value\\fR.
            \\fB\\-t\\fR, \\fB\\-n\\fR and \\fB\\-j\\fR are \\fB\\-\\-translation\\fR, \\fB\\-\\-limit\\fR and \\fB\\-\\-json\\fR wherever a command has them.
            A word that starts with a dash and is no option is refused; after \\fB\\-\\-\\fR every word is an argument.
            Where a text or a file is read, \\fB\\-\\fR reads it from standard input.
            .SH COMMANDS

            """
        for command in Manna.commands.map({ $0.spec() }) {
            page += ".SS \(command.name)\n.nf\n"
            page += command.usage.split(separator: "\n").map { escape(String($0).trimmingSpaces) }.joined(separator: "\n") + "\n.fi\n"
            page += text(command.abstract + ".")
            if !command.subcommands.isEmpty {
                page += ".br\nSubcommands: " + command.subcommands.map { "\\fB\(escape($0.name))\\fR" }.joined(separator: ", ") + ".\n"
            }
            for (option, help) in command.optionHelp(translations: translations) {
                let short = option.short.map { "\\fB\(escape($0))\\fR, " } ?? ""
                page += ".TP\n" + short + "\\fB\\-\\-\(escape(option.name))\\fR" + (option.takesValue ? " \\fIVALUE\\fR" : "") + "\n" + text(help)
            }
        }
        page += """
            .SH EXIT STATUS
            Scripts can trust these: the same failure gives the same status in every command.
            .TS
            l lx.

            """
        for status in ExitStatus.allCases.sorted(by: { $0.rawValue < $1.rawValue }) {
            page += "\(status.rawValue)\tT{\n\(escape(status.meaning))\nT}\n"
        }
        page += """
            .TE
            .SH ENVIRONMENT
            .TP
            .B MANNA_TRANSLATION
            The translation to read when no \\fB\\-\\-translation\\fR is given (before the config file's).
            .TP
            .B MANNA_TEXT_DB
            The text database to read, instead of the one Manna finds.
            .TP
            .B NO_COLOR
            When set, no colour.
            .TP
            .B TZ
            The time zone for the day's verse and the reminders (default: the system's).
            .TP
            .BR HOME ", " XDG_CONFIG_HOME ", " XDG_DATA_HOME ", " XDG_CACHE_HOME ", " XDG_DATA_DIRS
            Where the files below are, and where the text database is looked for.
            .TP
            .BR DBUS_SESSION_BUS_ADDRESS ", " XDG_RUNTIME_DIR
            The session bus that notifications and media keys use.
            .SH FILES
            .TP
            .I ~/.config/manna/config
            Settings; see \\fBmanna\\-config\\fR(5).
            .TP
            .I ~/.config/manna/plans/
            Reading plans of your own (JSON).
            .TP
            .I ~/.local/share/manna/journal.sqlite
            Your prayers, notes, highlights, bookmarks, plan progress and search history.
            .TP
            .I ~/.cache/manna/timeline.json
            The verse, plan step and reminders for the days ahead, which prompts and panels read.
            .TP
            .I ~/.config/systemd/user/manna.timer
            The timer \\fBmanna install\\fR starts, which runs \\fBmanna tick\\fR every minute.
            .TP
            .I /usr/share/manna/bible.sqlite
            The texts (or \\fI~/.local/share/manna/\\fR after \\fBmanna install\\fR).
            .TP
            .I /usr/share/manna/bible-search.sqlite
            The search index, beside the texts; only \\fBmanna search\\fR reads it.
            .PP
            \\fBmanna paths\\fR prints where each is on this machine.
            .SH EXAMPLES
            .nf
            manna today
            manna read John 3:16 \\-t WEB
            manna search \\(dqlove one another\\(dq \\-n 5
            manna pray add \\(dqAnna\\(dq \\-\\-remind \\(dqweekdays 07:30\\(dq
            manna plan start bible\\-in\\-a\\-year
            manna listen Ps 23
            manna sync init ~/Sync
            eval \\(dq$(manna init bash)\\(dq
            .fi
            .SH SEE ALSO
            .BR manna\\-config (5),
            .BR systemctl (1),
            .BR crontab (5),
            .BR syncthing (1)

            """
        return page
    }

    /// manna-reader(1): the window, its command line and its shortcuts.
    static func reader() -> String {
        var page = """
            .\\" manna-reader(1): written by 'manna manpage manna-reader'; do not edit.
            .TH MANNA\\-READER 1 "" "manna \(Manna.version)" "User Commands"
            .SH NAME
            manna\\-reader \\- Manna as a GNOME window: the verse of the day and the Bible
            .SH SYNOPSIS
            .B manna\\-reader
            .RI [ REFERENCE ...]
            .br
            .B manna\\-reader
            .RB [ \\-h | \\-\\-help | \\-V | \\-\\-version ]
            .SH DESCRIPTION

            """
        page += text("""
            Opens the reader window at REFERENCE, typed as manna read takes it ("John 3:16", "Ps 23 WEB"), \
            or where you were last (else Genesis 1). One window runs per session: while it runs, another \
            manna-reader hands its REFERENCE to it and exits with what became of it (65 and the reason for a \
            passage that does not exist). The window shows today's verse and the chapter, a second translation \
            beside the first verse by verse, and the highlights, bookmarks and notes of manna(1), which you \
            make on the verses you select; a delete can be undone from its toast.
            """)
        page += ".SH KEYS\n"
        for shortcut in ReaderShortcut.all { page += ".TP\n.B \(escape(shortcut.keys))\n" + text(shortcut.title + ".") }
        page += ".SH FILES\n.TP\n.I ~/.cache/manna/reader\\-place\n" + text("Where the window was, to open there next time.")
        page += ".SH SEE ALSO\n.BR manna (1)\n"
        return page
    }

    static func config(translations: [Translation]?) -> String {
        var page = """
            .\\" manna-config(5): written by 'manna manpage manna-config' from the config keys; do not edit.
            .TH MANNA\\-CONFIG 5 "" "manna \(Manna.version)" "File Formats"
            .SH NAME
            manna\\-config \\- the settings of manna
            .SH SYNOPSIS
            .I ~/.config/manna/config
            (\\fI$XDG_CONFIG_HOME/manna/config\\fR)
            .SH DESCRIPTION
            One setting per line, \\fIkey\\fR = \\fIvalue\\fR; lines starting with # are comments.
            A key not set has its default.
            \\fBmanna config set\\fR checks a value and changes only its line; \\fBmanna config list\\fR shows every key.
            A line that cannot be used (an unknown key, a value that is not allowed) is reported with the
            file, the line and what is allowed, and ignored: the default stands in and every command goes on,
            the tick too, which says it once a day; \\fBmanna doctor\\fR fails until the line is mended.
            \\fBmanna config unset\\fR removes any key's lines, known or not.
            .SH KEYS

            """
        for key in Config.keys {
            // The translations are the text database's: the catalogue it was built from.
            let allowed = key.name == Options.translation.name ? translations.map { "a translation's code: " + TranslationOption.codes($0) } : nil
            page += ".TP\n.B \(escape(key.name))\n" + text("Allowed: \(allowed ?? key.allowed).")
            page += text("Default: " + (Config.defaultValue(of: key.name) ?? "") + ".")
        }
        page += """
            .PP
            The translation is chosen from \\fB\\-\\-translation\\fR, then \\fBMANNA_TRANSLATION\\fR, then this file, then KJV; \\fBmanna read\\fR of a reference with a Spanish book name (\\fBJuan 3:16\\fR) takes the Spanish translation before KJV.
            .SH EXAMPLE
            .nf
            translation = WEB
            notify_at = 06:30
            prompt_format = {reference}: {text:60}
            .fi
            .SH SEE ALSO
            .BR manna (1)

            """
        return page
    }
}
