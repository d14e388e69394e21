"""``clerk.followed`` (engine/service/followed.py): a moderator's write and a read of what it left, in ONE
transaction, with the messages made of both owed there: the Convocate's `/convocate player` and Mylantium's set-up
additions (their set-up summary) and the Convocate's and Mylantium's `/game import` (its line in the game channel).
What the read finds is what a read after the commit finds; a failure making the messages undoes the write."""

from __future__ import annotations

import pytest
from mylantium_table import MOD, republic

from engine.service import Clerk
from engine.service.clock import ManualClock
from engine.service.convocate.board import board_in, setup_in
from engine.service.followed import Followed
from engine.service.mylantium.records import government_in
from engine.service.mylantium.records import setup_in as government_setup_in
from engine.service.owed import NOTICE, Owed, OwedWith


def notice(nonce: str) -> Owed:
    return Owed("channel:1", 1, NOTICE, nonce, {"to": {"channel": 1}, "text": "the summary"})


async def test_a_mylantium_addition_reads_the_government_page_as_it_leaves_it_and_owes_with_it(
        clerk: Clerk, clock: ManualClock) -> None:
    r = await republic(clerk, clock, tv1_i04=False)
    myl = clerk.mylantium

    def failing(_f: Followed[object, object]) -> list[Owed]:
        raise RuntimeError("the summary could not be made")

    with pytest.raises(RuntimeError):
        await clerk.followed.write(r.id, lambda: myl.add_territory(r.id, name="Chalcedon", actor=MOD,
                                                                   source_id="t-1"),
                                   government_setup_in, source_id="t-1", answer=OwedWith(failing))
    assert "Chalcedon" not in {t.name for t in (await myl.government(r.id)).territories}, "undone with it"
    assert await clerk.outbox.owed() == []

    answer: OwedWith[Followed[object, object]] = OwedWith(lambda f: [notice("summary-1")])
    done = await clerk.followed.write(r.id, lambda: myl.add_territory(r.id, name="Chalcedon", actor=MOD,
                                                                      source_id="t-2"),
                                      government_setup_in, source_id="t-2", answer=answer)
    assert done.seen == await myl.government(r.id) and done.seen is not None and done.seen.setting_up
    assert [row.owed.nonce for row in await clerk.outbox.owed()] == ["summary-1"] == [
        row.owed.nonce for row in answer.rows]
    full = await clerk.followed.write(r.id, lambda: myl.add_territory(r.id, name="Delos", actor=MOD),
                                      government_in, source_id=None)
    assert full.seen == await myl.government(r.id)


async def test_a_convocate_player_seated_during_set_up_gives_the_board_as_a_read_after_it_finds(clerk: Clerk) -> None:
    game = await clerk.games.create_game(guild_id=900, channel_id=905, name="vega", ruleset="convocate",
                                         moderator_role_id=None, actor=MOD)
    board = clerk.convocate.board
    done = await clerk.followed.write(game.id, lambda: board.set_player(
        game.id, user_id=11, name="alice", sovereignty_name="Union", order=None, homeworld=None, temp=None, actor=MOD,
        source_id="p-1"), setup_in, source_id="p-1", joins=lambda _p: (11,))
    assert done.done.name == "alice" and done.seen == await board.board(game.id)
    assert [s.player for s in done.seen.standings] == ["alice"]
    whole = await clerk.followed.write(game.id, lambda: board.set_player(
        game.id, user_id=12, name="bob", sovereignty_name="Kingdom", order=None, homeworld=None, temp=None,
        actor=MOD), board_in, source_id=None)
    assert whole.seen == await board.board(game.id)
