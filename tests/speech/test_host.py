"""The host's tablet in a narrated game has no secrets [issue 20]: "it sets
up the game, pauses, resumes, gives +30 s and moves on (Next), but cannot
show cards, enter another seat's action or undo a night"."""

from __future__ import annotations

import io
import wave
from pathlib import Path

import pytest
from slowness import wait_s

from companion.speech import Cache
from companion.store import Store
from companion.table import Table

from .conftest import AUTH


def _game(client, narrated: bool = True):  # type: ignore[no-untyped-def]
    players = list("ABCDEFGH")
    roles = ["werewolf", "werewolf", "seer", "witch", "hunter", "villager", "villager",
             "villager"]
    doc = {"ruleset": "millers-hollow", "players": players, "deal": dict(zip(players, roles)),
           "seed": 3, "narrated": narrated}
    assert client.post("/api/games", json=doc, headers=AUTH).status_code == 201


SECRETS = [("GET", "/api/gm"), ("GET", "/api/state"), ("GET", "/api/stream"),
           ("POST", "/api/actions"), ("POST", "/api/undo"), ("GET", "/api/games/1"),
           ("GET", "/api/games/1/view"), ("POST", "/api/hardware/press"), ("GET", "/gm/table"),
           ("POST", "/api/timer")]


@pytest.mark.parametrize("method,url", SECRETS)
def test_the_host_cannot_open_a_secret(app, method: str, url: str) -> None:  # type: ignore[no-untyped-def]
    client = app.test_client()
    _game(client)
    got = client.open(url, method=method, headers=AUTH,
                      json={"actor": "A", "do": "pass"} if method == "POST" else None)
    assert got.status_code == 403, (url, got.status_code)
    assert b"werewolf" not in got.data and b"seer" not in got.data


def test_a_game_master_game_keeps_its_gm_routes(app) -> None:  # type: ignore[no-untyped-def]
    client = app.test_client()
    _game(client, narrated=False)
    assert client.get("/api/gm", headers=AUTH).status_code == 200
    assert client.get("/gm", headers=AUTH).status_code == 200


def test_the_host_runs_the_clock_and_sees_only_the_public_view(app, clock) -> None:  # type: ignore[no-untyped-def]
    client = app.test_client()
    _game(client)
    for do in ("pause", "resume", "extend", "skip"):
        got = client.post("/api/host/timer", json={"do": do, "seconds": 30}, headers=AUTH)
        assert got.status_code == 200, do
        view = got.get_json()
        assert all(p.get("role") is None for p in view["players"])  # no card, only names
    assert client.post("/api/host/timer", json={"do": "pause"}).status_code == 401
    assert client.post("/api/host/timer", json={"do": "nap"}, headers=AUTH).status_code == 400
    page = client.get("/gm", headers=AUTH)
    assert page.status_code == 302 and page.headers["Location"].endswith("/host")
    host = client.get("/host", headers=AUTH)
    assert host.status_code == 200 and b'data-test="host"' in host.data
    assert client.get("/host").status_code == 401
    assert b"Show secrets" not in host.data


def test_the_hosts_next_names_its_stage_as_the_gms_does(app, clock) -> None:  # type: ignore[no-untyped-def]
    """[issue 30 item 2] "The same holds for the host page's clock": a press
    carries the public view's pace.stage; one pressed on a stage the clock
    has left is 409 and changes nothing, on /api/host/timer as on /api/timer
    (which a narrated game's host may not use); a stage that is not an
    integer is 400."""
    client = app.test_client()
    _game(client)
    stage = client.get("/api/public").get_json()["pace"]["stage"]
    first = client.post("/api/host/timer", json={"do": "skip", "stage": stage}, headers=AUTH)
    assert first.status_code == 200
    moved = first.get_json()["pace"]
    again = client.post("/api/host/timer", json={"do": "skip", "stage": stage}, headers=AUTH)
    assert again.status_code == 409 and "moved on" in again.get_json()["error"]
    assert client.get("/api/public").get_json()["pace"] == moved
    bad = client.post("/api/host/timer", json={"do": "skip", "stage": "1"}, headers=AUTH)
    assert bad.status_code == 400


def test_the_narration_is_public_and_spoken(app, clock) -> None:  # type: ignore[no-untyped-def]
    """The table screen reads the timeline and fetches each utterance's audio."""
    from companion.speech.engines import find

    client = app.test_client()
    _game(client)
    said = client.get("/api/speech").get_json()
    assert said["narrated"] is True and said["said"]
    assert said["said"][0]["text"].startswith("Night falls")
    last = said["said"][-1]["n"]
    later = client.get(f"/api/speech?after={last}").get_json()
    # nothing new; what is still to be said is sent again (a later word may drop or cut it)
    assert all(u["n"] <= last and u["at"] + u["dur"] > later["now"] - 1.0
               for u in later["said"])
    assert client.get("/api/speech?after=x").status_code == 400
    assert client.get(f"/api/speech/{said['game']}/999.wav").status_code == 404
    first = said["said"][0]
    if find("en")[0] is not None and not first["ready"]:  # heard before it was rendered
        assert client.get(first["url"]).status_code == 503  # never rendered in a request
        assert app.extensions["narration"].ahead.drain(timeout=wait_s(60), upto=0)  # [issue 42]
        assert client.get("/api/speech").get_json()["said"][0]["ready"]
    audio = client.get(first["url"])
    if find("en")[0] is None:
        assert audio.status_code == 503
        return
    assert audio.status_code == 200 and audio.mimetype == "audio/wav"
    with wave.open(io.BytesIO(audio.data)) as w:
        assert w.getnframes() / w.getframerate() > 1.0
    assert client.post("/api/speech/volume", json={"volume": 0.5}).status_code == 401
    got = client.post("/api/speech/volume", json={"volume": 0.5}, headers=AUTH)
    assert got.status_code == 200 and got.get_json()["volume"] == 0.5
    assert client.post("/api/speech/volume", json={"volume": 2}, headers=AUTH).status_code == 400


def test_cache_folder_defaults_to_the_data_folder(tmp_path: Path) -> None:
    from companion.speech.narration import cache_folder

    table = Table(Store(tmp_path / "games.sqlite3"))
    assert cache_folder(table) == tmp_path / "speech"
    assert isinstance(Cache(cache_folder(table)).folder, Path)
