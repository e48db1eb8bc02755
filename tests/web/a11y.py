"""axe-core in the browser tests [issue 43]: `axe(page, where)` runs the
WCAG 2.1 A and AA rules of axe-core (bundled in the axe-playwright-python
wheel: nothing is downloaded at test time) on the page as it is now, and
fails on any violation of impact "serious" or "critical". Every violation,
whatever its impact, is also written to test-artifacts/axe/<test>.jsonl
(page state, rule, impact, nodes), the record the manual's accessibility
page lists the moderate and minor ones from.

Called by the browser tests at the states they already reach (the lobby,
the seats, the night, the day, the vote, the turns, the candidates, the
dead, the end, the story; the TV, the host page, /help), so the check costs
one axe run a state (about a fifth of a second), never a game of its own.
`AXE_ONLY_RECORD=1` records without failing (the audit of a branch that
does not pass yet).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "test-artifacts" / "axe"
#: the rules of WCAG 2.0 and 2.1, levels A and AA (axe-core's tags)
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
FAILING = ("serious", "critical")

_SCRIPT: str | None = None


def _script() -> str:
    global _SCRIPT
    if _SCRIPT is None:
        from axe_playwright_python.base import AXE_SCRIPT

        _SCRIPT = AXE_SCRIPT
    return _SCRIPT


def violations(page: Any) -> list[dict]:
    """axe-core's WCAG 2.1 A/AA violations on `page` as it is now."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(_script())  # once a page load
    result = page.evaluate(
        "(tags) => axe.run(document, {runOnly: {type: 'tag', values: tags},"
        " resultTypes: ['violations']}).then((r) => r.violations.map((v) => ({"
        " id: v.id, impact: v.impact, help: v.help,"
        " nodes: v.nodes.map((n) => ({target: n.target.join(' '), html: n.html.slice(0, 160),"
        " summary: (n.failureSummary || '').slice(0, 300)}))})))", TAGS)
    return list(result)


def _test_name() -> str:
    current = os.environ.get("PYTEST_CURRENT_TEST", "manual").split(" ")[0]
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", current.rsplit("::", 1)[-1])


def axe(page: Any, where: str) -> list[dict]:
    """[issue 43]: no serious or critical WCAG 2.1 A/AA violation on `page`
    (`where` names the page's state in the record and the failure)."""
    found = violations(page)
    OUT.mkdir(parents=True, exist_ok=True)
    lang = page.evaluate("() => document.documentElement.lang")
    with (OUT / f"{_test_name()}.jsonl").open("a", encoding="utf-8") as f:
        f.write(json.dumps({"where": where, "lang": lang, "url": page.url,
                            "violations": found}, ensure_ascii=False) + "\n")
    bad = [v for v in found if v["impact"] in FAILING]
    if bad and not os.environ.get("AXE_ONLY_RECORD"):
        lines = [f"{v['id']} ({v['impact']}, {len(v['nodes'])} node(s)): {v['help']}; "
                 f"{v['nodes'][0]['target']}: {v['nodes'][0]['summary']}" for v in bad]
        raise AssertionError(f"axe [issue 43], {where} ({lang}): " + "\n".join(lines))
    return found
