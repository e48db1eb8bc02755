#!/usr/bin/env python3
"""The display's reference frames [issue 7]: renders each view below with
companion.firmware.display and writes tests/firmware/reference/<name>.png,
which tests/firmware/test_display.py compares pixel for pixel.

    .venv/bin/python tools/make_reference_frames.py            # rewrite the PNGs
    .venv/bin/python tools/make_reference_frames.py --preview DIR   # and ×4 copies to look at

Needs GNU Unifont (fonts-unifont). Look at every frame (scaled up) before
committing new references: they are reviewed by eye.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.firmware import display  # noqa: E402

REFERENCE = ROOT / "tests" / "firmware" / "reference"
GM_URL = "http://192.168.4.1:8000/gm?token=Xq3vT0kq9wS2pZ8aB7cD1e"
NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus"]
NOW = 1_700_000_000.0


def players(dead: dict[int, str | None] | None = None, sheriff: int | None = None,
            names: list[str] = NAMES) -> list[dict]:
    dead = dead or {}
    return [{"seat": i, "name": n, "alive": i not in dead, "sheriff": i == sheriff,
             "role": dead.get(i), "can_vote": i not in dead} for i, n in enumerate(names)]


def base(phase: str, n: int, step: str, pace: dict, **more: object) -> dict:
    view = {"phase": phase, "n": n, "step": step, "pace": pace, "players": players(),
            "sheriff": None, "deaths": [], "announcements": [], "language": "en",
            "now": NOW, "line": ""}
    view.update(more)
    return view


DAWN = {"kind": "dawn", "time": "night 1", "n": 1,
        "deaths": [{"seat": 3, "name": "Dan", "role": "villager", "cause": None}]}
ELECTION = {"kind": "tally", "time": "day 1", "step": "election", "round": 1,
            "votes": {"0": 1, "1": 0, "2": 4, "4": 2, "5": 2, "6": 2},
            "counts": {"1": 1, "0": 1, "4": 1, "2": 3}, "top": 3, "tie": None,
            "ballots": [{"voter": 0, "target": 1, "weight": 1},
                        {"voter": 1, "target": 0, "weight": 1},
                        {"voter": 2, "target": 4, "weight": 1},
                        {"voter": 4, "target": 2, "weight": 1},
                        {"voter": 5, "target": 2, "weight": 1},
                        {"voter": 6, "target": 2, "weight": 1}], "extra": []}
ELECTED = {"kind": "sheriff", "time": "day 1", "seat": 2, "how": "elected"}
# the sheriff (Cid) votes Ann: Ann 3 (his two and Eve's), Eve 2, Bob 2
VOTE = {"step": "vote", "round": 1, "votes": {"2": 0, "4": 0, "0": 4, "1": 4, "5": 1, "6": 1},
        "counts": {"0": 3, "4": 2, "1": 2}, "top": 3, "tie": None,
        "ballots": [{"voter": 0, "target": 4, "weight": 1},
                    {"voter": 1, "target": 4, "weight": 1},
                    {"voter": 2, "target": 0, "weight": 2},
                    {"voter": 4, "target": 0, "weight": 1},
                    {"voter": 5, "target": 1, "weight": 1},
                    {"voter": 6, "target": 1, "weight": 1}], "extra": []}
# a tie 3–3 between Ann and Eve (the sheriff's two on Ann): a runoff
TIED = {"step": "vote", "round": 1, "votes": {"2": 0, "5": 0, "0": 4, "1": 4, "6": 4},
        "counts": {"0": 3, "4": 3}, "top": 3, "tie": [0, 4],
        "ballots": [{"voter": 0, "target": 4, "weight": 1},
                    {"voter": 1, "target": 4, "weight": 1},
                    {"voter": 2, "target": 0, "weight": 2},
                    {"voter": 5, "target": 0, "weight": 1},
                    {"voter": 6, "target": 4, "weight": 1}], "extra": []}
# the village: a poster accused Eve last night, two votes on her; the sheriff
# (Cid) votes Bob, who goes with 5 (Ann, Cid ×2, Fay, Gus); Eve 3 (Bob, the
# poster's two), Ann 1 (Eve); the counts are the tally's, not worked out here
POSTED = {"step": "vote", "round": 1, "poster": 4,
          "votes": {"0": 1, "1": 4, "2": 1, "4": 0, "5": 1, "6": 1},
          "counts": {"1": 5, "4": 3, "0": 1}, "top": 5, "tie": None,
          "ballots": [{"voter": 0, "target": 1, "weight": 1},
                      {"voter": 1, "target": 4, "weight": 1},
                      {"voter": 2, "target": 1, "weight": 2},
                      {"voter": 4, "target": 0, "weight": 1},
                      {"voter": 5, "target": 1, "weight": 1},
                      {"voter": 6, "target": 1, "weight": 1}],
          "extra": [{"source": "poster", "target": 4, "votes": 2}]}
# no sheriff yet: one ballot a voter, and the poster's two on Ann
POSTED_ONLY = {"step": "vote", "round": 1, "poster": 0,
               "votes": {"0": 1, "1": 4, "2": 4, "4": 1, "5": 4, "6": None},
               "counts": {"4": 3, "0": 2, "1": 2}, "top": 3, "tie": None,
               "ballots": [{"voter": 0, "target": 1, "weight": 1},
                           {"voter": 1, "target": 4, "weight": 1},
                           {"voter": 2, "target": 4, "weight": 1},
                           {"voter": 4, "target": 1, "weight": 1},
                           {"voter": 5, "target": 4, "weight": 1},
                           {"voter": 6, "target": None, "weight": 1}],
               "extra": [{"source": "poster", "target": 0, "votes": 2}]}
EXECUTED = {"kind": "death", "time": "day 1", "seat": 0, "name": "Ann", "role": "werewolf",
            "cause": "execution"}
OVER = {"kind": "over", "time": "day 3", "winner": "village", "winners": [2, 4, 5, 6],
        "reveal": ["werewolf", "werewolf", "seer", "villager", "villager", "witch",
                   "hunter"]}


def night(call: str, lang: str = "en") -> dict:
    return base("night", 2, "night 2", {"mode": "calls", "paused": None, "call": call,
                                        "night": 2},
                players=players({3: "villager", 0: "werewolf"}, 2), sheriff=2,
                announcements=[DAWN, ELECTION, ELECTED, {**VOTE, "kind": "tally"}, EXECUTED],
                language=lang)


def discussion(lang: str = "en") -> dict:
    return base("day", 1, "day 1 discussion",
                {"mode": "discussion", "paused": None, "deadline": NOW + 272.4},
                players=players({3: "villager"}, 2), sheriff=2,
                announcements=[DAWN, ELECTION, ELECTED], language=lang,
                last_tally={k: ELECTION[k] for k in VOTE})


def runoff_ballot(lang: str = "en") -> dict:
    return base("day", 1, "day 1 vote", {"mode": "ballot", "paused": None,
                                         "deadline": NOW + 44.2},
                players=players({3: "villager"}, 2), sheriff=2, language=lang,
                vote={"kind": "vote", "round": 2, "candidates": [0, 4], "voted": [1, 2, 5],
                      "waiting": [0, 4, 6]},
                last_tally=TIED,
                announcements=[DAWN, ELECTION, ELECTED, {**TIED, "kind": "tally"}])


def verdict(lang: str = "en", tally: dict = VOTE, executed: dict = EXECUTED,
            sheriff: int | None = 2) -> dict:
    before = [ELECTION, ELECTED] if sheriff is not None else []
    return base("day", 1, "day 1 verdict", {"mode": "verdict", "paused": None,
                                            "deadline": NOW + 8},
                players=players({3: "villager", executed["seat"]: executed["role"]}, sheriff),
                sheriff=sheriff, language=lang, last_tally=tally,
                announcements=[DAWN, *before, {**tally, "kind": "tally"}, executed])


def verdict_posted(lang: str = "en") -> dict:
    """The rumormonger's two votes and the sheriff's ×2 in one tally."""
    return verdict(lang, POSTED, {**EXECUTED, "seat": 1, "name": "Bob", "role": "villager"})


def verdict_posted_only() -> dict:
    """The rumormonger's two votes, no sheriff: room for "✉×2→Ann"."""
    return verdict("en", POSTED_ONLY, {**EXECUTED, "seat": 4, "name": "Eve"}, sheriff=None)


def over(lang: str) -> dict:
    return base("over", 3, "over", {"mode": "over", "paused": None, "deadline": None},
                players=players({0: "werewolf", 1: "werewolf", 3: "villager"}, 2),
                winner="village", winners=[2, 4, 5, 6], language=lang,
                announcements=[DAWN, ELECTED, EXECUTED, OVER])


def rollcall() -> dict:
    view = base("day", 1, "day 1 vote", {"mode": "ballot", "paused": None,
                                         "deadline": NOW + 60},
                players=players({3: "villager"}, 2), sheriff=2,
                vote={"kind": "vote", "round": 1, "candidates": None, "voted": [],
                      "waiting": [0, 1, 2, 4, 5, 6]})
    view["rollcall"] = {"candidate": 4, "index": 3, "of": 7, "ends": NOW + 4.2}
    return view


def paused() -> dict:
    view = discussion()
    view["pace"] = {"mode": "discussion", "paused": NOW - 5, "deadline": None}
    return view


LOBBY = {"phase": "lobby", "game": None, "seq": 0, "players": [], "language": "en",
         "now": NOW}

#: name -> the view to render (None: render_boot(GM_URL)), and whether it needs CJK
FRAMES: dict[str, tuple[dict | None, bool]] = {
    "boot": (None, False),
    "lobby": (LOBBY, False),
    "night-seer-en": (night("seer"), False),
    "night-wolves-ja": (night("wolves", "ja"), True),
    "discussion-en": (discussion(), False),
    "discussion-paused-en": (paused(), False),
    "ballot-runoff-en": (runoff_ballot(), False),
    "ballot-rollcall-en": (rollcall(), False),
    "verdict-en": (verdict(), False),
    "verdict-ja": (verdict("ja"), True),
    "verdict-poster-en": (verdict_posted(), False),
    "verdict-poster-ja": (verdict_posted("ja"), True),
    "verdict-poster-only-en": (verdict_posted_only(), False),
    "over-en": (over("en"), False),
    "over-ja": (over("ja"), True),
    "over-zh_Hant": (over("zh_Hant"), True),
}


def frame(name: str):  # -> PIL.Image.Image
    view, _ = FRAMES[name]
    return display.render_boot(GM_URL) if view is None else display.render(view)


def main(argv: list[str]) -> int:
    display.reset_fonts()
    if not display.has_unifont():
        print("GNU Unifont is missing (apt-get install fonts-unifont)", file=sys.stderr)
        return 1
    preview = Path(argv[argv.index("--preview") + 1]) if "--preview" in argv else None
    REFERENCE.mkdir(parents=True, exist_ok=True)
    for name in FRAMES:
        image = frame(name)
        image.save(REFERENCE / f"{name}.png")
        if preview is not None:
            preview.mkdir(parents=True, exist_ok=True)
            image.convert("L").resize((image.width * 4, image.height * 4)).save(
                preview / f"{name}.png")
        print(name)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
