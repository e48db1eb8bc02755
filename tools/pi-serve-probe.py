"""tools/pi-check.sh's serve probe [issue 19]: start `werewolf serve` as a Pi
user would, time until the hub answers an HTTP request, stop it with SIGTERM
(as systemd does) and print one JSON object: {"serve_ok", "startup_s",
"exit"}. serve_ok: the page answered 200 and serve exited 0 on SIGTERM.
Run with the venv's python from the checkout."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

LIMIT_S = 120.0  # emulated armhf is slow, but not this slow


def main() -> int:
    werewolf = Path(sys.executable).parent / "werewolf"
    data = tempfile.mkdtemp(prefix="werewolf-serve-")
    t0 = time.monotonic()
    proc = subprocess.Popen([str(werewolf), "serve", "--host", "127.0.0.1", "--port", "0",
                             "--data", data], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    assert proc.stdout is not None
    lines: list[str] = []
    found = threading.Event()
    base: list[str] = []

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line.rstrip())
            m = re.search(r"Werewolf hub on (http://\S+?)/ ", line)
            if m and not base:
                base.append(m[1])
                found.set()
        found.set()

    threading.Thread(target=read, daemon=True).start()
    startup = None
    if found.wait(LIMIT_S) and base:
        while time.monotonic() - t0 < LIMIT_S and proc.poll() is None:
            try:
                with urllib.request.urlopen(base[0] + "/", timeout=10) as reply:
                    if reply.status == 200:
                        startup = time.monotonic() - t0
                        break
            except OSError:
                time.sleep(0.05)
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
    try:
        code = proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()
        code = proc.wait()
    print("\n".join(lines[:6]), file=sys.stderr)
    print(json.dumps({"serve_ok": startup is not None and code == 0,
                      "startup_s": None if startup is None else round(startup, 2),
                      "exit": code}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
