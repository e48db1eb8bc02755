"""The story's page clock at the end (companion/table/pace.py `StoryClock`)
[issue 35]: it begins STORY_START_S after the end is first seen, each page
stays STORY_PAGE_S + STORY_LINE_S a line or until its voice is done, the
last page stays. Asking whether a page is due changes nothing: the table's
tick turns it [issue 45]."""

from __future__ import annotations

from companion.table.pace import STORY_LINE_S, STORY_PAGE_S, STORY_START_S, StoryClock

LINES = (2, 1, 3)  # three pages: two lines, one, three


def _lines() -> tuple[int, ...]:
    return LINES


def test_due_is_a_question() -> None:
    """[issue 45] `due` answers without changing the clock (a frozen record):
    asked twice at the same moment, the same answer, the same page."""
    clock = StoryClock().seen(7, True, 100.0)
    later = 100.0 + STORY_START_S
    assert clock.due(later, _lines) and clock.due(later, _lines)
    assert clock.page == -1 and clock.at == 100.0


def test_the_story_begins_after_the_end_then_each_page_stays_its_time() -> None:
    """[issue 35] the table screen's story: begun
    STORY_START_S after the end was seen, page 0 stays 6 s + 3 s a line."""
    clock, turned = StoryClock().tick(7, True, 100.0, _lines)
    assert not turned and clock.over == (7, 100.0) and clock.page == -1
    clock, turned = clock.tick(7, True, 100.0 + STORY_START_S - 0.1, _lines)
    assert not turned
    clock, turned = clock.tick(7, True, 100.0 + STORY_START_S, _lines)
    assert turned and clock.page == 0 and clock.at == 100.0 + STORY_START_S
    ends = clock.at + STORY_PAGE_S + STORY_LINE_S * LINES[0]
    assert not clock.tick(7, True, ends - 0.1, _lines)[1]
    clock, turned = clock.tick(7, True, ends, _lines)
    assert turned and clock.page == 1


def test_a_page_waits_for_its_voice_and_the_last_page_stays() -> None:
    """[issue 35] a narrated page turns once its voice is done, never
    sooner; the last page is not turned by the clock."""
    clock = StoryClock((7, 0.0), page=1, at=50.0, voice=80.0)
    assert not clock.due(50.0 + STORY_PAGE_S + STORY_LINE_S * LINES[1], _lines)
    assert clock.due(80.0, _lines)
    last = StoryClock((7, 0.0), page=2, at=50.0)
    assert not last.due(10_000.0, _lines)
    assert last.turned(len(LINES), 60.0).page == 0  # a tap after the last: the first


def test_an_end_undone_then_reached_again_begins_the_story_again() -> None:
    """[issue 35] the clock forgets an end that is no longer the table's
    (an undo), and a new end (or another game's) begins the story anew."""
    clock = StoryClock((7, 0.0), page=2, at=50.0, voice=60.0)
    undone = clock.seen(7, False, 70.0)
    assert undone.over is None and not undone.due(10_000.0, _lines)
    again = undone.seen(7, True, 90.0)
    assert again == StoryClock((7, 90.0), -1, 90.0, 0.0)
    assert clock.seen(8, True, 95.0) == StoryClock((8, 95.0), -1, 95.0, 0.0)
