"""AG ballots cast while a No Confidence vote is under way (R0-35: "votes cast for a new AG prior to an official
removal are still valid if cast"). No election is open yet, so such a ballot is held: recorded as an
``AgBallotHeld`` event tied to the No Confidence vote, and counted in the election that the vote's enactment opens,
at the time it was cast. If the vote is vetoed or expires, the held ballots lapse (nothing else was written).

The event log is where they are kept (no table of their own): each event carries the ballot as it stands after
P0-21 (a changed ballot is re-stamped, the same name again keeps its time), so the last event of each voter is
their ballot."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.landsdraad.adjutant import AgBallot, cast_ag_ballot
from engine.landsdraad.majority import Subject, vote_title
from engine.service.uow import UnitOfWork
from engine.store.models import Event, Game, Player
from engine.store.models.landsdraad import AgBallotRow, AgElection, PlayerVoteRow

HELD = "AgBallotHeld"
PENDING = ("open", "passed")
"""The states of a No Confidence vote that can still be enacted (R0-42)."""


@dataclass(frozen=True)
class HeldVote:
    """The receipt of a held AG ballot."""

    voter: str
    candidate: str
    vote_title: str
    """``No Confidence in jenny``: the vote whose enactment would open the election."""
    changed_from: str | None
    unchanged: bool
    duplicate: bool = False


async def pending_no_confidence(session: AsyncSession, game: Game) -> PlayerVoteRow | None:
    """The No Confidence vote that could still open an election (open, or passed awaiting the moderator)."""
    found = await session.execute(select(PlayerVoteRow).where(
        PlayerVoteRow.game_id == game.id, PlayerVoteRow.subject == Subject.NO_CONFIDENCE.value,
        PlayerVoteRow.status.in_(PENDING)).order_by(PlayerVoteRow.id.desc()).limit(1))
    return found.scalar_one_or_none()


def title_of(row: PlayerVoteRow) -> str:
    return vote_title(Subject.NO_CONFIDENCE, str(row.details.get("label", "")))


async def held_ballots(session: AsyncSession, game_id: int, vote_id: int,
                       round_number: int | None = None) -> dict[int, AgBallot]:
    """Each voter's held ballot for that No Confidence vote, by player id (their last ``AgBallotHeld``); with
    ``round_number``, only ballots cast in that round. In the order they were received as last stamped (a changed
    ballot moves to the end), which breaks a tie between two stamped with the same instant (R0-31)."""
    rows = await session.execute(select(Event.payload).where(Event.game_id == game_id, Event.kind == HELD)
                                 .order_by(Event.seq))
    held: dict[int, AgBallot] = {}
    for payload in rows.scalars():
        if payload.get("vote") == vote_id and round_number in (None, payload.get("round")):
            voter = int(payload["voter"])
            ballot = AgBallot(voter, int(payload["candidate_id"]), datetime.fromisoformat(payload["cast_at"]))
            if held.get(voter) != ballot:
                held.pop(voter, None)
                held[voter] = ballot
    return held


async def hold(uow: UnitOfWork, game: Game, vote: PlayerVoteRow, voter: Player, chosen: Player, at: datetime,
               actor: int, source_id: str | None) -> HeldVote:
    """Hold ``voter``'s ballot for ``chosen`` until ``vote`` is decided."""
    previous = (await held_ballots(uow.session, game.id, vote.id, game.current_round)).get(voter.id)
    ballot = cast_ag_ballot(previous, voter.id, chosen.id, at)
    changed_from = None
    if previous is not None and ballot is not previous:
        old = await uow.session.get(Player, previous.candidate)
        changed_from = old.name if old else None
    await uow.record(game.id, HELD, actor,
                     {"vote": vote.id, "round": game.current_round, "voter": voter.id, "voter_name": voter.name,
                      "candidate_id": chosen.id,
                      "candidate": chosen.name, "cast_at": ballot.cast_at.isoformat(), "changed_from": changed_from,
                      "unchanged": ballot is previous, "at": at.isoformat()}, source_id)
    return HeldVote(voter.name, chosen.name, title_of(vote), changed_from, ballot is previous)


async def count_held(session: AsyncSession, game: Game, vote: PlayerVoteRow,
                     election: AgElection) -> tuple[list[tuple[str, str]], list[str]]:
    """Write the held ballots of ``vote`` into the election its enactment opened, at the times they were cast.
    Only ballots cast in the round of the removal count (R0-35: "cast earlier in the same round"; a vote passed in
    one round and enacted in a later one keeps none), and only if the voter and candidate are still active players
    (R0-30); the others lapse.
    Returns ((voter, candidate) counted, the lapsed as "voter → candidate")."""
    players = {p.id: p for p in (await session.execute(select(Player).where(Player.game_id == game.id))).scalars()}
    counted: list[tuple[str, str]] = []
    lapsed: list[str] = []
    held = await held_ballots(session, game.id, vote.id, game.current_round)
    for ballot in sorted(held.values(), key=lambda b: b.cast_at):  # stable: at one instant, in the order received
        voter, candidate = players.get(ballot.voter), players.get(ballot.candidate)
        if voter is None or candidate is None:
            continue
        if not (voter.active and candidate.active) or voter.removed or candidate.removed:
            lapsed.append(f"{voter.name} → {candidate.name}")
            continue
        session.add(AgBallotRow(election_id=election.id, voter_id=voter.id, candidate_id=candidate.id,
                                cast_at=ballot.cast_at, source_id=None))
        counted.append((voter.name, candidate.name))
    await session.flush()
    return counted, lapsed
