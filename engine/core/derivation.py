"""Where a posted number comes from: the steps a pure rule took to reach it (``/why``, docs/commands.md).

A rule that posts a number returns its ``Derivation`` beside its result, built by the same code that computed the
result, so the explanation cannot drift from it. Each ``Step`` says in words what was done, with its inputs, the
rule it applied (in words, and its id for moderators) and the event numbers it read. A step that rests on a secret
(a crisis ballot, a perk, a contribution) names who may see it; ``Derivation.seen_by`` keeps only what a viewer may
see and says how much was withheld. Pure: no I/O, no discord, no database."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace


@dataclass(frozen=True)
class Step:
    says: str
    """What was done, with its inputs and its outcome, in words: ``Aye: alice 11 + carol 5 = 16``."""
    rule: str = ""
    """The rule it applies, in words: ``a crisis vote passes with more Aye than Nay``."""
    rule_id: str = ""
    """The rule's id in ../shared/rules-spec.md (``R1-05``), shown to moderators only."""
    events: tuple[int, ...] = ()
    """The event numbers (``#41``) of the ledger it read."""
    seen_by: frozenset[str] | None = None
    """None: anyone may see it. Otherwise it rests on a secret, and only these players (and the moderators) may."""
    stand_in: bool = False
    """The public form of the step before it, for those who may not see that one (``Aye: the players 10`` after
    ``Aye: alice 10``): a moderator, who sees both, is shown only the one with names."""


@dataclass(frozen=True)
class Derivation:
    subject: str
    """What is explained: ``Round 3 of sirius: the result``."""
    result: str
    """The number as it was posted: ``passed, Aye 16 against Nay 7``."""
    steps: tuple[Step, ...] = ()
    value: object = None
    """The number itself (an int, a ``Fraction``, a tuple of them), for a test to compare with what was posted."""
    withheld: int = 0
    """How many steps were left out of this copy because they rest on secrets the viewer may not see."""
    note: str = ""
    """A closing remark (what the withheld steps were about, why a number is final)."""
    parts: tuple[Derivation, ...] = field(default=())
    """Derivations this one rests on (each category of a final score), explained after its own steps."""
    public: str | None = None
    """What someone who does not moderate sees as ``result`` when the whole result may not be shown (the disclosure
    check coarsened or held it); None: ``result``."""

    def seen_by(self, player: str | None, moderator: bool) -> Derivation:
        """The copy ``player`` (None: someone who plays none of it) may see; a moderator sees everything."""
        if moderator:
            parts = tuple(p.seen_by(player, moderator) for p in self.parts)
            return replace(self, steps=tuple(s for s in self.steps if not s.stand_in), parts=parts)
        kept = tuple(s for s in self.steps if s.seen_by is None or (player is not None and player in s.seen_by))
        parts = tuple(p.seen_by(player, moderator) for p in self.parts)
        return replace(self, steps=kept, parts=parts, withheld=self.withheld + len(self.steps) - len(kept),
                       result=self.result if self.public is None else self.public)

    def moderators_only(self, public: str) -> Derivation:
        """This derivation with every step for the moderators only and ``public`` as the result others see (a
        result the disclosure check coarsened or held: ``/why`` must not give away what the card did not post)."""
        return replace(self, steps=tuple(replace(s, seen_by=frozenset()) for s in self.steps),
                       parts=tuple(p.moderators_only(public) for p in self.parts), public=public)

    def events(self) -> tuple[int, ...]:
        """Every event number it read, each once, in order."""
        seen: dict[int, None] = {}
        for step in self.steps:
            seen.update(dict.fromkeys(step.events))
        for part in self.parts:
            seen.update(dict.fromkeys(part.events()))
        return tuple(sorted(seen))


def events_text(events: Iterable[int]) -> str:
    """``#41, #42`` (at most ten, then ``and 3 more``)."""
    numbers = list(events)
    shown = ", ".join(f"#{n}" for n in numbers[:10])
    return shown + (f" and {len(numbers) - 10} more" if len(numbers) > 10 else "")


def lines(derivation: Derivation, moderator: bool, depth: int = 0) -> list[str]:
    """The derivation as Markdown lines: the subject and result, one numbered line per step (the rule in words,
    its id for moderators, the events it read), then its parts indented, then what was withheld."""
    indent = "  " * depth
    out = [f"{indent}**{derivation.subject}**: {derivation.result}"]
    for number, step in enumerate(derivation.steps, start=1):
        rule = step.rule + (f" ({step.rule_id})" if moderator and step.rule_id else "")
        tail = "; ".join(t for t in (rule, f"read {events_text(step.events)}" if step.events else "") if t)
        out.append(f"{indent}{number}. {step.says}" + (f" [{tail}]" if tail else ""))
    for part in derivation.parts:
        out.extend(lines(part, moderator, depth + 1))
    if derivation.withheld:
        steps = "step" if derivation.withheld == 1 else "steps"
        out.append(f"{indent}{derivation.withheld} {steps} withheld: they rest on secrets only the moderators "
                   f"(and the players concerned) may see.")
    if derivation.note:
        out.append(f"{indent}{derivation.note}")
    return out
