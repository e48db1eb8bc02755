"""The manual [issue 32]: the README as a front page, the rest in docs/ built
with MkDocs, and nothing of the old README lost in the move.

The README and hardware/README.md as they were when the move began (commit
ed54c3e) are kept in tests/docs/before_issue_32/, checked here against their
git blob hashes; every paragraph, list item, table row, code line and heading
of them must still be found in the README or in docs/ (links compared by their
text, as the move rewrote their targets; whitespace and heading levels aside).
"""

from __future__ import annotations

import hashlib
import re
import subprocess
from pathlib import Path

import pytest
from slowness import wait_s

from companion.words import LANGUAGES
from companion.words.names import ROLES, power_line, role_name

ROOT = Path(__file__).resolve().parents[2]
BEFORE = Path(__file__).resolve().parent / "before_issue_32"
#: git's blob hashes of the two files at ed54c3e (`git rev-parse ed54c3e:README.md`)
BLOBS = {"README.md": "e57ba7be3d05d0753d8e512e279481f470b2c1f7",
         "hardware-README.md": "55c4715c0ecef3f401cea2abb53e5e8c01d0ea90"}

#: pieces the move changed on purpose, with why: each must be gone, and is
#: checked against the rest of the old file like any other piece's absence
AMENDED = {
    "| `companion/engine/` | the rules, pure: `rules.py` is the public face":
    "the announcements have their own module, announced.py [issue 45]",
    "| `companion/words/` | the languages (defined once), the catalogs":
    "what each log entry says: entries.py, announce.py over speaker.py [issue 45]",
    "| `companion/cli.py`, `serve.py` | the `werewolf` command; `serve` wires the parts together;"
    " the benches (`bench.py`, `bench_hub.py` with `bench_clients.py` and `bench_hostile.py`,"
    " `bench_presses.py`) | — |": "the benches are the package companion/bench/ [issue 32]",
    "| `companion/bench.py`, `companion/bench_hub.py`, `companion/bench_presses.py` |"
    " `werewolf bench engine`, `werewolf bench hub`, `werewolf bench presses` |":
    "the benches are the package companion/bench/ [issue 32]",
    "`werewolf simulate --ruleset R --players N [--add ROLE]... [--games K] [--seed S]"
    " [--professions]`": "simulate takes --events ID… too [issue 33]",
    "The address is the machine's first non-loopback IPv4 address":
    "a Wi-Fi interface's address comes first, and it is re-read every 2 s [issue 31]",
    "That name is for you, on a laptop (`ssh pi@werewolf.local`). **The QR codes carry":
    "a Wi-Fi interface's address comes first, not the first one found [issue 31]",
    "`sudo tools/pi-check.sh` (root: debootstrap, chroot, binfmt_misc; packages":
    "pi-check uses mmdebstrap, boots a VM and runs a subset of the tests [issue 31]",
    "- **a lost phone is the table's vote**, never the host's alone":
    "the new code opens only with the player's PIN [issue 40]",
    "| `GET /p/<token>` | the seat | the seat's page; the first device to open it":
    "a reissued seat asks for its PIN [issue 40]",
    "- Non-interference, tested: two games that differ only in cards":
    "non-interference is tested over the secrecy census [issue 40]",
    "- **A line is never played late**: when a step ends":
    "a table screen behind catches up on the news it missed [issue 42]",
    "Each run takes 1–2 s here once the lines are rendered.":
    "nothing is rendered under the table's lock any more [issue 42]",
    "Speech is rendered ahead, never in the way of an action: every fixed line":
    "a game's lines are rendered whole from its deal, names inside [issue 42]",
    "- the **table screen speaks** every moderator line in the game's language":
    "no longer the list's last item: captions and readings follow it [issue 42]",
    "| `POST /api/games` | GM | body: the replay format's setup fields":
    "the setup takes `readings` [issue 42]",
    "| `GET /api/speech?after=N`, `GET /api/speech/<game>/<n>.wav`":
    "the timeline gives `news` and `lang`, a WAV not rendered yet is a 503 [issue 42]",
    "`werewolf narrate --lang ja | zh_Hant | en [--data DIR | --out DIR]":
    "--lang is optional: every language with a voice [issue 42]",
    "Renders every fixed line of the narration (RULES.md §9's moderator lines":
    "no sample names: a game's names are rendered from its deal [issue 42]",
    "`tests/web/test_screens_fit.py` walks nine games (8, 12, 18 players; en, ja, zh_Hant) screen":
    "the TV's smallest text is 40 px at 1920×1080, 27 px at 1280×720 [issue 43]",
    "- **`/p/<token>` — a player's phone** (portrait, big tap targets). The card":
    "a tap opens the card as a hold does [issue 43]",
    "- **Every line has its length**: its rendered WAV's (the pieces and the pauses":
    "`pacing.voiced` is `voicing.voiced` now, beside the voice's protocol [issue 45]",
    "- **In a narrated game the clock waits for the voice** [issue 29]: a stage opened":
    "`pacing.voiced` is `voicing.voiced` now [issue 45]",
    "| `companion/table/` | one live game: `table.py` (the lock, commands, the commit)":
    "names `voicing.py` now [issue 45]",
    "| `companion/speech/` | the narration's voices: `engines.py` (one text → WAV":
    "names `listed.py` and `ahead.py` now [issues 42, 45]",
    "| `companion/store/` | the SQLite event log: append + commit, load, migrate (`log.py`);":
    "names the journal, `reconcile.py` and `rewrite.py` now [issues 41, 45]",
}

README_COMMANDS = [
    "python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/werewolf serve",
    "tools/test-deps.sh && python3 -m venv .venv && .venv/bin/pip install -e '.[test]' && "
    ".venv/bin/ruff check . && .venv/bin/mypy && .venv/bin/lint-imports && "
    ".venv/bin/pytest -q -n 2",
]


def _flat(text: str) -> str:
    """Markdown compared by its words: a link by its text, one space for any run
    of whitespace, a table row's cells trimmed, `{#id}` attributes dropped."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)\s]*\)", r"\1", text)
    text = re.sub(r"\s*\{#[\w-]+\}", "", text)
    text = re.sub(r"\s*\|\s*", " | ", text)
    return re.sub(r"\s+", " ", text).strip()


def pieces(markdown: str) -> list[str]:
    """A Markdown file cut into what must survive a move: each heading's text,
    each paragraph, each list item, each table row, each line of code."""
    out: list[str] = []
    para: list[str] = []

    def end() -> None:
        if para:
            out.append(" ".join(para))
            para.clear()

    code = False
    for line in markdown.split("\n"):
        if line.startswith("```"):
            end()
            code = not code
            continue
        if code or line.startswith("    ") and not para:
            if line.strip():
                out.append(line.strip())
            continue
        stripped = line.strip()
        heading = re.match(r"^#+\s+(.*)$", line)
        if heading:
            end()
            out.append(heading.group(1))
        elif not stripped:
            end()
        elif stripped.startswith("|"):
            end()
            if not re.fullmatch(r"[|\s:-]+", stripped):
                out.append(stripped)
        elif re.match(r"^([-*]|\d+\.)\s", stripped) and not line.startswith(" "):
            end()
            para.append(stripped)
        else:
            para.append(stripped)
    end()
    return [p for p in (_flat(p) for p in out) if p]


def _now() -> str:
    files = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    return _flat("\n".join(f.read_text(encoding="utf-8") for f in files))


def _blob(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


@pytest.mark.parametrize("name", sorted(BLOBS))
def test_the_kept_copies_are_the_files_at_the_start(name: str) -> None:
    """[issue 32] the copies are the files of commit ed54c3e, byte for byte."""
    assert _blob((BEFORE / name).read_bytes()) == BLOBS[name]


@pytest.mark.parametrize("name", sorted(BLOBS))
def test_nothing_of_the_old_readme_is_lost(name: str) -> None:
    """[issue 32] "EVERY piece of content ... keeps its content": each piece of
    the old README (and hardware/README.md) is in the README or docs/."""
    now = _now()
    lost = [p for p in pieces((BEFORE / name).read_text(encoding="utf-8"))
            if p not in now and not _amended(p)]
    assert not lost, f"{len(lost)} pieces of {name} are nowhere now, e.g.:\n" + "\n\n".join(
        lost[:5])


def _amended(piece: str) -> bool:
    """A piece changed on purpose since: AMENDED names it by its opening words."""
    return any(piece.startswith(opening) for opening in AMENDED)


def test_the_amended_pieces_were_in_the_old_readme_and_are_gone() -> None:
    """Each exception opens exactly one real piece of the old README (or
    hardware/README.md), one that changed since."""
    old = [p for name in sorted(BLOBS)
           for p in pieces((BEFORE / name).read_text(encoding="utf-8"))]
    now = _now()
    for opening in AMENDED:
        opened = [p for p in old if p.startswith(opening)]
        assert len(opened) == 1 and opened[0] not in now, opening


def test_the_check_sees_a_lost_piece() -> None:
    """The check above can fail: a sentence found nowhere is reported."""
    assert "a sentence that no page holds" not in _now()
    assert pieces("# T\n\nA para\nwrapped.\n\n| a | b |\n|---|---|\n| 1 | [x](y) |\n") == [
        "T", "A para wrapped.", "| a | b |", "| 1 | x |"]


def test_the_readme_is_a_front_page() -> None:
    """[issue 32] at most 200 lines, the two commands first, exactly as before,
    and `.ci/run` runs the second one."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.split("\n")) <= 200
    blocks = re.findall(r"```sh\n(.*?)\n```", readme, re.S)
    assert blocks[:2] == README_COMMANDS
    assert readme.index(README_COMMANDS[1]) < readme.index("![")  # commands before pictures
    assert README_COMMANDS[1] in (ROOT / ".ci/run").read_text(encoding="utf-8")


def _slug(heading: str) -> str:
    """Python-Markdown's toc slug (MkDocs' default), enough for our headings."""
    text = re.sub(r"[^\w\s-]", "", heading.strip().lower())
    return re.sub(r"[\s]+", "-", text)


def test_the_readmes_links_and_pictures_resolve() -> None:
    """[issue 32] "links to repository files must resolve too": every relative
    link and image of the README names a file that exists (and a heading of it)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)\s]+)\)", readme)
    assert any(t.startswith("docs/images/") for t in targets)
    for target in targets:
        if target.startswith(("http://", "https://")):
            continue
        path, _, anchor = target.partition("#")
        assert (ROOT / path).exists(), target
        if anchor:
            headings = re.findall(r"^#+\s+(.*?)(?:\s*\{#([\w-]+)\})?$",
                                  (ROOT / path).read_text(encoding="utf-8"), re.M)
            assert anchor in {i or _slug(h) for h, i in headings}, target


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_players_page_says_what_each_role_does(lang: str) -> None:
    """[issue 32] the Play page for players, in en, ja and zh_Hant, has each
    role's name and the line its held card shows (companion.words.names)."""
    suffix = {"en": "", "ja": ".ja", "zh_Hant": ".zh-Hant"}[lang]
    page = (ROOT / f"docs/play/players{suffix}.md").read_text(encoding="utf-8")
    for role in ROLES:
        assert role_name(role, lang) in page and power_line(role, lang) in page, role


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    """[issue 32] `mkdocs build --strict`: no warning, no broken link or anchor
    (docs/mkdocs.yml's `validation`), the repository's mkdocs.yml as `.ci/run` uses it."""
    done = subprocess.run([str(ROOT / ".venv/bin/mkdocs") if (ROOT / ".venv/bin/mkdocs").exists()
                           else "mkdocs", "build", "--strict", "-q", "-d", str(tmp_path / "site")],
                          cwd=ROOT, capture_output=True, text=True,
                          env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "site/ja/play/players/index.html").is_file()


def test_the_readmes_pictures_are_the_ones_the_command_makes() -> None:
    """[issue 32] the pictures are made by ONE documented command, not by hand:
    each image of the README is in docs/images/, named by tools/make_images.py,
    and the README names that command; the wiring diagram is the generator's."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    maker = (ROOT / "tools/make_images.py").read_text(encoding="utf-8")
    assert ".venv/bin/python tools/make_images.py" in readme
    images = re.findall(r"!\[[^\]]*\]\((docs/images/[^)]+)\)", readme)
    assert len(images) >= 4  # the TV, a phone, the GM's tablet, a seat box
    for image in images:
        assert (ROOT / image).stat().st_size > 1000, image
        assert f'OUT / "{Path(image).name}"' in maker, image
    wiring = (ROOT / "docs/images/wiring.svg").read_bytes()
    assert wiring == (ROOT / "hardware/wiring.svg").read_bytes()


def test_ci_fails_when_the_readmes_test_command_fails(tmp_path: Path) -> None:
    """`.ci/run` under `set -e` ran on past a failing `ruff check` inside the
    README's && chain (set -e ignores a failure that is not the chain's last
    command) and went green on the manual's build: its shell must stop at any
    failure of the README's line. The same script with that line made to fail
    early exits non-zero and never reaches the build."""
    script = (ROOT / ".ci/run").read_text(encoding="utf-8")
    line = README_COMMANDS[1]
    assert f"if ! {{ {line}; }}; then" in script
    failing = script.replace(line, "true && false && true").replace(
        'cd "$(dirname "$0")/.."', "").replace(".venv/bin/mkdocs", "echo built")
    (tmp_path / "run").write_text(failing, encoding="utf-8")
    done = subprocess.run(["bash", str(tmp_path / "run")], capture_output=True, text=True,
                          timeout=wait_s(30))
    assert done.returncode != 0 and "built" not in done.stdout
