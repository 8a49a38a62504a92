// The help of `--translation` (`-t`, declared in Options), one for every command that reads a
// translation. The translations it names are the text database's, built from
// the catalogue (curated/translations/translations.tsv), so a new row is listed everywhere.
import MannaKit

enum TranslationOption {
    /// How the translation is chosen when the option is not given, as `Context.translation`
    /// chooses it, in every command that takes the option (KJV: `Config.defaultTranslation`,
    /// which a test holds it to). Literals, not interpolations: every spec that takes the
    /// option is built from them at start, `read`'s too.
    static let fallback = "default: $MANNA_TRANSLATION, else the config's translation, else KJV"

    /// What a spec declares for `--translation`, and its help where no text database can be
    /// opened to name the translations.
    static let help = "a translation's code, like KJV (default: $MANNA_TRANSLATION, else the config's translation, else KJV)"

    /// The help shown: the translations of `translations` (a spec's declared `help` when nil).
    static func help(listing translations: [Translation]?) -> String {
        guard let translations, !translations.isEmpty else { return help }
        return codes(translations) + " (" + fallback + ")"
    }

    /// "KJV, ASV, WBS, WEB or RV1909 (Spanish)": every code, in display order, each in a language
    /// other than the first's (the default's) with its language's name.
    static func codes(_ translations: [Translation]) -> String {
        let first = translations.first?.language
        return listed(translations.map { $0.language == first ? $0.code : "\($0.code) (\(Language.of($0.language).name))" }, conjunction: "or")
    }

    /// "five public-domain translations (KJV, ASV, WBS, WEB in English, RV1909 in Spanish)":
    /// the translations of `translations` by language, for the man page.
    static func described(_ translations: [Translation]) -> String {
        guard !translations.isEmpty else { return "the translations of a text database" }
        let numbers = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]
        let count = translations.count <= numbers.count ? numbers[translations.count - 1] : String(translations.count)
        let publicDomain = translations.allSatisfy { $0.licence.hasPrefix("Public domain") } ? "public-domain " : ""
        var languages: [String] = []
        for translation in translations where !languages.contains(translation.language) { languages.append(translation.language) }
        let groups = languages.map { language in
            translations.filter { $0.language == language }.map(\.code).joined(separator: ", ") + " in " + Language.of(language).name
        }
        return "\(count) \(publicDomain)translation\(translations.count == 1 ? "" : "s") (\(groups.joined(separator: ", ")))"
    }
}
