"""The hub's address follows the network [issue 31].

`werewolf serve` prints the game master's URL and QR code, the display shows
a pairing code and the GM's tablet a pairing link: all of them hold the
address phones use to reach the hub (`BASE_URL`). That address is read from
the machine's interfaces (`lan_address`). At boot the hub may start before
the Wi-Fi hotspot is up, or a cable is plugged in later: the address it read
first is then wrong, or 127.0.0.1. `Address` reads it again every
`INTERVAL_S` (a local ioctl per interface, nothing sent) and, when it changed,
calls `on_change` with the new base URL: serve sets `BASE_URL` (the pairing
link and the seats' QR codes are made per request from it), prints the new
URL and its QR code, and the display, which asks for its URL at every frame
(once a second), shows the new code.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable
from pathlib import Path

INTERVAL_S = 2.0
#: what serve may listen on to mean "every interface" (its address can move)
ANY = ("0.0.0.0", "", "::")


def lan_address(host: str, wireless: Callable[[str], bool] | None = None) -> str:
    """The address others at the table use to reach this machine: `host` when
    serve listens on one address, else the IPv4 address of an interface (read
    locally, nothing is sent): a Wi-Fi one first, else the first other
    non-loopback one, else 127.0.0.1.

    Wi-Fi first: the phones are on Wi-Fi. A Pi running the hotspot with a cable
    to the house network too is reached by the phones on the hotspot's
    address; a Pi on the house Wi-Fi with a cable too, on its Wi-Fi address,
    the network the phones joined. `wireless(name)`: is that interface Wi-Fi
    (default: it has /sys/class/net/NAME/wireless or phy80211)."""
    if host not in ANY:
        return host
    is_wifi = wireless if wireless is not None else is_wireless
    found = [(name, address) for _, name in socket.if_nameindex()
             if (address := interface_address(name)) and not address.startswith("127.")]
    for name, address in found:
        if is_wifi(name):
            return address
    return found[0][1] if found else "127.0.0.1"


def is_wireless(name: str) -> bool:
    """A Wi-Fi interface (cfg80211 gives it these in sysfs; Linux only)."""
    base = Path("/sys/class/net") / name
    return (base / "wireless").exists() or (base / "phy80211").exists()


def interface_address(name: str) -> str | None:
    try:
        import fcntl
        import struct

        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            packed = struct.pack("256s", name.encode()[:15])
            raw = fcntl.ioctl(s.fileno(), 0x8915, packed)  # SIOCGIFADDR (Linux)
            return socket.inet_ntoa(raw[20:24])
    except (OSError, ImportError):
        return None  # no IPv4 address on it, or not Linux


class Address:
    """The hub's base URL (http://ADDRESS:PORT), read again every `interval`
    seconds in a daemon thread; `on_change(base)` when it moved."""

    def __init__(self, host: str, port: int, *, on_change: Callable[[str], None] | None = None,
                 read: Callable[[str], str] = lan_address,
                 interval: float = INTERVAL_S) -> None:
        self.host, self.port, self.read, self.interval = host, port, read, interval
        self.on_change = on_change
        self._lock = threading.Lock()
        self._base = self._url(read(host))
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _url(self, address: str) -> str:
        return f"http://{address}:{self.port}"

    @property
    def base(self) -> str:
        with self._lock:
            return self._base

    def check(self) -> bool:
        """Read the address now; True (and `on_change`) when it changed."""
        try:
            base = self._url(self.read(self.host))
        except OSError:  # an interface vanished mid-read: the next poll sees it
            return False
        with self._lock:
            if base == self._base:
                return False
            self._base = base
        if self.on_change is not None:
            self.on_change(base)
        return True

    def start(self) -> Address:
        if self.host not in ANY:
            return self  # serve listens on one address: it cannot move
        self._stop.clear()
        self._thread = threading.Thread(target=self._watch, name="hub-address", daemon=True)
        self._thread.start()
        return self

    def _watch(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                self.check()
            except Exception as err:  # never let the watcher die; the next poll retries
                print(f"werewolf serve: address: {err}", flush=True)

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=self.interval + 1)
