// The keys of the follow-along screen, from the bytes a terminal in raw mode sends.
import MannaKit

enum ListenKey: Equatable {
    case command(PlayerCommand)
    /// The sleep timer set again (s): as much listening again as `--sleep` gave.
    case sleepLonger
    /// Speech faster (+ or =) or slower (-), by `speedStep` words a minute.
    case faster
    case slower
    case quit

    /// The keys in `bytes`, in order; anything else is ignored. Arrows come as `ESC [ C` and
    /// `ESC [ D` (or `ESC O C`/`D` in application mode).
    static func keys(in bytes: [UInt8]) -> [ListenKey] {
        var keys: [ListenKey] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: " "): keys.append(.command(.toggle))
            case UInt8(ascii: "n"): keys.append(.command(.skip(1)))
            case UInt8(ascii: "p"): keys.append(.command(.skip(-1)))
            case UInt8(ascii: "s"): keys.append(.sleepLonger)
            case UInt8(ascii: "+"), UInt8(ascii: "="): keys.append(.faster)
            case UInt8(ascii: "-"): keys.append(.slower)
            // q, Q, Ctrl-C (raw mode turns it into a byte), Ctrl-D.
            case UInt8(ascii: "q"), UInt8(ascii: "Q"), 3, 4: keys.append(.quit)
            case 0x1B where index + 1 < bytes.count && (bytes[index] == UInt8(ascii: "[") || bytes[index] == UInt8(ascii: "O")):
                switch bytes[index + 1] {
                case UInt8(ascii: "C"): keys.append(.command(.seek(10)))
                case UInt8(ascii: "D"): keys.append(.command(.seek(-10)))
                default: break
                }
                index += 2
            default: break
            }
        }
        return keys
    }

    static let speedStep = 25
}
