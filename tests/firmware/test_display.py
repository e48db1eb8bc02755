"""The small display's frames [issue 7]: `render(public_view)` compared pixel
for pixel with tests/firmware/reference/*.png (tools/make_reference_frames.py),
the tally as the engine lists it [issue 15], secrecy and the Latin fallback.
The device that shows them: test_device.py."""

from __future__ import annotations

import copy
import logging
import random
from pathlib import Path

import pytest
from companion.firmware import display
from PIL import Image, ImageChops, ImageDraw

from companion.table.player_names import MAX_NAME
from companion.words import role_name, screen_word

from .conftest import frames, need_unifont

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = Path(__file__).parent / "reference"
pytestmark = pytest.mark.usefixtures("fresh_fonts")


@pytest.mark.parametrize("name", list(frames.FRAMES))
def test_frame_matches_its_reference_png(name):
    """[issue 7] Each frame (boot QR, lobby, night calls en/ja, discussion with
    the timer and paused, runoff ballot with the tally and the sheriff's ×2,
    roll-call, verdict with the executed player's role, the winner en/ja/
    zh_Hant) equals its reference PNG pixel for pixel."""
    need_unifont(frames.FRAMES[name][1])
    image = frames.frame(name)
    assert image.mode == "1" and image.size == (128, 64)
    ref = Image.open(REFERENCE / f"{name}.png").convert("1")
    diff = ImageChops.difference(image.convert("L"), ref.convert("L")).getbbox()
    assert diff is None, f"{name}: frame differs from its reference in {diff} " \
                         "(tools/make_reference_frames.py --preview DIR, look, regenerate)"


def test_every_reference_png_has_a_frame():
    """[issue 7] No stale reference PNGs."""
    assert {p.stem for p in REFERENCE.glob("*.png")} == set(frames.FRAMES)


def test_timer_counts_down_to_the_deadline_from_the_views_now():
    """[issue 7] The timer is pace.deadline − now, m:ss, rounded up; none at night."""
    view = frames.discussion()
    assert display.time_left(view) == "4:33"
    view["now"] = frames.NOW + 272.4
    assert display.time_left(view) == "0:00"
    view["now"] = frames.NOW + 400
    assert display.time_left(view) == "0:00"
    assert display.time_left(frames.night("seer")) == ""


def test_tally_marks_the_sheriffs_double_vote():
    """[issue 7] The sheriff's vote counts two in an execution vote: marked ★ on
    the candidate he voted for and "★Cid×2→Ann"; never in the election."""
    view = frames.verdict()
    ranked, sheriff, target = display.tally_entries(view)
    assert ranked == [(0, 3), (1, 2), (4, 2)] and (sheriff, target) == (2, 0)
    election = copy.deepcopy(frames.discussion())
    assert display.tally_entries(election)[1:] == (None, None)


def _tallies(view: dict) -> list[dict]:
    tallies = [a for a in view.get("announcements") or [] if a.get("kind") == "tally"]
    return tallies + ([view["last_tally"]] if view.get("last_tally") else [])


@pytest.mark.parametrize("name", [n for n, (v, _) in frames.FRAMES.items() if v and _tallies(v)])
def test_the_frames_tallies_follow_contract_c1(name):
    """[issue 15 §4, CONTRACTS C1] The views the frames are drawn from carry
    tallies as the engine makes them: one ballot a voter in seat order, and
    every count is its ballots' weights plus its extra votes."""
    for tally in _tallies(frames.FRAMES[name][0]):
        ballots = tally["ballots"]
        assert [b["voter"] for b in ballots] == sorted(int(v) for v in tally["votes"])
        for seat, count in tally["counts"].items():
            assert count == sum(b["weight"] for b in ballots if b["target"] == int(seat)) \
                + sum(x["votes"] for x in tally["extra"] if x["target"] == int(seat))


def test_tally_marks_the_weighted_ballot_and_the_posters_votes():
    """[issue 15 §4, RULES.md §8] The rumormonger's two posted votes are the
    tally's `extra`, the sheriff's ×2 its ballot's weight: the display marks
    both, as the tally lists them (the poster's votes are not a ballot, and
    do not make a second sheriff)."""
    Mark = display.Mark
    view = frames.verdict_posted()
    assert display.tally_marks(view) == [Mark("ballot", 2, 1, 2), Mark("poster", None, 4, 2)]
    assert display.tally_entries(view) == ([(1, 5), (4, 3), (0, 1)], 2, 1)
    alone = frames.verdict_posted_only()
    assert display.tally_marks(alone) == [Mark("poster", None, 0, 2)]
    assert display.tally_entries(alone) == ([(4, 3), (0, 2), (1, 2)], None, None)
    assert display.tally_marks(frames.discussion()) == []  # the election: one vote each


def test_tally_rows_say_who_weighed_what_and_whom():
    """[issue 15 §4] The rows: counts signed by the marks on them, then each
    mark with its voter, weight and target; shorter forms (no voter, then no
    target) only when the row is too short for every mark."""
    need_unifont(False)
    font = display._fonts()[0]
    view = frames.verdict_posted()
    wide = display._tally_rows(view, 512, font, 2)
    assert wide == ["Bob 5★  Eve 3⚑  Ann 1", "★Cid×2→Bob  ⚑×2→Eve"]
    assert display._tally_rows(view, 128, font, 2) == ["Bob 5★  Eve 3⚑ …", "★×2→Bob  ⚑×2→Eve"]
    assert display._tally_rows(view, 128, font, 3) == \
        ["Bob 5★  Eve 3⚑ …", "★Cid×2→Bob", "⚑×2→Eve"]
    assert display._tally_rows(view, 100, font, 2)[1] == "★×2  ⚑×2"
    assert display._tally_rows(frames.verdict_posted_only(), 128, font, 2)[1] == "⚑×2→Ann"


def test_the_display_computes_no_tally():
    """[issue 15 §4, CONTRACTS C1] The display shows the counts the tally
    gives and the weights its ballots give, and works nothing out: no ×2
    guessed from the sums (a tally without ballots has no mark, though the
    sheriff voted and the counts add up to one more than the votes cast),
    a count is drawn as it comes, a weight of 3 is drawn as ×3."""
    need_unifont(False)
    font = display._fonts()[0]
    view = frames.verdict()
    bare = copy.deepcopy(view)
    del bare["last_tally"]["ballots"], bare["last_tally"]["extra"]
    assert display.tally_marks(bare) == [] and display.tally_entries(bare)[1:] == (None, None)
    assert "★" not in "".join(display._tally_rows(bare, 512, font, 3))
    odd = copy.deepcopy(view)
    odd["last_tally"]["counts"]["0"] = 9
    odd["last_tally"]["ballots"][2]["weight"] = 3
    assert display._tally_rows(odd, 512, font, 2) == ["Ann 9★  Bob 2  Eve 2", "★Cid×3→Ann"]


def test_a_night_frame_reads_only_the_public_view():
    """[issue 7] Two nights that differ only where the table sees no difference
    (the same call; the seats' secrets are not in the public view, and a
    view's extra keys are ignored) give the same frame; the call shows."""
    a = frames.night("seer")
    b = copy.deepcopy(a)
    b["now"] += 17.0  # the hub's clock moved on; the night has no timer
    b["seq"] = 99
    b["line"] = "Seer, wake up."
    assert display.render(a).tobytes() == display.render(b).tobytes()
    c = copy.deepcopy(a)
    c["pace"]["call"] = "wolves"
    assert display.render(a).tobytes() != display.render(c).tobytes()


def test_same_night_frame_whoever_holds_the_role(tmp_path):
    """[issue 7] On a real table: the display's frame at night 1 is the same
    whether the seer sits at seat 0 or 7 (only the public view is drawn)."""
    from companion.store import Store
    from companion.table import Table

    images = []
    for seer in (0, 7):
        roles = ["villager"] * 8
        roles[seer], roles[3], roles[4] = "seer", "werewolf", "werewolf"
        names = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal"]
        store = Store(tmp_path / f"g{seer}.sqlite3")
        table = Table(store, clock=lambda: 1000.0, rng=random.Random(1))
        table.create({"ruleset": "millers-hollow", "players": names,
                      "deal": dict(zip(names, roles)), "seed": 1})
        view = table.public()
        assert view["phase"] == "night" and view["pace"]["mode"] == "calls"
        view["now"] = 1000.0
        images.append(display.render(view).tobytes())
        store.close()
    assert images[0] == images[1]


def test_latin_fallback_when_unifont_is_missing(monkeypatch, caplog):
    """[issue 7] Without Unifont: one warning in the log, pillow's default
    font, English names even for a Japanese game; frames still render."""
    monkeypatch.setattr(display, "FONT_PATHS", [str(ROOT / "no-such-font.otf")])
    display.reset_fonts()
    with caplog.at_level(logging.WARNING, logger=display.__name__):
        assert not display.has_unifont()
        image = display.render(frames.over("ja"))
        display.render(frames.night("wolves", "ja"))
        display.render_boot(frames.GM_URL, "ja")
    warnings = [r for r in caplog.records if "Unifont" in r.getMessage()]
    assert len(warnings) == 1
    assert image.mode == "1" and image.size == (128, 64) and image.getbbox() is not None
    assert display._lang(frames.over("ja"), None) == "en"


# --- the widest names [issue 30] item 4 -----------------------------------------

#: seven names of 40 characters (the most, companion.table.player_names.MAX_NAME):
#: the widest Latin letter, a wide CJK character, words and spaces
WIDEST = {
    "W": ["W" * k + "M" + "W" * (39 - k) for k in range(0, 40, 6)],
    "CJK": ["龘" * k + "靐" + "龘" * (39 - k) for k in range(0, 40, 6)],
    "spaced": [("WWWWWWW " * 5)[:38] + "M" + x for x in "ABCDEFG"],
}


def _renamed(view: dict, names: list[str]) -> dict:
    """The view with the players' names replaced, in the news too."""
    view = copy.deepcopy(view)
    new = {p["name"]: names[p["seat"]] for p in view["players"]}

    def rename(doc: object) -> None:
        for item in doc.values() if isinstance(doc, dict) else doc if isinstance(doc, list) else []:
            rename(item)
        if isinstance(doc, dict) and doc.get("name") in new:
            doc["name"] = new[doc["name"]]

    rename(view["players"])
    rename(view["announcements"])
    return view


def _named_frames(lang: str) -> dict[str, dict]:
    """The frames that draw a player's name: the roll-call's candidate, last
    words, the tally of a runoff and of a verdict (the sheriff's ★, the
    poster's ⚑), the day's news (a death and its card, the sheriff)."""
    last_words = frames.discussion(lang)
    last_words["pace"] = {"mode": "last-words", "paused": None, "seat": 0,
                          "deadline": frames.NOW + 20}
    views = {"rollcall": frames.rollcall(), "runoff": frames.runoff_ballot(lang),
             "verdict": frames.verdict(lang), "verdict-posted": frames.verdict_posted(lang),
             "discussion": frames.discussion(lang), "last-words": last_words}
    for view in views.values():
        view["language"] = lang
    return views


class _Roomy(display._Canvas):
    """A canvas with room past the frame's right and bottom edges: whatever
    is drawn past them lights pixels there instead of being lost."""

    def __init__(self, size: tuple[int, int]) -> None:
        super().__init__(size)
        self.image = Image.new("1", (size[0] * 2, size[1] * 2), 0)
        self.draw = ImageDraw.Draw(self.image)


def _shows(texts: list[str], name: str, after: str = "") -> bool:
    """A drawn text holds `name` whole, or its first characters ended by "…",
    and `after` straight after it."""
    return any(name + after in t or any(name[:k] + "…" + after in t for k in range(1, len(name)))
               for t in texts)


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("kind", list(WIDEST))
def test_the_widest_names_are_cut_to_fit_the_frame(kind, lang, monkeypatch):
    """[issue 30] item 4: a name is drawn in the 128×64 frame shortened to
    fit, never past its edge: with forty "W", forty "龘" or forty
    characters of words, no pixel is lit past the frame's right or bottom
    edge (drawn on a canvas with room beyond it) and no text starts left of
    or above it; and the name is not lost, nor what goes with it: the
    candidate and the last words show its first characters and "…", each
    tally count its name's first characters, "…" and the count, a death its
    card, the sheriff's row the word "sheriff"."""
    need_unifont(lang != "en")
    names = WIDEST[kind]
    assert {len(n) for n in names} == {MAX_NAME}
    drawn: list[tuple[tuple[float, float], str]] = []
    real = ImageDraw.ImageDraw.text

    def spy(self, xy, text, *args, **kwargs):
        drawn.append((tuple(xy), str(text)))
        return real(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    monkeypatch.setattr(display, "_Canvas", _Roomy)
    w, h = display.SIZE
    for label, view in _named_frames(lang).items():
        view = _renamed(view, names)
        drawn.clear()
        image = display.render(view, lang)
        right, below = image.crop((w, 0, *image.size)), image.crop((0, h, *image.size))
        assert right.getbbox() is None and below.getbbox() is None, \
            f"{kind} {lang} {label}: lit pixels past the frame's edge"
        assert all(x >= 0 and y >= 0 for (x, y), _ in drawn), f"{kind} {lang} {label}: {drawn}"
        texts = [t for _, t in drawn]
        name = display._name
        if label == "rollcall":
            assert _shows(texts, name(view, view["rollcall"]["candidate"])), (label, texts)
        if label == "last-words":
            assert _shows(texts, name(view, 0)), (label, texts)
        if label in ("runoff", "verdict", "verdict-posted"):
            seat, count = display._ranked(view)[0]
            assert _shows(texts, name(view, seat), f" {count}"), (label, texts)
        if label in ("verdict", "verdict-posted", "discussion"):
            dead = [a for a in view["announcements"] if a.get("kind") == "death"] or \
                view["announcements"][0]["deaths"]
            card = role_name(dead[-1]["role"], lang)
            assert _shows(texts, "†" + dead[-1]["name"], " " + card), (label, texts)
        if label == "discussion":
            assert _shows(texts, "★" + name(view, 2), " " + screen_word("sheriff", lang)), texts
