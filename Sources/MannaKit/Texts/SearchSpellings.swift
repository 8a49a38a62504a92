// The spellings of the KJV (1769) and Webster's (1833) that people no longer type: a search for
// "honor" finds the KJV's "honour", "show" its "shew", and "shew" finds the WEB's "show".

extension SearchQuery {
    /// Each pair: the spelling people type today, and the older one the texts print. A word
    /// that starts with either is also searched with the other ("honorable" is also
    /// "honourable", "shewbread" also "showbread"). Kept short and curated: each older form
    /// occurs in the KJV (a test checks it), so nothing here is a guess.
    static let olderSpellings: [(today: String, older: String)] = [
        ("honor", "honour"), ("dishonor", "dishonour"), ("neighbor", "neighbour"), ("labor", "labour"),
        ("favor", "favour"), ("savior", "saviour"), ("savor", "savour"), ("color", "colour"),
        ("behavior", "behaviour"), ("vapor", "vapour"), ("rumor", "rumour"), ("armor", "armour"),
        ("odor", "odour"), ("clamor", "clamour"), ("endeavor", "endeavour"), ("valor", "valour"),
        ("counselor", "counsellor"), ("traveler", "traveller"), ("marvelous", "marvellous"),
        ("show", "shew"), ("jailer", "jailor"), ("cloak", "cloke"), ("music", "musick"),
        ("public", "publick"), ("assuage", "asswage"), ("subtle", "subtil"), ("chestnut", "chesnut"),
        ("mold", "mould"),
    ]

    /// `words` (tokens joined by spaces) with each word that starts with a spelling of a pair
    /// written with the other; nil when no word does. The longest spelling a word starts with
    /// decides: "musick" starts with "music" too, and is "music".
    static func otherSpelling(_ words: String) -> String? {
        var changed = false
        let respelled = words.split(separator: " ", omittingEmptySubsequences: false).map { word -> String in
            var best: (from: String, to: String)?
            for pair in olderSpellings {
                for (from, to) in [(pair.today, pair.older), (pair.older, pair.today)]
                where word.hasPrefix(from) && from.count > (best?.from.count ?? 0) {
                    best = (from, to)
                }
            }
            guard let best else { return String(word) }
            changed = true
            return best.to + word.dropFirst(best.from.count)
        }
        return changed ? respelled.joined(separator: " ") : nil
    }
}
