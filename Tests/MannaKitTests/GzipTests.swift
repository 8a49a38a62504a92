import Foundation
import Testing
@testable import MannaKit

/// Sync snapshots are gzip'd; what another device's file holds is unpacked with a limit and
/// every way it can be wrong said apart (half-arrived is waited for, damaged is refused).
@Suite struct GzipTests {
    let text = Array((0..<2_000).map { "{\"t\":\"notes\",\"k\":\"\($0)\",\"f\":\"text\",\"v\":\"note \($0)\"}\n" }.joined().utf8)

    @Test func whatIsPackedUnpacksAsItWas() throws {
        let packed = Gzip.compress(text)
        #expect(packed.count < text.count / 5)
        #expect(Array(packed.prefix(2)) == [0x1F, 0x8B])  // a gzip member: `zcat` reads it
        #expect(try Gzip.decompress(packed, limit: text.count) == text)
        #expect(try Gzip.decompress(Gzip.compress([]), limit: 0) == [])
    }

    @Test func whatIsWrongIsSaidApart() throws {
        let packed = Gzip.compress(text)
        #expect(throws: Gzip.Problem.truncated) { try Gzip.decompress(Array(packed.prefix(packed.count / 2)), limit: text.count) }
        var damaged = packed
        damaged[damaged.count - 6] ^= 0x01  // in its checksum
        #expect(throws: Gzip.Problem.damaged) { try Gzip.decompress(damaged, limit: text.count) }
        #expect(throws: Gzip.Problem.damaged) { try Gzip.decompress(Array("not gzip at all".utf8), limit: text.count) }
        // A small file that unpacks to far more (a planted bomb) stops at the limit.
        let bomb = Gzip.compress([UInt8](repeating: 0, count: 8 << 20))
        #expect(bomb.count < 16 << 10)
        #expect(throws: Gzip.Problem.tooLarge(limit: 1 << 20)) { try Gzip.decompress(bomb, limit: 1 << 20) }
    }

    @Test func aPrefixUnpacksAloneAsFarAsItGoes() throws {
        let packed = Gzip.compress(text)
        let start = try Gzip.decompress(Array(packed.prefix(packed.count / 2)), limit: 100, prefix: true)
        #expect(start == Array(text.prefix(100)))
    }
}
