"""Deaths and their triggers (RULES.md §6): the queue of the dead, the
prompts a death opens (the hunter's shot, the sheriff's heir, the
scapegoat's voters), and what follows a prompt.

`run_queue` runs until a prompt waits for someone or the queue is empty; then
it checks the win (wins.py) and says where the game goes (flow.py).
"""

from __future__ import annotations

from . import powers
from . import professions as village
from .actions import Action
from .kernel import Next, emit, kill, today
from .state import State
from .votes import execute
from .wins import outcome


def run_queue(state: State) -> Next:
    """Run pending prompts, then process the dead in order; once nothing is
    left, check the win and move on."""
    while True:
        if state.prompts:
            kind, seat = state.prompts[0]
            if any(i != seat for i in state.up) and not (
                    kind == "appoint" and state.village and not village.heirs(state, seat)):
                emit(state, {"e": "step", "step": kind, "actor": seat})
                return None
            emit(state, {"e": "skip", "prompt": kind, "seat": seat})  # nobody left to name
            if kind == "appoint":
                emit(state, {"e": "sheriff", "seat": None, "how": "died"})
            continue
        if not state.queue:
            break
        seat = state.queue[0]  # his lover died with him (kernel.kill, RULES.md §6 Decision)
        prompts = []  # each is skipped above if nobody is left to name
        dies = powers.DIES.get(state.roles[seat])
        if dies is not None:
            cause = next(c for s, c, _ in state.deaths if s == seat)
            prompts = [[kind, seat] for kind in dies(state, seat, cause)]
        # a revealed idiot sheriff names no successor: the badge leaves the game
        # with him (RULES.md §6 [002] 「保安官が脱落：怠け者以外は後継者を指定する」)
        badge = state.sheriff == seat and seat in state.revealed
        if state.sheriff == seat and not badge:
            prompts.append(["appoint", seat])
        emit(state, {"e": "triggers", "seat": seat, "prompts": prompts})
        if badge:
            emit(state, {"e": "sheriff", "seat": None, "how": "idiot"})
    won = outcome(state)
    if won:
        emit(state, {"e": "over", "winner": won[0], "winners": won[1]})
        return None
    if state.then in ("day", "vote"):  # "vote": after a day power's deaths (RULES.md §8)
        return state.then
    card = today(state)
    if card is not None and state.verdicts < card.executions:
        return "vote"  # two-executions: the day's second vote, after the first's triggers
    return "night"


def after_prompt(state: State, a: Action) -> Next:
    if a.do == "shoot":
        assert a.target is not None  # Choice.allows: a shot names a seat
        kill(state, a.target, "hunter", state.time())
    elif a.do == "appoint":
        emit(state, {"e": "sheriff", "seat": a.target, "how": "appointed"})
    elif a.do == "allow":
        emit(state, {"e": "allowed", "seat": a.actor, "voters": list(a.targets)})
    elif state.step == "pardon":  # the lord pardons, or lets it happen
        return execute(state, None if a.do == "pardon" else state.condemned, asked=True)
    return "queue"
