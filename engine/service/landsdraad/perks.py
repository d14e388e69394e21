"""Perks (R0-70..R0-73, P0-12, P0-13, P0-18) and the Chancellor Pro tempore's Elector query (R0-71, P0-16).

``/round auctions-closed`` ranks the active players by V(p) and stores the perks of the round; each holder is
told by DM and nobody else is told (R0-72). The Pro tempore of the current round may then ask, once, how one
Elector voted in one closed round: the Elector voted with the crisis ballot of the player who controlled it at
that round's close (R0-14), read from the ``RoundClosed`` event and the holding events before it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.core.errors import RuleError
from engine.core.suggest import nearest
from engine.core.text import typed_back
from engine.landsdraad.close_weights import rows_of
from engine.landsdraad.perks import POSITIONS, Perk, award_perks, competition_ranks, militia_location
from engine.landsdraad.settings import SETTINGS
from engine.landsdraad.transfers import ElectorQuery
from engine.service.landsdraad.ledger import game_players
from engine.service.landsdraad.round_state import current_round
from engine.service.ledger import game_view, load_game, require_player, require_running
from engine.service.owed import OwedWith, owe_in
from engine.service.settings import value_of
from engine.service.uow import Duplicate, ServiceBase
from engine.service.views import GameView
from engine.store.models import Event, Game, Player
from engine.store.models.landsdraad import PerkRow, Round

PERK_KEYS = {Perk.PRO_TEMPORE: "pro_tempore", Perk.CHOAM: "choam", Perk.MASTER_AT_ARMS: "master_at_arms"}
ONLY_PRO_TEMPORE = "Only the Chancellor Pro tempore can ask how an Elector voted."


@dataclass(frozen=True)
class PerkGrant:
    """One perk held for a round; told only to its holder."""

    perk: Perk
    user_id: int
    player: str
    votes: int
    round: int
    game: str
    locations: tuple[str, ...] = ()
    """Master at Arms: the controlled non-Homeworld locations where the free militia may arrive (R0-73)."""

    @property
    def key(self) -> str:
        return PERK_KEYS[self.perk]


@dataclass(frozen=True)
class Ranked:
    name: str
    votes: int
    rank: int


@dataclass(frozen=True)
class PerksAwarded:
    game: GameView
    round: int
    grants: tuple[PerkGrant, ...]
    unawarded: tuple[tuple[Perk, str], ...]
    """Perks nobody gets this round, and why (P0-12: a shared or spilled position is not awarded)."""
    ranking: tuple[Ranked, ...]


@dataclass(frozen=True)
class ElectorAnswer:
    """How an Elector voted in a closed round: told only to the Pro tempore who asked."""

    game: GameView
    elector: str
    round: int
    option: str | None
    """``aye``, ``nay`` or ``abstain``; None when it did not vote (its controller was not in play)."""
    votes: int
    defaulted: bool = False
    """Its controller sent no ballot, so the block abstained by default (R0-13)."""
    duplicate: bool = False


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def _why_not(position: int, ranks: dict[int, int], names: dict[int, str], votes: dict[int, int],
             base: dict[int, int] | None = None) -> str:
    tied = [p for p, r in ranks.items() if r == position]
    if len(tied) > 1:
        also = f" and a Base Vote of {base[tied[0]]}" if base is not None else ""
        return f"{', '.join(names[p] for p in tied)} tie for {_ordinal(position)} with {votes[tied[0]]} votes{also}"
    if len(ranks) < position:
        return f"only {len(ranks)} active player{'s' if len(ranks) != 1 else ''}"
    above = max(r for r in ranks.values() if r < position)
    spill = [p for p, r in ranks.items() if r == above]
    return f"nobody is {_ordinal(position)}: {', '.join(names[p] for p in spill)} tie for {_ordinal(above)}"


def _scores(votes: dict[int, int], base: dict[int, int] | None) -> dict[int, int]:
    """What perks are ranked by: V(p) (P0-12), or with the ``perk_ties`` setting ``base-vote``, V(p) then the
    Base Vote (A0-11's alternative), as integers in the same order."""
    if base is None:
        return dict(votes)
    order = sorted({(votes[p], base[p]) for p in votes})
    return {p: order.index((votes[p], base[p])) for p in votes}


async def _perk_row(session: AsyncSession, game_id: int, number: int, perk: Perk) -> PerkRow | None:
    found = await session.execute(select(PerkRow).where(PerkRow.game_id == game_id, PerkRow.round_number == number,
                                                        PerkRow.perk == PERK_KEYS[perk]))
    return found.scalar_one_or_none()


async def _events(session: AsyncSession, game_id: int, *kinds: str, before: int | None = None) -> list[Event]:
    query = select(Event).where(Event.game_id == game_id, Event.kind.in_(kinds))
    if before is not None:
        query = query.where(Event.seq < before)
    return list((await session.execute(query.order_by(Event.seq))).scalars())


def electors_at(events: list[Event]) -> dict[str, dict[str, Any]]:
    """Replay HoldingAdded / HoldingRemoved: lower-cased holding name -> its HoldingAdded payload."""
    held: dict[str, dict[str, Any]] = {}
    for e in events:
        key = str(e.payload.get("name", "")).lower()
        if e.kind == "HoldingAdded":
            held[key] = dict(e.payload)
        elif e.kind == "HoldingRemoved":
            held.pop(key, None)
    return held


class PerkService(ServiceBase):
    async def auctions_closed(self, game_id: int, *, actor: int | None, source_id: str | None = None,
                              answer: OwedWith[PerksAwarded] | None = None) -> PerksAwarded:
        """R0-70/R0-71: rank the active players by V(p) now and store the round's perks (P0-12: only a sole
        holder of a position gets its perk). Once a round: a second call is refused. ``answer``: the perks' DMs
        to their holders, owed in its transaction (``owe_in``)."""
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            require_running(game)
            rnd = await current_round(uow.session, game)
            if rnd is None or rnd.status != "open":
                raise RuleError(f"No round is open in {game.name}: perks are assigned when the Auction Phases of an "
                                "open round close (open the round first with /round open).")
            for e in await _events(uow.session, game_id, "AuctionsClosed"):
                if e.payload.get("round") == rnd.number:
                    raise RuleError(f"The Auction Phases of round {rnd.number} were already closed and its perks "
                                    "assigned; perks are assigned once a round.")
            players = [p for p in await game_players(uow.session, game_id) if p.active]
            votes = {p.id: p.votes for p in players}
            names = {p.id: p.name for p in players}
            by_id = {p.id: p for p in players}
            base = {p.id: p.breakdown.base for p in players}
            by_base = value_of(game.settings, "perk_ties", SETTINGS) == "base-vote"
            score = _scores(votes, base if by_base else None)
            ranks = competition_ranks(score)
            awarded = award_perks(score)
            grants: list[PerkGrant] = []
            for perk, pid in sorted(awarded.items(), key=lambda kv: list(POSITIONS.values()).index(kv[0])):
                p = by_id[pid]
                locations: tuple[str, ...] = ()
                if perk is Perk.MASTER_AT_ARMS:
                    locations = tuple(militia_location([(h.name, h.homeworld) for h in p.holdings
                                                        if h.kind == "planet"]))
                uow.session.add(PerkRow(game_id=game_id, round_number=rnd.number, perk=PERK_KEYS[perk],
                                        player_id=pid, used=False))
                grants.append(PerkGrant(perk, p.user_id, p.name, p.votes, rnd.number, game.name, locations))
            unawarded = tuple((perk, _why_not(pos, ranks, names, votes, base if by_base else None))
                              for pos, perk in POSITIONS.items()
                              if perk not in awarded)
            ranking = tuple(sorted((Ranked(names[p], votes[p], ranks[p]) for p in votes),
                                   key=lambda r: (r.rank, r.name.lower())))
            await uow.session.flush()
            payload = {
                "round": rnd.number,
                "ranking": [{"user_id": by_id[p].user_id, "name": names[p], "votes": votes[p], "rank": ranks[p]}
                            for p in votes],
                "perks": {g.key: g.user_id for g in grants},
                "militia_locations": next((list(g.locations) for g in grants if g.perk is Perk.MASTER_AT_ARMS), None),
                "unawarded": [PERK_KEYS[perk] for perk, _ in unawarded],
            }
            await uow.record(game_id, "AuctionsClosed", actor, payload, source_id)
            return await owe_in(uow, answer, PerksAwarded(game_view(game), rnd.number, tuple(grants), unawarded,
                                                          ranking))

    async def elector_query(self, game_id: int, *, user_id: int, query: ElectorQuery, source_id: str | None,
                            answer: OwedWith[ElectorAnswer] | None = None) -> ElectorAnswer:
        """R0-71 (c): the Pro tempore of the current round learns how one Elector voted in one closed round.
        One query per round held (P0-18); it expires when the round closes. ``answer``: its answer, owed in its
        transaction (``owe_in``)."""
        try:
            async with self._write(game_id, source_id) as uow:
                session = uow.session
                game = await load_game(session, game_id)
                require_running(game)
                asker = await require_player(session, game, user_id, "You")
                rnd = await current_round(session, game)
                perk = await _perk_row(session, game_id, game.current_round, Perk.PRO_TEMPORE)
                if rnd is None or perk is None or perk.player_id != asker.id:
                    raise RuleError(ONLY_PRO_TEMPORE + " The perk goes, each round, to the player with the most "
                                    "votes when the Auction Phases close, and that player is told by DM.")
                if rnd.status != "open":
                    raise RuleError(f"Your Pro tempore query of round {rnd.number} expired when the round closed "
                                    "(a perk lasts for its round).")
                if perk.used:
                    raise RuleError(f"You have already asked about an Elector in round {rnd.number}; the Pro tempore "
                                    "may ask once a round.")
                found = await self._answer(session, game, query)
                perk.used = True
                await session.flush()
                payload = {"round": game.current_round, "asked_round": found.round, "elector": found.elector,
                           "option": found.option, "votes": found.votes, "defaulted": found.defaulted}
                await uow.record(game_id, "ElectorQueried", user_id, payload, source_id)
                return await owe_in(uow, answer, found)
        except Duplicate as dup:
            if dup.kind != "ElectorQueried":
                raise RuleError("That message was already handled; nothing was changed.") from None
            async with self._read() as session:
                game = await load_game(session, game_id)
                p = dup.payload
                return ElectorAnswer(game_view(game), str(p["elector"]), int(p["asked_round"]), p.get("option"),
                                     int(p.get("votes") or 0), bool(p.get("defaulted")), duplicate=True)

    async def _answer(self, session: AsyncSession, game: Game, query: ElectorQuery) -> ElectorAnswer:
        found = await session.execute(select(Round).where(Round.game_id == game.id, Round.number == query.round))
        asked = found.scalar_one_or_none()
        if asked is None:
            raise RuleError(f"{game.name} has no round {query.round}; rounds so far: 1 to {game.current_round}.")
        if asked.status != "closed":
            raise RuleError(f"Round {query.round} has not closed yet; an Elector's vote is known only after the "
                            "close. Ask about an earlier round.")
        closes = [e for e in await _events(session, game.id, "RoundClosed") if e.payload.get("round") == query.round]
        if not closes:
            raise RuleError(f"The record of round {query.round}'s close is missing; ask a moderator.")
        closed = closes[0]
        held = electors_at(await _events(session, game.id, "HoldingAdded", "HoldingRemoved", before=closed.seq))
        holding = held.get(" ".join(query.elector.split()).lower())
        if holding is None or holding.get("kind") != "elector":
            electors = [str(h["name"]) for h in held.values() if h.get("kind") == "elector"]
            if holding is not None:
                raise RuleError(f"{holding['name']} is a planet, not an Elector.")
            near = nearest(query.elector, electors)
            hint = f" Did you mean {near}?" if near else ""
            raise RuleError(f"No player controlled an Elector called {typed_back(query.elector)} at the close of round "
                            f"{query.round}, so it did not vote then.{hint} Electors controlled then: "
                            f"{', '.join(electors) or 'none'}.")
        name, votes = str(holding["name"]), int(holding.get("votes") or 0)
        ballots = {int(user_id): ballot for user_id, _, _, ballot in rows_of(closed.payload) if user_id is not None}
        if int(holding["user_id"]) not in ballots:
            return ElectorAnswer(game_view(game), name, query.round, None, votes)
        ballot = ballots[int(holding["user_id"])]
        return ElectorAnswer(game_view(game), name, query.round, str(ballot or "abstain"), votes,
                             defaulted=ballot is None)


async def export_perks(session: AsyncSession, game_id: int) -> dict[str, Any]:
    rows = await session.execute(
        select(PerkRow.round_number, PerkRow.perk, Player.name, PerkRow.used)
        .join(Player, Player.id == PerkRow.player_id)
        .where(PerkRow.game_id == game_id).order_by(PerkRow.round_number, PerkRow.id))
    return {"perks": [{"round": n, "perk": perk, "player": name, "used": used} for n, perk, name, used in rows.all()]}
