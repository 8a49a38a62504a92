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

/// A seeded generator, SplitMix64: small, fast, and the same sequence on every machine, so a
/// failing seed (fuzzing, the sync simulation) fails again.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Device ids from a seed, so that an order of a model replays alike (file names sort by id).
final class SeededIDs {
    private var random: SeededRandom

    init(seed: UInt64) { random = SeededRandom(seed: seed) }

    func next() -> String {
        let hex = String(format: "%016llx%016llx", random.next(), random.next())
        let digits = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(digits[$0]) }.joined(separator: "-")
    }
}
