// Manna's GNOME Shell extension, the entry point for GNOME Shell 45 and later: ES modules.
// manna install writes it as extension.js, beside timeline.js and indicator.js made modules (an
// export line added: GnomeShellExtension.swift); manna@manna.invalid/extension.js is the entry
// point for 43 and 44. Both only import; what the extension does is indicator.js and timeline.js.
import Clutter from 'gi://Clutter';
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import GObject from 'gi://GObject';
import Pango from 'gi://Pango';
import St from 'gi://St';

import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';
import * as LoginManager from 'resource:///org/gnome/shell/misc/loginManager.js';
import * as Main from 'resource:///org/gnome/shell/ui/main.js';
import * as PanelMenu from 'resource:///org/gnome/shell/ui/panelMenu.js';
import * as PopupMenu from 'resource:///org/gnome/shell/ui/popupMenu.js';

import * as Timeline from './timeline.js';
import {MannaExtension as Manna} from './indicator.js';

export default class MannaExtension extends Extension {
    enable() {
        const shell = {Clutter, Gio, GLib, GObject, Pango, St, Main, PanelMenu, PopupMenu, LoginManager, Timeline};
        this._manna = new Manna(shell, this.uuid);
        this._manna.enable();
    }

    disable() {
        this._manna.disable();
        this._manna = null;
    }
}
