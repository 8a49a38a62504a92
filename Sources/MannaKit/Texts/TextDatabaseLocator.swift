// Finds bible.sqlite (and its search index beside it): in a checkout (built on first use),
// under the install prefix, or in XDG data dirs.
#if canImport(Glibc)
import Glibc
#endif

/// Where the text database is, and how to make it when it is missing or stale.
public struct TextDatabaseLocation: Equatable, Sendable {
    public let path: String
    /// Set when running from a checkout: the `curated/` folder the database is built from.
    public let curatedDirectory: String?
}

public enum TextDatabaseLocator {
    public static let fileName = "bible.sqlite"

    /// The search index of the text database at `path`, always beside it: `bible-search.sqlite`
    /// for `bible.sqlite`. A file of its own, so that only `search` parses its thirty tables'
    /// schema (docs/ARCHITECTURE.md, "The text database").
    public static func searchIndexPath(of path: String) -> String {
        (path.hasSuffix(".sqlite") ? String(path.dropLast(".sqlite".count)) : path) + "-search.sqlite"
    }

    /// Works out where the text database is, in this order:
    /// 1. `MANNA_TEXT_DB`, when set;
    /// 2. a checkout: an ancestor of the executable holding `Package.swift` and `curated/`,
    ///    with the database at `.build/bible.sqlite` (built from `curated/` when needed);
    /// 3. the install prefix: `<bin>/../share/manna/bible.sqlite`;
    /// 4. `$XDG_DATA_HOME/manna/` (default `~/.local/share/manna/`), then each of `$XDG_DATA_DIRS`.
    ///
    /// Returns the first candidate that exists (or, in a checkout, can be built).
    public static func locate(environment: Environment, executablePath: String) throws(TextDatabaseError) -> TextDatabaseLocation {
        if let explicit = environment["MANNA_TEXT_DB"], !explicit.isEmpty {
            return TextDatabaseLocation(path: explicit, curatedDirectory: nil)
        }
        let binDirectory = Files.parent(of: executablePath)
        if let directory = checkout(containing: binDirectory) {
            return TextDatabaseLocation(path: directory + "/.build/" + fileName, curatedDirectory: directory + "/curated")
        }
        let candidates = installedCandidates(environment: environment, binDirectory: binDirectory)
        if let found = candidates.first(where: Files.exists) {
            return TextDatabaseLocation(path: found, curatedDirectory: nil)
        }
        throw .notFound(searched: candidates)
    }

    /// The checkout `directory` is in: its nearest ancestor (or itself) holding `Package.swift`
    /// and `curated/`; nil outside one.
    public static func checkout(containing directory: String) -> String? {
        var directory = directory
        while directory != "/" && !directory.isEmpty {
            if Files.exists(directory + "/Package.swift") && Files.exists(directory + "/curated/translations/translations.tsv") { return directory }
            directory = Files.parent(of: directory)
        }
        return nil
    }

    static func installedCandidates(environment: Environment, binDirectory: String) -> [String] {
        let home = environment["HOME"] ?? ""
        let dataHome = environment.nonEmpty("XDG_DATA_HOME") ?? home + "/.local/share"
        let dataDirs = environment.nonEmpty("XDG_DATA_DIRS") ?? "/usr/local/share:/usr/share"
        var candidates = [Files.parent(of: binDirectory) + "/share/manna/" + fileName, dataHome + "/manna/" + fileName]
        candidates += dataDirs.split(separator: ":").map { $0 + "/manna/" + fileName }
        var seen = Set<String>()
        return candidates.filter { seen.insert($0).inserted }
    }

    /// True when the database at `location` must be (re)built: it or its search index is
    /// missing, or older than a source file in `curated/`.
    public static func needsBuild(_ location: TextDatabaseLocation) -> Bool {
        guard let curated = location.curatedDirectory else { return false }
        guard let database = modificationTime(location.path), let index = modificationTime(searchIndexPath(of: location.path)) else { return true }
        let built = min(database, index)
        // Every source the build reads: translations, their psalm titles, the daily list, the plans.
        for folder in [curated, curated + "/translations", curated + "/translations/titles", curated + "/plans"] {
            for name in Files.list(folder) where name.hasSuffix(".tsv") || name.hasSuffix(".json") {
                if let changed = modificationTime(folder + "/" + name), changed > built { return true }
            }
        }
        return false
    }

    /// The file's modification time in nanoseconds, or nil when it does not exist.
    static func modificationTime(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec
    }
}
