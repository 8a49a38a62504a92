// The text database every test target reads, built once per test process from the checkout's
// curated/ by the real builder: in a debug build that costs seconds, so the three test targets
// share one (the end-to-end tests install it as the checkout's database).
import Foundation
import MannaKit

public enum BuiltTexts {
    /// The package root, found from this file's path.
    public static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// Rebuilt on every run, in the checkout's build folder (so nothing piles up in /tmp).
    public static let path: String = {
        let directory = URL(fileURLWithPath: root + "/.build/tests")
        try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("bible.sqlite").path
        try! TextDatabaseBuilder.build(curatedDirectory: root + "/curated", outputPath: path) { _ in }
        return path
    }()

    public static var database: TextDatabase { try! TextDatabase(path: path) }
}
