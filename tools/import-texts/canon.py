"""The 66-book Protestant canon in canonical order, shared by every import step.

Book numbers are 1-based positions in BOOKS; they are the `book` part of a Manna
verse id (book * 1_000_000 + chapter * 1_000 + verse).
"""

import os

ENGLISH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "curated", "book-names", "en.tsv")


def english_rows():
    """[(OSIS id, English name, abbreviations)] from curated/book-names/en.tsv, the table
    Manna's parser is generated from (tools/make-book-names)."""
    with open(ENGLISH, encoding="utf-8") as f:
        lines = f.read().rstrip("\n").split("\n")
    assert lines[0] == "book\tname\tabbreviations", ENGLISH
    return [tuple(line.split("\t")) for line in lines[1:]]


# Chapters in each book, KJV numbering (the import checks every text against them; Manna's
# own verse counts are generated from the KJV text it imports).
CHAPTERS = [
    50, 40, 27, 36, 34, 24, 21, 4, 31, 24, 22, 25, 29, 36, 10, 13, 10, 42, 150, 31, 12, 8, 66, 52,
    5, 48, 12, 14, 3, 9, 1, 4, 7, 3, 3, 3, 2, 14, 4, 28, 16, 24, 21, 28, 16, 16, 13, 6, 6, 4, 4,
    5, 3, 6, 4, 3, 1, 13, 5, 5, 3, 5, 1, 1, 1, 22,
]

# (OSIS id, English name as Manna prints it, chapters)
BOOKS = [(osis, name, chapters) for (osis, name, _), chapters in zip(english_rows(), CHAPTERS)]

assert len(BOOKS) == 66 and sum(b[2] for b in BOOKS) == 1189

OSIS_IDS = [b[0] for b in BOOKS]
BOOK_NUMBER = {osis: i + 1 for i, osis in enumerate(OSIS_IDS)}
