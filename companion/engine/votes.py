"""The day's votes (RULES.md §6): the sheriff's election, the execution vote,
its tally, ties and runoffs, and the execution.

Each function returns what comes next (flow.py): an execution hands its dead
to the queue; a vote that waits for ballots returns None.
"""

from __future__ import annotations

from operator import itemgetter

from ..options import SHERIFF, TIE, VOTE_MODE
from . import new_moon, powers
from . import professions as village
from .choices import waiting
from .kernel import KEYS, Next, emit, in_play, kill, living, rng, today
from .roles import ROLES
from .state import State

_VOTER = itemgetter("voter")


def begin_day(state: State) -> Next:
    emit(state, {"e": "day", "n": state.n})
    new_moon.turn(state)  # New Moon: the top event card (RULES.md §10)
    if SHERIFF.of(state.opts) and not state.elected:
        # with professions: on day 2, among the living farmers (RULES.md §8)
        day, candidates = village.election(state) if state.village else (1, None)
        if state.n == day:
            return _elect(state, candidates)
    return open_vote(state, 1, None)


def _elect(state: State, candidates: list[int] | None) -> Next:
    if candidates != []:
        emit(state, {"e": "step", "step": "election", "round": 1, "candidates": candidates})
        if waiting(state):
            return None
    emit(state, {"e": "sheriff", "seat": None, "how": "none"})
    return open_vote(state, 1, None)


def open_vote(state: State, round_: int, candidates: list[int] | None) -> Next:
    event = {"e": "step", "step": "vote", "round": round_, "candidates": candidates}
    if round_ > 1 and state.nominees is not None:  # vote_mode=candidates: they still
        event["nominees"] = list(state.nominees)  # do not vote in a runoff (RULES.md §6)
    emit(state, event)
    if not waiting(state):
        return close_vote(state)
    return None


def first_of_candidates(state: State) -> bool:
    """The open vote is `vote_mode=candidates`' first round (RULES.md §6
    [003] variant): an execution vote's round 1, which names the candidates."""
    return (state.step == "vote" and state.round == 1 and state.nominees is None
            and VOTE_MODE.of(state.opts) == "candidates")


def nominees_of(state: State, counts: dict[int, int]) -> list[int]:
    """The candidates a first round names (RULES.md §6 `vote_mode=candidates`,
    [003] 「最高票…的兩位（如果平手則可能是兩位以上）玩家成為“候選人”」): the two
    with most votes, more when tied for second place (a tie for first of
    three or more: all of them); **Decision:** only a player who received a
    ballot (the rumormonger's posted votes alone make nobody a candidate).
    In seat order."""
    balloted = {t for t in state.votes.values() if t is not None}
    ranked = sorted((c for s, c in counts.items() if s in balloted), reverse=True)
    if not ranked:
        return []
    bar = ranked[min(1, len(ranked) - 1)]  # the second highest count
    return sorted(s for s, c in counts.items() if s in balloted and c >= bar)


def _tally(state: State) -> tuple[dict, dict[int, int], list[int]]:
    """The "tally" event of the open vote (without its "tie"), the votes each
    seat got, and the most voted (sorted when tied).

    The event says how the counts were made (CONTRACTS C1): `ballots`, one per
    voter in seat order with its weight (the sheriff's 2 in an execution vote
    [000][003]), and `extra`, the votes no ballot cast (the rumormonger's two,
    RULES.md §8), so that for every seat counts == its ballots' weights + its
    extra votes, and no reader has to know a rule to show them."""
    votes: dict[str, int | None] = {}  # in the order they were cast, as logged before
    counts: dict[int, int] = {}
    ballots: list[dict] = []
    vote = state.step == "vote"
    double = state.sheriff if vote else None  # his ballot counts twice
    card = today(state) if double is not None else None
    heavy = card.sheriff_weight if card is not None else 2  # one-voice: once (RULES.md §10)
    for voter, target in state.votes.items():
        weight = heavy if voter == double else 1
        votes[KEYS[voter]] = target
        ballots.append({"voter": voter, "target": target, "weight": weight})
        if target is not None:
            counts[target] = counts.get(target, 0) + weight
    ballots.sort(key=_VOTER)  # in seat order
    extra = []
    poster = state.poster
    if vote and poster is not None and _posted(state, counts):
        # the rumormonger's two votes, in the day's first execution vote (RULES.md §8)
        counts[poster] = counts.get(poster, 0) + 2
        extra.append({"source": "poster", "target": poster, "votes": 2})
    tied: list[int] = []
    top = 0
    if counts:
        top = max(counts.values())
        tied = [t for t, c in counts.items() if c == top]
        if len(tied) > 1:
            tied.sort()
    event = {"e": "tally", "step": state.step, "round": state.round, "votes": votes,
             "counts": {KEYS[k]: v for k, v in counts.items()}, "top": top,
             "ballots": ballots, "extra": extra}
    if extra:
        event["poster"] = poster  # two of its votes are the rumormonger's
    return event, counts, tied


def _posted(state: State, counts: dict[int, int]) -> bool:
    """The poster counts: the day's first execution vote, someone voted, its
    target lives and is not the tavern keeper holding her power (RULES.md §8
    Decision)."""
    poster = state.poster
    return (poster is not None and bool(counts) and state.round == 1 and not state.verdicts
            and state.alive[poster]
            and not (state.village and village.keeper(state) == poster))


def close_vote(state: State) -> Next:
    event, counts, tied = _tally(state)
    if tied and first_of_candidates(state):
        # the first round names the candidates: never a tie, no scapegoat, no
        # runoff, not one of runoff-draw's three (RULES.md §6 Decision)
        nominees = nominees_of(state, counts)
        event["nominees"] = nominees
        emit(state, event)
        # (the tavern keeper keeps her power through it: the round that executes
        # decides it, RULES.md §6 Decisions r5)
        # their defence is the hub's (pending's "defence"); then only the
        # others vote, among them
        emit(state, {"e": "step", "step": "vote", "round": 2, "candidates": nominees,
                     "nominees": nominees})
        return None if waiting(state) else close_vote(state)
    if len(tied) > 1:
        event["tie"] = tied
    emit(state, event)
    if state.village:
        village.closed(state, counts, tied)  # the tavern keeper's loss
    if state.step == "election":
        return _close_election(state, tied)
    if len(tied) == 1:
        return execute(state, tied[0])
    if not tied:  # no ballot: nobody, and the day's voting ends (RULES.md §6 Decision)
        return execute(state, None, ends_day=True)
    # the scapegoat overrides every policy [002][003]
    for tie in in_play(state, powers.TIE).values():
        settled = tie(state)
        if settled is not None:
            seat, cause = settled
            return execute(state, seat, cause)
    policy = TIE.of(state.opts)
    rounds = len(state.ties)
    if policy == "scapegoat-sheriff-none":
        pick = state.votes.get(state.sheriff) if state.sheriff is not None else None
        return execute(state, pick if pick in tied else None)
    if policy == "none" or (policy == "runoff-once" and rounds >= 2):
        return execute(state, None)
    if policy == "runoff-once" or rounds < 3:
        return open_vote(state, state.round + 1, tied)
    if policy == "runoff-draw" and len(set(state.ties[-3:])) == 1 and _half_power_play(state):
        emit(state, {"e": "over", "winner": "draw", "winners": [], "why": "three ties"})
        return None
    return execute(state, _draw(state, tied))


def _draw(state: State, among: list[int]) -> int:
    pick = rng(state).choice(among)
    emit(state, {"e": "drawn", "among": among, "seat": pick, "draw": True})
    return pick


def _half_power_play(state: State) -> bool:
    up = living(state)
    wolfish = sum(1 for i in up if ROLES[state.roles[i]].wolf
                  or ROLES[state.roles[i]].team == "werewolves")  # the madman too
    return len(up) % 2 == 0 and 2 * wolfish == len(up)


def _close_election(state: State, tied: list[int]) -> Next:
    """Plurality; a tie is re-voted once among the tied, then one of them is
    drawn (RULES.md §6 Decision). No vote at all in the first round: no sheriff."""
    if len(tied) == 1:
        emit(state, {"e": "sheriff", "seat": tied[0], "how": "elected"})
    elif state.round == 1 and not tied:
        emit(state, {"e": "sheriff", "seat": None, "how": "none"})
    elif state.round == 1:
        emit(state, {"e": "step", "step": "election", "round": 2, "candidates": tied})
        if waiting(state):
            return None
        return _close_election(state, [])  # nobody can vote in the re-vote: draw
    else:
        assert state.candidates is not None  # round 2 is among the tied
        seat = _draw(state, tied or list(state.candidates))
        emit(state, {"e": "sheriff", "seat": seat, "how": "drawn"})
    return open_vote(state, 1, None)


def execute(state: State, seat: int | None, cause: str = "execution",
            asked: bool = False, ends_day: bool = False) -> Next:
    """The vote's outcome carried out (None: nobody); the lord may pardon it
    first; the village idiot lives on (his card's `executed` hook).
    `ends_day`: a vote with no ballots ends the day's voting (RULES.md §6
    Decision), a second vote of two-executions included (§10)."""
    if seat is not None and cause == "execution" and state.village and not asked:
        lord = village.lord(state, seat)
        if lord is not None:  # he may pardon it first (RULES.md §8 Decision)
            emit(state, {"e": "step", "step": "pardon", "actor": lord, "condemned": seat})
            return None
    emit(state, {"e": "resolve", "then": "night", **({"ends_day": True} if ends_day else {})})
    if seat is not None:
        saved = powers.EXECUTED.get(state.roles[seat]) if cause == "execution" else None
        if saved is None or not saved(state, seat):  # the village idiot lives on
            kill(state, seat, cause, state.now)
    return "queue"
