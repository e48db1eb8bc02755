"""What each seat may do now, and whom the open step waits for.

`legal_actions(state, seat)` and `waiting_for(state)` are the questions the
hub, the seat boxes and `act`'s own check ask; their answers are cached in
`state.memo` until the next event, and a vote's ballot choices in
`state.memo_step` until the vote closes (a ballot changes nobody's choices).
A card's own choices come from its hook (powers.py); The Village amends the
vote's (professions.py), given `vote_targets` to ask who may vote for whom.
"""

from __future__ import annotations

from ..options import SELF_VOTE, WOLF_ATTACK
from . import new_moon, powers
from . import professions as village
from .actions import Choice
from .kernel import (
    PROMPTS,
    VOTES,
    fresh_memo,
    holder,
    in_play,
    living,
    living_wolves,
    powered,
    together_steps,
)
from .roles import ROLES
from .state import TOGETHER, State

# --- legal actions -------------------------------------------------------------

def legal_actions(state: State, seat: int) -> list[Choice]:
    """What `seat` may do now (empty when it may do nothing).

    Answers are cached until the next event: the phone, the seat box and
    `act`'s own check often ask the same question about the same state."""
    return list(cached_choices(state, seat))


def cached_choices(state: State, seat: int) -> list[Choice]:
    """`legal_actions` without the copy: the cached list itself (never mutate it)."""
    got = state.memo_step.get(seat)  # a voter's ballot choices, built once per vote (ballots)
    if got is not None:
        return got
    memo = state.memo if state.memo_at == len(state.log) else fresh_memo(state)
    got = memo.get(seat)
    if got is None:
        got = memo[seat] = _legal_actions(state, seat)
    return got


def _legal_actions(state: State, seat: int) -> list[Choice]:
    step = state.step
    if state.phase == "over" or not 0 <= seat < len(state.names):
        return []
    if step in PROMPTS:
        return _prompt_choices(state, seat) if seat == state.actor else []
    event_step = new_moon.STEPS.get(step)
    if event_step is not None:  # an event card's call: the first dead's (RULES.md §10)
        return event_step.choices(state, seat)
    if not state.alive[seat]:
        return []
    if step in VOTES:
        # a ballot changes nobody's choices: every voter's are built once per vote
        got = state.memo_step.get(seat)
        return got if got is not None else ballots(state).get(seat, [])
    if step == "wolves":
        return wolves_choices(state, seat)
    if step == TOGETHER:
        return together_choices(state, seat)
    return night_choices(state, seat, step)


def together_choices(state: State, seat: int) -> list[Choice]:
    """A living seat's choices in jp-standard's one night step (RULES.md §4):
    its card's own step's, once, if that step acts tonight; a wolf's (or the
    one who acts in the pack's step) the pack's, while the wolves' part is open."""
    role = state.roles[seat]
    steps = together_steps(state)
    if ROLES[role].wolf or role in powers.PACK:
        return wolves_choices(state, seat) if "wolves" in steps else []
    own = ROLES[role].step
    if own not in steps or seat in state.done:
        return []
    return night_choices(state, seat, own)


def night_choices(state: State, seat: int, step: str) -> list[Choice]:
    """A night step's choices for a living seat (none unless it holds the card):
    the card's own `night` power (powers.py)."""
    if state.roles[seat] != step or not powered(state, seat):
        return []
    return powers.NIGHT[step](state, seat)


def wolves_choices(state: State, seat: int) -> list[Choice]:
    role = state.roles[seat]
    if not ROLES[role].wolf:
        pack = powers.PACK.get(role)  # a card that acts in the pack's step (the little girl)
        return pack(state, seat) if pack is not None else []
    if WOLF_ATTACK.of(state.opts) == "any-wolf" and wolves_closed(state):
        return []  # the first wolf's choice stands [004]
    # unanimous: a wolf may change his pick while the step is open [000]
    got = state.memo_step.get("pack")  # the same for every wolf, all step long
    if got is None:
        wolves = living_wolves(state)
        prey = tuple([i for i in state.up if i not in wolves])
        if state.village:
            prey = village.prey(state, prey)  # not the tavern keeper [000]
        got = state.memo_step["pack"] = [Choice.one_of("attack", prey), Choice("pass")] \
            if prey else []
    return got


def wolves_closed(state: State) -> bool:
    """The wolves' own part of their step is settled (RULES.md §5 werewolf)."""
    wolves = living_wolves(state)
    picks = state.picks
    everyone = len(picks) >= len(wolves) and all(map(picks.__contains__, wolves))  # has picked
    if WOLF_ATTACK.of(state.opts) == "any-wolf":  # the first wolf's choice stands [004]
        # (no generator while nobody has picked: the step has just opened)
        return everyone or (bool(picks) and any(t is not None for t in picks.values()))
    return everyone and len({picks[w] for w in wolves}) == 1  # unanimous [000]


def vote_targets(state: State, seat: int) -> tuple[int, ...]:
    """Whom `seat` may vote for in the open vote (empty: he has no vote)."""
    choices = ballots(state).get(seat)
    return choices[0].targets if choices and choices[0].do == "vote" else ()


def ballots(state: State) -> dict:
    """Every living seat's choices in the open vote, built in one pass and kept
    in `state.memo_step` until the vote closes (ballots change no one's choices).
    A revealed idiot has no vote [002][003]; outside the election only the
    scapegoat's chosen voters vote; nobody votes for his lover, in any vote
    (the election too), nor for himself without `self_vote` (the election
    allows it); a runoff is among its candidates."""
    cached = state.memo_step
    if "ballots" in cached:
        return cached
    cached["ballots"] = True
    pool = state.candidates if state.candidates is not None else state.up
    election = state.step == "election"
    self_ok = election or SELF_VOTE.of(state.opts)
    lovers = state.lovers  # in every vote, the election too (RULES.md §5 Cupid [000][003])
    allowed = None if election else state.allowed
    # vote_mode=candidates: the candidates do not vote in the rounds after the first (§6)
    nominees = None if election else state.nominees
    revealed = state.revealed
    up = state.up
    if pool is up and len(up) > 1 and not (self_ok or revealed or lovers or allowed is not None
                                           or nominees is not None):
        # the usual first round: every living player names anyone but himself
        for k, seat in enumerate(up):
            cached[seat] = [Choice.one_of("vote", up[:k] + up[k + 1:])]
        return _amended(state, cached, list(up))
    shared = [Choice.one_of("vote", pool)] if pool else []  # for all who may name anyone
    voters = []  # those left with a choice (`voters`)
    for at, seat in enumerate(up):
        if seat in revealed or (allowed is not None and seat not in allowed) or (
                nominees is not None and seat in nominees):
            cached[seat] = []
            continue
        out = pool
        if not self_ok and seat in out:
            k = at if out is up else out.index(seat)
            out = out[:k] + out[k + 1:]
        if lovers and seat in lovers:
            lover = lovers[1] if seat == lovers[0] else lovers[0]
            if lover in out:
                k = out.index(lover)
                out = out[:k] + out[k + 1:]
        if out:
            cached[seat] = shared if out is pool else [Choice.one_of("vote", out)]
            voters.append(seat)
        else:
            cached[seat] = []
    return _amended(state, cached, voters)


def _amended(state: State, cached: dict, voters: list[int]) -> dict:
    """`ballots`' last word: with professions, The Village amends the choices
    (the schoolteacher, the tavern keeper, the day powers: RULES.md §8), and
    `voters` finds the voters; without, they are `voters`."""
    if state.village:
        village.ballots(state, cached)
    else:
        cached["voters"] = voters
    return cached



def _unvoted(state: State) -> list[int]:
    """Voters who have not voted yet (votes are the engine's hot path)."""
    votes = state.votes
    seats = voters(state)
    return [i for i in seats if i not in votes] if votes else seats


def voters(state: State) -> list[int]:
    """Who may vote in the open vote: those with a non-empty `vote_targets`,
    once per vote (found by `ballots`, amended with professions)."""
    got = state.memo_step.get("voters")
    if got is not None:
        return got
    if not state.village:
        return ballots(state)["voters"]
    got = state.memo_step["voters"] = village.voters(state, _eligible(state), vote_targets)
    return got


def ballot_voters(state: State) -> list[int]:
    """Everyone who votes in the open vote, those still waiting for the
    tavern keeper's ballot included (RULES.md §8: hers comes first): what
    the table counts its ballots against [issue 44]."""
    if not state.village or state.step != "vote" \
            or village.first_voter(state, vote_targets) is None:
        return voters(state)
    silenced = state.silenced or frozenset()  # (the others' choices wait for hers)
    return [i for i in _eligible(state, gated=False) if i not in silenced]


def _eligible(state: State, gated: bool = True) -> list[int]:
    """With professions: who may vote, before The Village's amendments
    (`gated`: asked of each voter's choices, which wait for the tavern
    keeper's ballot; else by the rules alone)."""
    pool = state.candidates if state.candidates is not None else state.up
    if len(pool) <= 2 and gated:  # his lover and himself may be all there is
        got = [i for i in state.up if vote_targets(state, i)]
    elif not pool:
        got = []
    else:
        revealed = state.revealed
        allowed = state.allowed if state.step == "vote" else None
        nominees = state.nominees if state.step == "vote" else None
        got = [i for i in state.up if i not in revealed and (allowed is None or i in allowed)
               and not (nominees is not None and i in nominees)]
    return got


def _prompt_choices(state: State, seat: int) -> list[Choice]:
    others = tuple(i for i in living(state) if i != seat)
    if state.step == "hunter":
        return [Choice("shoot", others, (1, 1)), Choice("pass")]
    if state.step == "appoint":
        if state.village:
            others = tuple(village.heirs(state, seat))  # a farmer succeeds [000]
        return [Choice("appoint", others, (1, 1))]
    if state.step == "pardon":
        return [Choice("pardon"), Choice("pass")]
    return [Choice("allow", others, (0, len(others)))]


def waiting_for(state: State) -> list[int]:
    """Seats whose action the current step still waits for."""
    return list(waiting(state))


def waiting(state: State) -> list[int]:
    """`waiting_for` without the copy: the cached list itself (never mutate it)."""
    memo = state.memo if state.memo_at == len(state.log) else fresh_memo(state)
    got = memo.get("waiting")
    if got is None:
        got = memo["waiting"] = _waiting_for(state)
    return got


def _waiting_for(state: State) -> list[int]:
    step = state.step
    if state.phase == "over":
        return []
    if step in PROMPTS:
        assert state.actor is not None  # every prompt step names its actor
        return [state.actor]
    if step in new_moon.STEPS:  # an event card's call (RULES.md §10): its one seat
        return [state.actor] if state.actor is not None and cached_choices(
            state, state.actor) else []
    if step in VOTES:
        return _unvoted(state)
    if step == "wolves":
        return _pack_waiting(state)
    if step == TOGETHER:  # every night role of tonight at once, each until he acts
        out = []
        for own in together_steps(state):
            if own == "wolves":
                out += _pack_waiting(state)
                continue
            seat = holder(state, own)
            if seat is not None and cached_choices(state, seat):
                out.append(seat)
        return sorted(out)
    # a night step: only the living holder of its card may act
    seat = holder(state, step)
    return [seat] if seat is not None and cached_choices(state, seat) else []


def _pack_waiting(state: State) -> list[int]:
    """Whom the pack's part of the night waits for: the living wolves until
    they have settled, and the one who may spy (the little girl)."""
    wolves = living_wolves(state)
    prey = len(wolves) < len(state.up) and (  # someone is left to attack
        not state.village or bool(wolves_choices(state, wolves[0])))
    out = list(wolves) if prey and not wolves_closed(state) else []
    for role in in_play(state, powers.PACK):  # the little girl
        seat = holder(state, role)
        if seat is not None and wolves_choices(state, seat):
            out.append(seat)
    return out
