"""What an election result gives away (issue 19's disclosure check, docs/rulings.md): each Faction's Faction Votes
are public (the government homepage, rules-spec §2.2.7) and so is who has chosen (``/election status``), while what
a Faction chose is secret. The result posts each candidate's (Primary) or party's (General Election) Faction Votes,
so a Faction is exposed when every combination of the secret choices that gives those totals gives it the same
candidate or party. A Faction that sent no choice casts no votes and is not a voter here. A Revolution's posted
contribution totals are checked too (``contribution_exposures``)."""

from __future__ import annotations

from collections.abc import Collection, Mapping

from engine.core.disclosure import Check, Exposure, Leak, Voter, check, exposed, leaks
from engine.mylantium.elections import Candidate
from engine.mylantium.model import FactionCode, Party
from engine.mylantium.revolution import Attempt


def election_check(votes: Mapping[FactionCode, int], options: Mapping[FactionCode, frozenset[str]],
                   totals: Mapping[str, int]) -> tuple[Check, tuple[Exposure, ...], tuple[Leak, ...]]:
    """``votes``: the Faction Votes of each Faction that chose; ``options``: what each may have chosen as far as the
    public knows; ``totals``: the Faction Votes posted for each candidate or party. Exposures and leaks (a choice
    ruled out, more than one left) name Factions by code."""
    voters = [Voter.public_weight(code.name, votes.get(code, 0), options[code]) for code in options]
    found = check(voters, totals)
    return found, exposed(voters, found), leaks(voters, found)


def primary_options(chose: Mapping[FactionCode, Party], candidates: list[Candidate],
                    any_party: bool) -> dict[FactionCode, frozenset[str]]:
    """The running candidates each Faction that chose (by its party) may have chosen: its party's, or any."""
    running = [c for c in candidates if c.running]
    return {code: frozenset(c.name for c in running if any_party or c.party is party) for code, party in chose.items()}


def general_options(chose: Mapping[FactionCode, Party]) -> dict[FactionCode, frozenset[str]]:
    """A Faction may choose either party in the General Election."""
    return {code: frozenset(p.value for p in Party) for code in chose}


def contribution_exposures(attempt: Attempt,
                           pledged: Collection[FactionCode]) -> tuple[tuple[FactionCode, str, int], ...]:
    """(Faction, ``crt`` or ``vanguard``, amount) of each contribution the posted result of ``attempt`` gives away.
    P1-19: only the totals are public; but who sent a contribution (``pledged``) is public too (``/revolution
    status``), and a Faction that sent none gave $0. Treasuries are never public, so an amount is given away only
    when one Faction alone sent one (the total is its amount) or the total is $0 (everyone who sent one gave $0).
    The pro-Vanguard money is posted only when there is some."""
    if attempt.outcome not in ("won", "put down"):
        return ()
    sent = sorted(((code, c) for code, c in attempt.contributions.items() if code in pledged),
                  key=lambda kv: kv[0].name)
    out: list[tuple[FactionCode, str, int]] = []
    for fund, total, posted in (("crt", attempt.crt, True), ("vanguard", attempt.for_vanguard,
                                                             attempt.for_vanguard > 0)):
        if sent and posted and (len(sent) == 1 or total == 0):
            out += [(code, fund, c.to_crt if fund == "crt" else c.to_vanguard) for code, c in sent]
    return tuple(out)
