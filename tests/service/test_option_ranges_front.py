"""Values the rules allow, through the front end (``dispatch``, issue 16 "Values outside what the rules allow are
refused with the range"): a Landsdraad Homeworld needs no quality; the other points are in the tests of their
ruleset (test_service_convocate.py, test_mylantium_front.py) and the command-table sweep below."""

from __future__ import annotations

from itertools import count
from typing import Any

from conftest import Table
from ledger_front import CHANNEL, GUILD, MODERATOR, actor, only_here, slash, text_of, user

from bot.actions.commands import App, dispatch
from bot.actions.context import Actor, Ctx, Place
from bot.actions.outbox import Outgoing
from engine.landsdraad.import_file import parse as parse_landsdraad
from engine.service import Clerk
from engine.service.landsdraad.imports import import_records

JENNY = actor(10, "jenny")
_ids = count(1)


async def run(clerk: Clerk, who: Actor, command: str, options: dict[str, Any]) -> list[Outgoing]:
    """A slash command in the game channel, its options as a dict (some are called ``name``)."""
    ctx = Ctx(who, Place(GUILD, CHANNEL), f"opt-{next(_ids)}", clerk.clock.now())
    return await dispatch(App(clerk), ctx, command, options)


async def test_a_homeworld_needs_no_quality_and_reads_as_a_homeworld(table: Table) -> None:
    await table.player(JENNY.id, "jenny", 3, 2, 1)
    added = await run(table.clerk, MODERATOR, "holding add", dict(player=user(JENNY.id, "jenny"), kind="planet",
                                                                  name="Caladan", homeworld=True))
    assert only_here(added[:1]) == "Caladan (planet, Homeworld) now belongs to jenny, who has 8 votes."
    me = text_of((await slash(table.clerk, JENNY, "me"))[0])
    assert "• Caladan: planet, Homeworld, 0 votes" in me and "None" not in me
    doc = await table.clerk.exports.export(table.game_id, include_events=True)
    (player,) = doc["players"]
    assert player["holdings"] == [{"kind": "planet", "name": "Caladan", "grade": None, "votes": 0,
                                   "homeworld": True}]
    (event,) = [e for e in doc["events"] if e["kind"] == "HoldingAdded"]
    assert event["payload"]["grade"] is None
    # a Homeworld with a quality keeps it; a planet that is not a Homeworld still needs one, and nothing is recorded
    rich = await run(table.clerk, MODERATOR, "holding add", dict(player=user(JENNY.id, "jenny"), kind="planet",
                                                                 name="Kaitain", quality="rich", homeworld=True))
    assert only_here(rich[:1]).startswith("Kaitain (planet, rich, Homeworld) now belongs to jenny")
    before = await table.kinds()
    bare = await run(table.clerk, MODERATOR, "holding add", dict(player=user(JENNY.id, "jenny"), kind="planet",
                                                                 name="Deneb"))
    assert only_here(bare) == "Give the planet's quality: poor, average or rich (a Homeworld needs none)."
    votes = await run(table.clerk, MODERATOR, "holding add", dict(player=user(JENNY.id, "jenny"), kind="planet",
                                                                  name="Deneb", homeworld=True, votes=2))
    assert only_here(votes) == "A Homeworld gives no votes; leave votes out."
    assert await table.kinds() == before


async def test_a_homeworld_in_a_set_up_file_needs_no_quality(table: Table) -> None:
    data = (b"record,user,diplomacy,command,intrigue,player,kind,name,quality,homeworld\n"
            b"player,<@10>,3,2,1,,,,,\n"
            b"holding,,,,,<@10>,planet,Caladan,,true\n")
    records = parse_landsdraad("s.csv", data)
    await import_records(table.clerk.landsdraad.ledger, table.game_id, filename="s.csv", records=records,
                         users={"<@10>": (10, "jenny")}, actor=1, source_id="imp-1")
    (jenny,) = await table.clerk.landsdraad.ledger.players(table.game_id)
    assert [(h.name, h.grade, h.votes, h.homeworld) for h in jenny.holdings] == [("Caladan", None, 0, True)]
