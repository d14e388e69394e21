"""Motions (R4-13..R4-16; P4-13): a Convocant brings one to the floor; nothing stops it; the offer to second goes
round the table from the mover; Moved, then Seconded (or, for "Instead", Seconded only); then each Convocant's
Penalty."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from engine.convocate.access import Access, access, eligible
from engine.convocate.board import Board, Phase
from engine.core.errors import RuleError


class Box(Enum):
    """The Motion's Seconded box."""

    NONE = "none"
    ADDS = "adds"
    INSTEAD = "instead"


def box_of(seconded: str | None) -> Box:
    """No ``Seconded`` given: the card has the usual box, which adds. ``none``: no box. Text that begins
    "Instead" replaces the Moved text (R4-15)."""
    if seconded is None:
        return Box.ADDS
    text = seconded.strip()
    if text.lower() in ("none", "no", "-", "—", ""):
        return Box.NONE
    return Box.INSTEAD if text.lower().startswith("instead") else Box.ADDS


@dataclass(frozen=True)
class MotionCard:
    """What Clerk needs to know of a Motion card; the texts are recorded, not interpreted."""

    name: str
    morality: str | None = None
    moved: str = ""
    seconded: str | None = None
    only: str | None = None
    """"This Motion may only be moved by Kista."""
    targets: str = ""
    """The Moved targets, chosen by the mover (R4-14)."""

    @property
    def box(self) -> Box:
        return box_of(self.seconded)


@dataclass(frozen=True)
class Moved:
    motion: MotionCard
    mover: str
    access: Access
    offer: tuple[str, ...]
    """The players to offer the second to, in order (empty: the Motion cannot be seconded)."""


def offer_order(board: Board, mover: str) -> tuple[str, ...]:
    """P4-13: every player once, round the turn order starting with the mover (``mover-last``: starting with
    the next player)."""
    names = [p.name for p in board.turn_order()]
    start = names.index(mover)
    ring = names[start:] + names[:start]
    if board.rulings.second_order == "mover-last":
        ring = ring[1:] + ring[:1]
    return tuple(ring)


def move(board: Board, player: str, motion: MotionCard, convocant: str) -> tuple[Board, Moved]:
    """R4-13/R4-16 step 1: in the player's own Action Phase, activate a Convocant with access and choose the Moved
    targets. A Motion costs only Morality: no Currency."""
    board.player(player)
    if not board.in_phase(player, Phase.ACTION):
        raise RuleError(f"You move a Motion in your own Action Phase; it is {board.when()}.")
    how = access(board, player, convocant, motion.only)
    board = board.activate(board.card(how.convocant))
    offer = offer_order(board, player) if motion.box is not Box.NONE else ()
    return board, Moved(motion, player, how, offer)


def second(board: Board, player: str, motion: MotionCard, convocant: str) -> tuple[Board, Access]:
    """R4-15: a player asked may activate one Convocant with access (for their own Seats and Homeworld) to second.
    A Motion with no Seconded box, such as the Motion of Repeal, cannot be seconded."""
    if motion.box is Box.NONE:
        raise RuleError(f"{motion.name} has no Seconded box, so it cannot be seconded and no offer is made.")
    how = access(board, player, convocant)
    return board.activate(board.card(how.convocant)), how


def can_second(board: Board, player: str, motion: MotionCard) -> list[Access]:
    """The Convocants ``player`` could second with now (empty: skip them in the offer)."""
    if motion.box is Box.NONE:
        return []
    return eligible(board, player)


@dataclass(frozen=True)
class Penalty:
    convocant: str
    player: str
    morality: str
    penalty: str | None


@dataclass(frozen=True)
class Resolved:
    motion: MotionCard
    seconded_by: str | None
    effects: tuple[tuple[str, str], ...]
    """(box, text) in the order they resolve: ("Moved", ...), ("Seconded", ...)."""
    released: bool
    """An "Instead" Seconded box replaced the Moved text: its targets are released."""
    penalties: tuple[Penalty, ...]
    unknown: tuple[str, ...]
    """Convocants whose Morality (or the Motion's) is not on the board: their Penalty is for the table to check."""


def resolve(board: Board, motion: MotionCard, mover: tuple[str, str], seconder: tuple[str, str] | None) -> Resolved:
    """R4-16 steps 4–5: Moved, then Seconded (an "Instead" box alone, releasing the Moved targets); then each
    Convocant whose Morality differs from the Motion's pays its Penalty. A Penalty never stops the Motion.
    ``mover`` and ``seconder`` are (player, Convocant)."""
    effects: list[tuple[str, str]] = []
    released = False
    if seconder is not None and motion.box is Box.INSTEAD:
        effects.append(("Seconded", motion.seconded or ""))
        released = True
    else:
        effects.append(("Moved", motion.moved))
        if seconder is not None:
            effects.append(("Seconded", motion.seconded or ""))
    penalties: list[Penalty] = []
    unknown: list[str] = []
    for player, name in (mover, *((seconder,) if seconder else ())):
        card = board.find(name)
        morality = card.morality if card else None
        if motion.morality is None or morality is None:
            unknown.append(name)
        elif morality.strip().lower() != motion.morality.strip().lower():
            penalties.append(Penalty(name, player, morality, card.penalty if card else None))
    return Resolved(motion, seconder[0] if seconder else None, tuple(effects), released, tuple(penalties),
                    tuple(unknown))


def ready_again(board: Board, player: str, convocant: str) -> tuple[Board, str | None]:
    """A moderator's correction of a Motion (withdrawn while offered, or a second taken back): the Convocant
    ``player`` activated to move or second it is readied, as if it had never been (R4-06 would keep it activated until
    their next Ready Phase). Returns the board and None, or the board unchanged and why the Convocant was not readied
    (it left the board, changed hands, or was readied already by hand)."""
    card = board.find(convocant)
    if card is None:
        return board, f"{convocant} is no longer on the board"
    if card.controller != player:
        return board, f"{convocant} is controlled by {card.controller or 'nobody'} now, not {player}"
    if card.readied:
        return board, f"{convocant} is readied already"
    return board.with_card(replace(card, readied=True)), None
