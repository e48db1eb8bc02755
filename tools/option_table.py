#!/usr/bin/env python3
"""The manual's option tables, written from the options' declaration
[issue 45] (companion/options/declared.py): docs/rules.md §2's value of each
option in each preset and §3's values, meanings, rule and seed of each.

    .venv/bin/python tools/option_table.py          # rewrite both tables in docs/rules.md
    .venv/bin/python tools/option_table.py --check  # exit 1 if they differ

Each table sits between `<!-- options:NAME -->` and `<!-- /options:NAME -->`
in docs/rules.md; tests/docs/test_option_table.py fails while they differ.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.options import OPTIONS, PRESETS, Option  # noqa: E402

RULES = ROOT / "docs" / "rules.md"


def _value(value: object) -> str:
    return f"`{str(value).lower() if isinstance(value, bool) else value}`"


def presets_table() -> str:
    """§2: each option's value in each preset."""
    lines = ["| option | " + " | ".join(f"`{p}`" for p in PRESETS) + " |",
             "|---|" + "---|" * len(PRESETS)]
    lines += [f"| `{o.name}` | " + " | ".join(_value(o.defaults[p]) for p in PRESETS) + " |"
              for o in OPTIONS]
    return "\n".join(lines)


def _headings(text: str) -> dict[str, str]:
    """Each heading's anchor (mkdocs' toc: lower case, punctuation out,
    spaces as hyphens) → its title."""
    out = {}
    for title in re.findall(r"^#+ (.*)$", text, re.M):
        out["#" + re.sub(r"[^\w\- ]", "", title.strip().lower()).replace(" ", "-")] = title
    return out


def _rule(option: Option, headings: dict[str, str]) -> str:
    return f"[{headings.get(option.section, option.section)}]({option.section}) {option.seed}"


def options_table(text: str) -> str:
    """§3: each option's values and what each means, its rule's section and
    its seed."""
    headings = _headings(text)
    lines = ["| option | values | meaning | rule |", "|---|---|---|---|"]
    for o in OPTIONS:
        rule = _rule(o, headings)
        if o.kind == "choice":
            for i, c in enumerate(o.choices):
                name, where = (f"`{o.name}`", rule) if i == 0 else ("", "")
                lines.append(f"| {name} | `{c.id}` | {c.doc} | {where} |")
        else:
            values = "`true` / `false`" if o.kind == "flag" else "seconds (integer ≥ 0)"
            lines.append(f"| `{o.name}` | {values} | {o.doc} | {rule} |")
    return "\n".join(lines)


def written(text: str) -> str:
    """docs/rules.md's `text` with both tables as the declaration says."""
    for name, table in (("presets", presets_table()), ("table", options_table(text))):
        pattern = re.compile(rf"(<!-- options:{name} -->\n).*?(\n<!-- /options:{name} -->)",
                             re.S)
        if not pattern.search(text):
            raise SystemExit(f"docs/rules.md has no <!-- options:{name} --> markers")
        text = pattern.sub(lambda m, t=table: m.group(1) + t + m.group(2), text)
    return text


def main(argv: list[str]) -> int:
    text = RULES.read_text(encoding="utf-8")
    new = written(text)
    if "--check" in argv:
        if new != text:
            print("docs/rules.md's option tables differ from companion/options: "
                  "run tools/option_table.py")
            return 1
        return 0
    if new != text:
        RULES.write_text(new, encoding="utf-8")
        print("wrote docs/rules.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
