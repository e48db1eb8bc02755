"""The speed work of issue 8 keeps answers across events (State.memo_step: each
voter's choices and the pack's for the open step; memo_cards: the seats of each
card; memo_views: the public view's parts). A cache is only right if it never
answers differently from a state that has none: these tests play random games
of every ruleset, timeouts included, and after every action compare the cached
answers with those of `rebuild(state.log)`, a state with empty caches."""

from __future__ import annotations

import dataclasses
from random import Random

import pytest

from companion.engine import (
    Action,
    act,
    announcements,
    legal_actions,
    new_game,
    pending,
    public_view,
    rebuild,
    recommended_deal,
    shared_announcements,
    shared_public_view,
    view_for,
    waiting_for,
)
from companion.engine.actions import sample_uniform

EXTRAS = ("witch", "hunter", "cupid", "little-girl", "thief", "defender", "village-idiot",
          "elder", "scapegoat", "piper", "white-werewolf")


def random_game(seed: int, village: bool = False):
    """A random game; `village`: with The Village's professions dealt and its
    two night roles added (RULES.md §8)."""
    rng = Random(seed)
    ruleset = ("millers-hollow", "bga", "jp-standard")[seed % 3]
    if ruleset == "jp-standard":
        players, add = rng.randint(7, 15), []
    else:
        players, add = rng.randint(8, 14), rng.sample(EXTRAS, rng.randint(1, 3 if village else 5))
        if village:
            add += ["pyromaniac", "rumormonger"]
    counts = recommended_deal(ruleset, players, add)
    cards = [r for r, c in sorted(counts.items()) for _ in range(c)]
    rng.shuffle(cards)
    center = []
    if "thief" in cards:
        center = cards[-2:] if "thief" not in cards[-2:] else cards[:2]
        for card in center:
            cards.remove(card)
        assert "thief" in cards
    options = {"sheriff": rng.random() < 0.5, "self_vote": rng.random() < 0.5}
    if village:
        options["professions"] = True
    if seed % 2:  # the candidates' rounds' ballots are cached per round too [issue 34]
        options["vote_mode"] = "candidates"
    if seed % 3 == 1:  # the dawn's potions in the views and announcements [issue 34]
        options.update(witch_single_potion=True, announce_potions=True)
    return new_game(ruleset, [f"P{i}" for i in range(len(cards))], cards, options, center,
                    seed=seed), rng


def answers(state) -> tuple:
    seats = range(state.size)
    return (waiting_for(state), [legal_actions(state, s) for s in seats], public_view(state),
            [view_for(state, s) for s in seats], view_for(state, None), pending(state),
            shared_announcements(state))


@pytest.mark.parametrize("seed,village", [(k, False) for k in range(36)]
                         + [(k, True) for k in range(36, 60)])
def test_cached_answers_equal_those_of_a_state_without_caches_issue_8(seed: int,
                                                                       village: bool) -> None:
    """With The Village too (issue 9): a ballot may change the others' choices
    there (the day powers' window, the tavern keeper's first ballot)."""
    state, rng = random_game(seed, village)
    for _ in range(600):
        if state.phase == "over":
            break
        before = answers(state)  # fills the caches, then asks again below
        assert answers(state) == before
        assert answers(rebuild(state.log)) == before
        if rng.random() < 0.05:
            act(state, Action(None, "timeout"))
        else:
            seat = rng.choice(waiting_for(state))
            act(state, sample_uniform(legal_actions(state, seat), seat, rng))
    assert answers(rebuild(state.log)) == answers(state)


def test_answers_are_copies_a_caller_may_change_issue_8() -> None:
    """The hub fills a view in: what it changes must not reach the next caller,
    even where the engine now reuses a view's parts from one event to the next."""
    state, rng = random_game(1)
    view = public_view(state)
    view["players"][0]["role"] = "mangled"
    view["deaths"].append({"seat": 0})
    view["options"]["sheriff"] = "mangled"
    seat = waiting_for(state)[0]
    legal_actions(state, seat).clear()
    waiting_for(state).clear()
    assert public_view(state)["players"][0]["role"] != "mangled"
    assert legal_actions(state, seat) and waiting_for(state)
    act(state, sample_uniform(legal_actions(state, seat), seat, rng))
    fresh = public_view(state)
    assert fresh["players"][0]["role"] != "mangled" and {"seat": 0} not in fresh["deaths"]
    assert fresh["options"]["sheriff"] != "mangled"


@pytest.mark.parametrize("seed", range(6))
def test_shared_views_share_their_parts_and_equal_the_copies_issue_15(seed: int) -> None:
    """[015] item 11: the hub builds ~22 views per action from
    `shared_public_view` and `view_for(..., shared=True)`, whose parts below
    the top level are the same objects in every view of a state (the hub
    compares them by identity and encodes each once). They must say exactly
    what the caller-owned copies say, for every seat, after every action;
    and building them must not change the state's parts."""
    state, rng = random_game(seed, village=seed % 2 == 1)
    for _ in range(400):
        if state.phase == "over":
            break
        one, two = shared_public_view(state), shared_public_view(state)
        assert one is not two and one["players"] is not two["players"]  # each its own top
        assert all(a is b for a, b in zip(one["players"], two["players"]))
        assert one["deaths"] is two["deaths"] and one["options"] is two["options"]
        for seat in [None, *range(state.size)]:
            assert view_for(state, seat, shared=True) == view_for(state, seat), seat
        fresh = rebuild(state.log)
        assert shared_public_view(state) == public_view(fresh)
        assert shared_announcements(state) is shared_announcements(state)
        assert shared_announcements(state) == announcements(fresh)
        assert all(view_for(state, seat) == view_for(fresh, seat) for seat in range(state.size))
        seat = rng.choice(waiting_for(state))
        act(state, sample_uniform(legal_actions(state, seat), seat, rng))


def test_caches_are_no_part_of_the_state_issue_8() -> None:
    """Every cache field is named memo*, never compared, so a rebuilt state
    equals the played one (test_properties compares all other fields)."""
    for f in dataclasses.fields(new_game("jp-standard", [f"P{i}" for i in range(9)])):
        if f.name.startswith("memo") and f.name != "memo_at":  # memo_at: the memo's log length
            assert f.compare is False and f.repr is False, f.name


def test_actions_stay_frozen_and_hashable_issue_8() -> None:
    """Action and Choice got written-out constructors for speed: still frozen
    dataclasses, equal and hashed by value."""
    a = Action(1, "vote", target=2)
    assert a == Action(1, "vote", 2) and hash(a) == hash(Action(1, "vote", target=2))
    assert a.to_dict() == {"actor": 1, "do": "vote", "target": 2}
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.target = 3  # type: ignore[misc]
    assert repr(a).startswith("Action(actor=1, do='vote', target=2, targets=()")


@pytest.mark.parametrize("seed", [*range(12), 16, 24, 25])  # 16, 24, 25: the little girl spies
def test_a_seats_own_parts_kept_across_ballots_equal_a_fresh_build(seed: int) -> None:
    """`view_for(..., shared=True)` keeps each seat's own parts (State.memo_step)
    while the open step only gathers ballots or picks: after every action of
    random games, timeouts and The Village included, each seat's shared view
    equals the view of a state without caches, and a caller-owned view shares
    none of the kept parts."""
    state, rng = random_game(seed, village=seed % 2 == 1)
    for _ in range(500):
        if state.phase == "over":
            break
        fresh = rebuild(state.log)
        for seat in range(state.size):
            shared = view_for(state, seat, shared=True)
            assert shared == view_for(fresh, seat), seat
            mine = view_for(state, seat)
            for key in ("actions", "results", "knows", "players"):
                assert mine[key] is not shared[key]
            assert mine["players"][seat] is not shared["players"][seat]
            mine["players"][seat]["role"] = "mangled"
            mine["results"].append({"kind": "mangled"})
            assert view_for(state, seat, shared=True) == shared
        if rng.random() < 0.05:
            act(state, Action(None, "timeout"))
        else:
            seat = rng.choice(waiting_for(state))
            act(state, sample_uniform(legal_actions(state, seat), seat, rng))
