// What the extension shows, decided from manna's timeline file (docs/timeline.schema.json) and a
// clock: which day's entry is in force, when to look again, and the quiet state that says what
// to run when there is nothing sound to show. Shared by both entry points (extension.js for
// GNOME Shell 43-44, gnome45/extension45.js for 45+) and run under plain gjs by tests/unit.js.
//
// It imports nothing: callers hand in GLib and Gio (a legacy `imports.gi` module or an ES
// module's `gi://` import), so the one file serves both module systems. For 45+ manna install
// appends an `export` of the top-level names below (GnomeShellExtension.swift); for 43-44 the
// legacy importer exposes them as they are, which is why they are `function` and `var` declarations.
/* exported TIMELINE_VERSION, RUN_HINT, MAX_TIMELINE_BYTES, LINE_LIMITS, timelinePath, parseTimeline,
   parseInstant, chooseEntry, describe, planSummary, reminderSummary, startOfDayAfter, shownText,
   excerpt, shownLines, gioCall, readCapped, readTimelineFile, TimelineSource */
'use strict';

/** The only format version this reads; manna writes it. */
var TIMELINE_VERSION = 1;

/** What to run to get a timeline: written by every quiet state that lacks one. */
var RUN_HINT = 'Run: manna timeline';

/** A timeline of 31 days is about 20 kB: anything past this is not one, and is not read. */
var MAX_TIMELINE_BYTES = 1024 * 1024;

/**
 * The most each line shows, in characters (code points): past it, an excerpt and "…". The
 * verse's is above manna's own excerpt of a long passage (500, DailySource.excerptLimit), so a
 * verse manna wrote is shown whole; the others are far above any real reference or plan step.
 */
var LINE_LIMITS = {panel: 40, reference: 80, translation: 20, verse: 600, plan: 200, reminders: 200, why: 300};

/**
 * Where manna writes the timeline: `$XDG_CACHE_HOME/manna/timeline.json`, else
 * `~/.cache/manna/timeline.json`. A relative XDG_CACHE_HOME is ignored, as the XDG spec and
 * manna's own Paths do (GLib.get_user_cache_dir() would take it).
 *
 * @param {function(string): ?string} getenv - GLib.getenv, or a test's environment
 * @param {string} home - the home folder (GLib.get_home_dir())
 * @returns {string}
 */
function timelinePath(getenv, home) {
    const cache = getenv('XDG_CACHE_HOME');
    const base = cache && cache.startsWith('/') ? cache : `${home}/.cache`;
    return `${base}/manna/timeline.json`;
}

// RFC 3339 as manna writes it: seconds, and an offset or Z. Date.parse alone would take far
// more (a bare date as UTC, a time without an offset as local time) and read it silently.
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^[0-2]\d:[0-5]\d$/;

/**
 * Milliseconds since the epoch of an RFC 3339 instant with its offset, or null.
 *
 * @param {*} text
 * @returns {?number}
 */
function parseInstant(text) {
    if (typeof text !== 'string' || !INSTANT.test(text))
        return null;
    const ms = Date.parse(text);
    return Number.isFinite(ms) ? ms : null;
}

function isObject(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isText(value) {
    return typeof value === 'string' && value.length > 0;
}

function isCount(value) {
    return Number.isInteger(value) && value >= 1;
}

/**
 * Reads one entry, or says what is wrong with it.
 *
 * @returns {{entry: ?object, problem: ?string}}
 */
function parseEntry(raw, index) {
    const where = `entries[${index}]`;
    if (!isObject(raw))
        return {problem: `${where} is not an object`};
    if (typeof raw.date !== 'string' || !DATE.test(raw.date))
        return {problem: `${where}.date is not a YYYY-MM-DD date`};
    const start = parseInstant(raw.start);
    if (start === null)
        return {problem: `${where}.start is not a date and time with an offset`};
    const verse = raw.verse;
    if (!isObject(verse) || !isText(verse.reference) || !isText(verse.translation) || typeof verse.text !== 'string')
        return {problem: `${where}.verse lacks its reference, translation or text`};
    let plan = null;
    if (raw.plan !== null) {
        const p = raw.plan;
        if (!isObject(p) || !isText(p.name) || !isCount(p.day) || !isCount(p.days) ||
            !Array.isArray(p.readings) || p.readings.length === 0 || !p.readings.every(isText))
            return {problem: `${where}.plan is neither null nor a plan step`};
        plan = {name: p.name, day: p.day, days: p.days, readings: p.readings.slice()};
    }
    if (!Array.isArray(raw.reminders) ||
        !raw.reminders.every(r => isObject(r) && typeof r.time === 'string' && TIME.test(r.time) && isText(r.kind)))
        return {problem: `${where}.reminders is not a list of times and kinds`};
    return {
        entry: {
            date: raw.date,
            start,
            reference: verse.reference,
            translation: verse.translation,
            text: verse.text,
            plan,
            reminders: raw.reminders.map(r => ({time: r.time, kind: r.kind})),
        },
    };
}

/**
 * Reads a timeline file's text. Never throws: bad input is a problem in plain words.
 *
 * @param {string} text - the file's contents
 * @returns {{timeline: ?{timeZone: string, after: number, entries: object[]}, problem: ?string}}
 */
function parseTimeline(text) {
    let raw;
    try {
        raw = JSON.parse(text);
    } catch (e) {
        return {problem: 'it is not JSON'};
    }
    if (!isObject(raw))
        return {problem: 'it is not a JSON object'};
    if (raw.version !== TIMELINE_VERSION) {
        return Number.isInteger(raw.version) && raw.version > TIMELINE_VERSION
            ? {problem: `it is version ${raw.version}, newer than this extension reads`, newer: true}
            : {problem: 'it has no version 1'};
    }
    if (typeof raw.time_zone !== 'string')
        return {problem: 'time_zone is missing'};
    const after = isObject(raw.policy) ? parseInstant(raw.policy.after) : null;
    if (after === null)
        return {problem: 'policy.after is not a date and time with an offset'};
    if (!Array.isArray(raw.entries) || raw.entries.length === 0)
        return {problem: 'it has no entries'};
    const entries = [];
    for (let i = 0; i < raw.entries.length; i++) {
        const {entry, problem} = parseEntry(raw.entries[i], i);
        if (problem)
            return {problem};
        if (entries.length > 0 && entry.start <= entries[entries.length - 1].start)
            return {problem: `entries[${i}] does not start after the one before it`};
        entries.push(entry);
    }
    return {timeline: {timeZone: raw.time_zone, after, entries}};
}

/**
 * The first instant of the day after `date` in the zone `timeZoneName`, in milliseconds: where
 * the timeline's last day ends. 23 or 25 hours after that day's start on a DST change, which is
 * why the zone's rules are asked (GLib reads the same tzdata manna does). Without them (an
 * unknown zone) the day is taken to last 24 hours from `start`.
 *
 * @param {object} GLib - the GLib module
 * @param {string} timeZoneName - e.g. America/New_York
 * @param {string} date - YYYY-MM-DD
 * @param {number} start - that date's first instant, ms
 * @returns {number}
 */
function startOfDayAfter(GLib, timeZoneName, date, start) {
    const [, year, month, day] = DATE.exec(date).map(Number);
    const next = new Date(Date.UTC(year, month - 1, day + 1));
    // new_identifier returns null for a name tzdata lacks (GLib 2.68+); plain new() would
    // quietly give UTC.
    const zone = GLib.TimeZone.new_identifier(timeZoneName);
    if (zone !== null) {
        // A midnight a DST change skips is moved forward by GLib: the day's first instant.
        const midnight = GLib.DateTime.new(zone, next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), 0, 0, 0);
        if (midnight !== null)
            return midnight.to_unix() * 1000;
    }
    return start + 24 * 60 * 60 * 1000;
}

/**
 * The entry in force at `now`: the last whose start is not in the future, or null when every
 * entry starts later (a clock set back, or a timeline written with --now in the future).
 *
 * @returns {?object}
 */
function chooseEntry(timeline, now) {
    let chosen = null;
    for (const entry of timeline.entries) {
        if (entry.start > now)
            break;
        chosen = entry;
    }
    return chosen;
}

// C0 and C1 controls, line and paragraph separators, and the bidi embeddings, overrides and
// isolates: what manna's own String.isTerminalControl drops. Each would change how a line
// looks (a line break in the panel, text drawn right to left) rather than what it says.
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]+/gu;

/**
 * `value` as one line the panel or menu may show: every run of control characters a space,
 * then at most `limit` characters (an excerpt with "…"). St labels are set as text, never as
 * Pango markup, so `<b>` or `&amp;` show as written and need no escaping here.
 *
 * @param {string} value - text from the timeline (or an error message naming its path)
 * @param {number} limit - in characters (code points), at least 2
 * @returns {string}
 */
function shownText(value, limit) {
    return excerpt(String(value).replace(CONTROLS, ' '), limit);
}

/**
 * `text` in at most `width` characters: cut after the last whole word that fits (when that
 * keeps at least half), its trailing punctuation dropped, then "…". As manna's
 * PromptFormat.cut, counted in code points, so a surrogate pair is never split.
 *
 * @returns {string}
 */
function excerpt(text, width) {
    if (text.length <= width)  // UTF-16 units: never fewer than code points
        return text;
    const characters = Array.from(text);
    if (characters.length <= width)
        return text;
    const head = characters.slice(0, width - 1);
    const space = head.lastIndexOf(' ');
    if (space >= Math.floor(width / 2))
        return `${head.slice(0, space).join('').replace(/[,;:.]+$/u, '')}…`;
    return `${head.join('')}…`;
}

/**
 * What the panel and each line of the menu show for a state, each through shownText: the one
 * place text from the file becomes text on screen. A null line is hidden.
 *
 * @returns {{panel: string, heading: string, verse: string, plan: ?string, reminders: ?string}}
 */
function shownLines(state) {
    const L = LINE_LIMITS;
    if (state.quiet)
        return {panel: 'Manna', heading: shownText(state.why, L.why), verse: state.hint, plan: null, reminders: null};
    const {entry} = state;
    const reminders = reminderSummary(entry.reminders);
    return {
        panel: shownText(entry.reference, L.panel),
        heading: `${shownText(entry.reference, L.reference)} (${shownText(entry.translation, L.translation)})`,
        verse: shownText(entry.text, L.verse),
        plan: entry.plan ? shownText(planSummary(entry.plan), L.plan) : null,
        reminders: reminders === null ? null : shownText(`Reminders: ${reminders}`, L.reminders),
    };
}

/** "Bible in a Year · Day 12 of 365: Genesis 34-36; Matthew 10", as `manna plan today` words it. */
function planSummary(plan) {
    return `${plan.name} · Day ${plan.day} of ${plan.days}: ${plan.readings.join('; ')}`;
}

const KIND_NAMES = {verse: 'verse', prayer: 'prayer', plan: 'reading'};

/** "07:00 verse · 20:00 reading · 21:00 prayer", or null for a day without reminders. */
function reminderSummary(reminders) {
    if (reminders.length === 0)
        return null;
    return reminders.map(r => `${r.time} ${KIND_NAMES[r.kind] ?? r.kind}`).join(' · ');
}

/**
 * What to show at `now`, and when to look again.
 *
 * @param {object} read - what reading the file gave: {missing: true}, {error: 'message'} or
 *   {text: 'the contents'}
 * @param {number} now - ms since the epoch
 * @param {function(string, string, number): number} dayAfter - startOfDayAfter bound to GLib
 * @returns {object} `{quiet: false, entry, label, lines, refreshAt}` with the entry in force, or
 *   `{quiet: true, label: 'Manna', why, hint, lines, refreshAt}` saying what is wrong and what to
 *   run. `lines` are what the panel and menu show (shownLines), `label` the panel's. refreshAt is
 *   the instant (ms) the choice changes, or null when only a new file can change it.
 */
function describe(read, now, dayAfter) {
    const state = decide(read, now, dayAfter);
    state.lines = shownLines(state);
    state.label = state.lines.panel;
    return state;
}

function decide(read, now, dayAfter) {
    const quiet = (why, hint = RUN_HINT, refreshAt = null) => ({quiet: true, why, hint, refreshAt});
    if (read.missing)
        return quiet('No timeline yet.');
    if (read.error !== undefined)
        return quiet(`The timeline cannot be read: ${read.error}.`);
    const {timeline, problem, newer} = parseTimeline(read.text);
    if (problem) {
        return newer
            ? quiet(`The timeline is not readable here: ${problem}.`, 'Update the extension: manna install')
            : quiet(`The timeline is not readable here: ${problem}.`);
    }
    const entries = timeline.entries;
    const first = entries[0];
    if (now < first.start)
        return quiet(`The timeline begins on ${first.date}, after today: was the clock set back?`, RUN_HINT, first.start);
    const entry = chooseEntry(timeline, now);
    const last = entries[entries.length - 1];
    const end = dayAfter(timeline.timeZone, last.date, last.start);
    if (entry === last && now >= end) {
        return quiet(`The timeline ended with ${last.date}: nothing has written it since.`,
            `${RUN_HINT} (manna doctor checks the timer that keeps it current)`);
    }
    // The next instant the choice changes: the next day's start, or the end of the last day;
    // policy.after when it comes sooner, since manna asks to be read again then.
    const next = entries.find(e => e.start > now);
    let refreshAt = next ? next.start : end;
    if (timeline.after > now && timeline.after < refreshAt)
        refreshAt = timeline.after;
    return {quiet: false, entry, refreshAt};
}

// What is asked of the path before it is opened (lstat: never blocks, never follows the link)
// and of the file once open (fstat of the descriptor, for a file replaced in between).
const PATH_ATTRIBUTES = 'standard::type,standard::size,standard::is-symlink,unix::mode';
const OPEN_ATTRIBUTES = 'standard::type,standard::size,unix::mode';

// The file types (st_mode & S_IFMT) Gio calls SPECIAL, in words.
const SPECIAL_KINDS = {0o010000: 'a named pipe (FIFO)', 0o020000: 'a device', 0o060000: 'a device', 0o140000: 'a socket'};

/**
 * Why a file, as Gio describes it, is not one to read as a timeline, or null when it is: a
 * regular file of at most `cap` bytes. manna renames a regular file into place, so a link (to
 * /dev/zero or to a timeline elsewhere) is not its file either.
 *
 * @returns {?string}
 */
function notATimeline(Gio, info, cap) {
    if (info.get_is_symlink())
        return 'it is a symbolic link, not the file manna writes';
    switch (info.get_file_type()) {
    case Gio.FileType.REGULAR:
        break;
    case Gio.FileType.DIRECTORY:
        return 'it is a folder, not a file';
    case Gio.FileType.SPECIAL:
        return `it is ${SPECIAL_KINDS[info.get_attribute_uint32('unix::mode') & 0o170000] ?? 'a special file'}, not a file`;
    default:
        return 'it is not a regular file';
    }
    const size = info.get_size();
    return size > cap ? `it is ${size} bytes, too big to be one` : null;
}

/**
 * Gio's `NAME_async`/`NAME_finish` pairs as promises, at the default priority and under
 * `cancellable`: `call(file, 'read')` is a promise of what read_finish gives.
 *
 * @returns {function(object, string, ...*): Promise}
 */
function gioCall(GLib, cancellable) {
    return (object, name, ...args) => new Promise((resolve, reject) => {
        object[`${name}_async`](...args, GLib.PRIORITY_DEFAULT, cancellable, (source, result) => {
            try {
                resolve(source[`${name}_finish`](result));
            } catch (e) {
                reject(e);
            }
        });
    });
}

/**
 * Reads what is left of `stream`, at most `cap` + 1 bytes whatever the file claims (a file in
 * /proc says 0 and has more; a file may grow while it is read), in reads of what is still
 * allowed.
 *
 * @param {function(object, string, ...*): Promise} call - gioCall's
 * @returns {Promise<{bytes: ?Uint8Array, tooBig: boolean}>}
 */
async function readCapped(call, stream, cap) {
    const chunks = [];
    let total = 0;
    for (;;) {
        const bytes = await call(stream, 'read_bytes', cap + 1 - total);
        const size = bytes.get_size();
        if (size === 0)
            break;
        total += size;
        if (total > cap)
            return {bytes: null, tooBig: true};
        chunks.push(bytes.toArray());
    }
    const all = new Uint8Array(total);
    let at = 0;
    for (const chunk of chunks) {
        all.set(chunk, at);
        at += chunk.length;
    }
    return {bytes: all, tooBig: false};
}

/**
 * Reads the timeline file asynchronously, never blocking the caller's main loop nor holding
 * more than `cap` + 1 bytes: asks what the path is first (without following a link), opens
 * only a regular file of at most `cap` bytes (so a FIFO is never opened, and a huge file never
 * read), asks the open file again, then reads it with readCapped. Never rejects.
 *
 * @param {object} params
 * @param {object} params.Gio - the Gio module
 * @param {object} params.GLib - the GLib module
 * @param {object} params.file - a Gio.File
 * @param {number} params.cap - the most bytes a timeline may have
 * @param {object} params.cancellable - a Gio.Cancellable: cancelled, it ends what is under way
 * @returns {Promise<object>} what describe() takes: {missing: true}, {error} or {text}
 */
async function readTimelineFile({Gio, GLib, file, cap, cancellable}) {
    const call = gioCall(GLib, cancellable);
    let stream = null;
    try {
        const wrong = notATimeline(Gio, await call(file, 'query_info', PATH_ATTRIBUTES, Gio.FileQueryInfoFlags.NOFOLLOW_SYMLINKS), cap);
        if (wrong)
            return {error: wrong};
        // Opening follows a link and waits for a FIFO's writer (Gio has no O_NONBLOCK): the
        // path was a regular file an instant ago, and what was opened is checked again before
        // a byte is read. A FIFO renamed into place in that instant holds one of Gio's worker
        // threads until something writes to it, never the main loop.
        //
        // The open is not cancellable: a cancelled open that had already opened the file on
        // its worker thread reports CANCELLED and keeps the stream, and its descriptor, in a
        // GTask that only the garbage collector frees. Opened, it is closed below, and a
        // cancel that came meanwhile ends the read here.
        stream = await gioCall(GLib, null)(file, 'read');
        if (cancellable.is_cancelled())
            return {error: 'the read was stopped'};
        const replaced = notATimeline(Gio, await call(stream, 'query_info', OPEN_ATTRIBUTES), cap);
        if (replaced)
            return {error: replaced};
        const {bytes, tooBig} = await readCapped(call, stream, cap);
        if (tooBig)
            return {error: `it is more than ${cap} bytes, too big to be one`};
        try {
            return {text: new TextDecoder('utf-8', {fatal: true}).decode(bytes)};
        } catch (e) {
            return {error: 'it is not UTF-8 text'};
        }
    } catch (e) {
        if (e.matches?.(Gio.IOErrorEnum, Gio.IOErrorEnum.NOT_FOUND))
            return {missing: true};
        return {error: e.message ?? String(e)};
    } finally {
        // Closed even when cancelled: a read that was cancelled still holds its descriptor.
        stream?.close_async(GLib.PRIORITY_DEFAULT, null, (source, result) => {
            try {
                source.close_finish(result);
            } catch (e) {
                // Nothing to do about a close that fails: the read's outcome is already known.
            }
        });
    }
}

/**
 * Keeps what to show current: reads the timeline with Gio (readTimelineFile: asynchronously,
 * capped, only a regular file; never running manna), reads it again when it changes on disk
 * and when the day in force ends, and hands each new state to `onChange`. Its idle cost is one
 * file monitor and one timeout.
 */
var TimelineSource = class TimelineSource {
    /**
     * @param {object} params
     * @param {object} params.Gio - the Gio module
     * @param {object} params.GLib - the GLib module
     * @param {string} params.path - the timeline file
     * @param {function(): number} [params.now] - the clock, ms since the epoch
     * @param {number} [params.cap] - the most bytes read (MAX_TIMELINE_BYTES; a test's smaller)
     * @param {function(object)} params.onChange - gets every state `describe` returns
     */
    constructor({Gio, GLib, path, now = () => Date.now(), cap = MAX_TIMELINE_BYTES, onChange}) {
        this._Gio = Gio;
        this._GLib = GLib;
        this._file = Gio.File.new_for_path(path);
        this._now = now;
        this._cap = cap;
        this._onChange = onChange;
        this._dayAfter = (zone, date, start) => startOfDayAfter(GLib, zone, date, start);
        this._monitor = null;
        this._timeoutId = 0;
        this._cancellable = null;
        this.state = null;
    }

    /** Starts watching and reads the file once. */
    start() {
        // A monitor on the file itself: GLib watches its folder (inotify), so manna's write
        // (a temporary file renamed over it) arrives as one CREATED or RENAMED event, and a
        // folder that does not exist yet is watched for until it does.
        this._monitor = this._file.monitor_file(this._Gio.FileMonitorFlags.WATCH_MOVES, null);
        this._monitor.connect('changed', (monitor, file, otherFile, event) => {
            const E = this._Gio.FileMonitorEvent;
            // CHANGED comes for every write of a file written in place: wait for its end.
            if (event !== E.CHANGED && event !== E.ATTRIBUTE_CHANGED)
                this.refresh();
        });
        this.refresh();
    }

    /** Stops everything start() began, and any read under way. */
    stop() {
        if (this._cancellable) {
            this._cancellable.cancel();
            this._cancellable = null;
        }
        if (this._timeoutId) {
            this._GLib.source_remove(this._timeoutId);
            this._timeoutId = 0;
        }
        if (this._monitor) {
            this._monitor.cancel();
            this._monitor = null;
        }
    }

    /** Reads the file again (a read under way is dropped) and reports what to show. */
    refresh() {
        this._cancellable?.cancel();
        const cancellable = new this._Gio.Cancellable();
        this._cancellable = cancellable;
        readTimelineFile({Gio: this._Gio, GLib: this._GLib, file: this._file, cap: this._cap, cancellable}).then(read => {
            if (cancellable.is_cancelled())
                return;
            this._cancellable = null;
            this._show(describe(read, this._now(), this._dayAfter));
        }).catch(e => logError(e, 'Manna could not show the timeline'));
    }

    _show(state) {
        this.state = state;
        this._arm(state.refreshAt);
        this._onChange(state);
    }

    // One timeout at a time, re-armed after every read: at the instant the day in force ends.
    _arm(refreshAt) {
        if (this._timeoutId) {
            this._GLib.source_remove(this._timeoutId);
            this._timeoutId = 0;
        }
        if (refreshAt === null)
            return;
        // GLib's timeouts take 32 bits of milliseconds; a wait longer than ~49 days (a
        // timeline written far ahead) is done in steps.
        const delay = Math.min(Math.max(refreshAt - this._now(), 0), 0x7fffffff);
        this._timeoutId = this._GLib.timeout_add(this._GLib.PRIORITY_DEFAULT, delay, () => {
            this._timeoutId = 0;
            this.refresh();
            return this._GLib.SOURCE_REMOVE;
        });
    }
};
