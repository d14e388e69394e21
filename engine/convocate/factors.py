"""Committing Votes to the Resource Pool and pushing Galactic Factors (R4-07, R4-08; P4-02, P4-03, P4-07, P4-15).

A step from ``p`` to ``p ± 1`` costs ``4 + max(|p|, |p ± 1|)`` committed Votes, in either direction; so 0 → ±4
costs 5 + 6 + 7 + 8 = 26 (the table governs the document's "21", P4-07). Each step is paid in full from the pool
when it is made; nothing is paid towards a later step (P4-15)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.convocate.board import GF_LIMIT, Board, Card, Kind, Phase, signed
from engine.convocate.votes import vote_of
from engine.core.derivation import Derivation, Step
from engine.core.errors import RuleError


def step_cost(frm: int, to: int) -> int:
    """R4-08 / P4-03: the cost of one step, keyed on the step, the same both ways."""
    if abs(to - frm) != 1:
        raise RuleError(f"A step moves a Galactic Factor by one, not from {signed(frm)} to {signed(to)}.")
    for value in (frm, to):
        if abs(value) > GF_LIMIT:
            raise RuleError(f"A Galactic Factor runs from −{GF_LIMIT} to +{GF_LIMIT}; {signed(value)} is off the "
                            "track.")
    return 4 + max(abs(frm), abs(to))


def steps(frm: int, to: int) -> list[int]:
    """The cost of each step of a push from ``frm`` to ``to``, in order."""
    return steps_explained(frm, to)[0]


def steps_explained(frm: int, to: int, events: tuple[int, ...] = (), subject: str = "The push",
                    ) -> tuple[list[int], Derivation]:
    """``steps`` and its derivation (``/why push``): each step's cost by the table, and their sum."""
    direction = 1 if to > frm else -1
    costs: list[int] = []
    said: list[Step] = []
    for v in range(frm, to, direction):
        cost = step_cost(v, v + direction)
        costs.append(cost)
        said.append(Step(f"{signed(v)} → {signed(v + direction)}: 4 + {max(abs(v), abs(v + direction))} = {cost}",
                         "a step costs 4 plus the larger distance from 0 of its two ends, the same both ways",
                         rule_id="R4-08, P4-03", events=events))
    total = sum(costs)
    sums = " + ".join(str(c) for c in costs)
    said.append(Step(f"Cost: {sums} = **{total}** committed Votes" if len(costs) > 1 else
                     f"Cost: **{total}** committed Votes", "each step is paid in full from the Resource Pool when it "
                     "is made", rule_id="R4-08, P4-15", events=events))
    return costs, Derivation(subject, f"{total} committed Votes", tuple(said), total)


def push_cost(frm: int, to: int) -> int:
    return sum(steps(frm, to))


@dataclass(frozen=True)
class Committed:
    player: str
    cards: tuple[tuple[str, int], ...]
    added: int
    pool: int
    phase: Phase | None = None
    """The Phase it was made in: outside the Action Phase no push can pay from the pool before it empties."""


def commit(board: Board, player: str, names: list[str], added: int = 0) -> tuple[Board, Committed]:
    """R4-07: activate readied cards the player controls to add their Vote to the Resource Pool (they leave
    Standing Vote until they ready); ``added`` is what a card effect adds to the pool ("add 6 Votes to your
    Resource Pool"). Only in the player's own turn."""
    me = board.player(player)
    if board.active != player or board.phase is None:
        raise RuleError(f"You commit Votes in your own turn; it is {board.when()}.")
    if added < 0:
        raise RuleError("A card effect adds 0 or more Votes to the pool.")
    if not names and not added:
        raise RuleError("Name the cards to activate (e.g. `P_A, K_A`), or the Votes a card effect adds.")
    seen: set[str] = set()
    cards: list[tuple[str, int]] = []
    for name in names:
        card = board.card(name)
        if card.name in seen:
            raise RuleError(f"{card.name} is named twice.")
        seen.add(card.name)
        _check_committable(card, player)
        board = board.activate(card)
        cards.append((card.name, vote_of(card)))
    total = sum(v for _, v in cards) + added
    board = board.with_player(replace(me, pool=me.pool + total))
    return board, Committed(player, tuple(cards), added, me.pool + total, board.phase)


def _check_committable(card: Card, player: str) -> None:
    if card.kind is Kind.SEAT and card.vote == 0:
        raise RuleError(f"{card.name} prints no Vote; a Seat's +1 is Standing Vote and cannot be committed.")
    if card.controller != player:
        raise RuleError(f"You do not control {card.name}" + (f" ({card.controller} does)." if card.controller
                                                            else "."))
    if not card.on_map:
        raise RuleError(f"{card.name} is not on the Map.")
    if not card.readied:
        raise RuleError(f"{card.name} is already activated; it readies in your next Ready Phase.")
    if card.kind.on_board and card.suppressed:
        raise RuleError(f"{card.name}'s Vote is suppressed.")
    if vote_of(card) == 0:
        raise RuleError(f"{card.name} has 0 Vote; activating it would add nothing to the pool.")


@dataclass(frozen=True)
class Pushed:
    player: str
    factor: str
    frm: int
    to: int
    costs: tuple[int, ...]
    pool: int
    """What is left in the pool."""

    @property
    def paid(self) -> int:
        return sum(self.costs)


def push(board: Board, player: str, factor: str, direction: int, count: int = 1) -> tuple[Board, Pushed]:
    """R4-08: move a Galactic Factor ``count`` steps towards +4 (``direction`` 1) or −4 (−1) in the player's own
    Action Phase, paying every step in full from the pool. Nothing moves unless every step can be paid."""
    me = board.player(player)
    if not board.in_phase(player, Phase.ACTION):
        raise RuleError(f"You push a Galactic Factor in your own Action Phase; it is {board.when()}.")
    if direction not in (1, -1):
        raise RuleError("Push a Factor up (towards +4) or down (towards −4).")
    if count < 1:
        raise RuleError("Push at least one step.")
    name = board.factor_name(factor)
    frm = board.factor(name)
    to = frm + direction * count
    if abs(to) > GF_LIMIT:
        raise RuleError(f"{name} is at {signed(frm)}; {count} step{'s' if count != 1 else ''} would take it to "
                        f"{signed(to)}, beyond ±{GF_LIMIT}.")
    costs = steps(frm, to)
    total = sum(costs)
    if total > me.pool:
        sums = " + ".join(str(c) for c in costs)
        need = f"{sums} = {total}" if len(costs) > 1 else str(total)
        raise RuleError(f"Moving {name} from {signed(frm)} to {signed(to)} costs {need} committed Votes, each step "
                        f"paid in full; your Resource Pool holds {me.pool}. Nothing was moved.")
    board = board.with_factor(name, to).with_player(replace(me, pool=me.pool - total))
    return board, Pushed(player, name, frm, to, tuple(costs), me.pool - total)
