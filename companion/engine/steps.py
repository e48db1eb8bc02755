"""The current step, described for machines: `pending(state)` tells the hub
what the game waits for, which timer runs and what a timeout would do;
`night_calls(state)` is the order in which the night's steps are called aloud.

Both read the state only; like the rest of the engine they do no I/O and
read no clock (the hub owns the timers).
"""

from __future__ import annotations

from ..options import DISCUSSION_TURNS, ELECTION, READY_ENDS_NIGHT, SECRET_DECK, VOTE_TIMEOUT
from . import new_moon, powers
from .choices import waiting_for
from .kernel import PROMPTS, PUBLIC_CAUSES, VOTES, attack_tonight, left_of, today
from .roles import NIGHT_STEPS, ROLES, called_tonight
from .rulesets import RULESETS, together
from .state import TOGETHER, State


def night_calls(state: State) -> list[str]:
    """The public calling order of the current night (RULES.md §4, "Secrecy
    of the call", revised): the step of every card of the deck (dealt or in
    the centre, its holder alive or dead) that acts tonight, and no other;
    with `secret_deck`, of every card of the ruleset. jp-standard's night is
    one window, its TOGETHER step.

    It depends only on public facts: the deck (`state.deck`, which a swap
    does not change), the night number `state.n` and the options. In
    NIGHT_STEPS order (roles.py), each step on the nights its row says
    (Role.nights: thief and cupid on night 1 only; the white werewolf on even
    nights; defender and knight on nights with an attack); "wolves" is called
    every night (without an attack they only meet).
    """
    if together(state.ruleset):
        return [TOGETHER]
    n = state.n
    cards = RULESETS[state.ruleset]["roles"] if SECRET_DECK.of(state.opts) else state.deck
    called = {ROLES[r].step for r in cards}
    attack = attack_tonight(state)  # not after a quiet-night card (RULES.md §10)
    # an event card's calls come first (the first dead's, the ally's: RULES.md §10)
    return new_moon.calls(state) + [step for step in NIGHT_STEPS if step == "wolves" or (
        step in called and called_tonight(step, n, attack))]


def deck(state: State) -> dict | None:
    """The game's cards as the table is told them before night 1 (RULES.md
    §4: the deck is public): each card with its count, in the order of the
    night, and how many lie in the centre; None with `secret_deck`."""
    if SECRET_DECK.of(state.opts):
        return None
    counts: dict[str, int] = {}
    for card in state.deck:
        counts[card] = counts.get(card, 0) + 1
    order = {r: i for i, r in enumerate(ROLES)}
    cards = [{"role": r, "count": counts[r]} for r in sorted(counts, key=order.__getitem__)]
    return {"cards": cards, "centre": len(state.deck) - state.size}


def pending(state: State) -> dict:
    """The current step, JSON-ready, for the hub:

    - "id": index in `state.log` of the event that opened this step (the last
      "step" event; "over" once the game has ended). Each new night step,
      vote round or prompt has a new id; a rebuild from the log keeps it.
    - "seq": `state.acts` (the `expect` of an action chosen now).
    - "step": the engine's step name ("seer", "wolves", "vote", "hunter", "over", ...).
    - "kind": "night" (a role's night step), "wolves", "vote" (execution vote,
      round 1), "runoff" (execution vote, round ≥ 2), "election" (any round),
      "prompt" (hunter, appoint, allow) or "over".
    - "phase", "n": as in the state; "round": the vote's round (None outside
      votes); "candidates": the vote's candidates (None: every living player,
      and outside votes); "actor": the prompt's seat (None otherwise).
    - "waiting": `waiting_for(state)`.
    - "timer": the option whose seconds apply: "night_s" (night), "pack_s" (wolves),
      "discussion_s" (vote and election round 1), "extra_discussion_s"
      (runoff, election round ≥ 2), None (prompt, over).
    - "on_timeout": what `timeout` does: "nothing" (night steps, hunter,
      allow), "villager" / "swap-0" (thief: keeps his card as a villager, or
      takes centre card 0 when both are wolves), "close" (wolves: the attack
      stands only if already agreed), the `vote_timeout` option ("abstain" |
      "right-neighbour") for every vote, the election included (RULES.md §1),
      "left-neighbour" (appoint), "execute" (the lord's pardon, The Village:
      the execution happens), None (over).
    - "calls": `night_calls(state)` while the phase is night, else [].
    - "secret": True for the night's own steps (kinds night and wolves), whose
      names must not be shown publicly (RULES.md §4).

    [issue 34] (docs: /work/notes/issue34-engine-api.md):
    - "nominees": `vote_mode=candidates`' candidates once the first round has
      named them (in seat order), on the candidates' round and the runoffs
      after it: they do not vote (`waiting` never lists them); else None.
    - "defence": on the candidates' round (round 2 with "nominees"), the
      candidates in seat order, who defend themselves before its ballots
      (RULES.md §6 Decision); else None.
    - "turns": the seats that speak in turn, each for `turn_s` seconds, before
      this step's ballots: the defence, or the day's discussion with
      `discussion_turns` (`discussion_order`); None: no turns. With turns
      "timer" is "turn_s" (one turn's seconds).
    - "ready": True in jp-standard's night-1 window with `ready_ends_night`
      (RULES.md §4): the phones show the ready button; see `ready_window`
      and `night_ready`.
    With `election=after-discussion` the day's election round 1 holds the
    day's discussion ("discussion_s") and the execution vote after it has
    none (timer None: its ballots open at once).
    """
    step = state.step
    kind = _kind(state)
    round_ = state.round if step in VOTES else None
    opts = state.opts
    nominees = state.nominees if step == "vote" and state.phase == "day" else None
    defence = sorted(nominees) if nominees is not None and state.round == 2 else None
    turns: list[int] | None = None
    if kind == "wolves":
        timer: str | None = "pack_s"
    elif kind == "night":
        timer = "night_s"
    elif kind in ("vote", "election") and state.round == 1:
        card = today(state)  # no-discussion: the vote opens at dawn (RULES.md §10)
        timer = "discussion_s" if card is None or card.discussion else None
        after = ELECTION.of(opts) == "after-discussion"
        if timer and after and kind == "vote" and not state.verdicts and _elected_today(state):
            timer = None  # the day's discussion came before the election (§6 [003])
        if timer and DISCUSSION_TURNS.of(opts) and (kind == "vote" or after):
            turns, timer = discussion_order(state), "turn_s"
    elif defence is not None:
        turns, timer = defence, "turn_s"  # each candidate's defence (§6 Decision)
    elif kind in ("runoff", "election"):
        timer = "extra_discussion_s"
    else:
        timer = None
    return {
        "id": _opened_at(state.log), "seq": state.acts, "step": step, "kind": kind,
        "phase": state.phase, "n": state.n, "round": round_,
        "candidates": list(state.candidates) if step in VOTES and state.candidates is not None
        else None,
        "actor": state.actor if step in PROMPTS else None,
        "waiting": waiting_for(state), "timer": timer, "on_timeout": _on_timeout(state, kind),
        "calls": night_calls(state) if state.phase == "night" else [],
        "secret": kind in ("night", "wolves"),
        "nominees": list(nominees) if nominees is not None else None,
        "defence": defence, "turns": turns,
        "ready": state.phase == "night" and ready_window(state),
    }


def _elected_today(state: State) -> bool:
    """An election step was opened today (read back to the day's dawn)."""
    log = state.log
    for i in range(len(log) - 1, -1, -1):
        e = log[i]
        if e["e"] == "day":
            return False
        if e["e"] == "step" and e["step"] == "election":
            return True
    return False


def discussion_order(state: State) -> list[int]:
    """The day's speakers with `discussion_turns` (RULES.md §6, [003] variant
    「從剛才天黑時被殺的玩家左手邊的玩家開始，按照順時針方向，輪流發言」): every
    living player, clockwise (RULES.md §1: a seat's left is the next seat,
    i+1) from the first living seat left of the night's first victim.
    **Decision:** with no victim, from the living sheriff's left, else from
    seat 1 (index 0) or the first living seat after it.

    Public facts only: "the night's first victim" is the first death the
    dawn announced for the night before this day (night N before day N;
    the dawn names its deaths of hidden cause in seat order, RULES.md §6,
    whatever order they were resolved in), else its first death of public
    cause (a hunter's shot at night). Outside a day: the last night's."""
    night = f"night {state.n}"
    hidden = [s for s, cause, time in state.deaths if time == night
              and cause not in PUBLIC_CAUSES]
    shown = [s for s, cause, time in state.deaths if time == night and cause in PUBLIC_CAUSES]
    victim = min(hidden) if hidden else shown[0] if shown else None
    if victim is None and state.sheriff is not None and state.alive[state.sheriff]:
        victim = state.sheriff  # from his left (Decision)
    if victim is None:
        first = 0 if state.alive[0] else left_of(state, 0)
    else:
        first = left_of(state, victim)
    if first is None:
        return []  # nobody alive
    up = state.up
    k = up.index(first)
    return list(up[k:] + up[:k])


def ready_window(state: State) -> bool:
    """`ready_ends_night` applies (RULES.md §4 [004] l.86–87
    「目覚めの準備が整った人は挙手をしてください」「参戦者全員の準備が完了次第、
    Bに移ります」): jp-standard's one night window on night 1, the option on.
    True from night 1 until day 1 ends: the engine leaves the window as soon
    as it waits for nobody (the seer acted), while the table still holds it
    for its `night_s` (RULES.md §4); the ready taps end that hold."""
    return (state.n == 1 and state.phase in ("night", "day")
            and READY_ENDS_NIGHT.of(state.opts) and together(state.ruleset))


def night_ready(state: State, ready: set[int] | frozenset[int] | list[int]) -> bool:
    """With `ready_window`: every player alive at nightfall has tapped
    "ready" (`ready`, the seats the hub counted). RULES.md §4 Decision (r5):
    Ready is a player's last word for the window — a role holder who taps it
    without acting passes — so the window's end waits on the taps alone,
    never on an action (else its moment tells when the seer acted) [issue 40].
    The same "ready" button on every phone, so the early end leaks nothing."""
    if not ready_window(state):
        return False
    seats = set(ready)
    return all(i in seats for i in state.up)


def _kind(state: State) -> str:
    step = state.step
    if state.phase == "over":
        return "over"
    if step in PROMPTS:
        return "prompt"
    if step == "election":
        return "election"
    if step == "vote":
        return "vote" if state.round == 1 else "runoff"
    return "wolves" if step == "wolves" else "night"


def _on_timeout(state: State, kind: str) -> str | None:
    step = state.step
    if kind == "over":
        return None
    if kind in ("vote", "runoff", "election"):
        return VOTE_TIMEOUT.of(state.opts)  # acting._timeout: every vote alike
    if kind == "wolves" or step == TOGETHER:
        return "close"
    if step == "appoint":
        return "left-neighbour"
    if step == "pardon":
        return "execute"  # the lord lets it happen (RULES.md §8 Decision)
    default = powers.DEFAULT.get(step)  # the thief's
    return default(state) if default is not None else "nothing"


def _opened_at(log: list[dict]) -> int:
    """Index of the last "step" or "over" event in the log."""
    for i in range(len(log) - 1, -1, -1):
        if log[i]["e"] in ("step", "over"):
            return i
    return -1  # not reached: new_game always opens a step
