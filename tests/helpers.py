"""Shared test helpers: scripted games in the replay format (names, not
seats); the table's fixed setups (seat letters) and its fake clock."""

from __future__ import annotations

from companion.engine import State, legal_actions, view_for
from companion.replay import parse_action, run_replay, setup_game

NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lea",
         "Max", "Ned", "Oli", "Pam", "Quy", "Ray"]


def S(name: str) -> int:
    """The seat of a player by name."""
    return NAMES.index(name)


def seats(*names: str) -> tuple[int, ...]:
    return tuple(S(n) for n in names)


def choices(state, name: str) -> dict:
    """legal_actions for a player, keyed by action id."""
    return {c.do: c for c in legal_actions(state, S(name))}


def script(ruleset: str, roles: list[str], actions: list[dict] | None = None,
           options: dict | None = None, center: list[str] | None = None, seed: int = 1,
           professions: list[str] | None = None) -> dict:
    """A scripted game whose players are NAMES[:len(roles)], dealt `roles` in
    seat order (and The Village's `professions`, in seat order, if given)."""
    players = NAMES[: len(roles)]
    doc = {"ruleset": ruleset, "players": players, "deal": dict(zip(players, roles)),
           "seed": seed, "actions": actions or []}
    if professions:
        doc["professions"] = dict(zip(players, professions))
    if options:
        doc["options"] = options
    if center:
        doc["center"] = center
    return doc


def play(ruleset: str, roles: list[str], actions: list[dict] | None = None,
         options: dict | None = None, center: list[str] | None = None,
         seed: int = 1, professions: list[str] | None = None) -> dict:
    """Replay a script; return the replay output (with "status" added)."""
    out, status = run_replay(script(ruleset, roles, actions, options, center, seed,
                                    professions))
    out["status"] = status
    return out


def game(ruleset: str, roles: list[str], actions: list[dict] | None = None,
         options: dict | None = None, center: list[str] | None = None, seed: int = 1,
         professions: list[str] | None = None) -> State:
    """The engine State after a script (every action must be legal)."""
    from companion.engine import act

    doc = script(ruleset, roles, actions, options, center, seed, professions)
    state = setup_game(doc)
    for raw in doc["actions"]:
        act(state, parse_action(state, raw))
    return state


def a(actor: str | None, do: str, target: str | None = None, **fields) -> dict:
    """One scripted action: a("Ann", "attack", "Fay"),
    a("Dan", "potion", heal=True, poison=None)."""
    out: dict = {"do": do}
    if actor is not None:
        out["actor"] = actor
    if target is not None:
        out["target"] = target
    out.update(fields)
    return out


def bitten_fox_and_guarded() -> tuple[State, State]:
    """RULES.md §9 [004 l.57 「死体無し」]: two jp-standard games at day 2's
    dawn, the same but for the wolves' night-2 target: the fox Fay (who lives,
    §5 fox) and Gus, whom the knight guards."""
    jp = ["werewolf", "werewolf", "seer", "madman", "knight", "fox", "villager", "villager"]
    night2 = [a(None, "timeout"), a(None, "timeout"), a("Cid", "inspect", "Gus"),
              a("Eve", "guard", "Gus")]
    fox = game("jp-standard", jp, night2 + [a("Ann", "attack", "Fay")])
    guard = game("jp-standard", jp, night2 + [a("Ann", "attack", "Gus")])
    return fox, guard


def votes(*pairs: str) -> list[dict]:
    """votes("Ann>Bob", "Cid>Bob") — one vote per "voter>target"."""
    return [a(p.split(">")[0], "vote", p.split(">")[1]) for p in pairs]


def attack(target: str, *wolves: str) -> list[dict]:
    """Each of `wolves` attacks `target`."""
    return [a(w, "attack", target) for w in wolves]


def results(state, name: str) -> list[dict]:
    """A player's private results, without their date (the rule is about the content)."""
    return [{k: v for k, v in r.items() if k != "time"}
            for r in view_for(state, S(name))["results"]]


def ok(out: dict) -> dict:
    """A replay output that played through (status 0)."""
    assert out["status"] == 0, out.get("error")
    return out


def refused(out: dict) -> int | None:
    """The index of the action a refused replay script stopped at (status 2)."""
    assert out["status"] == 2, "the script should have been refused"
    return out["error"]["index"]


def deaths(out: dict) -> list[tuple[str, str, str]]:
    return [(d["player"], d["cause"], d["time"]) for d in out["deaths"]]


class FakeClock:
    """Time as an input: `clock.t += 30` then `table.tick()`."""

    def __init__(self, t: float = 1_000_000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


def jp9(seed: int = 3) -> dict:
    """A 9-player jp-standard setup with a fixed deal (seat order A..I)."""
    players = list("ABCDEFGHI")
    roles = ["seer", "werewolf", "werewolf", "madman", "medium", "knight", "villager",
             "villager", "villager"]
    return {"ruleset": "jp-standard", "players": players, "deal": dict(zip(players, roles)),
            "seed": seed}


def mh8(seed: int = 3, **options: object) -> dict:
    """An 8-player Millers Hollow setup with a fixed deal (seat order A..H)."""
    players = list("ABCDEFGH")
    roles = ["werewolf", "werewolf", "seer", "witch", "hunter", "villager", "villager",
             "villager"]
    doc: dict = {"ruleset": "millers-hollow", "players": players,
                 "deal": dict(zip(players, roles)), "seed": seed}
    if options:
        doc["options"] = options
    return doc


#: docs/replay.md "A complete example".
DOC_EXAMPLE = {
    "ruleset": "millers-hollow",
    "options": {"sheriff": False},
    "players": ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"],
    "deal": {"Ann": "werewolf", "Bob": "werewolf", "Cid": "seer",
             "Dan": "witch", "Eve": "hunter", "Fay": "villager"},
    "seed": 7,
    "actions": [
        {"actor": "Cid", "do": "inspect", "target": "Ann"},
        {"actor": "Ann", "do": "attack", "target": "Fay"},
        {"actor": "Bob", "do": "attack", "target": "Fay"},
        {"actor": "Dan", "do": "potion", "heal": False, "poison": None},
        {"actor": "Ann", "do": "vote", "target": "Eve"},
        {"actor": "Bob", "do": "vote", "target": "Eve"},
        {"actor": "Cid", "do": "vote", "target": "Ann"},
        {"actor": "Dan", "do": "vote", "target": "Eve"},
        {"actor": "Eve", "do": "vote", "target": "Ann"},
        {"actor": "Eve", "do": "shoot", "target": "Ann"},
        {"actor": "Cid", "do": "inspect", "target": "Bob"},
        {"actor": "Bob", "do": "attack", "target": "Dan"},
        {"actor": "Dan", "do": "potion", "heal": True, "poison": "Bob"},
    ],
}


def run_in_a_thread(coro):  # type: ignore[no-untyped-def]
    """`asyncio.run(coro)` on a thread of its own: a worker that ran a
    Playwright test first has a loop running in its main thread (its sync
    API), where asyncio.run refuses to start [issue 45]."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()
