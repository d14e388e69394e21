"""What a crisis result gives away (issue 19's disclosure check, docs/rulings.md): the posted AYE/NAY/ABS totals
(R0-19) set beside what is public or soon will be. Each temporary faction's votes and the option it voted (its roll
is posted, R0-19) are public; who has cast a ballot is public (the status card names them), so a player with no
ballot is known to abstain (R0-13); and each player's V(p), though private during play (P0-14), is taken as known:
the final table shows each player's votes, and players compare. So a player is exposed when every combination of
the secret ballots that gives the posted totals gives them the same option."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.core.disclosure import Check, Exposure, Leak, Voter, check, exposed, leaks
from engine.landsdraad.model import Option
from engine.landsdraad.tally import Tally

OPTIONS = frozenset(o.value for o in Option)
_ABSTAINED = frozenset((Option.ABSTAIN.value,))
"""The one choice of a player with no ballot (R0-13)."""


def crisis_check(weights: Mapping[str, int], cast: frozenset[str], factions: Sequence[tuple[str, int, Option]],
                 totals: Tally) -> tuple[Check, tuple[Exposure, ...], tuple[Leak, ...]]:
    """``weights``: every active player's V(p) at the close, by name; ``cast``: who had a ballot; ``factions``:
    (name, votes, option voted) of each temporary faction. The check, the players it finds exposed, and those whose
    ballot it partly gives away (an option ruled out, more than one left)."""
    voters = [Voter.public_weight(f"faction {name}", votes, (option.value,)) for name, votes, option in factions]
    # One frozenset per weight and per set of choices, shared by the players who have them (a close of 10,000
    # builds 10,000 voters: docs/performance.md)
    alone: dict[int, frozenset[int]] = {}
    voters += [Voter(name, alone.get(w) or alone.setdefault(w, frozenset((w,))),
                     OPTIONS if name in cast else _ABSTAINED) for name, w in weights.items()]
    found = check(voters, {Option.AYE.value: totals.aye, Option.NAY.value: totals.nay,
                           Option.ABSTAIN.value: totals.abstain})
    return found, exposed(voters, found), leaks(voters, found)
