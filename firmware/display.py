"""The small display [issue 7]: a 128×64 I2C OLED (luma.oled) that announces
the game to the table.

    image = render(public_view)            # pure: the public view -> a mode "1" image
    image = render_boot(gm_url)            # the GM's URL as a QR code, at boot / lobby

The device that shows the frames, and the thread that follows the table, are
apart in firmware/device.py; this module draws and touches no hardware.

`render` reads the public view only (`Table.public()`), so the frame cannot
depend on anything secret: at night it shows "Night N" and the call being
made, nothing else. Text is in the game's language through
companion/words' names and its screen words (names.SCREEN); Japanese and
Chinese need GNU Unifont (Debian's fonts-unifont). Without it the display
warns once (logging) and falls back to pillow's default font with English
text.

Layout: four rows of 16 px (Unifont's cell: 8 px per Latin character, 16 per
CJK one); the first row is a lit bar with the day or night and the timer.

A closed vote is drawn from its tally alone [issue 15]: the counts as they
come, a ★ for a ballot that weighed more than one (the sheriff's ×2) and a ⚑
for the rumormonger's posted votes (the tally's `extra`); nothing is summed
or guessed here.
"""

from __future__ import annotations

import logging
import math
import os
from functools import cache
from typing import Any, NamedTuple

from PIL import Image, ImageDraw, ImageFont

from companion.words import LANGUAGES, side_name, step_name
from companion.words import screen_word as _word
from companion.words.announce import announcement_rows as said_rows

log = logging.getLogger(__name__)

SIZE = (128, 64)
ROW = 16  # one text row: Unifont's cell height
ON = 255  # a lit pixel (mode "1" stores 0 or 255)
#: where GNU Unifont is looked for, first found wins (Debian's fonts-unifont first)
FONT_PATHS = [
    "/usr/share/fonts/opentype/unifont/unifont.otf",
    "/usr/share/fonts/truetype/unifont/unifont.ttf",
    "/usr/share/fonts/unifont/unifont.otf",
    "/usr/local/share/fonts/unifont.otf",
    os.path.join(os.path.dirname(__file__), "fonts", "unifont.otf"),
]

# --- fonts ----------------------------------------------------------------------

Font = Any  # ImageFont.FreeTypeFont | ImageFont.ImageFont


def unifont_path() -> str | None:
    """The first of FONT_PATHS that exists, or None."""
    return next((p for p in FONT_PATHS if os.path.isfile(p)), None)


@cache
def _fonts() -> tuple[Font, Font, bool]:
    """(16 px font, 32 px font, unifont?), loaded once. Without Unifont: a
    warning (once) and pillow's default font."""
    path = unifont_path()
    if path is not None:
        return ImageFont.truetype(path, ROW), ImageFont.truetype(path, 2 * ROW), True
    log.warning("GNU Unifont not found (looked in %s): the display falls back to pillow's "
                "default font and English text; install fonts-unifont for Japanese and "
                "Chinese", ", ".join(FONT_PATHS))
    try:
        return ImageFont.load_default(size=13), ImageFont.load_default(size=26), False
    except TypeError:  # pillow without FreeType: one bitmap size
        small = ImageFont.load_default()
        return small, small, False


def reset_fonts() -> None:
    """Forget the loaded fonts (tests that move FONT_PATHS)."""
    _fonts.cache_clear()


def has_unifont() -> bool:
    return _fonts()[2]


def _lang(view: dict, lang: str | None) -> str:
    chosen = lang or view.get("language") or "en"
    if chosen not in LANGUAGES or not has_unifont():
        return "en"  # the Latin fallback speaks English
    return str(chosen)


# --- drawing helpers --------------------------------------------------------------

def _width(font: Font, text: str) -> int:
    return int(math.ceil(font.getlength(text)))


def _fit(font: Font, text: str, width: int) -> str:
    """The text, cut with "…" to fit `width` pixels."""
    if _width(font, text) <= width:
        return text
    while text and _width(font, text + "…") > width:
        text = text[:-1]
    return text + "…"


#: the fallback font has no ★ × † → … ⚑: ASCII stand-ins
_ASCII = str.maketrans({"★": "*", "×": "x", "†": "+", "→": ">", "…": "~", "⚑": "!"})


class _Canvas:
    def __init__(self, size: tuple[int, int]) -> None:
        self.image = Image.new("1", size, 0)
        self.draw = ImageDraw.Draw(self.image)
        self.w, self.h = size
        self.font, self.big, self.unifont = _fonts()

    def plain(self, text: str) -> str:
        return text if self.unifont else text.translate(_ASCII)

    def text(self, row: int, text: str, *, right: str = "", fill: int = 255,
             center: bool = False) -> None:
        """One row of text (row 0–3), optionally a second text flush right."""
        y, text, right = row * ROW, self.plain(text), self.plain(right)
        rw = _width(self.font, right) if right else 0
        room = self.w - (rw + 6 if right else 0)
        shown = self.plain(_fit(self.font, text, room))
        x = (self.w - _width(self.font, shown)) // 2 if center else 0
        self.draw.text((x, y), shown, font=self.font, fill=fill)
        if right:
            self.draw.text((self.w - rw, y), right, font=self.font, fill=fill)

    def header(self, left: str, right: str) -> None:
        self.draw.rectangle((0, 0, self.w - 1, ROW - 1), fill=ON)
        self.text(0, left, right=right, fill=0)

    def big_text(self, row: int, text: str) -> int:
        """The text centred, twice the size if it fits (two rows), else one row.
        Returns the rows used."""
        text = self.plain(text)
        if _width(self.big, text) <= self.w and row + 2 <= self.h // ROW:
            x = (self.w - _width(self.big, text)) // 2
            self.draw.text((x, row * ROW), text, font=self.big, fill=ON)
            return 2
        self.text(row, text, center=True)
        return 1


# --- what the view says ----------------------------------------------------------

def _names(view: dict) -> dict[int, str]:
    return {int(p["seat"]): str(p["name"]) for p in view.get("players") or []}


def _name(view: dict, seat: object) -> str:
    if isinstance(seat, str) and seat.isdigit():
        seat = int(seat)
    return _names(view).get(seat, "?") if isinstance(seat, int) else "?"


def time_left(view: dict) -> str:
    """m:ss to the pace's deadline (from the message's `now`), "" without one."""
    pace = view.get("pace") or {}
    deadline, now = pace.get("deadline"), view.get("now")
    if deadline is None or now is None:
        return ""
    left = max(0, math.ceil(float(deadline) - float(now) - 1e-6))
    return f"{left // 60}:{left % 60:02d}"


def _timer(view: dict, lang: str) -> str:
    pace = view.get("pace") or {}
    if pace.get("paused") is not None:
        return _word("paused", lang)
    return time_left(view)


def _phase_label(view: dict, lang: str) -> str:
    phase, pace = view.get("phase"), view.get("pace") or {}
    mode = pace.get("mode")
    if phase == "lobby" or mode == "lobby" or not view.get("players"):
        return _word("lobby", lang)
    if phase == "over" or mode == "over":
        return _word("over", lang)
    if mode == "calls" or phase == "night":
        return _word("night", lang, n=pace.get("night") or view.get("n") or 1)
    return _word("day", lang, n=view.get("n") or 1)


class Mark(NamedTuple):
    """Votes of the last tally that are not one voter's one vote, as the tally
    lists them (contract C1): a ballot whose weight is above one (the
    sheriff's ×2 in an execution vote), or an `extra` entry (the
    rumormonger's poster: two votes)."""

    source: str  # "ballot" (a weighted ballot) | the extra's source ("poster", …)
    voter: int | None  # the weighted ballot's voter; None for an extra
    target: int
    votes: int


#: a mark's sign, on its target's count and before its row; "+" for a source
#: the display does not know yet
SIGNS = {"ballot": "★", "poster": "⚑"}


def tally_marks(view: dict) -> list[Mark]:
    """The last tally's weighted ballots, then its extra votes, in the
    tally's order. Read from `ballots` and `extra` only: the display
    computes no weight (a view without them has no marks)."""
    tally = view.get("last_tally") or {}
    marks = [Mark("ballot", int(b["voter"]), int(b["target"]), int(b["weight"]))
             for b in tally.get("ballots") or []
             if b.get("target") is not None and int(b.get("weight") or 1) > 1]
    marks += [Mark(str(x.get("source")), None, int(x["target"]), int(x["votes"]))
              for x in tally.get("extra") or [] if x.get("target") is not None]
    return marks


def tally_entries(view: dict) -> tuple[list[tuple[int, int]], int | None, int | None]:
    """The last tally: ([(seat, count)] most votes first, as `counts` says;
    the voter whose ballot weighed more than one (the sheriff) or None; the
    seat that ballot went to)."""
    weighted = next((m for m in tally_marks(view) if m.source == "ballot"), None)
    if weighted is None:
        return _ranked(view), None, None
    return _ranked(view), weighted.voter, weighted.target


def _ranked(view: dict) -> list[tuple[int, int]]:
    """The last tally's (seat, count), most votes first, as `counts` says."""
    tally = view.get("last_tally") or {}
    counts = {int(s): int(c) for s, c in (tally.get("counts") or {}).items()}
    return sorted(counts.items(), key=lambda sc: (-sc[1], sc[0]))


def _pack(font: Font, items: list[str], width: int, rows: int, *,
          whole: bool = False) -> list[str] | None:
    """The items joined by two spaces into at most `rows` rows of `width`
    pixels; what does not fit ends the last row in "…" (or, `whole`: None)."""
    out: list[str] = []
    line = ""
    for item in items:
        joined = f"{line}  {item}" if line else item
        if _width(font, joined) <= width:
            line = joined
            continue
        if whole and (len(out) + 1 >= rows or _width(font, item) > width):
            return None
        if line and len(out) + 1 < rows:
            out.append(line)
            line = item
            continue
        while line and _width(font, line + " …") > width:
            line = line.rsplit("  ", 1)[0] if "  " in line else ""
        if line:
            line += "  …" if _width(font, line + "  …") <= width else " …"
        else:
            line = _fit(font, item, width)
        break
    if line:
        out.append(line)
    return out


def _tally_rows(view: dict, width: int, font: Font, rows: int) -> list[str]:
    """The tally in `rows` rows: each seat's count as the tally gives it,
    signed by the marks that went there ("Ann 3★  Eve 4⚑": ★ a weighted
    ballot, ⚑ the poster's votes), then the marks: "★Cid×2→Ann  ⚑×2→Eve"
    (who, the weight, whom), shorter when the rows are ("★×2→Ann", then
    "★×2": the signed count says whom); counts that do not fit are "…". A
    name longer than half a row is cut with "…" so that its count and signs
    show, and two seats share a row [issue 30]: "WWW… 3★  Eve 2"."""
    ranked, marks = _ranked(view), tally_marks(view)
    half = (width - _width(font, "  ")) // 2

    def item(seat: int, count: int) -> str:  # a long name cut to half a row, never its count
        tail = f" {count}" + "".join(_sign(m) for m in marks if m.target == seat)
        return _fit(font, _name(view, seat), half - _width(font, tail)) + tail

    items = [item(s, c) for s, c in ranked]
    shown: list[str] = []
    if marks and rows > 1:
        voters = [_name(view, m.voter) if m.voter is not None else "" for m in marks]
        targets = [f"→{_name(view, m.target)}" for m in marks]
        forms = [[f"{_sign(m)}{v}×{m.votes}{t}" for m, v, t in zip(marks, voters, targets)],
                 [f"{_sign(m)}×{m.votes}{t}" for m, t in zip(marks, targets)]]
        for form in forms:  # the longest form whose marks all fit
            packed = _pack(font, form, width, rows - 1, whole=True)
            if packed:
                shown = packed
                break
        else:
            shown = _pack(font, [f"{_sign(m)}×{m.votes}" for m in marks], width, rows - 1) or []
    return (_pack(font, items, width, max(1, rows - len(shown))) or []) + shown


def _sign(mark: Mark) -> str:
    return SIGNS.get(mark.source, "+")


def announcement_rows(view: dict, lang: str, font: Font | None = None,
                      width: int = SIZE[0]) -> list[str]:
    """The day's news, one short row each: from the last dawn on (tallies are
    drawn apart). With the `font`, a name too long for its row of `width`
    pixels is cut with "…" so that what is said of it shows too ("†WWWW…
    Werewolf"), the name keeping a third of the row at least [issue 30].
    What each announcement says is the words' (`announce.announcement_rows`)."""

    def row(sign: str, name: str, tail: str) -> str:
        if font is None:
            return f"{sign}{name}{tail}"
        room = max(width - _width(font, sign + tail), width // 3)
        return f"{sign}{_fit(font, name, room)}{tail}"

    anns = list(view.get("announcements") or [])
    start = max((i for i, a in enumerate(anns) if a.get("kind") == "dawn"), default=0)
    return [row(*said) for a in anns[start:]
            for said in said_rows(a, lang, lambda seat: _name(view, seat))]


def _mode_label(view: dict, lang: str) -> str:
    pace = view.get("pace") or {}
    mode = pace.get("mode") or "lobby"
    vote = view.get("vote") or {}
    if mode == "ballot" and vote:
        kind = vote.get("kind") or "vote"
        if kind == "vote" and vote.get("nominees"):  # vote_mode=candidates [issue 34]
            return _word("candidates", lang)
        if kind == "vote" and (vote.get("round") or 1) > 1:
            kind = "runoff"
        return step_name(str(kind), lang)
    if mode == "prompt":
        step = str(view.get("step") or "").split(" ")[-1]
        return step_name(step if step in ("hunter", "appoint", "allow") else "prompt", lang)
    return step_name(str(mode), lang)


# --- the frames --------------------------------------------------------------------

def render(view: dict, lang: str | None = None, size: tuple[int, int] = SIZE) -> Image.Image:
    """The display's frame for a public view (mode "1"), from the public
    fields only: phase, timer, the night's call, the roll-call candidate,
    the speaker of a speaking turn [issue 34],
    the last tally (its counts, weighted ballots and extra votes as the
    tally lists them: contract C1), announcements and the winner."""
    lang = _lang(view, lang)
    c = _Canvas(size)
    pace = view.get("pace") or {}
    mode = pace.get("mode") or ("over" if view.get("phase") == "over" else "lobby")
    if view.get("phase") == "over":
        mode = "over"
    c.header(_phase_label(view, lang), "" if mode in ("calls", "over") else _timer(view, lang))
    if mode == "lobby" or not view.get("players"):
        c.text(1, step_name("lobby", lang))
        return c.image
    frame = _FRAMES.get(mode)
    if frame is None or not frame(c, view, lang):
        _day(c, view, lang, mode)
    return c.image


def _night(c: _Canvas, view: dict, lang: str) -> bool:
    """The night: only the call being made."""
    call = (view.get("pace") or {}).get("call")
    if call:
        c.big_text(1, step_name(str(call), lang))
    return True


def _over(c: _Canvas, view: dict, lang: str) -> bool:
    winner = view.get("winner")
    if winner:
        used = c.big_text(1, side_name(str(winner), lang))
        if winner != "draw":
            c.text(1 + used, _word("wins", lang), center=True)
    return True


def _rollcall(c: _Canvas, view: dict, lang: str) -> bool:
    """The roll-call's candidate and its seconds left (else the day's frame)."""
    rollcall = view.get("rollcall")
    if not isinstance(rollcall, dict) or rollcall.get("candidate") is None:
        return False
    ends, now = rollcall.get("ends"), view.get("now")
    left = "" if ends is None or now is None else \
        f"{max(0, math.ceil(float(ends) - float(now) - 1e-6))}s"
    c.text(1, _word("rollcall", lang), right=left)
    c.big_text(2, _name(view, rollcall["candidate"]))
    return True


def _turn(c: _Canvas, view: dict, lang: str) -> bool:
    """Whose turn to speak, or whose defence [issue 34] (else the day's frame)."""
    turns = (view.get("pace") or {}).get("turns")
    if not isinstance(turns, dict) or turns.get("seat") is None:
        return False
    c.text(1, _word("defence" if turns.get("of") == "defence" else "turn", lang))
    c.big_text(2, _name(view, turns["seat"]))
    return True


def _verdict(c: _Canvas, view: dict, lang: str) -> bool:
    """The closed vote: tally, ★×2, its outcome (else the day's frame)."""
    if not view.get("last_tally"):
        return False
    rows = c.h // ROW - 1
    news = announcement_rows(view, lang, c.font, c.w)[-1:]
    closed = _tally_rows(view, c.w, c.font, rows - len(news)) + news
    for i, line in enumerate(closed[:rows]):
        c.text(1 + i, line)
    return True


#: the frames of the pace's modes that draw more than the day's frame
_FRAMES = {"calls": _night, "over": _over, "ballot": _rollcall, "discussion": _turn,
           "verdict": _verdict}


def _day(c: _Canvas, view: dict, lang: str, mode: str) -> None:
    """The day: the step (and the ballot's count), then the last words'
    speaker, the round before's tally or the day's news."""
    pace, vote, tally = view.get("pace") or {}, view.get("vote") or {}, view.get("last_tally")
    rows = c.h // ROW - 1
    counter = ""
    if mode == "ballot" and vote:
        voted = len(vote.get("voted") or [])
        counter = f"{voted}/{voted + len(vote.get('waiting') or [])}"
    c.text(1, _mode_label(view, lang), right=counter)
    body: list[str] = []
    if mode == "last-words" and pace.get("seat") is not None:
        body.append(_name(view, pace["seat"]))
    if tally and mode == "ballot" and (vote.get("round") or 1) > 1:  # the round before
        body += _tally_rows(view, c.w, c.font, rows - 1)
    elif rows - 1 - len(body) > 0:
        body += announcement_rows(view, lang, c.font, c.w)[-(rows - 1 - len(body)):]
    for i, line in enumerate(body[:rows - 1]):
        c.text(2 + i, line)


def qr_matrix(url: str) -> list[list[bool]]:
    """The QR code's modules (no quiet zone). The scheme and host go in
    uppercase alphanumeric mode (they are case-insensitive), the rest as bytes,
    so a hub URL with its token fits version 3 (29 modules: 2 px each on 64)."""
    import qrcode
    from qrcode.util import MODE_8BIT_BYTE, MODE_ALPHA_NUM, QRData

    qr = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_L, border=0)
    scheme, sep, rest = url.partition("://")
    host, slash, path = rest.partition("/")
    head = f"{scheme}{sep}{host}{slash}".upper()
    alnum = set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:")
    if sep and set(head) <= alnum:
        qr.add_data(QRData(head, mode=MODE_ALPHA_NUM))
        if path:
            qr.add_data(QRData(path.encode(), mode=MODE_8BIT_BYTE))
    else:
        qr.add_data(url)
    qr.make(fit=True)
    return [[bool(m) for m in row] for row in qr.get_matrix()]


def render_boot(url: str, lang: str | None = None, size: tuple[int, int] = SIZE) -> Image.Image:
    """The GM's URL as a QR code (dark modules on a lit square with a quiet
    zone of one module, as big as the height allows) and "Scan: game master"."""
    lang = _lang({}, lang)
    c = _Canvas(size)
    matrix = qr_matrix(url)
    n = len(matrix)
    scale = max(1, c.h // (n + 2))
    side = (n + 2) * scale
    top = (c.h - side) // 2
    c.draw.rectangle((0, top, side - 1, top + side - 1), fill=ON)
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                x0, y0 = (x + 1) * scale, top + (y + 1) * scale
                c.draw.rectangle((x0, y0, x0 + scale - 1, y0 + scale - 1), fill=0)
    lines = _word("scan", lang).split("\n")
    room = c.w - side - 4
    y0 = max(0, (c.h - ROW * len(lines)) // 2)
    for i, line in enumerate(lines):
        c.draw.text((side + 4, y0 + i * ROW), _fit(c.font, line, room), font=c.font, fill=ON)
    return c.image
