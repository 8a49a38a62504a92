// The GNOME Shell extension's files (manna@manna.invalid/ beside this file, and gnome45/'s entry
// point), compiled into manna by SwiftPM (resources embedded in code: Package.swift, target
// GnomeShellExtension), so `manna install` and the Debian package write them with no checkout
// at hand, and the JavaScript has one copy, the files in those folders.
// GnomeShellExtensionTests checks that every file there is listed here.

/// The extension `manna install` puts in place, made for the GNOME Shell it will run in.
public enum GnomeShellExtension {
    /// The folder's name, which GNOME Shell requires to be metadata.json's uuid.
    public static let uuid = "manna@manna.invalid"

    /// GNOME Shell 45 loads extensions as ES modules; 43 and 44 (Debian 12's) through GJS's
    /// legacy importer, and one file cannot be both.
    public static let firstModuleShell = 45

    /// The folder's files as they are, for GNOME Shell 43 and 44, in the order install writes them.
    public static let legacyFiles: [(name: String, text: String)] = [
        ("metadata.json", PackageResources.metadata_json),
        ("extension.js", PackageResources.extension_js),
        ("indicator.js", PackageResources.indicator_js),
        ("timeline.js", PackageResources.timeline_js),
        ("stylesheet.css", PackageResources.stylesheet_css),
    ].map { ($0.0, String(decoding: $0.1, as: UTF8.self)) }

    /// The files for GNOME Shell `major`. From 45 on: gnome45/extension45.js as the entry
    /// point, timeline.js and indicator.js each with an `export {…}` of the names its
    /// `/* exported */` comment lists (they import nothing, so nothing else changes), and the
    /// metadata's shell versions from 45 to this one (and at least to 48).
    public static func files(forShell major: Int) -> [(name: String, text: String)] {
        guard major >= firstModuleShell else { return legacyFiles }
        let versions = (firstModuleShell...max(48, major)).map { "\"\($0)\"" }.joined(separator: ", ")
        return legacyFiles.map { name, text in
            switch name {
            case "metadata.json": (name, replacingShellVersions(in: text, with: versions))
            case "extension.js": (name, String(decoding: PackageResources.extension45_js, as: UTF8.self))
            case "indicator.js", "timeline.js": (name, text + "\nexport {" + exportedNames(text).joined(separator: ", ") + "};\n")
            default: (name, text)
            }
        }
    }

    /// The names a script's `/* exported a, b */` comment lists (ESLint's, read by GJS's legacy
    /// importer too): what a module of it exports.
    static func exportedNames(_ script: String) -> [String] {
        guard let start = script.firstRange(of: "/* exported"), let end = script[start.upperBound...].firstRange(of: "*/") else { return [] }
        return script[start.upperBound..<end.lowerBound].split { $0 == "," || $0 == " " || $0 == "\n" }.map(String.init)
    }

    /// metadata.json with its `"shell-version": [...]` list replaced by `versions`.
    static func replacingShellVersions(in metadata: String, with versions: String) -> String {
        guard let key = metadata.firstRange(of: "\"shell-version\": ["), let close = metadata[key.upperBound...].firstIndex(of: "]") else {
            return metadata
        }
        return String(metadata[..<key.upperBound]) + versions + String(metadata[close...])
    }
}
