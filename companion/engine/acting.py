"""Acting: `act(state, action)` checks an action against the legal ones,
then emits its events and lets the game move on (flow.py) until it waits
for someone again.

An illegal action raises IllegalAction and leaves the state untouched. The
execution vote's ballots are the engine's hot path: a plain ballot without
professions is checked against the voter's cached choices and cast without
the general machinery (`play`, `_cast`).
"""

from __future__ import annotations

from ..options import VOTE_TIMEOUT, WOLF_ATTACK
from . import new_moon, powers
from . import professions as village
from .actions import Action, Choice, check_shape
from .choices import cached_choices, vote_targets, waiting, waiting_for, wolves_closed
from .deaths import after_prompt
from .errors import IllegalAction, StaleAction
from .flow import go
from .kernel import (
    PROMPTS,
    VOTES,
    Next,
    emit,
    fresh_memo,
    heartbreaks,
    holder,
    kill,
    left_of,
    living_wolves,
    right_of,
    step_label,
)
from .night import close_together, close_wolves, next_night_step
from .roles import ROLES
from .state import TOGETHER, State
from .votes import close_vote, execute, first_of_candidates

# --- acting --------------------------------------------------------------------

def act(state: State, action: Action, expect: int | None = None) -> list[dict]:
    """Apply one action; return the events it caused. An illegal action raises
    IllegalAction and leaves the state untouched.

    `expect` is the `state.acts` (a view's "seq") the sender saw when he chose
    the action: if the game has moved on since, StaleAction is raised and
    nothing changes, so a late button press cannot land on the next step."""
    start = len(state.log)
    play(state, action, expect)
    return state.log[start:]


def play(state: State, action: Action, expect: int | None = None) -> None:
    """`act` without the list of events it returns (the random player's form:
    a copied slice of the log per action is ~2 % of a random game)."""
    if expect is not None and (type(expect) is not int or expect != state.acts):
        raise StaleAction(f"the game has moved on (you saw action {expect!r}, "
                          f"it is now at {state.acts})")
    seat, target = action.actor, action.target
    if (action.do == "vote" and type(seat) is int and type(target) is int
            and len(action.__dict__) == 3):  # nothing else set (Action stores no default)
        ballot = state.memo_step.get(seat)  # the voter's choices, once `ballots` has run
        if ballot and target in ballot[0].targets and not state.village:  # Choice.allows
            state.acts += 1
            if _cast(state, seat, target):  # the last ballot: the vote closes
                go(state, close_vote(state))
            return
    check_shape(action)
    if state.phase == "over":
        raise IllegalAction("the game is over")
    if action.do == "timeout":
        state.acts += 1
        move = _timeout(state)
        if move is not None:
            go(state, move)
        return
    if not isinstance(seat, int) or not 0 <= seat < len(state.names):
        raise IllegalAction(f"no player at seat {seat!r}")
    choices = cached_choices(state, seat)
    do = action.do
    for choice in choices:
        if choice.do == do:
            break
    else:
        name = state.names[seat]
        if not choices:
            why = village.idle(state, seat, vote_targets) if state.village else ""
            raise IllegalAction(f"{name} cannot act now ({step_label(state)}){why}")
        may = ", ".join(c.do for c in choices)
        raise IllegalAction(f"{name} cannot {action.do!r} now ({step_label(state)}); may: {may}")
    if not choice.allows(action):
        raise IllegalAction(_why_not(state, choice, action))
    state.acts += 1
    move = _perform(state, action)
    if move is not None:  # the game moves on by itself (flow.py)
        go(state, move)


def _why_not(state: State, choice: Choice, a: Action) -> str:
    assert a.actor is not None  # act checked the seat
    name = state.names[a.actor]
    picked: list[int | None] = [a.target] if a.target is not None else list(a.targets)
    if a.do == "potion":
        if a.heal and not choice.heal:
            return f"{name} cannot heal now"
        if a.heal and a.poison is not None and choice.one_potion:
            return f"{name} has one potion for the game: heal or poison, not both"
        picked = [a.poison]
    verb = "poison" if a.do == "potion" else a.do
    for t in picked:
        if not isinstance(t, int) or not 0 <= t < state.size:
            return f"{name} cannot {verb} {t!r}: no such player"
        other = state.names[t]
        if not state.alive[t]:
            return f"{name} cannot {verb} {other}: {other} is dead"
        if t not in choice.targets:
            return f"{name} may not {verb} {other} now"
    if choice.count != (1, 1) and a.do != "potion":
        lo, hi = choice.count
        return f"{a.do} names {lo}–{hi} distinct players, not {len(a.targets)}"
    return f"{name}: {a.do} not allowed as given"


def _perform(state: State, a: Action) -> Next:
    step, seat = state.step, a.actor
    assert seat is not None  # act: only a timeout has no actor
    if a.do == "vote":
        if state.village:
            return _village_ballot(state, a)
        return close_vote(state) if _cast(state, seat, a.target) else None
    event = {"e": "act", **a.to_dict()}
    if step in VOTES:  # a day power, in the window before the first ballot (RULES.md §8)
        return _day_power(state, a, event)
    event_step = new_moon.STEPS.get(step)
    if event_step is not None:  # an event card's call (RULES.md §10): not his card's
        emit(state, event)
        event_step.acted(state, a)
        return next_night_step(state)
    role = state.roles[seat]
    before = None  # in the pack's step: who was waited for before this pick
    if step == "wolves" and state.memo_at == len(state.log):
        before = state.memo.get("waiting")
    hook = powers.ACTS.get(role)
    if hook is not None:
        hook(state, a, event)  # the seer's result, the little girl's chance
    emit(state, event)
    after = powers.ACTED.get(role)
    if after is not None and step == role:
        after(state, a)  # the thief who keeps his card
    if step in PROMPTS:
        return after_prompt(state, a)
    if step == TOGETHER:  # the night closes once every night role has acted (§4)
        return None if waiting(state) else close_together(state)
    if step != "wolves":
        return next_night_step(state)
    if (before is not None and ROLES[role].wolf and WOLF_ATTACK.of(state.opts) == "unanimous"
            and not wolves_closed(state)):
        memo = fresh_memo(state)  # no agreement yet: nobody's turn or choices changed
        memo["waiting"] = before
        pack = state.memo_step.get("pack")
        if pack is not None:
            for wolf in living_wolves(state):
                memo[wolf] = pack
        return None
    return None if waiting(state) else close_wolves(state)


def _cast(state: State, seat: int, target: int | None) -> bool:
    """A legal ballot: its event, emitted and applied as `kernel.emit` and the
    fold's `_act` would (a ballot keeps `memo_step`, draws nothing; keep them
    in step), and who is still to vote. True: it was the last ballot, the
    vote closes."""
    log, memo = state.log, state.memo
    before = memo.get("waiting") if state.memo_at == len(log) else None
    if before is None:
        before = waiting(state)
    state.votes[seat] = target
    log.append({"e": "act", "actor": seat, "do": "vote", "target": target, "a": state.acts})
    left = before
    if seat in before:  # what choices._unvoted would find now (a voter may change his vote)
        left = before.copy()
        left.remove(seat)
    memo.clear()
    memo["waiting"] = left
    state.memo_at = len(log)
    return not left


def _village_ballot(state: State, a: Action) -> Next:
    """A ballot with professions in play: the first one closes the day powers'
    window and the tavern keeper's goes before the others', so every ballot
    may change the choices (RULES.md §8); no shortcut here."""
    emit(state, {"e": "act", "actor": a.actor, "do": "vote", "target": a.target})
    state.memo_step.clear()
    return None if waiting(state) else close_vote(state)


def _day_power(state: State, a: Action, event: dict) -> Next:
    """A day power used in the window (professions.py): its result, its event,
    what follows it: the deaths it causes (the barber's) are resolved, their
    triggers run and the vote opens again (RULES.md §8)."""
    fill = village.ACTS.get(a.do)
    if fill is not None:
        fill(state, a, event)  # the confessor's card, the barber's wolf
    emit(state, event)
    after = village.ACTED.get(a.do)
    if after is None:  # the silenced may have been the last voters
        return None if waiting(state) else close_vote(state)
    dead = after(state, a)  # the barber's deaths
    emit(state, {"e": "resolve", "then": "vote"})
    time = state.time()
    for victim, cause in dead:
        kill(state, victim, cause, time, heartbreak=False)
    heartbreaks(state, [victim for victim, _ in dead], time)
    return "queue"


def _default_ballot(state: State, voter: int) -> None:
    """The ballot a timeout casts for `voter`: his right neighbour when the
    ruleset says so and he may name him, else none (RULES.md §1). In
    `vote_mode=candidates`' first round it is none whatever `vote_timeout`
    says: a default ballot names no candidate (RULES.md §6 Decisions r5)."""
    target = None
    if VOTE_TIMEOUT.of(state.opts) == "right-neighbour" and not first_of_candidates(state):
        right = right_of(state, voter)
        target = right if right in vote_targets(state, voter) else None
    emit(state, {"e": "act", "do": "vote", "actor": voter, "target": target, "default": True})


def _timeout(state: State) -> Next:
    step = state.step
    emit(state, {"e": "act", "do": "timeout", "actor": None})
    first = village.first_voter(state, vote_targets) if step in VOTES and state.village \
        else None
    if first is not None:
        # the tavern keeper's default ballot; then the others vote (RULES.md §8)
        _default_ballot(state, first)
        state.memo_step.clear()
        return None if waiting(state) else close_vote(state)
    if step in VOTES:
        for voter in waiting_for(state):
            _default_ballot(state, voter)
        return close_vote(state)
    if step == "wolves":
        return close_wolves(state)
    if step == TOGETHER:  # one timeout ends the whole night, each missing action's default
        return close_together(state)
    if step == "appoint":
        assert state.actor is not None  # every prompt step names its actor
        dying = state.actor
        heir = left_of(state, dying)
        if state.village:  # the nearest farmer to his left [000]
            heir = min(village.heirs(state, dying), key=lambda i: (i - dying) % state.size)
        emit(state, {"e": "sheriff", "seat": heir, "how": "default"})
        return "queue"
    if step == "pardon":  # the lord lets it happen
        return execute(state, state.condemned, asked=True)
    if step in PROMPTS:
        return "queue"
    hook = powers.TIMEOUT.get(step)
    seat = holder(state, step)
    if hook is not None and seat is not None:
        hook(state, seat)  # the thief's default
    return next_night_step(state)
