// What the MannaKit tests share (besides the text database, TestSupport's BuiltTexts): a folder
// of its own for each test (journals, timelines, stand-in programs), removed after it, and small
// thread-safe helpers for tests that race threads. These tests need nothing of the machine but
// /bin/sh and coreutils: no root, no bus, no network.
import Foundation
@testable import MannaKit

/// A folder of its own for one test, under the system's temporary folder: made now, removed
/// with all it holds when the test lets go of it (at the end of the test that made it).
final class Scratch {
    let directory: URL
    var path: String { directory.path }

    /// - Parameter label: a word in the folder's name, to tell what left it behind if anything does.
    init(_ label: String = "scratch") throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("manna-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// `NAME` in this folder.
    func file(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// A journal's path in a folder of its own, `NAME/journal.sqlite`, not made yet.
    func path(_ name: String = "journal") -> String { file("\(name)/journal.sqlite") }

    /// The journal `NAME`, made or opened.
    func journal(_ name: String = "journal") throws -> Journal { try Journal(path: path(name)) }
}

func ref(_ text: String) -> Reference { try! Reference(parsing: text) }

/// A flag one thread sets and another reads.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.lock(); value = true; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
}

/// A count that racing threads add to.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
