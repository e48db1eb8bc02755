"""Roles as data: one row per card (RULES.md §5).

A row says what the card *is*: its team, how the seer reads it under
seer_sees=team, the night step that calls it, where that step comes in the
night and on which nights, and which other players its holder is shown. The
night's calling order (`NIGHT_STEPS`) is derived from the rows. What a card
*does* beyond the common rules is its hooks in `powers.py`, one section per
role (docs/rules.md, "Where each rule lives").
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Role:
    id: str
    team: str  # village | werewolves | white-werewolf | piper | fox
    wolf: bool = False  # holds a wolf card: wakes with the pack, is attacked by nobody
    reads: str = "human"  # the seer's answer under seer_sees=team (and the medium's)
    step: str | None = None  # night step that calls this card
    night: int | None = None  # its own step's place in the night (lower is called first)
    nights: str = "every"  # when its own step is called: every | first | even | attack
    knows: tuple[str, ...] = ()  # what the holder is shown: pack, freemasons, charmed, potions
    village_power: bool = False  # lost when the elder is killed by the village [003]
    copies: int | None = 1  # cards of this role in one game (None: any number)


ROLES: dict[str, Role] = {
    r.id: r
    for r in (
        Role("villager", "village", copies=None),
        Role("werewolf", "werewolves", wolf=True, copies=None, reads="wolf", step="wolves",
             night=80, nights="attack", knows=("pack",)),
        Role("seer", "village", step="seer", night=40, village_power=True),
        Role("witch", "village", step="witch", night=100, knows=("potions",), village_power=True),
        Role("hunter", "village", village_power=True),
        Role("cupid", "village", step="cupid", night=20, nights="first", village_power=True),
        Role("little-girl", "village", step="wolves", village_power=True),
        Role("thief", "village", step="thief", night=10, nights="first", village_power=True),
        Role("defender", "village", step="defender", night=30, nights="attack",
             village_power=True),
        Role("village-idiot", "village", village_power=True),
        Role("elder", "village", village_power=True),
        Role("scapegoat", "village", village_power=True),
        Role("piper", "piper", step="piper", night=110, knows=("charmed",)),
        # wakes with the pack (a wolf card), and on even nights alone in his own step
        Role("white-werewolf", "white-werewolf", wolf=True, reads="wolf", step="white-werewolf",
             night=90, nights="even", knows=("pack",)),
        Role("pyromaniac", "village", step="pyromaniac", night=50, village_power=True),
        Role("rumormonger", "village", step="rumormonger", night=60, village_power=True),
        Role("madman", "werewolves"),
        Role("medium", "village"),
        Role("knight", "village", step="knight", night=70, nights="attack"),
        Role("freemason", "village", copies=2, knows=("freemasons",)),
        Role("fox", "fox"),
    )
}

_CALLED = sorted((r.night, r.step) for r in ROLES.values()
                 if r.night is not None and r.step)
#: Night steps in calling order (RULES.md §4), from the rows' `night`.
NIGHT_STEPS: tuple[str, ...] = tuple(step for _, step in _CALLED)
#: On which nights each step is called (the rows' `nights`).
STEP_NIGHTS: dict[str, str] = {r.step: r.nights for r in ROLES.values()
                               if r.night is not None and r.step}
FIRST_NIGHT_ONLY = frozenset(s for s, when in STEP_NIGHTS.items() if when == "first")


def called_tonight(step: str, n: int, attack: bool) -> bool:
    """Whether `step` is played on night `n` (`attack`: the wolves attack tonight)."""
    when = STEP_NIGHTS[step]
    return (when == "every" or (when == "first" and n == 1) or (when == "even" and n % 2 == 0)
            or (when == "attack" and attack))


def is_wolf(role: str) -> bool:
    return ROLES[role].wolf
