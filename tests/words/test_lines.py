"""The moderator's lines (companion/words/lines.py) [issue 6] "Languages",
RULES.md §9: the GM's line and the table's line for every step, in English,
Japanese and Traditional Chinese, following [002]'s and [004]'s wording; the
table's line never names the card of a living player whose card is not
public.

Games here are random legal games of the engine (`play_random`'s policy),
viewed at every step as the hub would: the GM view (`view_for(state, None)`
plus `pending`) and the public view (`public_view` plus `announcements`),
each with a "pace" made up for the step (the hub's pacing modes)."""

from __future__ import annotations

import re
from random import Random

from companion import words
from companion.engine import (
    ROLES,
    act,
    announcements,
    legal_actions,
    new_game,
    pending,
    public_view,
    view_for,
    waiting_for,
)
from companion.engine.actions import sample_uniform

LANGS = ("en", "ja", "zh_Hant")
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kai", "Lu"]
MH_EXTRA = ["witch", "hunter", "cupid", "little-girl", "defender", "village-idiot", "elder",
            "scapegoat", "piper", "white-werewolf"]
JP_DEAL = ["werewolf", "werewolf", "seer", "madman", "medium", "knight", "freemason",
           "freemason", "fox", "villager", "villager", "villager"]


def _game(seed: int):  # type: ignore[no-untyped-def]
    rng = Random(seed)
    ruleset = rng.choice(["millers-hollow", "bga", "jp-standard"])
    if ruleset == "jp-standard":
        deal = list(JP_DEAL)
        options = {"reveal_on_death": rng.random() < 0.3}
    else:
        extra = rng.sample(MH_EXTRA, rng.randint(2, 6))
        deal = ["werewolf", "werewolf", "seer", *extra]
        deal += ["villager"] * (len(NAMES) - len(deal))
        options = {"reveal_on_death": rng.random() < 0.7, "tie": rng.choice(
            ["scapegoat-sheriff-none", "runoff-once", "runoff-random"])}
    rng.shuffle(deal)
    return new_game(ruleset, NAMES[:len(deal)], deal, options, seed=seed), rng


def _paces(state, p: dict) -> list[dict]:  # type: ignore[no-untyped-def]
    """The pacing modes the hub may show at this engine step."""
    kind = p["kind"]
    if kind in ("night", "wolves"):
        calls = p["calls"]
        at = calls.index(p["step"]) if p["step"] in calls else 0
        verdict = [{"mode": "verdict", "deadline": 1.0}] if state.n > 1 else []
        return [{"mode": "calls", "call": calls[at], "night": state.n, "cursor": at,
                 "calls": calls},
                {"mode": "calls", "call": calls[0], "night": state.n, "cursor": 0,
                 "calls": calls}] + verdict
    if kind in ("vote", "runoff", "election"):
        return [{"mode": "discussion", "deadline": 1.0}, {"mode": "ballot", "deadline": 1.0}]
    if kind == "prompt":
        return [{"mode": "prompt", "deadline": 1.0},
                {"mode": "last-words", "seat": p["actor"], "deadline": None}]
    return [{"mode": "over", "deadline": None}]


def _views(seed: int):  # type: ignore[no-untyped-def]
    """(gm view, public view, state) at every step of a random game."""
    state, rng = _game(seed)
    for _ in range(3000):
        p = pending(state)
        for pace in _paces(state, p):
            gm = view_for(state, None)
            gm["pending"], gm["pace"] = p, dict(pace)
            pub = public_view(state)
            pub["announcements"] = announcements(state)
            pub["pace"] = {k: v for k, v in pace.items() if k in (
                "mode", "call", "night", "seat", "deadline")}
            if pace["mode"] == "calls":
                pub["phase"], pub["step"] = "night", f"night {state.n}"
                pub.pop("vote", None)
            yield gm, pub, state, p
        if state.phase == "over":
            return
        seat = rng.choice(waiting_for(state))
        act(state, sample_uniform(legal_actions(state, seat), seat, rng))


def _public_roles(pub: dict, call: str | None) -> set[str]:
    """Roles a public line may name: shown cards, the called step's roles,
    and the roles whose power is announced publicly (RULES.md §6)."""
    shown = {p["role"] for p in pub["players"] if p["role"]}
    called = {r for r, role in ROLES.items() if call in (r, role.step)}
    step = str(pub.get("step") or "")
    public = {"hunter"} if step.endswith("hunter") else set()
    if step.endswith("allow") or any(
            a.get("cause") == "scapegoat" for a in pub["announcements"]):
        public.add("scapegoat")
    if any(a.get("kind") == "revealed" for a in pub["announcements"]):
        public.add("village-idiot")
    # the deck is public (RULES.md §4 revised, [issue 16]): its cards may be named
    deck = {c["role"] for c in (pub.get("deck") or {}).get("cards", [])}
    return shown | called | public | deck


def test_role_names_never_leak_in_the_public_line() -> None:
    """RULES.md §9 and §4: the table's line is built from the public view
    alone; in 3 languages over 40 random games it never holds the name of a
    role held by a living player whose card is not public (the generic
    "werewolf" and "villager" words of the fixed lines aside)."""
    checked = 0
    for seed in range(40):
        for _gm, pub, state, _p in _views(seed):
            call = pub["pace"].get("call")
            allowed = _public_roles(pub, call) | {"werewolf", "villager"}
            hidden = {state.roles[p["seat"]] for p in pub["players"]
                      if p["alive"] and p["role"] is None} - allowed
            for lang in LANGS:
                line = words.public_line(pub, lang)
                assert line
                for role in hidden:
                    name = re.escape(words.role_name(role, lang).lower())
                    word = rf"\b{name}\b" if lang == "en" else name  # not "be*witch*ing"
                    assert not re.search(word, line.lower()), (seed, lang, role, line)
                checked += 1
    assert checked > 1000


def test_a_line_for_every_step_mode_and_language() -> None:
    """[issue 6] "Languages": gm_line and public_line give a non-empty line
    for every pending kind (night, wolves, vote, runoff, election, prompt,
    over) and pace mode (calls, discussion, ballot, prompt, last-words,
    verdict, over, lobby), in en, ja and zh_Hant; the Japanese and Chinese lines are not
    the English ones (the catalogs are loaded)."""
    kinds: set[str] = set()
    modes: set[str] = set()
    for seed in range(40):
        for gm, pub, state, p in _views(seed):
            kinds.add(p["kind"])
            modes.add(gm["pace"]["mode"])
            lines = {lang: (words.gm_line(gm, lang, announcements(state)),
                            words.gm_line(gm, lang), words.public_line(pub, lang))
                     for lang in LANGS}
            for lang in LANGS:
                assert all(line.strip() for line in lines[lang]), (seed, lang, p, gm["pace"])
            for lang in ("ja", "zh_Hant"):
                assert lines[lang][0] != lines["en"][0]
    lobby = {"phase": "lobby", "game": None, "seq": 0, "players": [], "language": "en"}
    for lang in LANGS:
        assert words.public_line(lobby, lang) and words.gm_line(
            {"pace": {"mode": "lobby"}, "players": []}, lang)
    modes.add("lobby")
    assert kinds == {"night", "wolves", "vote", "runoff", "election", "prompt", "over"}
    assert modes == {"calls", "discussion", "ballot", "prompt", "last-words", "verdict", "over",
                     "lobby"}


def _state_of(ruleset: str, deal: list[str], **options: object):  # type: ignore[no-untyped-def]
    return new_game(ruleset, NAMES[:len(deal)], deal, options, seed=1)


def _night_gm(state, call: str, cursor: int) -> dict:  # type: ignore[no-untyped-def]
    gm = view_for(state, None)
    gm["pending"] = pending(state)
    gm["pace"] = {"mode": "calls", "call": call, "night": state.n, "cursor": cursor}
    return gm


def test_night_calls_follow_the_moderator_sheets() -> None:
    """RULES.md §9 [002]: the first night opens with "夜が来て、村は眠りにつきます",
    each call wakes its role ("占い師は目を開けて、正体を占いたいプレイヤーを1人
    選んでください", [002]'s call in one register, です/ます [issue 29]) and puts
    it back to sleep; cupid's call is followed by the lovers' and the piper's
    by the charmed players'. [004] for the standard game ("恐ろしい夜がやって
    きました"), [003] in Chinese ("先知請睜眼")."""
    mh = _state_of("millers-hollow", ["werewolf", "werewolf", "seer", "witch", "cupid", "piper",
                                      "villager", "villager"])
    first = words.gm_line(_night_gm(mh, "seer", 0), "ja").split("\n")
    assert first[0] == "夜が来て、村は眠りにつきます。みなさん、目を閉じてください。"
    assert first[1] == "占い師は目を開けて、正体を占いたいプレイヤーを1人選んでください。"
    assert first[2] == "占い師は目を閉じてください。"
    cupid = words.gm_line(_night_gm(mh, "cupid", 1), "ja")
    assert "恋人たちは目を開けて、お互いを確認してください。" in cupid
    assert "夜が来て" not in cupid  # only the first call says night falls
    assert "呪われた人たちは" in words.gm_line(_night_gm(mh, "piper", 5), "ja")
    assert words.gm_line(_night_gm(mh, "witch", 4), "ja").startswith(
        "魔女は目を開けてください。人狼の犠牲者をお見せします。")
    zh = words.gm_line(_night_gm(mh, "seer", 0), "zh_Hant")
    assert "天黑請閉眼" in zh and "先知請睜眼" in zh and "先知請閉眼" in zh
    en = words.gm_line(_night_gm(mh, "seer", 0), "en")
    assert en.startswith("Night falls") and "Seer, wake up" in en
    jp = _state_of("jp-standard", JP_DEAL[:9])
    line = words.gm_line(_night_gm(jp, "wolves", 1), "ja")
    assert "今夜の襲撃はありません" in line  # no attack on night 1 [004]
    assert words.gm_line(_night_gm(jp, "seer", 0), "ja").startswith(
        "恐ろしい夜がやってきました。みなさん眠りについてください。")
    public = public_view(jp)
    public["announcements"] = announcements(jp)
    public["pace"] = {"mode": "calls", "call": "seer", "night": 1}
    assert words.public_line(public, "ja") == \
        "第1夜\n占い師は目を開けて、正体を占いたいプレイヤーを1人選んでください。"
