"""The manual at /help [issue 32]: docs/ built with MkDocs (Material theme,
mkdocs-static-i18n for the Japanese and Chinese Play pages) into the hub's
data folder, and served from there — no internet at the table.

Where the site comes from (docs/develop/index.md says why): the wheel carries
docs/ as the package `companion.manual` (pages, images, and docs/mkdocs.yml,
the settings); the working tree has docs/ beside companion/. At start
`werewolf serve` builds the site into `DATA/manual/` when it is missing or
stale — its `.stamp` is a hash of every source file and of the MkDocs,
Material and i18n versions — in a child process, on a thread, so the hub
answers at once; /help says "being prepared" (503, Retry-After) until the
site is there. A build is seconds on a laptop, and happens once per install.

The manual never competes with the game for the card [issue 41 item 4]: it
is built into an absolute folder (a relative `--data` once built it into
`d1/d1/`), only when the card keeps the game log's reserve free after it
(`RESERVE`, or three times the game log if that is more), and a build that
comes near the reserve is stopped and removed; /help then says so in one
sentence, with no path (the terminal has the details).

    manual = Manual(data / "manual"); manual.start()    # serve.py
    GET /help          -> /help/, /help/ja/ or /help/zh-Hant/ (the page language)
    GET /help/<path>   -> the built file (a folder: its index.html)
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from importlib import metadata
from pathlib import Path

from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    current_app,
    redirect,
    request,
    send_from_directory,
)
from werkzeug.security import safe_join

from .i18n import page_language

log = logging.getLogger("werewolf.hub")

#: the page language -> the site's folder (mkdocs-static-i18n's locales)
SITE_LANG = {"en": "", "ja": "ja/", "zh_Hant": "zh-Hant/"}
STAMP = ".stamp"
#: where the hub serves the site (its host is any: the hub's address changes)
HELP_URL = "http://werewolf.local/help/"
TOOLS = ("mkdocs", "mkdocs-material", "mkdocs-static-i18n")
MB = 1024 * 1024
#: the room the game log keeps on the card: its file, WAL, journal and a
#: snapshot as big as the file, with an evening's growth (a season of 100
#: games is a 7 MB file) [issue 41]
RESERVE = 32 * MB
#: what a build may take: 7.7 MB measured (2026-12-07), with a margin
SITE_SIZE = 12 * MB
WATCH_S = 0.05  # how often a build's free space is looked at


class NoRoom(RuntimeError):
    """The card cannot take the manual and keep the game log's reserve."""


def reserve_for(folder: Path) -> int:
    """The room kept for the game log beside `folder` (the data folder's
    manual/): RESERVE, or three times the game log's files if that is more."""
    used = sum(p.stat().st_size for p in folder.parent.glob("games.sqlite3*") if p.is_file())
    return max(RESERVE, 3 * used)


def no_room(reserve: int) -> str:
    """/help's one sentence (no path) for a card too full for the manual."""
    return (f"The manual is not built: the card has too little free space (the manual takes "
            f"about {SITE_SIZE // MB} MB and the hub keeps {reserve // MB} MB free for the "
            "games); free some space and it is built at the next visit.")


def run_watched(command: list[str], folder: Path, reserve: int, env: dict | None = None,
                timeout: float = 900) -> tuple[int, str]:
    """Run `command`, stopping it (its whole process group, SIGKILL) the
    moment `folder`'s card has less than `reserve` bytes free: NoRoom.
    Answers its status and the end of what it wrote on stderr."""
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=err,
                                start_new_session=True)
        deadline = time.monotonic() + timeout
        try:
            while proc.poll() is None:
                if shutil.disk_usage(folder).free < reserve:
                    raise NoRoom(no_room(reserve))
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{command[0]} took over {timeout:.0f} s")
                time.sleep(WATCH_S)
        finally:
            if proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):  # (it may just have ended)
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        err.seek(0)
        return proc.returncode, err.read().decode(errors="replace")[-2000:]


def sources(here: Path = Path(__file__).resolve()) -> Path:
    """The manual's sources: docs/ of the working tree (an editable install, a
    clone), else the wheel's copy of docs/, installed as companion/manual/."""
    package = here.parents[1]  # companion/
    tree = package.parent / "docs"
    if (tree / "mkdocs.yml").is_file():
        return tree
    return package / "manual"


def stamp(src: Path) -> str:
    """What the built site depends on: every source file and the tools' versions."""
    digest = hashlib.sha256()
    for tool in TOOLS:
        try:
            digest.update(f"{tool}={metadata.version(tool)}\n".encode())
        except metadata.PackageNotFoundError:
            digest.update(f"{tool}=none\n".encode())
    for path in sorted(p for p in src.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        digest.update(path.relative_to(src).as_posix().encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()


def build(src: Path, out: Path, strict: bool = False, reserve: int | None = None) -> None:
    """Build the site of `src` into `out` (replaced whole, once built), with
    its stamp. A child process: MkDocs' plugins and logging stay out of the
    hub. NoRoom, before anything is written, when the card cannot take it and
    keep `reserve` free (default: `reserve_for`), or as soon as it comes
    near it (the partial site removed)."""
    src, out = src.absolute(), out.absolute()  # a relative --data built d1/d1/ [issue 41]
    out.parent.mkdir(parents=True, exist_ok=True)
    reserve = reserve_for(out) if reserve is None else reserve
    if shutil.disk_usage(out.parent).free - SITE_SIZE < reserve:
        raise NoRoom(no_room(reserve))
    with tempfile.TemporaryDirectory(dir=out.parent, prefix=".manual-") as tmp:
        config = Path(tmp) / "mkdocs.yml"
        site = Path(tmp) / "site"
        # INHERIT: the settings in docs/mkdocs.yml; the child file sits outside docs/
        # (paths as JSON strings, which YAML reads as they are)
        # site_url: the site is served under /help/, so its language switcher's
        # links are /help/ja/..., not /ja/ (404) [issue 44 item 7]
        config.write_text(f"INHERIT: {json.dumps(str(src / 'mkdocs.yml'))}\n"
                          f"docs_dir: {json.dumps(str(src))}\n"
                          f"site_dir: {json.dumps(str(site))}\n"
                          f"site_url: {json.dumps(HELP_URL)}\n", encoding="utf-8")
        env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
        command = [sys.executable, "-m", "mkdocs", "build", "--quiet", "-f", str(config)]
        status, errors = run_watched(command + (["--strict"] if strict else []), out.parent,
                                     reserve, env=env)
        if status != 0:
            raise RuntimeError(f"mkdocs build failed: {errors.strip()}")
        if not (site / "index.html").is_file():
            raise RuntimeError(f"mkdocs built no site in {site}")
        (site / STAMP).write_text(stamp(src), encoding="utf-8")
        old = Path(tmp) / "old"
        if out.exists():
            out.rename(old)
        site.rename(out)


class Manual:
    """The built site in `folder`, built on a thread when missing or stale."""

    def __init__(self, folder: Path, src: Path | None = None) -> None:
        self.folder = Path(folder).absolute()
        self.src = src or sources()
        self._wanted: str | None = None
        self.error: str | None = None
        self.no_room = False  # the last build found the card too full (retried once freed)
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    @property
    def wanted(self) -> str:
        """The stamp the site must have: the sources as they were at the first ask."""
        if self._wanted is None:
            self._wanted = stamp(self.src)
        return self._wanted

    def ready(self) -> bool:
        try:
            return (self.folder / STAMP).read_text(encoding="utf-8") == self.wanted
        except OSError:
            return False

    def start(self) -> None:
        """Build in the background unless the site is up to date (or being built)."""
        with self._lock:
            if self.no_room and self._room():
                self.error, self.no_room = None, False  # space was freed: try again
            if self.ready() or self.error or (self._thread is not None
                                              and self._thread.is_alive()):
                return  # a failed build is not retried on every request: restart the hub
            self._thread = threading.Thread(target=self._build, name="manual", daemon=True)
            self._thread.start()

    def wait(self, timeout: float | None = None) -> bool:
        thread = self._thread
        if thread is not None:
            thread.join(timeout)
        return self.ready()

    def _room(self) -> bool:
        try:
            free = shutil.disk_usage(self.folder.parent).free
        except OSError:
            return False
        return free - SITE_SIZE >= reserve_for(self.folder)

    def _build(self) -> None:
        try:
            build(self.src, self.folder)
            log.info("manual built in %s", self.folder)
        except NoRoom as err:
            self.error, self.no_room = str(err), True
            log.error("manual: %s (in %s)", err, self.folder)
        except Exception as err:  # noqa: BLE001 - the hub goes on without its manual
            self.error = str(err)
            log.error("manual: %s", err)


bp = Blueprint("manual", __name__)


def _manual() -> Manual:
    manual: Manual = current_app.extensions["manual"]
    return manual


@bp.get("/help")
def help_entry() -> Response:
    """The manual in the page's language (`?lang=`, the `lang` cookie, the
    game's, the browser's Accept-Language)."""
    lang = request.args.get("lang", "")
    lang = lang if lang in SITE_LANG else page_language()
    return redirect(f"/help/{SITE_LANG.get(lang, '')}")  # type: ignore[return-value]


@bp.get("/help/")
@bp.get("/help/<path:path>")
def help_file(path: str = "") -> Response | tuple[str, int, dict[str, str]]:
    manual = _manual()
    if not manual.ready():
        manual.start()
        if manual.error:  # one sentence, no path: the terminal has the details [issue 41]
            said = manual.error if manual.no_room else (
                "The manual could not be built on this hub: its terminal says why.")
            return (said, 503, {"Content-Type": "text/plain; charset=utf-8",
                                "Cache-Control": "no-store"})
        return ("<!doctype html><meta charset=utf-8><meta http-equiv=refresh content=5>"
                "<title>Help</title><p>The manual is being prepared (once after an install):"
                " this page reloads by itself.</p>", 503,
                {"Retry-After": "5", "Content-Type": "text/html; charset=utf-8",
                 "Cache-Control": "no-store"})
    if path == "" or path.endswith("/"):
        path += "index.html"
    where = safe_join(str(manual.folder), path)
    if where is None:  # outside the site: as any page it does not have [issue 41 item 7]
        abort(404)
    if os.path.isdir(where):
        return redirect(f"/help/{path}/")  # type: ignore[return-value]
    response = send_from_directory(manual.folder, path, max_age=300)
    return response


def init_app(app: Flask, folder: Path | None = None) -> Manual:
    """The /help routes over `folder` (default: the per-user cache folder)."""
    if folder is None:
        from platformdirs import user_cache_dir

        folder = Path(user_cache_dir("werewolf-companion")) / "manual"
    manual = Manual(folder)
    app.extensions["manual"] = manual
    app.register_blueprint(bp)
    return manual
