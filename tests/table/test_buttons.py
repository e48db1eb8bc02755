"""Voting with the seat boxes' buttons [issue 7]: roll-call and lock-in,
through the table's one path (engine, one commit per batch of presses, then
the views). Driven by a fake clock; presses are (seat, when) pairs as the
seat boxes' consumer sends them."""

from __future__ import annotations

import json
import random

import pytest
from companion.firmware import pinmap
from helpers import FakeClock, jp9, mh8

from companion.engine import pending
from companion.store import Store
from companion.table import BadInput, NotNow, Table

W = 5.0  # Settings().rollcall_s


def to_ballot(table: Table, clock: FakeClock) -> dict:
    """Play on (the GM's timeouts for every night step and prompt, the clock
    for calls and discussion) until ballots are open; the pending step."""
    for _ in range(2000):
        assert table.state is not None
        p = pending(table.state)
        if p["kind"] in ("vote", "runoff", "election") and table.pace.mode == "ballot":
            return p
        if p["kind"] in ("night", "wolves", "prompt"):
            table.act_gm({"do": "timeout"})
        else:
            clock.advance(2)
            table.tick()
    raise AssertionError("no ballot")


def mh8_attacked(buttons: str, victim: str = "F", **more: object) -> dict:
    """Millers Hollow for 8 whose night 1 ends with `victim` dead (no witch save)."""
    doc = mh8(**more)
    doc["buttons"] = buttons
    return doc


def night_one(table: Table, victim: str = "F") -> None:
    """Night 1 of mh8: the wolves (A, B) kill `victim`; every other step times out."""
    for _ in range(50):
        assert table.state is not None
        p = pending(table.state)
        if p["kind"] == "wolves":
            table.act_gm({"actor": "A", "do": "attack", "target": victim})
            table.act_gm({"actor": "B", "do": "attack", "target": victim})
        elif p["kind"] in ("night", "prompt"):
            table.act_gm({"do": "timeout"})
        else:
            return


# --- choosing the mode --------------------------------------------------------------

def test_the_button_mode_is_chosen_per_game_and_checked(table):
    """[issue 7] voting by button, chosen by the GM per game: phones (the
    default), roll-call or lock-in; anything else is a clear 400."""
    table.create(jp9())
    assert table.buttons == "phones" and table.public()["buttons"] == "phones"
    doc = jp9()
    doc["buttons"] = "show-of-hands"
    with pytest.raises(BadInput, match="'buttons' is one of phones, roll-call, lock-in"):
        table.create(doc)
    assert table.buttons == "phones"  # the refused game changed nothing
    doc["buttons"] = "lock-in"
    table.create(doc)
    assert table.buttons == "lock-in" and table.setup["buttons"] == "lock-in"


def test_a_button_game_needs_a_seat_box_per_player(table):
    """[issue 7] fewer seat boxes than the game's players is one clear message;
    a phones game needs no boxes."""
    pins = pinmap.builtin_default()
    eight = pinmap.PinMap(seats=pins.seats[:8], source="eight.toml")
    table.seat_check = lambda players: pinmap.check_players(eight, players)
    doc = jp9()
    doc["buttons"] = "roll-call"
    with pytest.raises(BadInput, match="eight.toml: 8 seats, but the game has 9 players: "
                                       "seat 9 has no button box"):
        table.create(doc)
    table.create(jp9())  # phones: fine
    assert table.state is not None and table.state.size == 9


# --- roll-call -----------------------------------------------------------------------

def test_rollcall_calls_candidates_clockwise_from_the_left_of_the_victim(table, clock):
    """[issue 7] roll-call names each candidate in turn, clockwise from the left
    of last night's victim ([003]; RULES.md §1: left = next seat clockwise).
    F (seat 5) died: the election's candidates are called G, H, A, ... E."""
    table.create(mh8_attacked("roll-call"))
    night_one(table, "F")
    p = to_ballot(table, clock)
    assert p["kind"] == "election"
    assert table.pace.order == [6, 7, 0, 1, 2, 3, 4]
    view = table.public()
    assert view["rollcall"]["candidate"] == 6 and view["rollcall"]["of"] == 7
    assert view["rollcall"]["ends"] == pytest.approx(clock.t + W)
    clock.advance(W)  # the next window
    table.tick()
    assert table.public()["rollcall"]["candidate"] == 7


def test_a_press_votes_for_the_candidate_called_at_that_moment(table, clock):
    """[issue 7] a press during a window votes for that candidate; the moment
    of the press decides, not when the hub got to it."""
    table.create(mh8_attacked("roll-call"))
    night_one(table, "F")
    to_ballot(table, clock)
    opened = clock.t
    clock.advance(W + 1)  # H's window now, but C pressed during G's
    out = table.act_presses([(2, opened + 1.0), (3, opened + W + 0.5)])
    assert out == ["recorded", "recorded"]
    assert table.state is not None
    assert table.state.votes == {2: 6, 3: 7}


def test_each_seat_votes_once_per_round_by_rollcall(table, clock):
    """[issue 7] each seat votes once per round: a second press, in another
    window, is refused and changes nothing."""
    table.create(mh8_attacked("roll-call"))
    night_one(table, "F")
    to_ballot(table, clock)
    assert table.act_presses([(0, clock.t)]) == ["recorded"]
    clock.advance(W)
    assert table.act_presses([(0, clock.t)]) == ["one vote per round"]
    assert table.state is not None and table.state.votes == {0: 6}


def test_ineligible_presses_are_refused_and_change_nothing(table, clock):
    """[issue 7] a dead seat's press is refused (RULES.md §5: every living player
    with a vote); so is a press outside a window or during discussion."""
    table.create(mh8_attacked("roll-call"))
    night_one(table, "F")
    before = table.act_presses([(0, clock.t)])
    assert before == ["no vote is open"]  # the election's ballot is not open yet
    to_ballot(table, clock)
    assert table.state is not None
    log = len(table.state.log)
    out = table.act_presses([(5, clock.t), (1, clock.t - 1)])
    assert out[0] == "F cannot act now (day 1 election)"  # the engine's refusal
    assert out[1] == "no candidate is being called"
    assert len(table.state.log) == log and table.state.votes == {}


def test_a_lover_pressing_in_the_window_of_his_lover_is_refused(table, clock):
    """RULES.md §5 Cupid: lovers may not vote for each other (execution vote);
    by roll-call the press in the lover's window is refused."""
    players = list("ABCDEFGH")
    roles = ["werewolf", "werewolf", "seer", "cupid", "hunter", "villager", "villager",
             "villager"]
    doc = {"ruleset": "millers-hollow", "players": players,
           "deal": dict(zip(players, roles)), "seed": 3, "buttons": "roll-call",
           "options": {"sheriff": False}}
    table.create(doc)
    for _ in range(50):
        assert table.state is not None
        p = pending(table.state)
        if p["step"] == "cupid":
            table.act_gm({"actor": "D", "do": "link", "targets": ["F", "G"]})
        elif p["kind"] == "wolves":
            table.act_gm({"actor": "A", "do": "attack", "target": "H"})
            table.act_gm({"actor": "B", "do": "attack", "target": "H"})
        elif p["kind"] in ("night", "prompt"):
            table.act_gm({"do": "timeout"})
        else:
            break
    p = to_ballot(table, clock)
    assert p["kind"] == "vote"
    order = table.pace.order
    assert order[0] == 0  # H (seat 7) died: A is called first
    g_window = table.pace.deadline - (len(order) - order.index(6)) * W + 0.1
    out = table.act_presses([(5, g_window), (4, g_window)])  # F loves G; E does not
    assert out[0] != "recorded" and out[1] == "recorded"
    assert table.state.votes == {4: 6}


def test_rollcall_ends_with_the_vote_timeout_for_those_who_did_not_press(table, clock):
    """[issue 7] after the last candidate's window the vote closes; those who
    did not press get the ruleset's vote_timeout (Millers Hollow: abstain)."""
    table.create(mh8_attacked("roll-call", sheriff=False))
    night_one(table, "F")
    to_ballot(table, clock)
    assert table.state is not None
    opened, n = clock.t, len(table.pace.order)
    table.act_presses([(0, opened), (1, opened), (2, opened + W)])  # G, G, H
    clock.advance(n * W + 0.1)
    table.tick()
    tally = table.gm_view()["last_tally"]
    assert tally["counts"] == {"6": 2, "7": 1}
    assert {k: v for k, v in tally["votes"].items() if v is not None} == {
        "0": 6, "1": 6, "2": 7}
    assert set(tally["votes"]) == {"0", "1", "2", "3", "4", "6", "7"}  # the rest abstained


def test_the_sheriffs_press_counts_two(table, clock):
    """RULES.md §5 sheriff: his vote counts two in the execution vote; by button
    too. The election's presses make C sheriff; then C's press for H weighs 2."""
    table.create(mh8_attacked("roll-call"))
    night_one(table, "F")
    to_ballot(table, clock)
    c_window = table.pace.deadline - (len(table.pace.order) - table.pace.order.index(2)) * W
    living = [i for i in range(8) if i != 5]
    table.act_presses([(s, c_window + 0.1) for s in living])  # all for C
    assert table.state is not None and table.state.sheriff == 2
    p = to_ballot(table, clock)
    assert p["kind"] == "vote"
    h_window = table.pace.deadline - (len(table.pace.order) - table.pace.order.index(7)) * W
    g_window = table.pace.deadline - (len(table.pace.order) - table.pace.order.index(6)) * W
    out = table.act_presses([(2, h_window + 0.1), (0, g_window + 0.1)])
    assert out == ["recorded", "recorded"]
    clock.advance(len(table.pace.order) * W + 1)
    table.tick()
    tally = table.gm_view()["last_tally"]
    assert tally["counts"]["7"] == 2 and tally["counts"]["6"] == 1


def test_a_runoff_by_rollcall_calls_only_the_tied(table, clock):
    """RULES.md §5 ties (jp-standard: runoff among the tied) [issue 7: runoffs
    work the same way]: the runoff's roll-call names the tied players only."""
    doc = jp9()
    doc["buttons"] = "roll-call"
    table.create(doc)
    p = to_ballot(table, clock)
    assert p["kind"] == "vote"
    order = table.pace.order
    assert order == list(range(9))  # no night victim yet: from the first seat
    start = table.pace.deadline - len(order) * W
    # A, B for seat 7 (H); C, D for seat 8 (I); nobody else presses
    out = table.act_presses([(0, start + 7 * W + 0.1), (1, start + 7 * W + 0.2),
                             (2, start + 8 * W + 0.1), (3, start + 8 * W + 0.2)])
    assert out == ["recorded"] * 4
    clock.t = table.pace.deadline + 0.1
    table.tick()
    p = to_ballot(table, clock)
    assert p["kind"] == "runoff"
    assert sorted(table.pace.order) == [7, 8]
    assert table.public()["rollcall"]["of"] == 2


def test_phones_do_not_vote_in_a_rollcall_game(table, clock):
    """[issue 7] roll-call votes are presses: the phone shows no vote and a
    vote from it is refused (the GM can still record one)."""
    doc = jp9()
    doc["buttons"] = "roll-call"
    table.create(doc)
    to_ballot(table, clock)
    view = table.seat_view(0)
    assert not [c for c in view["actions"] if c["do"] == "vote"]
    with pytest.raises(NotNow, match="button"):
        table.act_seat(0, {"do": "vote", "target": "B"})
    table.act_gm({"actor": "A", "do": "vote", "target": "B"})
    assert table.state is not None and table.state.votes == {0: 1}


# --- lock-in -------------------------------------------------------------------------

def lockin9(table: Table, clock: FakeClock) -> None:
    doc = jp9()
    doc["buttons"] = "lock-in"
    table.create(doc)
    to_ballot(table, clock)


def test_lockin_a_phone_pick_is_not_a_vote_until_the_press(table, clock):
    """[issue 7] lock-in: the player picks on the phone and presses to lock it.
    The pick alone is no vote; the press votes for the pick."""
    lockin9(table, clock)
    view = table.act_seat(0, {"do": "vote", "target": "E"})
    assert view["lockin"] == {"pick": 4, "locked": False, "unlocked": "abstain"}
    assert table.state is not None and table.state.votes == {}
    assert 0 not in table.public()["vote"]["voted"]
    assert table.act_presses([(0, clock.t)]) == ["recorded"]
    assert table.state.votes == {0: 4}
    assert table.seat_view(0)["lockin"] == {"pick": 4, "locked": True, "unlocked": "abstain"}
    assert 0 in table.public()["vote"]["voted"]


def test_lockin_a_press_without_a_pick_is_refused(table, clock):
    """[issue 7] refused presses change nothing."""
    lockin9(table, clock)
    assert table.act_presses([(3, clock.t)]) == ["pick on your phone first"]
    assert table.state is not None and table.state.votes == {}


def test_lockin_a_locked_vote_cannot_be_changed_and_a_second_press_is_harmless(table, clock):
    """[issue 7] a lit LED says "locked": the phone cannot change the pick any
    more; pressing again changes nothing and still says recorded."""
    lockin9(table, clock)
    table.act_seat(0, {"do": "vote", "target": "E"})
    table.act_presses([(0, clock.t)])
    with pytest.raises(NotNow, match="locked"):
        table.act_seat(0, {"do": "vote", "target": "F"})
    assert table.act_presses([(0, clock.t)]) == ["recorded"]
    assert table.state is not None and table.state.votes == {0: 4}
    assert not [c for c in table.seat_view(0)["actions"] if c["do"] == "vote"]


def test_lockin_picks_are_secret(table, clock):
    """[issue 7] in lock-in a lit LED says "locked", never for whom: no pick
    reaches the public view or another seat's view."""
    lockin9(table, clock)
    before_public = table.public()
    before_other = table.seat_view(5)
    table.act_seat(0, {"do": "vote", "target": "E"})
    after_public, after_other = table.public(), table.seat_view(5)
    assert after_public["seq"] == before_public["seq"]  # not even a new version
    assert after_other["seq"] == before_other["seq"]
    assert "pick" not in json.dumps(after_public) and "picks" not in json.dumps(after_other)


def test_lockin_votes_are_revealed_at_once_when_all_have_locked(table, clock):
    """[issue 7] all votes are revealed at once when every voter has locked:
    until then the public sees who locked, never for whom."""
    lockin9(table, clock)
    for seat in range(9):
        table.act_seat(seat, {"do": "vote", "target": "I" if seat != 8 else "H"})
    table.act_presses([(s, clock.t) for s in range(8)])
    view = table.public()
    assert "vote" in view and sorted(view["vote"]["voted"]) == list(range(8))
    assert view.get("last_tally") is None
    table.act_presses([(8, clock.t)])
    tally = table.public()["last_tally"]
    assert tally["counts"] == {"8": 8, "7": 1}


def test_presses_that_arrive_together_are_one_transaction(table, clock, monkeypatch):
    """[issue 7] presses that arrive together are committed together: one
    append (one transaction, one fsync) for the whole batch."""
    lockin9(table, clock)
    for seat in range(6):
        table.act_seat(seat, {"do": "vote", "target": "I"})
    calls: list[int] = []
    real = table.store.append

    def counting(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(len(args[2]))
        return real(*args, **kwargs)

    monkeypatch.setattr(table.store, "append", counting)
    out = table.act_presses([(s, clock.t) for s in range(6)])
    assert out == ["recorded"] * 6
    assert len(calls) == 1 and calls[0] >= 6


def test_recorded_presses_and_picks_survive_a_restart(db_path, clock):
    """Nothing lost [issue 7: the LED confirms a vote only after it is durably
    in the log]: a new Table on the same file has the votes and the picks."""
    table = Table(Store(db_path), clock=clock, rng=random.Random(7))
    lockin9(table, clock)
    table.act_seat(0, {"do": "vote", "target": "E"})
    table.act_seat(1, {"do": "vote", "target": "F"})
    assert table.act_presses([(0, clock.t)]) == ["recorded"]
    again = Table(Store(db_path), clock=clock, rng=random.Random(7))
    again.resume()
    assert again.state is not None and again.state.votes == {0: 4}
    assert again.pace.picks == {"0": 4, "1": 5}
    assert again.act_presses([(1, clock.t)]) == ["recorded"]
    assert again.state.votes == {0: 4, 1: 5}


def test_presses_in_a_phones_game_are_refused(table, clock):
    """[issue 7] the mode is the GM's choice: in a phones game a press is no vote."""
    table.create(jp9())
    to_ballot(table, clock)
    assert table.act_presses([(0, clock.t)]) == ["this game votes on the phones"]
