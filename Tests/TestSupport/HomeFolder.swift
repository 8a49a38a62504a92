// The user's home every test target's fixtures are made in.
import Foundation

/// A user's home in a temporary folder (HOME; the XDG folders are under it), with a config file
/// when given, removed with all it holds when the test lets go of it. The in-process `TestHome`
/// and the binary's `TemporaryHome` are each one of these with their way of running `manna`.
public final class HomeFolder {
    private let scratch: Scratch
    public var url: URL { scratch.url }
    public var path: String { scratch.path }
    /// Where Manna reads its config file, and the user's own plans beside it.
    public var configFolder: URL { url.appendingPathComponent(".config/manna") }
    public var userPlans: URL { configFolder.appendingPathComponent("plans") }
    /// Where Manna keeps the journal in this home.
    public var journal: String { path + "/.local/share/manna/journal.sqlite" }
    /// Where `manna timeline` and the tick write the timeline in this home.
    public var timeline: URL { url.appendingPathComponent(".cache/manna/timeline.json") }

    /// - Parameters:
    ///   - label: a word in the folder's name, to tell what left it behind if anything does.
    ///   - config: the config file's text; with none, there is no config folder either.
    public init(_ label: String = "home", config: String? = nil) throws {
        scratch = try Scratch(label)
        if let config { try writeConfig(config) }
    }

    /// Writes the config file (and its folder).
    public func writeConfig(_ text: String) throws {
        try FileManager.default.createDirectory(at: configFolder, withIntermediateDirectories: true)
        try text.write(to: configFolder.appendingPathComponent("config"), atomically: true, encoding: .utf8)
    }
}
