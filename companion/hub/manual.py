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

    manual = Manual(data / "manual"); manual.start()    # serve.py
    GET /help          -> /help/, /help/ja/ or /help/zh-Hant/ (the page language)
    GET /help/<path>   -> the built file (a folder: its index.html)
"""

from __future__ import annotations

import hashlib
import logging
import os
import subprocess
import sys
import tempfile
import threading
from importlib import metadata
from pathlib import Path

from flask import Blueprint, Flask, Response, current_app, redirect, request, send_from_directory

from .i18n import page_language

log = logging.getLogger("werewolf.hub")

#: the page language -> the site's folder (mkdocs-static-i18n's locales)
SITE_LANG = {"en": "", "ja": "ja/", "zh_Hant": "zh-Hant/"}
STAMP = ".stamp"
TOOLS = ("mkdocs", "mkdocs-material", "mkdocs-static-i18n")


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


def build(src: Path, out: Path, strict: bool = False) -> None:
    """Build the site of `src` into `out` (replaced whole, once built), with
    its stamp. A child process: MkDocs' plugins and logging stay out of the hub."""
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=out.parent, prefix=".manual-") as tmp:
        config = Path(tmp) / "mkdocs.yml"
        site = Path(tmp) / "site"
        # INHERIT: the settings in docs/mkdocs.yml; the child file sits outside docs/
        config.write_text(f"INHERIT: {src / 'mkdocs.yml'}\ndocs_dir: {src}\n"
                          f"site_dir: {site}\n", encoding="utf-8")
        env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
        command = [sys.executable, "-m", "mkdocs", "build", "--quiet", "-f", str(config)]
        done = subprocess.run(command + (["--strict"] if strict else []), env=env,
                              capture_output=True, text=True, timeout=900)
        if done.returncode != 0:
            raise RuntimeError(f"mkdocs build failed: {done.stderr.strip()[-2000:]}")
        (site / STAMP).write_text(stamp(src), encoding="utf-8")
        old = Path(tmp) / "old"
        if out.exists():
            out.rename(old)
        site.rename(out)


class Manual:
    """The built site in `folder`, built on a thread when missing or stale."""

    def __init__(self, folder: Path, src: Path | None = None) -> None:
        self.folder = folder
        self.src = src or sources()
        self._wanted: str | None = None
        self.error: str | None = None
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

    def _build(self) -> None:
        try:
            build(self.src, self.folder)
            log.info("manual built in %s", self.folder)
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
        if manual.error:
            return (f"The manual could not be built: {manual.error}", 500,
                    {"Content-Type": "text/plain; charset=utf-8"})
        return ("<!doctype html><meta charset=utf-8><meta http-equiv=refresh content=5>"
                "<title>Help</title><p>The manual is being prepared (once after an install):"
                " this page reloads by itself.</p>", 503,
                {"Retry-After": "5", "Content-Type": "text/html; charset=utf-8"})
    if path == "" or path.endswith("/"):
        path += "index.html"
    elif (manual.folder / path).is_dir():
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
