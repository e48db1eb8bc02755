"""The one table of names [issue 15]: roles, teams and sides, causes of
death, professions and their buildings and powers, wins, steps, the cards'
power lines and the small display's screen words, each a msgid once.

    names_for("ja")["roles"]["seer"]   # 占い師: the pages' `#names` JSON, by key
    role_name("seer", "zh_Hant")       # 先知; side_name, step_name, cause_name, ...
    screen_word("night", "ja", n=2)    # 第2夜: the display's own words

Everyone reads names from here: the pages (web/templates/_names.html renders
`names_for(lang)` into each page's `#names` JSON, which the scripts read
through words.js's `pageWords`), the moderator's lines and announcements
(companion/words/lines.py, announce.py) and the display (firmware/display.py).
The ids are the engine's (companion/engine/roles.py ROLES,
professions.py PROFESSIONS, the steps and causes of its events); the words
are the catalogs' (companion/words/translations), which follow the rule
sources' own wording (RULES.md §9: [002] and [004] in Japanese, [003] in
Traditional Chinese).

A name is written `N_("msgid")`, or `P_("context", "msgid")` where the same
English word needs another translation (a side, a step's title, an option):
both return their arguments, and extraction (tools/i18n.py, babel.cfg) knows
them, so every msgid here reaches the catalogs.

Where two audiences say a thing differently, the table keeps both, named for
who reads it: TEAMS are the pages' teams ("White werewolf (alone)"), SIDES
the winners as the GM and the display say them ("White werewolf"); STEPS
the phone's and the table screen's words for a day step ("vote"),
STEP_TITLES a step as a title (the display's big text, the GM's lines:
"Vote", "Werewolves").
"""

from __future__ import annotations

from functools import cache

from ..msgids import N_ as N_  # the markers' home, re-exported for the words
from ..msgids import P_ as P_
from ..msgids import Msg as Msg
from .catalogs import catalog_for

#: every role's card name: Millers Hollow's English names; in Japanese the
#: seeds' words ([002] Millers Hollow, [000] BGA's additions, [004] the
#: standard game); in Chinese [003]'s
ROLES: dict[str, Msg] = {
    "villager": N_("Villager"), "werewolf": N_("Werewolf"), "seer": N_("Seer"),
    "witch": N_("Witch"), "hunter": N_("Hunter"), "cupid": N_("Cupid"),
    "little-girl": N_("Little girl"), "thief": N_("Thief"), "defender": N_("Defender"),
    "village-idiot": N_("Village idiot"), "elder": N_("Elder"), "scapegoat": N_("Scapegoat"),
    "piper": N_("Piper"), "white-werewolf": N_("White werewolf"),
    "pyromaniac": N_("Pyromaniac"), "rumormonger": N_("Rumormonger"), "madman": N_("Madman"),
    "medium": N_("Medium"), "knight": N_("Knight"), "freemason": N_("Freemason"),
    "fox": N_("Fox"),
}

#: the pages' teams (a card's team, the end of the game), and `draw`
TEAMS: dict[str, Msg] = {
    "village": N_("Village"), "werewolves": N_("Werewolves"),
    "white-werewolf": N_("White werewolf (alone)"), "piper": N_("Piper (alone)"),
    "fox": N_("Fox"), "lovers": N_("Lovers"), "draw": N_("Nobody: a draw"),
}

#: the teams a game can end with (the engine's winners) as the GM and the
#: display say them, and `draw`
SIDES: dict[str, Msg] = {
    "village": P_("side", "Village"), "werewolves": P_("side", "Werewolves"),
    "white-werewolf": P_("side", "White werewolf"), "piper": P_("side", "Piper"),
    "fox": P_("side", "Fox"), "lovers": P_("side", "Lovers"), "draw": P_("side", "Draw"),
}

#: causes of death (the GM's log; the table is told only the public ones,
#: companion.engine PUBLIC_CAUSES)
CAUSES: dict[str, Msg] = {
    "werewolves": N_("killed by the werewolves"), "poison": N_("poisoned"),
    "hunter": N_("shot by the hunter"), "execution": N_("executed"),
    "heartbreak": N_("died of a broken heart"), "scapegoat": N_("executed as the scapegoat"),
    "white-werewolf": N_("devoured by the white werewolf"), "seer": N_("killed by the seer's look"),
    "fire": N_("burned in a fire"), "barber": N_("shaved by the barber"),
    "barber-himself": N_("died for shaving no werewolf"),
    "elder": N_("died with the elder"),  # idiot_dies_with_elder (RULES.md §5)
}

#: The Village (RULES.md §8 [000]): the professions (engine professions.py's
#: ids, and `house`, a plain house), their buildings, powers and power states
PROFESSIONS: dict[str, Msg] = {
    "drifter": N_("Drifter"), "steward": N_("Steward"), "farmer": N_("Farmer"),
    "schoolteacher": N_("Schoolteacher"), "baker": N_("Baker"),
    "tavern-keeper": N_("Tavern keeper"), "confessor": N_("Confessor"),
    "barber": N_("Barber"), "lord": N_("Lord"), "bonesetter": N_("Bonesetter"),
    "house": N_("House"),
}
BUILDINGS: dict[str, Msg] = {
    "steward": N_("Steward's house"), "farmer": N_("Farm"), "schoolteacher": N_("School"),
    "baker": N_("Bakery"), "tavern-keeper": N_("Tavern"), "confessor": N_("Church"),
    "barber": N_("Barbershop"), "lord": N_("Manor house"), "bonesetter": N_("Shack"),
    "house": N_("House"),
}
PROF_POWERS: dict[str, Msg] = {
    "drifter": N_("You own no building and have no power."),
    "steward": N_("By day, give an empty building to a drifter."),
    "farmer": N_("On day 2, the sheriff is elected among the farmers."),
    "schoolteacher": N_("Once a day, before the vote, name up to two players: they and you "
                        "cannot vote today."),
    "baker": N_("Each night, a chance to learn one werewolf."),
    "tavern-keeper": N_("You vote first, openly; nobody may vote against you and the wolves "
                        "cannot attack you. If your choice gets the most votes, you lose this "
                        "power."),
    "confessor": N_("Once a game, before the vote, see one player's card."),
    "barber": N_("Once a game, before the vote, shave a player: he dies, and if he is no "
                 "werewolf, you die too."),
    "lord": N_("Once a game, pardon an execution."),
    "bonesetter": N_("Once a game, before the vote, make a used power usable again."),
    "house": N_("No power."),
}
PROF_STATES: dict[str, Msg] = {"usable": N_("usable"), "used": N_("used"), "lost": N_("lost")}

#: the end of a game, as the phone and the table screen announce it
WINS: dict[str, Msg] = {
    "village": N_("The village wins"), "werewolves": N_("The werewolves win"),
    "white-werewolf": N_("The white werewolf wins"), "piper": N_("The piper wins"),
    "fox": N_("The fox wins"), "lovers": N_("The lovers win"),
    "draw": N_("A draw: nobody wins"),
}

#: a step as the pages name it within a sentence: the day's steps (the
#: phone, the table screen, the GM's tablet), and the night's calls, prompts
#: and pacing modes that only the GM's tablet names ("calling the seer")
STEPS: dict[str, Msg] = {
    "vote": N_("vote"), "election": N_("sheriff election"),
    "election runoff": N_("sheriff election, second round"), "runoff": N_("runoff"),
    "candidates": N_("the candidates' vote"),  # vote_mode=candidates' round 2 [issue 34]
    "defence": N_("the candidates' defence"),  # its speaking turns [issue 34]
    "discussion": N_("discussion"), "last words": N_("last words"),
    "hunter": N_("the hunter"), "appoint": N_("the new sheriff"),
    "allow": N_("the scapegoat's choice"), "pyromaniac": N_("the pyromaniac"),
    "rumormonger": N_("the rumormonger"), "execution": N_("execution"),
    "pardon": N_("the lord's pardon"), "verdict": N_("the verdict"),
    "actions": N_("night actions"),
    # the night's steps (engine roles.NIGHT_STEPS), as the GM's tablet calls them
    "thief": N_("the thief"), "cupid": N_("cupid"), "defender": N_("the defender"),
    "seer": N_("the seer"), "knight": N_("the knight"), "wolves": N_("the werewolves"),
    "white-werewolf": N_("the white werewolf"), "witch": N_("the witch"),
    "piper": N_("the piper"), "little-girl": N_("the little girl"),
    # New Moon's event cards' calls (RULES.md §10)
    "first-dead": N_("the first dead"), "ally": N_("the wolves' ally"),
    # the table's pacing modes and the engine's other pending kinds (the GM's tablet)
    "over": N_("game over"), "last-words": N_("last words"), "ballot": N_("ballots"),
    "prompt": N_("waiting for a choice"), "calls": N_("night calls"), "lobby": N_("lobby"),
    "deal": N_("Look at your card"),
}

#: a step as a title: night steps (engine roles.NIGHT_STEPS), day steps,
#: prompts and the table's pacing modes (the display, the GM's lines)
STEP_TITLES: dict[str, Msg] = {
    "thief": P_("step", "Thief"), "cupid": P_("step", "Cupid"),
    "defender": P_("step", "Defender"), "seer": P_("step", "Seer"),
    "knight": P_("step", "Knight"), "wolves": P_("step", "Werewolves"),
    "white-werewolf": P_("step", "White werewolf"), "witch": P_("step", "Witch"),
    "piper": P_("step", "Piper"), "pyromaniac": P_("step", "Pyromaniac"),
    "rumormonger": P_("step", "Rumormonger"), "actions": P_("step", "Night actions"),
    "election": P_("step", "Sheriff election"),
    "vote": P_("step", "Vote"), "runoff": P_("step", "Runoff"),
    "candidates": P_("step", "The candidates' vote"),  # [issue 34]
    "defence": P_("step", "The candidates' defence"),
    "hunter": P_("step", "Hunter's shot"), "appoint": P_("step", "New sheriff"),
    "allow": P_("step", "Scapegoat's choice"), "discussion": P_("step", "Discussion"),
    "last-words": P_("step", "Last words"), "calls": P_("step", "Night"),
    "ballot": P_("step", "Vote"), "prompt": P_("step", "Waiting for a choice"),
    "lobby": P_("step", "Setting up"), "over": P_("step", "Game over"),
    "deal": P_("step", "Look at your card"),
    "first-dead": P_("step", "The first dead"), "ally": P_("step", "The wolves' ally"),
}

#: New Moon's event cards (RULES.md §10, engine event_cards.EVENTS): each
#: card's name; the seed's own card [003] in its words, the house events
#: this project's (their text says so)
EVENTS: dict[str, Msg] = {
    "wolves-ally": P_("event", "The wolves' ally"),
    "quiet-night": P_("event", "Quiet night"),
    "two-executions": P_("event", "Two executions"),
    "one-voice": P_("event", "One voice"),
    "open-ballots": P_("event", "Open ballots"),
    "no-discussion": P_("event", "No discussion"),
}
#: each event card's text, as the table screen, the phones and the GM show it
EVENT_TEXTS: dict[str, Msg] = {
    "wolves-ally": N_("Tonight, before anyone else, the first player to have died names a "
                      "living player. If that player is not a werewolf, he is shown the "
                      "werewolves, keeps his card, and from now on wins only if the "
                      "werewolves win."),
    "quiet-night": N_("House event. Tonight the werewolves do not attack (they are still "
                      "called)."),
    "two-executions": N_("House event. Today the village holds two execution votes, one "
                         "after the other."),
    "one-voice": N_("House event. Today the sheriff's vote counts once."),
    "open-ballots": N_("House event. Today every ballot is shown, with the voter's name, as "
                       "it is cast."),
    "no-discussion": N_("House event. Today the vote opens at dawn, without a discussion."),
}

#: one line per role for the phone's card (its power)
POWERS: dict[str, Msg] = {
    "villager": N_("No power: find the werewolves and vote them out."),
    "werewolf": N_("Each night, agree with your pack on someone to attack."),
    "seer": N_("Each night, look at one player's card."),
    "witch": N_("One potion to heal the wolves' victim, one to poison: each once per game."),
    "hunter": N_("When you die, you shoot someone who dies with you."),
    "cupid": N_("On the first night, make two players lovers."),
    "little-girl": N_("While the wolves choose, you may spy on them — don't get caught."),
    "thief": N_("On the first night, you may take one of the two centre cards."),
    "defender": N_("Each night, protect one player from the wolves (not the same twice in a "
                   "row)."),
    "village-idiot": N_("If the village votes you out, you are revealed and stay, without a "
                        "vote."),
    "elder": N_("You survive the first wolf attack; if the village kills you, it loses its "
                "powers."),
    "scapegoat": N_("A tied vote kills you; you then choose who may vote the next day."),
    "piper": N_("Each night, charm two players; you win when everyone alive is charmed."),
    "white-werewolf": N_("You hunt with the pack, and every other night may devour a "
                         "werewolf."),
    "pyromaniac": N_("Once a game, burn a house at night."),
    "rumormonger": N_("Each night, start a rumour about a player."),
    "madman": N_("A human on the werewolves' side: help them win."),
    "medium": N_("Each night, learn whether the player executed that day was a werewolf."),
    "knight": N_("Each night, guard one player from the wolves."),
    "freemason": N_("You know the other freemason: both of you are human."),
    "fox": N_("The wolves cannot kill you, but the seer's look does. Survive to win."),
}

#: the small display's own short words (firmware/display.py), `{n}` a number
SCREEN: dict[str, Msg] = {
    "night": P_("screen", "Night {n}"), "day": P_("screen", "Day {n}"),
    "lobby": P_("screen", "Lobby"), "paused": P_("screen", "paused"),
    "over": P_("screen", "Game over"), "peaceful": P_("screen", "Nobody died"),
    "no-execution": P_("screen", "No execution"), "wins": P_("screen", "wins"),
    "sheriff": P_("screen", "Sheriff"), "rollcall": P_("screen", "Hands up:"),
    "scan": P_("screen", "Scan:\ngame\nmaster"), "idiot": P_("screen", "spared"),
    # speaking turns, the candidates' vote [issue 34]
    "turn": P_("screen", "Speaking:"), "defence": P_("screen", "Defence:"),
    "candidates": P_("screen", "Candidates"),
}

#: the tables the pages read, by their key in the `#names` JSON (contract C3),
#: and the card's power lines
PAGE_TABLES: dict[str, dict[str, Msg]] = {
    "roles": ROLES, "teams": TEAMS, "causes": CAUSES, "professions": PROFESSIONS,
    "buildings": BUILDINGS, "prof_powers": PROF_POWERS, "prof_states": PROF_STATES,
    "wins": WINS, "steps": STEPS, "powers": POWERS, "events": EVENTS,
    "event_texts": EVENT_TEXTS,
}
#: every table of this module, by name (the tests check each is extracted)
TABLES: dict[str, dict[str, Msg]] = {
    **PAGE_TABLES, "sides": SIDES, "step_titles": STEP_TITLES, "screen": SCREEN,
}


def translate(msg: Msg, lang: str) -> str:
    """One name in `lang` (English, the msgid, for an unknown language)."""
    catalog = catalog_for(lang)
    if isinstance(msg, tuple):
        return str(catalog.pgettext(*msg))
    return str(catalog.gettext(msg))


@cache
def _translated(table: str, lang: str) -> dict[str, str]:
    return {key: translate(msg, lang) for key, msg in TABLES[table].items()}


def names_for(lang: str) -> dict[str, dict[str, str]]:
    """Every table the pages read, translated: {"roles": {"seer": "占い師", ...},
    "teams", "causes", "professions", "buildings", "prof_powers",
    "prof_states", "wins", "steps", "powers"} (contract C3)."""
    return {key: _translated(key, lang) for key in PAGE_TABLES}


def role_names(lang: str) -> dict[str, str]:
    return _translated("roles", lang)


def role_name(role: str, lang: str) -> str:
    return role_names(lang).get(role, role)


def side_names(lang: str) -> dict[str, str]:
    return _translated("sides", lang)


def side_name(side: str, lang: str) -> str:
    return side_names(lang).get(side, side)


def step_names(lang: str) -> dict[str, str]:
    """STEP_TITLES translated."""
    return _translated("step_titles", lang)


def step_name(step: str, lang: str) -> str:
    return step_names(lang).get(step, step)


def power_lines(lang: str) -> dict[str, str]:
    return _translated("powers", lang)


def power_line(role: str, lang: str) -> str:
    return power_lines(lang).get(role, "")


def cause_names(lang: str) -> dict[str, str]:
    return _translated("causes", lang)


def cause_name(cause: str, lang: str) -> str:
    return cause_names(lang).get(cause, cause)


def building_names(lang: str) -> dict[str, str]:
    """The Village's buildings by profession id (RULES.md §8 [000])."""
    return _translated("buildings", lang)


def screen_word(key: str, lang: str, **fields: object) -> str:
    """One of the display's SCREEN words in `lang`, its `{fields}` filled."""
    return _translated("screen", lang)[key].format(**fields)
