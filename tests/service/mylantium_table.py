"""A Mylantium game on a real database for the service tests: the Republic of TV1-I04 (Plutocrats 10 from five
ports, Grangers 14, Proles 20, Brass Hats 20) and shortcuts for what the tests repeat."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from sqlalchemy import select

from engine.mylantium.business import Happening
from engine.mylantium.model import Building, FactionCode, Party
from engine.service import Clerk
from engine.service.clock import ManualClock
from engine.service.views import GameView
from engine.store.models import Event

GUILD, CHANNEL, MOD = 900, 902, 1
USERS = {FactionCode.PL: 11, FactionCode.GR: 12, FactionCode.PR: 13, FactionCode.BH: 14, FactionCode.RB: 15,
         FactionCode.SH: 16, FactionCode.BU: 17, FactionCode.RN: 18}
NAMES = {FactionCode.PL: "pat", FactionCode.GR: "gus", FactionCode.PR: "pru", FactionCode.BH: "bea",
         FactionCode.RB: "rob", FactionCode.SH: "sam", FactionCode.BU: "bud", FactionCode.RN: "red"}


@dataclass
class Republic:
    clerk: Clerk
    clock: ManualClock
    game: GameView
    _n: int = field(default=0)

    @property
    def id(self) -> int:
        return self.game.id

    def source(self) -> str:
        self._n += 1
        return f"myl-{self._n}"

    async def faction(self, code: FactionCode, party: Party, vp: int = 20, treasury: int = 0,
                      votes: dict[str, int] | None = None) -> None:
        await self.clerk.mylantium.register_faction(self.id, code=code, user_id=USERS[code], user_name=NAMES[code],
                                                    party=party, vp=vp, treasury=treasury, actor=MOD)
        for territory, n in (votes or {}).items():
            await self.clerk.mylantium.set_faction_votes(self.id, code=code, territory=territory, votes=n, actor=MOD)

    async def happen(self, what: Happening, amount: int = 1) -> None:
        await self.clerk.mylantium.business.record_happening(self.id, what=what, amount=amount, note=None, actor=MOD)

    async def choose(self, code: FactionCode, stage: str, choice: str, **kw: Any) -> Any:
        return await self.clerk.mylantium.elections.choose(self.id, user_id=USERS[code], stage=stage, choice=choice,
                                                           at=kw.pop("at", self.clock.now()),
                                                           source_id=kw.pop("source_id", self.source()))

    async def open(self, stage: str, hours: int | None = None) -> Any:
        deadline = self.clock.now() + timedelta(hours=hours) if hours else None
        return await self.clerk.mylantium.elections.open_election(self.id, stage=stage, deadline=deadline, actor=MOD)


async def republic(clerk: Clerk, clock: ManualClock, *, tv1_i04: bool = True) -> Republic:
    game = await clerk.games.create_game(guild_id=GUILD, channel_id=CHANNEL, name="mylantium", ruleset="mylantium",
                                         moderator_role_id=None, actor=MOD)
    r = Republic(clerk, clock, game)
    for name, ports in (("Avalon", 3), ("Bicardia", 2)):
        await clerk.mylantium.add_territory(game.id, name=name, actor=MOD)
        await clerk.mylantium.change_buildings(game.id, territory=name, kind=Building.PORT, count=ports, name=None,
                                               remove=False, actor=MOD)
    if tv1_i04:
        await r.faction(FactionCode.PL, Party.WHIG)
        await r.faction(FactionCode.GR, Party.WHIG, votes={"Avalon": 8, "Bicardia": 6})
        await r.faction(FactionCode.PR, Party.FEDERALIST, votes={"Avalon": 12, "Bicardia": 8})
        await r.faction(FactionCode.BH, Party.FEDERALIST, votes={"Bicardia": 20})
    return r


async def seqs(r: Republic, kind: str) -> list[int]:
    """The event numbers of the game's events of ``kind``, in order."""
    return await _of_events(r, kind, Event.seq)


async def payloads(r: Republic, kind: str) -> list[dict[str, Any]]:
    """The payloads of the game's events of ``kind``, in order."""
    return await _of_events(r, kind, Event.payload)


async def _of_events(r: Republic, kind: str, column: Any) -> list[Any]:
    async with r.clerk._sessions() as session:
        found = await session.execute(select(column).where(Event.game_id == r.id, Event.kind == kind)
                                      .order_by(Event.seq))
        return list(found.scalars())


CANDIDATES = (("Lee", FactionCode.PL, 7), ("Ash", FactionCode.GR, 3), ("Kim", FactionCode.PR, 5),
              ("Max", FactionCode.BH, 4))
"""TV1-I04's candidates: (name, Faction, Charisma)."""


async def with_candidates(r: Republic, *, president: FactionCode = FactionCode.PR, approval: int = 60) -> Republic:
    """``r`` with TV1-I04's candidates and its government page (the Proles' Presidency, approval 60)."""
    for name, code, charisma in CANDIDATES:
        await r.clerk.mylantium.add_candidate(r.id, name=name, code=code, charisma=charisma, actor=MOD)
    await r.clerk.mylantium.set_government(r.id, president=president, approval=approval, actor=MOD)
    return r
