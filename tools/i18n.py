#!/usr/bin/env python3
"""The message catalogs' workflow [issue 6] (docs/pages.md, *Languages*).

    .venv/bin/python tools/i18n.py            # extract → update → compile
    .venv/bin/python tools/i18n.py missing    # list untranslated msgids (exit 1 if any)
    .venv/bin/python tools/i18n.py compile    # only recompile the .mo files
    .venv/bin/python tools/i18n.py fill F.json  # set translations {lang: {msgid: text}}, compile

1. extract: every `_()`, `gettext()`, `pgettext()`, `ngettext()`, `N_()`,
   `P_()` in companion/**.py and web/templates/**.html, and every `t()`,
   `tn()`, `N_()` of the pages' scripts web/static/**.js (babel.cfg; the
   hub gives each page the translations of its scripts' msgids) into
   companion/words/translations/messages.pot (no source locations, sorted, fixed header
   date: a rerun with the same messages changes no file, and concurrent
   edits of the pages do not conflict in the catalogs);
2. update: merge it into companion/words/translations/{en,ja,zh_Hant}/LC_MESSAGES/messages.po
   (a new msgid arrives with an empty msgstr; no fuzzy guesses; msgids that
   left the code are dropped);
3. compile: each .po into its .mo (commit both).

After adding text to a page, a script or companion/words/: run this, fill the
empty `msgstr ""` of the new entries in ja and zh_Hant (`missing` lists
them; English may stay empty: it falls back to the msgid; keep every
`{placeholder}` of the msgid), run `compile` (or the whole thing) again, and
commit the .pot, .po and .mo files. tests/words/test_catalogs.py fails while a
msgid has no Japanese or Chinese translation or a .mo differs from its .po.
Role names follow the rule sources' own words (RULES.md §9, the test lists
them).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.words.catalogs import (  # noqa: E402
    LANGUAGES,
    extract_messages,
    mo_bytes,
    po_bytes,
    read_catalog,
    translations_dir,
    untranslated,
)


def _write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_bytes() != data:
        path.write_bytes(data)
        print(f"wrote {path.relative_to(ROOT)}")


def update() -> None:
    from babel.messages.catalog import Catalog

    template = extract_messages(ROOT)
    _write(translations_dir() / "messages.pot", po_bytes(template))
    for lang in LANGUAGES:
        po = translations_dir() / lang / "LC_MESSAGES" / "messages.po"
        if po.exists():
            catalog = read_catalog(lang)
        else:
            catalog = Catalog(locale=lang, project=template.project,
                              creation_date=template.creation_date)
        catalog.update(template, no_fuzzy_matching=True)
        catalog.project, catalog.fuzzy = template.project, False
        catalog.header_comment = (f"# {lang} messages of {template.project}: the pages and the "
                                  "moderator's script.\n# Workflow: tools/i18n.py.\n#")
        catalog.revision_date = template.creation_date
        catalog.obsolete.clear()
        _write(po, po_bytes(catalog))


def compile_() -> None:
    for lang in LANGUAGES:
        catalog = read_catalog(lang)
        _write(translations_dir() / lang / "LC_MESSAGES" / "messages.mo", mo_bytes(catalog))


def missing() -> int:
    count = 0
    for lang in LANGUAGES[1:]:
        for context, msgid in untranslated(read_catalog(lang)):
            count += 1
            print(f"{lang}: {f'[{context}] ' if context else ''}{msgid!r}")
    return count


def fill(path: Path) -> int:
    """Set the translations a JSON file gives, `{"ja": {msgid: text}, ...}`
    (a msgid with a context as gettext keys it: "context\\u0004msgid"; a msgid
    the catalog lacks is an error: run the update first), then compile."""
    import json

    given = json.loads(path.read_text(encoding="utf-8"))
    unknown = 0
    for lang, texts in given.items():
        catalog = read_catalog(lang)
        for msgid, text in texts.items():
            context, _, bare = msgid.rpartition("\x04")
            message = catalog.get(bare, context or None)
            if message is None:
                print(f"{lang}: no msgid {msgid!r} in the catalog", file=sys.stderr)
                unknown += 1
                continue
            message.string = text
        _write(translations_dir() / lang / "LC_MESSAGES" / "messages.po", po_bytes(catalog))
    compile_()
    return 1 if unknown else 0


def main(argv: list[str]) -> int:
    what = argv[0] if argv else "all"
    if what == "fill" and len(argv) == 2:
        return fill(Path(argv[1]))
    if what == "missing":
        return 1 if missing() else 0
    if what == "compile":
        compile_()
        return 0
    if what != "all":
        print(__doc__)
        return 2
    update()
    compile_()
    left = missing()
    if left:
        print(f"{left} message(s) still need a translation", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
