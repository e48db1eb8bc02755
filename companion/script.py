"""The moderator's script [issue 6] (RULES.md §9): what the game master reads
aloud at each step, and what the table screen shows, in the game's language.

    gm_line(gm_view, "ja", announcements)   # the line for the GM's tablet
    public_line(public_view, "zh_Hant")      # the same, from the public view only
    announcement_text(entry, names, "en")    # one `engine.announcements()` entry
    role_name("seer", "ja")                  # 占い師; side_name, step_name, option_label, ...

Pure functions over the views the hub already builds: no Flask request, no
state. Every sentence is a gettext message (extracted by `tools/i18n.py` into
web/translations/<lang>/LC_MESSAGES/messages.po) and follows the sources'
own wording in Japanese: [002] the Millers Hollow moderator sheet (the night's
calls, "夜が来て、村は眠りにつきます…"), [004] the Japanese standard game's
GM templates ("恐ろしい夜がやってきました…", the dawn, the vote, the execution and
the winners); in Chinese, [003]'s wording ("天黑請閉眼", "先知請睜眼") in
Traditional characters.

A line may hold several sentences, one per line ("\\n"): at the first call of
a night the GM reads the day's outcome, the night-falls line, then the call's
wake line, its follow-ups (cupid's lovers, the piper's charmed) and its sleep
line. Nothing here reads a secret that the table may not hear: the GM's line
names the called role (every role of the ruleset is called, RULES.md §4), the
dead (as announced) and the winners, never a living player's card.
"""

from __future__ import annotations

from functools import cache
from typing import Any

LANGUAGES = ("en", "ja", "zh_Hant")
#: death causes the table is told (engine.rules.PUBLIC_CAUSES)
_PUBLIC_CAUSES = frozenset({"execution", "hunter", "scapegoat", "barber"})


# --- catalogs -------------------------------------------------------------------

@cache
def translations(lang: str) -> Any:
    """The compiled catalog of `lang` (babel.support.Translations); English
    (the msgids themselves) for an unknown language."""
    from babel.support import NullTranslations, Translations

    if lang not in LANGUAGES or lang == "en":
        return NullTranslations()
    from .hub import WEB

    return Translations.load(str(WEB / "translations"), [lang])


def _t(lang: str) -> Any:
    return translations(lang if lang in LANGUAGES else "en")


# --- names ----------------------------------------------------------------------

@cache
def role_names(lang: str) -> dict[str, str]:
    """Every role's name: Millers Hollow's English names; in Japanese the
    seeds' words ([002] for Millers Hollow, [000] for BGA's additions, [004]
    for the standard game); in Chinese [003]'s."""
    T = _t(lang)
    return {
        "villager": T.gettext("Villager"), "werewolf": T.gettext("Werewolf"),
        "seer": T.gettext("Seer"), "witch": T.gettext("Witch"), "hunter": T.gettext("Hunter"),
        "cupid": T.gettext("Cupid"), "little-girl": T.gettext("Little girl"),
        "thief": T.gettext("Thief"), "defender": T.gettext("Defender"),
        "village-idiot": T.gettext("Village idiot"), "elder": T.gettext("Elder"),
        "scapegoat": T.gettext("Scapegoat"), "piper": T.gettext("Piper"),
        "white-werewolf": T.gettext("White werewolf"), "pyromaniac": T.gettext("Pyromaniac"),
        "rumormonger": T.gettext("Rumormonger"), "madman": T.gettext("Madman"),
        "medium": T.gettext("Medium"), "knight": T.gettext("Knight"),
        "freemason": T.gettext("Freemason"), "fox": T.gettext("Fox"),
    }


def role_name(role: str, lang: str) -> str:
    return role_names(lang).get(role, role)


@cache
def side_names(lang: str) -> dict[str, str]:
    """The teams a game can end with (engine winners) and `draw`."""
    T = _t(lang)
    return {
        "village": T.pgettext("side", "Village"),
        "werewolves": T.pgettext("side", "Werewolves"),
        "white-werewolf": T.pgettext("side", "White werewolf"),
        "piper": T.pgettext("side", "Piper"), "fox": T.pgettext("side", "Fox"),
        "lovers": T.pgettext("side", "Lovers"), "draw": T.pgettext("side", "Draw"),
    }


def side_name(side: str, lang: str) -> str:
    return side_names(lang).get(side, side)


@cache
def step_names(lang: str) -> dict[str, str]:
    """Night steps (engine.roles.NIGHT_STEPS), day steps, prompts and the
    hub's pacing modes."""
    T = _t(lang)
    return {
        "thief": T.pgettext("step", "Thief"), "cupid": T.pgettext("step", "Cupid"),
        "defender": T.pgettext("step", "Defender"), "seer": T.pgettext("step", "Seer"),
        "knight": T.pgettext("step", "Knight"), "wolves": T.pgettext("step", "Werewolves"),
        "white-werewolf": T.pgettext("step", "White werewolf"),
        "witch": T.pgettext("step", "Witch"), "piper": T.pgettext("step", "Piper"),
        "pyromaniac": T.pgettext("step", "Pyromaniac"),
        "rumormonger": T.pgettext("step", "Rumormonger"),
        "election": T.pgettext("step", "Sheriff election"),
        "vote": T.pgettext("step", "Vote"), "runoff": T.pgettext("step", "Runoff"),
        "hunter": T.pgettext("step", "Hunter's shot"),
        "appoint": T.pgettext("step", "New sheriff"),
        "allow": T.pgettext("step", "Scapegoat's choice"),
        "discussion": T.pgettext("step", "Discussion"),
        "last-words": T.pgettext("step", "Last words"),
        "calls": T.pgettext("step", "Night"), "ballot": T.pgettext("step", "Vote"),
        "prompt": T.pgettext("step", "Waiting for a choice"),
        "lobby": T.pgettext("step", "Setting up"), "over": T.pgettext("step", "Game over"),
    }


def step_name(step: str, lang: str) -> str:
    return step_names(lang).get(step, step)


@cache
def option_labels(lang: str) -> dict[str, str]:
    """The game options (engine.rulesets.OPTION_VALUES), for the GM's lobby."""
    T = _t(lang)
    return {
        "sheriff": T.pgettext("option", "Sheriff"),
        "seer_sees": T.pgettext("option", "The seer sees"),
        "reveal_on_death": T.pgettext("option", "Cards shown on death"),
        "tie": T.pgettext("option", "Tied vote"),
        "wolves_win": T.pgettext("option", "The werewolves win"),
        "wolf_attack": T.pgettext("option", "Werewolves' attack"),
        "vote_timeout": T.pgettext("option", "Missing vote"),
        "self_vote": T.pgettext("option", "Vote for oneself"),
        "first_night_attack": T.pgettext("option", "Attack on the first night"),
        "witch_self_heal": T.pgettext("option", "The witch may save herself"),
        "discussion_s": T.pgettext("option", "Discussion (seconds)"),
        "night_s": T.pgettext("option", "Night call (seconds)"),
        "extra_discussion_s": T.pgettext("option", "Extra discussion (seconds)"),
        "professions": T.gettext("The Village: professions"),
    }


def option_label(name: str, lang: str) -> str:
    return option_labels(lang).get(name, name)


@cache
def option_helps(lang: str) -> dict[str, str]:
    T = _t(lang)
    return {
        "sheriff": T.gettext("The village elects a sheriff on the first day: his vote counts "
                             "double and he names his successor when he dies."),
        "seer_sees": T.gettext("The seer sees the card itself, or only werewolf or human."),
        "reveal_on_death": T.gettext("A dead player's card is shown to everyone."),
        "tie": T.gettext("What happens when the execution vote is tied."),
        "wolves_win": T.gettext("The werewolves win when every other player is dead, or as "
                                "soon as they are as many as the humans."),
        "wolf_attack": T.gettext("Every werewolf must name the same victim, or the first "
                                 "werewolf's pick is the attack."),
        "vote_timeout": T.gettext("A player who has not voted in time abstains, or his vote "
                                  "goes to his right-hand neighbour."),
        "self_vote": T.gettext("Whether a player may vote for himself."),
        "first_night_attack": T.gettext("Whether the werewolves attack on the first night."),
        "witch_self_heal": T.gettext("Whether the witch may use her healing potion on "
                                     "herself."),
        "discussion_s": T.gettext("How long the day's discussion lasts before the vote."),
        "night_s": T.gettext("The longest a night role has to act."),
        "extra_discussion_s": T.gettext("The discussion before a runoff or a second sheriff "
                                        "vote."),
        "professions": T.gettext("Deal each player a profession and its building, with powers "
                                 "(RULES §8)."),
    }


def option_help(name: str, lang: str) -> str:
    return option_helps(lang).get(name, "")


@cache
def option_value_labels(lang: str) -> dict[str, str]:
    """The values an option may take (booleans as "true"/"false")."""
    T = _t(lang)
    return {
        "true": T.pgettext("option value", "Yes"), "false": T.pgettext("option value", "No"),
        "role": T.pgettext("option value", "The card"),
        "team": T.pgettext("option value", "Werewolf or human"),
        "scapegoat-sheriff-none": T.pgettext(
            "option value", "The scapegoat dies, else the sheriff decides, else nobody"),
        "runoff-once": T.pgettext("option value", "One runoff, then nobody"),
        "none": T.pgettext("option value", "Nobody is executed"),
        "runoff-random": T.pgettext("option value", "Runoffs, then drawn by lot"),
        "runoff-draw": T.pgettext("option value",
                                  "Runoffs; three equal ties at half power play end in a draw"),
        "all-dead": T.pgettext("option value", "When all the others are dead"),
        "parity": T.pgettext("option value", "When as many as the humans"),
        "unanimous": T.pgettext("option value", "All the werewolves must agree"),
        "any-wolf": T.pgettext("option value", "Any werewolf's pick"),
        "right-neighbour": T.pgettext("option value", "Vote for the right-hand neighbour"),
        "abstain": T.pgettext("option value", "Abstain"),
    }


def option_value(name: str, value: object, lang: str) -> str:
    key = str(value).lower() if isinstance(value, bool) else str(value)
    return option_value_labels(lang).get(key, key)


@cache
def power_lines(lang: str) -> dict[str, str]:
    """One line per role for the phone's card (`power`)."""
    T = _t(lang)
    return {
        "villager": T.gettext("No power: find the werewolves and vote them out."),
        "werewolf": T.gettext("Each night, agree with your pack on someone to attack."),
        "seer": T.gettext("Each night, look at one player's card."),
        "witch": T.gettext("One potion to heal the wolves' victim, one to poison: each once "
                           "per game."),
        "hunter": T.gettext("When you die, you shoot someone who dies with you."),
        "cupid": T.gettext("On the first night, make two players lovers."),
        "little-girl": T.gettext("While the wolves choose, you may spy on them — don't get "
                                 "caught."),
        "thief": T.gettext("On the first night, you may take one of the two centre cards."),
        "defender": T.gettext("Each night, protect one player from the wolves (not the same "
                              "twice in a row)."),
        "village-idiot": T.gettext("If the village votes you out, you are revealed and stay, "
                                   "without a vote."),
        "elder": T.gettext("You survive the first wolf attack; if the village kills you, it "
                           "loses its powers."),
        "scapegoat": T.gettext("A tied vote kills you; you then choose who may vote the next "
                               "day."),
        "piper": T.gettext("Each night, charm two players; you win when everyone alive is "
                           "charmed."),
        "white-werewolf": T.gettext("You hunt with the pack, and every other night may devour "
                                    "a werewolf."),
        "pyromaniac": T.gettext("Once a game, burn a house at night."),
        "rumormonger": T.gettext("Each night, start a rumour about a player."),
        "madman": T.gettext("A human on the werewolves' side: help them win."),
        "medium": T.gettext("Each night, learn whether the player executed that day was a "
                            "werewolf."),
        "knight": T.gettext("Each night, guard one player from the wolves."),
        "freemason": T.gettext("You know the other freemason: both of you are human."),
        "fox": T.gettext("The wolves cannot kill you, but the seer's look does. Survive to "
                         "win."),
    }


def power_line(role: str, lang: str) -> str:
    return power_lines(lang).get(role, "")


@cache
def cause_names(lang: str) -> dict[str, str]:
    """Causes of death (the GM's log; the table sees only public ones)."""
    T = _t(lang)
    return {
        "werewolves": T.gettext("killed by the werewolves"), "poison": T.gettext("poisoned"),
        "hunter": T.gettext("shot by the hunter"), "execution": T.gettext("executed"),
        "heartbreak": T.gettext("died of a broken heart"),
        "scapegoat": T.gettext("the scapegoat"),
        "white-werewolf": T.gettext("devoured by the white werewolf"),
        "seer": T.gettext("seen by the seer"),
        "fire": T.gettext("burned in a fire"), "barber": T.gettext("shaved by the barber"),
    }


@cache
def building_names(lang: str) -> dict[str, str]:
    """The Village's buildings by profession id (RULES.md §8 [000]; the pages'
    _names.html holds the same msgids)."""
    T = _t(lang)
    return {
        "steward": T.gettext("Steward's house"), "farmer": T.gettext("Farm"),
        "schoolteacher": T.gettext("School"), "baker": T.gettext("Bakery"),
        "tavern-keeper": T.gettext("Tavern"), "confessor": T.gettext("Church"),
        "barber": T.gettext("Barbershop"), "lord": T.gettext("Manor house"),
        "bonesetter": T.gettext("Shack"), "house": T.gettext("House"),
    }


def cause_name(cause: str, lang: str) -> str:
    return cause_names(lang).get(cause, cause)


# --- sentences ------------------------------------------------------------------

def _person(T: Any, name: str) -> str:
    """A player's name as the GM says it (ja: "○○さん", [004])."""
    return str(T.pgettext("person", "{name}")).format(name=name)


def _join(T: Any, names: list[str]) -> str:
    people = [_person(T, n) for n in names]
    if len(people) < 2:
        return "".join(people)
    return str(T.pgettext("list", ", ")).join(people[:-1]) + T.pgettext("list", " and ") \
        + people[-1]


def _minutes(T: Any, seconds: int) -> str:
    if seconds and seconds % 60 == 0:
        return str(T.gettext("{minutes} minutes")).format(minutes=seconds // 60)
    return str(T.gettext("{seconds} seconds")).format(seconds=seconds)


def _leaves(T: Any, names: list[str]) -> str:
    return str(T.gettext("{names} leave the game and may not take part in the discussion "
                         "any more.") if len(names) > 1 else
               T.gettext("{names} leaves the game and may not take part in the discussion "
                         "any more.")).format(names=_join(T, names))


def _was(T: Any, lang: str, name: str, role: str) -> str:
    return str(T.gettext("{name} was the {role}.")).format(name=_person(T, name),
                                                           role=role_name(role, lang))


def _sentences(lang: str, parts: list[str]) -> str:
    """Sentences side by side: no space between Japanese or Chinese ones."""
    return ("" if lang in ("ja", "zh_Hant") else " ").join(p for p in parts if p)


def announcement_text(a: dict, names: list[str], lang: str,
                      ruleset: str | None = None) -> str:
    """One entry of `engine.announcements()` as the GM says it, [004]'s
    templates: the victims named, their cards only where the entry has them
    (`reveal_on_death`), "no attack last night" for a peaceful dawn. `names`
    are the players by seat (tallies and the sheriff name seats);
    `ruleset="jp-standard"` words a single night death as [004] does ("attacked
    by the werewolves"); elsewhere the cause is not said."""
    T = _t(lang)
    kind = a.get("kind")

    def name_of(seat: object) -> str:
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

    if kind == "dawn":
        deaths = a.get("deaths") or []
        if not deaths:  # a peaceful night may still have had a fire or a poster (§8)
            return _sentences(lang, [str(T.gettext("Last night, there was no werewolf attack.")),
                                     *_village_dawn(T, lang, a, name_of)])
        who = [d["name"] for d in deaths]
        if len(who) == 1 and ruleset == "jp-standard":
            text = T.gettext("Last night, the werewolves attacked {names}.")
        else:
            text = T.gettext("Last night's victims: {names}.") if len(who) > 1 else \
                T.gettext("Last night's victim: {names}.")
        out = [str(text).format(names=_join(T, who)), _leaves(T, who)]
        out += [_was(T, lang, d["name"], d["role"]) for d in deaths if d.get("role")]
        out += _village_dawn(T, lang, a, name_of)
        return _sentences(lang, out)
    if kind == "silence":  # RULES.md §8: the schoolteacher names them aloud
        return str(T.gettext("The schoolteacher silences {names}: they may not vote today.")
                   ).format(names=_join(T, [name_of(s) for s in a.get("targets") or []]))
    if kind == "pardon":
        return str(T.gettext("The lord pardons {name}: nobody is executed today.")
                   ).format(name=_person(T, name_of(a.get("condemned"))))
    if kind == "death":
        name, cause = a["name"], a.get("cause")
        if cause == "execution":
            text = T.gettext("By the vote, {name} is executed.")
        elif cause == "scapegoat":
            text = T.gettext("The vote is tied: the scapegoat, {name}, is executed.")
        elif cause == "hunter":
            text = T.gettext("The hunter shoots {name}.")
        elif cause == "barber":
            text = T.gettext("The barber's razor slips: {name} dies.")
        else:
            text = T.gettext("{name} dies.")
        out = [str(text).format(name=_person(T, name)), _leaves(T, [name])]
        if a.get("role"):
            out.append(_was(T, lang, name, a["role"]))
        return _sentences(lang, out)
    if kind == "no-execution":
        return str(T.gettext("By the vote, nobody is executed today."))
    if kind == "revealed":
        return str(T.gettext("{name} is the village idiot: spared, but may no longer vote.")
                   ).format(name=_person(T, a["name"]))
    if kind == "sheriff":
        how, person = a.get("how"), _person(T, name_of(a.get("seat")))
        text = {
            "elected": T.gettext("{name} is elected sheriff."),
            "drawn": T.gettext("The sheriff vote is tied: {name} is drawn by lot as sheriff."),
            "none": T.gettext("Nobody is elected: there is no sheriff."),
            "appointed": T.gettext("{name} is the new sheriff."),
            "default": T.gettext("No successor was named: {name} becomes the sheriff."),
            "died": T.gettext("Nobody is left to succeed the sheriff: there is no sheriff any "
                              "more."),
        }.get(str(how), T.gettext("{name} is the sheriff."))
        return str(text).format(name=person)
    if kind == "tally":
        counts = a.get("counts") or {}
        if not counts:
            return str(T.gettext("Nobody voted."))
        ranked = sorted(counts.items(), key=lambda kv: (-kv[1], int(kv[0])))
        items = str(T.pgettext("list", ", ")).join(
            str(T.gettext("{name}: {count}")).format(name=_person(T, name_of(int(s))), count=c)
            for s, c in ranked)
        text = T.gettext("Votes for the sheriff: {counts}.") if a.get("step") == "election" \
            else T.gettext("Votes: {counts}.")
        out = [str(text).format(counts=items)]
        if a.get("tie"):
            out.append(str(T.gettext("Tie between {names}.")).format(
                names=_join(T, [name_of(s) for s in a["tie"]])))
        return _sentences(lang, out)
    if kind == "over":
        return _sentences(lang, _over(T, a, names))
    return ""


def _village_dawn(T: Any, lang: str, a: dict, name_of: Any) -> list[str]:
    """A dawn's fires and the night's posted accusation (RULES.md §8 [000])."""
    out = []
    for b in a.get("burned") or []:
        out.append(str(T.gettext("In the night, {name}'s {building} burned down.")).format(
            name=b.get("name", "?"), building=building_names(lang).get(b.get("building"),
                                                                       b.get("building"))))
    if a.get("poster") is not None:
        out.append(str(T.gettext("A poster on the village square accuses {name}.")).format(
            name=_person(T, name_of(a["poster"]))))
    return out


def _over(T: Any, a: dict, names: list[str], wolves_alive: bool | None = None) -> list[str]:
    winner = a.get("winner")
    if winner == "village":
        out = [T.gettext("All the werewolves have been eliminated. The village wins.")]
    elif winner == "werewolves":
        out = [T.gettext("The villagers have all been devoured by the werewolves… "
                         "The werewolves win.")]
    elif winner == "fox":
        out = [T.gettext("The werewolves' winning condition is met, but the fox has "
                         "survived. The fox wins.") if wolves_alive else
               T.gettext("The village's winning condition is met, but the fox has survived. "
                         "The fox wins.")]
    elif winner == "lovers":
        out = [T.gettext("Only the lovers are left alive. The lovers win.")]
    elif winner == "piper":
        out = [T.gettext("Every living player is charmed. The piper wins.")]
    elif winner == "white-werewolf":
        out = [T.gettext("Only the white werewolf is left. The white werewolf wins.")]
    else:
        out = [T.gettext("The game ends in a draw: nobody wins.")]
    winners = [names[s] for s in a.get("winners") or [] if 0 <= s < len(names)]
    if winners:
        out.append(str(T.gettext("Winners: {names}.")).format(names=_join(T, winners)))
    return [str(s) for s in out]


# --- the night ------------------------------------------------------------------

def _night_falls(T: Any, ruleset: str | None, night: int) -> str:
    if ruleset == "jp-standard":  # [004]
        return str(T.gettext("A terrible night has come. Everyone, go to sleep."))
    if night <= 1:  # [002], the first night
        return str(T.gettext("Night falls and the village goes to sleep. Everyone, close your "
                             "eyes."))
    return str(T.gettext("Night has come. The survivors go to sleep."))  # [002] ⑩


def _wake(T: Any, lang: str, call: str, view: dict, night: int) -> str:
    """The call's wake line ([002]; the knight's after [004])."""
    if call == "wolves" and night == 1 and not (view.get("options") or {}).get(
            "first_night_attack", True):
        return str(T.gettext("Werewolves, wake up and recognise each other. There is no attack "
                             "tonight."))
    lines = {
        "thief": T.gettext("Thief, wake up. Look at the two centre cards: you may take one of "
                           "them, and must if both are werewolves."),
        "cupid": T.gettext("Cupid, wake up and point at the two players who will be lovers."),
        "defender": T.gettext("Defender, wake up and choose one player to protect from the "
                              "werewolves' attack tonight."),
        "seer": T.gettext("Seer, wake up and choose the player whose true identity you want "
                          "to see."),
        "knight": T.gettext("Knight, wake up and choose one player to guard from the "
                            "werewolves tonight (not yourself)."),
        "wolves": T.gettext("Werewolves, wake up, recognise each other and choose a new "
                            "victim."),
        "white-werewolf": T.gettext("White werewolf, wake up. You may devour one werewolf."),
        "witch": T.gettext("Witch, wake up. I show you the werewolves' victim. Will you use "
                           "your healing potion or your poison?"),
        "piper": T.gettext("Piper, wake up and charm two players with your bewitching music."),
        "pyromaniac": T.gettext("Pyromaniac, wake up. You may burn one player's building "
                                "tonight, once a game."),
        "rumormonger": T.gettext("Rumormonger, wake up and choose the player your poster "
                                 "accuses."),
    }
    if call in lines:
        return str(lines[call])
    return str(T.gettext("{role}, wake up.")).format(role=step_name(call, lang))


def _after(T: Any, lang: str, call: str) -> list[str]:
    """The sleep line, and the calls [002] makes right after (lovers, charmed)."""
    sleep = {
        "thief": T.gettext("The thief goes back to sleep."),
        "cupid": T.gettext("Cupid goes back to sleep."),
        "defender": T.gettext("The defender goes back to sleep."),
        "seer": T.gettext("The seer goes back to sleep."),
        "knight": T.gettext("The knight goes back to sleep."),
        "wolves": T.gettext("The werewolves go back to sleep."),
        "white-werewolf": T.gettext("The white werewolf goes back to sleep."),
        "witch": T.gettext("The witch goes back to sleep."),
        "piper": T.gettext("The piper goes back to sleep."),
        "pyromaniac": T.gettext("The pyromaniac goes back to sleep."),
        "rumormonger": T.gettext("The rumormonger goes back to sleep."),
    }
    out = [str(sleep[call]) if call in sleep else
           str(T.gettext("{role} goes back to sleep.")).format(role=step_name(call, lang))]
    if call == "cupid":
        out += [T.gettext("Lovers, wake up and recognise each other."),
                T.gettext("The lovers go back to sleep.")]
    elif call == "piper":
        out += [T.gettext("All the charmed players, open your eyes and recognise each other."),
                T.gettext("The charmed players go back to sleep.")]
    return [str(s) for s in out]


# --- the day --------------------------------------------------------------------

def _dawn_opener(T: Any, ruleset: str | None, deaths: bool) -> str:
    if ruleset == "jp-standard":  # [004]
        return str(T.gettext("Everyone, a bright morning has come."))
    if deaths:  # [002] ⑦
        return str(T.gettext("Morning has come. Villagers, wake up and open your eyes, all "
                             "but these…"))
    return str(T.gettext("Morning has come. Villagers, wake up and open your eyes."))


def _ann_lines(T: Any, lang: str, anns: list[dict], names: list[str],
               ruleset: str | None, wolves_alive: bool | None) -> list[str]:
    out = []
    for a in anns:
        if a.get("kind") == "dawn":
            out.append(_dawn_opener(T, ruleset, bool(a.get("deaths"))))
        if a.get("kind") == "over":
            out += _over(T, a, names, wolves_alive)
        else:
            out.append(announcement_text(a, names, lang, ruleset))
    return [s for s in out if s]


def _recent(anns: list[dict]) -> list[dict]:
    """What happened since the last decision: from the last dawn or tally on."""
    for i in range(len(anns) - 1, -1, -1):
        if anns[i].get("kind") in ("dawn", "tally"):
            return anns[i:]
    return anns[-1:]


def _vote_of(view: dict, anns: list[dict], gm: bool) -> tuple[str, int, list[int] | None]:
    """(kind "election" | "vote", round, candidates) of the vote being held or
    discussed: the GM's engine step, or what the public view and the
    announcements show."""
    p = view.get("pending") or {}
    if gm and p.get("kind") in ("vote", "runoff", "election"):
        return ("election" if p["kind"] == "election" else "vote", int(p.get("round") or 1),
                p.get("candidates"))
    vote = view.get("vote")
    if vote:
        return str(vote.get("kind")), int(vote.get("round") or 1), vote.get("candidates")
    n = view.get("n")
    today = [a for a in anns if a.get("time") == f"day {n}"]
    if today and today[-1].get("kind") == "tally" and today[-1].get("tie"):
        last = today[-1]
        return str(last.get("step")), int(last.get("round") or 1) + 1, list(last["tie"])
    elected = any(a.get("kind") == "sheriff" for a in anns)
    if (view.get("options") or {}).get("sheriff") and n == 1 and not elected:
        return "election", 1, None
    return "vote", 1, None


def _vote_lines(T: Any, view: dict, anns: list[dict], names: list[str], mode: str,
                gm: bool, lang: str) -> list[str]:
    kind, round_, candidates = _vote_of(view, anns, gm)
    opts = view.get("options") or {}
    ruleset = view.get("ruleset")
    wolves = _wolves_alive(view)
    n = view.get("n")
    out: list[str] = []
    timer = int(opts.get("discussion_s" if round_ == 1 else "extra_discussion_s") or 0)
    if mode == "discussion" or not timer:  # what the table learns first, then the vote
        today = [a for a in anns if a.get("time") == f"day {n}"]
        dawn = [i for i, a in enumerate(anns) if a.get("kind") == "dawn" and a.get("n") == n]
        if round_ > 1:  # the line names the tied: the tally's counts only when voting now
            recent = _recent(anns)
            out += _ann_lines(T, lang, recent if mode == "ballot" else recent[1:], names,
                              ruleset, wolves)
        elif kind == "vote" and any(a.get("kind") == "sheriff" for a in today):
            out += _ann_lines(T, lang, [a for a in today if a.get("kind") == "sheriff"][-1:],
                              names, ruleset, wolves)
        elif dawn:
            out += _ann_lines(T, lang, anns[dawn[-1]:], names, ruleset, wolves)
    who = _join(T, [names[s] for s in candidates or [] if 0 <= s < len(names)])
    if mode == "discussion":
        village = opts.get("professions") or (view.get("village") or {}).get("professions")
        if kind == "election" and n == 2 and village:
            out.append(T.gettext("Today the farmers stand for sheriff: only a farmer may be "
                                 "elected. Discuss for {time}, then vote."))  # RULES.md §8
        elif kind == "election":
            out.append(T.gettext("Before the vote, the village elects a sheriff, whose vote "
                                 "counts double. Discuss for {time}, then vote.") if round_ == 1
                       else T.gettext("The sheriff vote is tied between {names}. Discuss for "
                                      "{time}, then vote again."))
        elif round_ == 1:  # [004]
            if opts.get("professions") or view.get("village", {}).get("professions"):
                out.append(T.gettext("Before the first ballot, the confessor, the barber, the "
                                     "schoolteacher, the bonesetter and the steward may use "
                                     "their day powers."))  # RULES.md §8 Decision
            out.append(T.gettext("Now discuss for {time} and choose one person you suspect of "
                                 "being a werewolf, to execute."))
        else:
            out.append(T.gettext("The vote is tied between {names}. Discuss for {time} more, "
                                 "then vote again."))
    elif kind == "election":
        out.append(T.gettext("Vote for the sheriff: everyone, point at one player now.")
                   if round_ == 1 else
                   T.gettext("Vote again for the sheriff, among {names}."))
    elif round_ == 1:  # [004]
        out.append(T.gettext("Everyone, end the discussion; no more talking from now on. We "
                             "now vote on whom to execute today."))
    else:
        out.append(T.gettext("Runoff: vote again, for one of {names}."))
    out[-1] = str(out[-1]).format(names=who, time=_minutes(T, timer))
    return [str(s) for s in out]


def _wolves_alive(view: dict) -> bool | None:
    players = view.get("players") or []
    if not players or any(p.get("role") is None for p in players):
        return None
    from .engine import ROLES

    return any(p.get("alive") and p["role"] in ROLES and ROLES[p["role"]].wolf
               for p in players)


def _prompt_lines(T: Any, view: dict, anns: list[dict], names: list[str], gm: bool,
                  lang: str) -> list[str]:
    p = view.get("pending") or {}
    if gm:
        step, actor = p.get("step"), p.get("actor")
        who = names[actor] if isinstance(actor, int) and 0 <= actor < len(names) else None
    else:
        step = str(view.get("step") or "").split(" ")[-1]
        who = _public_actor(view, anns, step)
    out = _ann_lines(T, lang, _recent(anns), names, view.get("ruleset"), None)
    if step == "hunter":  # [002][003]
        text = T.gettext("{name} is the hunter: point at one living player, who dies at "
                         "once.") if who else \
            T.gettext("The hunter points at one living player, who dies at once.")
    elif step == "appoint":
        text = T.gettext("{name}, the sheriff, names a successor before leaving.") if who else \
            T.gettext("The sheriff names a successor before leaving.")
    elif step == "allow":
        text = T.gettext("{name}, the scapegoat, chooses who may vote tomorrow.") if who else \
            T.gettext("The scapegoat chooses who may vote tomorrow.")
    elif step == "pardon":  # RULES.md §8: the lord (the GM's tablet only names him)
        text = T.gettext("{name} is condemned. If the lord wishes, he may pardon this "
                         "execution, once a game.")
        cond = (view.get("village") or {}).get("condemned")
        who = names[cond] if isinstance(cond, int) and 0 <= cond < len(names) else "?"
    elif step == "execution":  # the table: nothing tells whether a lord is deciding
        text = T.gettext("The execution is about to take place.")
    else:
        text = T.gettext("Waiting for {name}.") if who else T.gettext("Waiting for a choice.")
    out.append(str(text).format(name=_person(T, who or "")))
    return out


def _public_actor(view: dict, anns: list[dict], step: str) -> str | None:
    """Who the prompt is for, from what the table knows."""
    deaths = [a for a in anns if a.get("kind") == "death"] + [
        d for a in anns if a.get("kind") == "dawn" for d in a.get("deaths") or []]
    if step == "hunter":
        shown = [a for a in deaths if a.get("role") == "hunter"]
        return str(shown[-1]["name"]) if shown else None
    if step == "allow":
        goats = [a for a in deaths if a.get("cause") == "scapegoat"]
        return str(goats[-1]["name"]) if goats else None
    if step == "appoint":
        seat = view.get("sheriff")
        players = view.get("players") or []
        if isinstance(seat, int) and 0 <= seat < len(players):
            return str(players[seat]["name"])
    return None


def _gm_announcements(view: dict) -> list[dict]:
    """Announcements rebuilt from a GM view when the hub passes none: the
    dawns and the deaths as the table was told them (no tallies: the view
    keeps only the last)."""
    players = view.get("players") or []
    reveal = (view.get("options") or {}).get("reveal_on_death", False)
    n, phase = int(view.get("n") or 0), view.get("phase")
    nights = n if phase in ("day", "over") else n - 1
    out: list[tuple[tuple[int, int, int], dict]] = []
    dawns: dict[int, dict[str, Any]] = {
        k: {"kind": "dawn", "time": f"night {k}", "n": k, "deaths": []}
        for k in range(1, nights + 1)}
    for i, d in enumerate(view.get("deaths") or []):
        seat, cause, time = d["seat"], d.get("cause"), str(d.get("time", ""))
        entry = {"seat": seat, "name": players[seat]["name"] if seat < len(players) else "?",
                 "role": players[seat].get("role") if reveal and seat < len(players) else None,
                 "cause": cause if cause in _PUBLIC_CAUSES else None}
        part, _, num = time.partition(" ")
        k = int(num or 0)
        if part == "night" and cause not in _PUBLIC_CAUSES and k in dawns:
            dawns[k]["deaths"].append(entry)
        else:
            out.append(((k, 0 if part == "night" else 1, i + 1),
                        {"kind": "death", "time": time, **entry}))
    for k, dawn in dawns.items():
        dawn["deaths"].sort(key=lambda e: e["seat"])
        out.append(((k, 0, 0), dawn))
    if view.get("winner") is not None:
        out.append(((n + 1, 0, 0), {"kind": "over", "time": f"{phase} {n}",
                                    "winner": view["winner"],
                                    "winners": list(view.get("winners") or [])}))
    return [a for _, a in sorted(out, key=lambda x: x[0])]


# --- the lines ------------------------------------------------------------------

def _lines(view: dict, anns: list[dict], lang: str, gm: bool) -> list[str]:
    T = _t(lang)
    pace = view.get("pace") or {}
    mode = pace.get("mode") or ""
    players = view.get("players") or []
    names = [str(p.get("name", "?")) for p in players]
    ruleset = view.get("ruleset")
    if view.get("phase") == "lobby" or mode == "lobby" or not players:
        return [str(T.gettext("Deal the cards: each player looks at his own card in secret and "
                              "keeps it hidden.") if gm else
                    T.gettext("Waiting for the game master to start a game."))]
    if mode == "calls":
        night = int(pace.get("night") or view.get("n") or 1)
        call = pace.get("call")
        out: list[str] = []
        if gm and not pace.get("cursor"):
            if night > 1:  # the day's outcome, then night falls ([004])
                day = [a for a in anns if a.get("time") == f"day {night - 1}"]
                out += _ann_lines(T, lang, _recent(day), names, ruleset, None) if day else []
            out.append(_night_falls(T, ruleset, night))
        elif not gm:
            out.append(str(T.gettext("Night {n}")).format(n=night))
        if call is None:
            out.append(str(T.gettext("Dawn is coming.")))  # [004]
        else:
            out.append(_wake(T, lang, str(call), view, night))
            if gm:
                out += _after(T, lang, str(call))
        return out
    if mode in ("discussion", "ballot"):
        return _vote_lines(T, view, anns, names, mode, gm, lang)
    if mode == "prompt":
        return _prompt_lines(T, view, anns, names, gm, lang)
    if mode == "last-words":  # the GM may know the game is over: not said before the words
        out = _ann_lines(T, lang, _recent([a for a in anns if a.get("kind") != "over"]), names,
                         ruleset, None)
        seat = pace.get("seat")
        if isinstance(seat, int) and 0 <= seat < len(names):
            out.append(str(T.gettext("{name}, your last words.")).format(
                name=_person(T, names[seat])))
        else:
            out.append(str(T.gettext("Last words.")))
        return out
    if mode == "verdict":  # the day's result, announced before night falls ([004])
        tallies = [a for a in anns if a.get("kind") == "tally"]
        day = [a for a in anns if tallies and a.get("time") == tallies[-1].get("time")
               and a.get("kind") != "over"]
        return _ann_lines(T, lang, _recent(day), names, ruleset, None) or [
            step_name(str(view.get("step") or mode), lang)]
    if mode == "over" or view.get("phase") == "over":
        over = [a for a in anns if a.get("kind") == "over"]
        if not over and view.get("winner") is not None:
            over = [{"kind": "over", "winner": view["winner"],
                     "winners": view.get("winners") or []}]
        recent = _recent([a for a in anns if a.get("kind") != "over"])
        return _ann_lines(T, lang, recent + over[-1:], names, ruleset, _wolves_alive(view))
    return [step_name(str(view.get("step") or mode), lang)]


def gm_line(view: dict, lang: str, announcements: list[dict] | None = None) -> str:
    """The line the GM reads aloud now, from the GM view (`Table.gm_view`:
    "pace", "pending", "players", "deaths", "options", "ruleset"). Pass the
    game's `engine.announcements(state)` for the full script (tallies, the
    sheriff); without them the dawns and deaths are rebuilt from the view.
    Sentences are separated by newlines."""
    anns = announcements if announcements is not None else _gm_announcements(view)
    return "\n".join(_lines(view, anns, lang, gm=True))


def public_line(view: dict, lang: str) -> str:
    """The table screen's line, from the public view alone (`Table.public`:
    "pace", "announcements", "players", "phase", "n", "step", "vote"...). At
    night it names only the step being called, as the GM says it aloud."""
    return "\n".join(_lines(view, list(view.get("announcements") or []), lang, gm=False))
