"""What each audience may know: `view_for(state, seat)` for a player,
`view_for(state, None)` for the game master, `public_view(state)` for the
table (display, table page, LEDs).

These are the only ways state leaves the engine towards people. A player
learns another seat's card only where a rule grants it: his pack [000][003],
his freemason partner [004], his own seer results, a death with
`reveal_on_death`, a revealed village idiot, or the end of the game; with
The Village (RULES.md §8), the card his confessor's visit showed him and the
wolf his bakery found.
"""

from __future__ import annotations

from ..options import ANNOUNCE_POTIONS, REVEAL_ON_DEATH
from . import event_cards
from . import professions as village
from .announced import _tally_fields
from .choices import ballot_voters, cached_choices, legal_actions, waiting_for
from .errors import IllegalAction
from .kernel import (
    KEYS,
    PROMPTS,
    PUBLIC_CAUSES,
    VOTES,
    fresh_memo,
    lover_of,
    step_label,
    today,
)
from .roles import ROLES
from .state import TOGETHER, State
from .steps import deck
from .wins import side_of


def public_view(state: State) -> dict:
    """What the whole table may know. At night it says only "night N".
    The answer is the caller's to change [issue 8]."""
    view = shared_public_view(state)
    view["players"] = [dict(p) for p in view["players"]]
    view["deaths"] = [dict(d) for d in view["deaths"]]
    view["options"] = dict(view["options"])
    for key in ("vote", "last_tally", "village", "potions_used"):
        if key in view:
            view[key] = dict(view[key])
    return view


def shared_public_view(state: State) -> dict:
    """`public_view`, read-only below its top level and its list of players:
    a player's entry, the deaths, the vote... are the same objects in every
    view of this state, so the hub, which builds ~22 views per action, tells
    what changed by identity before equality and encodes a shared part once.
    A caller replaces a part, never changes it."""
    memo = state.memo if state.memo_at == len(state.log) else fresh_memo(state)
    base = memo.get("public")
    if base is None:
        base = memo["public"] = _public_view(state)
    view = dict(base)
    view["players"] = list(base["players"])
    return view


def _public_view(state: State) -> dict:
    """The table's view, never handed out (public_view copies it): its parts
    that did not change since the last event are reused (`State.memo_views`)."""
    over = state.phase == "over"
    cached = state.memo_views
    players = _public_players(state, cached, over)
    deaths = cached.get("deaths")
    if deaths is None:
        deaths = cached["deaths"] = _public_deaths(state)
    view = {
        "seq": state.acts,  # the `expect` for an action chosen on this view
        "ruleset": state.ruleset, "phase": state.phase, "n": state.n,
        "step": _public_step(state), "players": players, "sheriff": state.sheriff,
        "deaths": deaths,
        "options": state.opts,
        "deck": _deck(state),
    }
    if state.phase == "day" and state.step in VOTES:
        view["vote"] = _public_vote(state)
    if state.card is not None:
        view["event"] = event_view(state)
    if ANNOUNCE_POTIONS.of(state.opts) and state.phase in ("day", "over") and (
            state.healed or state.poisoned is not None):
        # the dawn told it [000] (RULES.md §5 witch): that she used them, never on whom
        view["potions_used"] = {"heal": state.healed, "poison": state.poisoned is not None}
    if state.village or state.burned or state.poster is not None:
        view["village"] = _public_village(state)
    last = _last_tally(state)
    if last is not None:  # built once per tally (a view is built after every event)
        tally = cached.get("tally")
        if tally is None or tally[0] != last:
            tally = cached["tally"] = (last, _tally_fields(state.log, last))
        view["last_tally"] = tally[1]
    if over:
        view["winner"], view["winners"] = state.winner, list(state.winners)
    return view


def _public_players(state: State, cached: dict, over: bool) -> list[dict]:
    """Every seat's public facts, reused until one of them changes."""
    # the players' public facts change only with these
    key = (len(state.deaths), state.sheriff, len(state.revealed), state.allowed, over,
           state.silenced)
    players = cached.get(key)
    if players is None:
        reveal, roles, revealed = REVEAL_ON_DEATH.of(state.opts), state.roles, state.revealed
        sheriff, allowed = state.sheriff, state.allowed
        silenced = state.silenced or ()  # The Village: the schoolteacher's, today
        players = [{
            "seat": i, "name": name, "alive": alive, "sheriff": sheriff == i,
            "role": roles[i] if over or i in revealed or (reveal and not alive) else None,
            "can_vote": alive and i not in revealed and (allowed is None or i in allowed)
            and i not in silenced,
        } for i, (name, alive) in enumerate(zip(state.names, state.alive))]
        cached.clear()  # one generation only
        cached[key] = players
    return players


def _public_vote(state: State) -> dict:
    """The open ballot as the table sees it: who voted, not for whom (unless
    an open-ballots card or the tavern keeper's first ballot says so)."""
    vote: dict = {"kind": state.step, "round": state.round,
                  "candidates": list(state.candidates) if state.candidates else None,
                  "voted": sorted(state.votes), "waiting": waiting_for(state),
                  # every voter of this ballot, those waiting for the tavern
                  # keeper's included: the table's "N of M" [issue 44]
                  "of": len(ballot_voters(state))}
    if state.nominees is not None and state.step == "vote":
        # vote_mode=candidates (RULES.md §6): the day's candidates, who do not
        # vote now; "defence": on their round, the order they defend in
        vote["nominees"] = list(state.nominees)
        vote["defence"] = sorted(state.nominees) if state.round == 2 else None
    if state.village:  # the tavern keeper's ballot is shown before the others vote
        first = village.keeper(state) if state.step == "vote" else None
        if first is not None and first in state.votes:
            vote["first"] = {"seat": first, "target": state.votes[first]}
    card = today(state) if state.step == "vote" else None
    if card is not None and card.open_ballots:  # open-ballots (RULES.md §10)
        vote["open"] = {KEYS[v]: t for v, t in sorted(state.votes.items())}
    return vote


def event_view(state: State) -> dict:
    """The last event card turned (RULES.md §10), as the whole table sees it:
    its id, the day it was turned, its source ("[003]", "house", "text"), a
    text-only event's title and text by language, and the deck's count."""
    card_id = state.card
    assert card_id is not None
    row = event_cards.card(card_id)
    assert row is not None
    out: dict = {"card": card_id, "n": state.card_day, "source": row.source,
                 "today": state.phase == "day" and state.card_day == state.n,
                 "left": len(state.cards) - state.turned}
    text = event_cards.texts(state.opts).get(card_id)
    if text is not None:
        out["title"], out["text"] = dict(text["title"]), dict(text["text"])
    return out


def _deck(state: State) -> dict | None:
    """The deck, told to the table (RULES.md §4); None with `secret_deck`."""
    got = state.memo_play.get("deck", False)
    if got is False:
        got = state.memo_play["deck"] = deck(state)
    return got  # type: ignore[no-any-return]


def _public_village(state: State) -> dict:
    """The Village's public facts (RULES.md §8): the burned buildings (a fire is
    seen by all) and, by day, the accusation posted on a building last night
    and the schoolteacher's silenced voters (she names them aloud). Who owns
    which standing building, and the powers' states, are not in it."""
    day = state.phase in ("day", "over")
    return {
        # professions are in play: every living phone has the day powers'
        # screen, whoever holds one (the same for all) [issue 40]
        "professions": bool(state.village),
        "burned": [{"seat": s, "building": b} for s, b in state.burned],
        "poster": state.poster if day else None,
        "silenced": sorted(state.silenced) if day and state.silenced else [],
    }


def _last_tally(state: State) -> int | None:
    """The index of the log's last "tally" event, found by reading only the
    events logged since the last call (`State.memo_tally` holds how far it read)."""
    log = state.log
    seen, last = state.memo_tally
    if seen > len(log) or (last is not None and log[last]["e"] != "tally"):
        seen, last = 0, None  # another log than the one read: read it again
    for i in range(seen, len(log)):
        if log[i]["e"] == "tally":
            last = i
    state.memo_tally = (len(log), last)
    return last


def view_for(state: State, seat: int | None, shared: bool = False) -> dict:
    """What one seat may know, or (seat None) everything, for the game master.
    The answer is the caller's to change; with `shared`, it is read-only
    below its top level, as `shared_public_view`'s (the hub's audiences).

    A seat that is not an int in range(state.size) raises IllegalAction."""
    if seat is None:
        return _gm_view(state, shared)
    if type(seat) is not int or not 0 <= seat < state.size:
        raise IllegalAction(f"no player at seat {seat!r}")
    view = shared_public_view(state) if shared else public_view(state)
    own = _own_cached(state, seat) if shared else _own(state, seat)
    view.update(own.parts)
    if state.phase == "night" and own.parts["actions"]:
        view["step"] = step_label(state)  # his own turn, on his own phone
    players = view["players"]  # by seat; its entries are shared: replaced, not changed
    for j, card in own.known:
        if players[j]["role"] is None:
            players[j] = own.entry(players[j], card, shared)
    role = own.parts["role"]
    if players[seat]["role"] != role:
        players[seat] = own.entry(players[seat], role, shared)
    if ROLES[role].wolf and state.phase == "night" and state.step in ("wolves", TOGETHER):
        # the pack wakes together and must agree: each wolf sees the others' picks
        view["pack_picks"] = {str(w): t for w, t in state.picks.items()}
    return view


def seat_actions(state: State, seat: int) -> list[dict]:
    """A seat's choices as its view gives them (`view_for(state, seat,
    shared=True)["actions"]`, read-only), without building the rest of the
    view: the hub shows a seat its choices now beside what it knew when the
    night's call opened [issue 28]."""
    if type(seat) is not int or not 0 <= seat < state.size:
        raise IllegalAction(f"no player at seat {seat!r}")
    return _own_cached(state, seat).parts["actions"]  # type: ignore[no-any-return]


class _Own:
    """One seat's own parts of its view: its top-level keys (`parts`) and
    the other seats' cards it was shown (`known`: (seat, card)), with the
    public entries they replace, each replaced once (`entry`)."""

    __slots__ = ("parts", "known", "choices", "notes", "entries")

    def __init__(self, parts: dict, known: list[tuple[int, str]], choices: list, notes: int):
        self.parts, self.known, self.choices, self.notes = parts, known, choices, notes
        self.entries: dict[int, tuple[dict, dict]] = {}  # seat -> (public entry, with the card)

    def entry(self, entry: dict, card: str, shared: bool) -> dict:
        """`entry` (a public player's) with `card` as its role; with `shared`,
        the same object for the same public entry."""
        if not shared:
            return {**entry, "role": card}
        got = self.entries.get(entry["seat"])
        if got is None or got[0] is not entry:
            got = self.entries[entry["seat"]] = (entry, {**entry, "role": card})
        return got[1]


def _own_cached(state: State, seat: int) -> _Own:
    """`_own`, kept in `State.memo_step` while the open step only gathers
    ballots or picks: those change none of a seat's own parts but his
    choices (then compared) and a spy's results (his notes, counted)."""
    key = ("own", seat)
    got = state.memo_step.get(key)
    if got is None or len(state.notes[seat]) != got.notes or (
            (choices := cached_choices(state, seat)) is not got.choices
            and choices != got.choices):
        got = state.memo_step[key] = _own(state, seat)
    return got  # type: ignore[no-any-return]


def _own(state: State, seat: int) -> _Own:
    role = state.roles[seat]
    choices = cached_choices(state, seat)
    parts = {
        "seat": seat, "name": state.names[seat], "role": role, "dealt": state.dealt[seat],
        "team": _team(state, seat), "alive": state.alive[seat],
        "actions": [c.to_dict() for c in choices],
        "results": [_result(n) for n in state.notes[seat]],
    }
    groups = _groups(state, seat)
    known = [(j, card) for j, card in _known(state, seat, groups).items() if j != seat]
    parts["knows"] = {k: v for k, v in groups.items() if v}
    if "potions" in ROLES[role].knows:
        parts["potions"] = dict(state.potions)
    if state.village:  # his own profession, building and power (RULES.md §8)
        prof = state.prof[seat]
        parts["profession"] = {
            "id": prof, "dealt": state.dealt_prof[seat],
            "building": prof if village.PROFESSIONS[prof].building else None,
            "power": village.power_state(state, seat)}
    return _Own(parts, known, choices, len(state.notes[seat]))


def _gm_view(state: State, shared: bool) -> dict:
    view = shared_public_view(state) if shared else public_view(state)
    view["players"] = [{**p, "role": state.roles[p["seat"]],
                        "actions": [c.to_dict() for c in legal_actions(state, p["seat"])]}
                       for p in view["players"]]
    view.update({
        "step": step_label(state), "waiting": waiting_for(state), "center": list(state.center),
        "lovers": list(state.lovers) if state.lovers else None,
        "charmed": sorted(state.charmed), "potions": dict(state.potions),
        "powers_lost": state.powers_lost, "deaths": [
            {"seat": s, "cause": c, "time": t} for s, c, t in state.deaths],
        "night": {"picks": {str(k): v for k, v in state.picks.items()},
                  "protected": state.protected, "attack": state.attack,
                  "healed": state.healed, "poisoned": state.poisoned},
        "votes": {str(k): v for k, v in state.votes.items()}, "actions_applied": state.acts,
    })
    if state.village or state.burned or state.poster is not None:
        view["village"] = {  # every building and power (RULES.md §8)
            **view.get("village", {}), "professions": list(state.prof),
            "dealt": list(state.dealt_prof), "vacant": sorted(state.vacant),
            "powers": [village.power_state(state, i) for i in range(state.size)],
            "spent": dict(state.spent), "burning": state.burning, "poster": state.poster,
            "silenced": sorted(state.silenced or ()), "condemned": state.condemned,
        }
    return view


def _public_step(state: State) -> str:
    if state.phase == "night" and state.step not in PROMPTS:
        return f"night {state.n}"  # the night's steps are secret (RULES.md §4)
    if state.step == "pardon":
        return f"{state.time()} execution"  # a lord who lets it happen stays unknown
    if state.step == "hunter" and not REVEAL_ON_DEATH.of(state.opts):
        return f"{state.time()} last words"  # a hunter who passes stays unknown
    return step_label(state)


def _public_deaths(state: State) -> list[dict]:
    """The deaths as announced. At dawn the night's deaths of undisclosed cause
    are announced together, in seat order: the order they were resolved in
    (wolves, white werewolf, poison, heartbreak) would tell their causes."""
    out: list[dict] = []
    batch: list[dict] = []  # hidden-cause night deaths not yet announced
    for seat, cause, time in state.deaths:
        shown = cause in PUBLIC_CAUSES
        entry = {"seat": seat, "name": state.names[seat], "time": time,
                 "cause": cause if shown else None}
        if batch and (shown or batch[0]["time"] != time):
            out.extend(sorted(batch, key=lambda d: d["seat"]))
            batch = []
        if time.startswith("night") and not shown:
            batch.append(entry)
        else:
            out.append(entry)
    return out + sorted(batch, key=lambda d: d["seat"])


_team = side_of  # (wins.py: the one rule of a seat's side)


def _known(state: State, seat: int, groups: dict[str, list[int]]) -> dict[int, str]:
    """Cards this seat has been shown by a rule: his pack, his fellow
    freemason, his own seer results."""
    known = {j: "werewolf" for j in groups["pack"]}  # the white werewolf passes for one [000]
    known.update((j, state.roles[j]) for j in groups["freemasons"])  # each other's card
    for note in state.notes[seat]:
        if note["e"] == "act" and note["do"] in ("inspect", "confess") \
                and note["result"] in ROLES:
            known[note["target"]] = note["result"]
        elif note["e"] == "baker" and note["wolf"] is not None:
            known.setdefault(note["wolf"], "werewolf")  # a white werewolf passes for one
    return known


def _groups(state: State, seat: int) -> dict[str, list[int]]:
    """Whom this seat is shown: what his card knows (Role.knows), his lover,
    and the charmed players once he is one of them."""
    role = state.roles[seat]
    knows = ROLES[role].knows
    pack = [j for j, r in enumerate(state.roles) if ROLES[r].wolf] if "pack" in knows else []
    masons = ([j for j, r in enumerate(state.roles) if r == role]
              if "freemasons" in knows else [])
    lover = lover_of(state, seat)
    charmed = sorted(state.charmed) if (seat in state.charmed or "charmed" in knows) else []
    return {"pack": pack, "freemasons": masons, "lover": [lover] if lover is not None else [],
            "charmed": charmed}


def _result(note: dict) -> dict:
    """A private result in a stable shape for phones, dated ("night 2")."""
    return {**_result_body(note), "time": note["time"]}


def _result_body(note: dict) -> dict:
    kind = note["e"]
    if kind == "act" and note["do"] == "inspect":
        return {"kind": "inspect", "target": note["target"], "result": note["result"]}
    if kind == "act" and note["do"] == "spy":
        return {"kind": "spy", "mode": note["mode"], "outcome": note["outcome"],
                "wolf": note.get("wolf")}
    if kind == "act" and note["do"] == "confess":
        return {"kind": "confess", "target": note["target"], "result": note["result"]}
    if kind == "baker":
        return {"kind": "baker", "wolf": note["wolf"]}
    if kind == "lover":
        return {"kind": "lover", "partner": note["partner"]}
    if kind == "medium":
        return {"kind": "medium", "target": note["target"], "result": note["result"]}
    if kind == "shown":
        return {"kind": "victim", "victim": note["victim"]}
    if kind == "centre":
        return {"kind": "centre", "cards": note["cards"]}
    if kind == "ally":  # wolves-ally (RULES.md §10): who the wolves are
        return {"kind": "ally", "wolves": list(note["wolves"])}
    return {"kind": kind}
