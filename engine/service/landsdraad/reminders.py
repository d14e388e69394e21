"""Landsdraad's reminder forms (``engine/service/reminders.py``): a crisis round (the active players without a
ballot) and an AG election (those without an AG ballot). An AG election that closes with the round (after No
Confidence, no deadline of its own) is reminded at the round's instants."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.core.errors import RuleError
from engine.service.clock import utc
from engine.service.landsdraad.adjutant import round_end
from engine.service.landsdraad.ledger import game_players
from engine.service.landsdraad.name import NAME
from engine.service.landsdraad.round_state import open_round_of
from engine.service.reminders import Found, ReminderForm, Target
from engine.store.models import Game
from engine.store.models.landsdraad import AgBallotRow, AgElection, Ballot, Round


async def round_targets(session: AsyncSession) -> list[Target]:
    targets: list[Target] = []
    rounds = await session.execute(select(Game, Round).join(Round, Round.game_id == Game.id).where(
        Round.status == "open", Round.deadline.is_not(None), Game.ruleset == NAME))
    for game, rnd in rounds.all():
        assert rnd.deadline is not None
        targets.append((game, "round", rnd.number, utc(rnd.opened_at), utc(rnd.deadline)))
    return targets


async def election_targets(session: AsyncSession) -> list[Target]:
    targets: list[Target] = []
    elections = await session.execute(select(Game, AgElection).join(AgElection, AgElection.game_id == Game.id)
                                      .where(AgElection.status == "open", AgElection.closes_at.is_not(None)))
    for game, election in elections.all():
        assert election.closes_at is not None
        targets.append((game, "ag", election.number, utc(election.opened_at), utc(election.closes_at)))
    with_round = await session.execute(
        select(Game, AgElection, Round).join(AgElection, AgElection.game_id == Game.id)
        .join(Round, (Round.game_id == Game.id) & (Round.number == AgElection.closes_with_round))
        .where(AgElection.status == "open", AgElection.closes_at.is_(None), Round.status == "open",
               Round.deadline.is_not(None)))
    for game, election, rnd in with_round.all():  # no deadline of its own: the round's instants
        assert rnd.deadline is not None
        targets.append((game, "ag", election.number, utc(election.opened_at), utc(rnd.deadline)))
    return targets


async def round_waiting(session: AsyncSession, game: Game, number: int | None) -> Found:
    if number is None:
        rnd = await open_round_of(session, game)
    else:
        rnd = (await session.execute(select(Round).where(Round.game_id == game.id,
                                                         Round.number == number))).scalar_one()
    voted = set((await session.execute(select(Ballot.player_id).where(Ballot.round_id == rnd.id))).scalars())
    players = [p for p in await game_players(session, game.id) if p.active]
    return (rnd.number, utc(rnd.deadline) if rnd.deadline else None,
            tuple((p.user_id, p.name) for p in players if p.id not in voted), None)


async def election_waiting(session: AsyncSession, game: Game, number: int | None) -> Found:
    query = select(AgElection).where(AgElection.game_id == game.id)
    query = query.where(AgElection.number == number) if number is not None else query.where(
        AgElection.status == "open")
    election = (await session.execute(query)).scalar_one_or_none()
    if election is None:
        raise RuleError(f"No Adjutant General election is open in {game.name}.")
    with_round = election.closes_with_round if election.closes_at is None else None
    deadline = utc(election.closes_at) if election.closes_at else (
        await round_end(session, game, election) if with_round is not None else None)
    voted = set((await session.execute(select(AgBallotRow.voter_id).where(
        AgBallotRow.election_id == election.id))).scalars())
    players = [p for p in await game_players(session, game.id) if p.active]
    return (election.number, deadline, tuple((p.user_id, p.name) for p in players if p.id not in voted),
            with_round)


FORMS = (ReminderForm("round", round_targets, round_waiting), ReminderForm("ag", election_targets, election_waiting))
