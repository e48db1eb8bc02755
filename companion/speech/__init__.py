"""Speech [issue 20]: the hub narrates, offline, in Japanese, Mandarin and English.

- `engines`: one small interface, text and language → WAV bytes, and which
  engine this machine has for each language (`engine_for`, `missing`);
- `cache`: each text rendered once per language and voice, in the data folder;
- `lines`: which texts are spoken (from companion/words and the public view
  alone, said well: a tally's top candidates only), cut around the players'
  names (a Japanese name with its さん: `name_pieces`, rendered when a game is
  dealt);
- `narrate`: `werewolf narrate` and `werewolf doctor`'s speech lines.

It sits above the words and below the table: it reads the engine's ids and
the words' lines, never a table, the hub or a secret.
"""

from .cache import Cache, NotRendered
from .engines import Engine, SpeechError, engine_for, missing, wav_seconds
from .lines import call_lines, clips, spoken
from .listed import fixed_lines, name_pieces

__all__ = ["Cache", "Engine", "NotRendered", "SpeechError", "call_lines", "clips", "engine_for",
           "fixed_lines", "missing", "name_pieces", "spoken", "wav_seconds"]
