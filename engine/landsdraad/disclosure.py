"""What a crisis result gives away (issue 19's disclosure check, docs/rulings.md): the posted AYE/NAY/ABS totals
(R0-19) set beside what is public or soon will be. Each temporary faction's votes and the option it voted (its roll
is posted, R0-19) are public; who has cast a ballot is public (the status card names them), so a player with no
ballot is known to abstain (R0-13); and each player's V(p), though private during play (P0-14), is taken as known:
the final table shows each player's votes, and players compare. So a player is exposed when every combination of
the secret ballots that gives the posted totals gives them the same option."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.core.disclosure import Check, Exposure, Leak, Voter, check, check_classes, exposed, leaks
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
    # builds 10,000 voters: docs/performance-history.md)
    alone: dict[int, frozenset[int]] = {}
    voters += [Voter(name, alone.get(w) or alone.setdefault(w, frozenset((w,))),
                     OPTIONS if name in cast else _ABSTAINED) for name, w in weights.items()]
    found = check(voters, {Option.AYE.value: totals.aye, Option.NAY.value: totals.nay,
                           Option.ABSTAIN.value: totals.abstain})
    return found, exposed(voters, found), leaks(voters, found)


def crisis_check_counted(players: Mapping[tuple[int, bool], int], factions: Sequence[tuple[str, int, Option]],
                         totals: Tally) -> tuple[bool, dict[tuple[int, bool], frozenset[str]]]:
    """``crisis_check`` of the players counted by class: how many have each (V(p), whether they cast a ballot).
    Whether the check was complete, and for each class whose voters the posted totals give something away about,
    the choices still open to them (one: exposed; two: a partial leak). A close of 10,000 players has a few dozen
    classes, so nothing here is done per player (docs/performance-history.md); the close names the players of these
    classes. The same answers as ``crisis_check`` (tests/engine/test_disclosure.py)."""
    classes: dict[tuple[frozenset[int], frozenset[str]], int] = {}
    for _, votes, option in factions:
        key = (frozenset((votes,)), frozenset((option.value,)))
        classes[key] = classes.get(key, 0) + 1
    by_class: dict[tuple[int, bool], tuple[frozenset[int], frozenset[str]]] = {}
    for (weight, cast), count in players.items():
        key = by_class[weight, cast] = (frozenset((weight,)), OPTIONS if cast else _ABSTAINED)
        classes[key] = classes.get(key, 0) + count
    found = check_classes(classes, {Option.AYE.value: totals.aye, Option.NAY.value: totals.nay,
                                    Option.ABSTAIN.value: totals.abstain})
    given_away = {}
    for player_class, key in by_class.items():
        left = found.possible[key]
        if len(key[1]) > 1 and len(left) < len(key[1]):  # a secret ballot the totals narrow (one left: exposed)
            given_away[player_class] = left
    return found.complete, given_away
