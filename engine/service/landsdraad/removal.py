"""``/player remove``: a moderator takes a player out of a Landsdraad game (issue 16).

The players row stays (the ledger, the export and ``/log`` read names from it); it is marked ``removed`` and
inactive, so everything that counts only active players stops counting them: their V(p) leaves the votes in play
(R0-17); their ballot in the open round is dropped (its ``BallotCast`` event stays in the log); their support of
an open player-majority vote is withdrawn (R0-41). Their ballot in an open AG election is dropped, and so are the
ballots cast for them (an inactive player cannot stand, R0-30); if they hold the AG office it falls vacant.
Re-adding them with ``/player add`` brings them back (``LedgerService.add_player``). One ``PlayerRemoved`` event."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import delete, select

from engine.core.errors import RuleError
from engine.service.landsdraad.adjutant import adjutant_of, open_election_row, set_adjutant
from engine.service.landsdraad.ledger import active_votes
from engine.service.landsdraad.round_state import current_round, factions_of
from engine.service.ledger import game_view, load_game, require_player, require_running
from engine.service.membership import games_cache
from engine.service.uow import ServiceBase
from engine.service.views import GameView
from engine.store.models.landsdraad import AgBallotRow, Ballot, PlayerVoteRow, SupportRow

REMOVED = "PlayerRemoved"


@dataclass(frozen=True)
class Removal:
    game: GameView
    user_id: int
    name: str
    in_play: int
    """The votes in play now (R0-17): the active players' and, in an open round, its temporary factions'."""
    round_ballot: bool
    """They had a ballot in the open round, which no longer counts."""
    ag_ballots: int
    """Ballots of the open AG election dropped (theirs, and those cast for them)."""
    supports: int
    """Supports of open player-majority votes withdrawn."""
    was_ag: bool


class RemovalService(ServiceBase):
    async def remove_player(self, game_id: int, *, user_id: int, actor: int | None,
                            source_id: str | None = None) -> Removal:
        async with self._write(game_id, source_id) as uow:
            session = uow.session
            game = await load_game(session, game_id)
            require_running(game)
            player = await require_player(session, game, user_id)
            if player.removed:
                raise RuleError(f"{player.name} was already removed from {game.name}; nothing changed.")
            player.removed = True
            player.active = False
            rnd = await current_round(session, game)
            round_open = rnd is not None and rnd.status == "open"
            round_ballot = False
            if rnd is not None and round_open:
                gone = await session.execute(delete(Ballot).where(Ballot.round_id == rnd.id,
                                                                  Ballot.player_id == player.id))
                round_ballot = bool(getattr(gone, "rowcount", 0))
            ag_ballots = 0
            election = await open_election_row(session, game_id)
            if election is not None:
                dropped = await session.execute(delete(AgBallotRow).where(
                    AgBallotRow.election_id == election.id,
                    (AgBallotRow.voter_id == player.id) | (AgBallotRow.candidate_id == player.id)))
                ag_ballots = int(getattr(dropped, "rowcount", 0) or 0)
            open_votes = select(PlayerVoteRow.id).where(PlayerVoteRow.game_id == game_id,
                                                        PlayerVoteRow.status == "open")
            withdrawn = await session.execute(delete(SupportRow).where(
                SupportRow.player_id == player.id, SupportRow.vote_id.in_(open_votes)))
            supports = int(getattr(withdrawn, "rowcount", 0) or 0)
            ag = await adjutant_of(session, game_id)
            was_ag = ag is not None and ag.id == player.id
            if was_ag:
                await set_adjutant(session, game_id, None, uow.now)
            await session.flush()
            in_play = await session.run_sync(active_votes, game_id)
            if rnd is not None and round_open:
                in_play += sum(f.votes for f in await factions_of(session, rnd.id))
            removal = Removal(game_view(game), user_id, player.name, in_play, round_ballot, ag_ballots, supports,
                              was_ag)
            await uow.record(game_id, REMOVED, actor,
                             {"user_id": user_id, "name": player.name, "in_play": in_play,
                              "round_ballot": round_ballot, "ag_ballots_dropped": ag_ballots,
                              "supports_withdrawn": supports, "was_ag": was_ag}, source_id)
        games_cache(self).forget([user_id])
        return removal
