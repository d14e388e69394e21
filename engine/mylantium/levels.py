"""Revolutionary Fervor and the Approval Rating as they stand (``/why fervor-level``, ``/why approval-level``): the
start, every change the ledger recorded in order (its turn, its cause in words, the event that recorded it), their
sum, and the check that the sum is the figure the game holds. When it is not (changes made before Clerk recorded
them all), the answer says so and shows the figure as stored, never the sum. Pure: no I/O."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.core.derivation import Derivation, Step


@dataclass(frozen=True)
class Logged:
    """One recorded change: ``where`` what made it, in words (``the Business Phase's close``; empty when not known),
    ``event`` the number of the event that recorded it (None: recorded before Clerk kept it)."""

    turn: int
    cause: str
    delta: int
    where: str = ""
    event: int | None = None
    rule: str = ""
    rule_id: str = ""


@dataclass(frozen=True)
class Level:
    """What is explained: ``title`` (``Revolutionary Fervor``), ``unit`` (``%`` or nothing), the ``start`` and why it
    is the start (``rule``, ``rule_id``), and where a single change is explained further (``more``)."""

    title: str
    unit: str
    start: int
    start_says: str
    rule: str
    rule_id: str = ""
    more: str = ""


SPELLED = 24
"""Up to this many changes, the sum is written out term by term; beyond, as their total (one line must fit a
Discord message)."""


def _signed(n: int) -> str:
    return f"+ {n}" if n >= 0 else f"− {-n}"


def level_explained(level: Level, changes: Sequence[Logged], stored: int) -> Derivation:
    """``level`` now: its start, each change (with the running figure after it; the rule it applied named at the
    first change that applied it), the sum, checked against ``stored`` (the figure the game holds, which the answer
    shows whatever the changes add up to)."""
    u = level.unit
    steps = [Step(f"Start: {level.start}{u} ({level.start_says})", level.rule, rule_id=level.rule_id)]
    running = level.start
    told: set[tuple[str, str]] = set()  # a rule is named at its first change only: a long game has hundreds
    for c in changes:
        running += c.delta
        when = f"Turn {c.turn}" + (f", {c.where}" if c.where else "")
        unnumbered = "" if c.event is not None else " (recorded before Clerk kept its event)"
        rule, rule_id = ("", "") if (c.rule, c.rule_id) in told else (c.rule, c.rule_id)
        told.add((c.rule, c.rule_id))
        steps.append(Step(f"{when}: {c.delta:+d}: {c.cause} → {running}{u}{unnumbered}", rule, rule_id=rule_id,
                          events=(c.event,) if c.event is not None else ()))
    if not changes:
        steps.append(Step(f"No change recorded since the start: **{running}**{u}", "only a recorded change moves it"))
    else:
        sums = (" ".join(_signed(c.delta) for c in changes) if len(changes) <= SPELLED
                else f"{_signed(running - level.start)} (the {len(changes)} changes above)")
        steps.append(Step(f"{level.start} {sums} = **{running}**{u}", "every change is added when it is made"))
    notes = []
    old = sum(1 for c in changes if c.event is None)
    if old:
        notes.append(f"{old} of the changes {'was' if old == 1 else 'were'} recorded before Clerk kept the event that "
                     "made each, so they cite none.")
    if running == stored:
        result = f"{stored}{u}"
    else:
        result = f"{stored}{u} as stored"
        notes.append(f"The changes Clerk recorded add up to {running}{u}, not the {stored}{u} the game holds (some "
                     f"were made before Clerk recorded them all?); the stored {stored}{u} stands, and the moderators "
                     "can correct it with /government set.")
    if level.more:
        notes.append(level.more)
    return Derivation(f"{level.title} now", result, tuple(steps), stored, note=" ".join(notes))
