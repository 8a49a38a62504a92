"""Psalm titles (superscriptions): curated/translations/titles/<CODE>.tsv.

One file per translation that has them, UTF-8, header `book<TAB>chapter<TAB>text`,
`book` the OSIS id (`Ps`), one line per titled psalm in canonical order. The text
follows the verse-text rules of curated/README.md (pilcrows stripped, whitespace
collapsed, no markup, quotes as the source has them). Psalm 119's stanza headings
(ALEPH ... TAU) are not titles and are never written.

    sword_titles(code, library) -> ({chapter: text}, Counter)   KJV, WEB
    wbs_titles(raw)             -> {chapter: text}              WBS (from pypi_texts)
    osis_titles(code, osis, verses, verse_text) -> ({chapter: text}, Counter)
                                                                ASV (OSIS from pypi_texts)
    write_titles(code, titles)  -> path written (after check_titles)

The SWORD modules mark each title as `<title type="psalm" canonical="true">` at the
start of verse 1. Its content goes through the same render as verse text (notes and
red-letter tags become boundary markers, the module's plain render, the boundary
spacing rule, stray USFM markers removed, then `normalise`), and each title is
checked against the module's own render of the whole raw entry, which prints the
title and then the verse: that render must be exactly title + " " + verse.

The ASV's titles come from a whole-Bible OSIS file (milestone verses, `<verse sID/>` ...
`<verse eID/>`) of the same eBible.org edition as its verse text: the same
`<title type="psalm">` element, between the psalm's `<chapter sID/>` and its verse 1.
Its content is plain text and `<transChange>` (added words: the words stay, the marking
goes). The check here: every verse of the Psalms rendered from the OSIS (tags dropped,
then the translation's own verse rules) must equal the verse already read from the
translation's source, so the titles are of that edition and no title words are in, or
missing from, any verse.
"""

import collections
import os
import re

import canon

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TITLES_DIR = os.path.join(ROOT, "curated", "translations", "titles")
HEADER = "book\tchapter\ttext"
FORBIDDEN = "<>{}\\¶\t\r\n"

# Psalms with no title in the KJV (116 of the 150 have one). Each translation's
# count and differences are reported against this set.
KJV_UNTITLED = frozenset({
    1, 2, 10, 33, 43, 71, 91, 93, 94, 95, 96, 97, 99, 104, 105, 106, 107, 111, 112, 113,
    114, 115, 116, 117, 118, 119, 135, 136, 137, 146, 147, 148, 149, 150,
})

_PSALM_TITLE = re.compile(r'<title\b(?=[^>]*\btype="psalm")[^>]*>(.*?)</title>', re.S)
_ANY_TITLE = re.compile(r"<title\b[^>]*>", re.S)


def sword_titles(code, library):
    """{chapter: title} from a SWORD module's `<title type="psalm">` elements."""
    import Sword
    import sword_texts

    name, _package = sword_texts.MODULES[code]
    module = library.module(name)
    key_holder = module.createKey()  # keep: the cast below does not own it
    key = Sword.VerseKey.castTo(key_holder)
    key.setIntros(True)
    stats = collections.Counter()
    titles = {}
    for chapter in range(1, 151):
        key.setText(f"Ps.{chapter}.1")
        key.setChapter(chapter)
        last = key.getVerseMax()
        for verse in range(0, last + 1):
            key.setChapter(chapter)
            key.setVerse(verse)
            if (key.getOSISBookName(), key.getChapter(), key.getVerse()) != ("Ps", chapter, verse):
                raise RuntimeError(f"{code}: cannot position at Ps.{chapter}.{verse}")
            module.setKey(key)
            raw = module.getRawEntry()
            found = _PSALM_TITLE.findall(raw)
            if not found:
                continue
            if chapter == 119:  # the WEB marks ALEPH ... TAU as psalm titles
                stats["Psalm 119 stanza headings left out"] += len(found)
                continue
            if verse != 1 or len(found) != 1 or len(_ANY_TITLE.findall(raw)) != 1:
                raise RuntimeError(f"{code} Ps {chapter}:{verse}: unexpected psalm title "
                                   f"({len(found)} in the entry)")
            if not raw.lstrip().startswith("<") or raw.find("<title") > raw.find("</title>"):
                raise RuntimeError(f"{code} Ps {chapter}:1: title not at the verse start")
            titles[chapter] = _render_title(module, raw, found[0], stats, code, chapter)
    return titles, stats


def _render_title(module, raw, inner, stats, code, chapter):
    import sword_texts as st

    stats["footnotes and cross-references dropped"] += len(st._NOTE.findall(inner))
    prepared = st._NOTE.sub(st.BOUNDARY, inner)
    prepared = st._Q_TAG.sub(st.BOUNDARY, prepared)
    if st.BOUNDARY in inner or st.SEAM in inner:
        raise RuntimeError("source contains a private marker character")
    text = module.renderText(prepared).c_str()
    plain = " ".join(text.replace(st.BOUNDARY, "").split())
    # The second path: the module's render of the whole raw entry prints the title,
    # then the verse (its render of the stored entry, which drops the title).
    whole = " ".join(module.renderText(raw).c_str().split())
    verse = " ".join(module.renderText().c_str().split())
    if whole != f"{plain} {verse}".strip():
        raise RuntimeError(f"{code} Ps {chapter}: title render differs from the module's "
                           f"own: {plain[:60]!r} / {whole[:60]!r}")
    text = st._resolve_boundaries(text, stats)
    text, n = st._USFM_MARKER.subn("", text)
    if n:
        stats["stray USFM markers removed (\\nd)"] += n
    text = st.normalise(text, stats)
    if not text:
        raise RuntimeError(f"{code} Ps {chapter}: empty title")
    return text


_OSIS_TAG = re.compile(r"<[^>]*>")
_OSIS_NOTE = re.compile(r"<note\b.*?</note>", re.S)
_OSIS_VERSE = re.compile(r'<verse osisID="([^"]+)" sID="([^"]+)"[^>]*/>(.*?)<verse eID="\2"\s*/>',
                         re.S)
_OSIS_TITLE_MARKUP = re.compile(r'</?transChange\b[^>]*>')
_OSIS_VERSE_START = re.compile(r'<verse osisID="([^"]+)" sID=')


def osis_titles(code, osis, verses, verse_text):
    """{chapter: title} from an OSIS Bible's `<title type="psalm">` elements, each the
    only title between its psalm's chapter start and verse 1; `verses` is the
    translation as read from its own source and `verse_text(ref, raw)` its verse rules,
    used to check every verse of the Psalms against the OSIS (module docstring)."""
    stats = collections.Counter()
    titles = {}
    book = osis.find('<div type="book" osisID="Ps"')
    book_end = osis.find('<div type="book" osisID="Prov"')
    if not 0 <= book < book_end:
        raise RuntimeError(f"{code}: no book of Psalms in the OSIS")
    in_psalms = len(_PSALM_TITLE.findall(osis, book, book_end))
    for m in _PSALM_TITLE.finditer(osis):
        if not book <= m.start() < book_end:  # the ASV's: the subscription of Habakkuk 3,
            # which pypi_texts.read_asv joins to the end of Hab 3:19 (curated/README.md, ASV)
            where = _OSIS_VERSE_START.findall(osis, 0, m.start())[-1:] or ["the start"]
            stats[f"psalm-type title outside the Psalms, not a psalm title (after {where[0]})"] += 1
    for chapter in range(1, 151):
        start = osis.find(f'<chapter osisID="Ps.{chapter}" sID=', book, book_end)
        verse1 = osis.find(f'<verse osisID="Ps.{chapter}.1" sID=', start, book_end)
        if not 0 <= start < verse1:
            raise RuntimeError(f"{code} Ps {chapter}: chapter or verse 1 not found in the OSIS")
        found = _PSALM_TITLE.findall(osis, start, verse1)
        if not found:
            continue
        if chapter == 119 or len(found) != 1 or len(_ANY_TITLE.findall(osis, start, verse1)) != 1:
            raise RuntimeError(f"{code} Ps {chapter}: unexpected psalm title "
                               f"({len(found)} before verse 1)")
        inner = found[0]
        if "<" in _OSIS_TITLE_MARKUP.sub("", inner):
            raise RuntimeError(f"{code} Ps {chapter}: markup other than <transChange> in "
                               f"the title: {inner[:80]!r}")
        stats["added-word markings dropped (<transChange>), words kept"] += len(
            _OSIS_TITLE_MARKUP.findall(inner)) // 2
        text = " ".join(_OSIS_TAG.sub("", inner).split())
        if not text:
            raise RuntimeError(f"{code} Ps {chapter}: empty title")
        titles[chapter] = text
    if len(titles) != in_psalms:
        raise RuntimeError(f"{code}: {in_psalms - len(titles)} psalm titles in the Psalms "
                           "are not before a verse 1")
    # The second path: the OSIS's own verses of the Psalms against the translation's.
    compared = 0
    for m in _OSIS_VERSE.finditer(osis, book, book_end):
        book_id, chapter, verse = m.group(1).split(".")
        ref = (book_id, int(chapter), int(verse))
        if _PSALM_TITLE.search(m.group(3)):
            raise RuntimeError(f"{code} Ps {chapter}:{verse}: a psalm title inside the verse")
        raw = _OSIS_TAG.sub("", _OSIS_NOTE.sub("", m.group(3)))
        if book_id != "Ps" or verse_text(ref, raw) != verses.get(ref):
            raise RuntimeError(f"{code} {m.group(1)}: the OSIS verse differs from the "
                               f"translation's: {raw.strip()[:60]!r} / {verses.get(ref)!r}")
        compared += 1
    expected = sum(1 for ref in verses if ref[0] == "Ps")
    if compared != expected:
        raise RuntimeError(f"{code}: {compared} verses of the Psalms in the OSIS, "
                           f"{expected} in the translation")
    stats["verses of the Psalms equal to the OSIS's"] = compared
    return titles, stats


def wbs_titles(raw):
    """The WBS titles: the text pypi_texts.read_wbs removed from the start of verse 1
    (rule 5 of the WBS section), kept whole. Ps 18's ends "...: And he said," as the
    KJV's title does, and stays so (the KJV and WEB titles end the same way)."""
    return {chapter: " ".join(text.split()) for chapter, text in raw.items()}


def check_titles(code, titles):
    problems = []
    for chapter, text in titles.items():
        if not isinstance(chapter, int) or not 1 <= chapter <= 150:
            problems.append(f"Ps {chapter!r} is not a psalm")
            continue
        if chapter == 119:
            problems.append("Ps 119 has stanza headings, not a title")
        if not isinstance(text, str) or not text:
            problems.append(f"Ps {chapter}: empty title")
            continue
        if text != " ".join(text.split()):
            problems.append(f"Ps {chapter}: whitespace not normalised")
        bad = sorted({c for c in text if c in FORBIDDEN or ord(c) < 32 or 0x7f <= ord(c) < 0xa0
                      or c in "\u200b\u200c\u200d\u2028\u2029\ufeff\ue000\ue001"})
        if bad:
            problems.append(f"Ps {chapter}: forbidden characters {bad!r}")
    if problems:
        raise SystemExit(f"import: {code} titles: " + "; ".join(problems[:20]))


def titles_tsv(titles):
    lines = [HEADER] + [f"Ps\t{c}\t{titles[c]}" for c in sorted(titles)]
    return "\n".join(lines) + "\n"


def differences(titles):
    """(untitled here but titled in the KJV, titled here but not in the KJV)."""
    have = set(titles)
    kjv = set(range(1, 151)) - KJV_UNTITLED
    return sorted(kjv - have), sorted(have - kjv)


def write_titles(code, titles, write_atomically):
    check_titles(code, titles)
    assert canon.BOOK_NUMBER["Ps"] == 19
    path = os.path.join(TITLES_DIR, f"{code}.tsv")
    write_atomically(path, titles_tsv(titles))
    return path


def read_titles(path):
    titles = {}
    with open(path, encoding="utf-8", newline="\n") as f:
        header = f.readline().rstrip("\n")
        if header != HEADER:
            raise SystemExit(f"{path}: unexpected header {header!r}")
        for line in f:
            book, chapter, text = line.rstrip("\n").split("\t")
            if book != "Ps":
                raise SystemExit(f"{path}: {book} is not Ps")
            titles[int(chapter)] = text
    return titles
