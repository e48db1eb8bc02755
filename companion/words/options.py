"""The game options' words for the GM's lobby: each option's label and help,
and the values an option may take (engine.rulesets.OPTION_VALUES' ids).

    option_label("sheriff", "ja")          # 保安官
    option_value("tie", "runoff-once", "en")

Msgids once, written as in companion/words/names.py (`N_`, `P_`).
"""

from __future__ import annotations

from functools import cache

from .names import N_, P_, Msg, translate

LABELS: dict[str, Msg] = {
    "sheriff": P_("option", "Sheriff"),
    "seer_sees": P_("option", "The seer sees"),
    "reveal_on_death": P_("option", "Cards shown on death"),
    "tie": P_("option", "Tied vote"),
    "wolves_win": P_("option", "The werewolves win"),
    "wolf_attack": P_("option", "Werewolves' attack"),
    "vote_timeout": P_("option", "Missing vote"),
    "self_vote": P_("option", "Vote for oneself"),
    "first_night_attack": P_("option", "Attack on the first night"),
    "witch_self_heal": P_("option", "The witch may save herself"),
    "discussion_s": P_("option", "Discussion (seconds)"),
    "night_s": P_("option", "A role's call (seconds)"),
    "pack_s": P_("option", "The werewolves' call (seconds)"),
    "secret_deck": P_("option", "Secret deck"),
    "extra_discussion_s": P_("option", "Extra discussion (seconds)"),
    "professions": N_("The Village: professions"),
    "idiot_dies_with_elder": P_("option", "The idiot dies with the elder"),
    "ghosts": P_("option", "Ghosts: the dead read the story"),  # [issue 35]
    # [issue 34]
    "witch_single_potion": P_("option", "The witch has one potion"),
    "announce_potions": P_("option", "Potions announced at dawn"),
    "election": P_("option", "Sheriff election"),
    "discussion_turns": P_("option", "Speaking in turns"),
    "vote_mode": P_("option", "Execution vote"),
    "turn_s": P_("option", "A speaking turn (seconds)"),
    "ready_ends_night": P_("option", "Night 1 ends when all are ready"),
}

HELPS: dict[str, Msg] = {
    "sheriff": N_("The village elects a sheriff on the first day: his vote counts double and "
                  "he names his successor when he dies."),
    "seer_sees": N_("The seer sees the card itself, or only werewolf or human."),
    "reveal_on_death": N_("A dead player's card is shown to everyone."),
    "tie": N_("What happens when the execution vote is tied."),
    "wolves_win": N_("The werewolves win when every other player is dead, or as soon as they "
                     "are as many as the humans."),
    "wolf_attack": N_("Every werewolf must name the same victim, or the first werewolf's pick "
                      "is the attack."),
    "vote_timeout": N_("A player who has not voted in time abstains, or his vote goes to his "
                       "right-hand neighbour."),
    "self_vote": N_("Whether a player may vote for himself."),
    "first_night_attack": N_("Whether the werewolves attack on the first night."),
    "witch_self_heal": N_("Whether the witch may use her healing potion on herself."),
    "discussion_s": N_("How long the day's discussion lasts before the vote."),
    "night_s": N_("Each role's call at night lasts exactly this long, answered or not, so "
                  "nobody learns who acted (jp-standard: the whole night, every role at once)."),
    "pack_s": N_("The werewolves' call lasts exactly this long: time to agree on a victim."),
    "secret_deck": N_("Keep the game's cards secret: every card of the ruleset is called each "
                      "night and the deck is shown nowhere."),
    "extra_discussion_s": N_("The discussion before a runoff or a second sheriff vote."),
    "professions": N_("Deal each player a profession and its building, with powers "
                      "(RULES §8)."),
    "idiot_dies_with_elder": N_("When the village kills the elder (poison, the hunter's shot, "
                                "an execution), a village idiot already revealed dies with "
                                "him."),
    "ghosts": N_("A dead player's phone shows the whole game so far, every card. The dead "
                 "must stay silent until the game is over."),  # [issue 35]
    # [issue 34], each from its seed (RULES.md §2)
    "witch_single_potion": N_("The witch has one potion for the whole game: to heal or to "
                              "poison ([003] house rule)."),
    "announce_potions": N_("The morning tells the table that the witch used her healing "
                           "potion or her poison ([000])."),
    "election": N_("Whether day 1's sheriff is elected before or after the day's discussion "
                   "([003]); always before the first execution vote."),
    "discussion_turns": N_("Each living player speaks in turn, clockwise from the left of the "
                           "night's victim, the others silent ([003] variant); the GM may skip "
                           "a turn, a player may pass."),
    "vote_mode": N_("Plurality, or the two most voted become candidates, defend themselves "
                    "in turn, and only the others vote between them ([003] variant)."),
    "turn_s": N_("How long each speaking turn and each candidate's defence lasts."),
    "ready_ends_night": N_("The first night ends as soon as every living player has tapped "
                           "Ready on his phone (and the seer has acted) ([004])."),
}

#: the values an option may take (booleans as "true"/"false")
VALUES: dict[str, Msg] = {
    "true": P_("option value", "Yes"), "false": P_("option value", "No"),
    "role": P_("option value", "The card"),
    "team": P_("option value", "Werewolf or human"),
    "scapegoat-sheriff-none": P_("option value",
                                 "The scapegoat dies, else the sheriff decides, else nobody"),
    "runoff-once": P_("option value", "One runoff, then nobody"),
    "none": P_("option value", "Nobody is executed"),
    "runoff-random": P_("option value", "Runoffs, then drawn by lot"),
    "runoff-draw": P_("option value",
                      "Runoffs; three equal ties at half power play end in a draw"),
    "all-dead": P_("option value", "When all the others are dead"),
    "parity": P_("option value", "When as many as the humans"),
    "unanimous": P_("option value", "All the werewolves must agree"),
    "any-wolf": P_("option value", "Any werewolf's pick"),
    "right-neighbour": P_("option value", "Vote for the right-hand neighbour"),
    "abstain": P_("option value", "Abstain"),
    "before-discussion": P_("option value", "Before the discussion"),
    "after-discussion": P_("option value", "After the discussion"),
    "plurality": P_("option value", "Most votes is executed"),
    "candidates": P_("option value", "Two candidates, then the others vote"),
}

TABLES: dict[str, dict[str, Msg]] = {"labels": LABELS, "helps": HELPS, "values": VALUES}


@cache
def _translated(table: str, lang: str) -> dict[str, str]:
    return {key: translate(msg, lang) for key, msg in TABLES[table].items()}


def option_labels(lang: str) -> dict[str, str]:
    return _translated("labels", lang)


def option_label(name: str, lang: str) -> str:
    return option_labels(lang).get(name, name)


def option_helps(lang: str) -> dict[str, str]:
    return _translated("helps", lang)


def option_help(name: str, lang: str) -> str:
    return option_helps(lang).get(name, "")


def option_value_labels(lang: str) -> dict[str, str]:
    return _translated("values", lang)


def option_value(name: str, value: object, lang: str) -> str:
    """The label of an option's value (`name` kept for the callers: the
    values' ids are unique across options)."""
    key = str(value).lower() if isinstance(value, bool) else str(value)
    return option_value_labels(lang).get(key, key)
