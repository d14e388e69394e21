"""After ``/game settings setting:ag_weighted``: which closed Adjutant General elections would have come out
differently under the setting as it is now, told privately to the moderator (``Front.after_setting``). Nothing
posted or recorded is changed."""

from __future__ import annotations

from typing import Any

from bot.actions.front import AfterSetting
from bot.actions.outbox import Outgoing, ToChannel, ToThread, reply
from engine.service.landsdraad.adjutant import AgRecount, recount_in
from engine.service.views import GameView


def _standings(s: tuple[tuple[str, int], ...]) -> str:
    return ", ".join(f"{c} {n}" for c, n in s) or "no ballots"


def recount_line(r: AgRecount) -> str:
    winner = (f"the winner would be {r.recounted[0][0]}, not {r.posted[0][0]}" if r.winner_changed
              else "the same winner")
    return f"AG election {r.number}: posted {_standings(r.posted)}; now {_standings(r.recounted)} ({winner})"


async def _read(session: Any, game_id: int, name: str) -> tuple[GameView, tuple[AgRecount, ...]] | None:
    return await recount_in(session, game_id) if name == "ag_weighted" else None


def _said(game: GameView, place: ToChannel | ToThread, found: tuple[GameView, tuple[AgRecount, ...]]
          ) -> list[Outgoing]:
    g, recounts = found
    if not recounts:
        return [reply(f"ag_weighted: no closed AG election of {g.name} comes out differently.", ephemeral=True)]
    return [reply("\n".join([f"ag_weighted changes closed AG elections of {g.name} (nothing posted has been "
                             "changed; the office stays with whoever holds it):",
                             *(recount_line(r) for r in recounts)]), ephemeral=True)]


AFTER_SETTING = AfterSetting(_read, _said)
"""The closed AG elections a change of ``ag_weighted`` changes, privately (read in the change's transaction); other
settings: nothing (``Front.after_setting``)."""
