"""The `werewolf` command."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys

from .engine import SetupError, recommended_deal
from .engine.professions import PROFESSIONS
from .engine.roles import ROLES
from .engine.rulesets import RULESETS


def _replay(args: argparse.Namespace) -> int:
    from .replay import run_replay

    try:
        if args.file == "-":
            stdin = getattr(sys.stdin, "buffer", None)
            # utf-8-sig: a leading byte order mark, as some editors save it, is skipped
            text = stdin.read().decode("utf-8-sig") if stdin else sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8-sig") as fh:
                text = fh.read()
    except OSError as err:
        return _fail(f"cannot read {args.file}: {err.strerror}")
    except UnicodeDecodeError:
        return _fail(f"{args.file} is not UTF-8 text")
    try:
        doc = json.loads(text, parse_int=_json_int)
    except _LongNumber as err:
        return _fail(str(err))
    except json.JSONDecodeError as err:
        return _fail(f"malformed JSON at line {err.lineno} column {err.colno}: {err.msg}")
    except RecursionError:
        return _fail("malformed JSON: nested too deeply")
    except ValueError as err:  # e.g. an integer past Python's digit limit
        return _fail(f"malformed JSON: {err}")
    out, status = run_replay(doc)
    try:
        print(json.dumps(out, ensure_ascii=False))
    except UnicodeEncodeError:  # a lone surrogate, or a terminal that is not UTF-8
        print(json.dumps(out))
    return status


class _LongNumber(ValueError):
    """A JSON integer longer than Python reads (sys.get_int_max_str_digits)."""


def _json_int(text: str) -> int:
    limit = sys.get_int_max_str_digits()
    digits = len(text.lstrip("-"))
    if limit and digits > limit:
        raise _LongNumber(f"a number in the input has {digits} digits; "
                          f"a number (the seed too) may have at most {limit} digits")
    return int(text)


def _fail(message: str) -> int:
    """A problem before any action: exit 2 with the replay's error object."""
    print(json.dumps({"error": {"index": None, "message": message}}, ensure_ascii=False))
    print(f"werewolf: {message}", file=sys.stderr)
    return 2


def _roles(args: argparse.Namespace) -> int:
    if "villager" in args.add:  # [issue 9]: it used to be dropped without a word
        print("werewolf roles: --add villager changes nothing: each added role takes the "
              "place of a villager card; add a special role, or raise --players",
              file=sys.stderr)
        return 2
    try:
        deal = recommended_deal(args.ruleset, args.players, args.add)
    except SetupError as err:
        print(f"werewolf roles: {err}", file=sys.stderr)
        return 2
    out: dict = {"roles": deal}
    if args.professions:  # The Village: the tokens the `professions` option deals
        from .engine.professions import deal as deal_professions

        tokens = deal_professions(args.players, args.seed)
        out["professions"] = {p: tokens.count(p) for p in PROFESSIONS if p in tokens}
    if args.events:  # New Moon: the event cards, in the order --seed turns them (§10)
        from .engine import event_cards, resolve_options

        try:
            opts = resolve_options(args.ruleset, {"events": args.events})
        except SetupError as err:
            print(f"werewolf roles: {err}", file=sys.stderr)
            return 2
        out["events"] = list(event_cards.deck(opts, args.seed))
    if args.options or args.option:  # the options a game of it plays with [issue 34]
        from .engine import resolve_options
        from .engine.rulesets import option_applies

        try:
            opts = resolve_options(args.ruleset, _options(args.option, "roles"))
        except SetupError as err:
            print(f"werewolf roles: {err}", file=sys.stderr)
            return 2
        out["options"] = {k: v for k, v in opts.items() if option_applies(args.ruleset, k)}
    print(json.dumps(out if len(out) > 1 else deal))
    return 0


def _simulate(args: argparse.Namespace) -> int:
    from . import simulate

    if "villager" in args.add:
        print("werewolf simulate: --add villager changes nothing: each added role takes the "
              "place of a villager card", file=sys.stderr)
        return 2
    if args.games < 1:
        print(f"werewolf simulate: --games must be at least 1, not {args.games}", file=sys.stderr)
        return 2
    try:
        figures = simulate.run(args.ruleset, args.players, args.add, args.games, args.seed,
                               progress=sys.stderr, professions=args.professions,
                               events=args.events, options=_options(args.option, "simulate"))
    except SetupError as err:
        print(f"werewolf simulate: {err}", file=sys.stderr)
        return 2
    print(json.dumps(figures))
    return 0


def _bench(args: argparse.Namespace) -> int:
    if args.what == "presses":
        from .bench import presses

        figures = presses.run(quick=args.quick)
    elif args.what == "narration":  # a narrated game on a real hub [issue 42]
        from .bench import narration

        figures = narration.main(quick=args.quick, lang=args.lang)
    elif args.what == "voice":  # the same lines cut in pieces and whole [issue 42]
        from .bench import narration

        figures = narration.voice(games=1 if args.quick else 2, lines=10 if args.quick else 30)
    elif args.what == "storage":  # the game log's fault matrix [issue 41]
        from .bench import storage

        figures = storage.run(quick=args.quick)
        print(json.dumps(figures))
        return 0 if not figures["failures"] else 1
    else:
        from .bench import engine

        figures = engine.run(args.what, quick=args.quick)
    print(json.dumps(figures))
    return 0


def _pinmap(args: argparse.Namespace):  # a PinMap; PinMapError for a bad one
    """The pin map named by --pinmap, else the default one, checked."""
    # firmware/ is companion.firmware through setuptools' package-dir: mypy does not
    # follow that mapping (`mypy firmware` checks the package itself)
    from .firmware import pinmap

    return pinmap.load(args.pinmap) if args.pinmap else pinmap.default()


def _serve(args: argparse.Namespace) -> int:
    from pathlib import Path

    from . import serve
    from .firmware.pinmap import PinMapError

    try:  # before anything starts: a bad map is one line and exit 2
        pins = _pinmap(args)
    except PinMapError as err:
        print(f"werewolf serve: {err}", file=sys.stderr)
        return 2
    data = Path(args.data) if args.data else serve.default_data_dir()
    return serve.run(args.host, args.port, data, args.gm_token, pinmap=pins,
                     simulate=args.simulate, new_token=args.new_gm_token,
                     speaker=args.speaker)


def _doctor(args: argparse.Namespace) -> int:
    from .firmware import doctor
    from .firmware.pinmap import PinMapError

    try:
        pins = _pinmap(args)
    except PinMapError as err:
        print(f"werewolf doctor: {err}", file=sys.stderr)
        return 2
    status = doctor.run(pins, out=lambda line: print(line, flush=True))
    from pathlib import Path

    from . import serve
    from .speech.narrate import status_lines
    from .store import storage_report

    for line in status_lines():  # never a failure: a narrated game falls back to text
        print(line, flush=True)
    data = Path(args.data) if args.data else serve.default_data_dir()
    from .speech.speaker import doctor_lines

    for line in doctor_lines(data / "speech"):  # aplay, and the hub's last failure [issue 31]
        print(line, flush=True)
    sound, lines = storage_report(data / "games.sqlite3")  # [issue 30 item 1]
    for line in lines:
        print(line, flush=True)
    return status if sound else max(status, 1)


def _narrate(args: argparse.Namespace) -> int:
    import json
    from pathlib import Path

    from . import serve
    from .speech import narrate
    from .speech.engines import SpeechError
    from .table import TableError

    if args.out and args.data:
        print("werewolf narrate: give --data (the hub's folder) or --out, not both",
              file=sys.stderr)
        return 2
    data = Path(args.data) if args.data else serve.default_data_dir()
    out = Path(args.out) if args.out else data / "speech"  # the cache the hub reads
    try:
        if args.timeline:
            from .speech import timeline

            figures = timeline.run(args.ruleset, args.players, args.lang or "en",
                                   args.seed, out, _options(args.option))
        elif args.lang:
            figures = narrate.run(args.lang, out)
        else:  # every language with a voice here: the install's second half [issue 42]
            figures = narrate.run_all(out)
    except SpeechError as err:
        print(f"werewolf narrate: {err}", file=sys.stderr)
        return 2
    except (TableError, SetupError) as err:  # a setup the table or the engine refuses
        print(f"werewolf narrate: {err}", file=sys.stderr)
        return 2
    print(json.dumps(figures, ensure_ascii=False))
    return 0


def _open_store(path):  # type: ignore[no-untyped-def]  # -> Store
    """The game file for a command that reads it: reconciled like a hub's
    start when no hub runs, else as it is, beside the running hub (which
    holds it) [issue 41]; what a start found is said on stderr."""
    from .store import Store, StoreBusy

    if not path.exists():
        raise FileNotFoundError(f"no games in {path.parent} (give the hub's --data folder)")
    try:
        store = Store(path)
    except StoreBusy:
        return Store(path, read_only=True)
    if store.notice:
        print(store.notice, file=sys.stderr, flush=True)
    return store


def _story(args: argparse.Namespace) -> int:
    """`werewolf story GAME_ID` [issue 35]: a finished game's story from the
    hub's data folder, as text (or --json), as the game master reads it."""
    from pathlib import Path

    from . import serve
    from .history import History
    from .store import StoreError
    from .table.errors import TableError
    from .words.story import story_plain

    data = Path(args.data) if args.data else serve.default_data_dir()
    try:
        told = History(_open_store(data / "games.sqlite3")).story(
            args.game, None, args.lang)  # the GM reads it
    except (TableError, FileNotFoundError, StoreError) as err:
        print(f"werewolf story: {err}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(told, ensure_ascii=False, indent=1))
    else:
        print(story_plain(told["told"]), end="")
    return 0


def _season(args: argparse.Namespace) -> int:
    """`werewolf season` [issue 35]: each player's results over a period
    (--from/--to, YYYY-MM-DD), as JSON or --csv, from the hub's data folder."""
    from pathlib import Path

    from . import serve
    from .history import History
    from .store import StoreError
    from .table.errors import TableError

    data = Path(args.data) if args.data else serve.default_data_dir()
    try:
        history = History(_open_store(data / "games.sqlite3"))
        if args.csv:
            print(history.season_csv(args.since, args.until), end="")
        else:
            print(json.dumps(history.season(args.since, args.until), ensure_ascii=False,
                             indent=1))
    except (TableError, FileNotFoundError, StoreError) as err:
        print(f"werewolf season: {err}", file=sys.stderr)
        return 2
    return 0


def _options(pairs: list[str], command: str = "narrate") -> dict:
    """--option KEY=VALUE, the value as JSON (true, 30, "x") or as text."""
    import json

    out: dict = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise SystemExit(f"werewolf {command}: --option takes KEY=VALUE, not {pair!r}")
        try:
            out[key] = json.loads(value)
        except ValueError:
            out[key] = value
    return out


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="werewolf", description="Werewolf table companion.")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("serve", help="run the hub: web pages, JSON API, the game's clock")
    p.add_argument("--host", default="0.0.0.0", help="address to listen on (default 0.0.0.0)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000; 0 picks a free one)")
    p.add_argument("--data", metavar="DIR",
                   help="data folder: the game log and the GM token (default: per-user data)")
    p.add_argument("--gm-token", metavar="T", help="the game master's token (default: a random "
                   "one, kept in the data folder)")
    p.add_argument("--new-gm-token", action="store_true", help="make a new GM token first: "
                   "every paired tablet and pairing link ends (a lost or photographed token)")
    p.add_argument("--pinmap", metavar="FILE", help="the seat boxes' pin map (default: "
                   "hardware/pinmap.toml, 12 seats)")
    p.add_argument("--simulate", action="store_true", help="the virtual table (mock pins, "
                   "dummy display) even on a Raspberry Pi, where pins that do not open are "
                   "otherwise an error")
    p.add_argument("--speaker", action="store_true", help="narrated games also speak on this "
                   "machine's own audio output (ALSA's aplay), not only on the table screen")
    p.set_defaults(run=_serve)

    p = sub.add_parser("doctor", help="check the seat boxes, the display and the I2C bus "
                       "(on a laptop: the pin map, on simulated hardware)")
    p.add_argument("--pinmap", metavar="FILE", help="the seat boxes' pin map (default: "
                   "hardware/pinmap.toml, 12 seats)")
    p.add_argument("--data", metavar="DIR", help="the hub's data folder, whose game file is "
                   "checked (default: per-user data, as serve's)")
    p.set_defaults(run=_doctor)

    p = sub.add_parser("narrate", help="render every fixed line the hub speaks to WAV files; "
                       "prints one JSON object last")
    from .words import LANGUAGES

    p.add_argument("--lang", choices=list(LANGUAGES), help="one language (default: every "
                   "language with a voice here; --timeline: en)")
    p.add_argument("--data", metavar="DIR", help="the hub's data folder (serve --data): the "
                   "WAV files go to its speech/, the cache the hub reads (default: per-user data)")
    p.add_argument("--out", metavar="DIR", help="where the WAV files go instead")
    p.add_argument("--timeline", action="store_true", help="play a whole narrated game on a "
                   "fake clock with the rendered lines' lengths and print its audio timeline "
                   "(lags, late and dropped lines) as JSON")
    p.add_argument("--ruleset", default="millers-hollow", choices=sorted(RULESETS),
                   help="--timeline: the ruleset (default millers-hollow)")
    p.add_argument("--players", type=int, default=8, help="--timeline: players (default 8)")
    p.add_argument("--seed", type=int, default=1, help="--timeline: the game's seed (default 1)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="--timeline: a game option, e.g. professions=true (The Village)")
    p.set_defaults(run=_narrate)

    p = sub.add_parser("story", help="print a game's story: every night's cards and every "
                       "vote, in order, from the hub's data folder")
    p.add_argument("game", type=int, metavar="GAME_ID", help="the game's id (the GM's history)")
    p.add_argument("--lang", choices=list(LANGUAGES), help="the language (default: the game's)")
    p.add_argument("--json", action="store_true", help="the story as data: chapters, entries "
                   "and their sentences")
    p.add_argument("--data", metavar="DIR", help="the hub's data folder (serve --data; "
                   "default: per-user data)")
    p.set_defaults(run=_story)

    p = sub.add_parser("season", help="each player's games and wins (by side, by role) and "
                       "the table's record over a period, from the hub's data folder")
    p.add_argument("--from", dest="since", metavar="YYYY-MM-DD", help="from this day on")
    p.add_argument("--to", dest="until", metavar="YYYY-MM-DD", help="up to this day, included")
    p.add_argument("--csv", action="store_true", help="as CSV: player,group,name,games,wins")
    p.add_argument("--data", metavar="DIR", help="the hub's data folder (serve --data; "
                   "default: per-user data)")
    p.set_defaults(run=_season)

    p = sub.add_parser("replay", help="play a scripted game (docs/replay.md) and print the result")
    p.add_argument("file", help="the scripted game, or - for standard input")
    p.set_defaults(run=_replay)

    p = sub.add_parser("roles", help="print the recommended deal as JSON {role: count}")
    p.add_argument("--ruleset", required=True, choices=sorted(RULESETS))
    p.add_argument("--players", required=True, type=int)
    p.add_argument("--add", action="append", default=[], metavar="ROLE", choices=sorted(ROLES),
                   help="add a special role in place of a villager (repeatable)")
    p.add_argument("--professions", action="store_true",
                   help="also The Village's professions, as the `professions` option deals "
                   "them (one of each building, drifters for the rest; fewer than nine "
                   f"players: a subset drawn from --seed); ids: {', '.join(PROFESSIONS)}; "
                   'prints {"roles": {...}, "professions": {...}}')
    p.add_argument("--seed", type=int, default=0, help="with --professions or --events, the "
                   "game's seed")
    p.add_argument("--events", nargs="+", default=[], metavar="ID",
                   help="New Moon's event cards (RULES.md §10; millers-hollow, bga): prints "
                   '{"roles": {...}, "events": [ids in the order --seed turns them]}')
    p.add_argument("--options", action="store_true",
                   help='also the options a game of this ruleset plays with, as the lobby '
                   'offers them (the preset\'s values, with any --option): prints '
                   '{"roles": {...}, "options": {...}}')
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="an option as a game would set it (implies --options), e.g. "
                   "vote_mode=candidates")
    p.set_defaults(run=_roles)

    p = sub.add_parser(
        "simulate", help="play many random games of a deal; print each side's share of wins",
        description="Play K random games of the recommended deal (each seat picks uniformly "
        "among its legal actions, as `werewolf bench engine` plays), with a progress bar on "
        "standard error, and print one JSON object: each side's share of the wins with its "
        "95 % interval, the mean number of days and games/s. Random play says little about "
        "balance between good players: it is a baseline for players who know nothing, not a "
        "verdict on the deal.")
    p.add_argument("--ruleset", required=True, choices=sorted(RULESETS))
    p.add_argument("--players", required=True, type=int)
    p.add_argument("--add", action="append", default=[], metavar="ROLE", choices=sorted(ROLES),
                   help="add a special role in place of a villager (repeatable)")
    p.add_argument("--games", type=int, default=10_000, metavar="K",
                   help="games to play (default 10000)")
    p.add_argument("--seed", type=int, default=0, help="first seed (default 0): the same "
                   "seed plays the same games")
    p.add_argument("--professions", action="store_true", help="deal The Village's "
                   "professions from each game's seed (the `professions` option)")
    p.add_argument("--events", nargs="+", default=[], metavar="ID",
                   help="New Moon's event cards (the `events` option, RULES.md §10), shuffled "
                   "with each game's seed")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a game option for every game (repeatable), the value as JSON or text, "
                   "e.g. vote_mode=candidates, witch_single_potion=true, turn_s=30")
    p.set_defaults(run=_simulate)

    p = sub.add_parser("bench", help="measure; prints one JSON object of figures")
    p.add_argument("what", choices=["engine", "hub", "presses", "storage", "narration", "voice"])
    p.add_argument("--quick", action="store_true", help="a short run (for smoke tests)")
    p.add_argument("--lang", choices=["ja", "zh_Hant"], help="narration: the game (ja: "
                   "jp-standard 9; zh_Hant: bga 10 with speaking turns; default ja)")
    p.set_defaults(run=_bench)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        status = args.run(args)
        sys.stdout.flush()  # a closed pipe shows here, not at the interpreter's exit
    except BrokenPipeError:
        # the reader went away (`werewolf replay game.json | head`): stop quietly with
        # the status a shell gives a Unix tool killed by SIGPIPE (128 + 13)
        with contextlib.suppress(OSError, ValueError):  # no file descriptor under pytest
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    return status


if __name__ == "__main__":
    sys.exit(main())
