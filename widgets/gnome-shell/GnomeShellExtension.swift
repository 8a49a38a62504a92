// The GNOME Shell extension's files (manna@manna.invalid/ beside this file), compiled into
// manna by SwiftPM (resources embedded in code: Package.swift, target GnomeShellExtension), so
// `manna install` and the Debian package write them with no checkout at hand, and the
// JavaScript has one copy, the files in that folder. GnomeShellExtensionTests checks that every
// file there is listed here.

/// The extension `manna install` puts in place, for GNOME Shell 43 and 44 (Debian 12's).
public enum GnomeShellExtension {
    /// The folder's name, which GNOME Shell requires to be metadata.json's uuid.
    public static let uuid = "manna@manna.invalid"

    /// Each file's name in the folder and its text, in the order install writes them.
    public static let files: [(name: String, text: String)] = [
        ("metadata.json", PackageResources.metadata_json),
        ("extension.js", PackageResources.extension_js),
        ("indicator.js", PackageResources.indicator_js),
        ("timeline.js", PackageResources.timeline_js),
        ("stylesheet.css", PackageResources.stylesheet_css),
    ].map { ($0.0, String(decoding: $0.1, as: UTF8.self)) }
}
