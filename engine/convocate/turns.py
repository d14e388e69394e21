"""Turns and phases (rules-spec §4.2.8; R4-06, R4-07): Ready, Action, Admin for each player in turn order. The
Resource Pool empties at the end of every Phase; in a player's Ready Phase their activated cards ready; effects
"until end of turn" end with the turn."""

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


def next_phase(board: Board) -> tuple[Board, PhaseChanged]:
    order = board.turn_order()
    if not order:
        raise RuleError("There are no players yet; a moderator adds them with /convocate player.")
    lost = tuple((p.name, p.pool) for p in board.players if p.pool)
    board = replace(board, players=tuple(replace(p, pool=0) for p in board.players))
    ended = (board.active, board.phase) if board.active is not None and board.phase is not None else None
    expired: list[str] = []
    if board.phase in NEXT and board.active is not None:
        board = replace(board, phase=NEXT[board.phase])
        assert board.phase is not None and board.active is not None
        return board, PhaseChanged(ended, (board.active, board.phase), board.turn, lost, (), ())
    if board.phase is Phase.ADMIN:
        names = [p.name for p in order]
        current = names.index(board.active) if board.active in names else -1
        nxt = names[(current + 1) % len(names)]
        expired = [f"{p.name} {p.temp:+d} Vote" for p in board.players if p.temp]
        expired += [f"{c.name} {c.bonus:+d} Vote" for c in board.cards if c.bonus]
        board = replace(board, players=tuple(replace(p, temp=0) for p in board.players),
                        cards=tuple(replace(c, bonus=0) if c.bonus else c for c in board.cards))
    else:
        nxt = order[0].name
    board = replace(board, active=nxt, phase=Phase.READY, turn=board.turn + 1)
    readied = [c.name for c in board.cards if c.controller == nxt and not c.readied]
    board = replace(board, cards=tuple(replace(c, readied=True) if c.name in readied else c for c in board.cards))
    assert board.phase is not None
    return board, PhaseChanged(ended, (nxt, board.phase), board.turn, lost, tuple(readied), tuple(expired))

