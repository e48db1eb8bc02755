"""Past games: their records, step-by-step views and per-player statistics,
and the setups the game master saved for next time.

Everything here is rebuilt from the store's event logs with the engine, so
the hub's routes only parse a request and ask; no route reads the store. The
game being played is the table's (`companion.table`), not this module's.
"""

from __future__ import annotations

import csv
import datetime
import io

from .engine import (
    RULESETS,
    announcements,
    migrate_overrides,
    rebuild,
    side_of,
    view_for,
)
from .engine.story import readable
from .replay import result_of
from .store import GameRecord, Store
from .table.errors import BadInput, Denied, NotFound
from .table.setup import cards_of, parse_setup
from .words import LANGUAGES
from .words.announce import news_text
from .words.story import season_words, told

SQLITE_MAX = 2**63  # past SQLite's integers: no such game (not an OverflowError)
SETUP_NAME_MAX = 60
#: a cell a spreadsheet would read as a formula (OWASP's CSV injection) [issue 41 item 6]
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def cell(value: object) -> object:
    """A CSV cell a spreadsheet shows as text: one that begins like a formula
    (`=`, `+`, `-`, `@`, a tab, a carriage return) gets a leading `'`.
    Numbers stay numbers."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


class History:
    """The store's past games and saved setups, as the game master reads them."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def games(self, hide: int | None = None) -> list[dict]:
        """Every game kept, newest first (id, created, ruleset, players, winner);
        `hide`: a game whose winner is not told (a narrated game being played:
        its log may end before its end is public) [issue 40]."""
        return [{**g, "winner": None} if g["id"] == hide else g for g in self.store.games()]

    def _record(self, game: int) -> GameRecord:
        rec = self.store.load(game) if 0 <= game < SQLITE_MAX else None
        if rec is None:
            raise NotFound(f"no game {game}")
        return rec

    def game(self, game: int) -> dict:
        """A game's replay output with its id, creation time, setup and pace;
        `setup.cards` is the box it was dealt from (contract C2)."""
        rec = self._record(game)
        out: dict = {}
        setup = dict(rec.setup)
        if rec.events:
            state = rebuild(rec.events)
            out, setup["cards"] = result_of(state), cards_of(state)
        out.update(id=rec.id, created=rec.created, setup=setup, pace=rec.pace)
        return out

    def view_at(self, game: int, at: str | None, lang: str | None = None) -> dict:
        """The GM view of game `game` after its first K actions (`at`, 0 to
        the number it holds; None: all of them), rebuilt from its log, for
        stepping through a game in the history [issue 6]. Adds `at`, `total`
        (the actions the game holds), `action` (the K-th action's event,
        seats as numbers; null at 0), `announcements`, `log` (the events so
        far, private ones included), `game` and `created`; and `news`, each
        announcement's line for the GM's tablet in `lang` (default the game's
        language: words.announce.news_text) [issue 45]."""
        rec = self._record(game)
        if not rec.events:
            raise NotFound(f"no game {game}")
        total = max(int(e.get("a", 0)) for e in rec.events)
        if at is None:
            k = total
        elif at.isdigit() and len(at) <= 9 and int(at) <= total:
            k = int(at)
        else:
            raise BadInput(f"'at' is an action number 0–{total}")
        state = rebuild([e for e in rec.events if e["a"] < k + 1])
        view = view_for(state, None)
        action = next((e for e in state.log if e["e"] == "act" and e["a"] == k), None)
        said = announcements(state)
        lang = lang if lang in LANGUAGES else str(rec.setup.get("language", "en"))
        view.update(at=k, total=total, action=action, announcements=said,
                    news=[news_text(a, list(state.names), lang) for a in said],
                    log=state.log, game=rec.id, created=rec.created)
        return view

    def story(self, game: int, reader: str | None, lang: str | None = None) -> dict:
        """The story of a past game `game` [issue 35] (engine.story, told in
        `lang`, default the game's language) for `reader` (engine.story.readable:
        None, the game master, always — but a narrated game has none: its
        host reads as anyone [issue 40]; "public" once the game is over:
        403 before, the story holds every card)."""
        rec = self._record(game)
        if not rec.events:
            raise NotFound(f"no game {game}")
        state = rebuild(rec.events)
        if rec.setup.get("narrated"):
            reader = "public"
        if not readable(state, reader):
            raise Denied("the story is told once the game is over")
        lang = lang or str(rec.setup.get("language", "en"))
        if lang not in LANGUAGES:
            raise BadInput(f"'lang' is one of {', '.join(LANGUAGES)}")
        return told(state, lang, rec.id)

    def stats(self, since: float | None = None, until: float | None = None,
              hide: int | None = None) -> dict[str, dict]:
        """Per player name across the finished games [issue 6]:
        `{name: {"played", "won", "roles": {role: [played, won]}, "sides": {side:
        [played, won]}}}`. The role is the card held at the end (a thief may have
        swapped); the side is that card's team, or "lovers" for a mixed pair of
        lovers. Each game is rebuilt from its stored log. `since`/`until`
        (times, as a game's `created`) keep the games of a period; `hide`: a
        game left out (a narrated game being played) [issue 40]."""
        return self._tally(since, until, hide)[0]

    def _tally(self, since: float | None, until: float | None,
               hide: int | None = None) -> tuple[dict[str, dict], dict]:
        """`stats` and the table's own record over the same games, in one
        pass: `{"games": n, "sides": {side: wins}}` [issue 35]."""
        out: dict[str, dict] = {}
        record: dict = {"games": 0, "sides": {}}
        for summary in reversed(self.store.games()):  # oldest first: names in play order
            if summary["winner"] is None or summary["id"] == hide:
                continue
            if (since is not None and summary["created"] < since) or (
                    until is not None and summary["created"] >= until):
                continue
            rec = self.store.load(summary["id"])
            if rec is None or not rec.events:
                continue
            state = rebuild(rec.events)
            if state.winner is None:
                continue
            record["games"] += 1
            record["sides"][state.winner] = record["sides"].get(state.winner, 0) + 1
            for seat, name in enumerate(state.names):
                role = state.roles[seat]
                side = side_of(state, seat)  # a mixed lover's, the wolves' ally's [issue 44]
                won = int(seat in state.winners)
                entry = out.setdefault(name, {"played": 0, "won": 0, "roles": {}, "sides": {}})
                entry["played"] += 1
                entry["won"] += won
                for key, value in (("roles", role), ("sides", side)):
                    tally = entry[key].setdefault(value, [0, 0])
                    tally[0] += 1
                    tally[1] += won
        return out, record

    def season(self, since: str | None = None, until: str | None = None,
               lang: str | None = None, hide: int | None = None) -> dict:
        """A season [issue 35]: the finished games from day `since` to day
        `until` (YYYY-MM-DD, the hub's local dates, both included; None:
        open), each player's results (`stats`) and the table's record:
        `{"from", "to", "games", "sides": {side: wins}, "players"}`; `hide`:
        a game left out (a narrated game being played) [issue 40]."""
        start, end = _day(since, "from"), _day(until, "to")
        players, record = self._tally(start, None if end is None else end + 86_400, hide)
        out = {"from": since, "to": until, **record, "players": players}
        if lang is not None:  # the GM's tablet's words for it
            if lang not in LANGUAGES:
                raise BadInput(f"'lang' is one of {', '.join(LANGUAGES)}")
            out["words"] = season_words(lang)
        return out

    def season_csv(self, since: str | None = None, until: str | None = None,
                   hide: int | None = None) -> str:
        """The season as CSV [issue 35], one row per player and group:
        `player,group,name,games,wins` (group: all, side, role); the table's
        own rows under the player "(table)". Every cell is neutralised
        (`cell`): a player called `=cmd|' /C calc'!A0` is text in a
        spreadsheet, not a formula [issue 41 item 6]."""
        season = self.season(since, until, hide=hide)
        decided = sum(w for side, w in season["sides"].items() if side != "draw")
        rows: list[list] = [["player", "group", "name", "games", "wins"],  # the table's
                            ["(table)", "all", "", season["games"], decided]]  # wins: no draw
        for side, wins in sorted(season["sides"].items()):
            rows.append(["(table)", "side", side, season["games"], wins])
        for name, s in sorted(season["players"].items()):
            rows.append([name, "all", "", s["played"], s["won"]])
            for group, key in (("side", "sides"), ("role", "roles")):
                for what, (played, won) in sorted(s[key].items()):
                    rows.append([name, group, what, played, won])
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerows([[cell(v) for v in row] for row in rows])
        return buf.getvalue()

    # --- saved setups [issue 6] --------------------------------------------------------

    def setups(self) -> list[dict]:
        """Saved setups, most recent first: [{"name", "setup", "saved"}]; one
        saved before `night_s` became an exact window reads as it was meant
        (engine.migrate_overrides) [issue 16]."""
        return [_migrated(row) for row in self.store.setups()]

    def save_setup(self, doc: object) -> list[dict]:
        """Save `{"name", "setup"}`: a name (1–60 characters) and a body that
        POST /api/games would accept (`table.setup`'s one parse); the same
        name replaces it. Answers the saved setups."""
        if not isinstance(doc, dict) or set(doc) != {"name", "setup"}:
            raise BadInput('send {"name": "...", "setup": {the POST /api/games body}}')
        name, setup = doc["name"], doc["setup"]
        if not isinstance(name, str) or not name.strip() or len(name) > SETUP_NAME_MAX:
            raise BadInput(f"a setup's name is 1–{SETUP_NAME_MAX} characters")
        if not isinstance(setup, dict):
            raise BadInput("'setup' is the POST /api/games body (an object)")
        parse_setup(setup)
        opts = setup.get("options")
        if isinstance(opts, dict) and "night_s" in opts and "pack_s" not in opts:
            # saved with both, so it is never taken for a setup of the old meaning
            pack = RULESETS[setup["ruleset"]]["options"]["pack_s"]
            setup = {**setup, "options": {**opts, "pack_s": pack}}
        self.store.save_setup(name.strip(), setup)
        return self.store.setups()

    def delete_setup(self, name: str) -> list[dict]:
        """Forget a saved setup (404 if there is none of that name)."""
        if not self.store.delete_setup(name):
            raise NotFound(f"no setup named {name!r}")
        return self.store.setups()


def _day(text: str | None, what: str) -> float | None:
    """A YYYY-MM-DD date as the time its day begins (local time), for the
    season's period; BadInput otherwise."""
    if text is None or text == "":
        return None
    try:
        day = datetime.date.fromisoformat(text)
    except (TypeError, ValueError):
        raise BadInput(f"'{what}' is a date, YYYY-MM-DD") from None
    return datetime.datetime(day.year, day.month, day.day).timestamp()


def _migrated(row: dict) -> dict:
    setup = row.get("setup")
    if not isinstance(setup, dict) or not isinstance(setup.get("options"), dict):
        return row
    opts = migrate_overrides(str(setup.get("ruleset")), setup["options"])
    return row if opts is setup["options"] else {**row, "setup": {**setup, "options": opts}}
