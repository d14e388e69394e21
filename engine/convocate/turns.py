"""Turns and phases (rules-spec §4.2.8; R4-06, R4-07): Ready, Action, Admin for each player in turn order. The
Resource Pool empties at the end of every Phase; in a player's Ready Phase their activated cards ready; effects
"until end of turn" end with the turn.

A moderator's ``/phase back`` (play-test U2.2) takes back the latest step exactly: ``previous_phase`` undoes what
``next_phase`` recorded in its ``PhaseChanged`` (docs/rulings.md, "Stepping the phase back")."""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.convocate.board import Board, Phase
from engine.core.errors import RuleError

NEXT = {Phase.READY: Phase.ACTION, Phase.ACTION: Phase.ADMIN}


@dataclass(frozen=True)
class PhaseChanged:
    ended: tuple[str, Phase] | None
    started: tuple[str, Phase]
    turn: int
    lost: tuple[tuple[str, int], ...]
    """Votes left in each player's pool at the end of the Phase, lost (R4-07)."""
    readied: tuple[str, ...]
    """Cards that readied at the start of a Ready Phase (R4-06)."""
    expired: tuple[str, ...]
    """Temporary effects that ended with the turn."""
    temps: tuple[tuple[str, int], ...] = ()
    """Each player's "+N Vote until end of turn" that ended with the turn (``expired`` in words), to step back."""
    bonuses: tuple[tuple[str, int], ...] = ()
    """Each card's "+N Vote until end of turn" that ended with the turn, to step back."""


@dataclass(frozen=True)
class PhaseReturned:
    """A step taken back: the board is in ``back`` again, as before the ``/phase next`` that began ``left``."""

    left: tuple[str, Phase]
    """The Phase stepped back out of (it had begun with the step)."""
    left_turn: int
    back: tuple[str, Phase]
    turn: int
    pools: tuple[tuple[str, int], ...]
    """The Resource Pools as they were before the step (R4-07 had emptied them)."""
    activated: tuple[str, ...]
    """The cards that had readied in the Ready Phase stepped out of (R4-06): activated again."""
    effects: tuple[str, ...]
    """The temporary effects that had ended with the turn: in force again."""


def next_phase(board: Board) -> tuple[Board, PhaseChanged]:
    order = board.turn_order()
    if not order:
        raise RuleError("There are no players yet; a moderator adds them with /convocate player.")
    lost = tuple((p.name, p.pool) for p in board.players if p.pool)
    board = replace(board, players=tuple(replace(p, pool=0) for p in board.players))
    ended = (board.active, board.phase) if board.active is not None and board.phase is not None else None
    expired: list[str] = []
    temps: tuple[tuple[str, int], ...] = ()
    bonuses: tuple[tuple[str, int], ...] = ()
    if board.phase in NEXT and board.active is not None:
        board = replace(board, phase=NEXT[board.phase])
        assert board.phase is not None and board.active is not None
        return board, PhaseChanged(ended, (board.active, board.phase), board.turn, lost, (), ())
    if board.phase is Phase.ADMIN:
        names = [p.name for p in order]
        current = names.index(board.active) if board.active in names else -1
        nxt = names[(current + 1) % len(names)]
        temps = tuple((p.name, p.temp) for p in board.players if p.temp)
        bonuses = tuple((c.name, c.bonus) for c in board.cards if c.bonus)
        expired = [f"{name} {n:+d} Vote" for name, n in (*temps, *bonuses)]
        board = replace(board, players=tuple(replace(p, temp=0) for p in board.players),
                        cards=tuple(replace(c, bonus=0) if c.bonus else c for c in board.cards))
    else:
        nxt = order[0].name
    board = replace(board, active=nxt, phase=Phase.READY, turn=board.turn + 1)
    readied = [c.name for c in board.cards if c.controller == nxt and not c.readied]
    board = replace(board, cards=tuple(replace(c, readied=True) if c.name in readied else c for c in board.cards))
    assert board.phase is not None
    return board, PhaseChanged(ended, (nxt, board.phase), board.turn, lost, tuple(readied), tuple(expired), temps,
                               bonuses)


def previous_phase(board: Board, step: PhaseChanged) -> tuple[Board, PhaseReturned]:
    """The board as it was before ``step`` (the latest ``/phase next``, nothing recorded since): the Phase it ended
    is under way again, in its turn; every Resource Pool holds what it lost (R4-07); the cards that readied in the
    Ready Phase it began are activated again (R4-06); the effects "until end of turn" it ended are back. The first
    step, which began the game, has no Phase before it. RuleError, changing nothing, when the board is not as the
    step left it."""
    if step.ended is None:
        raise RuleError("The latest /phase next began the first turn; there is no Phase before it to go back to "
                        "(the table can still be set up during the turn).")
    player, phase = step.started
    if (board.active, board.phase, board.turn) != (player, phase, step.turn):
        raise RuleError(f"The board is not as the latest /phase next left it (turn {step.turn}, {player}'s "
                        f"{phase.label}); it is turn {board.turn}, {board.when()}. Nothing was changed.")
    full = [p.name for p in board.players if p.pool]
    if full:
        raise RuleError(f"Votes were committed since the latest /phase next ({', '.join(full)}); nothing was "
                        "changed.")
    names = {p.name for p in board.players}
    cards = {c.name: c for c in board.cards}
    missing = [n for n, _ in (*step.lost, *step.temps) if n not in names]
    missing += [n for n in (*step.readied, *(c for c, _ in step.bonuses)) if n not in cards]
    if missing or any(not cards[n].readied for n in step.readied):
        raise RuleError("The board has changed since the latest /phase next (" + (", ".join(missing) or "a card it "
                        "readied is activated") + "); nothing was changed.")
    lost, temps, bonuses = dict(step.lost), dict(step.temps), dict(step.bonuses)
    players = tuple(replace(p, pool=lost.get(p.name, 0), temp=temps.get(p.name, p.temp)) for p in board.players)
    again = set(step.readied)
    board = replace(board, players=players, active=step.ended[0], phase=step.ended[1],
                    turn=step.turn - 1 if phase is Phase.READY else step.turn,
                    cards=tuple(replace(c, readied=c.readied and c.name not in again,
                                        bonus=bonuses.get(c.name, c.bonus)) for c in board.cards))
    assert board.active is not None and board.phase is not None
    return board, PhaseReturned(step.started, step.turn, (board.active, board.phase), board.turn, step.lost,
                                step.readied, step.expired)

