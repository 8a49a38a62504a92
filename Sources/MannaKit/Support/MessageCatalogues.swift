// Finds the folder of message catalogues (LANG/LC_MESSAGES/manna.mo) the way the text database
// is found: in a checkout (built from po/ on first use), or under the install prefix.
#if canImport(Glibc)
import Glibc
#endif

public enum MessageCatalogues {
    /// One language's compiled catalogue (`manna install` copies each).
    public struct Catalogue: Equatable, Sendable {
        public let language: String
        public let path: String
    }

    /// The catalogues in `directory` (found by `locate`), one a language, in name order.
    public static func catalogues(in directory: String?) -> [Catalogue] {
        guard let directory else { return [] }
        return Files.list(directory).sorted().map { Catalogue(language: $0, path: directory + "/" + $0 + "/LC_MESSAGES/" + Messages.domain + ".mo") }
            .filter { Files.exists($0.path) }
    }

    /// The catalogue folder, in this order:
    /// 1. `MANNA_LOCALEDIR`, when set;
    /// 2. a checkout (`TextDatabaseLocator.checkout`): `.build/locale`, each `po/LANG.po`
    ///    compiled there with `msgfmt` when its `.mo` is missing or older;
    /// 3. the install prefix: `<bin>/../share/locale` (/usr/share/locale for /usr/bin/manna).
    ///
    /// Nil when none holds a catalogue: messages then stay English.
    public static func locate(environment: Environment, executablePath: String) -> String? {
        if let explicit = environment.nonEmpty("MANNA_LOCALEDIR") { return explicit }
        let binDirectory = Files.parent(of: executablePath)
        if let checkout = TextDatabaseLocator.checkout(containing: binDirectory) {
            let directory = checkout + "/.build/locale"
            compile(from: checkout + "/po", into: directory, environment: environment)
            return directory
        }
        let installed = Files.parent(of: binDirectory) + "/share/locale"
        return Files.exists(installed) ? installed : nil
    }

    /// Compiles each `LANG.po` of `po` whose `.mo` in `directory` is missing or older, with
    /// `msgfmt` (the gettext package): a checkout's catalogues are build products, like its
    /// text database. One that cannot be compiled is left out (its messages stay English).
    static func compile(from po: String, into directory: String, environment: Environment) {
        for name in Files.list(po) where name.hasSuffix(".po") {
            let source = po + "/" + name
            let folder = directory + "/" + name.dropLast(3) + "/LC_MESSAGES"
            let target = folder + "/" + Messages.domain + ".mo"
            if let built = TextDatabaseLocator.modificationTime(target),
               let written = TextDatabaseLocator.modificationTime(source), built >= written { continue }
            guard (try? Files.makeDirectories(folder)) != nil else { continue }
            // Written beside and renamed: parallel runs never read a half-written catalogue.
            let temporary = target + ".\(getpid()).tmp"
            let result = try? Subprocess.run("msgfmt", ["--check", "-o", temporary, source], input: nil, environment: environment)
            if result?.status == 0 { _ = try? Files.rename(temporary, to: target) } else { _ = try? Files.remove(temporary) }
        }
    }
}
