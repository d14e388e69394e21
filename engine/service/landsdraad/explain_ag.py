"""``/why ag``: an Adjutant General election's result rebuilt by ``engine.landsdraad.adjutant.tally_ag_explained``
(the tally that closed it) from what its ``AgElectionClosed`` event recorded: each ballot counted, its weight V(p)
when the game weighs AG ballots (P0-06), the standings, the tie-break (R0-31) and the winner. An election closed
before Clerk recorded its ballots (or one closed with its round, R0-35, before that close recorded them too) is
rebuilt from the ballots kept with it, and the answer says so. Reads only."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.core.derivation import Derivation
from engine.core.errors import NotFoundError, RuleError
from engine.landsdraad.adjutant import AgBallot, tally_ag_explained
from engine.service.clock import utc
from engine.service.landsdraad.adjutant import counted_of
from engine.service.landsdraad.explain_victory import events_of
from engine.store.models import Game, Player
from engine.store.models.landsdraad import AgBallotRow, AgElection


async def closed_election(session: AsyncSession, game: Game, number: int | None) -> AgElection:
    """Election ``number`` of ``game`` once closed; None: its latest closed election."""
    query = select(AgElection).where(AgElection.game_id == game.id)
    if number is None:
        found = (await session.execute(query.where(AgElection.status == "closed")
                                       .order_by(AgElection.number.desc()).limit(1))).scalar_one_or_none()
        if found is None:
            raise RuleError(f"No Adjutant General election of {game.name} has closed yet, so there is no result "
                            "to explain.")
        return found
    election = (await session.execute(query.where(AgElection.number == number))).scalar_one_or_none()
    if election is None:
        count = len((await session.execute(query)).scalars().all())
        so_far = ("none has been held" if count == 0 else "its only election so far is election 1" if count == 1
                  else f"its elections so far are 1 to {count}")
        raise NotFoundError(f"{game.name} has no AG election {number}: {so_far}.")
    if election.status != "closed":
        raise RuleError(f"AG election {number} of {game.name} has not closed yet, so it has no result.")
    return election


def _ballot_events(events: list[tuple[int, str, dict[str, Any]]], number: int) -> dict[str, tuple[int, ...]]:
    """Voter name -> the event of the ballot that counted (their latest changed one) in election ``number``."""
    last: dict[str, int] = {}
    for seq, _, p in events:
        if p.get("election") == number and p.get("voter") is not None and not p.get("unchanged"):
            last[str(p["voter"])] = seq
    return {name: (seq,) for name, seq in last.items()}


async def ag_derivation(session: AsyncSession, game: Game, number: int | None) -> Derivation:
    """The derivation of an AG election's result (the latest closed one if ``number`` is None)."""
    election = await closed_election(session, game, number)
    events = await events_of(session, game.id, ("AgElectionClosed", "AgBallotCast"))
    closes = [(seq, p) for seq, kind, p in events if kind == "AgElectionClosed" and p.get("number") == election.number]
    ballot_events = _ballot_events([e for e in events if e[1] == "AgBallotCast"], election.number)
    subject = f"AG election {election.number} of {game.name}: the result"
    counted = counted_of(closes[-1][1]) if closes else None
    if counted is not None:
        ballots, weights, names = counted
        by_voter = {b.voter: ballot_events.get(names[b.voter], ()) for b in ballots}
        _, derivation = tally_ag_explained(subject, ballots, names, weights, by_voter, (closes[-1][0],))
        return derivation
    rows = (await session.execute(select(AgBallotRow, Player.name).join(Player, Player.id == AgBallotRow.voter_id)
                                  .where(AgBallotRow.election_id == election.id)
                                  .order_by(AgBallotRow.cast_at, AgBallotRow.id))).all()
    names = {pid: name for pid, name in (await session.execute(
        select(Player.id, Player.name).where(Player.game_id == game.id))).all()}
    ballots = [AgBallot(r.voter_id, r.candidate_id, utc(r.cast_at)) for r, _ in rows]
    by_voter = {b.voter: ballot_events.get(names.get(b.voter, ""), ()) for b in ballots}
    close = (closes[-1][0],) if closes else ()
    _, derivation = tally_ag_explained(subject, ballots, names, None, by_voter, close)
    posted = closes[-1][1].get("standings") if closes else None
    note = ("This election closed before Clerk recorded the ballots it counted, so it is rebuilt from the ballots "
            "kept with it, one each")
    if posted is not None:
        note += "; the standings posted at its close were " + ", ".join(f"{c} {v}" for c, v in posted)
    elif election.closes_with_round is not None:
        note = ("This election closed with its round, which recorded no ballots, so it is rebuilt from the ballots "
                "kept with it, one each")
    return Derivation(derivation.subject, derivation.result, derivation.steps, derivation.value, note=note + ".")
