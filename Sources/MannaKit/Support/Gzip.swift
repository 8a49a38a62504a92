// gzip, for sync snapshots: a snapshot is JSON lines that name the same tables, keys and
// devices over and over, and shrinks about twenty times (docs/sync.md, "Compaction").
import CZlib

public enum Gzip {
    public enum Problem: Error, Equatable {
        /// Its data or its checksum is not what gzip wrote.
        case damaged
        /// It ends before its stream does (half-arrived).
        case truncated
        /// It unpacks to more than the limit.
        case tooLarge(limit: Int)
    }

    /// `bytes` as one gzip member.
    public static func compress(_ bytes: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        guard deflateInit2_(&stream, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            return []
        }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 32)
        var input = bytes
        let written = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target -> Int in
                stream.next_in = source.baseAddress
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                return deflate(&stream, Z_FINISH) == Z_STREAM_END ? Int(stream.total_out) : -1
            }
        }
        return written < 0 ? [] : Array(output.prefix(written))
    }

    /// What `bytes`, one gzip member, holds: at most `limit` bytes of it (a file from another
    /// device could unpack to far more than it is), or with `prefix` only its first `limit`
    /// bytes, where what follows may be missing (a header read alone).
    public static func decompress(_ bytes: [UInt8], limit: Int, prefix: Bool = false) throws(Problem) -> [UInt8] {
        var stream = z_stream()
        guard inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { throw .damaged }
        defer { inflateEnd(&stream) }
        var input = bytes
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var status = Z_OK
        input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = uInt(source.count)
            while status == Z_OK && output.count <= limit {
                chunk.withUnsafeMutableBufferPointer { target in
                    stream.next_out = target.baseAddress
                    stream.avail_out = uInt(target.count)
                    status = inflate(&stream, Z_NO_FLUSH)
                    output += target[..<(target.count - Int(stream.avail_out))]
                }
                if status == Z_BUF_ERROR && stream.avail_in == 0 { break }
            }
        }
        if prefix { return Array(output.prefix(limit)) }
        guard output.count <= limit else { throw .tooLarge(limit: limit) }
        switch status {
        case Z_STREAM_END: return output
        case Z_OK, Z_BUF_ERROR: throw .truncated
        default: throw .damaged
        }
    }
}
