"""The rules: which actions are legal now, and what an action sets off.

`act(state, action)` checks the action against `legal_actions`, then emits
events; each event is applied as it is emitted (`state.apply`) and appended to
the log, so the logic below always reads an up-to-date state and a rebuild
from the log needs no rules at all. Nothing here does I/O or reads a clock;
chance comes from `_rng`, seeded by the game's seed and the draw count.
"""

from __future__ import annotations

from random import Random
from typing import TypeVar

from .actions import Action, Choice, check_shape
from .errors import IllegalAction, SetupError, StaleAction
from .roles import NIGHT_STEPS, ROLES, called_tonight
from .rulesets import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    check_copies,
    check_role,
    recommended_deal,
    resolve_options,
    ruleset_roles,
)
from .state import APPLY, STEP_KEEPS, State, rebuild

PROMPTS = ("hunter", "appoint", "allow", "pardon")
VOTES = ("election", "vote")
SPY_ODDS = {"discreet": (0.2, 0.2), "bold": (0.4, 0.4)}  # (learns a wolf, caught) [000]
T = TypeVar("T")
PUBLIC_CAUSES = frozenset({"execution", "hunter", "scapegoat", "barber"})
_KEYS = tuple(str(i) for i in range(MAX_PLAYERS))  # a seat as a JSON object's key


# --- creating a game ----------------------------------------------------------

def new_game(ruleset: str, players: list[str], deal: list[str] | None = None,
             options: dict | None = None, center: list[str] | None = None,
             seed: int = 0, professions: list[str] | None = None) -> State:
    """A new game at its first step. `deal` is the card of each seat (None: a
    random deal of the recommended distribution, drawn from `seed`).
    `professions` is The Village's token of each seat (None: dealt from the
    seed when the `professions` option is on, else none in play)."""
    opts = resolve_options(ruleset, options)
    players = list(players)
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise SetupError(f"a game seats {MIN_PLAYERS}–{MAX_PLAYERS} players, not {len(players)}")
    if not all(isinstance(p, str) and p.strip() for p in players):
        raise SetupError("player names must be non-empty strings")
    if len(set(players)) != len(players):
        dupes = sorted({p for p in players if players.count(p) > 1})
        raise SetupError(f"duplicate player names: {', '.join(dupes)}")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise SetupError(f"seed must be an integer, not {seed!r}")
    center = list(center or [])
    if deal is None:  # the recommended distribution, shuffled from the seed
        counts = recommended_deal(ruleset, len(players))
        deal = [r for r, c in sorted(counts.items()) for _ in range(c)]
        Random(f"{seed}:deal").shuffle(deal)
    if len(deal) != len(players):
        raise SetupError(f"the deal has {len(deal)} cards for {len(players)} players")
    cards = [*deal, *center]
    if not ruleset_roles(ruleset).issuperset(cards):
        for role in cards:
            check_role(ruleset, role)  # says which card and why
    if "thief" in deal:
        if len(center) != 2:
            raise SetupError("a dealt thief needs exactly two centre cards")
        if deal.count("thief") > 1 or "thief" in center:
            raise SetupError("there is only one thief card")
    elif center:
        raise SetupError("centre cards are only used when the thief is dealt")
    check_copies({role: cards.count(role) for role in set(cards)})
    if professions is None and opts.get("professions"):
        professions = village.deal(len(players), seed)
    setup = {"e": "setup", "ruleset": ruleset, "options": opts, "players": players,
             "deal": list(deal), "center": center, "seed": seed}
    if professions is not None:  # absent otherwise: older logs replay unchanged
        professions = list(professions)
        village.check(professions, len(players))
        setup["professions"] = professions
    state = State()
    _emit(state, setup)
    _begin_night(state, 1)
    return state


# --- helpers -------------------------------------------------------------------

def _emit(state: State, event: dict) -> None:
    """Apply `event` and log it: `state.apply` written out, as this runs for
    every event of every game (keep the two in step)."""
    kind = event["e"]
    event["a"] = state.acts
    APPLY[kind](state, event)
    if kind != "act" or event["do"] not in STEP_KEEPS:
        state.memo_step.clear()
    if "draw" in event:
        state.draws += 1
    state.log.append(event)


def _rng(state: State) -> Random:
    return Random(f"{state.seed}:{state.draws}")


def living(state: State) -> tuple[int, ...]:
    return state.up


def holder(state: State, role: str) -> int | None:
    """The living player holding `role` (single cards only)."""
    alive = state.alive
    for i in (state.memo_cards or _seats_by_card(state)).get(role, ()):
        if alive[i]:
            return i
    return None


def _seats_by_card(state: State) -> dict[str, list[int]]:
    """The seats holding each card, living or not (cached until a card changes hands)."""
    got = state.memo_cards
    if not got:
        for i, r in enumerate(state.roles):
            got.setdefault(r, []).append(i)
    return got


def _in_play(state: State, table: dict[str, T]) -> dict[str, T]:
    """`table` (a powers.py hook table: card -> hook) less the cards no seat
    holds, living or dead: an absent card's hook has nothing to do. Cached
    until a card changes hands."""
    got = state.memo_play.get(id(table))
    if got is None:
        cards = _seats_by_card(state)
        got = state.memo_play[id(table)] = {c: h for c, h in table.items() if c in cards}
    return got


def _night_order(state: State) -> tuple[str, ...]:
    """NIGHT_STEPS less the steps of cards no seat holds, living or dead (the
    pack's step stays); cached as `_in_play`. What the table *calls* at night
    is steps.night_calls, every step."""
    got = state.memo_play.get("order")
    if got is None:
        cards = _seats_by_card(state)
        got = state.memo_play["order"] = tuple(
            s for s in NIGHT_STEPS if s == "wolves" or s in cards)
    return got


def _powered(state: State, seat: int) -> bool:
    return not (state.powers_lost and ROLES[state.roles[seat]].village_power)


def lover_of(state: State, seat: int) -> int | None:
    if state.lovers and seat in state.lovers:
        a, b = state.lovers
        return b if seat == a else a
    return None


def _neighbour(state: State, seat: int, way: int) -> int | None:
    for k in range(1, state.size):
        j = (seat + way * k) % state.size
        if state.alive[j]:
            return j
    return None


def left_of(state: State, seat: int) -> int | None:
    """The next living player clockwise (RULES.md §1)."""
    return _neighbour(state, seat, 1)


def right_of(state: State, seat: int) -> int | None:
    """The previous living player clockwise (RULES.md §1)."""
    return _neighbour(state, seat, -1)


def _wolves(state: State) -> list[int]:
    """The living wolves (cached for the open step: nobody dies inside a step)."""
    got = state.memo_step.get("wolves")
    if got is None:
        alive = state.alive
        got = state.memo_step["wolves"] = [i for i in _sides(state)[0] if alive[i]]
    return got


def _attack_tonight(state: State) -> bool:
    return state.n > 1 or state.opts["first_night_attack"]


def mixed_lovers(state: State) -> bool:
    if not state.lovers:
        return False
    a, b = (state.roles[i] for i in state.lovers)
    return ROLES[a].wolf != ROLES[b].wolf or (ROLES[a].team == "piper") != (
        ROLES[b].team == "piper")


# --- legal actions -------------------------------------------------------------

def legal_actions(state: State, seat: int) -> list[Choice]:
    """What `seat` may do now (empty when it may do nothing).

    Answers are cached until the next event: the phone, the seat box and
    `act`'s own check often ask the same question about the same state."""
    return list(_choices(state, seat))


def _choices(state: State, seat: int) -> list[Choice]:
    """`legal_actions` without the copy: the cached list itself (never mutate it)."""
    got = state.memo_step.get(seat)  # a voter's ballot choices, built once per vote (_ballots)
    if got is not None:
        return got
    memo = state.memo if state.memo_at == len(state.log) else fresh_memo(state)
    got = memo.get(seat)
    if got is None:
        got = memo[seat] = _legal_actions(state, seat)
    return got


def fresh_memo(state: State) -> dict:
    """A fresh cache for the state as it is now (legal actions, waiting seats,
    the public view): every event makes the old one stale."""
    state.memo.clear()
    state.memo_at = len(state.log)
    return state.memo


def _legal_actions(state: State, seat: int) -> list[Choice]:
    step = state.step
    if state.phase == "over" or not 0 <= seat < len(state.names):
        return []
    if step in PROMPTS:
        return _prompt_choices(state, seat) if seat == state.actor else []
    if not state.alive[seat]:
        return []
    if step in VOTES:
        # a ballot changes nobody's choices: every voter's are built once per vote
        got = state.memo_step.get(seat)
        return got if got is not None else _ballots(state).get(seat, [])
    if step == "wolves":
        return _wolves_choices(state, seat)
    return _night_choices(state, seat, step)


def _night_choices(state: State, seat: int, step: str) -> list[Choice]:
    """A night step's choices for a living seat (none unless it holds the card):
    the card's own `night` power (powers.py)."""
    if state.roles[seat] != step or not _powered(state, seat):
        return []
    return powers.NIGHT[step](state, seat)


def _wolves_choices(state: State, seat: int) -> list[Choice]:
    role = state.roles[seat]
    if not ROLES[role].wolf:
        pack = powers.PACK.get(role)  # a card that acts in the pack's step (the little girl)
        return pack(state, seat) if pack is not None else []
    if state.opts["wolf_attack"] == "any-wolf" and _wolves_closed(state):
        return []  # the first wolf's choice stands [004]
    # unanimous: a wolf may change his pick while the step is open [000]
    got = state.memo_step.get("pack")  # the same for every wolf, all step long
    if got is None:
        wolves = _wolves(state)
        prey = tuple([i for i in state.up if i not in wolves])
        if state.village:
            prey = village.prey(state, prey)  # not the tavern keeper [000]
        got = state.memo_step["pack"] = [Choice.one_of("attack", prey), Choice("pass")] \
            if prey else []
    return got


def _wolves_closed(state: State) -> bool:
    """The wolves' own part of their step is settled (RULES.md §5 werewolf)."""
    wolves = _wolves(state)
    picks = state.picks
    everyone = len(picks) >= len(wolves) and all(map(picks.__contains__, wolves))  # has picked
    if state.opts["wolf_attack"] == "any-wolf":  # the first wolf's choice stands [004]
        # (no generator while nobody has picked: the step has just opened)
        return everyone or (bool(picks) and any(t is not None for t in picks.values()))
    return everyone and len({picks[w] for w in wolves}) == 1  # unanimous [000]


def _vote_targets(state: State, seat: int) -> tuple[int, ...]:
    """Whom `seat` may vote for in the open vote (empty: he has no vote)."""
    choices = _ballots(state).get(seat)
    return choices[0].targets if choices and choices[0].do == "vote" else ()


def _ballots(state: State) -> dict:
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
    self_ok = election or state.opts["self_vote"]
    lovers = state.lovers  # in every vote, the election too (RULES.md §5 Cupid [000][003])
    allowed = None if election else state.allowed
    revealed = state.revealed
    up = state.up
    if pool is up and len(up) > 1 and not (self_ok or revealed or lovers or allowed is not None):
        # the usual first round: every living player names anyone but himself
        for k, seat in enumerate(up):
            cached[seat] = [Choice.one_of("vote", up[:k] + up[k + 1:])]
        return _amended(state, cached, list(up))
    shared = [Choice.one_of("vote", pool)] if pool else []  # for all who may name anyone
    voters = []  # those left with a choice (_voters)
    for at, seat in enumerate(up):
        if seat in revealed or (allowed is not None and seat not in allowed):
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
    """`_ballots`' last word: with professions, The Village amends the choices
    (the schoolteacher, the tavern keeper, the day powers: RULES.md §8), and
    `_voters` finds the voters; without, they are `voters`."""
    if state.village:
        village.ballots(state, cached)
    else:
        cached["voters"] = voters
    return cached



def _unvoted(state: State) -> list[int]:
    """Voters who have not voted yet (votes are the engine's hot path)."""
    votes = state.votes
    voters = _voters(state)
    return [i for i in voters if i not in votes] if votes else voters


def _voters(state: State) -> list[int]:
    """Who may vote in the open vote: those with a non-empty `_vote_targets`,
    once per vote (found by `_ballots`, amended with professions)."""
    got = state.memo_step.get("voters")
    if got is not None:
        return got
    if not state.village:
        return _ballots(state)["voters"]
    pool = state.candidates if state.candidates is not None else state.up
    if len(pool) <= 2:  # his lover and himself may be all there is
        got = [i for i in state.up if _vote_targets(state, i)]
    elif not pool:
        got = []
    else:
        revealed = state.revealed
        allowed = state.allowed if state.step == "vote" else None
        got = [i for i in state.up if i not in revealed and (allowed is None or i in allowed)]
    got = state.memo_step["voters"] = village.voters(state, got)
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
    return list(_waiting(state))


def _waiting(state: State) -> list[int]:
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
    if step in VOTES:
        return _unvoted(state)
    if step == "wolves":
        wolves = _wolves(state)
        prey = len(wolves) < len(state.up) and (  # someone is left to attack
            not state.village or bool(_wolves_choices(state, wolves[0])))
        out = list(wolves) if prey and not _wolves_closed(state) else []
        for role in _in_play(state, powers.PACK):  # the little girl
            seat = holder(state, role)
            if seat is not None and _wolves_choices(state, seat):
                out.append(seat)
        return out
    # a night step: only the living holder of its card may act
    seat = holder(state, step)
    return [seat] if seat is not None and _choices(state, seat) else []


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
        ballot = state.memo_step.get(seat)  # the voter's choices, once _ballots has run
        if ballot and target in ballot[0].targets and not state.village:  # Choice.allows
            state.acts += 1
            return _cast(state, seat, target)
    check_shape(action)
    if state.phase == "over":
        raise IllegalAction("the game is over")
    if action.do == "timeout":
        state.acts += 1
        return _timeout(state)
    if not isinstance(seat, int) or not 0 <= seat < len(state.names):
        raise IllegalAction(f"no player at seat {seat!r}")
    choices = _choices(state, seat)
    do = action.do
    for choice in choices:
        if choice.do == do:
            break
    else:
        name = state.names[seat]
        if not choices:
            why = village.idle(state, seat) if state.village else ""
            raise IllegalAction(f"{name} cannot act now ({step_label(state)}){why}")
        may = ", ".join(c.do for c in choices)
        raise IllegalAction(f"{name} cannot {action.do!r} now ({step_label(state)}); may: {may}")
    if not choice.allows(action):
        raise IllegalAction(_why_not(state, choice, action))
    state.acts += 1
    _perform(state, action)


def _why_not(state: State, choice: Choice, a: Action) -> str:
    assert a.actor is not None  # act checked the seat
    name = state.names[a.actor]
    picked: list[int | None] = [a.target] if a.target is not None else list(a.targets)
    if a.do == "potion":
        if a.heal and not choice.heal:
            return f"{name} cannot heal now"
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


def _perform(state: State, a: Action) -> None:
    step, seat = state.step, a.actor
    assert seat is not None  # act: only a timeout has no actor
    if a.do == "vote":
        if state.village:
            return _village_ballot(state, a)
        return _cast(state, seat, a.target)
    event = {"e": "act", **a.to_dict()}
    if step in VOTES:  # a day power, in the window before the first ballot (RULES.md §8)
        return _day_power(state, a, event)
    role = state.roles[seat]
    before = None  # in the pack's step: who was waited for before this pick
    if step == "wolves" and state.memo_at == len(state.log):
        before = state.memo.get("waiting")
    hook = powers.ACTS.get(role)
    if hook is not None:
        hook(state, a, event)  # the seer's result, the little girl's chance
    _emit(state, event)
    after = powers.ACTED.get(role)
    if after is not None and step == role:
        after(state, a)  # the thief who keeps his card
    if step in PROMPTS:
        _after_prompt(state, a)
    elif step == "wolves":
        if (before is not None and ROLES[role].wolf and state.opts["wolf_attack"] == "unanimous"
                and not _wolves_closed(state)):
            memo = fresh_memo(state)  # no agreement yet: nobody's turn or choices changed
            memo["waiting"] = before
            pack = state.memo_step.get("pack")
            if pack is not None:
                for wolf in _wolves(state):
                    memo[wolf] = pack
        elif not _waiting(state):
            _close_wolves(state)
    else:
        _next_night_step(state)




def _cast(state: State, seat: int, target: int | None) -> None:
    """A legal ballot: its event, emitted and applied as `_emit` and the fold's
    `_act` would (a ballot keeps `memo_step`, draws nothing; keep them in step),
    and who is still to vote; the last ballot closes the vote."""
    log, memo = state.log, state.memo
    before = memo.get("waiting") if state.memo_at == len(log) else None
    if before is None:
        before = _waiting(state)
    state.votes[seat] = target
    log.append({"e": "act", "actor": seat, "do": "vote", "target": target, "a": state.acts})
    waiting = before
    if seat in before:  # what _unvoted would find now (a voter may change his vote)
        waiting = before.copy()
        waiting.remove(seat)
    memo.clear()
    memo["waiting"] = waiting
    state.memo_at = len(log)
    if not waiting:
        _close_vote(state)


def _village_ballot(state: State, a: Action) -> None:
    """A ballot with professions in play: the first one closes the day powers'
    window and the tavern keeper's goes before the others', so every ballot
    may change the choices (RULES.md §8); no shortcut here."""
    _emit(state, {"e": "act", "actor": a.actor, "do": "vote", "target": a.target})
    state.memo_step.clear()
    if not _waiting(state):
        _close_vote(state)


def _day_power(state: State, a: Action, event: dict) -> None:
    """A day power used in the window (professions.py): its result, its event,
    what follows it."""
    fill = village.ACTS.get(a.do)
    if fill is not None:
        fill(state, a, event)  # the confessor's card, the barber's wolf
    _emit(state, event)
    after = village.ACTED.get(a.do)
    if after is not None:
        after(state, a)  # the barber's deaths
    elif not _waiting(state):  # the silenced may have been the last voters
        _close_vote(state)


def _default_ballot(state: State, voter: int) -> None:
    """The ballot a timeout casts for `voter`: his right neighbour when the
    ruleset says so and he may name him, else none (RULES.md §1)."""
    target = None
    if state.opts["vote_timeout"] == "right-neighbour":
        right = right_of(state, voter)
        target = right if right in _vote_targets(state, voter) else None
    _emit(state, {"e": "act", "do": "vote", "actor": voter, "target": target, "default": True})


def _timeout(state: State) -> None:
    step = state.step
    _emit(state, {"e": "act", "do": "timeout", "actor": None})
    first = village.first_voter(state) if step in VOTES and state.village else None
    if first is not None:
        # the tavern keeper's default ballot; then the others vote (RULES.md §8)
        _default_ballot(state, first)
        state.memo_step.clear()
        if not _waiting(state):
            _close_vote(state)
        return
    if step in VOTES:
        for voter in waiting_for(state):
            _default_ballot(state, voter)
        _close_vote(state)
    elif step == "wolves":
        _close_wolves(state)
    elif step == "appoint":
        assert state.actor is not None  # every prompt step names its actor
        dying = state.actor
        heir = left_of(state, dying)
        if state.village:  # the nearest farmer to his left [000]
            heir = min(village.heirs(state, dying), key=lambda i: (i - dying) % state.size)
        _emit(state, {"e": "sheriff", "seat": heir, "how": "default"})
        _run_queue(state)
    elif step == "pardon":  # the lord lets it happen
        _execute(state, state.condemned, asked=True)
    elif step in PROMPTS:
        _run_queue(state)
    else:
        hook = powers.TIMEOUT.get(step)
        seat = holder(state, step)
        if hook is not None and seat is not None:
            hook(state, seat)  # the thief's default
        _next_night_step(state)


# --- the night -----------------------------------------------------------------

def _begin_night(state: State, n: int) -> None:
    _emit(state, {"e": "night", "n": n})
    for role, hook in _in_play(state, powers.NIGHTFALL).items():  # the medium's result
        seat = holder(state, role)
        if seat is not None:
            hook(state, seat)
    _next_night_step(state)


def _next_night_step(state: State) -> None:
    """Open the next night step that has something to do, else dawn. Steps
    come in NIGHT_STEPS order (roles.py), each on its nights; a step whose
    card is absent, dead or without a choice is passed over."""
    order = _night_order(state)
    step = state.step
    if step in order:
        start = order.index(step) + 1
    elif step in NIGHT_STEPS:  # its card just left play (the thief's swap): the steps after it
        at = NIGHT_STEPS.index(step)
        start = sum(1 for s in order if NIGHT_STEPS.index(s) < at)
    else:
        start = 0  # the night begins
    attack = _attack_tonight(state)
    n = state.n
    for step in order[start:]:
        if not called_tonight(step, n, attack):
            continue  # e.g. no attack tonight: the wolves only meet, protectors are not called
        if step == "wolves":
            _emit(state, {"e": "step", "step": step})
            if _waiting(state):
                return
            _close_wolves(state)
            return
        actor = holder(state, step)
        if actor is None:
            continue
        skips = powers.SKIPS.get(step)
        if skips is not None and skips(state, actor):
            continue  # the piper on a night he is killed
        choices = _night_choices(state, actor, step)
        if not choices:
            continue
        called = powers.CALLED.get(step)
        if called is not None:
            called(state, actor)  # what the thief and the witch are shown
        _emit(state, {"e": "step", "step": step})
        memo = fresh_memo(state)  # what _waiting and _choices would find now
        memo[actor], memo["waiting"] = choices, [actor]
        return
    _dawn(state)


def _close_wolves(state: State) -> None:
    target = None
    if state.opts["wolf_attack"] == "any-wolf":
        target = next((t for t in state.picks.values() if t is not None), None)
    else:
        wolves = _wolves(state)
        picks = [state.picks[w] for w in wolves if w in state.picks]
        if picks and len(picks) == len(wolves) and len(set(picks)) == 1:
            target = picks[0]
    if state.caught:  # the one caught spying in the pack's step is the victim [000]
        target = next(s for s in (holder(state, role) for role in powers.PACK) if s is not None)
    _emit(state, {"e": "attack", "target": target, "caught": state.caught})
    _next_night_step(state)


def _shown_victim(state: State) -> int | None:
    """The victim the witch is shown: none when the defender held [002]."""
    v = state.attack
    if v is None or (v == state.protected and state.roles[v] not in powers.UNPROTECTABLE):
        return None
    return v


def _attack_kills(state: State, seat: int) -> bool:
    """The wolves' attack tonight lands on `seat` and kills him: not protected,
    not healed, not spared by his card (the fox [004], the elder's spare life [003])."""
    if seat != _shown_victim(state) or state.healed:
        return False
    spared = powers.SPARED.get(state.roles[seat])
    return spared is None or not spared(state, seat)


def _dies_tonight(state: State, seat: int | None) -> bool:
    return seat is not None and (seat == state.poisoned or _attack_kills(state, seat))


def _dawn(state: State) -> None:
    time = state.now
    dead: list[tuple[int, str]] = []
    victim = _shown_victim(state)
    if victim is not None and _attack_kills(state, victim):
        dead.append((victim, "werewolves"))
    # devoured, poisoned, the inspected fox; the elder's wound; the fire
    for hook in _in_play(state, powers.DAWN).values():
        hook(state, dead)
    if state.village:
        village.dawn(state, dead)  # the baker's chance
    _emit(state, {"e": "resolve", "then": "day"})
    seen: set[int] = set()
    for seat, cause in dead:
        if seat not in seen:
            seen.add(seat)
            _kill(state, seat, cause, time)
    _run_queue(state)


def _kill(state: State, seat: int, cause: str, time: str) -> None:
    _emit(state, {"e": "died", "seat": seat, "cause": cause, "time": time})


# --- deaths and their triggers (RULES.md §6) -----------------------------------

def _run_queue(state: State) -> None:
    """Run pending prompts, then process the dead in order; once nothing is
    left, check the win and move on."""
    while True:
        if state.prompts:
            kind, seat = state.prompts[0]
            if any(i != seat for i in state.up) and not (
                    kind == "appoint" and state.village and not village.heirs(state, seat)):
                _emit(state, {"e": "step", "step": kind, "actor": seat})
                return
            _emit(state, {"e": "skip", "prompt": kind, "seat": seat})  # nobody left to name
            if kind == "appoint":
                _emit(state, {"e": "sheriff", "seat": None, "how": "died"})
            continue
        if not state.queue:
            break
        seat = state.queue[0]
        time = state.now
        lover = lover_of(state, seat) if state.lovers else None
        if lover is not None and state.alive[lover]:
            _kill(state, lover, "heartbreak", time)
        prompts = []  # each is skipped above if nobody is left to name
        dies = powers.DIES.get(state.roles[seat])
        if dies is not None:
            cause = next(c for s, c, _ in state.deaths if s == seat)
            prompts = [[kind, seat] for kind in dies(state, seat, cause)]
        if state.sheriff == seat:
            prompts.append(["appoint", seat])
        _emit(state, {"e": "triggers", "seat": seat, "prompts": prompts})
    outcome = _outcome(state)
    if outcome:
        _emit(state, {"e": "over", "winner": outcome[0], "winners": outcome[1]})
    elif state.then == "day":
        _begin_day(state)
    elif state.then == "vote":  # after a day power's deaths: the vote again (RULES.md §8)
        _open_vote(state, 1, None)
    else:
        _begin_night(state, state.n + 1)


def _after_prompt(state: State, a: Action) -> None:
    if a.do == "shoot":
        assert a.target is not None  # Choice.allows: a shot names a seat
        _kill(state, a.target, "hunter", state.time())
    elif a.do == "appoint":
        _emit(state, {"e": "sheriff", "seat": a.target, "how": "appointed"})
    elif a.do == "allow":
        _emit(state, {"e": "allowed", "seat": a.actor, "voters": list(a.targets)})
    elif state.step == "pardon":  # the lord pardons, or lets it happen
        return _execute(state, None if a.do == "pardon" else state.condemned, asked=True)
    _run_queue(state)


# --- the day -------------------------------------------------------------------

def _begin_day(state: State) -> None:
    _emit(state, {"e": "day", "n": state.n})
    if state.opts["sheriff"] and not state.elected:
        # with professions: on day 2, among the living farmers (RULES.md §8)
        day, candidates = village.election(state) if state.village else (1, None)
        if state.n == day:
            _elect(state, candidates)
            return
    _open_vote(state, 1, None)


def _elect(state: State, candidates: list[int] | None) -> None:
    if candidates != []:
        _emit(state, {"e": "step", "step": "election", "round": 1, "candidates": candidates})
        if _waiting(state):
            return
    _emit(state, {"e": "sheriff", "seat": None, "how": "none"})
    _open_vote(state, 1, None)


def _open_vote(state: State, round_: int, candidates: list[int] | None) -> None:
    _emit(state, {"e": "step", "step": "vote", "round": round_, "candidates": candidates})
    if not _waiting(state):
        _close_vote(state)


def _tally(state: State) -> tuple[dict[str, int | None], dict[int, int], list[int], int, bool]:
    """The ballots keyed for the log, the votes each seat got, the most
    voted (sorted when tied), their votes, and whether the poster counted."""
    ballots: dict[str, int | None] = {}
    counts: dict[int, int] = {}
    vote = state.step == "vote"
    double = state.sheriff if vote else None  # his ballot counts twice
    for voter, target in state.votes.items():
        ballots[_KEYS[voter]] = target
        if target is not None:
            counts[target] = counts.get(target, 0) + (2 if voter == double else 1)
    posted = vote and state.poster is not None and _posted(state, counts)
    if posted:  # the rumormonger's two votes, in the day's first execution vote (RULES.md §8)
        assert state.poster is not None
        counts[state.poster] = counts.get(state.poster, 0) + 2
    if not counts:
        return ballots, counts, [], 0, posted
    top = max(counts.values())
    tied = [t for t, c in counts.items() if c == top]
    if len(tied) > 1:
        tied.sort()
    return ballots, counts, tied, top, posted


def _posted(state: State, counts: dict[int, int]) -> bool:
    """The poster counts: the day's first execution vote, someone voted, its
    target lives and is not the tavern keeper holding her power (RULES.md §8
    Decision)."""
    poster = state.poster
    return (poster is not None and bool(counts) and state.round == 1 and state.alive[poster]
            and not (state.village and village.keeper(state) == poster))


def _close_vote(state: State) -> None:
    ballots, counts, tied, top, posted = _tally(state)
    event = {"e": "tally", "step": state.step, "round": state.round, "votes": ballots,
             "counts": {_KEYS[k]: v for k, v in counts.items()}, "top": top}
    if posted:
        event["poster"] = state.poster  # two of its votes are the rumormonger's
    if len(tied) > 1:
        event["tie"] = tied
    _emit(state, event)
    if state.village:
        village.closed(state, counts, tied)  # the tavern keeper's loss
    if state.step == "election":
        return _close_election(state, tied)
    if len(tied) == 1:
        return _execute(state, tied[0])
    if not tied:
        return _execute(state, None)
    # the scapegoat overrides every policy [002][003]
    for tie in _in_play(state, powers.TIE).values():
        if tie(state):
            return None
    policy = state.opts["tie"]
    rounds = len(state.ties)
    if policy == "scapegoat-sheriff-none":
        pick = state.votes.get(state.sheriff) if state.sheriff is not None else None
        return _execute(state, pick if pick in tied else None)
    if policy == "none" or (policy == "runoff-once" and rounds >= 2):
        return _execute(state, None)
    if policy == "runoff-once" or rounds < 3:
        return _open_vote(state, state.round + 1, tied)
    if policy == "runoff-draw" and len(set(state.ties[-3:])) == 1 and _half_power_play(state):
        return _emit(state, {"e": "over", "winner": "draw", "winners": [], "why": "three ties"})
    return _execute(state, _draw(state, tied))


def _draw(state: State, among: list[int]) -> int:
    pick = _rng(state).choice(among)
    _emit(state, {"e": "drawn", "among": among, "seat": pick, "draw": True})
    return pick


def _half_power_play(state: State) -> bool:
    up = living(state)
    wolfish = sum(1 for i in up if ROLES[state.roles[i]].wolf
                  or ROLES[state.roles[i]].team == "werewolves")  # the madman too
    return len(up) % 2 == 0 and 2 * wolfish == len(up)


def _close_election(state: State, tied: list[int]) -> None:
    """Plurality; a tie is re-voted once among the tied, then one of them is
    drawn (RULES.md §6 Decision). No vote at all in the first round: no sheriff."""
    if len(tied) == 1:
        _emit(state, {"e": "sheriff", "seat": tied[0], "how": "elected"})
    elif state.round == 1 and not tied:
        _emit(state, {"e": "sheriff", "seat": None, "how": "none"})
    elif state.round == 1:
        _emit(state, {"e": "step", "step": "election", "round": 2, "candidates": tied})
        if _waiting(state):
            return
        return _close_election(state, [])  # nobody can vote in the re-vote: draw
    else:
        assert state.candidates is not None  # round 2 is among the tied
        seat = _draw(state, tied or list(state.candidates))
        _emit(state, {"e": "sheriff", "seat": seat, "how": "drawn"})
    _open_vote(state, 1, None)


def _execute(state: State, seat: int | None, cause: str = "execution",
             asked: bool = False) -> None:
    if seat is not None and cause == "execution" and state.village and not asked:
        lord = village.lord(state, seat)
        if lord is not None:  # he may pardon it first (RULES.md §8 Decision)
            _emit(state, {"e": "step", "step": "pardon", "actor": lord, "condemned": seat})
            return
    _emit(state, {"e": "resolve", "then": "night"})
    if seat is not None:
        saved = powers.EXECUTED.get(state.roles[seat]) if cause == "execution" else None
        if saved is None or not saved(state, seat):  # the village idiot lives on
            _kill(state, seat, cause, state.now)
    _run_queue(state)


# --- winning (RULES.md §7) -----------------------------------------------------

def _outcome(state: State) -> tuple[str, list[int]] | None:
    up = living(state)
    roles = state.roles
    if not up:
        return "draw", []
    mixed = state.lovers if state.lovers and mixed_lovers(state) else None  # the mixed pair
    if mixed and sorted(up) == sorted(mixed):
        return "lovers", sorted(mixed)
    # a solo card's own win: the piper, the white werewolf
    for role, wins in _in_play(state, powers.WINS).items():
        seat = holder(state, role)
        if seat is not None and wins(state, seat, mixed):
            team = ROLES[role].team
            return team, _side(state, team)
    alive = state.alive
    wolf_seats, thief_seats, lone_seats = _sides(state)
    # the living among them (a loop, no comprehension: this runs after every death)
    wolves = 0
    for i in wolf_seats:
        if alive[i]:
            wolves += 1
    thieves = [i for i in thief_seats if alive[i]] if thief_seats else ()
    humans = len(up) - wolves - len(thieves)
    # a living card that takes the win of whichever side wins (the fox [004])
    thief = roles[thieves[0]] if thieves else None
    if not wolves:
        team = ROLES[thief].team if thief else "village"
        return team, _side(state, team)
    if lone_seats and any(map(alive.__getitem__, lone_seats)):
        return None  # the white werewolf: beside other wolves (RULES.md §7 Decision), the
        # pack cannot win; alone, his win is his own (above)
    if mixed:
        a, b = mixed
        if all(state.alive[i] for i in (a, b)) and (ROLES[roles[a]].wolf or ROLES[roles[b]].wolf):
            return None
    won = not humans if state.opts["wolves_win"] == "all-dead" else wolves >= humans
    if not won:
        return None
    team = ROLES[thief].team if thief else "werewolves"
    return team, _side(state, team)


def _sides(state: State) -> tuple[list[int], list[int], list[int]]:
    """The seats holding a wolf card, a card that steals the win (`steals`),
    a wolf card with whom the pack cannot win (`lone`), living or dead
    (cached as `_in_play`, until a card changes hands)."""
    got = state.memo_play.get("sides")
    if got is None:
        roles = state.roles
        got = state.memo_play["sides"] = (
            [i for i, r in enumerate(roles) if ROLES[r].wolf],
            [i for i, r in enumerate(roles) if r in powers.STEALS],
            [i for i, r in enumerate(roles) if r in powers.LONE])
    return got


def _side(state: State, team: str) -> list[int]:
    lovers = set(state.lovers) if state.lovers and mixed_lovers(state) else set()
    return [i for i, r in enumerate(state.roles) if ROLES[r].team == team and i not in lovers]


# --- labels --------------------------------------------------------------------

def step_label(state: State) -> str:
    """Where the game waits, for people: "night 2 seer", "day 1 runoff 2"."""
    if state.phase == "over":
        return "over"
    step = state.step
    if step == "vote" and state.round > 1:
        step = f"runoff {state.round - 1}"
    elif step == "election" and state.round > 1:
        step = "election runoff"
    return f"{state.time()} {step}"


def undo(state: State) -> State:
    """The state before the last action: a rebuild from the log without it."""
    if state.acts == 0:
        raise IllegalAction("nothing to undo")
    last = state.acts
    return rebuild([e for e in state.log if e["a"] < last])


from . import powers  # noqa: E402  (its hooks call back into this module)
from . import professions as village  # noqa: E402
