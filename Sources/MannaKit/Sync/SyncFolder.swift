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

        public enum Kind: String, Sendable {
            /// A sync tool's file on its way in (Syncthing's `.syncthing.NAME.tmp`), or Manna's own.
            case temporary = "temporary file"
            /// A sync tool's conflict copy (`NAME.sync-conflict-…`, "conflicted copy"): Manna never
            /// writes a file twice, so another device or a person made it.
            case conflict = "conflict copy"
            case unknown = "unknown file"

            public var plural: String { self == .conflict ? "conflict copies" : rawValue + "s" }
        }
    }

    /// The device folders here (each named by a device id), with the segment numbers each holds.
    public func scan() -> (devices: [String: [Int]], ignored: [Ignored]) {
        var devices: [String: [Int]] = [:]
        var ignored: [Ignored] = []
        for device in Files.list(self.devices).sorted() {
            let path = folder(of: device)
            // A link is no device's folder: a sync tool carries links, and one planted here
            // would have Manna read (or write) elsewhere.
            guard Files.isDirectory(path, followLinks: false) else {
                ignored.append(Ignored(path: path, kind: SyncFolder.kind(of: device)))
                continue
            }
            var sequences: [Int] = []
            for name in Files.list(path) where name != SyncFolder.snapshotName {
                if let sequence = SyncSegment.sequence(ofFileName: name) { sequences.append(sequence) } else {
                    ignored.append(Ignored(path: path + "/" + name, kind: SyncFolder.kind(of: name)))
                }
            }
            devices[device] = sequences.sorted()
        }
        return (devices, ignored)
    }

    /// A device's snapshot: its segments up to one, collapsed into one file, which a device that
    /// joins (or fell behind) applies instead of the segments it replaced.
    public static let snapshotName = "snapshot.jsonl"

    public func snapshot(of device: String) throws(FileError) -> String? {
        try Files.readText(folder(of: device) + "/" + SyncFolder.snapshotName, limit: 256 << 20, followLinks: false)
    }

    /// The header of `device`'s snapshot, read alone (nil: no snapshot, or none this Manna can
    /// read): whether it goes further than what was applied is known before reading the rest.
    public func snapshotHeader(of device: String, schema: Int) -> SyncSegment.Header? {
        SyncFolder.header(at: folder(of: device) + "/" + SyncFolder.snapshotName, schema: schema)
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
    /// other users. A link among those folders, or at the segment, is refused, never followed.
    public func write(_ segment: SyncSegment, asSnapshot: Bool = false) throws(FileError) -> String {
        let folder = folder(of: segment.device)
        try Files.makePrivateDirectories(folder, below: root)
        let text = segment.text
        try Files.writeAtomically(text, to: folder + "/" + (asSnapshot ? SyncFolder.snapshotName : SyncSegment.fileName(segment.sequence)), mode: 0o600)
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
