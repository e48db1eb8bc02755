"""The catalogs (companion/words/translations) [issue 6] "Languages"
(docs/pages.md, RULES.md §9): complete and compiled, role names in the rule
sources' own words, Traditional characters in Chinese; every name of the
words' tables reaches them, and the completeness check fails when one has
no translation.

The messages are extracted from the code, the templates and the pages'
scripts *at test time* (babel.cfg, as tools/i18n.py does), so a page, a
script's t("…") or a name that adds a msgid without a Japanese and a
Chinese translation fails here: run `tools/i18n.py`, fill the new entries,
run it again.
"""

from __future__ import annotations

import re

import pytest
from babel.messages.mofile import read_mo

from companion import words
from companion.words import names, options
from companion.words.catalogs import (
    LANGUAGES,
    extract_messages,
    mo_bytes,
    read_catalog,
    repo_root,
    script_msgids,
    translations_dir,
    untranslated,
)

#: RULES.md §9: the seeds' own words. Japanese: [002] the Millers Hollow
#: moderator sheet (盗賊, 守護者, 怠け者 the village idiot, 長老, 嫌われ者 the
#: scapegoat, 笛吹き), [000] BGA (ハンター, 白狼, 放火魔, うわさ屋), [004] the standard
#: game (霊能者, 騎士, 狂人, 共有者, 妖狐). Chinese: [003] (先知, 小偷, 獵人, 長者,
#: 白癡, 樂師, 守護者), in Traditional characters.
ROLE_NAMES = {
    "ja": {"villager": "村人", "werewolf": "人狼", "seer": "占い師", "witch": "魔女",
           "hunter": "ハンター", "cupid": "キューピッド", "little-girl": "少女",
           "thief": "盗賊", "defender": "守護者", "village-idiot": "怠け者", "elder": "長老",
           "scapegoat": "嫌われ者", "piper": "笛吹き", "white-werewolf": "白狼",
           "pyromaniac": "放火魔", "rumormonger": "うわさ屋", "madman": "狂人",
           "medium": "霊能者", "knight": "騎士", "freemason": "共有者", "fox": "妖狐"},
    "zh_Hant": {"villager": "村民", "werewolf": "狼人", "seer": "先知", "witch": "女巫",
                "hunter": "獵人", "cupid": "丘比特", "little-girl": "小女孩", "thief": "小偷",
                "defender": "守護者", "village-idiot": "白癡", "elder": "長者",
                "scapegoat": "替罪羊", "piper": "樂師", "white-werewolf": "白狼",
                "pyromaniac": "縱火犯", "rumormonger": "造謠者", "madman": "狂人",
                "medium": "靈媒師", "knight": "騎士", "freemason": "共有者", "fox": "妖狐"},
    "en": {"villager": "Villager", "werewolf": "Werewolf", "seer": "Seer", "witch": "Witch",
           "hunter": "Hunter", "cupid": "Cupid", "little-girl": "Little girl",
           "thief": "Thief", "defender": "Defender", "village-idiot": "Village idiot",
           "elder": "Elder", "scapegoat": "Scapegoat", "piper": "Piper",
           "white-werewolf": "White werewolf", "pyromaniac": "Pyromaniac",
           "rumormonger": "Rumormonger", "madman": "Madman", "medium": "Medium",
           "knight": "Knight", "freemason": "Freemason", "fox": "Fox"},
}
#: Simplified characters that must not appear in the Traditional Chinese catalog
SIMPLIFIED = set("预猎贼卫长丧灵骑陈这个说话时间们让发现样选举剧门见乐师处开关现结队战胜负")
PLACEHOLDER = re.compile(r"\{[a-z_]+\}|%\([a-z_]+\)s")


@pytest.fixture(scope="module")
def template():  # type: ignore[no-untyped-def]
    return extract_messages()


@pytest.mark.parametrize("lang", ["ja", "zh_Hant"])
def test_every_message_is_translated(template, lang: str) -> None:  # type: ignore[no-untyped-def]
    """[issue 6]: every msgid of the code and the templates, extracted now,
    has a non-empty, non-fuzzy translation in Japanese and in Traditional
    Chinese (run tools/i18n.py, translate, rerun)."""
    missing = untranslated(read_catalog(lang), template)
    assert not missing, f"untranslated in {lang} (tools/i18n.py missing): {missing}"


@pytest.mark.parametrize("lang", ["ja", "zh_Hant"])
def test_translations_keep_their_placeholders(lang: str) -> None:
    """A translation uses exactly the `{name}`/`%(n)s` fields of its msgid
    (a missing field would drop a name, a new one would raise)."""
    for msg in read_catalog(lang):
        if msg.id and msg.string:
            assert sorted(PLACEHOLDER.findall(str(msg.string))) == sorted(
                PLACEHOLDER.findall(str(msg.id))), (lang, msg.id, msg.string)


def test_traditional_chinese_uses_traditional_characters() -> None:
    """docs/pages.md: zh_Hant is Traditional Chinese ([003]'s words converted:
    預/先知, 獵人, 長者, 樂師 — never 猎, 长, 乐...)."""
    for msg in read_catalog("zh_Hant"):
        bad = SIMPLIFIED & set(str(msg.string))
        assert not bad, (msg.id, msg.string, bad)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_compiled_catalogs_match_their_sources(lang: str) -> None:
    """The committed .mo is the .po compiled (tools/i18n.py compile): the
    pages and the script read the .mo."""
    path = translations_dir() / lang / "LC_MESSAGES" / "messages.mo"
    with open(path, "rb") as f:
        committed = {(m.context, m.id): m.string for m in read_mo(f) if m.id}
    import io

    fresh = {(m.context, m.id): m.string
             for m in read_mo(io.BytesIO(mo_bytes(read_catalog(lang)))) if m.id}
    assert committed == fresh, "run tools/i18n.py compile"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_role_names_follow_the_sources(lang: str) -> None:
    """RULES.md §9: role names are the seeds' own words (see ROLE_NAMES)."""
    assert words.role_names(lang) == ROLE_NAMES[lang]


def test_sides_and_the_sheriff_follow_the_sources() -> None:
    """[004]: 村人陣営, 人狼陣営, 妖狐陣営; [002]: 保安官; [003]: 村長 (the
    sheriff as the screens and the lobby's option name him)."""
    assert [words.side_name(s, "ja") for s in ("village", "werewolves", "fox")] == [
        "村人陣営", "人狼陣営", "妖狐陣営"]
    for context in ("screen", "option"):
        assert words.translations("ja").pgettext(context, "Sheriff") == "保安官"
        assert words.translations("zh_Hant").pgettext(context, "Sheriff") == "村長"




def _name_msgids() -> set[tuple[str | None, str]]:
    """(context, msgid) of every name of the words' tables."""
    tables = [*names.TABLES.values(), *options.TABLES.values()]
    return {(m[0], m[1]) if isinstance(m, tuple) else (None, m)
            for table in tables for m in table.values()}


def test_every_name_is_extracted(template) -> None:  # type: ignore[no-untyped-def]
    """[issue 15] the names are msgids in Python now (N_/P_ markers): the
    extraction tools/i18n.py runs finds every one of them, so the
    completeness check above covers them."""
    extracted = {(m.context, m.id) for m in template if m.id}
    missing = _name_msgids() - extracted
    assert not missing, f"names extraction does not find: {sorted(missing, key=str)}"


def test_every_scripts_msgid_is_extracted(template) -> None:  # type: ignore[no-untyped-def]
    """[issue 45] the pages' scripts are their msgids' one home: the
    extraction reads web/static/*.js (t, tn, N_), so the completeness check
    above covers what JavaScript shows ("Waiting for: {names}" is written in
    gm_game.js alone)."""
    extracted = {m.id for m in template if m.id and not m.context}
    scripts = sorted((repo_root() / "web" / "static").glob("*.js"))
    used = {msgid for path in scripts for msgid in script_msgids(path)}
    assert "Waiting for: {names}" in used
    assert not used - extracted, sorted(used - extracted)


@pytest.mark.parametrize("lang", ["ja", "zh_Hant"])
def test_a_name_without_translation_fails_the_check(template, lang: str) -> None:  # type: ignore[no-untyped-def]
    """The check can fail: a catalog that lost a name's translation (a role
    and a context name) is reported by `untranslated`, as tools/i18n.py
    missing and test_every_message_is_translated report it."""
    catalog = read_catalog(lang)
    assert not untranslated(catalog, template)
    catalog.delete("Seer")
    catalog.get("Vote", context="step").string = ""
    assert set(untranslated(catalog, template)) == {(None, "Seer"), ("step", "Vote")}
