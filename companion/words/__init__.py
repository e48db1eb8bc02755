"""The words [issue 15]: the languages (defined once), their catalogs, the
one table of names, the announcements and the moderator's lines.

    from companion.words import LANGUAGES, names_for, gm_line, public_line, role_name

- `catalogs`: `LANGUAGES`, the catalogs (translations/), loading them, and
  the workflow tools/i18n.py runs;
- `names`: the one table of names (roles, teams, sides, causes, professions,
  buildings, wins, steps, powers, the display's words), `names_for(lang)`;
- `options`: the game options' labels, helps and values (the GM's lobby);
- `announce`: what the table is told, `announcement_text`; `event_said` (which
  sentence of a line tells the event card);
- `lines`: what the GM reads aloud and the table screen shows, `gm_line`,
  `public_line`.

The words read the engine (its ids, its rule of which deaths are public) and
nothing above it: no hub, no table, no firmware, no Flask. The engine never
imports the words.
"""

from .announce import announcement_text, event_said
from .catalogs import LANGUAGE_NAMES, LANGUAGES, translations
from .lines import gm_line, gm_parts, line_parts, public_line
from .names import (
    building_names,
    cause_name,
    cause_names,
    names_for,
    power_line,
    power_lines,
    role_name,
    role_names,
    screen_word,
    side_name,
    side_names,
    step_name,
    step_names,
)
from .options import (
    option_help,
    option_helps,
    option_label,
    option_labels,
    option_value,
    option_value_labels,
    option_words,
)

__all__ = [
    "LANGUAGES", "LANGUAGE_NAMES", "announcement_text", "building_names", "cause_name",
    "cause_names", "event_said",
    "gm_line", "gm_parts", "line_parts", "names_for", "option_help", "option_helps", "option_label",
    "option_labels",
    "option_value", "option_value_labels", "option_words", "power_line", "power_lines",
    "public_line",
    "role_name", "role_names", "screen_word", "side_name", "side_names", "step_name",
    "step_names", "translations",
]
