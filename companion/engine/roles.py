"""Roles as data: one row per card (RULES.md §5).

A role's behaviour lives in the rules module; this table only says what the
card *is*: its team, how the seer reads it, whether it wakes with the pack,
which night step calls it and what its holder knows about others.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Role:
    id: str
    team: str  # village | werewolves | white-werewolf | piper | fox
    wolf: bool = False  # holds a wolf card: wakes with the pack, is attacked by nobody
    reads: str = "human"  # the seer's answer under seer_sees=team
    step: str | None = None  # night step that calls this card
    village_power: bool = False  # lost when the elder is killed by the village [003]
    copies: int | None = 1  # cards of this role in one game (None: any number)
    names: tuple[str, str, str] = ("", "", "")  # en, ja, zh


ROLES: dict[str, Role] = {
    r.id: r
    for r in (
        Role("villager", "village", copies=None, names=("Villager", "村人", "村民")),
        Role("werewolf", "werewolves", wolf=True, copies=None, reads="wolf", step="wolves",
             names=("Werewolf", "人狼", "狼人")),
        Role("seer", "village", step="seer", village_power=True,
             names=("Seer", "占い師", "预言家")),
        Role("witch", "village", step="witch", village_power=True,
             names=("Witch", "魔女", "女巫")),
        Role("hunter", "village", village_power=True, names=("Hunter", "ハンター", "猎人")),
        Role("cupid", "village", step="cupid", village_power=True,
             names=("Cupid", "キューピッド", "丘比特")),
        Role("little-girl", "village", step="wolves", village_power=True,
             names=("Little girl", "少女", "小女孩")),
        Role("thief", "village", step="thief", village_power=True,
             names=("Thief", "盗賊", "盗贼")),
        Role("defender", "village", step="defender", village_power=True,
             names=("Defender", "守護者", "守卫")),
        Role("village-idiot", "village", village_power=True,
             names=("Village idiot", "村のバカ", "白痴")),
        Role("elder", "village", village_power=True, names=("Elder", "長老", "长老")),
        Role("scapegoat", "village", village_power=True,
             names=("Scapegoat", "スケープゴート", "替罪羊")),
        Role("piper", "piper", step="piper", names=("Piper", "笛吹き", "吹笛者")),
        Role("white-werewolf", "white-werewolf", wolf=True, reads="wolf", step="wolves",
             names=("White werewolf", "白い人狼", "白狼")),
        Role("pyromaniac", "village", step="pyromaniac", village_power=True,
             names=("Pyromaniac", "放火魔", "纵火犯")),
        Role("rumormonger", "village", step="rumormonger", village_power=True,
             names=("Rumormonger", "噂好き", "造谣者")),
        Role("madman", "werewolves", names=("Madman", "狂人", "狂人")),
        Role("medium", "village", names=("Medium", "霊能者", "灵媒")),
        Role("knight", "village", step="knight", names=("Knight", "騎士", "骑士")),
        Role("freemason", "village", copies=2, names=("Freemason", "共有者", "共有者")),
        Role("fox", "fox", names=("Fox", "妖狐", "妖狐")),
    )
}

#: Roles the engine plays today; The Village night roles (§8) come later.
NOT_YET = frozenset({"pyromaniac", "rumormonger"})

#: Night steps in calling order (RULES.md §4). First-night-only steps are marked.
NIGHT_STEPS: tuple[str, ...] = (
    "thief", "cupid", "defender", "seer", "knight", "wolves", "white-werewolf", "witch", "piper",
)
FIRST_NIGHT_ONLY = frozenset({"thief", "cupid"})


def is_wolf(role: str) -> bool:
    return ROLES[role].wolf
