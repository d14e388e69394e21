"""The weighted AG election the AG errata tests share: ann (21) votes ann, bo (22) and cy (23) vote bo, and the
election closes."""

from __future__ import annotations

from typing import Any

ANN, BO, CY = 21, 22, 23
MOD = 1


async def ann_against_bo(table: Any) -> None:
    """Open an AG election, cast ann -> ann, bo -> bo, cy -> bo, close it."""
    adjutant = table.clerk.landsdraad.adjutant
    await adjutant.open_election(table.game_id, deadline=None, actor=MOD)
    for voter, candidate in ((ANN, "ann"), (BO, "bo"), (CY, "bo")):
        await adjutant.cast_ag_vote(table.game_id, user_id=voter, candidate=candidate, at=table.clock.now(),
                                    source_id=table.source())
    await adjutant.close_election(table.game_id, actor=MOD)
