"""The story of a game [issue 35] (engine/story.py, words/story.py): scripted
games, one per ruleset, told sentence by sentence in each language and
checked against what happened; and who may read it (RULES.md §1: the dead
stay silent; §4: nothing public tells a night's actions before the end)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.engine import State, public_view, rebuild, view_for
from companion.engine.story import readable, seats_of, story, story_for
from companion.replay import run_replay
from companion.words.story import story_plain, story_text

STORIES = Path(__file__).parent / "stories"
GAMES = ("millers-hollow", "bga-the-village", "jp-standard")
LANGS = ("en", "ja", "zh_Hant")


def _played(name: str) -> State:
    out, status = run_replay(json.loads((STORIES / f"{name}.json").read_text()))
    assert status == 0, out.get("error")
    return rebuild(out["events"])


def _entries(state: State, kind: str) -> list[dict]:
    return [e for ch in story(state)["chapters"] for e in ch["entries"] if e["kind"] == kind]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", GAMES)
def test_the_story_is_told_sentence_by_sentence(name: str, lang: str) -> None:
    """Each scripted game's story, line by line, in each language: the
    sentences written out in tests/engine/stories/<game>.<lang>.txt, read
    against the script (the deal, each night's calls and cards, each ballot)."""
    told = story_plain(story_text(story(_played(name)), lang)).splitlines()
    want = (STORIES / f"{name}.{lang}.txt").read_text(encoding="utf-8").splitlines()
    for i, (got, expected) in enumerate(zip(told, want)):
        assert got == expected, f"line {i + 1}"
    assert len(told) == len(want)


def test_millers_hollow_what_happened() -> None:
    """RULES.md §4-§7: the story holds what the log did, card by card."""
    state = _played("millers-hollow")
    chapters = story(state)["chapters"]
    assert [c["time"] for c in chapters] == ["cast 0", "night 1", "day 1", "night 2", "end 2"]
    assert chapters[1]["called"] == ["thief", "cupid", "defender", "seer", "wolves", "witch"]
    # §5 thief [003]: he took the centre's second card
    assert _entries(state, "thief") == [{"kind": "thief", "seat": 5,
                                         "cards": ["villager", "scapegoat"],
                                         "took": "scapegoat", "forced": False}]
    # §5 werewolf [000]: unanimous, and they did not agree on night 1
    first, second = _entries(state, "pack")
    assert first["target"] is None and not first["agreed"]
    assert first["picks"] == [{"seat": 0, "target": 2}, {"seat": 1, "target": 7}]
    assert second["target"] == 2 and second["agreed"]
    # §6 sheriff [000][002][003]: his ballot weighs 2 in the execution vote, not the election
    election, vote = _entries(state, "tally")
    assert all(b["weight"] == 1 for b in election["ballots"])
    assert {"voter": 2, "target": 0, "weight": 2} in vote["ballots"]
    # §6: the executed hunter's lover dies of heartbreak, then he shoots
    deaths = [(e["seat"], e["cause"]) for e in _entries(state, "death")]
    assert deaths == [(4, "execution"), (6, "heartbreak"), (0, "hunter"), (2, "werewolves"),
                      (1, "poison")]
    assert _entries(state, "shoot") == [{"kind": "shoot", "seat": 4, "target": 0}]
    assert _entries(state, "sheriff")[-1] == {"kind": "sheriff", "seat": 3, "how": "appointed",
                                              "by": 2}
    assert _entries(state, "over")[0]["why"] == "no-wolves"


def test_the_village_what_happened() -> None:
    """RULES.md §8 [000]: fire, rumour, the elder's spare life, day powers."""
    state = _played("bga-the-village")
    assert _entries(state, "burn") == [{"kind": "burn", "seat": 3, "target": 6,
                                        "building": "schoolteacher"}]
    assert _entries(state, "spared") == [{"kind": "spared", "seat": 8, "why": "elder",
                                          "role": "elder"}]
    vote, runoff = _entries(state, "tally")
    assert vote["extra"] == [{"source": "poster", "target": 0, "votes": 2}]  # the rumour
    assert vote["tie"] == [0, 9] and runoff["round"] == 2
    assert _entries(state, "keeper-lost") == [{"kind": "keeper-lost", "seat": 7}]
    assert _entries(state, "no-pardon") == [{"kind": "no-pardon", "seat": 4, "condemned": 0}]


def test_jp_standard_what_happened() -> None:
    """RULES.md §4-§5 [004]: night 1 without an attack, the knight's guard,
    the fox cursed by the seer, the medium's result."""
    state = _played("jp-standard")
    nights = [c for c in story(state)["chapters"] if c["kind"] == "night"]
    assert [e["kind"] for e in nights[0]["entries"]] == ["inspect", "no-attack", "dawn"]
    assert _entries(state, "spared") == [{"kind": "spared", "seat": 2, "why": "protected",
                                          "role": "seer"}]
    assert (6, "seer") in [(e["seat"], e["cause"]) for e in _entries(state, "death")]
    assert _entries(state, "medium")[0]["result"] == "wolf"


def test_only_the_gm_and_with_ghosts_the_dead_read_it_before_the_end() -> None:
    """RULES.md §1 (the dead stay silent) and §4: before the end the story
    is the GM's, and a dead seat's only with `ghosts`; never a living seat's
    nor the table's. At the end, everyone's."""
    script = json.loads((STORIES / "millers-hollow.json").read_text())
    for ghosts in (False, True):
        doc = {**script, "options": {"ghosts": ghosts}}
        out, _ = run_replay(doc)
        log = out["events"]
        for k in range(1, len(log)):
            state = rebuild(log[:k])
            if state.phase == "over":
                break
            assert story_for(state, None) is not None
            assert not readable(state, "public")
            for seat in range(state.size):
                may = story_for(state, seat) is not None
                assert may == (ghosts and not state.alive[seat]), (k, seat)
        final = rebuild(log)
        assert final.phase == "over" and readable(final, "public")
        assert all(story_for(final, s) is not None for s in range(final.size))
        # [issue 40] the log's end is not the table's: until the end is shown
        # (`shown`), the table and the living read nothing; the GM and a ghost, as before
        assert not readable(final, "public", shown=False)
        for seat in range(final.size):
            may = story_for(final, seat, shown=False) is not None
            assert may == (ghosts and not final.alive[seat]), seat
        assert story_for(final, None, shown=False) is not None
        # a seat is a seat of the game: no other number, no other word, reads it early
        for stranger in (final.size, -1, "public", "anyone"):
            assert not readable(final, stranger, shown=False), stranger


def test_ghosts_change_no_living_seats_view_nor_the_tables() -> None:
    """[issue 35]: the option changes what a dead phone may read, never what
    a living seat or the table sees (their views are equal, option aside),
    and no view holds the story."""
    script = json.loads((STORIES / "millers-hollow.json").read_text())
    logs = [run_replay({**script, "options": {"ghosts": g}})[0]["events"] for g in (False, True)]
    assert len(logs[0]) == len(logs[1])
    for k in range(1, len(logs[0]) + 1):
        off, on = rebuild(logs[0][:k]), rebuild(logs[1][:k])
        views = [(public_view(off), public_view(on))]
        views += [(view_for(off, s), view_for(on, s)) for s in range(off.size) if off.alive[s]]
        for a, b in views:
            a.pop("options"), b.pop("options")
            assert a == b
            assert "story" not in a and "story" not in b


def test_a_phone_finds_its_own_part() -> None:
    """Each line names its seats, for a phone to mark its own part."""
    state = _played("millers-hollow")
    told = story_text(story(state), "en")
    night1 = told["chapters"][1]["lines"]
    seer = next(line for line in night1 if line["kind"] == "inspect")
    assert seer["seats"] == [0, 2]
    assert seats_of({"kind": "tally", "ballots": [{"voter": 1, "target": 3, "weight": 2}]}) \
        == [1, 3]


def test_a_dead_holders_card_is_still_called() -> None:
    """RULES.md §4 (the secrecy of the call, [003]): the table calls every
    card of the deck, its holder alive or dead; the story says so, and tells
    nothing that card did."""
    players = list("ABCDEFGH")
    deal = ["werewolf", "werewolf", "seer", "witch", "villager", "villager", "villager",
            "villager"]
    doc = {"ruleset": "millers-hollow", "players": players, "deal": dict(zip(players, deal)),
           "options": {"sheriff": False}, "seed": 1, "actions": [
               {"actor": "C", "do": "inspect", "target": "A"},
               *({"actor": w, "do": "attack", "target": "C"} for w in "AB"),
               {"actor": "D", "do": "potion", "heal": False, "poison": None},
               *({"actor": v, "do": "vote", "target": "H"} for v in "ABDEFG"),
               {"actor": "H", "do": "vote", "target": "A"},
               *({"actor": w, "do": "attack", "target": "E"} for w in "AB")]}
    out, status = run_replay(doc)
    assert status == 0, out.get("error")
    night2 = [c for c in story(rebuild(out["events"]))["chapters"] if c["time"] == "night 2"][0]
    assert night2["called"] == ["seer", "wolves", "witch"]
    assert not [e for e in night2["entries"] if e["kind"] == "inspect"]


def test_new_moons_card_and_the_first_deads_call() -> None:
    """RULES.md §10 [003]: the card turned at dawn is told that day (never
    the face-down deck), and the night after, the first dead's call and
    whom he named, who became the wolves' ally."""
    players = list("ABCDEFGH")
    deal = ["werewolf", "werewolf", "seer"] + ["villager"] * 5
    doc = {"ruleset": "millers-hollow", "players": players, "deal": dict(zip(players, deal)),
           "seed": 2, "options": {"sheriff": False, "events": ["wolves-ally"]}, "actions": [
               {"actor": "C", "do": "inspect", "target": "A"},
               *({"actor": w, "do": "attack", "target": "H"} for w in "AB"),
               *({"actor": v, "do": "vote", "target": "G"} for v in "AB"),
               *({"actor": v, "do": "vote", "target": "A"} for v in "CDEFG"),
               {"actor": "H", "do": "name", "target": "F"}]}
    out, status = run_replay(doc)
    assert status == 0, out.get("error")
    told = story_text(story(rebuild(out["events"])), "en")
    lines = {ch["time"]: [ln["text"] for ln in ch["lines"]] for ch in told["chapters"]}
    assert not any("wolves' ally" in text for text in lines["cast 0"])
    assert lines["day 1"][0] == "Event card: The wolves' ally."
    assert lines["night 2"][:2] == ["Called: The first dead, The wolves' ally, Seer, Werewolves.",
                                    "The first dead, H, named F: the wolves' ally from now on."]


SCENARIOS = Path(__file__).parents[1] / "scenarios"


def _scenario(name: str) -> State:
    """A scenario's game as far as its script goes (some end on the refused
    action their rule is about)."""
    out, _ = run_replay(json.loads((SCENARIOS / f"{name}.json").read_text())["game"])
    return rebuild(out["events"])


@pytest.mark.parametrize("lang,named,among", [
    ("en", "Candidates: Dan and Eve.", "The vote among the candidates: "),
    ("ja", "候補者：", "候補者への投票："),
    ("zh_Hant", "候選人：", "候選人之間的投票："),
])
def test_the_candidates_vote_is_told_as_such(lang: str, named: str, among: str) -> None:
    """RULES.md §6 `vote_mode=candidates` [003 variant]: the story names the
    first round's candidates and calls the second round the vote among them,
    not a runoff (tests/scenarios/mh-candidates-two-rounds.json)."""
    lines = story_plain(story_text(story(_scenario("mh-candidates-two-rounds")), lang))
    assert named in lines
    assert among in lines
    assert "Runoff" not in lines and "決選" not in lines


def test_the_idiot_sheriffs_badge_leaves_with_him() -> None:
    """RULES.md §6 [002 l.77 「保安官が脱落：怠け者以外は後継者を指定する」]: the
    story says the badge left the game with the revealed idiot, not that
    nobody was left to take it."""
    lines = story_plain(story_text(story(_scenario("mh-idiot-sheriff-no-successor")), "en"))
    assert "the badge left the game with him" in lines
    assert "Nobody was left to take the sheriff's badge." not in lines


# --- [issue 44 item 4]: what the story told wrong at the table ----------------------

def _told(state: State, lang: str = "en") -> list[str]:
    return [line.strip() for line in story_plain(story_text(story(state), lang)).splitlines()]


def test_a_timed_out_ballot_is_told_as_the_clocks_not_a_choice() -> None:
    """[issue 44 item 4] BGA's `vote_timeout=right-neighbour`: the ballot the
    clock cast for Bob is told as his not voting in time (and where the clock
    put it: his right neighbour, Ann), never as "Bob → Ann"; one the clock
    cast as none is not told as an abstention he chose."""
    from helpers import a, attack, game, votes

    roles = ["werewolf", "werewolf", "seer", "villager", "villager", "villager", "villager",
             "villager"]
    night = [a("Cid", "inspect", "Ann"), *attack("Hal", "Ann", "Bob")]
    state = game("bga", roles, night
                 + votes("Ann>Dan", "Cid>Dan", "Dan>Ann", "Eve>Dan", "Fay>Dan", "Gus>Dan")
                 + [a(None, "timeout")], {"sheriff": False})
    line = next(t for t in _told(state) if t.startswith("Vote:"))
    assert "Bob did not vote in time: → Ann" in line and "Bob → Ann" not in line
    off = game("bga", roles, night
               + votes("Ann>Dan", "Cid>Dan", "Dan>Ann", "Eve>Dan", "Fay>Dan", "Gus>Dan")
               + [a(None, "timeout")], {"sheriff": False, "vote_timeout": "abstain"})
    line = next(t for t in _told(off) if t.startswith("Vote:"))
    assert "Bob did not vote in time" in line and "Bob abstained" not in line


def test_a_typed_event_card_is_told_by_its_title_and_the_turns_are_told() -> None:
    """[issue 44 item 4] A text-only event card is told by its own title (in
    the story's language, else its first), never "text-1"; the day's speaking
    turns (RULES.md §6 `discussion_turns`) are told, clockwise from the left
    of the night's first victim."""
    from helpers import a, attack, game

    roles = ["werewolf", "werewolf", "seer", "villager", "villager", "villager", "villager",
             "villager"]
    fog = {"title": {"en": "Fog on the village", "ja": "村に霧"},
           "text": {"en": "No talking.", "ja": "話さない。"}}
    state = game("bga", roles, [a("Cid", "inspect", "Ann"), *attack("Hal", "Ann", "Bob")],
                 {"sheriff": False, "events": [fog], "discussion_turns": True})
    lines = _told(state)
    assert "Event card: Fog on the village." in lines, lines
    assert not any("text-1" in t for t in lines)
    assert any("村に霧" in t for t in _told(state, "ja"))
    assert "Speaking turns, clockwise: Ann, Bob, Cid, Dan, Eve, Fay and Gus." in lines, lines


def test_the_end_says_the_wolves_ally_lost_with_them() -> None:
    """[issue 44 item 4] New Moon's wolves' ally (RULES.md §10) wins or loses
    with the wolves: the end says so, by name (Hal, the first dead, named
    Fay; the village executes both wolves)."""
    from helpers import a, attack, game, votes

    roles = ["werewolf", "werewolf", "seer", "villager", "villager", "villager", "villager",
             "villager"]
    script = ([a("Cid", "inspect", "Dan"), *attack("Hal", "Ann", "Bob")]
              + votes("Ann>Bob", "Bob>Cid", "Cid>Ann", "Dan>Ann", "Eve>Ann", "Fay>Ann", "Gus>Ann")
              + [a("Hal", "name", "Fay"), a("Cid", "inspect", "Eve"), a("Bob", "attack", "Gus")]
              + votes("Bob>Cid", "Cid>Bob", "Dan>Bob", "Eve>Bob", "Fay>Cid"))
    state = game("millers-hollow", roles, script, {"sheriff": False, "events": ["wolves-ally"],
                                                   "first_night_attack": True})
    assert state.phase == "over" and state.winner == "village" and state.ally == 5
    lines = _told(state)
    assert "The wolves' ally, Fay, lost with them." in lines[-1], lines[-3:]
    assert any("人狼の協力者Fayさんも人狼とともに敗れました" in t for t in _told(state, "ja"))


@pytest.mark.parametrize("key", ["seat", "target", "named", "shown", "poison", "wolf",
                                 "condemned", "by"])
def test_every_single_seat_an_entry_names_is_its_own(key: str) -> None:
    """[issue 35] a phone marks each line naming its seat (the actor, the
    target, the poisoned, the wolf, the condemned, whoever acted), never a
    flag: `True` is no seat 1 [issue 44 item 9]."""
    assert seats_of({"kind": "x", key: 4}) == [4]
    assert seats_of({"kind": "x", key: True}) == []
    assert seats_of({"kind": "x", key: None}) == []


@pytest.mark.parametrize("key", ["targets", "wolves", "winners", "among", "tie", "order"])
def test_every_list_of_seats_an_entry_names_is_its_own(key: str) -> None:
    """[issue 35] the lists too (the pack, the winners, the candidates, a
    tie, the speaking order): each seat once, in seat order, a name never."""
    assert seats_of({"kind": "x", key: [5, 2, "Ann", 2]}) == [2, 5]
    assert seats_of({"kind": "x", key: None}) == []


def test_ballots_picks_and_cards_name_their_seats() -> None:
    """[issue 35] a ballot names its voter and its target (a blank ballot its
    voter alone), a pick its seat and target, a dealt card its holder."""
    assert seats_of({"kind": "tally", "ballots": [{"voter": 1, "target": None},
                                                  {"voter": 6, "target": 0}]}) == [0, 1, 6]
    assert seats_of({"kind": "night", "picks": [{"seat": 3, "target": None},
                                                {"seat": 7, "target": 2}]}) == [2, 3, 7]
    assert seats_of({"kind": "cast", "cards": [{"seat": 4, "role": "seer"}, "hidden"]}) == [4]
    assert seats_of({"kind": "x", "seat": 2, "targets": [2], "ballots": [],
                     "picks": None, "cards": None}) == [2]


def test_the_story_is_kept_for_a_log_until_the_log_grows() -> None:
    """The story is cached for the log's length (a dead player's phone asks
    after every change, [issue 35]): asked twice it is the same object, and
    one more entry tells it anew, with that entry in it."""
    state = _played("millers-hollow")
    told = story(state)
    assert story(state) is told
    state.memo_views["story"] = (len(state.log), list(state.log), {"chapters": []})
    assert story(state) == told, "a cache kept for another log is not this log's"
    state.memo_views["story"] = (len(state.log) - 1, state.log, {"chapters": []})
    assert story(state) == told, "a cache kept for a shorter log is stale"


PLAYED = [p for p in sorted(SCENARIOS.glob("*.json"))
          if "error_index" not in json.loads(p.read_text())["expect"]]


@pytest.mark.parametrize("path", PLAYED, ids=[p.stem for p in PLAYED])
def test_every_scenarios_story_is_told(path: Path) -> None:
    """[issue 35, issue 44 item 9] the story of every scripted case in
    tests/scenarios (a rule each: the scapegoat's choice, a sheriff's badge
    passed by default, the thief, the fox, the barber, the lord's pardon...),
    told in English, line by line as written out (and read) in
    tests/engine/stories/scenarios/<case>.en.txt."""
    out, status = run_replay(json.loads(path.read_text(encoding="utf-8"))["game"])
    assert status == 0, out.get("error")
    told = story_plain(story_text(story(rebuild(out["events"])), "en")).rstrip("\n")
    want = (STORIES / "scenarios" / f"{path.stem}.en.txt").read_text(encoding="utf-8")
    assert told.splitlines() == want.rstrip("\n").splitlines()


def test_every_played_scenario_has_its_story_written_out() -> None:
    """No story file is left over from a renamed or removed case."""
    assert sorted(p.name.removesuffix(".en.txt") for p in (STORIES / "scenarios").iterdir()) \
        == sorted(p.stem for p in PLAYED)


# --- [issue 44 item 9]: a pass, the clock, a forced card and a draw, each told as such ---

def _lines(state: State, time: str) -> list[str]:
    told = story_text(story(state), "en")
    return next([ln["text"] for ln in ch["lines"]] for ch in told["chapters"]
                if ch["time"] == time)


HUNTER_GAME = ["werewolf", "werewolf", "seer", "witch", "hunter", "villager", "villager",
               "villager"]


def test_a_pass_and_the_clock_are_told_apart_at_night() -> None:
    """RULES.md §4 (a call's window ends by a choice or by its clock): the
    seer who passes did nothing, the seer whose clock ran out did not act in
    time; a witch who passes and one whose clock ran out both used no potion
    (what she was shown is told); a dead hunter who shoots nobody, by a pass
    or by the clock, shot nobody."""
    from helpers import a, attack, game
    opts = {"sheriff": False}
    passed = game("millers-hollow", HUNTER_GAME, [
        a("Cid", "pass"), *attack("Eve", "Ann", "Bob"), a("Dan", "pass"), a("Eve", "pass")],
        opts)
    clock = game("millers-hollow", HUNTER_GAME, [
        a(None, "timeout"), *attack("Eve", "Ann", "Bob"), a(None, "timeout"),
        a(None, "timeout")], opts)
    assert passed.step == clock.step == "vote"
    for state, seer in ((passed, "Cid (Seer) did nothing."),
                        (clock, "Cid (Seer) did not act in time.")):
        assert _lines(state, "night 1") == [
            "Called: Seer, Werewolves, Witch.", seer,
            "The werewolves (Ann and Bob) agreed on Eve.",
            "The witch, Dan, was shown Eve. She used no potion.", "Dawn.",
            "Eve (Hunter): killed by the werewolves.", "The hunter, Eve, shot nobody."]
    assert _entries(clock, "pass") == [{"kind": "pass", "seat": 2, "role": "seer",
                                        "timeout": True}]
    assert _entries(passed, "pass")[0]["timeout"] is False
    for state in (passed, clock):
        assert _entries(state, "witch") == [{"kind": "witch", "seat": 3, "shown": 4,
                                             "heal": False, "poison": None}]
        assert _entries(state, "shoot") == [{"kind": "shoot", "seat": 4, "target": None}]


@pytest.mark.parametrize("named", [{"actor": "H", "do": "pass"}, {"actor": None, "do": "timeout"}])
def test_the_first_dead_who_names_nobody_makes_no_ally(named: dict) -> None:
    """RULES.md §10 wolves-ally [003]: the first dead who passes, or whose
    clock runs out, names nobody: nobody becomes the wolves' ally."""
    players = list("ABCDEFGH")
    deal = ["werewolf", "werewolf", "seer"] + ["villager"] * 5
    doc = {"ruleset": "millers-hollow", "players": players, "deal": dict(zip(players, deal)),
           "seed": 2, "options": {"sheriff": False, "events": ["wolves-ally"]}, "actions": [
               {"actor": "C", "do": "inspect", "target": "A"},
               *({"actor": w, "do": "attack", "target": "H"} for w in "AB"),
               *({"actor": v, "do": "vote", "target": "G"} for v in "AB"),
               *({"actor": v, "do": "vote", "target": "A"} for v in "CDEFG"), named]}
    out, status = run_replay(doc)
    assert status == 0, out.get("error")
    state = rebuild(out["events"])
    assert _entries(state, "ally") == [{"kind": "ally", "seat": 7, "named": None, "ally": False}]
    assert "The first dead, H, named nobody." in _lines(state, "night 2")


def test_a_thief_dealt_two_werewolves_takes_one_by_force() -> None:
    """RULES.md §5 thief [002]: with two werewolves in the centre he must take
    one; at his clock the hub takes it for him, and the story says he had to."""
    from helpers import a, game
    state = game("millers-hollow", ["thief", "werewolf", "seer", *["villager"] * 3],
                 [a(None, "timeout")], {"sheriff": False}, center=["werewolf", "werewolf"])
    assert _entries(state, "thief") == [{"kind": "thief", "seat": 0,
                                         "cards": ["werewolf", "werewolf"],
                                         "took": "werewolf", "forced": True}]
    assert _lines(state, "night 1")[1] == (
        "The thief, Ann, took the Werewolf from the centre (it held Werewolf, Werewolf). "
        "He had to: both were werewolves.")


def test_a_tie_after_two_runoffs_is_drawn_by_lot_rules_6_runoff_random() -> None:
    """RULES.md §6 `tie=runoff-random`: a third tie in a row is drawn by
    lot among the tied; the story names them and the one drawn."""
    from helpers import a, attack, game, votes
    runoff = votes("Ann>Dan", "Bob>Dan", "Cid>Ann", "Dan>Ann", "Eve>Dan", "Fay>Ann")
    state = game("millers-hollow", ["werewolf", "werewolf", "seer", *["villager"] * 5], [
        a("Cid", "inspect", "Ann"), *attack("Hal", "Ann", "Bob"),
        *votes("Ann>Dan", "Bob>Dan", "Cid>Ann", "Dan>Ann", "Eve>Fay", "Fay>Eve", "Gus>Gus"),
        *runoff, a(None, "timeout"), *runoff, a(None, "timeout")],
        {"sheriff": False, "tie": "runoff-random"})
    assert _entries(state, "drawn") == [{"kind": "drawn", "among": [0, 3], "seat": 3}]
    assert _lines(state, "day 1")[-2:] == ["Drawn by lot among Ann and Dan: Dan.",
                                           "Dan (Villager): executed."]


@pytest.mark.parametrize("case,why", [
    ("doc-replay-example", "no-wolves"), ("jp-madman-counts-as-human", "parity"),
    ("jp-fox-wins-at-parity", "fox-wolves"), ("mh-white-werewolf-alone", "alone"),
    ("mh-piper-charms-all", "charmed"), ("mh-lovers-mixed-win", "lovers"),
    ("jp-candidates-runoff-draw", "three-ties"),
])
def test_the_end_names_the_rule_that_ended_the_game(case: str, why: str) -> None:
    """RULES.md §7: the story's end (its JSON too: `werewolf story --json`,
    GET /api/games/<id>/story) names the rule that matched."""
    over = [e for ch in story(_scenario(case))["chapters"] for e in ch["entries"]
            if e["kind"] == "over"]
    assert [e["why"] for e in over] == [why]


def test_a_game_stored_before_ballots_were_logged_tells_the_same_votes() -> None:
    """Old logs stay readable [REPLAY.md: old scripts keep replaying]: a
    tally stored with its `votes` only (before each ballot was logged with
    its weight) is told with the same ballots, the sheriff's counted twice
    in the execution vote (RULES.md §6), once in his election."""
    out, status = run_replay(json.loads(
        (SCENARIOS / "mh-village-win-with-sheriff.json").read_text())["game"])
    assert status == 0
    new = rebuild(out["events"])
    old_log = [{k: v for k, v in e.items() if k != "ballots"} for e in out["events"]]
    assert any(e["e"] == "tally" for e in old_log)
    old = rebuild(old_log)
    tallies = _entries(new, "tally")
    assert any(b["weight"] == 2 for t in tallies for b in t["ballots"])
    assert [t["ballots"] for t in _entries(old, "tally")] == [t["ballots"] for t in tallies]


def test_the_little_girl_who_sees_a_wolf_and_the_elders_execution_are_told() -> None:
    """RULES.md §5 little girl [002]: spying, she may see one werewolf; the
    story names him. RULES.md §5 elder [003]: the village that executes him
    loses its powers; the story says so, with him. And a game still running
    is told as such (`over` false), a finished one as over."""
    from helpers import a, attack, game
    state = game("millers-hollow", ["werewolf", "werewolf", "little-girl", *["villager"] * 3],
                 [a("Cid", "spy", mode="discreet", outcome="wolf"),
                  *attack("Dan", "Ann", "Bob")], {"sheriff": False})
    assert _entries(state, "spy") == [{"kind": "spy", "seat": 2, "mode": "discreet",
                                       "outcome": "wolf", "wolf": 1}]
    assert "The little girl, Cid, spied discreetly. She saw a werewolf: Bob." \
        in _lines(state, "night 1")
    elder = _scenario("mh-elder-executed-powers-lost")
    assert _entries(elder, "powers-lost") == [{"kind": "powers-lost", "seat": 3}]
    assert story(elder)["over"] is False
    assert story(_scenario("doc-replay-example"))["over"] is True


@pytest.mark.parametrize("case,seat,why", [
    ("jp-fox-survives-attack", 8, "immune"), ("jp-knight-guard", 6, "protected"),
    ("mh-witch-heal-and-poison", 3, "healed"), ("mh-elder-two-lives", 3, "elder"),
    ("village-fire-nearest-wolf-left", 3, "fire"),
])
def test_a_victim_who_lived_is_told_with_the_reason(case: str, seat: int, why: str) -> None:
    """The night's victim who did not die, and why (its JSON too): the fox
    the wolves cannot kill [004], the knight's guard [004], the witch's heal
    [002], the elder's spare life [003], the fire that turned the pack [000]."""
    assert [(e["seat"], e["why"]) for e in _entries(_scenario(case), "spared")] == [(seat, why)]


def test_the_idiot_revealed_is_told_instead_of_nobody_executed() -> None:
    """RULES.md §5 village idiot [002]: voted out, he is revealed and spared;
    the story tells that, never "nobody was executed"."""
    state = _scenario("mh-idiot-survives-vote")
    assert _entries(state, "revealed") == [{"kind": "revealed", "seat": 2}]
    assert _entries(state, "no-execution") == []
    assert _lines(state, "day 1")[-1] == \
        "Cid was the village idiot: spared, but may no longer vote."


def test_a_thief_who_keeps_his_card_is_told_so_and_the_story_names_its_game() -> None:
    """RULES.md §5 thief [002]: he may keep his card (then plays a
    villager); the story says what the centre held. The story's JSON names
    its ruleset and players."""
    from helpers import a, game
    state = game("millers-hollow", ["thief", "werewolf", "seer", *["villager"] * 3],
                 [a("Ann", "pass")], {"sheriff": False}, center=["werewolf", "villager"])
    assert _entries(state, "thief") == [{"kind": "thief", "seat": 0,
                                         "cards": ["werewolf", "villager"], "took": None,
                                         "forced": False}]
    assert _lines(state, "night 1")[1] == ("The thief, Ann, kept his card (the centre held "
                                           "Werewolf, Villager): he plays as a villager.")
    told = story(state)
    assert (told["ruleset"], told["players"]) == ("millers-hollow",
                                                  ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"])


def test_the_stories_json_holds_the_end_cards_the_deaths_times_and_the_candidates() -> None:
    """The story's JSON (`werewolf story --json`, GET /api/games/<id>/story):
    the end lists every card as it ended (the thief's new one: RULES.md §5),
    each death its time, each tally the candidates it was among (RULES.md §6
    `vote_mode=candidates` [003])."""
    thief = _scenario("mh-thief-plays-new-role")
    over = _entries(_scenario("doc-replay-example"), "over")[0]
    assert over["cards"][:3] == [{"seat": 0, "role": "werewolf"}, {"seat": 1, "role": "werewolf"},
                                 {"seat": 2, "role": "seer"}]
    assert [e["time"] for e in _entries(thief, "death")] == ["night 1", "day 1"]
    rounds = _entries(_scenario("mh-candidates-two-rounds"), "tally")
    assert [(t["round"], t["candidates"], t["nominees"]) for t in rounds] == [
        (1, [], [3, 4]), (2, [3, 4], [3, 4])]


def test_an_elder_the_witch_did_not_heal_lives_by_his_spare_life() -> None:
    """RULES.md §5 elder [003] and witch [002]: the witch is shown the
    elder and keeps her potions; he lives by his own spare life, and the
    story says so (not that she healed him)."""
    from helpers import a, attack, game
    deal = ["werewolf", "werewolf", "elder", "witch", *["villager"] * 4]
    state = game("millers-hollow", deal, [*attack("Cid", "Ann", "Bob"),
                                          a("Dan", "potion", heal=False, poison=None)],
                 {"sheriff": False})
    assert [(e["seat"], e["why"]) for e in _entries(state, "spared")] == [(2, "elder")]
    assert "The witch, Dan, was shown Cid. She used no potion." in _lines(state, "night 1")
