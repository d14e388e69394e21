"""A Mylantium set-up file applied: its Factions, territories, buildings, units, Candidates and Faction Votes,
through the one-by-one commands' own use cases in one transaction (``engine.service.imports``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence

from engine.core.importing import Record
from engine.mylantium.model import Building, FactionCode, Party
from engine.service.imports import Imports, Step
from engine.service.mylantium.service import MylantiumService


async def import_records(myl: MylantiumService, game_id: int, *, filename: str, records: Sequence[Record],
                         users: Mapping[str, tuple[int, str]], actor: int | None,
                         source_id: str | None) -> dict[str, int]:
    """``users``: each ``user`` cell of the file -> (user id, name). ``records`` as ``parse`` returns them."""
    steps = [Step(r.line, r.kind, _step(myl, game_id, r, users, actor)) for r in records]
    return await Imports(myl.backend).apply(game_id, filename=filename, steps=steps, actor=actor,
                                            source_id=source_id)


def _step(myl: MylantiumService, game_id: int, r: Record, users: Mapping[str, tuple[int, str]],
          actor: int | None) -> Callable[[str | None], Awaitable[object]]:
    async def run(source: str | None) -> object:
        if r.kind == "faction":
            uid, name = users[str(r.get("user"))]
            return await myl.register_faction(game_id, code=FactionCode[str(r.get("faction"))], user_id=uid,
                                              user_name=name, party=Party(str(r.get("party"))),
                                              vp=r.get("vp") or 0, treasury=r.get("treasury") or 0, actor=actor,
                                              source_id=source)
        if r.kind == "territory":
            return await myl.add_territory(game_id, name=str(r.get("name")), actor=actor, source_id=source)
        if r.kind == "building":
            return await myl.change_buildings(game_id, territory=str(r.get("territory")),
                                              kind=Building(str(r.get("kind"))), count=r.get("count") or 1,
                                              name=r.get("name"), remove=False, actor=actor, source_id=source)
        if r.kind == "unit":
            return await myl.add_unit(game_id, name=str(r.get("name")), territory=str(r.get("territory")),
                                      maintenance=r.get("maintenance"), cost=r.get("cost"),
                                      status=r.get("status"), actor=actor, source_id=source)
        if r.kind == "candidate":
            return await myl.add_candidate(game_id, name=str(r.get("name")), code=FactionCode[str(r.get("faction"))],
                                           charisma=r.get("charisma"), actor=actor, source_id=source)
        building = r.get("building")
        return await myl.set_faction_votes(game_id, code=FactionCode[str(r.get("faction"))],
                                           territory=r.get("territory"), votes=r.get("votes"),
                                           building=Building(building) if building else None, actor=actor,
                                           source_id=source)
    return run
