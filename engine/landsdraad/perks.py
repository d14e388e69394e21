"""Perks (R0-70..R0-73, P0-12, P0-13): competition ranking by V(p); only a sole holder gets a perk."""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum


class Perk(Enum):
    PRO_TEMPORE = "Chancellor Pro tempore"
    CHOAM = "CHOAM Directorship"
    MASTER_AT_ARMS = "Master at Arms"


POSITIONS = {1: Perk.PRO_TEMPORE, 2: Perk.CHOAM, 3: Perk.MASTER_AT_ARMS}


def competition_ranks(votes: Mapping[int, int]) -> dict[int, int]:
    """Standard competition ranking (1, 2, 2, 4) by votes, most first."""
    ordered = sorted(votes.values(), reverse=True)
    return {player: ordered.index(v) + 1 for player, v in votes.items()}


def award_perks(votes: Mapping[int, int]) -> dict[Perk, int]:
    """R0-71 / P0-12: the perk of position k goes to the player ranked k only if nobody shares that rank."""
    ranks = competition_ranks(votes)
    awarded: dict[Perk, int] = {}
    for position, perk in POSITIONS.items():
        holders = [p for p, r in ranks.items() if r == position]
        if len(holders) == 1:
            awarded[perk] = holders[0]
    return awarded


def militia_location(locations: list[tuple[str, bool]]) -> list[str]:
    """R0-73 / P0-13: the Master at Arms' militia may arrive only at a controlled non-Homeworld location."""
    return [name for name, homeworld in locations if not homeworld]
