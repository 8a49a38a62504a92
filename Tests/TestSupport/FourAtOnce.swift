// The race every "ticks at once" test runs.
import Foundation

/// Runs `body` four times at once, on four threads, as four ticks that cron, the timer and two
/// resumed laptops start together would run; returns what each returned, in the order they
/// finished.
public func fourAtOnce<Value: Sendable>(_ body: @Sendable () -> Value) -> [Value] {
    atOnce(4) { _ in body() }
}

/// Runs `body` `count` times at once, each on its own thread and given its number (0 up to
/// `count`); returns what each returned, in the order they finished.
public func atOnce<Value: Sendable>(_ count: Int, _ body: @Sendable (Int) -> Value) -> [Value] {
    let results = Results<Value>()
    DispatchQueue.concurrentPerform(iterations: count) { index in results.append(body(index)) }
    return results.all
}

private final class Results<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Value] = []
    func append(_ value: Value) { lock.withLock { values.append(value) } }
    var all: [Value] { lock.withLock { values } }
}
