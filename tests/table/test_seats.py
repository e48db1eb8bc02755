"""The seats' list (`Table.seats`, the GM view's `seats`): one list while
nothing in it changes (every publish's GM view holds it and tells it
unchanged by identity), a new one as soon as a link, a claim or a name does
[issue 15 item 11; issue 6 links, issue 17 claims]."""

from __future__ import annotations

from hub.conftest import jp9

from companion.table import Table


def test_the_seats_list_is_kept_until_a_link_or_a_claim_changes(table: Table) -> None:
    table.create(jp9())
    first = table.seats()
    assert table.seats() is first  # nothing changed: the same list
    assert table.gm_view()["seats"] is first

    old_url = first[2]["url"]
    table.reissue(2)  # a new link for seat 2
    after_link = table.seats()
    assert after_link is not first
    assert after_link[2]["url"] != old_url
    assert [s["url"] for s in after_link if s["seat"] != 2] == \
        [s["url"] for s in first if s["seat"] != 2]

    assert table.claim(4, "phone-a")  # a phone holds seat 4
    claimed = table.seats()
    assert claimed is not after_link and claimed[4]["claimed"] is True
    assert table.gm_view()["seats"][4]["claimed"] is True

    table.release(4)
    assert table.seats()[4]["claimed"] is False
