// The sync folder's layout (docs/sync.md): `DIR/manna-sync/v1/<device>/<sequence>.jsonl`. Each
// device writes in its own folder only, so a folder-sync tool never sees two devices write one
// file; what such tools leave behind (their temporary files, their conflict copies) is ignored
// and reported.
#if canImport(Glibc)
import Glibc
#endif

public struct SyncFolder: Sendable {
    /// The folder the user syncs.
    public let root: String

    public init(root: String) { self.root = root }

    /// Where the devices' folders are.
    public var devices: String { root + "/manna-sync/v1" }

    public func folder(of device: String) -> String { devices + "/" + device }

    /// A file left in a device's folder that is not a segment, and what it is.
    public struct Ignored: Equatable, Sendable {
        public let path: String
        public let kind: Kind

        public enum Kind: String, CaseIterable, Sendable {
            /// A sync tool's file on its way in (Syncthing's `.syncthing.NAME.tmp`), or Manna's own.
            case temporary = "temporary file"
            /// A sync tool's conflict copy (`NAME.sync-conflict-…`, "conflicted copy"): Manna never
            /// writes a file twice, so another device or a person made it.
            case conflict = "conflict copy"
            case unknown = "unknown file"
            /// A symbolic link, a FIFO, a device: never Manna's (it writes regular files and
            /// folders only), so never read, whatever its name.
            case link = "link or special file"

            public var plural: String {
                switch self {
                case .conflict: "conflict copies"
                case .link: "links or special files"
                default: rawValue + "s"
                }
            }
        }
    }

    /// What the folder holds: the device folders (each named by a device id) with the segment
    /// numbers each holds, the devices that left, and the files that are none of Manna's.
    public struct Scan: Sendable {
        public var devices: [String: [Int]] = [:]
        public var ignored: [Ignored] = []
        /// Devices whose folder holds a `left` mark, by id.
        public var left: Set<String> = []

        public init(devices: [String: [Int]] = [:], ignored: [Ignored] = [], left: Set<String> = []) {
            (self.devices, self.ignored, self.left) = (devices, ignored, left)
        }
    }

    public func scan() -> Scan {
        var devices: [String: [Int]] = [:]
        var ignored: [Ignored] = []
        var left: Set<String> = []
        for device in Files.list(self.devices).sorted() {
            let path = folder(of: device)
            // A link is no device's folder: a sync tool carries links, and one planted here
            // would have Manna read (or write) elsewhere.
            guard Files.isDirectory(path, followLinks: false) else {
                ignored.append(Ignored(path: path, kind: Files.isDirectory(path) ? .link : SyncFolder.kind(of: device)))
                continue
            }
            var sequences: [Int] = []
            for name in Files.list(path) where name != SyncFolder.snapshotName && name != SyncFolder.plainSnapshotName {
                // What is not a regular file is no segment or mark: a planted link at this
                // device's next number would otherwise look like another journal writing its id.
                if !Files.isRegularFile(path + "/" + name, followLinks: false) {
                    ignored.append(Ignored(path: path + "/" + name, kind: .link))
                } else if name == SyncFolder.leftName {
                    left.insert(device)
                } else if name == SyncFolder.wantsName {
                    continue
                } else if let sequence = SyncSegment.sequence(ofFileName: name) { sequences.append(sequence) } else {
                    ignored.append(Ignored(path: path + "/" + name, kind: SyncFolder.kind(of: name)))
                }
            }
            devices[device] = sequences.sorted()
        }
        return Scan(devices: devices, ignored: ignored, left: left)
    }

    /// The mark a device leaves in its folder when it stops syncing (`sync leave`), or another
    /// leaves there for it (`sync forget`): the others stop keeping their segments until it has
    /// read them, and a device that finds it in its own folder while it syncs goes on as a new one.
    public static let leftName = "left.json"

    public struct Left: Equatable, Sendable {
        public let device: String
        public let name: String
        public let at: Instant
        /// The device that forgot it (nil: it left itself).
        public let by: String?
        /// Its segments after this one are withdrawn: no device applies them (nil: all stand).
        /// A device whose clock was far ahead, once set right, withdraws the segments stamped in
        /// its future and sends their changes again, stamped now, as a new device.
        public let through: Int?
        /// The id the journal that left took when it joined again (`sync leave`, then `sync
        /// init`): a backup of it from before, put back, knows that id for its own too.
        public let then: String?

        public init(device: String, name: String, at: Instant, by: String? = nil, through: Int? = nil, then: String? = nil) {
            (self.device, self.name, self.at, self.by, self.through, self.then) = (device, name, at, by, through, then)
        }

        var json: JSON {
            .object([("format", .string("manna-sync-left")), ("device", .string(device)), ("name", .string(name)), ("at", .int(at)),
                     ("by", by.map(JSON.string) ?? .null)] + (through.map { [("through", JSON.int($0))] } ?? [])
                    + (then.map { [("then", JSON.string($0))] } ?? []))
        }

        init?(_ json: JSON) {
            guard json["format"]?.stringValue == "manna-sync-left", let device = json["device"]?.stringValue,
                  let name = json["name"]?.stringValue, let at = json["at"]?.intValue else { return nil }
            self.init(device: device, name: name, at: at, by: json["by"]?.stringValue, through: json["through"]?.intValue,
                      then: json["then"]?.stringValue)
        }
    }

    /// The file where a device stuck on another's segments (gone, damaged, waiting on what is
    /// not there) for an hour asks it for a snapshot in their place: `{"wants": {DEVICE: N}}`,
    /// N the first segment it could not apply. The device asked writes one at its next sync.
    public static let wantsName = "wants.json"

    /// What `device` asks of the others: the first segment of each it wants a snapshot from.
    public func wants(of device: String) -> [String: Int] {
        guard let line = try? Files.readFirstLine(folder(of: device) + "/" + SyncFolder.wantsName, limit: 1 << 16, followLinks: false),
              let json = try? JSON(parsing: line), json["format"]?.stringValue == "manna-sync-wants",
              case .object(let pairs)? = json["wants"] else { return [:] }
        var wants: [String: Int] = [:]
        for (other, value) in pairs { if let sequence = value.intValue { wants[other] = sequence } }
        return wants
    }

    /// Writes what `device` asks of the others (none: removes the file), when it changed.
    public func write(wants: [String: Int], of device: String) throws(FileError) {
        guard wants != self.wants(of: device) else { return }
        let path = folder(of: device) + "/" + SyncFolder.wantsName
        if wants.isEmpty {
            _ = try Files.remove(path)
            return
        }
        let json: JSON = .object([("format", .string("manna-sync-wants")),
                                  ("wants", .object(wants.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) }))])
        try Files.makePrivateDirectories(folder(of: device), below: root)
        try Files.writeAtomically(json.text + "\n", to: path, mode: 0o600, link: .replace)
    }

    /// Leaves `left` in its device's folder (0600, as a segment), the folder made if missing. A
    /// withdrawal is never taken back: a mark already there keeps its `through` when that is the
    /// smaller (a journal whose clock was set right withdrew its future, then a backup of it put
    /// back leaves under the same id: the segments stamped ahead stay withdrawn), and its `then`.
    public func write(_ left: Left) throws(FileError) {
        let folder = folder(of: left.device)
        var left = left
        if let before = self.left(of: left.device) {
            let through = [before.through, left.through].compactMap { $0 }.min()
            left = Left(device: left.device, name: left.name, at: left.at, by: left.by, through: through, then: left.then ?? before.then)
        }
        try Files.makePrivateDirectories(folder, below: root)
        try Files.writeAtomically(left.json.text + "\n", to: folder + "/" + SyncFolder.leftName, mode: 0o600, link: .replace)
        Files.syncDirectory(folder)
    }

    /// The mark in `device`'s folder (nil: none, or not one Manna wrote).
    public func left(of device: String) -> Left? {
        guard let line = try? Files.readFirstLine(folder(of: device) + "/" + SyncFolder.leftName, limit: 4096, followLinks: false),
              let json = try? JSON(parsing: line) else { return nil }
        return Left(json)
    }

    /// A device's snapshot: its segments up to one, collapsed into one file, which a device that
    /// joins (or fell behind) applies instead of the segments it replaced. gzip'd: its lines
    /// name the same tables, keys and devices over and over, and it shrinks about twenty times.
    public static let snapshotName = "snapshot.jsonl.gz"
    /// The snapshot as Manna wrote it before (read still; removed when one is written).
    public static let plainSnapshotName = "snapshot.jsonl"

    /// `device`'s snapshot unpacked (nil: none). Throws `FileError` when it cannot be read, and
    /// `SyncSegment.Problem` when what it holds is not whole (half-arrived, damaged) or unpacks
    /// to more than any journal's snapshot would.
    public func snapshot(of device: String) throws -> String? {
        let path = folder(of: device) + "/" + SyncFolder.snapshotName
        guard let packed = try Files.readBytes(path, limit: 64 << 20, followLinks: false) else {
            return try Files.readText(folder(of: device) + "/" + SyncFolder.plainSnapshotName, limit: 256 << 20, followLinks: false)
        }
        do {
            return String(decoding: try Gzip.decompress(packed, limit: 256 << 20), as: UTF8.self)
        } catch .truncated, .damaged {
            // One flipped bit can read as a stream that goes on past the file's end: the two
            // are not told apart, and both are waited for, as a segment's checksum is.
            throw SyncSegment.Problem.incomplete("its gzip checksum does not hold: cut short or damaged")
        } catch .tooLarge(let limit) {
            throw SyncSegment.Problem.garbage("it unpacks to more than \(limit >> 20) MB")
        }
    }

    /// The header of `device`'s snapshot, read alone (nil: no snapshot, or none this Manna can
    /// read): whether it goes further than what was applied is known before reading the rest.
    public func snapshotHeader(of device: String, schema: Int) -> SyncSegment.Header? {
        let folder = folder(of: device)
        guard let descriptor = try? Files.openForReading(folder + "/" + SyncFolder.snapshotName, followLinks: false) else {
            return SyncFolder.header(at: folder + "/" + SyncFolder.plainSnapshotName, schema: schema)
        }
        // The first 64 KB unpacked hold the header line (a few hundred bytes).
        var packed = [UInt8](repeating: 0, count: 1 << 16)
        let count = packed.withUnsafeMutableBytes { Glibc.read(descriptor.descriptor, $0.baseAddress!, $0.count) }
        close(descriptor.descriptor)
        guard count > 0, let unpacked = try? Gzip.decompress(Array(packed.prefix(count)), limit: 1 << 16, prefix: true),
              let newline = unpacked.firstIndex(of: 0x0A) else { return nil }
        return try? SyncSegment.Header(parsing: String(decoding: unpacked[..<newline], as: UTF8.self), schema: schema)
    }

    /// The header of `device`'s segment `sequence`, read alone.
    public func header(_ device: String, _ sequence: Int, schema: Int) -> SyncSegment.Header? {
        SyncFolder.header(at: folder(of: device) + "/" + SyncSegment.fileName(sequence), schema: schema)
    }

    private static func header(at path: String, schema: Int) -> SyncSegment.Header? {
        guard let line = try? Files.readFirstLine(path, followLinks: false) else { return nil }
        return try? SyncSegment.Header(parsing: line, schema: schema)
    }

    static func kind(of name: String) -> Ignored.Kind {
        let lower = name.lowercased()
        if lower.contains(".tmp") || lower.hasPrefix(".syncthing.") || lower.hasPrefix("~syncthing~") || lower.hasSuffix(".part") { return .temporary }
        if lower.contains("sync-conflict") || lower.contains("conflicted copy") || lower.contains("conflict") { return .conflict }
        return .unknown
    }

    /// A folder's modification time in nanoseconds (nil: missing): it changes whenever a file
    /// is added to, renamed into or removed from it, so an unchanged one has nothing new.
    public static func modified(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec
    }

    /// Writes `segment` into its device's folder (a temporary file, flushed, then renamed), and
    /// returns its checksum. The segment is 0600 and `manna-sync`, `v1` and the device's folder
    /// 0700, as the journal is: it holds prayer text, and the synced folder may be in reach of
    /// other users. A link among those folders is refused, never followed; one at the file's
    /// own path (planted there: Manna makes none) is replaced, its target untouched.
    public func write(_ segment: SyncSegment, asSnapshot: Bool = false) throws(FileError) -> String {
        let folder = folder(of: segment.device)
        try Files.makePrivateDirectories(folder, below: root)
        let text = segment.text
        if asSnapshot {
            let packed = Gzip.compress(Array(text.utf8))
            guard !packed.isEmpty else { throw FileError(path: folder + "/" + SyncFolder.snapshotName, reason: "zlib could not compress it") }
            try Files.writeAtomically(packed, to: folder + "/" + SyncFolder.snapshotName, mode: 0o600, link: .replace)
            _ = try? Files.remove(folder + "/" + SyncFolder.plainSnapshotName)
        } else {
            try Files.writeAtomically(text, to: folder + "/" + SyncSegment.fileName(segment.sequence), mode: 0o600, link: .replace)
        }
        Files.syncDirectory(folder)
        return SyncFolder.checksum(text)
    }

    /// The text of `device`'s segment `sequence` (nil: not there).
    public func read(_ device: String, _ sequence: Int) throws(FileError) -> String? {
        try Files.readText(folder(of: device) + "/" + SyncSegment.fileName(sequence), limit: 256 << 20, followLinks: false)
    }

    /// Names `device`'s file `name` (a segment, its snapshot) as it now is (`Files.identity`),
    /// for a file refused for its content: while the name is the same, so is the file, and its
    /// problem. Nil: nothing there.
    public func rejection(_ device: String, _ name: String) -> String? {
        Files.identity(folder(of: device) + "/" + name).map { "\(name) \($0)" }
    }

    /// A whole file's SHA-256: what a device remembers of the last segment it wrote.
    public static func checksum(_ text: String) -> String {
        var digest = SHA256()
        digest.update(Array(text.utf8))
        return digest.hexDigest()
    }
}
