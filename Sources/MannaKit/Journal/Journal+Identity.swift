// Identities of journal records: a UUID that never changes (export and import merge by it),
// and a short id for people to type.
extension Journal {
    /// A random (version 4) UUID, lowercase: `1b4e28ba-2fa1-4d2b-883f-0016d3cca427`.
    public static func newUUID() -> String {
        var bytes = randomBytes(16)
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let hex = bytes.map { byte -> String in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
        let characters = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }

    /// Letters and digits that cannot be mistaken for one another (no 0/o, 1/l/i).
    static let shortIDAlphabet = Array("23456789abcdefghjkmnpqrstuvwxyz")

    /// A short id not yet used in `table`: four characters (30 bits of room), longer only
    /// if four keep colliding.
    func newShortID(in table: String) throws(SQLiteError) -> String {
        let taken = try database.prepare("SELECT 1 FROM \(table) WHERE short_id = ?1")
        var length = 4
        while true {
            for _ in 0..<8 {
                let candidate = String(Journal.randomBytes(length).map { Journal.shortIDAlphabet[Int($0) % Journal.shortIDAlphabet.count] })
                try taken.reset()
                try taken.bind(candidate, at: 1)
                if !(try taken.step()) { return candidate }
            }
            length += 1
        }
    }

    /// Bytes from the system's random source (getrandom, through the standard library).
    static func randomBytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: .min ... .max) }
    }
}
