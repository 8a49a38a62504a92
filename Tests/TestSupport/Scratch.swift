// A folder of its own for one test, in every test target.
import Foundation

/// A folder under the system's temporary folder: made now, removed with all it holds when the
/// test lets go of it (at the end of the test that made it).
public final class Scratch {
    public let url: URL
    public var path: String { url.path }

    /// - Parameter label: a word in the folder's name, to tell what left it behind if anything does.
    public init(_ label: String = "scratch") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("manna-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// `NAME` in this folder.
    public func file(_ name: String) -> String { url.appendingPathComponent(name).path }
}
