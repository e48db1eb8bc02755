"""The one table of names (companion/words/names.py, options.py) [issue 15]:
every id of the engine's tables has a name in every language, the pages get
every table under the keys they read (contract C3), the display's screen
words are the catalogs', and an unknown language reads English."""

from __future__ import annotations

import pytest

from companion import words
from companion.engine import ROLES
from companion.engine.professions import HOUSE, PROFESSIONS
from companion.words.names import names_for

#: the seeds' words for every card, profession and building (en, ja, zh_Hant), as
#: the engine's tables held them until issue 15 made the words their one home
SEEDS_WORDS = [
    ("role", "villager", "Villager", "村人", "村民"),
    ("role", "werewolf", "Werewolf", "人狼", "狼人"),
    ("role", "seer", "Seer", "占い師", "先知"),
    ("role", "witch", "Witch", "魔女", "女巫"),
    ("role", "hunter", "Hunter", "ハンター", "獵人"),
    ("role", "cupid", "Cupid", "キューピッド", "丘比特"),
    ("role", "little-girl", "Little girl", "少女", "小女孩"),
    ("role", "thief", "Thief", "盗賊", "小偷"),
    ("role", "defender", "Defender", "守護者", "守護者"),
    ("role", "village-idiot", "Village idiot", "怠け者", "白癡"),
    ("role", "elder", "Elder", "長老", "長者"),
    ("role", "scapegoat", "Scapegoat", "嫌われ者", "替罪羊"),
    ("role", "piper", "Piper", "笛吹き", "樂師"),
    ("role", "white-werewolf", "White werewolf", "白狼", "白狼"),
    ("role", "pyromaniac", "Pyromaniac", "放火魔", "縱火犯"),
    ("role", "rumormonger", "Rumormonger", "うわさ屋", "造謠者"),
    ("role", "madman", "Madman", "狂人", "狂人"),
    ("role", "medium", "Medium", "霊能者", "靈媒師"),
    ("role", "knight", "Knight", "騎士", "騎士"),
    ("role", "freemason", "Freemason", "共有者", "共有者"),
    ("role", "fox", "Fox", "妖狐", "妖狐"),
    ("profession", "drifter", "Drifter", "流れ者", "流浪者"),
    ("profession", "steward", "Steward", "管財人", "管家"),
    ("building", "steward", "Steward's house", "管財人の家", "管家之家"),
    ("profession", "farmer", "Farmer", "農家", "農夫"),
    ("building", "farmer", "Farm", "農場", "農場"),
    ("profession", "schoolteacher", "Schoolteacher", "女教師", "女教師"),
    ("building", "schoolteacher", "School", "学校", "學校"),
    ("profession", "baker", "Baker", "パン屋", "麵包師"),
    ("building", "baker", "Bakery", "パン屋", "麵包店"),
    ("profession", "tavern-keeper", "Tavern keeper", "酒場の主人", "酒館老闆"),
    ("building", "tavern-keeper", "Tavern", "酒場", "酒館"),
    ("profession", "confessor", "Confessor", "聴罪司祭", "告解神父"),
    ("building", "confessor", "Church", "教会", "教堂"),
    ("profession", "barber", "Barber", "床屋", "理髮師"),
    ("building", "barber", "Barbershop", "理髪店", "理髮店"),
    ("profession", "lord", "Lord", "領主", "領主"),
    ("building", "lord", "Manor house", "マナーハウス", "莊園"),
    ("profession", "bonesetter", "Bonesetter", "無免許接骨医", "無照接骨醫"),
    ("building", "bonesetter", "Shack", "掘っ立て小屋", "棚屋"),
]

LANGS = ("en", "ja", "zh_Hant")
#: contract C3: the tables of the pages' `#names` JSON (and the card's power lines)
PAGE_KEYS = {"roles", "teams", "causes", "professions", "buildings", "prof_powers",
             "prof_states", "wins", "steps", "powers", "events", "event_texts"}
#: the small display's words before issue 15 moved them into the catalogs
#: (firmware/display.py WORDS, the pages' wording where they had one)
SCREEN_WORDS = {
    "en": {"night": "Night {n}", "day": "Day {n}", "lobby": "Lobby", "paused": "paused",
           "over": "Game over", "peaceful": "Nobody died", "no-execution": "No execution",
           "wins": "wins", "sheriff": "Sheriff", "rollcall": "Hands up:",
           "scan": "Scan:\ngame\nmaster", "idiot": "spared"},
    "ja": {"night": "第{n}夜", "day": "{n}日目", "lobby": "ロビー", "paused": "一時停止",
           "over": "ゲーム終了", "peaceful": "犠牲者なし", "no-execution": "処刑なし",
           "wins": "の勝利", "sheriff": "保安官", "rollcall": "挙手：",
           "scan": "読み取り：\nゲーム\nマスター", "idiot": "処刑免除"},
    "zh_Hant": {"night": "第{n}夜", "day": "第{n}天", "lobby": "大廳", "paused": "已暫停",
                "over": "遊戲結束", "peaceful": "平安夜", "no-execution": "無人被處決",
                "wins": "獲勝", "sheriff": "村長", "rollcall": "舉手：",
                "scan": "掃描：\n法官", "idiot": "免於處決"},
}


@pytest.mark.parametrize("lang", LANGS)
def test_every_engine_role_and_profession_has_a_name(lang: str) -> None:
    """[issue 15] one table of names that the engine's tables read: every
    card of engine ROLES has a name and a power line, every profession of
    PROFESSIONS (and the plain house) a name and a power, every building a
    name, in every language; the tables hold no id the engine does not know.
    In Japanese and Chinese none is left as the English msgid (RULES.md §9)."""
    names = names_for(lang)
    english = names_for("en")
    professions = set(PROFESSIONS) | {HOUSE}
    buildings = {p.id for p in PROFESSIONS.values() if p.building} | {HOUSE}
    assert set(names["roles"]) == set(names["powers"]) == set(ROLES)
    assert set(names["professions"]) == set(names["prof_powers"]) == professions
    assert set(names["buildings"]) == buildings
    for table, ids in (("roles", ROLES), ("powers", ROLES), ("professions", professions),
                       ("prof_powers", professions), ("buildings", buildings)):
        for key in ids:
            text = names[table][key]
            assert text.strip() and text != key, (table, key)
            if lang != "en":
                assert text != english[table][key], (lang, table, key)


@pytest.mark.parametrize("lang", LANGS)
def test_every_step_the_tablet_names_is_in_the_one_table(lang: str) -> None:
    """[issue 15] the GM's tablet names the steps ("calling the seer") from
    the one table, as the phone and the table screen do: every night step of
    the engine (roles.NIGHT_STEPS), every pending kind and pacing mode it
    shows has a name, translated in Japanese and Chinese (RULES.md §9)."""
    from companion.engine.roles import NIGHT_STEPS

    steps, english = names_for(lang)["steps"], names_for("en")["steps"]
    shown = set(NIGHT_STEPS) | {"vote", "election", "runoff", "hunter", "appoint", "allow",
                                "over", "discussion", "last-words", "ballot", "prompt",
                                "calls", "lobby", "pyromaniac", "rumormonger", "pardon",
                                "actions"}
    assert shown <= set(steps), shown - set(steps)
    for key in shown:
        assert steps[key].strip() and (lang == "en" or steps[key] != english[key]), (lang, key)


@pytest.mark.parametrize("lang", LANGS)
def test_names_for_gives_the_pages_tables(lang: str) -> None:
    """Contract C3: `names_for(lang)` has the keys the pages' `#names` JSON
    has (web/templates/_names.html), each a dict id → text in `lang`, the
    same as the per-name functions give."""
    names = names_for(lang)
    assert set(names) == PAGE_KEYS
    assert all(isinstance(t, str) for table in names.values() for t in table.values())
    assert names["roles"] == words.role_names(lang)
    assert names["causes"] == words.cause_names(lang)
    assert names["buildings"] == words.building_names(lang)
    assert names["powers"] == words.power_lines(lang)
    assert names["steps"]["election runoff"] and names["prof_states"]["used"]


@pytest.mark.parametrize("lang", LANGS)
def test_the_displays_words_are_the_catalogs(lang: str) -> None:
    """[issue 15] the display's own word table moved into the catalogs
    (names.SCREEN, context "screen") with the same words in each language."""
    for key, text in SCREEN_WORDS[lang].items():
        assert words.screen_word(key, lang, n=3) == text.format(n=3), (lang, key)


def test_names_and_help_in_every_language() -> None:
    """[issue 6]: roles, sides, steps, options (label, help, values) and the
    phone's power lines come from the catalogs, in every language."""
    from companion.engine import OPTION_VALUES
    from companion.engine.roles import NIGHT_STEPS

    for lang in LANGS:
        for role in ROLES:
            assert words.role_name(role, lang) and words.power_line(role, lang)
        for side in ("village", "werewolves", "white-werewolf", "piper", "fox", "lovers",
                     "draw"):
            assert words.side_name(side, lang) != side
        for step in (*NIGHT_STEPS, "election", "vote", "runoff", "hunter", "appoint", "allow",
                     "discussion", "last-words", "over", "lobby"):
            assert words.step_name(step, lang) != step
        for name, values in OPTION_VALUES.items():
            assert words.option_label(name, lang) != name
            assert words.option_help(name, lang)
            for value in values or ():
                assert words.option_value(name, value, lang) != str(value).lower()
    assert words.side_name("village", "ja") == "村人陣営"  # [004]
    assert words.side_name("fox", "ja") == "妖狐陣営"
    assert words.step_name("wolves", "zh_Hant") == "狼人"


@pytest.mark.parametrize("lang", LANGS)
def test_unknown_language_falls_back_to_english(lang: str) -> None:
    """A language outside en/ja/zh_Hant is read as English."""
    assert words.role_name("seer", "xx") == "Seer"
    assert words.role_name("seer", lang) == {"en": "Seer", "ja": "占い師",
                                              "zh_Hant": "先知"}[lang]


def test_the_names_are_the_seeds_words() -> None:
    """[issue 9] one source of truth for names, [issue 15] kept in the words
    only: every card's, profession's and building's name in ja and zh_Hant is
    the seeds' word (占い師, 先知 …), traditional characters for Chinese, and
    its English msgid is the one the engine's id is shown with."""
    kinds = {"role": "roles", "profession": "professions", "building": "buildings"}
    tables = {lang: names_for(lang) for lang in ("en", "ja", "zh_Hant")}
    for kind, key, en, ja, zh in SEEDS_WORDS:
        for lang, word in (("en", en), ("ja", ja), ("zh_Hant", zh)):
            assert tables[lang][kinds[kind]][key] == word, (kind, key, lang)
    ids = {("role", k) for k in ROLES} | {("profession", k) for k in PROFESSIONS}
    assert ids <= {(kind, key) for kind, key, *_ in SEEDS_WORDS}


