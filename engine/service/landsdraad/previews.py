"""What a close would give before it happens, for the moderators (``/round preview``, ``/ag preview``): read in one
read-only transaction, the way the close reads it, and recorded as nothing. No die is rolled and no roll is set:
the d6 factions not yet rolled are counted over every face (``engine/landsdraad/preview.py``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.core.errors import RuleError
from engine.landsdraad.adjutant import AgBallot
from engine.landsdraad.ag_preview import AgPreview, ag_preview
from engine.landsdraad.model import Option
from engine.landsdraad.preview import Preview, preview
from engine.landsdraad.settings import SETTINGS
from engine.service.clock import utc
from engine.service.landsdraad.ledger import read_players
from engine.service.landsdraad.round_close import voters
from engine.service.landsdraad.round_state import faction_of, read_factions, read_round
from engine.service.ledger import game_view, read_game
from engine.service.settings import value_of
from engine.service.uow import ServiceBase, SyncUnit
from engine.service.views import GameView
from engine.store.models.landsdraad import AgBallotRow, AgElection


@dataclass(frozen=True)
class RoundPreview:
    game: GameView
    number: int
    crisis: str
    preview: Preview
    voted: int
    """Players whose ballot counts."""
    waiting: tuple[tuple[str, int], ...]
    """Active players with no ballot yet (they abstain if the round closes now): name and votes, most votes first."""


@dataclass(frozen=True)
class ElectionPreview:
    game: GameView
    number: int
    closes_at: datetime | None
    closes_with_round: int | None
    preview: AgPreview
    names: dict[int, str]
    """Player id -> name, for the candidates and the standings."""
    waiting: tuple[str, ...]
    """Active players who have not cast a ballot."""


def read_round_preview(session: Session, game_id: int, now: datetime) -> RoundPreview:
    game = read_game(session, game_id)
    rnd = read_round(session, game)
    if rnd is None or rnd.status != "open":
        raise RuleError(f"No round is open in {game.name}; /round preview shows the close of the open round.")
    factions = read_factions(session, rnd.id)
    # the close's own reading of every voter (round_close.voters); this transaction only reads and is not committed
    _, cast = voters(SyncUnit(session.connection(), now, session), game.id, rnd.id)
    weights = dict(enumerate(cast["votes"]))
    ballots = {n: Option(b) for n, b in enumerate(cast["ballot"]) if b is not None}
    rolls = {row.name: row.roll for row in factions if row.stance == "d6" and row.roll is not None}
    p = preview(weights, ballots, [faction_of(row) for row in factions], rolls)
    every = zip(cast["name"], cast["votes"], cast["ballot"], strict=True)
    waiting = sorted(((str(name), int(votes)) for name, votes, ballot in every if ballot is None),
                     key=lambda nv: (-nv[1], nv[0]))
    return RoundPreview(game_view(game), rnd.number, rnd.crisis, p, voted=len(ballots), waiting=tuple(waiting))


def read_election_preview(session: Session, game_id: int) -> ElectionPreview:
    game = read_game(session, game_id)
    election = session.execute(select(AgElection).where(AgElection.game_id == game.id,
                                                        AgElection.status == "open")).scalar_one_or_none()
    if election is None:
        raise RuleError(f"No Adjutant General election is open in {game.name}; /ag open starts one.")
    weighted = bool(value_of(game.settings, "ag_weighted", SETTINGS))
    players = read_players(session, game.id)
    voters = {p.id: p.votes if weighted else 1 for p in players if p.active and not p.removed}
    rows = session.execute(select(AgBallotRow).where(AgBallotRow.election_id == election.id)
                           .order_by(AgBallotRow.cast_at, AgBallotRow.id)).scalars().all()
    ballots = [AgBallot(r.voter_id, r.candidate_id, utc(r.cast_at)) for r in rows]
    voted = {b.voter for b in ballots}
    return ElectionPreview(
        game=game_view(game), number=election.number,
        closes_at=utc(election.closes_at) if election.closes_at else None,
        closes_with_round=election.closes_with_round,
        preview=ag_preview(ballots, voters, weighted), names={p.id: p.name for p in players},
        waiting=tuple(p.name for p in players if p.id in voters and p.id not in voted))


class PreviewService(ServiceBase):
    """``clerk.landsdraad.previews``: the closes before they happen. Reads only."""

    async def round(self, game_id: int) -> RoundPreview:
        """The open round's crisis close as it would come out now, with exact odds over the unrolled d6 factions."""
        async with self._read() as session:
            return await session.run_sync(read_round_preview, game_id, self.clock.now())

    async def election(self, game_id: int) -> ElectionPreview:
        """The open AG election as it would close now: the standings, the tie-break, what each candidate needs."""
        async with self._read() as session:
            return await session.run_sync(read_election_preview, game_id)
