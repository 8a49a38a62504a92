import Foundation
import TestSupport
import Testing
@testable import MannaKit

/// What install writes of the GNOME Shell extension is the folder in widgets/gnome-shell, whole.
@Suite struct GnomeShellExtensionTests {
    static let folder = BuiltTexts.root + "/widgets/gnome-shell/manna@manna.invalid"
    static let layout = try! InstallLayout(prefix: nil, environment: ["HOME": "/home/ann"])

    /// A file added to the folder but not to Package.swift's resources would be missing from
    /// every install.
    @Test func installWritesEveryFileOfTheExtensionsFolderAsItIs() throws {
        let installed = Self.layout.gnomeShellExtensionFiles
        let names = installed.map { String($0.path.split(separator: "/").last!) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: Self.folder).sorted() == names.sorted())
        for (path, text) in installed {
            let name = String(path.split(separator: "/").last!)
            #expect(try String(contentsOfFile: Self.folder + "/" + name, encoding: .utf8) == text, "\(name)")
        }
    }

    /// GNOME Shell loads an extension only from a folder named as its metadata's uuid.
    @Test func theFolderIsNamedAsTheMetadatasUUID() throws {
        let metadata = try #require(Self.layout.gnomeShellExtensionFiles.first { $0.path.hasSuffix("/metadata.json") })
        let uuid = String(Self.layout.gnomeShellExtension.split(separator: "/").last!)
        #expect(uuid == "manna@manna.invalid")
        #expect(metadata.text.contains("\n  \"uuid\": \"\(uuid)\",\n"))
    }
}
