// The extension itself, for every GNOME Shell version: the panel item with the day's reference;
// its menu with the verse (wrapped), the plan step, the day's reminder times and "Open in
// Manna" (the reader window, where manna-reader is installed) or "Read in terminal", or, in a
// quiet state, what is wrong and what to run. It shows what TimelineSource decides
// (timeline.js) and spawns nothing but the window or the terminal, on a click.
//
// Like timeline.js it imports nothing: each entry point hands in the modules of its Shell
// (legacy `imports` on 43-44, ES modules on 45+), so both share this file as it is and differ
// only in how they import.
/* exported MannaExtension, readCommandLine, terminalCommandLine */
'use strict';

/**
 * The command line that opens a terminal reading `reference` in `translation`, held open
 * until Enter (manna's pager quits on a short passage, and the window would close with it),
 * as the desktop entry does. `manna` by name, found on the session's PATH like the desktop
 * entry's Exec. Debian's x-terminal-emulator (the administrator's choice) comes first, then
 * gnome-terminal; without either, GIO's own list of terminals (NEEDS_TERMINAL).
 *
 * @param {object} GLib - the GLib module (for shell quoting)
 * @param {string} reference - e.g. Psalm 90:12
 * @param {string} translation - e.g. KJV
 * @param {function(string): ?string} findProgram - GLib.find_program_in_path, or a test's
 * @returns {{commandLine: string, needsTerminal: boolean}}
 */
function terminalCommandLine(GLib, reference, translation, findProgram) {
    // The reference and translation are arguments of sh, never part of its script.
    const script = 'manna read "$1" --translation "$2"; echo; echo Press Enter to close.; read answer';
    const command = ['sh', '-c', script, 'sh', reference, translation].map(word => GLib.shell_quote(word)).join(' ');
    for (const [terminal, option] of [['x-terminal-emulator', '-e'], ['gnome-terminal', '--']]) {
        const path = findProgram(terminal);
        if (path)
            return {commandLine: `${GLib.shell_quote(path)} ${option} ${command}`, needsTerminal: false};
    }
    return {commandLine: command, needsTerminal: true};
}

/**
 * The command line that opens `reference` in `translation`: in the reader window where
 * manna-reader is on the session's PATH (it hands the reference to a window already open),
 * else in a terminal (terminalCommandLine).
 *
 * @param {object} GLib - the GLib module (for shell quoting)
 * @param {string} reference - e.g. Psalm 90:12
 * @param {string} translation - e.g. KJV
 * @param {function(string): ?string} findProgram - GLib.find_program_in_path, or a test's
 * @returns {{commandLine: string, needsTerminal: boolean, inWindow: boolean}}
 */
function readCommandLine(GLib, reference, translation, findProgram) {
    const reader = findProgram('manna-reader');
    if (reader) {
        // "Psalm 90:12" "KJV": the reader reads a translation after the reference, as manna read does.
        const commandLine = [reader, reference, translation].map(word => GLib.shell_quote(word)).join(' ');
        return {commandLine, needsTerminal: false, inWindow: true};
    }
    return {...terminalCommandLine(GLib, reference, translation, findProgram), inWindow: false};
}

/**
 * What enable() sets up and disable() takes away: the panel item, the timeline's source (a
 * file monitor and a timeout) and a watch on logind's sleep signal.
 */
var MannaExtension = class MannaExtension {
    /**
     * @param {object} shell - the modules: GObject, GLib, Gio, St, Clutter, Pango, Main,
     *   PanelMenu, PopupMenu, LoginManager, and Timeline (timeline.js)
     * @param {string} uuid - the extension's, its role in the panel's status area
     */
    constructor(shell, uuid) {
        this._shell = shell;
        this._uuid = uuid;
    }

    enable() {
        const {GLib, Gio, Main, LoginManager, Timeline} = this._shell;
        const MannaIndicator = defineIndicator(this._shell);
        this._indicator = new MannaIndicator();
        Main.panel.addToStatusArea(this._uuid, this._indicator);
        this._source = new Timeline.TimelineSource({
            Gio, GLib,
            path: Timeline.timelinePath(GLib.getenv, GLib.get_home_dir()),
            onChange: state => this._indicator.show(state),
        });
        this._source.start();
        // GLib's timeouts run on the monotonic clock, which stops while the machine sleeps: a
        // laptop woken after midnight is read again at once, not a night's sleep late.
        this._loginManager = LoginManager.getLoginManager();
        this._sleepId = this._loginManager.connect('prepare-for-sleep', (manager, aboutToSuspend) => {
            if (!aboutToSuspend)
                this._source.refresh();
        });
    }

    disable() {
        this._loginManager.disconnect(this._sleepId);
        this._loginManager = null;
        this._source.stop();
        this._source = null;
        this._indicator.destroy();
        this._indicator = null;
    }
};

let indicatorClass = null;

/**
 * The indicator's class, registered once per Shell process (GObject types cannot be
 * registered twice, and an extension is enabled again after every screen unlock).
 *
 * @returns {Function} MannaIndicator: `new MannaIndicator()`, then `show(state)` for each state
 */
function defineIndicator(shell) {
    if (indicatorClass)
        return indicatorClass;
    const {GObject, GLib, Gio, St, Clutter, Pango, Main, PanelMenu, PopupMenu} = shell;

    /**
     * A menu line that is read, not clicked: wrapped, never cut off with an ellipsis. `prominent`
     * lines (the reference, the verse) keep the menu's full contrast, which the Shell takes from
     * lines that cannot be clicked.
     */
    function textItem(styleClass, prominent = false) {
        // St draws a widget that is not reactive as insensitive: a prominent line stays
        // reactive, but neither activates, highlights on hover nor takes the focus.
        const item = new PopupMenu.PopupMenuItem('', {reactive: prominent, activate: false, hover: false, can_focus: false});
        if (prominent) {
            item.track_hover = false;
            item.remove_style_class_name('popup-inactive-menu-item');
        }
        item.label.add_style_class_name(styleClass);
        const text = item.label.clutter_text;
        // Text, never Pango markup (ClutterText's default, said here because the lines come
        // from a file: `<b>` in a verse shows as written).
        text.use_markup = false;
        text.line_wrap = true;
        text.line_wrap_mode = Pango.WrapMode.WORD_CHAR;
        text.ellipsize = Pango.EllipsizeMode.NONE;
        return item;
    }

    indicatorClass = GObject.registerClass(class MannaIndicator extends PanelMenu.Button {
        _init() {
            super._init(0.5, 'Manna');
            this._label = new St.Label({text: 'Manna', y_align: Clutter.ActorAlign.CENTER, style_class: 'manna-panel-label'});
            this._label.clutter_text.use_markup = false;
            this.add_child(this._label);
            // Screen readers read the reference, not only the name the button was made with.
            this.label_actor = this._label;

            this._heading = textItem('manna-heading', true);
            this._verse = textItem('manna-verse', true);
            this._plan = textItem('manna-detail');
            this._reminders = textItem('manna-detail');
            this._separator = new PopupMenu.PopupSeparatorMenuItem();
            this._read = new PopupMenu.PopupMenuItem('Read in terminal');
            this._read.connect('activate', () => this._open());
            for (const item of [this._heading, this._verse, this._plan, this._reminders, this._separator, this._read])
                this.menu.addMenuItem(item);
            this._entry = null;
        }

        /** Shows a state from TimelineSource: its lines, each made fit to show by shownLines. */
        show(state) {
            const entry = state.quiet ? null : state.entry;
            const {lines} = state;
            this._entry = entry;
            this._label.text = lines.panel;
            if (entry)
                this._label.remove_style_class_name('manna-quiet');
            else
                this._label.add_style_class_name('manna-quiet');
            this._heading.label.text = lines.heading;
            this._verse.label.text = lines.verse;
            this._plan.label.text = lines.plan ?? '';
            this._reminders.label.text = lines.reminders ?? '';
            this._plan.visible = lines.plan !== null;
            this._reminders.visible = lines.reminders !== null;
            this._separator.visible = this._read.visible = entry !== null;
            // Asked again at each change: the window may have been installed or removed since.
            this._read.label.text = GLib.find_program_in_path('manna-reader') ? 'Open in Manna' : 'Read in terminal';
        }

        _open() {
            if (!this._entry)
                return;
            const {commandLine, needsTerminal, inWindow} = readCommandLine(GLib, this._entry.reference, this._entry.translation,
                GLib.find_program_in_path);
            try {
                const flags = needsTerminal ? Gio.AppInfoCreateFlags.NEEDS_TERMINAL : Gio.AppInfoCreateFlags.NONE;
                Gio.AppInfo.create_from_commandline(commandLine, 'Manna', flags).launch([], global.create_app_launch_context(0, -1));
            } catch (e) {
                if (inWindow)
                    Main.notifyError('Manna could not open its window', e.message);
                else
                    Main.notifyError('Manna could not open a terminal', `${e.message}. Install one (Debian: gnome-terminal).`);
            }
        }
    });
    return indicatorClass;
}
