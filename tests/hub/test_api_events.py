"""New Moon's event cards through the API [issue 33] (RULES.md §10): the lobby's
choices (/api/rulesets' "events"), a game created with them, the hub's 400 for
a bad card, and a saved setup keeping them."""

from __future__ import annotations

import pytest

from .conftest import GM, mh8

OWN = {"title": {"en": "Full moon"}, "text": {"en": "Everyone howls once before the vote."}}


def test_the_lobby_is_offered_the_event_cards_of_new_moon_rulesets_only(client):
    rulesets = client.get("/api/rulesets", headers=GM).get_json()
    for name in ("millers-hollow", "bga"):
        events = rulesets[name]["events"]
        assert events["wolves-ally"] == "[003]"
        assert {k for k, v in events.items() if v == "house"} == {
            "quiet-night", "two-executions", "one-voice", "open-ballots", "no-discussion"}
    assert "events" not in rulesets["jp-standard"]


def test_a_game_created_with_events_keeps_them_and_a_saved_setup_round_trips_them(client):
    events = ["wolves-ally", "quiet-night", OWN]
    answer = client.post("/api/games", json=mh8(events=events), headers=GM)
    assert answer.status_code == 201, answer.get_json()
    record = client.get(f"/api/games/{answer.get_json()['id']}", headers=GM).get_json()
    assert record["setup"]["options"]["events"] == events
    saved = client.post("/api/setups", json={"name": "moon", "setup": mh8(events=events)},
                        headers=GM)
    assert saved.status_code == 201
    listed = client.get("/api/setups", headers=GM).get_json()["setups"]
    back = {s["name"]: s["setup"] for s in listed}
    assert back["moon"]["options"]["events"] == events
    again = client.post("/api/games", json=back["moon"], headers=GM)
    assert again.status_code == 201


@pytest.mark.parametrize(("events", "says"), [
    (["no-such-card"], "unknown event"),
    (["quiet-night", "quiet-night"], "listed twice"),
    ([{"title": {"en": "x" * 41}, "text": {"en": "y"}}], "at most 40"),
    ([{"title": {"en": "A"}, "text": {"en": " "}}], "empty"),
    ([{"title": {"en": "A\u202e"}, "text": {"en": "b"}}], "invisible"),
    ([{"title": {"fr": "A"}, "text": {"fr": "b"}}], "unknown language"),
])
def test_a_bad_event_card_is_refused_with_400_and_says_why(client, events, says):
    answer = client.post("/api/games", json=mh8(events=events), headers=GM)
    assert answer.status_code == 400
    assert says in answer.get_json()["error"]
    saved = client.post("/api/setups", json={"name": "bad", "setup": mh8(events=events)},
                        headers=GM)
    assert saved.status_code == 400


def test_jp_standard_refuses_events(client):
    from .conftest import jp9

    answer = client.post("/api/games", json={**jp9(), "options": {"events": ["quiet-night"]}},
                         headers=GM)
    assert answer.status_code == 400
