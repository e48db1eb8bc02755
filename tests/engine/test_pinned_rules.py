"""Rules no test pinned down [issue 34]: mutation testing of votes.py,
wins.py and deaths.py found five whose breaking no test noticed. One test
each, citing its rule; each was seen to fail with the rule broken on purpose
(the mutant named in its docstring)."""

from __future__ import annotations

from helpers import S, a, attack, game, votes

from companion.engine import Action, act, announcements, public_view

MH = "millers-hollow"


def test_only_a_mixed_pair_wins_as_lovers_rules_7_rule_2():
    """RULES.md §7 rule 2: "Mixed lovers are the only two alive → the lovers"
    [000][003]; two village lovers left as the last two alive are a village
    win (cupid, dead, wins with them), two wolf lovers at parity a wolf win.
    (wins.py's `state.lovers and mixed_lovers(state)` as `or` fails both.)"""
    village = game(MH, ["werewolf", "cupid", "villager", "villager"],
                   [a("Bob", "link", targets=["Cid", "Dan"]), *attack("Bob", "Ann"),
                    *votes("Ann>Cid", "Cid>Ann", "Dan>Ann")], {"sheriff": False})
    assert village.up == (S("Cid"), S("Dan"))
    assert (village.winner, list(village.winners)) == ("village", [S("Bob"), S("Cid"), S("Dan")])
    wolves = game(MH, ["werewolf", "werewolf", "cupid", "villager", "villager"],
                  [a("Cid", "link", targets=["Ann", "Bob"]), *attack("Dan", "Ann", "Bob")],
                  {"sheriff": False, "wolves_win": "parity"})
    assert (wolves.winner, list(wolves.winners)) == ("werewolves", [S("Ann"), S("Bob")])


def farmers_game():
    """Night 3: the wolves kill Dan, the farmer captain; the witch poisons Eve,
    the hunter (professions: Dan the only farmer, RULES.md §8)."""
    deal = ["werewolf", "werewolf", "seer", "villager", "hunter", "witch", "villager",
            "villager"]
    tokens = ["drifter", "drifter", "drifter", "farmer", "drifter", "drifter", "drifter",
              "drifter"]
    script = [a("Cid", "inspect", "Ann"), *attack("Hal", "Ann", "Bob"), a("Fay", "pass"),
              *votes("Ann>Gus", "Bob>Gus", "Cid>Gus", "Dan>Gus", "Eve>Gus", "Fay>Gus",
                     "Gus>Ann"),
              a("Cid", "inspect", "Bob"), *attack("Cid", "Ann", "Bob"), a("Fay", "pass"),
              *votes("Ann>Dan", "Bob>Dan", "Dan>Dan", "Eve>Dan", "Fay>Dan"),  # the captain
              a(None, "timeout"),  # day 2's vote: nobody
              *attack("Dan", "Ann", "Bob"), a("Fay", "potion", heal=False, poison="Eve")]
    return game(MH, deal, script, professions=tokens)


def test_a_skipped_prompt_leaves_the_rest_of_the_queue_to_run_rules_6_queue():
    """RULES.md §6 trigger queue: "for each dead player his own prompts run
    ... The win is checked only when the queue is empty"; §8: "when the last
    farmer dies there is no captain". Night 3: the wolves kill Dan, the
    farmer captain, the witch poisons Eve, the hunter. Dan's successor prompt
    is skipped (no farmer left); Eve's shot still comes before the day.
    (deaths.py's `continue` after the skip as `break` fails.)"""
    state = farmers_game()
    assert [e for e in state.log if e["e"] == "skip"][-1] == {
        "e": "skip", "prompt": "appoint", "seat": S("Dan"), "a": state.acts}
    assert (state.step, state.actor, state.phase) == ("hunter", S("Eve"), "night")


def test_the_rumormongers_two_votes_day_2_and_the_tavern_keeper_rules_8():
    """RULES.md §8 rumormonger: "two extra votes against that player in the
    next day's first execution vote", also on a day 2 with no farmers'
    election (no farmer dealt); §8 Decision: "a post on her [the tavern
    keeper] is allowed but counts nothing while she holds her power".
    (votes.py's poster test and `_posted`'s keeper clause, broken, fail.)"""
    deal = ["werewolf", "werewolf", "seer", "villager", "villager", "villager", "rumormonger",
            "villager"]
    tokens = ["drifter", "drifter", "drifter", "baker", "tavern-keeper", "drifter", "drifter",
              "drifter"]
    day1 = [a("Cid", "inspect", "Ann"), a("Gus", "post", "Eve"), *attack("Hal", "Ann", "Bob"),
            *votes("Eve>Cid", "Ann>Dan", "Bob>Dan", "Cid>Ann", "Dan>Ann", "Fay>Ann", "Gus>Fay")]
    state = game(MH, deal, day1, professions=tokens)
    first = [e for e in state.log if e["e"] == "tally"][-1]
    assert first["extra"] == [] and str(S("Eve")) not in first["counts"]
    assert (S("Ann"), "execution", "day 1") in state.deaths
    day2 = [a("Cid", "inspect", "Bob"), a("Gus", "post", "Dan"), a("Bob", "attack", "Fay"),
            *votes("Eve>Cid", "Bob>Cid", "Cid>Bob", "Dan>Bob", "Gus>Cid")]
    state = game(MH, deal, day1 + day2, professions=tokens)
    sheriff = [e for e in state.log if e["e"] == "sheriff"]
    assert [(e["seat"], e["how"]) for e in sheriff] == [(None, "none")]  # no farmer, no election
    second = [e for e in state.log if e["e"] == "tally"][-1]
    assert (second["round"], second["counts"][str(S("Dan"))]) == (1, 2)
    assert second["extra"] == [{"source": "poster", "target": S("Dan"), "votes": 2}]
    assert (S("Cid"), "execution", "day 2") in state.deaths


def test_a_runoff_election_nobody_can_vote_in_falls_to_the_draw_rules_6_decision():
    """RULES.md §6 Decision: "an election tie is re-voted once among the tied,
    then one of the tied is drawn at random". No legal game leaves its
    re-vote without a voter (every living non-revealed player may vote,
    himself included), so the state is set up by hand: everyone is taken out
    of the vote just before the tie closes round 1. The re-vote then draws
    one of the tied. (votes.py's `return _close_election(state, [])` broken
    leaves the game with no sheriff and no vote.)"""
    t8 = ["werewolf", "werewolf", "seer", "villager", "villager", "villager", "villager",
          "villager"]
    state = game(MH, t8, [a("Cid", "inspect", "Ann"), *attack("Hal", "Ann", "Bob"),
                          *votes("Ann>Dan", "Bob>Dan", "Cid>Eve", "Dan>Eve", "Eve>Fay",
                                 "Fay>Gus")])
    state.revealed = set(state.up)  # nobody may vote in the re-vote (by hand)
    state.memo_step.clear()
    state.memo.clear()
    state.votes[S("Gus")] = S("Fay")  # the last ballot: Dan 2, Eve 2, Fay 2
    from companion.engine.flow import go
    from companion.engine.votes import close_vote
    go(state, close_vote(state))
    drawn = [e for e in state.log if e["e"] == "drawn"]
    assert len(drawn) == 1 and drawn[0]["among"] == [S("Dan"), S("Eve"), S("Fay")]
    assert state.sheriff == drawn[0]["seat"]
    assert [e["how"] for e in state.log if e["e"] == "sheriff"] == ["drawn"]
    at = next(i for i, e in enumerate(state.log) if e["e"] == "sheriff")
    assert state.log[at + 1]["e"] == "step" and state.log[at + 1]["step"] == "vote"


#: the log's event shapes the views, the announcements and the story read
#: (state.py's fold, views.py, words/): their keys, "a" (the action count) included
SHAPES = {
    "sheriff": {"e", "seat", "how", "a"},
    "skip": {"e", "prompt", "seat", "a"},
    "triggers": {"e", "seat", "prompts", "a"},
    "allowed": {"e", "seat", "voters", "a"},
    "drawn": {"e", "among", "seat", "draw", "a"},
    "resolve": {"e", "then", "a"},  # + "ends_day" when a vote had no ballots
}


def test_the_logs_documented_event_shapes_hold_their_keys():
    """The events the views and announcements read keep their keys: `how`
    (sheriff), `skip`, `triggers`, `allowed`, `drawn`, `resolve` (with
    `ends_day` after a vote with no ballots, RULES.md §6 Decision). One game
    makes each: an election tie drawn, a scapegoat's tie and his voters, a
    hunter's shot, a dead sheriff's successor, a vote with no ballots."""
    deal = ["werewolf", "werewolf", "seer", "hunter", "villager", "villager", "scapegoat",
            "villager"]
    script = [a("Cid", "inspect", "Ann"), *attack("Hal", "Ann", "Bob"),
              *votes("Ann>Dan", "Bob>Dan", "Cid>Eve", "Dan>Eve", "Eve>Fay", "Fay>Gus",
                     "Gus>Fay"),  # an election tie: the re-vote
              *votes("Ann>Dan", "Bob>Dan", "Cid>Eve", "Dan>Eve", "Eve>Fay", "Fay>Eve",
                     "Gus>Dan"),  # tied again: drawn
              ]
    state = game(MH, deal, script)
    sheriff = state.sheriff
    assert sheriff is not None
    # an execution tie: the scapegoat dies and names Cid
    tie = votes("Ann>Cid", "Bob>Cid", "Cid>Ann", "Dan>Ann", "Eve>Fay", "Fay>Eve", "Gus>Eve")
    for raw in tie:
        act(state, Action(S(raw["actor"]), "vote", target=S(raw["target"])))
    if state.step == "vote":  # the sheriff's double vote broke the tie: time it out
        act(state, Action(None, "timeout"))
    seen = {e["e"] for e in state.log}
    assert {"sheriff", "drawn", "triggers", "resolve"} <= seen
    # a night's attack on the hunter: his shot; with no ballots the next day
    while state.phase != "over" and not (state.phase == "day" and state.n == 3):
        if state.step in ("allow",):
            act(state, Action(state.actor, "allow", targets=(S("Cid"),)))
        elif state.step == "hunter":
            act(state, Action(state.actor, "pass"))
        elif state.step == "appoint":
            act(state, Action(state.actor, "appoint", target=state.up[0]))
        elif state.step == "wolves" and state.alive[S("Dan")]:
            for w in (S("Ann"), S("Bob")):
                if state.alive[w]:
                    act(state, Action(w, "attack", target=S("Dan")))
        else:
            act(state, Action(None, "timeout"))
    kinds = {}
    for e in state.log:
        kinds.setdefault(e["e"], []).append(e)
    for e in farmers_game().log:  # a skipped prompt (no farmer left to succeed)
        kinds.setdefault(e["e"], []).append(e)
    assert set(SHAPES) <= set(kinds)
    for kind, keys in SHAPES.items():
        for e in kinds[kind]:
            extra = {"ends_day"} if kind == "resolve" else set()
            assert keys <= set(e) <= keys | extra, (kind, e)
    assert any(e.get("ends_day") for e in kinds["resolve"])
    # the readers: the announcements name the sheriff's `how`, the public view the badge
    hows = [x["how"] for x in announcements(state) if x["kind"] == "sheriff"]
    assert hows[0] == "drawn"
    assert public_view(state)["sheriff"] == state.sheriff
