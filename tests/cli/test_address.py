"""The hub's address follows the network [issue 31 item 5]: the hub started
before the hotspot (boot order) or a cable plugged in later advertises the new
address within seconds: the printed URL and QR code, the GM's pairing link
(BASE_URL) and the display's code (asked at every frame)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from slowness import wait_s

from companion.address import Address, lan_address

ROOT = Path(__file__).resolve().parents[2]


def test_a_new_address_is_reported_once_and_read_by_base() -> None:
    addresses = iter(["127.0.0.1", "127.0.0.1", "192.168.4.1", "192.168.4.1", "10.0.0.7"])
    seen: list[str] = []
    address = Address("0.0.0.0", 8000, on_change=seen.append, read=lambda host: next(addresses))
    assert address.base == "http://127.0.0.1:8000"
    assert address.check() is False and seen == []
    assert address.check() is True and seen == ["http://192.168.4.1:8000"]
    assert address.base == "http://192.168.4.1:8000"
    assert address.check() is False  # unchanged: said once
    assert address.check() is True and address.base == "http://10.0.0.7:8000"
    assert seen == ["http://192.168.4.1:8000", "http://10.0.0.7:8000"]


def test_an_interface_vanishing_mid_read_changes_nothing() -> None:
    def vanish(host: str) -> str:
        raise OSError(19, "No such device")

    address = Address("0.0.0.0", 80, read=lambda host: "192.168.4.1")
    address.read = vanish
    assert address.check() is False and address.base == "http://192.168.4.1:80"


def test_a_hub_listening_on_one_address_does_not_watch() -> None:
    address = Address("10.1.2.3", 8000).start()
    assert address._thread is None and address.base == "http://10.1.2.3:8000"
    assert lan_address("10.1.2.3") == "10.1.2.3"


def test_the_address_phones_reach_is_the_wifi_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """[issue 31] a Pi with a cable AND the hotspot (or the house Wi-Fi): the
    phones are on Wi-Fi, so the URL holds wlan0's address even though eth0
    comes first; with no Wi-Fi address, the first other one; none: 127.0.0.1."""
    import companion.address as where

    have = {"lo": "127.0.0.1", "eth0": "10.0.2.15", "wlan0": "192.168.4.1"}
    monkeypatch.setattr(where.socket, "if_nameindex",
                        lambda: [(1, "lo"), (2, "eth0"), (3, "wlan0")])
    monkeypatch.setattr(where, "interface_address", lambda name: have.get(name))
    wifi = {"wlan0"}.__contains__
    assert lan_address("0.0.0.0", wireless=wifi) == "192.168.4.1"
    assert lan_address("0.0.0.0", wireless=lambda name: False) == "10.0.2.15"
    del have["wlan0"]  # the hotspot not up yet
    assert lan_address("0.0.0.0", wireless=wifi) == "10.0.2.15"
    del have["eth0"]  # nor a cable
    assert lan_address("::", wireless=wifi) == "127.0.0.1"


def _netns_reason() -> str | None:
    if not shutil.which("unshare") or not shutil.which("ip"):
        return "needs unshare (util-linux) and ip (iproute2)"
    probe = subprocess.run(["unshare", "-rn", "ip", "link", "add", "t0", "type", "veth",
                            "peer", "name", "t1"], capture_output=True, text=True)
    if probe.returncode != 0:
        return ("no unprivileged network namespace with a veth pair here (unshare -rn: "
                f"{(probe.stderr or probe.stdout).strip()[:120]})")
    return None


# Run inside `unshare -rn`: a network namespace with only lo, as a Pi before its
# hotspot is up. The hub starts; then wlan0 gets the hotspot's address.
_IN_NAMESPACE = r"""
import json, os, re, subprocess, sys, tempfile, threading, time, urllib.request
subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
env = {**os.environ, "WEREWOLF_MANUAL_AT_START": "0"}
hub = subprocess.Popen([sys.executable, "-m", "companion.cli", "serve", "--port", "0",
                        "--data", tempfile.mkdtemp(), "--gm-token", "netns-token"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
lines, first, moved, gm = [], threading.Event(), threading.Event(), threading.Event()
def read():
    for line in hub.stdout:
        lines.append(line.rstrip())
        if "Werewolf hub on" in line: first.set()
        if "Game master:" in line and moved.is_set(): gm.set()
        if "Werewolf hub now on" in line: moved.set()
threading.Thread(target=read, daemon=True).start()
out = {}
try:
    assert first.wait(60), lines
    out["first"] = next(l for l in lines if "Werewolf hub on" in l)
    port = int(re.search(r":(\d+)/", out["first"])[1])
    subprocess.run(["ip", "link", "add", "wlan0", "type", "veth", "peer", "name", "wlan0p"],
                   check=True)
    subprocess.run(["ip", "addr", "add", "192.168.4.1/24", "dev", "wlan0"], check=True)
    t0 = time.monotonic()
    out["moved_in_time"] = moved.wait(15)
    out["moved_s"] = round(time.monotonic() - t0, 2)
    gm.wait(10)  # the Game master line printed just after
    at = next((i for i, l in enumerate(lines) if "Werewolf hub now on" in l), len(lines))
    out["moved"] = lines[at:at + 2]
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/gm/pair", data=b"{}",
                                     headers={"Authorization": "Bearer netns-token",
                                              "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as reply:
        out["pairing_url"] = json.load(reply)["url"]
    out["port"] = port
finally:
    hub.terminate()
    hub.wait(20)
print(json.dumps(out))
"""


def test_the_hub_follows_an_address_added_while_it_runs() -> None:
    """A real network namespace (unshare -rn, only lo): the hub starts on
    127.0.0.1; wlan0 then gets 192.168.4.1/24 (the hotspot coming up). Within
    a few seconds (the watcher reads every 2 s) the hub prints the new URL and
    its Game master line, and the GM's pairing link holds the new address."""
    reason = _netns_reason()
    if reason:
        pytest.skip(reason)
    run = subprocess.run(["unshare", "-rn", sys.executable, "-c", _IN_NAMESPACE], cwd=ROOT,
                         capture_output=True, text=True, timeout=wait_s(120))
    assert run.returncode == 0, run.stderr[-2000:]
    out = json.loads(run.stdout.strip().splitlines()[-1])
    port = out["port"]
    assert f"http://127.0.0.1:{port}/" in out["first"]
    assert out["moved_in_time"], out
    assert out["moved_s"] < 6.0, out
    assert out["moved"][0].startswith(f"Werewolf hub now on http://192.168.4.1:{port}/")
    assert f"Game master: http://192.168.4.1:{port}/gm?token=netns-token" in out["moved"]
    assert out["pairing_url"].startswith(f"http://192.168.4.1:{port}/gm/pair/")
