"""The Adjutant General: elections in a thread, the office, the no-AG check at round end (R0-30..R0-35)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from engine.core.errors import RuleError
from engine.landsdraad.adjutant import (
    AgBallot,
    cast_ag_ballot,
    election_deadline,
    extend_after_no_confidence,
    tally_ag,
)
from engine.landsdraad.settings import SETTINGS
from engine.service.announcements import POST_TOKEN, new_post_token, result_pending
from engine.service.clock import utc
from engine.service.landsdraad.held_ballots import HELD, HeldVote, held_ballots, hold, pending_no_confidence, title_of
from engine.service.landsdraad.ledger import read_players
from engine.service.ledger import game_view, load_game, require_player, require_running
from engine.service.names import find_player_by_name
from engine.service.owed import OwedWith, owe_in
from engine.service.settings import value_of
from engine.service.uow import Duplicate, ServiceBase, SyncUnit, UnitOfWork
from engine.service.views import GameView
from engine.store.models import Event, Game, Player
from engine.store.models.landsdraad import AgBallotRow, AgElection, Office, Round

AG = "adjutant_general"


@dataclass(frozen=True)
class Standing:
    candidate: str
    votes: int
    last_at: datetime


@dataclass(frozen=True)
class ElectionView:
    game: GameView
    number: int
    reason: str
    status: str
    opened_at: datetime
    closes_at: datetime | None
    closes_with_round: int | None
    standings: tuple[Standing, ...]
    ballots: tuple[tuple[str, str, datetime], ...]
    """(voter, candidate, cast_at), public (R0-30)."""
    winner: str | None
    weighted: bool
    post_token: str | None = None
    """A closed election's own token (its ``AgElectionClosed``), which its card's nonce carries
    (``engine.service.announcements.announcement_nonce``); None for one closed by a Clerk from before tokens."""

    @property
    def thread_name(self) -> str:
        return f"ag-election-{self.number}"

    @property
    def tally_key(self) -> str:
        return f"ag-tally:{self.number}"


@dataclass(frozen=True)
class AgVoteReceipt:
    election: ElectionView
    voter: str
    candidate: str
    changed_from: str | None
    unchanged: bool
    duplicate: bool = False


SELF = frozenset({"me", "myself"})
"""``AG Vote: me``: the voter (the pinned message says "your own name is fine"), unless a player is called that."""


async def _means_self(session: AsyncSession, game: Game, candidate: str) -> bool:
    typed = candidate.strip().lower()
    if typed not in SELF:
        return False
    names = (await session.execute(select(Player.name).where(Player.game_id == game.id))).scalars()
    return all(name.strip().lower() != typed for name in names)


async def open_election_row(session: AsyncSession, game_id: int) -> AgElection | None:
    found = await session.execute(select(AgElection).where(AgElection.game_id == game_id,
                                                           AgElection.status == "open"))
    return found.scalar_one_or_none()


async def latest_election(session: AsyncSession, game_id: int) -> AgElection | None:
    found = await session.execute(select(AgElection).where(AgElection.game_id == game_id)
                                  .order_by(AgElection.number.desc()).limit(1))
    return found.scalar_one_or_none()


def read_adjutant(session: Session, game_id: int) -> Player | None:
    found = session.execute(select(Player).join(Office, Office.player_id == Player.id)
                            .where(Office.game_id == game_id, Office.office == AG))
    return found.scalar_one_or_none()


async def adjutant_of(session: AsyncSession, game_id: int) -> Player | None:
    return await session.run_sync(read_adjutant, game_id)


def write_adjutant(session: Session, game_id: int, player_id: int | None, now: datetime) -> None:
    found = session.execute(select(Office).where(Office.game_id == game_id, Office.office == AG))
    office = found.scalar_one_or_none()
    if office is None:
        session.add(Office(game_id=game_id, office=AG, player_id=player_id, since=now))
    else:
        office.player_id, office.since = player_id, now


async def set_adjutant(session: AsyncSession, game_id: int, player_id: int | None, now: datetime) -> None:
    await session.run_sync(write_adjutant, game_id, player_id, now)


def closed_record(session: Session, game_id: int, number: int) -> tuple[int, dict[str, Any]] | None:
    """(seq, payload) of the ``AgElectionClosed`` event of election ``number``, if one was recorded."""
    found = session.execute(select(Event.seq, Event.payload).where(
        Event.game_id == game_id, Event.kind == "AgElectionClosed").order_by(Event.seq)).all()
    kept = [(int(seq), dict(payload)) for seq, payload in found if dict(payload).get("number") == number]
    return kept[-1] if kept else None


def counted_of(payload: Mapping[str, Any]) -> tuple[list[AgBallot], dict[int, int] | None, dict[int, str]] | None:
    """The ballots, the weights (None: unweighted) and the names the close recorded (``counted``); None for an
    event recorded before Clerk kept them."""
    if "counted" not in payload:
        return None
    ballots, weights, names = [], {}, {}
    for n, c in enumerate(payload["counted"]):
        voter, candidate = 2 * n, 2 * n + 1  # ids local to this record: the names are what was read
        names[voter], names[candidate] = str(c["voter"]), str(c["candidate"])
        ballots.append(AgBallot(voter, candidate, datetime.fromisoformat(str(c["cast_at"]))))
        if c.get("weight") is not None:
            weights[voter] = int(c["weight"])
    by_name: dict[str, int] = {}
    for b in ballots:  # one id per candidate name, so that their ballots add up
        b_name = names[b.candidate]
        by_name.setdefault(b_name, b.candidate)
    ballots = [AgBallot(b.voter, by_name[names[b.candidate]], b.cast_at) for b in ballots]
    return ballots, (weights if payload.get("weighted") else None), names


@dataclass(frozen=True)
class AgRecount:
    """A closed AG election counted again under a changed ``ag_weighted``: what it posted and what it would be."""

    number: int
    posted: tuple[tuple[str, int], ...]
    recounted: tuple[tuple[str, int], ...]

    @property
    def winner_changed(self) -> bool:
        return (self.posted[:1] or (("", 0),))[0][0] != (self.recounted[:1] or (("", 0),))[0][0]


def recount_closed(payload: Mapping[str, Any], weighted: bool) -> AgRecount | None:
    """The election the close recorded, counted with ``weighted``; None when its record has no ballots or weights
    (closed before Clerk kept them) or it comes out as posted."""
    counted = counted_of({**payload, "weighted": True})
    if counted is None or any(c.get("weight") is None for c in payload["counted"]):
        return None
    ballots, weights, names = counted
    posted = tuple((str(c), int(v)) for c, v in payload.get("standings", ()))
    again = tuple((names[c], n) for c, n, _ in tally_ag(ballots, weights if weighted else None))
    return None if again == posted else AgRecount(int(payload["number"]), posted, again)


def read_election_view(session: Session, game: Game, election: AgElection) -> ElectionView:
    rows = session.execute(select(AgBallotRow).where(AgBallotRow.election_id == election.id)
                           .order_by(AgBallotRow.cast_at, AgBallotRow.id)).scalars().all()
    players = {p.id: p for p in read_players(session, game.id)}
    weighted = bool(value_of(game.settings, "ag_weighted", SETTINGS))
    weights = {pid: p.votes for pid, p in players.items()} if weighted else None
    ballots = [AgBallot(r.voter_id, r.candidate_id, utc(r.cast_at)) for r in rows]
    standings = tuple(Standing(players[c].name, n, last) for c, n, last in tally_ag(ballots, weights))
    record = closed_record(session, game.id, election.number) if election.status == "closed" else None
    counted = counted_of(record[1]) if record else None
    if counted is not None:  # a closed election shows what its close counted, not a recount of today's votes
        read, read_weights, names = counted
        weighted = read_weights is not None
        standings = tuple(Standing(names[c], n, last) for c, n, last in tally_ag(read, read_weights))
    winner = players[election.winner_id].name if election.winner_id in players else None
    return ElectionView(
        game=game_view(game),
        number=election.number,
        reason=election.reason,
        status=election.status,
        opened_at=utc(election.opened_at),
        closes_at=utc(election.closes_at) if election.closes_at else None,
        closes_with_round=election.closes_with_round,
        standings=standings,
        ballots=tuple((players[b.voter].name, players[b.candidate].name, b.cast_at) for b in ballots),
        winner=winner,
        weighted=weighted,
        post_token=record[1].get(POST_TOKEN) if record else None,
    )


def close_payload(session: Session, game: Game, election: AgElection, view: ElectionView) -> dict[str, Any]:
    """The ``AgElectionClosed`` payload: the winner, the standings, whether it was weighted and each ballot counted
    (voter, candidate, time, and the voter's V(p) at the close, kept weighted or not so that a change of
    ``ag_weighted`` can be recounted), so that ``/why ag`` and a recount read the close; and the close's own token
    (``post_token``), which its card's nonce carries (play-test V2.2)."""
    players = {p.id: p for p in read_players(session, game.id)}
    rows = session.execute(select(AgBallotRow).where(AgBallotRow.election_id == election.id)
                           .order_by(AgBallotRow.cast_at, AgBallotRow.id)).scalars().all()
    counted = [{"voter": players[r.voter_id].name, "candidate": players[r.candidate_id].name,
                "cast_at": utc(r.cast_at).isoformat(),
                "weight": players[r.voter_id].votes} for r in rows]
    return {"number": election.number, "winner": view.winner,
            "standings": [[s.candidate, s.votes] for s in view.standings],
            "weighted": view.weighted, "counted": counted, POST_TOKEN: new_post_token()}


async def election_view(session: AsyncSession, game: Game, election: AgElection) -> ElectionView:
    return await session.run_sync(read_election_view, game, election)


async def start_election(uow: UnitOfWork, game: Game, *, reason: str, closes_at: datetime | None,
                         closes_with_round: int | None) -> AgElection:
    count = (await uow.session.execute(select(func.count()).select_from(AgElection)
                                       .where(AgElection.game_id == game.id))).scalar_one()
    election = AgElection(game_id=game.id, number=count + 1, reason=reason, status="open", opened_at=uow.now,
                          closes_at=closes_at, closes_with_round=closes_with_round)
    uow.session.add(election)
    await uow.session.flush()
    return election


def finish_election(unit: SyncUnit, game: Game, election: AgElection) -> ElectionView:
    """Close the election: the winner takes the office (R0-31); no ballots, no AG."""
    session = unit.session
    view = read_election_view(session, game, election)
    rows = session.execute(select(AgBallotRow).where(AgBallotRow.election_id == election.id)
                           .order_by(AgBallotRow.cast_at, AgBallotRow.id)).scalars()
    ballots = [AgBallot(r.voter_id, r.candidate_id, utc(r.cast_at)) for r in rows]
    weights = None
    if view.weighted:
        weights = {p.id: p.votes for p in read_players(session, game.id)}
    standings = tally_ag(ballots, weights)
    winner = standings[0][0] if standings else None
    election.status = "closed"
    election.closed_at = unit.now
    election.winner_id = winner
    if winner is not None:
        write_adjutant(session, game.id, winner, unit.now)
    session.flush()
    return read_election_view(session, game, election)


class AdjutantService(ServiceBase):
    async def open_election(self, game_id: int, *, deadline: datetime | None, actor: int | None,
                            source_id: str | None = None, answer: OwedWith[ElectionView] | None = None
                            ) -> ElectionView:
        """R0-30: the Adjutant General election opened. ``answer``: what it announces (the line in the game channel,
        the running count in its thread), owed in its transaction (``owe_in``)."""
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            require_running(game)
            if await open_election_row(uow.session, game_id) is not None:
                raise RuleError("An Adjutant General election is already open; it closes at its deadline.")
            closes = election_deadline(uow.now, deadline)
            election = await start_election(uow, game, reason="election", closes_at=closes, closes_with_round=None)
            await uow.record(game_id, "AgElectionOpened", actor,
                             {"number": election.number, "closes_at": closes.isoformat(), "reason": "election"},
                             source_id)
            return await owe_in(uow, answer, await election_view(uow.session, game, election))

    async def cast_ag_vote(self, game_id: int, *, user_id: int, candidate: str, at: datetime,
                           source_id: str | None, answer: OwedWith[AgVoteReceipt | HeldVote] | None = None
                           ) -> AgVoteReceipt | HeldVote:
        """R0-30: one public, unweighted ballot per active player for an active player (self-votes allowed).
        A changed ballot is re-stamped; the same name again keeps its time (P0-21). While a No Confidence vote is
        under way and no election is open, the ballot is held for the election its enactment opens (R0-35).
        ``answer``: its receipt, owed in the ballot's transaction (``owe_in``)."""
        try:
            async with self._write(game_id, source_id) as uow:
                game = await load_game(uow.session, game_id)
                require_running(game)
                voter = await require_player(uow.session, game, user_id, "You")
                if voter.removed:
                    raise RuleError(f"You are no longer in {game.name} (a moderator removed you), "
                                    "so you cannot vote for the AG.")
                if not voter.active:
                    raise RuleError(f"You are marked inactive in {game.name}, so you cannot vote for the AG.")
                election = await open_election_row(uow.session, game_id)
                no_confidence = None if election else await pending_no_confidence(uow.session, game)
                if election is None and no_confidence is None:
                    raise RuleError(f"No Adjutant General election is open in {game.name}.")
                if election is not None and election.closes_at is not None and at >= utc(election.closes_at):
                    raise RuleError("The AG election has closed; your ballot came too late.")
                chosen = (voter if await _means_self(uow.session, game, candidate)
                          else await find_player_by_name(uow.session, game, candidate))
                if chosen.removed:
                    raise RuleError(f"{chosen.name} is no longer in {game.name} and cannot stand for Adjutant General.")
                if not chosen.active:
                    raise RuleError(f"{chosen.name} is inactive and cannot stand for Adjutant General.")
                if election is None:
                    assert no_confidence is not None
                    return await owe_in(uow, answer, await hold(uow, game, no_confidence, voter, chosen, at,
                                                                user_id, source_id))
                found = await uow.session.execute(select(AgBallotRow).where(
                    AgBallotRow.election_id == election.id, AgBallotRow.voter_id == voter.id))
                row = found.scalar_one_or_none()
                previous = AgBallot(voter.id, row.candidate_id, utc(row.cast_at)) if row else None
                ballot = cast_ag_ballot(previous, voter.id, chosen.id, at)
                changed_from: str | None = None
                if row is None:
                    uow.session.add(AgBallotRow(election_id=election.id, voter_id=voter.id, candidate_id=chosen.id,
                                                cast_at=ballot.cast_at, source_id=source_id))
                elif ballot is not previous:
                    old = await uow.session.get(Player, row.candidate_id)
                    changed_from = old.name if old else None
                    # a new row, not the old one changed: the rows' ids are then the order the ballots were received
                    # in as last stamped, which breaks a tie between two stamped with the same instant (R0-31)
                    await uow.session.delete(row)
                    await uow.session.flush()
                    uow.session.add(AgBallotRow(election_id=election.id, voter_id=voter.id, candidate_id=chosen.id,
                                                cast_at=ballot.cast_at, source_id=source_id))
                await uow.session.flush()
                await uow.record(game_id, "AgBallotCast", user_id,
                                 {"election": election.number, "voter": voter.name, "candidate": chosen.name,
                                  "changed_from": changed_from, "unchanged": ballot is previous,
                                  "at": at.isoformat()}, source_id)
                view = await election_view(uow.session, game, election)
                return await owe_in(uow, answer, AgVoteReceipt(view, voter.name, chosen.name, changed_from,
                                                               ballot is previous))
        except Duplicate as dup:
            if dup.kind == HELD:
                return HeldVote("", str(dup.payload.get("candidate", "")), "", None, True, duplicate=True)
            async with self._read() as session:
                game = await load_game(session, game_id)
                election = await latest_election(session, game_id)
                assert election is not None
                view = await election_view(session, game, election)
                return AgVoteReceipt(view, "", str(dup.payload.get("candidate", "")), None, True, duplicate=True)

    async def close_election(self, game_id: int, *, actor: int | None, source_id: str | None = None,
                             expected: int | None = None) -> ElectionView | None:
        """Close the open election now (a moderator, or its deadline with ``expected`` = its number).
        Returns None when that election is already closed (a late or repeated timer)."""
        try:
            async with self._write(game_id, source_id) as uow:
                game = await load_game(uow.session, game_id)
                election = await open_election_row(uow.session, game_id)
                if election is None or (expected is not None and election.number != expected):
                    if expected is not None:
                        return None
                    raise RuleError(f"No Adjutant General election is open in {game.name}.")
                view = await uow.run(finish_election, game, election)
                payload = await uow.session.run_sync(close_payload, game, election, view)
                await uow.record(game_id, "AgElectionClosed", actor, payload, source_id)
                await uow.run(result_pending, game_id, "ag", election.number)
                return replace(view, post_token=payload[POST_TOKEN])
        except Duplicate:
            return None

    async def extend_election(self, game_id: int, *, until: datetime, actor: int | None,
                              source_id: str | None = None, answer: OwedWith[ElectionView] | None = None
                              ) -> ElectionView:
        """R0-35: an election opened by No Confidence closes at round end, extendable by at most 24 h. ``answer``:
        what it announces (the running count with its new close), owed in its transaction (``owe_in``)."""

        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            election = await open_election_row(uow.session, game_id)
            if election is None:
                raise RuleError(f"No Adjutant General election is open in {game.name}.")
            if election.reason != "no confidence":
                election_deadline(utc(election.opened_at), until)
            else:
                end = await round_end(uow.session, game, election)
                if end is None:
                    raise RuleError("The round has no deadline, so the election simply closes when the round does.")
                extend_after_no_confidence(end, until)
            election.closes_at = until
            election.closes_with_round = None
            await uow.record(game_id, "AgElectionExtended", actor,
                             {"number": election.number, "closes_at": until.isoformat()}, source_id)
            return await owe_in(uow, answer, await election_view(uow.session, game, election))

    async def recount_for_setting(self, game_id: int) -> tuple[GameView, tuple[AgRecount, ...]]:
        """After ``ag_weighted`` changed: every closed election whose close recorded its ballots and V(p), counted
        again under the setting as it is now; only those that come out differently. Nothing is changed."""
        async with self._read() as session:
            return await recount_in(session, game_id)

    async def election(self, game_id: int) -> ElectionView | None:
        """The open election, else the latest one; None if there has never been one."""
        async with self._read() as session:
            game = await load_game(session, game_id)
            election = await open_election_row(session, game_id) or await latest_election(session, game_id)
            return await election_view(session, game, election) if election else None

    async def held(self, game_id: int) -> tuple[str, tuple[tuple[str, str], ...]] | None:
        """While a No Confidence vote is under way and no election is open: the vote's title and the AG ballots
        held for the election its enactment would open, as (voter, candidate) in the order cast (public, R0-30)."""
        async with self._read() as session:
            game = await load_game(session, game_id)
            if game.status == "ended":  # no election will open: nothing is held (play-test W3)
                return None
            vote = None if await open_election_row(session, game_id) else await pending_no_confidence(session, game)
            if vote is None:
                return None
            rows = await session.execute(select(Player.id, Player.name).where(Player.game_id == game_id))
            names = {pid: name for pid, name in rows.all()}
            ballots = await held_ballots(session, game_id, vote.id, game.current_round)
            held = sorted(ballots.values(), key=lambda b: (b.cast_at, b.voter))
            return title_of(vote), tuple((names[b.voter], names[b.candidate]) for b in held)

    async def adjutant(self, game_id: int) -> tuple[int, str] | None:
        """(user id, name) of the Adjutant General, or None."""
        async with self._read() as session:
            player = await adjutant_of(session, game_id)
            return (player.user_id, player.name) if player else None

    async def pending_elections(self) -> list[tuple[int, int, datetime]]:
        """Open elections with a deadline, soonest first: (game id, election number, closes at)."""
        async with self._read() as session:
            rows = await session.execute(select(AgElection.game_id, AgElection.number, AgElection.closes_at)
                                         .join(Game, Game.id == AgElection.game_id)
                                         .where(AgElection.status == "open", AgElection.closes_at.is_not(None),
                                                Game.status != "ended")  # a closed ledger closes nothing more
                                         .order_by(AgElection.closes_at))
            return [(g, n, utc(c)) for g, n, c in rows.all() if c is not None]


async def round_end(session: AsyncSession, game: Game, election: AgElection) -> datetime | None:
    number = election.closes_with_round or game.current_round
    found = await session.execute(select(Round.deadline).where(Round.game_id == game.id, Round.number == number))
    deadline = found.scalar_one_or_none()
    return utc(deadline) if deadline else None


def close_elections_with_round(unit: SyncUnit, game: Game, number: int) -> Sequence[ElectionView]:
    """At round end: an election that closes with this round (after No Confidence, R0-35) closes now, and records
    its ``AgElectionClosed`` as the other close path does (whether it was weighted, each ballot and its voter's V(p)
    at the close, ``close_payload``), so that ``/why ag`` and a recount read it; ``with_round`` says which round."""
    found = unit.session.execute(select(AgElection).where(
        AgElection.game_id == game.id, AgElection.status == "open", AgElection.closes_with_round == number))
    closed = []
    for election in found.scalars().all():
        view = finish_election(unit, game, election)
        payload = close_payload(unit.session, game, election, view)
        unit.record(game.id, "AgElectionClosed", None, {**payload, "with_round": number}, None)
        closed.append(replace(view, post_token=payload[POST_TOKEN]))
    return closed


async def export_offices(session: AsyncSession, game_id: int) -> dict[str, Any]:
    """``offices`` {adjutant_general} and ``ag_elections`` [{number, reason, opened, closes, status, ballots,
    winner}] (AG ballots are public, R0-30)."""
    game = await load_game(session, game_id)
    holder = await adjutant_of(session, game_id)
    elections = (await session.execute(select(AgElection).where(AgElection.game_id == game_id)
                                       .order_by(AgElection.number))).scalars().all()
    docs = []
    for e in elections:
        view = await election_view(session, game, e)
        docs.append({
            "number": e.number, "reason": e.reason, "status": e.status,
            "opened": view.opened_at.isoformat(),
            "closes": view.closes_at.isoformat() if view.closes_at else None,
            "closes_with_round": e.closes_with_round,
            "ballots": [{"voter": v, "candidate": c, "cast_at": at.isoformat()} for v, c, at in view.ballots],
            "standings": [{"candidate": s.candidate, "votes": s.votes} for s in view.standings],
            "winner": view.winner,
        })
    return {"offices": {"adjutant_general": holder.name if holder else None}, "ag_elections": docs}


async def recount_in(session: AsyncSession, game_id: int) -> tuple[GameView, tuple[AgRecount, ...]]:
    """``recount_for_setting`` read in ``session``'s transaction: ``/game settings`` reads it in the one it writes
    the setting in (``clerk.followed``)."""
    game = await load_game(session, game_id)
    weighted = bool(value_of(game.settings, "ag_weighted", SETTINGS))
    found = await session.execute(select(Event.payload).where(
        Event.game_id == game_id, Event.kind == "AgElectionClosed").order_by(Event.seq))
    recounts = [recount_closed(dict(p), weighted) for p in found.scalars()]
    return game_view(game), tuple(r for r in recounts if r is not None)
