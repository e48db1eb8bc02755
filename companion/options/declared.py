"""Every game option, declared once [issue 45]: one row each, in the order
the GM's lobby shows them. From these rows the engine checks and reads a
game's options (engine/rulesets.py: the presets, OPTION_VALUES,
OPTION_CONCERNS, LEGACY_OPTIONS), the lobby draws its controls and their
words (hub/i18n.py, web/templates/gm.html), companion/words/options.py
translates the msgids, and docs/rules.md's option tables are written
(tools/option_table.py; tests/docs/test_option_table.py keeps them equal).

Adding an option: one row here (its msgids then go to the catalogs with
tools/i18n.py) and the rule that reads it (`ROW.of(state.opts)`).

Each row: the name, its value in each preset (`every`, `presets(mh, bga,
jp)`), its words (label and help, as msgids), its meaning in the manual
(per value for a choice), the manual's section it belongs to and the seed's
line ("house": the project's own, no source's), and what
it concerns or a stored game without it means (`legacy`)."""

from __future__ import annotations

from ..msgids import N_, P_
from .kinds import Choice, Concerns, Option, choice, every, flag, presets, seconds

_WITCH = Concerns(roles=frozenset({"witch"}))
_VOTE = "#74-the-execution-vote"
_TURNS = "#77-speaking-turns-and-the-candidates-vote"
_NIGHT = "#5-night-order"

SHERIFF = flag(
    "sheriff", presets(True, True, False), P_("option", "Sheriff"),
    N_("The village elects a sheriff on the first day: his vote counts double and he names "
       "his successor when he dies."),
    "Elect a sheriff (captain) on day 1. His vote counts double ([§7.3](#73-the-sheriff)).",
    section="#73-the-sheriff", seed="[002][003]")
SEER_SEES = choice(
    "seer_sees", presets("role", "role", "team"), P_("option", "The seer sees"),
    N_("The seer sees the card itself, or only werewolf or human."), (
        Choice("role", P_("option value", "The card"),
               "The seer learns the inspected player's card [000][003]."),
        Choice("team", P_("option value", "Werewolf or human"),
               "The seer learns only \"wolf\" or \"human\" [003 variant][004]. The madman and "
               "the fox read as human.")),
    section="#seer", seed="[003 variant][004]", concerns=Concerns(roles=frozenset({"seer"})))
REVEAL_ON_DEATH = flag(
    "reveal_on_death", presets(True, True, False), P_("option", "Cards shown on death"),
    N_("A dead player's card is shown to everyone."),
    "Show a dead player's card to the table. With `false` the card stays hidden "
    "[003 variant][004].",
    section="#9-public-information", seed="[003 variant][004]")
TIE = choice(
    "tie", presets("scapegoat-sheriff-none", "runoff-once", "runoff-draw"),
    P_("option", "Tied vote"), N_("What happens when the execution vote is tied."), (
        Choice("scapegoat-sheriff-none",
               P_("option value", "The scapegoat dies, else the sheriff decides, else nobody"),
               "On a tie the scapegoat dies; without him, the sheriff's choice decides; "
               "otherwise nobody dies [002]."),
        Choice("runoff-once", P_("option value", "One runoff, then nobody"),
               "One runoff among the tied players; if it ties again, nobody dies [000]."),
        Choice("none", P_("option value", "Nobody is executed"),
               "A tie executes nobody [003]."),
        Choice("runoff-random", P_("option value", "Runoffs, then drawn by lot"),
               "Runoffs among the tied; after three ties in a row, one of them is chosen at "
               "random [003 variant]."),
        Choice("runoff-draw",
               P_("option value", "Runoffs; three equal ties at half power play end in a draw"),
               "Runoffs among the tied, with [004]'s draw rule for three identical ties "
               "([§7.5](#75-tie-policies)).")),
    section="#75-tie-policies", seed="[002][000][003][004]")
WOLVES_WIN = choice(
    "wolves_win", presets("all-dead", "all-dead", "parity"),
    P_("option", "The werewolves win"),
    N_("The werewolves win when every other player is dead, or as soon as they are as many "
       "as the humans."), (
        Choice("all-dead", P_("option value", "When all the others are dead"),
               "The wolves win when every non-wolf is dead [003]."),
        Choice("parity", P_("option value", "When as many as the humans"),
               "The wolves win when living wolves ≥ living humans, not counting the fox "
               "[003 variant][004].")),
    section="#8-winning", seed="[003][004]")
WOLF_ATTACK = choice(
    "wolf_attack", presets("unanimous", "unanimous", "any-wolf"),
    P_("option", "Werewolves' attack"),
    N_("Every werewolf must name the same victim, or the first werewolf's pick is the "
       "attack."), (
        Choice("unanimous", P_("option value", "All the werewolves must agree"),
               "Every living wolf must pick the same victim before time runs out, or there "
               "is no attack [000]."),
        Choice("any-wolf", P_("option value", "Any werewolf's pick"),
               "The first living wolf who picks a victim decides for the pack [004].")),
    section="#werewolf", seed="[000][004]")
VOTE_TIMEOUT = choice(
    "vote_timeout", presets("abstain", "right-neighbour", "abstain"),
    P_("option", "Missing vote"),
    N_("A player who has not voted in time abstains, or his vote goes to his right-hand "
       "neighbour."), (
        Choice("right-neighbour", P_("option value", "Vote for the right-hand neighbour"),
               "A vote not cast in time goes to the voter's right neighbour [000]."),
        Choice("abstain", P_("option value", "Abstain"),
               "A vote not cast in time is an abstention.")),
    section=_VOTE, seed="[000]")
SELF_VOTE = flag(
    "self_vote", presets(True, True, False), P_("option", "Vote for oneself"),
    N_("Whether a player may vote for himself."),
    "Whether a player may vote to execute himself. [004] forbids it.",
    section=_VOTE, seed="[004]")
FIRST_NIGHT_ATTACK = flag(
    "first_night_attack", presets(True, True, False), P_("option", "Attack on the first night"),
    N_("Whether the werewolves attack on the first night."),
    "Whether the wolves attack on night 1. With `false`, the wolves only meet each other "
    "that night [004].",
    section=_NIGHT, seed="[004]")
WITCH_SELF_HEAL = flag(
    "witch_self_heal", presets(True, True, False), P_("option", "The witch may save herself"),
    N_("Whether the witch may use her healing potion on herself."),
    "Whether the witch may use her healing potion on herself [000].",
    section="#witch", seed="[000]", concerns=_WITCH)
WITCH_SINGLE_POTION = flag(
    "witch_single_potion", every(False), P_("option", "The witch has one potion"),
    N_("The witch has one potion for the whole game: to heal or to poison ([003] house "
       "rule)."),
    "The witch has **one** potion for the whole game, to heal or to poison, never both "
    "[003 house rule: 「我們玩時都是只能有壹種解藥，要不救人，要不殺人」] "
    "([§6, Witch](#witch)).",
    section="#witch", seed="[003 house rule]", concerns=_WITCH, legacy=False)
ANNOUNCE_POTIONS = flag(
    "announce_potions", presets(False, True, False), P_("option", "Potions announced at dawn"),
    N_("The morning tells the table that the witch used her healing potion or her poison "
       "([000])."),
    "At dawn the table is told that the witch used her healing potion and/or her poison "
    "that night, never on whom [000 l.49: 「癒しの薬、毒薬使用時は翌朝公表される。」]. "
    "On in `bga`.",
    section="#witch", seed="[000 l.49]", concerns=_WITCH, legacy=False)
ELECTION = choice(
    "election", every("before-discussion"), P_("option", "Sheriff election"),
    N_("Whether day 1's sheriff is elected before or after the day's discussion ([003]); "
       "always before the first execution vote."), (
        Choice("before-discussion", P_("option value", "Before the discussion"),
               "Day 1's sheriff election comes before the day's discussion (the default, as "
               "before)."),
        Choice("after-discussion", P_("option value", "After the discussion"),
               "Day 1's election comes after the day's discussion, still before the first "
               "execution vote [003 l.26: 「選村長的時機大家可以自己定，我們是在第壹天大家"
               "各自發表意見之後，先選舉村長。」] "
               "([§7.7](#77-speaking-turns-and-the-candidates-vote)).")),
    section=_TURNS, seed="[003 l.26]", concerns=Concerns(option="sheriff"),
    legacy="before-discussion")
DISCUSSION_TURNS = flag(
    "discussion_turns", every(False), P_("option", "Speaking in turns"),
    N_("Each living player speaks in turn, clockwise from the left of the night's victim, "
       "the others silent ([003] variant); the GM may skip a turn, a player may pass."),
    "The day's discussion goes round the table: each living player speaks for `turn_s`, "
    "clockwise from the left of the night's first victim, the others silent [003 variant: "
    "「從剛才天黑時被殺的玩家左手邊的玩家開始，按照順時針方向，輪流發言，玩家之間不得對話」] "
    "([§7.7](#77-speaking-turns-and-the-candidates-vote)).",
    section=_TURNS, seed="[003 variant]", legacy=False)
VOTE_MODE = choice(
    "vote_mode", every("plurality"), P_("option", "Execution vote"),
    N_("Plurality, or the two most voted become candidates, defend themselves in turn, and "
       "only the others vote between them ([003] variant)."), (
        Choice("plurality", P_("option value", "Most votes is executed"),
               "The execution vote of [§7.4](#74-the-execution-vote) (the default)."),
        Choice("candidates", P_("option value", "Two candidates, then the others vote"),
               "The first vote names the two most voted as candidates, who defend "
               "themselves; then only the others vote between them [003 variant, the "
               "「憤怒的暴民」 cards] ([§7.7](#77-speaking-turns-and-the-candidates-vote)).")),
    section=_TURNS, seed="[003 variant: 憤怒的暴民]", legacy="plurality")
DISCUSSION_S = seconds(
    "discussion_s", presets(300, 300, 600), P_("option", "Discussion (seconds)"),
    N_("How long the day's discussion lasts before the vote."),
    "Length of the day's discussion.",
    section="#7-the-day", seed="house")
TURN_S = seconds(
    "turn_s", every(45), P_("option", "A speaking turn (seconds)"),
    N_("How long each speaking turn and each candidate's defence lasts."),
    "One speaking turn, and one candidate's defence (45 s by default).",
    section=_TURNS, seed="[003 variant]", legacy=45)
NIGHT_S = seconds(
    "night_s", presets(20, 20, 300), P_("option", "A role's call (seconds)"),
    N_("Each role's call at night lasts exactly this long, answered or not, so nobody learns "
       "who acted (jp-standard: the whole night, every role at once)."),
    "A role's night call lasts exactly this long, answered or not; an unanswered call times "
    "out at its end. In `jp-standard` the whole night is one window of this length, every "
    "night role acting at once [004]. `0`: the call lasts until the GM's Next.",
    section=_NIGHT, seed="[004]")
PACK_S = seconds(
    "pack_s", presets(40, 40, 300), P_("option", "The werewolves' call (seconds)"),
    N_("The werewolves' call lasts exactly this long: time to agree on a victim."),
    "The werewolves' call lasts exactly this long (not used by `jp-standard`'s one window).",
    section=_NIGHT, seed="house", concerns=Concerns(night="calls"))
READY_ENDS_NIGHT = flag(
    "ready_ends_night", presets(False, False, True),
    P_("option", "Night 1 ends when all are ready"),
    N_("The first night ends as soon as every living player has tapped Ready on his phone "
       "(and the seer has acted) ([004])."),
    "`jp-standard`'s first night window ends as soon as every living player has tapped the "
    "same \"ready\" button on his phone [004 l.86–87: "
    "「目覚めの準備が整った人は挙手をしてください」"
    "「参戦者全員の準備が完了次第、Bに移ります」]. Ready is a player's last word for the window "
    "(RULES.md §4 Decision r5): a role holder who taps it without acting passes, and the "
    "window's end never waits on an action, else its moment would tell when the seer acted "
    "[issue 40]. On in `jp-standard`; only its one-window night has it.",
    section=_NIGHT, seed="[004 l.86-87]", concerns=Concerns(night="together"), legacy=False)
EXTRA_DISCUSSION_S = seconds(
    "extra_discussion_s", presets(0, 0, 180), P_("option", "Extra discussion (seconds)"),
    N_("The discussion before a runoff or a second sheriff vote."),
    "Extra discussion before each runoff. [004] allows 3 minutes. `0` means none.",
    section="#75-tie-policies", seed="[004]")
SECRET_DECK = flag(
    "secret_deck", every(False), P_("option", "Secret deck"),
    N_("Keep the game's cards secret: every card of the ruleset is called each night and the "
       "deck is shown nowhere."),
    "With `false` the deck is public: the table is shown the game's cards (centre cards "
    "counted) and each night calls every card of the deck, alive, dead or in the centre, and "
    "no other. With `true` nothing names the deck and every card of the ruleset is called.",
    section=_NIGHT, seed="house")
PROFESSIONS = flag(
    "professions", every(False), N_("The Village: professions"),
    N_("Deal each player a profession and its building, with powers (RULES §8)."),
    "*The Village*: deal a profession to every player from the seed "
    "([§10](#10-the-village-expansion)). Off in every preset; a setup that lists "
    "`professions` plays them whatever this says.",
    section="#10-the-village-expansion", seed="[000]",
    concerns=Concerns(expansion="village"))
IDIOT_DIES_WITH_ELDER = flag(
    "idiot_dies_with_elder", every(False), P_("option", "The idiot dies with the elder"),
    N_("When the village kills the elder (poison, the hunter's shot, an execution), a village "
       "idiot already revealed dies with him."),
    "When poison, the hunter's shot or an execution kills the elder, a village idiot already "
    "revealed dies with him at once (cause `elder`), like a heartbreak [003 變體規則: "
    "「女巫、獵人、投票殺死長者發生時，如果白癡的身份牌已經翻開了，則白癡將同長者壹起死去」].",
    section="#elder", seed="[003 變體規則]", concerns=Concerns(roles=frozenset({"elder"})))
GHOSTS = flag(
    "ghosts", every(False), P_("option", "Ghosts: the dead read the story"),
    N_("A dead player's phone shows the whole game so far, every card. The dead must stay "
       "silent until the game is over."),
    "[issue 35] A dead player's phone shows the story of the game so far, live, every card "
    "and every night's actions (`engine.story`); off in every preset. The sources ask the "
    "dead to stay silent [003: 「此後不得與其他玩家有任何交流」]; this option trusts them to. "
    "It changes nothing for a living seat or the table.",
    section="#9-public-information", seed="[003]")

#: every option, in the lobby's order: the rows above, as written
OPTIONS: tuple[Option, ...] = tuple(v for v in dict(globals()).values() if isinstance(v, Option))
#: the rows by name
BY_NAME: dict[str, Option] = {o.name: o for o in OPTIONS}
