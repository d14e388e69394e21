"""The shared ``/player remove`` (``bot/actions/players.py``) in a game of a ruleset that supplies no work for it
(``Front.remover`` None: the test ruleset, tests/council): refused with one clear line, nothing recorded."""

from __future__ import annotations

from itertools import count
from typing import Any

from council import FRONT as COUNCIL_FRONT
from council import RULESET as COUNCIL_RULESET
from ledger_front import MODERATOR, text_of
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.actions.commands import App, dispatch
from bot.actions.context import Ctx, Place, UserRef
from bot.actions.rulesets import FRONTS
from engine.service import Clerk
from engine.service.clerk import RULESETS
from engine.store.database import make_sessionmaker

GUILD, CHANNEL = 900, 904
_ids = count(1)


async def run(app: App, command: str, **options: Any) -> list[Any]:
    ctx = Ctx(MODERATOR, Place(GUILD, CHANNEL), f"slash-{next(_ids)}", app.clerk.clock.now())
    return await dispatch(app, ctx, command, options)


async def test_a_ruleset_without_a_remover_refuses_player_remove(db_engine: AsyncEngine, clock: Any,
                                                                 dice: Any) -> None:
    clerk = Clerk(make_sessionmaker(db_engine), clock, dice, rulesets=(*RULESETS, COUNCIL_RULESET))
    app = App(clerk, fronts=(*FRONTS, COUNCIL_FRONT))
    await run(app, "game new", ruleset="council", name="hall")
    game = await clerk.games.game_in_channel(CHANNEL)
    assert game is not None
    [out] = await run(app, "player remove", user=UserRef(21, "alice"))
    assert text_of(out) == "Players cannot be removed from Council games; nothing changed.", text_of(out)
    doc = await clerk.exports.export(game.id)
    assert [e["kind"] for e in doc["events"]] == ["GameCreated"]
