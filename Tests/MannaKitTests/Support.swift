// What the MannaKit tests share (besides the text database, TestSupport's BuiltTexts): a folder
// of its own for each test (journals, timelines, stand-in programs), removed after it, and small
// thread-safe helpers for tests that race threads. These tests need nothing of the machine but
// /bin/sh and coreutils: no root, no bus, no network.
import Foundation
import TestSupport
@testable import MannaKit

extension Scratch {
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
