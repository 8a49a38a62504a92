import Foundation
import TestSupport
import Testing
@testable import GnomeShellExtension
@testable import MannaKit

/// What install writes of the GNOME Shell extension is the folder in widgets/gnome-shell, whole,
/// made for the Shell it will run in.
@Suite struct GnomeShellExtensionTests {
    static let folder = BuiltTexts.root + "/widgets/gnome-shell/manna@manna.invalid"
    static let layout = try! InstallLayout(prefix: nil, environment: ["HOME": "/home/ann"])

    /// A file added to the folder but not to Package.swift's resources would be missing from
    /// every install.
    @Test func installWritesEveryFileOfTheExtensionsFolderAsItIsFor43And44() throws {
        for shell in [43, 44] {
            let installed = Self.layout.gnomeShellExtensionFiles(forShell: shell)
            let names = installed.map { String($0.path.split(separator: "/").last!) }
            #expect(try FileManager.default.contentsOfDirectory(atPath: Self.folder).sorted() == names.sorted())
            for (path, text) in installed {
                let name = String(path.split(separator: "/").last!)
                #expect(try String(contentsOfFile: Self.folder + "/" + name, encoding: .utf8) == text, "\(name)")
            }
        }
    }

    /// GNOME Shell 45 and later load ES modules: the same logic, each script exporting what its
    /// `/* exported */` comment names, the 45+ entry point, and the Shell's version listed.
    @Test func from45TheScriptsAreModulesAndTheMetadataListsTheShell() throws {
        let legacy = Dictionary(uniqueKeysWithValues: GnomeShellExtension.legacyFiles.map { ($0.name, $0.text) })
        for shell in [45, 48, 50] {
            let files = Dictionary(uniqueKeysWithValues: GnomeShellExtension.files(forShell: shell).map { ($0.name, $0.text) })
            #expect(files.keys.sorted() == legacy.keys.sorted())
            #expect(files["stylesheet.css"] == legacy["stylesheet.css"])
            let entry = try String(contentsOfFile: BuiltTexts.root + "/widgets/gnome-shell/gnome45/extension45.js", encoding: .utf8)
            #expect(files["extension.js"] == entry)
            for script in ["timeline.js", "indicator.js"] {
                let text = try #require(legacy[script])
                let names = GnomeShellExtension.exportedNames(text)
                #expect(!names.isEmpty, "\(script) has no /* exported */ comment")
                // Each name is declared at the top level, so the module can export it.
                for name in names {
                    let declared = ["\nfunction \(name)(", "\nasync function \(name)(", "\nvar \(name) "].contains { text.contains($0) }
                    #expect(declared, "\(script) exports \(name) but does not declare it")
                }
                #expect(files[script] == text + "\nexport {\(names.joined(separator: ", "))};\n")
            }
            let versions = (45...max(48, shell)).map { "\"\($0)\"" }.joined(separator: ", ")
            #expect(files["metadata.json"] == legacy["metadata.json"]?.replacingOccurrences(of: "\"shell-version\": [\"43\", \"44\"]", with: "\"shell-version\": [\(versions)]"))
        }
        #expect(GnomeShellExtension.exportedNames("/* exported a, b,\n   c */\nfunction a() {}") == ["a", "b", "c"])
    }

    /// install asks the Shell here its version; without one it writes 43-44's extension.
    @Test func theShellsVersionIsItsMajorNumber() {
        func version(_ output: String, status: Int32 = 0) -> Int? {
            Installer.gnomeShellVersion { _, arguments, _ in
                #expect(arguments == ["--version"])
                return ProcessResult(status: status, output: output)
            }
        }
        #expect(version("GNOME Shell 43.9\n") == 43)
        #expect(version("GNOME Shell 46.2\n") == 46)
        #expect(version("GNOME Shell 48.alpha\n") == 48)
        #expect(version("GNOME Shell 46.2\n", status: 1) == nil)
        #expect(version("something else\n") == nil)
        #expect(Installer.gnomeShellVersion { program, _, _ throws(SubprocessError) in throw .notFound(program: program) } == nil)
    }

    /// GNOME Shell loads an extension only from a folder named as its metadata's uuid.
    @Test func theFolderIsNamedAsTheMetadatasUUID() throws {
        let metadata = try #require(Self.layout.gnomeShellExtensionFiles(forShell: 43).first { $0.path.hasSuffix("/metadata.json") })
        let uuid = String(Self.layout.gnomeShellExtension.split(separator: "/").last!)
        #expect(uuid == "manna@manna.invalid")
        #expect(metadata.text.contains("\n  \"uuid\": \"\(uuid)\",\n"))
    }
}
