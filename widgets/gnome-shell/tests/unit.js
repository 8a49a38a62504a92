// Unit tests of the extension's logic (timeline.js) under plain gjs, with fixed clocks:
//
//   gjs -m unit.js legacy|module EXTENSION_DIR FIXTURES_DIR
//
// `legacy` loads EXTENSION_DIR/timeline.js through GJS's legacy importer, as GNOME Shell 43-44
// do; `module` imports it as an ES module, as 45+ do (the folder `manna install --gnome-shell 45`
// writes). run-unit runs both. Prints a line per test and exits 1 if any failed.
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import System from 'system';

const [mode, extensionDir, fixturesDir] = ARGV;
let T, Indicator;
// In module mode, how importing the entry point failed: outside GNOME Shell it must get as far
// as asking for the Shell's own modules, which shows it parses as a module.
let entryPointError = null;
if (mode === 'legacy') {
    imports.searchPath.unshift(extensionDir);
    T = imports.timeline;
    Indicator = imports.indicator;
} else if (mode === 'module') {
    T = await import(`file://${extensionDir}/timeline.js`);
    Indicator = await import(`file://${extensionDir}/indicator.js`);
    try {
        await import(`file://${extensionDir}/extension.js`);
    } catch (e) {
        entryPointError = e;
    }
} else {
    printerr('usage: gjs -m unit.js legacy|module EXTENSION_DIR FIXTURES_DIR');
    System.exit(64);
}

const ms = text => {
    const value = Date.parse(text);
    if (!Number.isFinite(value))
        throw new Error(`bad instant in a test: ${text}`);
    return value;
};
const HOUR = 3600 * 1000;
const dayAfter = (zone, date, start) => T.startOfDayAfter(GLib, zone, date, start);

function fixture(name) {
    const [, bytes] = GLib.file_get_contents(`${fixturesDir}/${name}`);
    return new TextDecoder().decode(bytes);
}

class Failure extends Error {}
function check(condition, what) {
    if (!condition)
        throw new Failure(what);
}
function equal(actual, expected, what) {
    const a = JSON.stringify(actual), e = JSON.stringify(expected);
    if (a !== e)
        throw new Failure(`${what}: expected ${e}, got ${a}`);
}

/** describe() on a fixture at an instant: the state. */
function stateAt(name, instant) {
    return T.describe({text: fixture(name)}, ms(instant), dayAfter);
}

/** The fixture's own entry for `date`, to compare what was chosen with. */
function entryFor(name, date) {
    const raw = JSON.parse(fixture(name)).entries.find(e => e.date === date);
    check(raw, `${name} has no entry for ${date}`);
    return raw;
}

function expectDay(name, instant, date, refreshAt) {
    const state = stateAt(name, instant);
    check(!state.quiet, `at ${instant}: quiet (${state.why}), expected ${date}`);
    equal(state.entry.date, date, `the entry in force at ${instant}`);
    equal(state.label, entryFor(name, date).verse.reference, `the panel's label at ${instant}`);
    equal(new Date(state.refreshAt).toISOString(), new Date(ms(refreshAt)).toISOString(), `the next look at ${instant}`);
}

function expectQuiet(state, why, hint = T.RUN_HINT) {
    check(state.quiet, `expected a quiet state (${why}), got ${state.label}`);
    equal(state.label, 'Manna', 'the quiet panel label');
    check(state.why.includes(why), `expected the reason to say "${why}", it says "${state.why}"`);
    equal(state.hint, hint, 'the hint');
}

const tests = [];
const test = (name, body) => tests.push({name, body});

// MARK: - Choosing the day

test('reads what manna writes', () => {
    const {timeline, problem} = T.parseTimeline(fixture('new-york-march.json'));
    equal(problem, undefined, 'the problem');
    equal(timeline.timeZone, 'America/New_York', 'the zone');
    equal(timeline.entries.length, 7, 'the entries');
    const first = timeline.entries[0], raw = entryFor('new-york-march.json', '2026-03-07');
    equal([first.reference, first.translation, first.text], [raw.verse.reference, raw.verse.translation, raw.verse.text], 'the verse');
    equal(first.plan.days, 365, "the plan's length");
});

test('in the middle of a day, that day; the next look at the next midnight (policy.after)', () => {
    expectDay('utc-december.json', '2026-12-01T10:00:00Z', '2026-12-01', '2026-12-02T00:00:00Z');
});

test('the day flips at its first instant, not a millisecond before', () => {
    expectDay('utc-december.json', '2026-12-01T23:59:59.999Z', '2026-12-01', '2026-12-02T00:00:00Z');
    expectDay('utc-december.json', '2026-12-02T00:00:00Z', '2026-12-02', '2026-12-03T00:00:00Z');
});

test('with policy.after past (no tick ran), each later day still comes at its midnight', () => {
    expectDay('utc-december.json', '2026-12-05T08:00:00Z', '2026-12-05', '2026-12-06T00:00:00Z');
});

test('DST spring forward: 2026-03-08 in New York lasts 23 hours', () => {
    // 00:00-05:00 to 00:00-04:00 (EDT from 02:00), so the flip is 04:00Z, not 05:00Z.
    expectDay('new-york-march.json', '2026-03-08T00:00:00-05:00', '2026-03-08', '2026-03-09T00:00:00-04:00');
    expectDay('new-york-march.json', '2026-03-08T23:59:59-04:00', '2026-03-08', '2026-03-09T00:00:00-04:00');
    expectDay('new-york-march.json', '2026-03-09T00:00:00-04:00', '2026-03-09', '2026-03-10T00:00:00-04:00');
});

test('DST fall back: 2026-11-01 in New York lasts 25 hours', () => {
    expectDay('new-york-november.json', '2026-11-01T01:30:00-04:00', '2026-11-01', '2026-11-02T00:00:00-05:00');
    expectDay('new-york-november.json', '2026-11-01T01:30:00-05:00', '2026-11-01', '2026-11-02T00:00:00-05:00');
    // 23:30 EST is 24.5 hours after the day began: still the 1st.
    expectDay('new-york-november.json', '2026-11-01T23:30:00-05:00', '2026-11-01', '2026-11-02T00:00:00-05:00');
    expectDay('new-york-november.json', '2026-11-02T00:00:00-05:00', '2026-11-02', '2026-11-03T00:00:00-05:00');
});

test("the timeline's last day ends at its zone's next midnight, DST included", () => {
    // Cut to end with 2026-03-08: its day ends at 04:00Z, an hour before 24 hours would.
    const raw = JSON.parse(fixture('new-york-march.json'));
    raw.entries = raw.entries.slice(0, 2);
    const text = JSON.stringify(raw);
    const before = T.describe({text}, ms('2026-03-09T03:59:59Z'), dayAfter);
    equal(before.entry?.date, '2026-03-08', 'the last day, a second before its end');
    equal(before.refreshAt, ms('2026-03-09T04:00:00Z'), 'the next look: the end of the last day');
    expectQuiet(T.describe({text}, ms('2026-03-09T04:00:00Z'), dayAfter), 'ended with 2026-03-08',
        `${T.RUN_HINT} (manna doctor checks the timer that keeps it current)`);
});

test('an unknown zone: the last day lasts 24 hours', () => {
    equal(T.startOfDayAfter(GLib, 'Nowhere/Atlantis', '2026-03-08', ms('2026-03-08T05:00:00Z')), ms('2026-03-09T05:00:00Z'), 'the end');
});

test('a stale timeline: a quiet state that says what to run, with no timeout', () => {
    const state = stateAt('utc-december.json', '2026-12-08T00:00:00Z');
    expectQuiet(state, 'ended with 2026-12-07', `${T.RUN_HINT} (manna doctor checks the timer that keeps it current)`);
    equal(state.refreshAt, null, 'the next look');
    equal(stateAt('utc-december.json', '2026-12-07T23:59:59Z').entry.date, '2026-12-07', 'the last day before its end');
});

test('a clock set back before the first day: quiet until that day begins', () => {
    const state = stateAt('utc-december.json', '2026-11-30T12:00:00Z');
    expectQuiet(state, 'begins on 2026-12-01, after today');
    equal(state.refreshAt, ms('2026-12-01T00:00:00Z'), 'the next look: when the first day begins');
});

// MARK: - Bad input: a quiet state, never an exception

test('a missing file', () => {
    expectQuiet(T.describe({missing: true}, ms('2026-12-01T10:00:00Z'), dayAfter), 'No timeline yet');
});

test('an unreadable file', () => {
    expectQuiet(T.describe({error: 'Permission denied'}, ms('2026-12-01T10:00:00Z'), dayAfter), 'cannot be read: Permission denied');
});

test('corrupt timelines each say what is wrong', () => {
    const good = JSON.parse(fixture('utc-december.json'));
    const variant = change => {
        const copy = JSON.parse(JSON.stringify(good));
        change(copy);
        return JSON.stringify(copy);
    };
    const cases = [
        ['', 'not JSON'],
        [fixture('utc-december.json').slice(0, 700), 'not JSON'],
        ['[1, 2]', 'not a JSON object'],
        ['null', 'not a JSON object'],
        [variant(t => delete t.version), 'no version 1'],
        [variant(t => (t.version = '1')), 'no version 1'],
        [variant(t => delete t.time_zone), 'time_zone is missing'],
        [variant(t => (t.policy = null)), 'policy.after'],
        [variant(t => (t.policy.after = '2026-12-02T00:00:00')), 'policy.after'],
        [variant(t => (t.entries = [])), 'no entries'],
        [variant(t => (t.entries = {})), 'no entries'],
        [variant(t => (t.entries[1] = 'x')), 'entries[1] is not an object'],
        [variant(t => (t.entries[0].date = '2026-12-1')), 'entries[0].date'],
        [variant(t => (t.entries[0].start = '2026-12-01')), 'entries[0].start'],
        [variant(t => (t.entries[0].start = 'tomorrow')), 'entries[0].start'],
        [variant(t => delete t.entries[2].verse.text), 'entries[2].verse'],
        [variant(t => (t.entries[2].verse.reference = 7)), 'entries[2].verse'],
        [variant(t => (t.entries[0].plan = {name: 'x', day: 0, days: 3, readings: ['Gen 1']})), 'entries[0].plan'],
        [variant(t => (t.entries[0].plan = {name: 'x', day: 1, days: 3, readings: []})), 'entries[0].plan'],
        [variant(t => (t.entries[0].reminders = [{time: '7:00', kind: 'verse'}])), 'entries[0].reminders'],
        [variant(t => delete t.entries[0].reminders), 'entries[0].reminders'],
        [variant(t => (t.entries[1].start = t.entries[0].start)), 'entries[1] does not start after'],
    ];
    for (const [text, why] of cases)
        expectQuiet(T.describe({text}, ms('2026-12-01T10:00:00Z'), dayAfter), why);
});

test('a newer format asks for a newer extension', () => {
    const raw = JSON.parse(fixture('utc-december.json'));
    raw.version = 2;
    expectQuiet(T.describe({text: JSON.stringify(raw)}, ms('2026-12-01T10:00:00Z'), dayAfter), 'version 2, newer',
        'Update the extension: manna install');
});

// MARK: - The menu's words

test('the plan step and the reminders, worded for the menu', () => {
    const state = stateAt('new-york-march.json', '2026-03-09T12:00:00-04:00');
    const plan = entryFor('new-york-march.json', '2026-03-09').plan;
    equal(T.planSummary(state.entry.plan), `${plan.name} · Day ${plan.day} of 365: ${plan.readings.join('; ')}`, 'the plan step');
    // 2026-03-09 is a Monday: the prayer reminder (mon,wed,fri 21:00) comes, its text never.
    equal(T.reminderSummary(state.entry.reminders), '07:00 verse · 20:00 reading · 21:00 prayer', 'the reminders');
    equal(T.reminderSummary([]), null, 'no reminders');
    equal(stateAt('utc-december.json', '2026-12-01T10:00:00Z').entry.plan, null, 'no plan');
});

test('every line shown is one line of text, without controls, and bounded with "…"', () => {
    const cases = [
        ['Psalm 23:1', 10, 'Psalm 23:1'],
        ['Psalm\u001b]0;owned\u0007 23\r\n:1', 40, 'Psalm ]0;owned  23 :1'],  // a run of controls: one space
        ['\u202eJohn 3:16\u2066x\u2069', 40, ' John 3:16 x '],
        ['a\u2028b\u0085c\u007fd\u0000e\tf', 40, 'a b c d e f'],
        // Markup is text: St labels are set with set_text (use_markup false), so it shows as written.
        ['<b>John</b> &amp; <span foreground="red">3</span>', 100, '<b>John</b> &amp; <span foreground="red">3</span>'],
        ['In the beginning God created the heaven and the earth.', 30, 'In the beginning God created…'],
        ['In the beginning, God created', 20, 'In the beginning…'],
        ['Abcdefghijklmnopqrstuvwxyz', 10, 'Abcdefghi…'],
        ['😀'.repeat(50), 5, `${'😀'.repeat(4)}…`],
        ['é'.repeat(10), 10, 'é'.repeat(10)],
    ];
    for (const [text, limit, expected] of cases)
        equal(T.shownText(text, limit), expected, `shownText(${JSON.stringify(text)}, ${limit})`);
});

test('a hostile timeline: the panel and every line of the menu bounded, without controls; Read in terminal gets the reference as written', () => {
    const raw = JSON.parse(fixture('new-york-march.json'));
    const day = raw.entries.find(e => e.date === '2026-03-09');
    const long = word => Array(20000).fill(word).join(' ');
    day.verse.reference = `\u001b[2J\u001b]0;owned\u0007${long('Ps')}`;
    day.verse.translation = `KJV\n${long('x')}`;
    day.verse.text = `<i>${long('word\u202e')}</i>`;
    day.plan.name = long('plan');
    day.plan.readings = Array(5000).fill('Gen 1\r\n');
    day.reminders = Array(5000).fill({time: '21:00', kind: 'prayer\u0007'});
    const state = T.describe({text: JSON.stringify(raw)}, ms('2026-03-09T12:00:00-04:00'), dayAfter);
    check(!state.quiet, `quiet: ${state.why}`);
    const L = T.LINE_LIMITS;
    const limits = {panel: L.panel, heading: L.reference + L.translation + 3, verse: L.verse, plan: L.plan, reminders: L.reminders};
    for (const [name, limit] of Object.entries(limits)) {
        const line = state.lines[name];
        check(typeof line === 'string', `${name}: ${line}`);
        check(Array.from(line).length <= limit, `${name}: ${Array.from(line).length} characters, more than ${limit}`);
        check(line.includes('…'), `${name} is an excerpt: ${line.slice(-20)}`);
        check(!/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u.test(line), `${name} holds a control character`);
    }
    equal(state.label, state.lines.panel, "the panel's label");
    equal(state.entry.reference, day.verse.reference, 'the reference Read in terminal passes to manna read, as written');
    // A quiet state's reason (an error message naming the path) is bounded and cleaned too.
    const quiet = T.describe({error: `Error opening file /home/\u001b[31m${'x'.repeat(5000)}`}, ms('2026-12-01T10:00:00Z'), dayAfter);
    check(Array.from(quiet.lines.heading).length <= L.why && !quiet.lines.heading.includes('\u001b'), `the quiet heading: ${quiet.lines.heading.slice(0, 80)}`);
    equal([quiet.lines.panel, quiet.lines.verse, quiet.lines.plan, quiet.lines.reminders], ['Manna', T.RUN_HINT, null, null], 'the quiet lines');
});

test('a sound day: the lines are what manna wrote, whole', () => {
    const state = stateAt('new-york-march.json', '2026-03-09T12:00:00-04:00');
    const raw = entryFor('new-york-march.json', '2026-03-09');
    equal(state.lines, {
        panel: raw.verse.reference,
        heading: `${raw.verse.reference} (${raw.verse.translation})`,
        verse: raw.verse.text,
        plan: T.planSummary(state.entry.plan),
        reminders: `Reminders: ${T.reminderSummary(state.entry.reminders)}`,
    }, 'the lines');
    equal(stateAt('utc-december.json', '2026-12-01T10:00:00Z').lines.plan, null, 'no plan: no plan line');
});

test("the timeline's path follows XDG_CACHE_HOME, a relative one ignored", () => {
    equal(T.timelinePath(() => '/x/cache', '/home/a'), '/x/cache/manna/timeline.json', 'XDG_CACHE_HOME');
    equal(T.timelinePath(() => null, '/home/a'), '/home/a/.cache/manna/timeline.json', 'unset');
    equal(T.timelinePath(() => 'rel', '/home/a'), '/home/a/.cache/manna/timeline.json', 'relative');
});

// MARK: - Read in terminal

test('Read in terminal: x-terminal-emulator, else gnome-terminal, else GIO\'s list; the reference an argument, never script', () => {
    const script = 'manna read "$1" --translation "$2"; echo; echo Press Enter to close.; read answer';
    const reference = 'Psalm 23:1 "$(touch /tmp/owned)" \'x\'';
    const argv = commandLine => GLib.shell_parse_argv(commandLine)[1];
    const found = (...names) => program => names.includes(program) ? `/usr/bin/${program}` : null;
    let made = Indicator.terminalCommandLine(GLib, reference, 'KJV', found('x-terminal-emulator', 'gnome-terminal'));
    equal([argv(made.commandLine), made.needsTerminal],
        [['/usr/bin/x-terminal-emulator', '-e', 'sh', '-c', script, 'sh', reference, 'KJV'], false], 'with x-terminal-emulator');
    made = Indicator.terminalCommandLine(GLib, reference, 'WEB', found('gnome-terminal'));
    equal([argv(made.commandLine), made.needsTerminal],
        [['/usr/bin/gnome-terminal', '--', 'sh', '-c', script, 'sh', reference, 'WEB'], false], 'with gnome-terminal');
    made = Indicator.terminalCommandLine(GLib, reference, 'ASV', found());
    equal([argv(made.commandLine), made.needsTerminal], [['sh', '-c', script, 'sh', reference, 'ASV'], true], 'with neither');
});

test('Open in Manna: the reader window where manna-reader is on PATH, the reference and translation its arguments', () => {
    const reference = 'Psalm 23:1 "$(touch /tmp/owned)" \'x\'';
    const argv = commandLine => GLib.shell_parse_argv(commandLine)[1];
    const found = (...names) => program => names.includes(program) ? `/usr/bin/${program}` : null;
    let made = Indicator.readCommandLine(GLib, reference, 'KJV', found('manna-reader', 'x-terminal-emulator'));
    equal([argv(made.commandLine), made.needsTerminal, made.inWindow], [['/usr/bin/manna-reader', reference, 'KJV'], false, true],
        'with manna-reader');
    made = Indicator.readCommandLine(GLib, reference, 'WEB', found('x-terminal-emulator'));
    const terminal = Indicator.terminalCommandLine(GLib, reference, 'WEB', found('x-terminal-emulator'));
    equal([made.commandLine, made.needsTerminal, made.inWindow], [terminal.commandLine, false, false], 'without it, the terminal');
});

if (mode === 'module') {
    test('the GNOME 45 entry point parses as an ES module and imports the Shell\'s', () => {
        check(entryPointError !== null, 'extension.js loaded outside GNOME Shell');
        equal(entryPointError.name, 'ImportError', `importing extension.js failed with ${entryPointError}`);
        check(entryPointError.message.includes('resource:///org/gnome/shell/'), `importing extension.js: ${entryPointError.message}`);
    });
}

// MARK: - The source: files on disk, a file monitor and a timeout, on a real main loop

const loop = new GLib.MainLoop(null, false);

/**
 * Runs the loop until `predicate` holds, or fails after `seconds`. Returns the longest the
 * loop went without running its 5 ms poll, in ms: how long something held the main loop.
 */
function waitFor(what, predicate, seconds = 5) {
    if (predicate())
        return 0;
    let timedOut = false;
    const deadline = GLib.timeout_add(GLib.PRIORITY_DEFAULT, seconds * 1000, () => {
        timedOut = true;
        loop.quit();
        return GLib.SOURCE_REMOVE;
    });
    let last = GLib.get_monotonic_time(), longest = 0;
    const poll = GLib.timeout_add(GLib.PRIORITY_DEFAULT, 5, () => {
        const now = GLib.get_monotonic_time();
        longest = Math.max(longest, (now - last) / 1000);
        last = now;
        if (!predicate())
            return GLib.SOURCE_CONTINUE;
        loop.quit();
        return GLib.SOURCE_REMOVE;
    });
    loop.run();
    if (timedOut)
        GLib.source_remove(poll);
    else
        GLib.source_remove(deadline);
    check(!timedOut, `waited ${seconds} s for ${what}`);
    return longest;
}

/** Lets the loop run for `msToWait`, for what must not happen. */
function idle(msToWait) {
    GLib.timeout_add(GLib.PRIORITY_DEFAULT, msToWait, () => {
        loop.quit();
        return GLib.SOURCE_REMOVE;
    });
    loop.run();
}

/** Writes `text` to `path` as manna does: beside it, then renamed over it (rename(2)). */
function writeAtomically(path, text) {
    GLib.file_set_contents(`${path}.tmp`, text);
    Gio.File.new_for_path(`${path}.tmp`).move(Gio.File.new_for_path(path), Gio.FileCopyFlags.OVERWRITE, null, null);
}

/** Scratch folders made during a test; runTests removes them after it, passed or failed. */
const scratchFolders = [];

function scratchFolder() {
    const folder = GLib.dir_make_tmp('manna-extension-XXXXXX');
    scratchFolders.push(folder);
    return folder;
}

function withSource(path, now, body) {
    const states = [];
    const source = new T.TimelineSource({Gio, GLib, path, now, onChange: s => states.push(s)});
    source.start();
    try {
        body(source, states);
    } finally {
        source.stop();
    }
}

test('the source re-reads the file when manna replaces it, and when it goes', () => {
    const folder = scratchFolder();
    const path = `${folder}/manna/timeline.json`;
    GLib.mkdir_with_parents(`${folder}/manna`, 0o700);
    writeAtomically(path, fixture('utc-december.json'));
    const fixed = () => ms('2026-12-01T10:00:00Z');
    withSource(path, fixed, (source, states) => {
        waitFor('the first read', () => states.length === 1);
        equal(states[0].entry?.date, '2026-12-01', 'first read');
        const changed = JSON.parse(fixture('utc-december.json'));
        changed.entries[0].verse.reference = 'Changed 1:1';
        writeAtomically(path, JSON.stringify(changed));
        waitFor('the re-read after a rename', () => states.at(-1).label === 'Changed 1:1');
        const reads = states.length;
        idle(200);
        equal(states.length, reads, 'reads after one write (one, not one per event)');
        GLib.unlink(path);
        waitFor('the re-read after a delete', () => states.at(-1).quiet);
        expectQuiet(states.at(-1), 'No timeline yet');
        // Written in place (not renamed): read once it is closed.
        GLib.file_set_contents(path, '{"version": 1');
        waitFor('the re-read of a corrupt file', () => states.at(-1).why?.includes('not JSON'));
        writeAtomically(path, fixture('utc-december.json'));
        waitFor('the re-read of a sound file', () => states.at(-1).entry?.date === '2026-12-01');
    });
});

test('the source flips at midnight by its timeout alone, and re-arms it for the next day', () => {
    const folder = scratchFolder();
    const path = `${folder}/timeline.json`;
    writeAtomically(path, fixture('utc-december.json'));
    // A clock 300 ms before 2026-12-02's midnight, running at real speed.
    const offset = ms('2026-12-02T00:00:00Z') - 300 - Date.now();
    withSource(path, () => Date.now() + offset, (source, states) => {
        waitFor('the first read', () => states.length === 1);
        equal(states[0].entry.date, '2026-12-01', 'before midnight');
        waitFor('the midnight flip', () => states.length === 2, 3);
        equal(states[1].entry.date, '2026-12-02', 'after midnight');
        equal(states[1].refreshAt, ms('2026-12-03T00:00:00Z'), 'the next look');
        check(source._timeoutId !== 0, 'a timeout armed for the next midnight');
    });
});

test('stop() removes the monitor and the timeout: nothing more is read', () => {
    const folder = scratchFolder();
    const path = `${folder}/timeline.json`;
    writeAtomically(path, fixture('utc-december.json'));
    const states = [];
    const source = new T.TimelineSource({Gio, GLib, path, now: () => ms('2026-12-01T10:00:00Z'), onChange: s => states.push(s)});
    source.start();
    waitFor('the first read', () => states.length === 1);
    source.stop();
    check(source._timeoutId === 0 && source._monitor === null, 'nothing left after stop()');
    writeAtomically(path, '');
    idle(300);
    equal(states.length, 1, 'states after stop()');
});

test('stop() during a read: the read reports nothing', () => {
    const folder = scratchFolder();
    const path = `${folder}/timeline.json`;
    writeAtomically(path, fixture('utc-december.json'));
    const states = [];
    const source = new T.TimelineSource({Gio, GLib, path, onChange: s => states.push(s)});
    source.start();
    source.stop();
    idle(200);
    equal(states.length, 0, 'states after stop() during the first read');
});

test('a file that is not UTF-8, or far too big, is a quiet state', () => {
    const folder = scratchFolder();
    const path = `${folder}/timeline.json`;
    GLib.file_set_contents(path, new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]));
    withSource(path, () => ms('2026-12-01T10:00:00Z'), (source, states) => {
        waitFor('the read', () => states.length === 1);
        expectQuiet(states[0], 'not UTF-8 text');
        GLib.file_set_contents(path, new Uint8Array(T.MAX_TIMELINE_BYTES + 1));
        waitFor('the re-read', () => states.at(-1).why?.includes('too big'));
    });
});

// MARK: - Files that are not a timeline manna wrote

/** This process's peak resident memory (VmHWM), in bytes. */
function peakMemory() {
    const [, bytes] = GLib.file_get_contents('/proc/self/status');
    const kB = /^VmHWM:\s+(\d+) kB$/m.exec(new TextDecoder().decode(bytes));
    check(kB, 'no VmHWM in /proc/self/status');
    return Number(kB[1]) * 1024;
}

function run(...argv) {
    const [, , stderr, status] = GLib.spawn_sync(null, argv, null, GLib.SpawnFlags.SEARCH_PATH, null);
    check(status === 0, `${argv.join(' ')}: ${new TextDecoder().decode(stderr)}`);
}

const MB = 1024 * 1024;

test('a FIFO, /dev/zero through a link, a folder, a huge file, an unreadable one, a link elsewhere: each quiet (no hang), memory bounded, the loop free', () => {
    // [what, make(path): the path to watch when not `path`, what the quiet state says]
    const cases = [
        ['a FIFO', path => run('mkfifo', path), 'it is a named pipe (FIFO), not a file'],
        ['a symbolic link to /dev/zero', path => run('ln', '-s', '/dev/zero', path), 'it is a symbolic link'],
        ['/dev/zero itself', () => '/dev/zero', 'it is a device, not a file'],
        ['a folder', path => {
            GLib.mkdir_with_parents(path, 0o700);
        }, 'it is a folder'],
        ['a 150 MB sparse file', path => run('truncate', '-s', '150M', path), 'it is 157286400 bytes, too big'],
        ['a file one byte over the limit', path => run('truncate', '-s', `${T.MAX_TIMELINE_BYTES + 1}`, path), 'too big'],
        ['an unreadable file', path => {
            GLib.file_set_contents(path, fixture('utc-december.json'));
            run('chmod', '000', path);
            // Root reads a mode 000 file (CAP_DAC_OVERRIDE): run-unit drops that capability.
            let readable = true;
            try {
                GLib.file_get_contents(path);
            } catch (e) {
                readable = false;
            }
            check(!readable, 'this process reads a mode 000 file: run it through run-unit, which drops CAP_DAC_OVERRIDE');
        }, 'Permission denied'],
        ['a symbolic link to a sound timeline elsewhere', path => {
            GLib.file_set_contents(`${path}.elsewhere`, fixture('utc-december.json'));
            run('ln', '-s', `${path}.elsewhere`, path);
        }, 'it is a symbolic link'],
        ['a path under a file', path => {
            GLib.file_set_contents(path, '');
            return `${path}/timeline.json`;
        }, 'Not a directory'],
    ];
    const failures = [];
    for (const [what, make, why] of cases) {
        const folder = scratchFolder();
        try {
            badFileCase(what, make(`${folder}/timeline.json`) ?? `${folder}/timeline.json`, why);
        } catch (e) {
            failures.push(e instanceof Failure ? e.message : `${what}: ${e}`);
        }
    }
    check(failures.length === 0, `${failures.length} of ${cases.length}:\n    ${failures.join('\n    ')}`);
});

/** One case of the table above, its file made at `path`: the source started, its one state checked. */
function badFileCase(what, path, why) {
    const before = peakMemory();
    withSource(path, () => ms('2026-12-01T10:00:00Z'), (source, states) => {
        let held;
        try {
            held = waitFor('the quiet state', () => states.length > 0);
        } catch (e) {
            throw new Failure(`${what}: ${e.message} (memory grew by ${Math.round((peakMemory() - before) / MB)} MB)`);
        }
        check(states.length === 1, `${what}: ${states.length} states`);
        check(states[0].quiet && states[0].why.includes(why), `${what}: expected a quiet state saying "${why}", got "${states[0].why ?? states[0].label}"`);
        expectQuiet(states[0], why);
        check(states[0].why.startsWith('The timeline cannot be read: '), `${what}: ${states[0].why}`);
        const grown = peakMemory() - before;
        check(grown < 16 * MB, `${what}: memory grew by ${Math.round(grown / MB)} MB`);
        check(held < 250, `${what}: the main loop was held for ${held} ms`);
    });
}

test('a file replaced between the question and the open: what was opened is asked again, before a byte is read', () => {
    const folder = scratchFolder();
    const sound = `${folder}/timeline.json`;
    GLib.file_set_contents(sound, fixture('utc-december.json'));
    run('truncate', '-s', '150M', `${folder}/huge`);
    // The path answers as the sound file, and opening it gives another: the race, made certain.
    const swapped = opened => ({
        query_info_async: (...args) => Gio.File.new_for_path(sound).query_info_async(...args),
        read_async: (...args) => Gio.File.new_for_path(opened).read_async(...args),
    });
    for (const [opened, why] of [['/dev/zero', 'it is a device, not a file'], [`${folder}/huge`, 'it is 157286400 bytes, too big']]) {
        let read = null;
        T.readTimelineFile({Gio, GLib, file: swapped(opened), cap: T.MAX_TIMELINE_BYTES, cancellable: new Gio.Cancellable()})
            .then(r => (read = r));
        waitFor(`the read of ${opened}`, () => read !== null);
        check(read.error?.includes(why), `${opened} opened in its place: ${JSON.stringify(read)}`);
    }
});

/** How many of this process's descriptors are open on `path`. */
function descriptorsOn(path) {
    const fds = Gio.File.new_for_path('/proc/self/fd');
    const children = fds.enumerate_children('standard::symlink-target', Gio.FileQueryInfoFlags.NOFOLLOW_SYMLINKS, null);
    let count = 0;
    for (let info; (info = children.next_file(null));)
        count += info.get_symlink_target() === path ? 1 : 0;
    children.close(null);
    return count;
}

test('a read stopped after its open began, once the file is open, closes it', () => {
    // The race of a busy machine, made certain: the stop comes after GIO's worker thread has
    // opened the file and before the open's answer reaches the main loop.
    const folder = scratchFolder();
    const path = `${folder}/timeline.json`;
    GLib.file_set_contents(path, fixture('utc-december.json'));
    const cancellable = new Gio.Cancellable();
    const real = Gio.File.new_for_path(path);
    const file = {
        query_info_async: (...args) => real.query_info_async(...args),
        read_async: (...args) => {
            real.read_async(...args);
            const deadline = GLib.get_monotonic_time() + 2000000;
            while (descriptorsOn(path) === 0 && GLib.get_monotonic_time() < deadline)
                GLib.usleep(1000);
            check(descriptorsOn(path) === 1, 'the worker thread opened the file within 2 s');
            cancellable.cancel();
        },
    };
    let read = null;
    T.readTimelineFile({Gio, GLib, file, cap: T.MAX_TIMELINE_BYTES, cancellable}).then(r => (read = r));
    waitFor('the stopped read to end', () => read !== null);
    check(read.text === undefined, `a stopped read gives no text: ${JSON.stringify(read)}`);
    // Without the fix the descriptor stays open until the garbage collector runs, seconds on.
    waitFor(`the descriptor on the file to close (${descriptorsOn(path)} open)`, () => descriptorsOn(path) === 0, 2);
});

test('a file that claims 0 bytes and holds more (as /proc\'s do) is read only to the cap', () => {
    // /proc/self/maps: a regular file whose size says 0; this process's map is kilobytes.
    const states = [];
    const source = new T.TimelineSource({Gio, GLib, path: '/proc/self/maps', cap: 100, now: () => ms('2026-12-01T10:00:00Z'),
        onChange: s => states.push(s)});
    source.start();
    try {
        waitFor('the read', () => states.length > 0);
        expectQuiet(states[0], 'it is more than 100 bytes, too big');
    } finally {
        source.stop();
    }
});

test('readCapped reads at most the cap and one byte more, whatever the stream holds', () => {
    const read = (size, cap) => {
        const stream = Gio.MemoryInputStream.new_from_bytes(new GLib.Bytes(new Uint8Array(size).fill(0x61)));
        let result = null;
        T.readCapped(T.gioCall(GLib, null), stream, cap).then(r => (result = r), e => (result = {e}));
        waitFor('readCapped', () => result !== null);
        check(!result.e, `readCapped threw ${result.e}`);
        return [result.tooBig, result.bytes?.length ?? null, stream.tell()];
    };
    equal(read(10 * 1024 * 1024, 1000), [true, null, 1001], 'a stream of 10 MB, a cap of 1000');
    equal(read(1001, 1000), [true, null, 1001], 'one byte over');
    equal(read(1000, 1000), [false, 1000, 1000], 'exactly the cap');
    equal(read(0, 1000), [false, 0, 0], 'empty');
});

test('reads stopped at any step close the file, and report nothing after stop()', () => {
    const folder = scratchFolder();
    const path = `${folder}/timeline.json`;
    writeAtomically(path, fixture('utc-december.json'));
    const openFiles = () => {
        const children = Gio.File.new_for_path('/proc/self/fd').enumerate_children('standard::name', Gio.FileQueryInfoFlags.NONE, null);
        let count = 0;
        while (children.next_file(null))
            count++;
        children.close(null);
        return count;
    };
    const before = openFiles();
    for (let i = 0; i < 20; i++) {
        const states = [];
        const source = new T.TimelineSource({Gio, GLib, path, onChange: s => states.push(s)});
        source.start();
        idle(i % 5);  // stopped before the first step, or after a few
        source.stop();
        const shown = states.length;
        idle(20);
        equal(states.length, shown, 'states after stop()');
    }
    // A stopped read closes its stream asynchronously, on GIO's worker threads: on a busy machine
    // that can take longer than any fixed pause, so the test waits for it (or fails after 5 s).
    waitFor(`the descriptors of 20 reads stopped at various steps to close (${before} before, ${openFiles()} now)`,
        () => openFiles() === before);
});

test('a cache folder that does not exist yet: the timeline is found once manna writes it', () => {
    const folder = scratchFolder();
    const path = `${folder}/manna/timeline.json`;
    withSource(path, () => ms('2026-12-01T10:00:00Z'), (source, states) => {
        waitFor('the first read', () => states.length === 1);
        expectQuiet(states[0], 'No timeline yet');
        GLib.mkdir_with_parents(`${folder}/manna`, 0o700);
        writeAtomically(path, fixture('utc-december.json'));
        // GLib watches for a missing folder by polling it every 4 s.
        waitFor('the read once it exists', () => states.at(-1).entry?.date === '2026-12-01', 8);
    });
});

function runTests() {
    let failed = 0;
    for (const {name, body} of tests) {
        try {
            body();
            print(`ok: ${name}`);
        } catch (e) {
            failed++;
            print(`FAILED: ${name}: ${e instanceof Failure ? e.message : `${e}\n${e.stack}`}`);
        } finally {
            for (const folder of scratchFolders.splice(0))
                run('rm', '-rf', folder);
        }
    }
    return failed;
}

// After an `await` (module mode's imports) the rest of this module runs as a promise job, and
// GJS runs no other job until it ends: a promise the extension awaits would never settle in
// the main loop a test spins. So the tests run from an idle callback, outside any job.
const failed = await new Promise(resolve => GLib.idle_add(GLib.PRIORITY_DEFAULT, () => {
    resolve(runTests());
    return GLib.SOURCE_REMOVE;
}));
print(`${mode}: ${tests.length - failed} passed, ${failed} failed`);
System.exit(failed ? 1 : 0);
