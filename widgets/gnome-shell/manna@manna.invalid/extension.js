// Manna's GNOME Shell extension, the entry point for GNOME Shell 43 and 44: legacy imports.
// gnome45/extension45.js is the one for 45 and later (ES modules; manna install makes that
// folder for the Shell it finds). Both only import; what the extension does is indicator.js and timeline.js.
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
const {MannaExtension} = Me.imports.indicator;

function init() {
    const shell = {Clutter, Gio, GLib, GObject, Pango, St, Main, PanelMenu, PopupMenu, LoginManager, Timeline};
    return new MannaExtension(shell, Me.metadata.uuid);
}
