"""Revolutions and coups (R1-40..R1-46, R1-50): a chain of attempts that runs until no Faction in play is at
0 VP, someone wins, or the Republic collapses.

Social Collapse is checked first (P1-11); the Vanguard is chosen by precedence (R1-41); the Brass Hats are
offered a coup before the Vanguard is funded and compared with ``S`` (P1-23); a crushed Vanguard raises no
Fervor (P1-12); the counter-revolutionaries' money is paid once a chain, to the first Revolution that begins
(P1-21), and never against a coup (P1-13); contributions are whole dollars from 0 to the treasury, none by the
deadline is $0 (P1-22); a put-down raises Fervor by 3 at once (P1-10).

The Factions are not kept in the chain: every step takes them as they stand and returns them changed, so the
moderator's ledger stays the one source of truth."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from engine.core.errors import RuleError
from engine.core.words import plural
from engine.mylantium.fervor import PUT_DOWN, collapsed, deduct
from engine.mylantium.model import (
    AVALON,
    PRECEDENCE,
    Building,
    Faction,
    FactionCode,
    Territory,
    Unit,
    UnitStatus,
    total_vp,
)


@dataclass(frozen=True)
class Assets:
    """What funds a Revolution (R1-43) and the counter-revolution (R1-44.1): buildings and military units."""

    territories: tuple[Territory, ...] = ()
    units: tuple[Unit, ...] = ()

    def count(self, kind: Building, territory: str | None = None) -> int:
        return sum(t.count(kind) for t in self.territories if territory is None or t.name == territory)

    @property
    def maintenance(self) -> int:
        """Maintenance of every unit on station or in battle."""
        return sum(u.maintenance for u in self.units if u.active)


def funding(code: FactionCode, assets: Assets) -> tuple[int, str]:
    """R1-43: what the GM adds to the Vanguard's treasury at the start of its Revolution, and why. None of it is
    inflation."""
    if code is FactionCode.SH:
        temples = assets.count(Building.TEMPLE)
        return 5 * temples, f"$5 × {plural(temples, 'temple')}"
    if code is FactionCode.BH:
        return 3 * assets.maintenance, f"3 × ${assets.maintenance} maintenance of the units on station or in battle"
    if code is FactionCode.GR:
        villages = assets.count(Building.VILLAGE)
        return 3 * villages, f"$3 × {plural(villages, 'village')}"
    if code is FactionCode.RN:
        sites = sum(assets.count(k, AVALON) for k in (Building.CITY, Building.TEMPLE, Building.PORT))
        units = sum(u.cost for u in assets.units if u.territory == AVALON and u.status is UnitStatus.ON_STATION)
        return 5 * sites + units, (f"$5 × {sites} cities, temples and ports in {AVALON} + ${units} purchase cost of "
                                   f"the units on station there")
    return 0, "nothing"


COUNTER_BONUS = (FactionCode.SH, FactionCode.GR, FactionCode.BH)
"""R1-44.1: only these are given money when a Revolution begins."""


def begins(treasury: int, s: int) -> bool:
    """R1-43: a Revolution begins when the Vanguard's funded treasury is greater than ``S``; otherwise crushed."""
    return treasury > s


def vanguard_wins(crt: int, vanguard_total: int) -> bool:
    """R1-44.4: the Vanguard wins when the Counter-Revolutionary Treasury is less than its treasury (its
    contributions included); a tie puts it down."""
    return crt < vanguard_total


def vanguard_order(factions: Iterable[Faction]) -> tuple[FactionCode, ...]:
    """R1-41: the Factions in play at 0 VP, in precedence order."""
    at_zero = {f.code for f in factions if f.in_play and f.vp == 0}
    return tuple(c for c in PRECEDENCE if c in at_zero)


class Waiting(Enum):
    COUP = "coup"
    """The Brass Hats are asked whether they attempt a coup (R1-42)."""
    CONTRIBUTIONS = "contributions"
    """A Revolution or coup is under way; the Factions send contributions (R1-44.2)."""
    NOTHING = "nothing"
    """The chain has run its course (or the game has ended)."""


@dataclass(frozen=True)
class Contribution:
    """One Faction's money: to the Counter-Revolutionary Treasury, and (gaining nothing) to the Vanguard."""

    to_crt: int = 0
    to_vanguard: int = 0


@dataclass(frozen=True)
class Attempt:
    """One Revolution or coup of a chain, as far as it has gone."""

    number: int
    vanguard: FactionCode
    coup: bool = False
    forestalled: FactionCode | None = None
    coup_declined: bool = False
    funding: int = 0
    funding_why: str = ""
    treasury: int = 0
    """The Vanguard's treasury once funded (before any contribution to it)."""
    s: int | None = None
    """``S`` it was compared with; None for a coup (R1-46.2)."""
    s_parts: Mapping[FactionCode, int] = field(default_factory=dict)
    """What ``S`` summed: each other Faction in play's VP then (empty for a coup, and for an attempt funded before
    Clerk kept them)."""
    begun: bool = False
    bonus: Mapping[FactionCode, int] = field(default_factory=dict)
    contributions: Mapping[FactionCode, Contribution] = field(default_factory=dict)
    outcome: str | None = None
    """``crushed``, ``won`` or ``put down``."""
    fervor: int = 0
    lost: Mapping[FactionCode, int] = field(default_factory=dict)

    @property
    def crt(self) -> int:
        return sum(c.to_crt for c in self.contributions.values())

    @property
    def for_vanguard(self) -> int:
        return sum(c.to_vanguard for c in self.contributions.values())

    @property
    def vanguard_total(self) -> int:
        return self.treasury + self.for_vanguard


@dataclass(frozen=True)
class CalledOff:
    """An attempt dropped before it was resolved because its Vanguard was no longer a Faction in play at 0 VP (a
    moderator's correction; R1-41: the engine re-evaluates). ``took_back`` is the money its beginning had given
    (the Vanguard's funding and the counter-revolutionaries' money), taken back from each treasury."""

    number: int
    vanguard: FactionCode
    begun: bool = False
    took_back: Mapping[FactionCode, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Chain:
    attempts: tuple[Attempt, ...] = ()
    waiting: Waiting = Waiting.NOTHING
    bonus_due: bool = True
    """P1-21: the counter-revolutionaries' money is still to be paid in this chain."""
    ended: str | None = None
    """``collapse`` or ``won``: the game is over."""
    winner: FactionCode | None = None
    called_off: tuple[CalledOff, ...] = ()
    """The attempts dropped by a correction before they were resolved, in order (not among ``attempts``)."""

    @property
    def current(self) -> Attempt | None:
        return self.attempts[-1] if self.attempts and self.waiting is not Waiting.NOTHING else None

    @property
    def fervor(self) -> int:
        return sum(a.fervor for a in self.attempts)


@dataclass(frozen=True)
class Step:
    chain: Chain
    factions: tuple[Faction, ...]


def _get(factions: Iterable[Faction], code: FactionCode) -> Faction:
    for f in factions:
        if f.code is code:
            return f
    raise RuleError(f"There is no {code.title} Faction in this game.")


def _put(factions: Iterable[Faction], changed: Faction) -> tuple[Faction, ...]:
    return tuple(changed if f.code is changed.code else f for f in factions)


def _with_last(chain: Chain, attempt: Attempt, **changes: Any) -> Chain:
    return replace(chain, attempts=(*chain.attempts[:-1], attempt), **changes)


def coup_offered(factions: Iterable[Faction], vanguard: FactionCode) -> bool:
    """R1-42: only when the Brass Hats are in play and are not the Vanguard."""
    return vanguard is not FactionCode.BH and any(f.code is FactionCode.BH and f.in_play for f in factions)


def advance(chain: Chain, factions: Iterable[Faction], assets: Assets) -> Step:
    """Run the chain until it needs an answer (a coup, contributions) or is over. Social Collapse first (P1-11)."""
    current = tuple(factions)
    if collapsed(current):
        return Step(replace(chain, waiting=Waiting.NOTHING, ended="collapse"), current)
    queue = vanguard_order(current)
    if not queue:
        return Step(replace(chain, waiting=Waiting.NOTHING), current)
    attempt = Attempt(len(chain.attempts) + 1, queue[0])
    chain = replace(chain, attempts=(*chain.attempts, attempt))
    if coup_offered(current, attempt.vanguard):
        return Step(replace(chain, waiting=Waiting.COUP), current)
    return _fund(chain, current, assets)


def start(factions: Iterable[Faction], assets: Assets) -> Step:
    """R1-40: a new chain, after a change to VP."""
    return advance(Chain(), factions, assets)


def _fund(chain: Chain, factions: tuple[Faction, ...], assets: Assets) -> Step:
    attempt = chain.attempts[-1]
    vanguard = _get(factions, attempt.vanguard)
    amount, why = funding(vanguard.code, assets)
    vanguard = replace(vanguard, treasury=vanguard.treasury + amount)
    factions = _put(factions, vanguard)
    others = [f for f in factions if f.code is not vanguard.code]
    s = total_vp(others)
    attempt = replace(attempt, funding=amount, funding_why=why, treasury=vanguard.treasury, s=s,
                      s_parts={f.code: f.vp for f in others if f.in_play},
                      begun=begins(vanguard.treasury, s))
    if not attempt.begun:  # R1-43: crushed before an uprising; no Fervor (P1-12)
        factions = _put(factions, replace(vanguard, in_play=False))
        chain = _with_last(chain, replace(attempt, outcome="crushed"), waiting=Waiting.NOTHING)
        return advance(chain, factions, assets)
    if chain.bonus_due:  # R1-44.1, first Revolution to begin in the chain only (P1-21)
        bonus: dict[FactionCode, int] = {}
        for code in COUNTER_BONUS:
            f = next((f for f in factions if f.code is code and f.in_play and code is not vanguard.code), None)
            if f is None:
                continue
            money, _ = funding(code, assets)
            bonus[code] = money
            factions = _put(factions, replace(f, treasury=f.treasury + money))
        attempt = replace(attempt, bonus=bonus)
    return Step(_with_last(chain, attempt, waiting=Waiting.CONTRIBUTIONS, bonus_due=False), factions)


def answer_coup(chain: Chain, factions: Iterable[Faction], assets: Assets, accept: bool) -> Step:
    """R1-42, R1-46: a coup makes the Brass Hats the Vanguard in place of the forestalled Faction, funded as in
    R1-43 with no comparison against ``S``; the counter-revolutionaries get no money (P1-13), nor do those of
    the later Revolutions of the chain (P1-21). Declined, the Revolution goes on."""
    current = tuple(factions)
    attempt = chain.current
    if chain.waiting is not Waiting.COUP or attempt is None:
        raise RuleError("No coup is being offered now.")
    if not accept:
        return _fund(_with_last(chain, replace(attempt, coup_declined=True)), current, assets)
    bh = _get(current, FactionCode.BH)
    if not bh.in_play:
        raise RuleError("The Brass Hats have withdrawn from the game.")
    amount, why = funding(FactionCode.BH, assets)
    bh = replace(bh, treasury=bh.treasury + amount)
    attempt = replace(attempt, vanguard=FactionCode.BH, coup=True, forestalled=attempt.vanguard, funding=amount,
                      funding_why=why, treasury=bh.treasury, begun=True)
    return Step(_with_last(chain, attempt, waiting=Waiting.CONTRIBUTIONS, bonus_due=False), _put(current, bh))


def call_off(chain: Chain, factions: Iterable[Faction], assets: Assets) -> Step | None:
    """R1-40, R1-41 after a moderator's change during a chain: a Revolution is attempted by a Faction in play at 0
    VP. When the Vanguard of the attempt not yet resolved no longer is one (its VP corrected above 0), the attempt
    is called off: whatever its beginning gave is taken back (the Vanguard's funding, R1-43, and the
    counter-revolutionaries' money, R1-44.1, which is then still due in the chain, P1-21), the pledges to it are
    never paid (P1-22: paid at the resolution only), and the chain is re-evaluated at once: Social Collapse, then
    the next Faction at 0 by precedence, else play resumes. A coup is not called off: the Brass Hats' own VP play
    no part in it (R1-46.2) and the forestalled Faction's are looked at again after it (R1-41, R1-46.6). None when
    nothing is called off."""
    current = tuple(factions)
    attempt = chain.current
    if attempt is None or attempt.coup:
        return None
    vanguard = _get(current, attempt.vanguard)
    if vanguard.in_play and vanguard.vp == 0:
        return None
    took_back: dict[FactionCode, int] = {}
    if attempt.begun:
        for code, amount in ((attempt.vanguard, attempt.funding), *attempt.bonus.items()):
            f = _get(current, code)
            back = min(amount, f.treasury)  # a treasury lowered since gives back what it has
            if back:
                took_back[code] = back
                current = _put(current, replace(f, treasury=f.treasury - back))
    earlier = chain.attempts[:-1]
    bonus_due = chain.bonus_due if not attempt.begun else not any(a.begun for a in earlier)
    dropped = CalledOff(attempt.number, attempt.vanguard, attempt.begun, took_back)
    rest = replace(chain, attempts=earlier, waiting=Waiting.NOTHING, bonus_due=bonus_due,
                   called_off=(*chain.called_off, dropped))
    return advance(rest, current, assets)


def contributors(chain: Chain, factions: Iterable[Faction]) -> tuple[FactionCode, ...]:
    """R1-44.2, R1-46.3: every Faction in play but the Vanguard (against a coup, the forestalled one too)."""
    attempt = chain.current
    if chain.waiting is not Waiting.CONTRIBUTIONS or attempt is None:
        return ()
    return tuple(f.code for f in factions if f.in_play and f.code is not attempt.vanguard)


def check_contribution(chain: Chain, factions: Iterable[Faction], code: FactionCode, c: Contribution) -> None:
    """P1-22: whole dollars, 0 up to the Faction's treasury (both contributions together)."""
    current = tuple(factions)
    attempt = chain.current
    if chain.waiting is not Waiting.CONTRIBUTIONS or attempt is None:
        raise RuleError("No Revolution is taking contributions now.")
    if code is attempt.vanguard:
        raise RuleError(f"The {code.plural} are the Vanguard; contributions come from the other Factions.")
    if code not in contributors(chain, current):
        raise RuleError(f"The {code.plural} are not in play.")
    if c.to_crt < 0 or c.to_vanguard < 0:
        raise RuleError("A contribution is $0 or more.")
    treasury = _get(current, code).treasury
    if c.to_crt + c.to_vanguard > treasury:
        raise RuleError(f"That is ${c.to_crt + c.to_vanguard} in all, but the {code.plural} have ${treasury}.")


def resolve(chain: Chain, factions: Iterable[Faction], assets: Assets,
            contributions: Mapping[FactionCode, Contribution]) -> Step:
    """R1-44.3..5, R1-46.4..5: contributions are paid and never returned (a Faction that sent none gave $0,
    P1-22). ``CRT < Vanguard treasury`` (its contributions included) and the Vanguard wins the game; otherwise it
    is put down and withdraws, Fervor rises by 3 at once, and the chain goes on. A pledge larger than the treasury
    it comes from (the moderator lowered it since) pays what is there, the Counter-Revolutionary Treasury first."""
    current = tuple(factions)
    attempt = chain.current
    if chain.waiting is not Waiting.CONTRIBUTIONS or attempt is None:
        raise RuleError("No Revolution is taking contributions now.")
    paid: dict[FactionCode, Contribution] = {}
    for code in contributors(chain, current):
        f = _get(current, code)
        c = contributions.get(code, Contribution())
        to_crt = max(0, min(c.to_crt, f.treasury))  # a treasury lowered since the pledge pays what it has
        c = Contribution(to_crt, max(0, min(c.to_vanguard, f.treasury - to_crt)))
        paid[code] = c
        current = _put(current, replace(f, treasury=f.treasury - c.to_crt - c.to_vanguard))
    attempt = replace(attempt, contributions=paid)
    vanguard = _get(current, attempt.vanguard)
    vanguard = replace(vanguard, treasury=vanguard.treasury + attempt.for_vanguard)
    current = _put(current, vanguard)
    if vanguard_wins(attempt.crt, attempt.vanguard_total):
        done = _with_last(chain, replace(attempt, outcome="won"), waiting=Waiting.NOTHING, ended="won",
                          winner=attempt.vanguard)
        return Step(done, current)
    current = _put(current, replace(vanguard, in_play=False))
    current, lost = deduct(current, PUT_DOWN)
    attempt = replace(attempt, outcome="put down", fervor=PUT_DOWN, lost=lost)
    return advance(_with_last(chain, attempt, waiting=Waiting.NOTHING), current, assets)


# -- storing a chain -------------------------------------------------------------------------------------------


def _codes(mapping: Mapping[FactionCode, Any]) -> dict[str, Any]:
    return {k.name: v for k, v in mapping.items()}


def attempt_to_dict(a: Attempt) -> dict[str, Any]:
    return {
        "number": a.number, "vanguard": a.vanguard.name, "coup": a.coup,
        "forestalled": a.forestalled.name if a.forestalled else None, "coup_declined": a.coup_declined,
        "funding": a.funding, "funding_why": a.funding_why, "treasury": a.treasury, "s": a.s,
        **({"s_parts": _codes(a.s_parts)} if a.s_parts else {}), "begun": a.begun,
        "bonus": _codes(a.bonus),
        "contributions": {k.name: {"crt": c.to_crt, "vanguard": c.to_vanguard} for k, c in a.contributions.items()},
        "crt": a.crt, "for_vanguard": a.for_vanguard, "outcome": a.outcome, "fervor": a.fervor, "lost": _codes(a.lost),
    }


def attempt_of(d: Mapping[str, Any]) -> Attempt:
    return Attempt(
        number=int(d["number"]), vanguard=FactionCode[d["vanguard"]], coup=bool(d["coup"]),
        forestalled=FactionCode[d["forestalled"]] if d.get("forestalled") else None,
        coup_declined=bool(d.get("coup_declined")), funding=int(d["funding"]), funding_why=str(d["funding_why"]),
        treasury=int(d["treasury"]), s=d.get("s"), begun=bool(d["begun"]),
        s_parts={FactionCode[k]: int(v) for k, v in d.get("s_parts", {}).items()},
        bonus={FactionCode[k]: int(v) for k, v in d.get("bonus", {}).items()},
        contributions={FactionCode[k]: Contribution(int(v["crt"]), int(v["vanguard"]))
                       for k, v in d.get("contributions", {}).items()},
        outcome=d.get("outcome"), fervor=int(d.get("fervor", 0)),
        lost={FactionCode[k]: int(v) for k, v in d.get("lost", {}).items()},
    )


def chain_to_dict(c: Chain) -> dict[str, Any]:
    called_off = [{"number": o.number, "vanguard": o.vanguard.name, "begun": o.begun, "took_back": _codes(o.took_back)}
                  for o in c.called_off]
    return {"attempts": [attempt_to_dict(a) for a in c.attempts], "waiting": c.waiting.value, "bonus_due": c.bonus_due,
            "ended": c.ended, "winner": c.winner.name if c.winner else None,
            **({"called_off": called_off} if called_off else {})}


def chain_of(d: Mapping[str, Any]) -> Chain:
    called_off = tuple(CalledOff(int(o["number"]), FactionCode[o["vanguard"]], bool(o.get("begun")),
                                 {FactionCode[k]: int(v) for k, v in o.get("took_back", {}).items()})
                       for o in d.get("called_off", ()))
    return Chain(attempts=tuple(attempt_of(a) for a in d.get("attempts", ())), waiting=Waiting(d["waiting"]),
                 bonus_due=bool(d["bonus_due"]), ended=d.get("ended"),
                 winner=FactionCode[d["winner"]] if d.get("winner") else None, called_off=called_off)
