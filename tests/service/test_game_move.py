"""``/game move`` (play-test R4.2): a game whose channel was deleted, or that the moderators want elsewhere, moves to
the channel the command is run in, named from there; recorded (``GameMoved``), in an ended game too; the mark that
its channel was lost (``clerk.marks``) is cleared; a command where no game is names the games whose channel is gone."""

from __future__ import annotations

from itertools import count
from typing import Any

from conftest import Table
from ledger_front import CHANNEL, GUILD, MODERATOR, actor, slash, text_of

from bot.actions.commands import App, dispatch
from bot.actions.context import Actor, Ctx, Place
from bot.actions.outbox import Outgoing, ToChannel
from engine.service import Clerk
from engine.service.marks import CHANNEL_LOST

NEW = 950
OTHER = 951
_ids = count(1)
BOB = actor(10, "Bob")


async def slash_in(clerk: Clerk, who: Actor, name: str, channel: int, **options: Any) -> list[Outgoing]:
    return await dispatch(App(clerk), Ctx(who, Place(GUILD, channel), f"mv-{next(_ids)}", clerk.clock.now()), name,
                          options)


def texts(out: list[Outgoing]) -> str:
    return "\n".join(text_of(o) for o in out)


async def test_a_game_moves_to_the_channel_the_command_is_run_in_and_the_move_is_recorded(table: Table) -> None:
    await table.player(10, "Bob", 3, 2, 1)
    assert await table.clerk.marks.mark(table.game_id, CHANNEL_LOST, str(CHANNEL))
    assert not await table.clerk.marks.mark(table.game_id, CHANNEL_LOST, str(CHANNEL))  # told once
    lobby = texts(await slash_in(table.clerk, MODERATOR, "round status", NEW))
    assert "not here: this channel has no game. The game channel of **sirius** was deleted" in lobby
    assert "`/game move game:sirius`" in lobby

    refused = await slash_in(table.clerk, BOB, "game move", NEW, game="sirius")
    assert "Only the moderators of sirius can use /game move." in texts(refused)
    unknown = await slash_in(table.clerk, MODERATOR, "game move", NEW, game="vega")
    assert "There is no game called “vega” on this server. Its games: sirius." in texts(unknown)
    out = await slash_in(table.clerk, MODERATOR, "game move", NEW, game="#Sirius")
    assert f"sirius moved here from <#{CHANNEL}> (deleted)" in texts(out)
    assert [o.to for o in out if isinstance(o.to, ToChannel)] == [ToChannel(NEW)]  # not to the deleted channel
    [moved] = [e for e in await table.events() if e.kind == "GameMoved"]
    assert moved.payload == {"from": CHANNEL, "to": NEW, "deleted": True} and moved.actor == MODERATOR.id
    assert (await table.clerk.games.game(table.game_id)).channel_id == NEW
    assert await table.clerk.marks.marked(table.game_id, CHANNEL_LOST) is None
    assert await table.clerk.marks.lost_channels(GUILD) == []
    assert await table.clerk.marks.moved_from(CHANNEL) == table.game_id  # a late post for it goes to the new one
    assert "Round 1" in texts(await slash_in(table.clerk, MODERATOR, "round open", NEW, crisis="Piracy"))
    assert (await table.clerk.games.games_of_user(10))[0].channel_id == NEW  # not the remembered channel

    again = await slash_in(table.clerk, MODERATOR, "game move", NEW, game="sirius")
    assert "already played in this channel; nothing was changed" in texts(again)
    await table.clerk.games.create_game(guild_id=GUILD, channel_id=OTHER, name="vega", ruleset="landsdraad",
                                        moderator_role_id=None, actor=MODERATOR.id)
    taken = await slash_in(table.clerk, MODERATOR, "game move", OTHER, game="sirius")
    assert "already the game channel of vega" in texts(taken)
    # a channel that still exists: its readers are told where the game went
    back = await slash_in(table.clerk, MODERATOR, "game move", CHANNEL, game="sirius")
    assert ToChannel(NEW) in [o.to for o in back] and f"moved to <#{CHANNEL}>" in texts(back)
    assert [e.payload["deleted"] for e in await table.events() if e.kind == "GameMoved"] == [True, False]


async def test_an_ended_game_can_be_moved(table: Table) -> None:
    await table.player(10, "Bob", 3, 2, 1)
    await slash(table.clerk, MODERATOR, "game end")
    out = await slash_in(table.clerk, MODERATOR, "game move", NEW, game="sirius")
    assert "moved here" in texts(out)
    assert (await table.clerk.games.game(table.game_id)).channel_id == NEW
    assert "Log of sirius" in texts(await slash_in(table.clerk, MODERATOR, "log", NEW))


async def test_what_was_held_for_the_deleted_channel_is_owed_again_in_the_moves_transaction(table: Table) -> None:
    """With a front end that owes in the write's transaction (``Ctx.answering``), the messages held for the deleted
    channel (a card, and two texts of one kept count: only the latest goes) are owed again for the new channel in the
    move's own transaction, before what the move announces, and handed to the front end to queue; nothing is
    released in a write of its own after it (``App.game_moved``), so a kill after the move's commit cannot leave them
    held for a channel the game has left. A refused move releases nothing."""
    from bot.actions.outbox import Answering, Keep, not_owed
    from bot.actions.wire import decode, encode
    from engine.service.owed import HELD, NOTICE, Owed

    await table.player(10, "Bob", 3, 2, 1)
    clerk = table.clerk
    assert await clerk.marks.mark(table.game_id, CHANNEL_LOST, str(CHANNEL))
    held = [Outgoing(ToChannel(CHANNEL), "the result card"),
            Outgoing(ToChannel(CHANNEL), "count 1", keep=Keep(table.game_id, "count")),
            Outgoing(ToChannel(CHANNEL), "count 2", keep=Keep(table.game_id, "count"))]
    rows = await clerk.outbox.owe([Owed(f"channel:{CHANNEL}", CHANNEL, NOTICE, f"h{n}", encode(item),
                                        coalesce="keep:count" if item.keep else None)
                                   for n, item in enumerate(held)])
    for row in rows:
        assert row is not None
        await clerk.outbox.settle(row.id, HELD)
    assert await clerk.outbox.held_count(CHANNEL) == 3
    posts = count(1)

    def answering() -> Answering:
        return Answering(not_owed, lambda item: Owed(f"channel:{NEW}", NEW, NOTICE, f"p{next(posts)}", encode(item)))

    async def after(_old: int, _new: int) -> int:
        raise AssertionError("released in a write of its own")

    app = App(clerk)
    app.game_moved = after
    refused = answering()
    same = await dispatch(app, Ctx(MODERATOR, Place(GUILD, CHANNEL), "mv-refused", clerk.clock.now(), refused),
                          "game move", {"game": "sirius"})
    assert "already played in this channel" in texts(same) and refused.owed == []
    assert await clerk.outbox.held_count(CHANNEL) == 3
    moving = answering()
    out = await dispatch(app, Ctx(MODERATOR, Place(GUILD, NEW), "mv-held", clerk.clock.now(), moving), "game move",
                         {"game": "sirius"})
    assert "2 messages that could not be posted there are posted here now." in texts(out)
    assert [item.text for item, _ in moving.owed] == [
        "the result card", "count 2", "**sirius** is played in this channel from now on (moved from "
                                      f"<#{CHANNEL}> (deleted) by the moderators)."]
    assert all(item.to == ToChannel(NEW) for item, _ in moving.owed)
    owed = await clerk.outbox.owed()
    assert [r.id for r in owed] == [row.id for _, row in moving.owed], "owed, committed with the move, in order"
    assert [decode(r.owed.body)[0].to for r in owed] == [ToChannel(NEW)] * 3
    assert await clerk.outbox.held_count(CHANNEL) == 0


async def test_a_message_refused_before_a_move_and_held_after_it_is_not_held(table: Table) -> None:
    """A message refused in the deleted channel is held (``clerk.outbox.hold``) in a transaction that reads the
    game's channel under the game's lock: held while the game is still in that channel (and so released by the move),
    but if a move committed between the refusal and the hold, nothing is written (the row stays owed) and the game's
    channel now is returned, for it to go there. Before, it was marked held whatever the game's channel, after the
    move whose release could not see it: held for a channel the game had left, never posted."""
    from bot.actions.wire import encode, retarget
    from engine.service.owed import NOTICE, Owed

    await table.player(10, "Bob", 3, 2, 1)
    clerk = table.clerk
    first, second = await clerk.outbox.owe([
        Owed(f"channel:{CHANNEL}", CHANNEL, NOTICE, f"r{n}", encode(Outgoing(ToChannel(CHANNEL), text)))
        for n, text in enumerate(("refused before the move", "refused before it, held after it"))])
    assert first is not None and second is not None
    assert await clerk.outbox.hold(first.id, table.game_id, CHANNEL) is None
    assert await clerk.outbox.held_count(CHANNEL) == 1
    moved = await clerk.games.move(table.game_id, channel_id=NEW, actor=MODERATOR.id,
                                   release=lambda owed: retarget(owed, NEW))
    assert [row.id for row in moved.released] == [first.id]
    assert await clerk.outbox.hold(second.id, table.game_id, CHANNEL) == NEW, "the game's channel now"
    assert await clerk.outbox.held_count(CHANNEL) == 0
    assert [row.id for row in await clerk.outbox.owed()] == [first.id, second.id], "the second still owed"
