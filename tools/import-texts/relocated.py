"""Verses a translation numbers where our KJV-numbered text does not have them.

curated/translations/relocated.tsv, header `translation<TAB>verse<TAB>at<TAB>note`:
`verse` is a reference a reader may ask for (OSIS, Rom.14.24) that is not a verse of
the translation's TSV: a number the translation itself prints (the WEB's Romans
14:24-26) or that newer editions give (3 John 1:15, Revelation 12:18), for text the
TSV holds at `at` (KJV numbering). So a reader asked for WEB Romans 14:24 can say it
is Romans 16:25 here. Only text that is in the TSV
is listed: a verse given only in a footnote (WEB Luke 17:36, Acts 8:37, 15:34,
24:7) or lost by the source (WBS Isa 64:2, ...) is a gap, not a relocation.

Each row is checked against the written TSV: `verse` has no line there, `at` has
one, and that text holds the row's expected words (the first ones of the relocated
text). Rows of translations whose TSV is missing are kept out with a warning.
"""

import os
import sys

import canon

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TRANSLATIONS_DIR = os.path.join(ROOT, "curated", "translations")
PATH = os.path.join(TRANSLATIONS_DIR, "relocated.tsv")
HEADER = "translation\tverse\tat\tnote"

_DOXOLOGY = ("The WEB prints the Romans doxology as Romans 14:24-26 (after the Majority "
             "Text); the KJV and this text number it Romans 16:25-27. The WEB's footnote: "
             "TR places verses 24-26 after Romans 16:24 as verses 25-27.")

_3JOHN = ("Newer editions (NRSV, ESV) number the closing greeting (\"Peace be to you ...\") "
          "3 John 1:15; this translation, as the KJV, has it at the end of 3 John 1:14.")
_REV = ("Newer editions (NRSV, ESV) number \"(he) stood on the sand of the sea\" "
        "Revelation 12:18; this translation, as the KJV, has it at the start of 13:1.")

# (translation, verse, at, words the text at `at` contains, note)
ROWS = [
    ("WEB", "Rom.14.24", "Rom.16.25", "Now to him who is able to establish you", _DOXOLOGY),
    ("WEB", "Rom.14.25", "Rom.16.26", "but now is revealed, and by the Scriptures", _DOXOLOGY),
    ("WEB", "Rom.14.26", "Rom.16.27", "to the only wise God, through Jesus Christ", _DOXOLOGY),
    # Newer editions (NRSV, ESV; the WEB module's NRSVA versification has the slots,
    # empty) number these as verses of their own; all four translations here print
    # them, as the KJV does, inside the verse next to them.
    ("KJV", "3John.1.15", "3John.1.14", "Peace be to thee. Our friends salute thee.", _3JOHN),
    ("KJV", "Rev.12.18", "Rev.13.1", "And I stood upon the sand of the sea,", _REV),
    ("ASV", "3John.1.15", "3John.1.14", "Peace be unto thee. The friends salute thee.", _3JOHN),
    ("ASV", "Rev.12.18", "Rev.13.1", "and he stood upon the sand of the sea.", _REV),
    ("WBS", "3John.1.15", "3John.1.14", "Peace be to thee. Our friends salute thee.", _3JOHN),
    ("WBS", "Rev.12.18", "Rev.13.1", "And I stood upon the sand of the sea,", _REV),
    ("WEB", "3John.1.15", "3John.1.14", "Peace be to you. The friends greet you.", _3JOHN),
    ("WEB", "Rev.12.18", "Rev.13.1", "Then I stood on the sand of the sea.", _REV),
]


def _ref(osis_ref):
    book, chapter, verse = osis_ref.split(".")
    if book not in canon.BOOK_NUMBER:
        raise SystemExit(f"relocated: unknown book in {osis_ref}")
    return (book, int(chapter), int(verse))


ORDER = ["KJV", "ASV", "WBS", "WEB"]  # as translations.tsv; any other code after them


def _key(row):
    code, verse, _at, _words, _note = row
    ref = _ref(verse)
    rank = ORDER.index(code) if code in ORDER else len(ORDER)
    return (rank, code, canon.BOOK_NUMBER[ref[0]], ref[1], ref[2])


def build(read_tsv):
    """relocated.tsv's text, every row checked against curated/translations/<CODE>.tsv."""
    lines = [HEADER]
    loaded = {}
    for row in sorted(ROWS, key=_key):
        code, verse, at, words, note = row
        path = os.path.join(TRANSLATIONS_DIR, f"{code}.tsv")
        if code not in loaded:
            loaded[code] = read_tsv(path) if os.path.exists(path) else None
        verses = loaded[code]
        if verses is None:
            print(f"warning: relocated.tsv: {code}.tsv is missing; its rows left out",
                  file=sys.stderr)
            continue
        if _ref(verse) in verses:
            raise SystemExit(f"import: relocated {code} {verse}: the TSV has that verse")
        text = verses.get(_ref(at))
        if text is None or text.count(words) != 1:
            raise SystemExit(f"import: relocated {code} {verse}: {at} does not hold {words!r}")
        if any(c in "\t\n" for c in note):
            raise SystemExit(f"import: relocated {code} {verse}: tab or newline in the note")
        lines.append("\t".join([code, verse, at, note]))
    return "\n".join(lines) + "\n", len(lines) - 1
