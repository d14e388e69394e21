"""Reminders before a deadline: the players who have not voted in the open round (or AG election) get a DM at
each instant of the game's ``reminders`` setting (default 24 h and 2 h before). Each reminder is a
``ReminderSent`` event whose source id ``remind:<game>:<kind>:<number>:<seconds before>`` makes it go out once,
even across restarts; ``/round remind`` sends one at once under the command's own source id."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select

from engine.core.errors import RuleError
from engine.landsdraad.settings import parse_offsets
from engine.service.clock import utc
from engine.service.ledger import game_players, game_view, load_game
from engine.service.rounds import open_round_of
from engine.service.settings import value_of
from engine.service.uow import ServiceBase
from engine.service.views import GameView
from engine.store.models import AgBallotRow, AgElection, Ballot, Event, Game, Round

KINDS = ("round", "ag")
"""A crisis round (players without a ballot) or an AG election (players without an AG ballot)."""


@dataclass(frozen=True)
class Reminder:
    game: GameView
    kind: str
    number: int
    deadline: datetime | None
    """None: the round is paused."""
    waiting: tuple[tuple[int, str], ...]
    """(user id, name) of every active player who has not voted."""


def reminder_source(game_id: int, kind: str, number: int, offset: int) -> str:
    return f"remind:{game_id}:{kind}:{number}:{offset}"


class ReminderService(ServiceBase):
    async def pending_reminders(self) -> list[tuple[int, str, int, int, datetime]]:
        """Reminders not yet sent, soonest first: (game id, kind, number, seconds before, instant). An instant
        at or before the opening is skipped (a 1 h deadline gets no "24 h before" reminder)."""
        async with self._read() as session:
            targets: list[tuple[Game, str, int, datetime, datetime]] = []
            rounds = await session.execute(select(Game, Round).join(Round, Round.game_id == Game.id).where(
                Round.status == "open", Round.deadline.is_not(None), Game.ruleset == "landsdraad"))
            for game, rnd in rounds.all():
                assert rnd.deadline is not None
                targets.append((game, "round", rnd.number, utc(rnd.opened_at), utc(rnd.deadline)))
            elections = await session.execute(select(Game, AgElection).join(AgElection, AgElection.game_id == Game.id)
                                              .where(AgElection.status == "open", AgElection.closes_at.is_not(None)))
            for game, election in elections.all():
                assert election.closes_at is not None
                targets.append((game, "ag", election.number, utc(election.opened_at), utc(election.closes_at)))
            wanted: list[tuple[int, str, int, int, datetime]] = []
            for game, kind, number, opened, deadline in targets:
                for offset in parse_offsets(str(value_of(game.settings, "reminders"))):
                    instant = deadline - timedelta(seconds=offset)
                    if instant > opened:
                        wanted.append((game.id, kind, number, offset, instant))
            if not wanted:
                return []
            sources = [reminder_source(g, k, n, o) for g, k, n, o, _ in wanted]
            sent = set((await session.execute(select(Event.source_id).where(Event.source_id.in_(sources)))).scalars())
            return sorted((w for w, s in zip(wanted, sources, strict=True) if s not in sent), key=lambda w: w[4])

    async def send_reminder(self, game_id: int, *, kind: str = "round", number: int | None = None,
                            offset: int | None = None, actor: int | None,
                            source_id: str | None = None) -> Reminder:
        """Record a reminder and return who is to be reminded. Without ``number``: the open round (``/round
        remind``). A repeated source id raises ``Duplicate`` (the reminder was already sent)."""
        if kind not in KINDS:
            raise RuleError(f"Unknown reminder kind {kind!r}.")
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            players = [p for p in await game_players(uow.session, game_id) if p.active]
            deadline: datetime | None
            if kind == "round":
                if number is None:
                    rnd = await open_round_of(uow.session, game)
                else:
                    rnd = (await uow.session.execute(select(Round).where(
                        Round.game_id == game_id, Round.number == number))).scalar_one()
                number, deadline = rnd.number, utc(rnd.deadline) if rnd.deadline else None
                voted = set((await uow.session.execute(select(Ballot.player_id).where(
                    Ballot.round_id == rnd.id))).scalars())
            else:
                query = select(AgElection).where(AgElection.game_id == game_id)
                query = query.where(AgElection.number == number) if number is not None else query.where(
                    AgElection.status == "open")
                election = (await uow.session.execute(query)).scalar_one_or_none()
                if election is None:
                    raise RuleError(f"No Adjutant General election is open in {game.name}.")
                number, deadline = election.number, utc(election.closes_at) if election.closes_at else None
                voted = set((await uow.session.execute(select(AgBallotRow.voter_id).where(
                    AgBallotRow.election_id == election.id))).scalars())
            waiting = tuple((p.user_id, p.name) for p in players if p.id not in voted)
            await uow.record(game_id, "ReminderSent", actor,
                             {"kind": kind, "number": number, "before": offset,
                              "waiting": [name for _, name in waiting]}, source_id)
            return Reminder(game=game_view(game), kind=kind, number=number, deadline=deadline, waiting=waiting)
