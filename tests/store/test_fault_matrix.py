"""The fault matrix, its quick slice [issue 41]: a writer process on a real
SQLite file killed with SIGKILL at points of a commit (after the journal's
fsync, after the WAL's commit, after the snapshot's rename), then one or two
of the three copies damaged in each of their ways (every damage alone, and
the journal with the game file), and the store opened again: 0 acknowledged
changes lost wherever a copy still holds them, and every loss named.

The whole matrix (every kill point at several passes, every pair of
damages: 2,001 cases, about a minute here) is `werewolf bench storage`
(docs/performance/index.md); this slice is 117 of its cases, in seconds.
"""

from __future__ import annotations

import json

from companion.cli import main


def test_the_quick_slice_of_the_fault_matrix_loses_nothing_held_and_names_every_loss(
        capsys) -> None:
    status = main(["bench", "storage", "--quick"])
    figures = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert figures["failures"] == [] and status == 0, figures["failures"]
    assert figures["cases"] == 117 and figures["kills"] == 3
    assert figures["lost_unnamed"] == figures["lost_though_held"] == 0
    assert figures["wrong"] == figures["errors"] == 0
    # the slice reaches both sides: losses no copy could help (named) and
    # damage that lost nothing
    assert figures["lost_named"] > 0 and figures["kept"] > 0
