"""Speech [issue 20]: the hub narrates, offline, in Japanese, Mandarin and English.

- `engines`: one small interface, text and language → WAV bytes, and which
  engine this machine has for each language (`engine_for`, `missing`);
- `cache`: each text rendered once per language and voice, in the data folder;
- `lines`: which texts are spoken (from companion/words and the public view
  alone, said well: a tally's top candidates only), cut around the players'
  names (a Japanese name with its さん: `name_pieces`, rendered when a game is
  dealt);
- `narration`: `Narration`, the table's voice: one way in (`became_public`,
  each public view the table is about to publish), one way out (its
  timeline of utterances: the TV's, the Pi's speaker's, `--timeline`'s);
- `timeline`: `werewolf narrate --timeline`, a whole game on a fake clock;
- `speaker`: the Pi's own speaker (`werewolf serve --speaker`);
- `narrate`: `werewolf narrate` and `werewolf doctor`'s speech lines.

Narration lives here alone [issue 45]. It sits above the table and below
the hub: it reads the engine's ids, the words' lines and the table's public
view, never the hub or a secret; the table knows it only through
companion/table/voicing.py's protocols (the import contracts' layers).
"""

from .cache import Cache, NotRendered
from .engines import Engine, SpeechError, engine_for, missing, wav_seconds
from .lines import call_lines, clips, spoken
from .listed import fixed_lines, name_pieces

__all__ = ["Cache", "Engine", "NotRendered", "SpeechError", "call_lines", "clips", "engine_for",
           "fixed_lines", "missing", "name_pieces", "spoken", "wav_seconds"]
