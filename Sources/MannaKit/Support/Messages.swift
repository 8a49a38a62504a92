// The interface in the reader's language: GNU gettext through glibc, the catalogue `manna`
// (po/, docs/ARCHITECTURE.md, "Messages and languages"). Every message a user reads is marked
// with `tr` or `trn`; tools/make-pot finds them, translators write po/LANG.po.
#if canImport(Glibc)
import Glibc
#endif
import CGettext

/// The language messages are shown in, and where its catalogue is: chosen from the environment
/// as every program chooses (`LC_ALL`, else `LC_MESSAGES`, else `LANG`; `LANGUAGE` under any
/// locale but C), looked up with glibc's `dgettext`/`dngettext` under that locale.
///
/// English, the language of the sources, costs nothing: no locale is opened and no catalogue
/// read. Another language binds the catalogue at its first lookup, never before, so a command
/// that prints no message (`manna prompt`) pays nothing whatever the locale.
public struct Messages: Sendable {
    /// The locale to look messages up under ("es_ES.UTF-8"); nil for English.
    public let locale: String?
    /// The language they are in: the first `LANGUAGE` names, else the locale's ("es"); "en".
    public let language: String
    /// The folder holding `LANG/LC_MESSAGES/manna.mo`, found when first needed.
    let catalogues: @Sendable () -> String?

    /// Untranslated: the sources' English.
    public static let english = Messages(locale: nil, catalogues: { nil })

    /// The messages of the run on this thread, bound by `Manna.run` from its context's
    /// environment (`withCurrent`); English where nothing bound them (core code called
    /// directly, as tests do). A thread's own, so parallel runs in one process (the tests) each
    /// see theirs. A pthread key rather than a `@TaskLocal`: that would link Swift's concurrency
    /// runtime and libdispatch into the static `manna`, whose start-up they would add to.
    public static var current: Messages {
        guard let bound = pthread_getspecific(currentKey) else { return .english }
        return Unmanaged<Bound>.fromOpaque(bound).takeUnretainedValue().messages
    }

    /// Runs `body` with `messages` as `current` on this thread, then puts back what was.
    public static func withCurrent<Result>(_ messages: Messages, _ body: () throws -> Result) rethrows -> Result {
        let bound = Bound(messages)
        let previous = pthread_getspecific(currentKey)
        pthread_setspecific(currentKey, Unmanaged.passUnretained(bound).toOpaque())
        defer {
            pthread_setspecific(currentKey, previous)
            withExtendedLifetime(bound) {}
        }
        return try body()
    }

    private final class Bound {
        let messages: Messages
        init(_ messages: Messages) { self.messages = messages }
    }

    private static let currentKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// The gettext domain: the catalogue's file name, `manna.mo`.
    public static let domain = "manna"

    public init(locale: String?, language: String? = nil, catalogues: @escaping @Sendable () -> String?) {
        self.locale = locale
        self.language = locale.map { language ?? Messages.language(of: $0) } ?? "en"
        self.catalogues = catalogues
    }

    /// The messages `environment` asks for, their catalogues found by `catalogues` (called at
    /// the first lookup).
    public init(environment: Environment, catalogues: @escaping @Sendable () -> String?) {
        let locale = Messages.localeName(environment)
        let languages = environment.nonEmpty("LANGUAGE")
        guard Messages.translates(locale: locale, languages: languages) else {
            self.init(locale: nil, catalogues: catalogues)
            return
        }
        // glibc reads LANGUAGE itself (from the process's environment, which is this one).
        self.init(locale: locale, language: languages.map(Messages.language(of:)), catalogues: catalogues)
    }

    /// The locale of messages as POSIX says: the first of `LC_ALL`, `LC_MESSAGES`, `LANG` that is
    /// set and not empty; "C" when none is.
    static func localeName(_ environment: Environment) -> String {
        environment.nonEmpty("LC_ALL") ?? environment.nonEmpty("LC_MESSAGES") ?? environment.nonEmpty("LANG") ?? "C"
    }

    /// Whether messages may be other than English: not under C or POSIX (glibc then ignores
    /// `LANGUAGE` too), and not when the language asked first (`LANGUAGE`'s, else the locale's)
    /// is English. Byte by byte: every command asks, `manna prompt` too.
    static func translates(locale: String, languages: String?) -> Bool {
        if locale == "POSIX" || names(locale.utf8, "C") { return false }
        return !names((languages ?? locale).utf8, "en")
    }

    /// Whether a locale or `LANGUAGE` list starts with `language`: "en", "en_US.UTF-8", "en:es".
    private static func names(_ name: String.UTF8View, _ language: StaticString) -> Bool {
        var bytes = name.makeIterator()
        for byte in UnsafeBufferPointer(start: language.utf8Start, count: language.utf8CodeUnitCount) where bytes.next() != byte { return false }
        guard let next = bytes.next() else { return true }
        return next == UInt8(ascii: "_") || next == UInt8(ascii: ".") || next == UInt8(ascii: "@") || next == UInt8(ascii: ":")
    }

    /// The language of a text database's translation ("es"), for what stays with the text
    /// (a note inside a passage): the user's messages when they are in that language, else that
    /// language's messages when its locale is installed, else English.
    public func forText(language: String) -> Messages {
        if self.language == language { return self }
        if language == "en" { return Messages(locale: nil, catalogues: catalogues) }
        return Messages(locale: language + "_" + language.uppercased() + ".UTF-8", catalogues: catalogues)
    }

    /// `body`'s messages in the text's `language` (`forText`): what stays with a passage.
    public static func inTextLanguage<Result>(_ language: String, _ body: () -> Result) -> Result {
        withCurrent(current.forText(language: language), body)
    }

    /// "es" of "es_ES.UTF-8" (and of a `LANGUAGE` list, "es:en").
    static func language(of locale: String) -> String {
        String(locale.prefix { $0 != "_" && $0 != "." && $0 != "@" && $0 != ":" })
    }

    /// `msgid` in this language.
    public func text(_ msgid: StaticString) -> String {
        guard locale != nil else { return msgid.description }
        return lookUp { handle in
            msgid.withUTF8Buffer { id in
                guard let found = dgettext(Messages.domain, id.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) })
                else { return nil }
                return String(cString: found)
            }
        } ?? msgid.description
    }

    /// A message marked where it is declared rather than where it is shown (a command's abstract
    /// and its options' help: `abstract: "…"`, `help: "…"`, which tools/make-pot reads), looked up
    /// when shown; itself where the catalogue lacks it.
    public func text(marked msgid: String) -> String {
        guard locale != nil else { return msgid }
        return lookUp { _ in dgettext(Messages.domain, msgid).map { String(cString: $0) } } ?? msgid
    }

    /// `singular` or `plural`, as this language's plural rule chooses for `count`.
    public func text(_ singular: StaticString, _ plural: StaticString, count: Int) -> String {
        let english = count == 1 ? singular.description : plural.description
        guard locale != nil else { return english }
        return lookUp { _ in
            singular.withUTF8Buffer { one in
                plural.withUTF8Buffer { many in
                    let found = dngettext(Messages.domain, one.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) },
                                          many.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) },
                                          UInt(clamping: count.magnitude))
                    return found.map { String(cString: $0) }
                }
            }
        } ?? english
    }

    /// A date as this language writes it: English keeps ISO 8601 ("2026-03-07"); a translation
    /// gives a `strftime` format for its catalogue's "%Y-%m-%d", which glibc fills from the
    /// locale's own day and month names ("sábado 7 de marzo").
    public func date(_ date: LocalDate) -> String {
        guard locale != nil else { return date.description }
        let format = self.text("%Y-%m-%d")
        return lookUp { handle in
            var time = tm()
            time.tm_year = Int32(date.year - 1900)
            time.tm_mon = Int32(date.month - 1)
            time.tm_mday = Int32(date.day)
            time.tm_wday = Int32(date.weekday)
            var buffer = [CChar](repeating: 0, count: 128)
            let written = strftime_l(&buffer, buffer.count, format, &time, handle)
            return written > 0 ? String(decoding: buffer.prefix(written).map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
        } ?? date.description
    }

    /// Runs `body` under this locale (on this thread only: glibc's `uselocale`), with the
    /// catalogue bound; nil when the locale is not installed or there is no catalogue.
    private func lookUp(_ body: (locale_t) -> String?) -> String? {
        guard let locale, let handle = Messages.binding.handle(locale: locale, catalogues: catalogues) else { return nil }
        let previous = uselocale(handle)
        defer { uselocale(previous) }
        return body(handle)
    }

    /// What is bound once per process: the catalogue folder, and each locale opened.
    private static let binding = Binding()

    private final class Binding: @unchecked Sendable {
        private let lock = Lock()
        private var boundDirectory: String?
        private var handles: [(name: String, handle: locale_t?)] = []

        /// The opened locale `name`, with the domain bound to the catalogue folder the first
        /// time one is found; nil when either is missing (messages stay English, as glibc's own
        /// would).
        func handle(locale name: String, catalogues: () -> String?) -> locale_t? {
            lock.withLock {
                if boundDirectory == nil, let directory = catalogues() {
                    boundDirectory = directory
                    bindtextdomain(Messages.domain, directory)
                    // The catalogues are UTF-8 and so is what Manna writes: no conversion, which a
                    // static program could not load (gconv modules are dlopen'd).
                    bind_textdomain_codeset(Messages.domain, "UTF-8")
                }
                guard boundDirectory != nil else { return nil }
                if let opened = handles.first(where: { $0.name == name }) { return opened.handle }
                let handle = newlocale(LC_MESSAGES_MASK | LC_CTYPE_MASK | LC_TIME_MASK, name, nil)
                handles.append((name, handle))
                return handle
            }
        }
    }
}

/// A value put into a message: text as it is, a number in figures.
public protocol MessageArgument {
    var messageText: String { get }
}

extension String: MessageArgument {
    public var messageText: String { self }
}

extension Substring: MessageArgument {
    public var messageText: String { String(self) }
}

extension Int: MessageArgument {
    public var messageText: String { String(self) }
}

/// `msgid` in the reader's language (`Messages.current`). Only a literal: it is the key
/// tools/make-pot puts in po/manna.pot.
public func tr(_ msgid: StaticString) -> String {
    Messages.current.text(msgid)
}

/// `msgid` in the reader's language with each `{name}` replaced by its argument: named, so a
/// translator may move them ("{book} has only {count} chapters" -> "{book} solo tiene {count}
/// capítulos"), checked by `msgfmt --check` as python-brace-format.
public func tr(_ msgid: StaticString, _ arguments: (String, any MessageArgument)...) -> String {
    Messages.filling(Messages.current.text(msgid), arguments)
}

/// The singular or plural message for `count`, chosen by the language's plural rule (gettext's
/// `ngettext`), with `{count}` and each named argument filled in.
public func trn(_ singular: StaticString, _ plural: StaticString, count: Int, _ arguments: (String, any MessageArgument)...) -> String {
    Messages.filling(Messages.current.text(singular, plural, count: count), [("count", count)] + arguments)
}

extension Messages {
    /// `template` with `{name}` replaced by the argument of that name; a name with no argument
    /// stays as written (a translator's typo shows, it does not crash).
    static func filling(_ template: String, _ arguments: [(String, any MessageArgument)]) -> String {
        guard template.utf8.contains(UInt8(ascii: "{")) else { return template }
        var out = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            out += rest[..<open]
            let name = rest[rest.index(after: open)..<close]
            if let value = arguments.first(where: { $0.0 == name }) { out += value.1.messageText } else { out += rest[open...close] }
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }
}
