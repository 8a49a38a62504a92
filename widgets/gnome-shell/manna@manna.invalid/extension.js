// Manna's GNOME Shell extension, the entry point for GNOME Shell 43 and 44 (legacy imports;
// gnome45/extension.js is the one for 45 and later). The day's verse in the panel, from the
// timeline manna's tick writes (docs/timeline.schema.json): read with Gio, never by running
// manna, so it flips at midnight with nothing else running.
/* exported init */
'use strict';

const {Clutter, Gio, GLib, GObject, Pango, St} = imports.gi;
const ExtensionUtils = imports.misc.extensionUtils;
const LoginManager = imports.misc.loginManager;
const Main = imports.ui.main;
const PanelMenu = imports.ui.panelMenu;
const PopupMenu = imports.ui.popupMenu;

const Me = ExtensionUtils.getCurrentExtension();
const Timeline = Me.imports.timeline;
const {defineIndicator} = Me.imports.indicator;

class MannaExtension {
    enable() {
        const MannaIndicator = defineIndicator({
            GObject, GLib, Gio, St, Clutter, Pango, PanelMenu, PopupMenu, Timeline,
            launchContext: () => global.create_app_launch_context(0, -1),
            notifyError: (title, body) => Main.notifyError(title, body),
        });
        this._indicator = new MannaIndicator();
        Main.panel.addToStatusArea(Me.metadata.uuid, this._indicator);
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
}

function init() {
    return new MannaExtension();
}
