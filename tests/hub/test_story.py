"""The story's routes and its secrecy [issue 35]: GET /api/games/<id>/story
(the GM's always, anyone's once the game is over) and /p/<token>/story (a
seat's once the game is over, or while it is dead with `ghosts`), and
`werewolf story` on a finished game of each ruleset."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.replay import run_replay
from companion.store import Store

from .conftest import GM, mh8

NIGHT_1 = [{"actor": "C", "do": "inspect", "target": "A"},
           {"actor": "A", "do": "attack", "target": "F"},
           {"actor": "B", "do": "attack", "target": "F"},
           {"actor": "D", "do": "potion", "heal": False, "poison": None}]


def _game(app, client, **options: object) -> tuple[int, dict]:  # type: ignore[no-untyped-def]
    out = client.post("/api/games", json=mh8(sheriff=False, **options), headers=GM).json
    phones = {}
    for s in out["seats"]:
        device = app.test_client()
        device.get(s["url"])
        phones[s["name"]] = (device, s["url"])
    for action in NIGHT_1:
        r = client.post("/api/actions", json=action, headers=GM)
        assert r.status_code == 200, r.json
    return out["id"], phones


def _story(phone: tuple) -> object:
    device, url = phone
    return device.get(f"{url}/story")


@pytest.mark.parametrize("ghosts", [False, True])
def test_before_the_end_only_the_gm_and_a_ghost_read_the_story(app, client, ghosts):
    """RULES.md §1, §4: before the end the table (the public route) and every
    living seat are refused the story (403); the dead F reads it only with
    `ghosts`; the GM always."""
    game, phones = _game(app, client, ghosts=ghosts)
    assert client.get(f"/api/games/{game}/story").status_code == 403
    gm = client.get(f"/api/games/{game}/story", headers=GM)
    assert gm.status_code == 200 and not gm.json["over"]
    for name in "ABCDEGH":  # alive
        assert _story(phones[name]).status_code == 403
    dead = _story(phones["F"])
    assert dead.status_code == (200 if ghosts else 403)
    if ghosts:
        lines = [ln["text"] for ch in dead.json["told"]["chapters"] for ln in ch["lines"]]
        assert "The seer, C, looked at A: Werewolf." in lines
        assert "The werewolves (A and B) agreed on F." in lines
    # nothing of it in any view the table or a living seat is sent
    for r in [client.get("/api/public"), *(phones[n][0].get(f"{phones[n][1]}/state")
                                           for n in "ABCDEGH")]:
        assert "looked at" not in r.get_data(as_text=True)
        assert "story" not in r.json


def _finish(client, table, clock) -> None:  # type: ignore[no-untyped-def]
    """The village wins on night 2 (the witch poisons B): the GM's actions,
    then the night's calls run out — the end is the table's once the dawn
    tells it, not at the deciding action [issue 40]."""
    for action in ([{"actor": n, "do": "vote", "target": "A"} for n in "BCDEGH"]
                   + [{"actor": "A", "do": "vote", "target": "C"}]
                   + [{"actor": "C", "do": "inspect", "target": "B"},
                      {"actor": "B", "do": "attack", "target": "G"},
                      {"actor": "D", "do": "potion", "heal": False, "poison": "B"}]):
        r = client.post("/api/actions", json=action, headers=GM)
        assert r.status_code == 200, (action, r.json)
    assert client.get("/api/games/1/story").status_code == 403  # the log's end: not yet told
    _to_the_end(table, clock)


def _to_the_end(table, clock) -> None:  # type: ignore[no-untyped-def]
    """The clock runs until the table tells the end (the night's calls last
    their windows after the deciding action)."""
    for _ in range(200):
        if table.ended:
            return
        clock.advance(5)
        table.tick()
    raise AssertionError("the table never told the end")


def test_at_the_end_everyone_reads_it_in_any_language(app, client, table, clock):
    game, phones = _game(app, client)
    _finish(client, table, clock)
    public = client.get(f"/api/games/{game}/story?lang=ja")
    assert public.status_code == 200 and public.json["over"]
    assert public.json["told"]["chapters"][-1]["title"] == "結末"
    assert _story(phones["C"]).status_code == 200
    assert client.get(f"/api/games/{game}/story?lang=xx").status_code == 400
    assert client.get("/api/games/99/story").status_code == 404


def test_the_table_screen_tells_it_page_by_page(app, client, table, clock):
    """At the end the public view carries the story's page (title, lines):
    it begins STORY_START_S after the end, steps on by itself, and a tap on
    the GM's tablet or the host page (POST /api/story/step) turns it; before
    the end the tap is refused (409) and no view has a page."""
    from companion.table.pace import STORY_LINE_S, STORY_PAGE_S, STORY_START_S

    game, _ = _game(app, client)
    assert client.post("/api/story/step", json={}, headers=GM).status_code == 409
    _finish(client, table, clock)
    table.tick()
    assert "story" not in client.get("/api/public").json  # the winners first
    clock.advance(STORY_START_S + 0.1)
    table.tick()
    page = client.get("/api/public").json["story"]
    assert (page["page"], page["title"]) == (0, "The cards")
    assert page["lines"][0] == {"text": "A: Werewolf.", "seats": [0]}
    # a tally's line: every ballot on the screen, its counts in the voice
    told = client.get(f"/api/games/{game}/story").json["told"]
    tally = next(ln for ch in told["chapters"] for ln in ch["lines"] if ln["kind"] == "tally")
    assert tally["said"] == "Vote: A 6, C 1." and "B → A" in tally["text"]
    clock.advance(STORY_PAGE_S + STORY_LINE_S * len(page["lines"]) + 0.1)
    table.tick()
    page = client.get("/api/public").json["story"]
    assert (page["page"], page["title"]) == (1, "Night 1")
    r = client.post("/api/story/step", json={}, headers=GM)
    assert r.status_code == 200 and r.json["story"]["title"] == "Day 1"
    assert client.post("/api/story/step", json={}).status_code == 401  # the GM and the host only


def _stored(tmp_path: Path, name: str) -> Path:
    """A finished scripted game (tests/engine/stories) kept as the hub keeps one."""
    doc = json.loads((Path(__file__).parents[1] / "engine" / "stories" / f"{name}.json")
                     .read_text())
    out, status = run_replay(doc)
    assert status == 0 and out["winner"]
    folder = tmp_path / "data"
    store = Store(folder / "games.sqlite3")
    tokens = [f"t{i}" for i in range(len(doc["players"]))]
    game = store.create_game({"ruleset": doc["ruleset"], "players": doc["players"],
                              "language": "en"}, out["events"][:1], tokens, {})
    store.append(game, 1, out["events"][1:], {}, winner=out["winner"])  # as the table commits
    store.close()
    return folder


@pytest.mark.parametrize("name", ["millers-hollow", "bga-the-village", "jp-standard"])
def test_werewolf_story_prints_a_finished_game(tmp_path, capsys, name):
    """`werewolf story GAME_ID --data DIR`: the text the GM's history shows,
    the sentences of tests/engine/stories/<game>.<lang>.txt; --json as data."""
    data = _stored(tmp_path, name)
    stories = Path(__file__).parents[1] / "engine" / "stories"
    for lang in ("en", "ja"):
        assert main(["story", "1", "--data", str(data), "--lang", lang]) == 0
        assert capsys.readouterr().out == (stories / f"{name}.{lang}.txt").read_text()
    assert main(["story", "1", "--data", str(data), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["over"] and doc["chapters"][-1]["entries"][0]["kind"] == "over"
    assert main(["story", "2", "--data", str(data)]) == 2
    assert "no game 2" in capsys.readouterr().err


def test_a_narrated_table_says_each_new_page() -> None:
    """The narration says the page the table screen turned to (its title and
    lines), once; nothing before the story begins."""
    from companion.speech import spoken

    page = {"page": 1, "pages": 5, "kind": "night", "title": "Night 1",
            "lines": [{"text": "Dawn.", "seats": []}]}
    over = {"phase": "over", "game": 1, "line": "The village wins."}
    assert spoken(over, {**over, "story": page}, "en") == ["Night 1", "Dawn."]
    assert spoken({**over, "story": page}, {**over, "story": page}, "en") == []
    day = {**page, "page": 2, "title": "Day 1", "lines": [
        {"text": "Vote: A → B, C → B (×2, the sheriff). Count: B 3.", "seats": [0, 1, 2],
         "said": "Vote: B 3."}]}
    assert spoken({**over, "story": page}, {**over, "story": day}, "en") == ["Day 1", "Vote: B 3."]


def test_a_season_over_a_period_and_as_csv(app, client, table, clock, tmp_path, capsys):
    """[issue 35] The season: each player's games and wins by side and by
    role, the table's record, over a chosen period; on the GM's tablet (GET
    /api/season), as CSV (GET /api/season.csv, `werewolf season --csv`)."""
    import datetime

    _game(app, client)
    _finish(client, table, clock)  # the village wins: A and B (the wolves) lose
    today = datetime.date.today().isoformat()
    later = (datetime.date.today() + datetime.timedelta(days=1)).isoformat()
    season = client.get(f"/api/season?from={today}&to={today}", headers=GM).json
    assert (season["games"], season["sides"]) == (1, {"village": 1})
    assert season["players"]["A"] == {"played": 1, "won": 0, "roles": {"werewolf": [1, 0]},
                                      "sides": {"werewolves": [1, 0]}}
    assert season["players"]["C"]["sides"] == {"village": [1, 1]}
    assert client.get(f"/api/season?from={later}", headers=GM).json["games"] == 0
    assert client.get("/api/season?from=tomorrow", headers=GM).status_code == 400
    assert client.get("/api/season").status_code == 401
    csv = client.get(f"/api/season.csv?to={today}", headers=GM)
    assert csv.mimetype == "text/csv"
    rows = csv.get_data(as_text=True).splitlines()
    assert rows[0] == "player,group,name,games,wins"
    assert "(table),side,village,1,1" in rows and "A,role,werewolf,1,0" in rows
    assert "C,side,village,1,1" in rows
    # the same from the command line, on the hub's data folder
    data = _stored(tmp_path, "jp-standard")
    assert main(["season", "--csv", "--data", str(data)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "(table),side,village,1,1" in out and "Fay,role,madman,1,0" in out
    assert main(["season", "--from", later, "--data", str(data)]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 0


class _Said:
    def __init__(self, ends: float | None) -> None:
        self.ends = ends

    def keep(self) -> None:
        pass


class _Voice:
    """A narrated game's voice (table.Voice) that takes 100 s to say a page."""

    def __init__(self, clock) -> None:  # type: ignore[no-untyped-def]
        self.clock, self.pages = clock, []

    def listening(self) -> bool:
        return True

    def became_public(self, view: dict, stage: int, now: float) -> _Said:
        page = view.get("story")
        if page and (not self.pages or self.pages[-1] != page["page"]):
            self.pages.append(page["page"])
            return _Said(now + 100)
        return _Said(None)

    def retime(self, now: float) -> None:  # its lines never move [issue 42]
        return None


def test_a_narrated_page_stays_until_its_words_are_said(app, client, table, clock):
    """In a narrated game the table's voice hears each page as it turns, and
    the page steps on by itself only once its words are said."""
    from companion.table.pace import STORY_START_S

    _game(app, client)
    _finish(client, table, clock)
    table.voice = _Voice(clock)
    table.tick()
    clock.advance(STORY_START_S + 0.1)
    table.tick()
    assert table.voice.pages == [0]
    clock.advance(60)  # longer than the page's own time, shorter than its words
    table.tick()
    assert client.get("/api/public").json["story"]["page"] == 0
    clock.advance(41)
    table.tick()
    assert client.get("/api/public").json["story"]["page"] == 1 and table.voice.pages == [0, 1]


def test_an_undo_at_the_end_takes_the_story_back(app, client, table, clock):
    """The GM's undo at the end: the table screen's story goes with the end,
    and the game's next end tells its own story from the first page."""
    _game(app, client)
    _finish(client, table, clock)
    assert client.post("/api/story/step", json={}, headers=GM).json["story"]["page"] == 0
    client.post("/api/story/step", json={}, headers=GM)
    for _ in range(2):  # the witch's poison, the pack's attack on G
        expect = client.get("/api/gm", headers=GM).json["seq"]
        r = client.post("/api/undo", json={"expect": expect}, headers=GM)
        assert r.status_code == 200, r.json
    table.tick()
    assert "story" not in client.get("/api/public").json
    for action in ({"actor": "B", "do": "attack", "target": "H"},
                   {"actor": "D", "do": "potion", "heal": False, "poison": "B"}):
        assert client.post("/api/actions", json=action, headers=GM).status_code == 200
    assert "story" not in client.get("/api/public").json  # not before it begins again
    _to_the_end(table, clock)
    pages = [client.post("/api/story/step", json={}, headers=GM).json["story"]
             for _ in range(4)]
    assert [p["title"] for p in pages] == ["The cards", "Night 1", "Day 1", "Night 2"]
    assert "H (Villager): killed by the werewolves." in [ln["text"] for ln in pages[3]["lines"]]


#: the issue's players (OWASP's CSV injection): each a formula in a spreadsheet
INJECTED = {"Ann": "=cmd|' /C calc'!A0", "Bob": "+1+1", "Cid": "-2+3", "Dan": "@SUM(1)"}


def test_the_seasons_csv_cells_are_never_formulas(tmp_path, capsys):
    """[issue 41 item 6] Players named `=cmd|' /C calc'!A0`, `+1+1`, `-2+3`,
    `@SUM(1)` came out raw in GET /api/season.csv and `werewolf season --csv`:
    a GM who opens the file in a spreadsheet runs them. Now a cell that
    begins with =, +, -, @, a tab or a carriage return begins with ' (shown
    as text); the JSON season keeps the names as they are."""
    import csv
    import io

    from companion.hub import create_app
    from companion.table import Table

    doc = json.loads((Path(__file__).parents[1] / "engine" / "stories" / "jp-standard.json")
                     .read_text())
    doc["players"] = [INJECTED.get(p, p) for p in doc["players"]]
    doc["deal"] = {INJECTED.get(p, p): card for p, card in doc["deal"].items()}
    doc["actions"] = [{k: INJECTED.get(v, v) if isinstance(v, str) else v for k, v in a.items()}
                      for a in doc["actions"]]
    out, status = run_replay(doc)
    assert status == 0 and out["winner"]
    folder = tmp_path / "data"
    store = Store(folder / "games.sqlite3")
    game = store.create_game({"ruleset": doc["ruleset"], "players": doc["players"],
                              "language": "en"}, out["events"][:1],
                             [f"t{i}" for i in range(len(doc["players"]))], {})
    store.append(game, 1, out["events"][1:], {}, winner=out["winner"])
    app = create_app(Table(store), "t", {"TESTING": True})
    api = app.test_client().get("/api/season.csv", headers={"Authorization": "Bearer t"})
    store.close()
    assert main(["season", "--csv", "--data", str(folder)]) == 0
    command = capsys.readouterr().out
    for text in (api.get_data(as_text=True), command):
        cells = [c for row in csv.reader(io.StringIO(text)) for c in row]
        assert not [c for c in cells if c[:1] in ("=", "+", "-", "@", "\t", "\r")], cells
        for name in INJECTED.values():
            assert "'" + name in cells  # the player's name, as text
    assert main(["season", "--data", str(folder)]) == 0  # the JSON: the names as they are
    assert set(INJECTED.values()) <= set(json.loads(capsys.readouterr().out)["players"])


def test_the_wolves_ally_is_counted_with_the_wolves_in_the_season(tmp_path) -> None:
    """[issue 44 item 5] The season's sides follow the engine's one rule
    (`engine.side_of`): New Moon's wolves' ally played and lost with the
    werewolves, never with the village whose win he lost; the table's own
    row counts its decided games as wins."""
    from companion.history import History

    names = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal"]
    roles = ["werewolf", "werewolf", "seer"] + ["villager"] * 5
    act = [{"actor": "Cid", "do": "inspect", "target": "Dan"},
           {"actor": "Ann", "do": "attack", "target": "Hal"},
           {"actor": "Bob", "do": "attack", "target": "Hal"}]
    act += [{"actor": v, "do": "vote", "target": t} for v, t in (
        ("Ann", "Bob"), ("Bob", "Cid"), ("Cid", "Ann"), ("Dan", "Ann"), ("Eve", "Ann"),
        ("Fay", "Ann"), ("Gus", "Ann"))]
    act += [{"actor": "Hal", "do": "name", "target": "Fay"},
            {"actor": "Cid", "do": "inspect", "target": "Eve"},
            {"actor": "Bob", "do": "attack", "target": "Gus"}]
    act += [{"actor": v, "do": "vote", "target": t} for v, t in (
        ("Bob", "Cid"), ("Cid", "Bob"), ("Dan", "Bob"), ("Eve", "Bob"), ("Fay", "Cid"))]
    doc = {"ruleset": "millers-hollow", "players": names, "deal": dict(zip(names, roles)),
           "options": {"sheriff": False, "events": ["wolves-ally"], "first_night_attack": True},
           "actions": act}
    out, status = run_replay(doc)
    assert status == 0 and out["winner"] == "village"
    store = Store(tmp_path / "games.sqlite3")
    game = store.create_game({k: doc[k] for k in ("ruleset", "players")}, out["events"][:1],
                             [f"t{i}" for i in range(8)], {})
    store.append(game, 1, out["events"][1:], {}, winner=out["winner"])
    season = History(store).season()
    assert season["players"]["Fay"]["sides"] == {"werewolves": [1, 0]}
    assert season["players"]["Dan"]["sides"] == {"village": [1, 1]}
    rows = History(store).season_csv().splitlines()
    assert "Fay,side,werewolves,1,0" in rows and "Fay,side,village,1,0" not in rows
    assert "(table),all,,1,1" in rows
