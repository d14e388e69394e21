"""Play-test R4.3: a bot that starts without the Message Content intent tells each running game whose ruleset reads
forms from posts, once, in its channel (``reading_notices``, bot/actions/message_commands.py), and the mark that it
did (``clerk.marks``, ``unread``) is written in the transaction that owes the notice (``MarkService.mark``'s
``answer``), so a kill cannot leave a game marked and never told, nor told twice. Through the bot and the fake
Discord: tests/e2e/test_without_content.py."""

from __future__ import annotations

from itertools import count

import pytest
from conftest import GUILD, MOD, Table
from sqlalchemy import select

from bot.actions.commands import App, dispatch
from bot.actions.context import Actor, Ctx, Place
from bot.actions.message_commands import TOLD, reading_notices
from bot.actions.outbox import Answering, Outgoing, ToChannel, not_owed
from engine.service.marks import UNREAD
from engine.service.owed import NOTICE, Owed, OwedWith
from engine.store.models import Base

_O = Base.metadata.tables["owed_messages"]
REPUBLIC, SENATE, VEGA = 902, 903, 904


_nonces = count(1)


def posts() -> Answering:
    """A front end that owes what is posted in a channel (``Courier.answering_posts``), its nonce ``p<n>:<channel>``."""
    def post_of(item: Outgoing) -> Owed | None:
        assert isinstance(item.to, ToChannel)
        return Owed(f"channel:{item.to.channel_id}", item.to.channel_id, NOTICE,
                    f"p{next(_nonces)}:{item.to.channel_id}", {"text": item.text})

    return Answering(not_owed, post_of)


async def owed_rows(table: Table) -> list[tuple[int | None, str]]:
    async with table.engine.connect() as conn:
        found = await conn.execute(select(_O.c.channel_id, _O.c.body).order_by(_O.c.id))
        return [(channel, body["text"]) for channel, body in found.all()]


def without_intent(table: Table) -> App:
    app = App(table.clerk)
    app.settings["reads_messages"] = False
    return app


async def test_each_game_with_thread_forms_is_told_once_and_its_notice_is_owed_with_its_mark(table: Table) -> None:
    clerk = table.clerk
    await clerk.games.create_game(guild_id=GUILD, channel_id=REPUBLIC, name="republic", ruleset="mylantium",
                                  moderator_role_id=None, actor=MOD)
    senate = await clerk.games.create_game(guild_id=GUILD, channel_id=SENATE, name="senate", ruleset="convocate",
                                           moderator_role_id=None, actor=MOD)
    app = without_intent(table)
    answering = posts()

    told = await reading_notices(app, answering)
    assert [o.to for o in told] == [ToChannel(901), ToChannel(SENATE)]  # Mylantium's forms are DMs: not told
    sirius, convocate = (o.text for o in told)
    assert sirius.startswith("⚠️ **sirius**: from now on Clerk cannot read messages that do not mention it")
    assert "(`@Clerk AG Vote: Bob`), or right-click (long-press) your message, Apps, **Count as vote**" in sirius
    assert "(`@Clerk Motion: <name> by <Convocant>`)" in convocate and "**Count as motion**" in convocate
    assert [(item, row.owed.lane) for item, row in answering.owed] == [(told[0], "channel:901"),
                                                                        (told[1], f"channel:{SENATE}")]
    assert await owed_rows(table) == [(901, sirius), (SENATE, convocate)], "owed by the marks' own writes"
    assert await clerk.marks.marked_games(UNREAD) == {table.game_id: TOLD, senate.id: TOLD}

    again = posts()  # the next start, still without the intent
    assert await reading_notices(app, again) == [] and again.owed == []
    assert len(await owed_rows(table)) == 2

    app.settings["reads_messages"] = True  # a start with the intent back: told once that forms are read again
    back = posts()
    [one, two] = await reading_notices(app, back)
    assert one.text == ("✅ **sirius**: Clerk reads the messages posted in this channel and its threads again: forms "
                        "work without @Clerk (and with it).") and two.to == ToChannel(SENATE)
    assert [item for item, _ in back.owed] == [one, two] and len(await owed_rows(table)) == 4
    assert await clerk.marks.marked_games(UNREAD) == {}
    assert await reading_notices(app, posts()) == []

    app.settings["reads_messages"] = False  # lost again: told again
    assert [o.to for o in await reading_notices(app, posts())] == [ToChannel(901), ToChannel(SENATE)]


async def test_a_mark_whose_notice_cannot_be_owed_is_not_kept_and_the_next_start_tells_the_game(
        table: Table, caplog: pytest.LogCaptureFixture) -> None:
    """The mark and its notice are one transaction: a failure to owe the notice leaves the game unmarked (before,
    the mark was committed first and the notice owed after, so a kill between them left the game never told)."""
    def broken(item: Outgoing) -> Owed | None:
        raise RuntimeError("the outbox failed")

    app = without_intent(table)
    assert await reading_notices(app, Answering(not_owed, broken)) == []
    assert "telling game" in caplog.text
    assert await table.clerk.marks.marked_games(UNREAD) == {} and await owed_rows(table) == []
    [told] = await reading_notices(app, posts())
    assert told.to == ToChannel(901) and await owed_rows(table) == [(901, told.text)]


async def test_marks_owe_their_answer_only_when_they_change(table: Table) -> None:
    marks, game = table.clerk.marks, table.game_id
    made: list[bool] = []

    def answer() -> OwedWith[bool]:
        def make(changed: bool) -> list[Owed]:
            made.append(changed)
            return [Owed("channel:901", 901, NOTICE, f"n{len(made)}", {"text": str(changed)})]
        return OwedWith(make)

    first = answer()
    assert await marks.mark(game, UNREAD, TOLD, first) and [r.owed.nonce for r in first.rows] == ["n1"]
    assert not await marks.mark(game, UNREAD, TOLD, answer())  # so already: nothing owed
    assert await marks.unmark(game, UNREAD, answer()) and not await marks.unmark(game, UNREAD, answer())
    assert made == [True, True] and len(await owed_rows(table)) == 2


async def test_a_game_made_without_the_intent_is_told_by_its_reply_and_not_again_at_a_start(table: Table) -> None:
    app = without_intent(table)
    await reading_notices(app, posts())  # sirius, made before
    ctx = Ctx(Actor(MOD, "mod", manages_server=True), Place(GUILD, VEGA), "int:new", table.clock.now())
    [made] = await dispatch(app, ctx, "game new", {"ruleset": "landsdraad", "name": "vega"})
    assert "start a form with @Clerk" in made.text
    vega = await table.clerk.games.game_in_channel(VEGA)
    assert vega is not None and await table.clerk.marks.marked(vega.id, UNREAD) == TOLD
    assert await reading_notices(app, posts()) == []
    app.settings["reads_messages"] = True  # its reply said it: it is told when they are read again
    assert [o.to for o in await reading_notices(app, posts())] == [ToChannel(901), ToChannel(VEGA)]
