"""`werewolf serve`: the hub in one process — the Flask app behind the hub's
server (`hub.server`: uvicorn, one asyncio loop, streams that hold no
thread), the table's clock, and the seat boxes and display.

On start it prints the game master's URL, with its token, as text and as a QR
code, using the Pi's LAN address (phones and the GM's tablet cannot reach
"localhost"), flushed at once so scripts reading a pipe see it.
"""

from __future__ import annotations

import os
import secrets
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the seat boxes' wiring; not used yet. firmware/ is mapped onto
    # companion.firmware by setuptools' package-dir, which mypy does not follow
    from .firmware.pinmap import PinMap

TICK_S = 0.25


def default_data_dir() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("werewolf-companion", appauthor=False))


def gm_token(data: Path, given: str | None, new: bool = False) -> str:
    """The GM token: given on the command line, else the one kept in the data
    folder (0600); `new` (serve --new-gm-token) replaces the kept one, which
    ends every paired tablet's session [issue 17]."""
    from .hub.pairing import write_private

    path = data / "gm-token"
    if given:
        return given
    if path.exists() and not new:
        token = path.read_text(encoding="utf-8").strip()
        if token:
            os.chmod(path, 0o600)
            return token
    token = secrets.token_urlsafe(16)
    write_private(path, token + "\n")
    return token


def qr_text(url: str) -> str:
    import io

    import qrcode

    qr = qrcode.QRCode(border=1)
    qr.add_data(url)
    out = io.StringIO()
    qr.print_ascii(out=out, invert=True)
    return out.getvalue()


def run(host: str, port: int, data: Path, token: str | None,
        pinmap: PinMap | None = None, simulate: bool = False, new_token: bool = False,
        speaker: bool = False) -> int:
    """`simulate`: the virtual table even on a Pi (a Pi whose pins, display or
    expanders do not open is otherwise one line and exit 2) [issue 19].
    `new_token`: a new GM token first (serve --new-gm-token) [issue 17]."""
    from .hub import create_app
    from .hub.pairing import GmSeat
    from .hub.server import HubServer
    from .store import Store, StoreError
    from .table import Table

    data = data.absolute()  # the manual, the speech cache: one folder whatever the cwd [issue 41]
    try:
        store = Store(data / "games.sqlite3")  # (a read-only card: one line [issue 41 item 3])
        table = Table(store)
        table.resume()
    except StoreError as err:  # a full card at start: named, not a traceback [issue 17]
        print(f"werewolf serve: {err}", file=sys.stderr, flush=True)
        return 2
    if table.game is not None and table.state is not None:  # a loss is named with its seq
        store.note_resumed(table.game, table.state.acts)
    if store.notice:  # a damaged file was moved aside: where, and what was recovered
        print(store.notice, file=sys.stderr, flush=True)
    try:
        token = gm_token(data, token, new=new_token)
    except OSError as err:
        print(f"werewolf serve: the GM token could not be kept in {data} ({err.strerror}): "
              "make the folder writable, then start again", file=sys.stderr, flush=True)
        store.close()
        return 2
    seat = GmSeat(token, folder=data, clock=table.clock)  # links on the table's clock [issue 30]
    app = create_app(table, seat, config={"SPEAKER": speaker,  # narration on the Pi [issue 20]
                                          "MANUAL_DIR": data / "manual"})  # /help [issue 32]
    if os.environ.get("WEREWOLF_MANUAL_AT_START", "1") != "0":  # (the tests' hubs: on first ask)
        app.extensions["manual"].start()  # built in the background when missing or stale
    try:
        server = HubServer(app, host, port)
    except OSError as err:
        print(f"werewolf serve: cannot listen on {host}:{port}: {err.strerror}", file=sys.stderr)
        return 2

    stop = threading.Event()

    def clock() -> None:
        while not stop.wait(TICK_S):
            try:
                table.tick()
            except Exception as err:  # never let the clock die; the next tick retries
                print(f"werewolf serve: timer: {err}", file=sys.stderr, flush=True)

    threading.Thread(target=clock, name="table-clock", daemon=True).start()

    bound = server.port
    from .address import Address

    def moved(new_base: str) -> None:  # the hotspot came up, a cable was plugged in [issue 31]
        app.config["BASE_URL"] = new_base  # the GM's pairing link, the seats' QR codes
        print(f"Werewolf hub now on {new_base}/  (the network changed)", flush=True)
        print(f"Game master: {new_base}/gm?token={seat.token}", flush=True)
        print(qr_text(f"{new_base}/gm?token={seat.token}"), flush=True)

    address = Address(host, bound, on_change=moved)  # read again every 2 s
    base = address.base
    app.config["BASE_URL"] = base  # what QR codes encode: the IP, not a .local name
    url = f"{base}/gm?token={token}"  # the terminal's only: the display shows pairing links

    def display_url() -> str | None:  # a pairing link while no tablet is paired [issue 17]
        code = seat.display_code()  # the address as it is now: the display asks every frame
        return f"{address.base}/gm/pair/{code}" if code else None

    def rotated(new: str) -> None:
        print(f"Game master token rotated: {address.base}/gm?token={new}", flush=True)

    seat.on_rotate = rotated
    seat.on_pair = lambda n: print(f"Game master tablet paired ({n} paired)", flush=True)
    hardware = None
    if pinmap is not None:
        from .firmware.hardware import TableHardware
        from .firmware.pinmap import PinMapError, check_players
        from .firmware.pins import HardwareUnavailable

        if table.state is not None and table.buttons != "phones":
            try:  # the resumed game votes by button: every player needs a box
                check_players(pinmap, table.state.size)
            except PinMapError as err:
                print(f"werewolf serve: {err}", file=sys.stderr)
                server.close()
                return 2
        try:
            hardware = TableHardware(table, pinmap, display_url, simulate=simulate).start()
        except HardwareUnavailable as err:  # a Pi never fakes its pins silently
            print(f"werewolf serve: {err}", file=sys.stderr)
            server.close()
            return 2
        except Exception as err:  # a pin in use, an expander missing on the bus
            print(f"werewolf serve: seat boxes: {err}", file=sys.stderr)
            server.close()
            return 2
        table.seat_check = lambda players: check_players(pinmap, players)
        app.extensions["hardware"] = hardware
    print(f"Werewolf hub on {base}/  (data: {data})", flush=True)
    print(f"Game master: {url}", flush=True)
    if hardware is not None:
        print(f"Table: {hardware.describe()}", flush=True)
        if hardware.simulated:
            print(f"Virtual table (seat boxes, LEDs, display): {base}/gm/table", flush=True)
    print(f"Manual (offline): {base}/help", flush=True)
    print(qr_text(url), flush=True)
    address.start()

    try:
        server.run(on_signal=table.close_listeners)  # streams end, then the server stops
    finally:
        stop.set()
        address.stop()
        app.extensions["narration"].close()  # nothing more is rendered [issue 42]
        if hardware is not None:
            hardware.close()
        server.close()
        store.close()
        print("werewolf serve: stopped", flush=True)
    return 0
