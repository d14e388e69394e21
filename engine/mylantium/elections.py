"""Election votes and winners (R1-01..R1-07): Faction Votes, Charisma for participating candidates, and the
Independent Vote (P1-01) split by approval (P1-02) in the General Election only; winners by P1-16."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction

from engine.core.derivation import Derivation, Step
from engine.core.errors import RuleError
from engine.core.rounding import ceil, floor, round_half_up
from engine.mylantium.model import FactionCode, Party
from engine.mylantium.settings import DEFAULT, Rules


class Stage(Enum):
    PRIMARY = "primary"
    GENERAL = "general"

    @property
    def title(self) -> str:
        return "Primary" if self is Stage.PRIMARY else "General Election"


def rounded(x: Fraction, rounding: str) -> int:
    if rounding == "down":
        return floor(x)
    if rounding == "up":
        return ceil(x)
    return round_half_up(x)


def independent_vote(faction_votes: int, rules: Rules = DEFAULT) -> int:
    """R1-04 / P1-01: ``I = F/2`` for the Faction Votes in play, an odd ``F`` rounded half up."""
    if faction_votes < 0:
        raise RuleError("Faction Votes cannot be negative.")
    return rounded(Fraction(faction_votes, 2), rules.rounding)


def independent_split(independent: int, approval: int, rules: Rules = DEFAULT) -> tuple[int, int]:
    """R1-05 / P1-02: (incumbent, opposition). The incumbent party gets ``round_half_up(I·A/100)``; the
    opposition the remainder, so the two always add up to ``I``."""
    if not 0 <= approval <= 100:
        raise RuleError(f"An Approval Rating is between 0 and 100, not {approval}.")
    incumbent = rounded(Fraction(independent * approval, 100), rules.rounding)
    return incumbent, independent - incumbent


@dataclass(frozen=True)
class Candidate:
    """R1-03: Charisma 1..13; the party is fixed when the candidate is made (R1-10)."""

    name: str
    faction: FactionCode
    party: Party
    charisma: int
    running: bool = True

    def __post_init__(self) -> None:
        check_charisma(self.charisma)


def check_charisma(charisma: int) -> None:
    if not 1 <= charisma <= 13:
        raise RuleError(f"Charisma is a rating from 1 to 13, not {charisma}.")


def charisma_cast(candidates: Iterable[Candidate]) -> dict[str, int]:
    """R1-03: a participating candidate receives its Charisma; one not participating casts none."""
    return {c.name: c.charisma if c.running else 0 for c in candidates}


@dataclass(frozen=True)
class Line:
    """One candidate's (Primary) or party's (General Election) votes, by source."""

    name: str
    party: Party
    faction_votes: int
    charisma: int
    independent: int = 0

    @property
    def total(self) -> int:
        return self.faction_votes + self.charisma + self.independent


def check_primary_choice(chooser: Party, candidate: Candidate, rules: Rules = DEFAULT) -> None:
    """A Faction's Primary choice: a participating candidate, of its own party unless the game allows any."""
    if not candidate.running:
        raise RuleError(f"{candidate.name} is not running in this Primary.")
    if not rules.primary_any_party and candidate.party is not chooser:
        raise RuleError(f"{candidate.name} is a {candidate.party.title} candidate; your Faction is {chooser.title}, so "
                        f"it votes in the {chooser.title} Primary.")


@dataclass(frozen=True)
class PrimaryResult:
    lines: tuple[Line, ...]
    """Every participating candidate, by party (Whig first), most votes first."""
    nominees: Mapping[Party, str | None]
    """Each party's winner; None when it had no candidate or its leaders tied (the moderator decides, P1-16)."""
    ties: Mapping[Party, tuple[str, ...]]


def primary(candidates: Iterable[Candidate], choices: Mapping[FactionCode, str],
            faction_votes: Mapping[FactionCode, int]) -> PrimaryResult:
    """R1-01, R1-03: each running candidate gets the Faction Votes of the Factions that chose it and its Charisma;
    there is no Independent Vote. The candidate with most votes wins its party's Primary (P1-16: the document
    gives no rule); a tie for first is left to the moderator."""
    return primary_explained(candidates, choices, faction_votes)[0]


def primary_explained(candidates: Iterable[Candidate], choices: Mapping[FactionCode, str],
                      faction_votes: Mapping[FactionCode, int], known: Known | None = None,
                      subject: str = "The Primary") -> tuple[PrimaryResult, Derivation]:
    """``primary`` and its steps (``/why election``): the Factions' secret choices, each candidate's total, each
    party's nominee."""
    known = known or Known()
    running = [c for c in candidates if c.running]
    names = {c.name for c in running}
    for code, name in choices.items():
        if name not in names:
            raise RuleError(f"The {code.title}'s choice, {name}, is not running in this Primary.")
    steps = list(known.choice_steps(choices, faction_votes, "candidate"))
    lines: list[Line] = []
    nominees: dict[Party, str | None] = {}
    ties: dict[Party, tuple[str, ...]] = {}
    for party in Party:
        own = [Line(c.name, party, sum(faction_votes.get(code, 0) for code, n in choices.items() if n == c.name),
                    c.charisma) for c in running if c.party is party]
        own.sort(key=lambda line: -line.total)
        lines += own
        steps += [Step(f"{line.name} ({party.title}): Faction Votes {line.faction_votes} (of the Factions that chose "
                       f"it) + Charisma {line.charisma} = **{line.total}**", CANDIDATE_RULE,
                       rule_id="R1-01, R1-03", events=known.close) for line in own]
        top = [line.name for line in own if own and line.total == own[0].total]
        nominees[party] = top[0] if len(top) == 1 else None
        if len(top) > 1:
            ties[party] = tuple(top)
        steps.append(Step(_nominee_says(party, own, top), "the candidate with most votes wins the party's Primary; "
                          "a tie for first is left to the moderator", rule_id="P1-16", events=known.close))
    result = PrimaryResult(tuple(lines), nominees, ties)
    said = "; ".join(f"{line.name} {line.total}" for line in lines) or "no candidate ran"
    return result, Derivation(subject, said, tuple(steps), {line.name: line.total for line in lines},
                              note="Who chose what is secret: each Faction's player sees only its own choice.")


CANDIDATE_RULE = ("a running candidate gets the Faction Votes of the Factions that chose it and its Charisma; the "
                  "Independent Vote votes only in the General Election")


def _nominee_says(party: Party, own: list[Line], top: list[str]) -> str:
    if not own:
        return f"{party.title} Primary: no candidate ran, so no nominee."
    if len(top) > 1:
        return f"{party.title} Primary: {' and '.join(top)} tie with {own[0].total}; the moderator names the nominee."
    return f"{party.title} Primary: {top[0]} has most votes ({own[0].total}) and is the nominee."


@dataclass(frozen=True)
class Known:
    """What the service knows about an election's inputs, for its steps: each Faction's player (who alone, with
    the moderators, may see its secret choice) and the event numbers the inputs came from."""

    players: Mapping[FactionCode, str] = field(default_factory=dict)
    chose_at: Mapping[FactionCode, tuple[int, ...]] = field(default_factory=dict)
    """Each Faction's ``ChoiceMade`` events (the last one counts)."""
    close: tuple[int, ...] = ()
    """The close, whose moment fixes the Faction Votes counted (the ``ElectionClosed`` event)."""

    def choice_steps(self, choices: Mapping[FactionCode, str] | Mapping[FactionCode, Party],
                     faction_votes: Mapping[FactionCode, int], what: str) -> list[Step]:
        """One secret step per Faction in play: what it chose (seen by its player and the moderators)."""
        out: list[Step] = []
        for code in FactionCode:
            if code not in faction_votes:
                continue
            chosen = choices.get(code)
            shown = chosen.title if isinstance(chosen, Party) else chosen
            says = (f"The {code.plural} ({faction_votes[code]} Faction Votes at the close) chose **{shown}**."
                    if chosen is not None else f"The {code.plural} ({faction_votes[code]} Faction Votes) chose no "
                                               f"{what}: their votes go to no one.")
            player = self.players.get(code)
            out.append(Step(says, "a Faction's votes, as they stand at the close, go to its choice; choices are secret",
                            rule_id="R1-01", events=self.chose_at.get(code, ()) + self.close,
                            seen_by=frozenset({player}) if player is not None else frozenset()))
        return out


@dataclass(frozen=True)
class GeneralResult:
    lines: Mapping[Party, Line]
    faction_votes_in_play: int
    """``F`` (R1-04)."""
    independent: int
    """``I`` (P1-01)."""
    incumbent: Party
    approval: int
    winner: Party
    tie: bool
    """The totals tied, and the incumbent party kept power (P1-16)."""

    @property
    def independent_share(self) -> Fraction:
        """The Independent Vote's share of all votes cast (8/27 in TV1-I04, not 1/3: A1-01)."""
        cast = sum(line.total for line in self.lines.values())
        return Fraction(self.independent, cast) if cast else Fraction(0)


def general(nominees: Mapping[Party, Candidate | None], choices: Mapping[FactionCode, Party],
            faction_votes: Mapping[FactionCode, int], incumbent: Party, approval: int,
            rules: Rules = DEFAULT) -> GeneralResult:
    """R1-01..R1-05, P1-16: each party gets the Faction Votes of the Factions that chose it, its nominee's Charisma
    and its share of the Independent Vote (``faction_votes`` holds every Faction in play, so ``F`` counts them all,
    chosen or not). More votes wins; a tie keeps the incumbent party."""
    return general_explained(nominees, choices, faction_votes, incumbent, approval, rules)[0]


ROUNDING = {"down": "rounded down", "up": "rounded up"}


def general_explained(nominees: Mapping[Party, Candidate | None], choices: Mapping[FactionCode, Party],
                      faction_votes: Mapping[FactionCode, int], incumbent: Party, approval: int,
                      rules: Rules = DEFAULT, known: Known | None = None,
                      subject: str = "The General Election") -> tuple[GeneralResult, Derivation]:
    """``general`` and its steps (``/why election``): F, the Independent Vote and its split, the Factions' secret
    choices, each party's total and the winner."""
    known = known or Known()
    rounding = ROUNDING.get(rules.rounding, "rounded half up")
    f = sum(faction_votes.values())
    i = independent_vote(f, rules)
    to_incumbent, to_opposition = independent_split(i, approval, rules)
    counted = " + ".join(f"{c.plural} {v}" for c, v in faction_votes.items())
    steps = [Step(f"Faction Votes in play: F = {counted or 'none'} = {f}",
                  "every Faction in play counts towards F, whether it chose or not", rule_id="R1-04",
                  events=known.close),
             Step(f"Independent Vote: I = F/2 = {f}/2 → **{i}** ({rounding})",
                  "the Independent Vote is half the Faction Votes in play", rule_id="R1-04, P1-01", events=known.close),
             Step(f"At {approval}% Approval the incumbent {incumbent.title}s get {i} × {approval}/100 = "
                  f"{_decimal(Fraction(i * approval, 100))} → **{to_incumbent}** ({rounding}); the "
                  f"{incumbent.other.title}s the remaining {i} − {to_incumbent} = **{to_opposition}**",
                  "the incumbent party's share of the Independent Vote is the Approval Rating; the other party "
                  "gets the rest", rule_id="R1-05, P1-02", events=known.close)]
    steps += known.choice_steps(choices, faction_votes, "party")
    lines: dict[Party, Line] = {}
    for party in Party:
        nominee = nominees.get(party)
        lines[party] = line = Line(party.title, party,
                                   sum(faction_votes.get(code, 0) for code, p in choices.items() if p is party),
                                   nominee.charisma if nominee is not None and nominee.running else 0,
                                   to_incumbent if party is incumbent else to_opposition)
        steps.append(Step(f"{party.title} ({nominee.name if nominee else 'no nominee'}): Faction Votes "
                          f"{line.faction_votes} (of the Factions that chose it) + Charisma {line.charisma} + "
                          f"Independent {line.independent} = **{line.total}**",
                          "a party gets the Faction Votes of the Factions that chose it, its nominee's Charisma and "
                          "its share of the Independent Vote", rule_id="R1-01, R1-03, R1-05", events=known.close))
    a, b = lines[incumbent].total, lines[incumbent.other].total
    winner = incumbent if a >= b else incumbent.other
    loser = winner.other
    steps.append(Step(f"{winner.title} {lines[winner].total} " + ("ties" if a == b else ">") +
                      f" {loser.title} {lines[loser].total}: the **{winner.title}s** win" +
                      (" (a tie keeps the incumbent party)" if a == b else ""),
                      "more votes wins; a tie keeps the incumbent party in power", rule_id="P1-16", events=known.close))
    result = GeneralResult(lines, f, i, incumbent, approval, winner, a == b)
    said = f"{winner.title}s win, " + ", ".join(f"{p.title} {line.total}" for p, line in lines.items())
    return result, Derivation(subject, said, tuple(steps), {p.value: line.total for p, line in lines.items()},
                              note="Who chose what is secret: each Faction's player sees only its own choice.")


def _decimal(x: Fraction) -> str:
    """``19.2`` for 96/5; an exact decimal when there is one, else the fraction."""
    if x.denominator == 1:
        return str(x.numerator)
    for places in range(1, 5):
        scaled = x * 10 ** places
        if scaled.denominator == 1:
            whole, frac = divmod(scaled.numerator, 10 ** places)
            return f"{whole}.{frac:0{places}d}"
    return f"{x.numerator}/{x.denominator}"
