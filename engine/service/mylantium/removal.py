"""``/player remove`` in the Republic of Mylantium (issue 16; docs/rulings.md, "A player removed from Mylantium").

The player's Faction withdraws from the game, as a put-down Vanguard does (R1-43, R1-44.5: "play continues as before
among the other players"): it is no longer in play, so its Faction Votes leave ``F`` and the Independent Vote is
recomputed from the rest (R1-04, P1-01); its VP leave ``S`` (P1-15). Its choice in the open Primary or General
Election is dropped, and so are the choices other Factions made for its Candidate in an open Primary (a Candidate of
a withdrawn Faction stops running, so those choices could not count; those Factions choose again). Its pledge to a
Revolution under way is dropped (a pledge is paid only at resolution, P1-22). While its Faction is the Vanguard of
that Revolution, or the Brass Hats are being asked about a coup, the removal is refused: the moderator settles the
attempt first (``/revolution resolve``, ``/revolution coup``). The players row stays (the history names it), marked
``removed``; ``/faction set in_play:true`` brings the player back. One ``PlayerRemoved`` event."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, select

from engine.core.errors import RuleError
from engine.mylantium.elections import independent_vote
from engine.mylantium.model import FactionCode
from engine.mylantium.revolution import Waiting, chain_of
from engine.service.clock import utc
from engine.service.ledger import game_view, require_player
from engine.service.membership import games_cache
from engine.service.mylantium.history import record
from engine.service.mylantium.records import writable
from engine.service.mylantium.revolution import chain_after_vp_change
from engine.service.mylantium.state import (
    candidate_rows,
    election_of,
    faction_rows,
    government_of,
    live_chain,
    open_election,
    player_names,
    pure_factions,
    rules_of,
)
from engine.service.mylantium.views import ChainView
from engine.service.uow import ServiceBase
from engine.service.views import GameView
from engine.store.models.mylantium import MylChoice, MylContribution, MylFaction

REMOVED = "PlayerRemoved"


@dataclass(frozen=True)
class MylRemoval:
    game: GameView
    user_id: int
    name: str
    faction: FactionCode
    faction_votes: int
    """F now: the Faction Votes of the Factions still in play (R1-04)."""
    independent: int
    """The Independent Vote now, from ``faction_votes`` (P1-01)."""
    election: str | None
    """The open election's title (``Primary``, ``General Election``), if one is open."""
    choice_dropped: bool
    """Their Faction's choice in the open election no longer counts."""
    choosers_dropped: tuple[str, ...]
    """Factions whose choice of their Candidate in the open Primary was dropped (they choose again). Secret: for the
    moderators and, each for itself, those Factions' players."""
    candidate: str | None
    """Their Faction's Candidate, who stopped running."""
    nominee_of: str | None
    """The party whose nominee that Candidate was, this turn (the moderator names another, ``/election nominee``)."""
    pledge_dropped: bool
    """Their pledge to the Revolution under way no longer counts."""
    chain: ChainView | None
    """A chain the change started (R1-40, R1-50), if any."""
    chooser_users: tuple[int, ...] = ()
    """The players of ``choosers_dropped`` (told by DM), those who still have one."""
    deadline: datetime | None = None
    """The open election's deadline, if it has one."""


class RemovalService(ServiceBase):
    async def remove_player(self, game_id: int, *, user_id: int, actor: int | None,
                            source_id: str | None = None) -> MylRemoval:
        async with self._write(game_id, source_id) as uow:
            session = uow.session
            game = await writable(uow, game_id)
            player = await require_player(session, game, user_id)
            if player.removed:
                raise RuleError(f"{player.name} was already removed from {game.name}; nothing changed.")
            found = await session.execute(select(MylFaction).where(MylFaction.player_id == player.id))
            faction = found.scalar_one()
            code = FactionCode[faction.code]
            chain_row = await live_chain(session, game_id)
            pledge_dropped = False
            if chain_row is not None:
                chain = chain_of(chain_row.state)
                current = chain.current
                if current is not None and current.vanguard is code:
                    raise RuleError(f"The {code.plural} ({player.name}) are the Vanguard of the Revolution under way "
                                    f"in {game.name}; settle it first (/revolution resolve), then remove them. "
                                    "Nothing changed.")
                if chain.waiting is Waiting.COUP and code is FactionCode.BH:
                    raise RuleError(f"The Brass Hats ({player.name}) are being asked whether they attempt a coup in "
                                    f"{game.name}; answer for them first (/revolution coup), then remove them. "
                                    "Nothing changed.")
                if current is not None:
                    gone = await session.execute(delete(MylContribution).where(
                        MylContribution.chain_id == chain_row.id, MylContribution.attempt == current.number,
                        MylContribution.faction_id == faction.id))
                    pledge_dropped = bool(getattr(gone, "rowcount", 0))
            player.removed, player.active = True, False
            faction.in_play = False
            gov = await government_of(session, game)
            candidate = next((c for c in await candidate_rows(session, game_id)
                              if c.faction_id == faction.id and not c.discarded), None)
            nominee_of = None
            if candidate is not None:
                candidate.running = False
                done = await election_of(session, game_id, gov.turn, "primary")
                if done is not None and done.result:
                    nominee_of = next((party for party, name in done.result.get("nominees", {}).items()
                                       if name == candidate.name), None)
            election = await open_election(session, game_id)
            choice_dropped = False
            choosers: list[str] = []
            chooser_users: tuple[int, ...] = ()
            if election is not None:
                gone = await session.execute(delete(MylChoice).where(MylChoice.election_id == election.id,
                                                                     MylChoice.faction_id == faction.id))
                choice_dropped = bool(getattr(gone, "rowcount", 0))
                if election.stage == "primary" and candidate is not None:
                    chose = (await session.execute(select(MylChoice).where(
                        MylChoice.election_id == election.id, MylChoice.choice == candidate.name))).scalars().all()
                    rows = {r.id: r for r in await faction_rows(session, game_id)}
                    choosers = [FactionCode[rows[c.faction_id].code].plural for c in chose]
                    players = await player_names(session, game_id)
                    chooser_users = tuple(players[pid].user_id for pid in
                                          (rows[c.faction_id].player_id for c in chose) if pid in players)
                    for c in chose:
                        await session.delete(c)
            await session.flush()
            factions, _ = await pure_factions(session, game_id)
            f = sum(x.votes for x in factions if x.in_play)
            independent = independent_vote(f, rules_of(game))
            started = await chain_after_vp_change(uow, game)
            title = None if election is None else "Primary" if election.stage == "primary" else "General Election"
            removal = MylRemoval(game_view(game), user_id, player.name, code, f, independent, title, choice_dropped,
                                 tuple(choosers), candidate.name if candidate is not None else None,
                                 nominee_of, pledge_dropped, started, chooser_users,
                                 utc(election.deadline) if election is not None and election.deadline else None)
            await record(uow, game_id, REMOVED, actor,
                             {"user_id": user_id, "name": player.name, "faction": code.name,
                              "faction_votes": f, "independent": independent,
                              "election": election.stage if election is not None else None,
                              "choice_dropped": choice_dropped, "choosers_dropped": choosers,
                              "candidate": removal.candidate, "nominee_of": nominee_of,
                              "pledge_dropped": pledge_dropped,
                              "chain": started.number if started is not None else None}, source_id)
        games_cache(self).forget([user_id])
        return removal
