"""One live game at the table, in parts with one job each:

- `table`: the lock, the commands and the commit (`Table`, the one path),
  holding `showing` (what it shows and to whom) and `taps` (the taps on its
  time: the GM's clock, a pass, a Ready);
- `pacing`: what is open and until when, a pure function of the state, the
  pace record and the time (`pace`: the record, what the table shows it
  doing, the story's page clock);
- `audiences`: the views per audience, their versions, publishing, streams;
- `setup`: the one parse of a game's setup; `presses`: seat-box votes;
- `errors`: the refusals, with their HTTP statuses.
"""

from .audiences import Listener, StreamCaps
from .errors import BadInput, Denied, NotFound, NotNow, Stale, TableError
from .pacing import Pace, Settings
from .table import Table

__all__ = ["BadInput", "Denied", "Listener", "NotFound", "NotNow", "Pace", "Settings", "Stale",
           "StreamCaps", "Table", "TableError"]
