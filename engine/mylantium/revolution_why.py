"""A Revolution's or coup's numbers step by step (``/why revolution``; R1-41..R1-46, P1-19): the funding, the
comparison with ``S``, the contributions and the two treasuries, with the same tests the chain applied
(``revolution.begins``, ``revolution.vanguard_wins``). Treasuries, money given and each contribution are secret: a
step on one is seen by that Faction's player (and the moderators); once resolved, only the totals are public."""

from __future__ import annotations

from collections.abc import Mapping

from engine.core.derivation import Derivation, Step
from engine.mylantium.model import FactionCode
from engine.mylantium.revolution import Attempt, begins, vanguard_wins


def _only(players: Mapping[FactionCode, str], code: FactionCode) -> frozenset[str]:
    player = players.get(code)
    return frozenset({player}) if player is not None else frozenset()


def attempt_explained(attempt: Attempt, players: Mapping[FactionCode, str],
                      pledged: Mapping[FactionCode, tuple[int, ...]] | None = None, events: tuple[int, ...] = (),
                      ) -> Derivation:
    """The attempt as far as it has gone; ``pledged``: each Faction's contribution events, ``events``: the
    resolution (or the chain's record)."""
    pledged = pledged or {}
    v = attempt.vanguard
    what = "coup" if attempt.coup else "Revolution"
    own = attempt.treasury - attempt.funding
    steps = [Step(f"The {v.plural}' treasury ${own} + ${attempt.funding} drawn for the {what} ({attempt.funding_why}) "
                  f"= ${attempt.treasury}", "the Vanguard draws its Faction's funding at the start",
                  rule_id="R1-43, R1-46", events=events, seen_by=_only(players, v))]
    if attempt.coup:
        forestalled = f"in place of the {attempt.forestalled.plural}" if attempt.forestalled else ""
        steps.append(Step(f"The Brass Hats attempt a coup {forestalled}: no comparison with the VP in play, and the "
                          "counter-revolutionaries are given no money", "a coup is funded but never crushed",
                          rule_id="R1-46, P1-13", events=events))
    elif attempt.s is not None:
        begun = begins(attempt.treasury, attempt.s)
        if attempt.s_parts:  # the Factions' VP are public (the government page)
            summed = " + ".join(f"{code.plural} {vp}" for code, vp in attempt.s_parts.items())
            steps.append(Step(f"S = {summed} = {sum(attempt.s_parts.values())}", "S is the VP of every Faction in "
                              f"play but the Vanguard, net of Fervor deductions; the {v.plural} add nothing",
                              rule_id="R1-43, P1-15", events=events))
        steps.append(Step(f"${attempt.treasury} {'>' if begun else '≤'} S = {attempt.s}", "the Revolution begins "
                          "only if the Vanguard's treasury is greater than the VP of the other Factions in play",
                          rule_id="R1-43", events=events, seen_by=_only(players, v)))
        steps.append(Step(f"The {v.plural}' treasury is {'greater' if begun else 'not greater'} than the {attempt.s} "
                          f"VP in play: " + ("the Revolution has begun" if begun else
                                             "crushed before an uprising (no Fervor)"),
                          "a Revolution not greater than S is crushed at once", rule_id="R1-43, P1-12",
                          events=events))
    for code, money in attempt.bonus.items():
        steps.append(Step(f"The {code.plural} are given ${money} against the Revolution", "the counter-"
                          "revolutionaries' money, paid in the first Revolution of a chain to begin",
                          rule_id="R1-44, P1-21", events=events, seen_by=_only(players, code)))
    resolved = attempt.outcome in ("won", "put down")
    for code, c in attempt.contributions.items():
        steps.append(Step(f"The {code.plural} gave ${c.to_crt} to the Counter-Revolutionary Treasury"
                          + (f" and ${c.to_vanguard} to the {v.plural}" if c.to_vanguard else ""),
                          "each contribution is secret; a Faction that sent none gave $0",
                          rule_id="R1-44, P1-19, P1-22",
                          events=pledged.get(code, ()) + events, seen_by=_only(players, code)))
    if not resolved:
        said = {"crushed": "crushed before an uprising", None: "under way"}.get(attempt.outcome, "under way")
        return Derivation(f"The {v.plural}' {what}", said, tuple(steps), None,
                          note="The contributions are secret until the result; then only the totals are public.")
    wins = vanguard_wins(attempt.crt, attempt.vanguard_total)
    total = (f"${attempt.treasury} + ${attempt.for_vanguard} contributed = ${attempt.vanguard_total}"
             if attempt.for_vanguard else f"${attempt.vanguard_total}")
    steps += [Step(f"Counter-Revolutionary Treasury: **${attempt.crt}**; the Vanguard: {total}",
                   "the contributions are paid and never returned; only the totals are public",
                   rule_id="R1-44, P1-19", events=events),
              Step(f"${attempt.crt} {'<' if wins else '≥'} ${attempt.vanguard_total}: " +
                   (f"the {v.plural} win" if wins else f"the {what} is put down, and Fervor rises by "
                                                       f"{attempt.fervor} at once"),
                   "the Vanguard wins if the Counter-Revolutionary Treasury holds less than it; otherwise it is put "
                   "down and withdraws", rule_id="R1-44, R1-46, P1-10", events=events)]
    return Derivation(f"The {v.plural}' {what}", f"the Counter-Revolutionary Treasury ${attempt.crt}, the Vanguard "
                      f"${attempt.vanguard_total}: " + ("won" if wins else "put down"), tuple(steps),
                      (attempt.crt, attempt.vanguard_total),
                      note="Each Faction's money is secret: its player sees only its own.")
