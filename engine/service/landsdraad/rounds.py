"""Crisis rounds: open, temporary factions, status, close and tally (R0-11..R0-19)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select, update

from engine.core.durations import MAX_DAYS, format_remaining, format_utc
from engine.core.errors import NotFoundError, RuleError
from engine.core.text import find_named, typed_back
from engine.landsdraad.factions import make_faction
from engine.service.announcements import POST_TOKEN, new_post_token
from engine.service.clock import utc
from engine.service.dice import commit_seed, reveal, seal
from engine.service.landsdraad.adjutant import adjutant_of
from engine.service.landsdraad.explain import rounds_so_far
from engine.service.landsdraad.ledger import game_players
from engine.service.landsdraad.name import NAME
from engine.service.landsdraad.round_close import close
from engine.service.landsdraad.round_state import (
    current_round,
    faction_purpose,
    open_round_of,
    result_view,
    round_view,
)
from engine.service.landsdraad.victory_scoring import forecast_of
from engine.service.landsdraad.victory_views import ForecastView
from engine.service.landsdraad.views import FactionView, PlayerView, ResultView, RoundView, StatusView
from engine.service.ledger import load_game, require_running
from engine.service.owed import OwedWith, owe_in
from engine.service.uow import ServiceBase, UnitOfWork
from engine.store.models import Game, Player
from engine.store.models.landsdraad import AgElection, Ballot, PlayerVoteRow, Round, TempFactionRow

log = logging.getLogger("clerk.landsdraad.rounds")

def passed(rnd: Round, now: datetime, what: str) -> None:
    """A round whose deadline has come is closed for ballots (a late one is refused) even before the closer has run
    (the bot was busy or offline): it is not ``what`` any more, or a ballot refused as late would count after all."""
    if rnd.deadline is not None and rnd.paused_left is None and utc(rnd.deadline) <= now:
        raise RuleError(f"Round {rnd.number}'s deadline ({utc(rnd.deadline):%Y-%m-%d %H:%M} UTC) has passed, so it is "
                        f"closed for ballots and closes now; it cannot be {what}. Nothing was changed.")


def _room(seconds: int) -> str:
    """How much more a deadline may grow under the cap, to the whole minute below (what a moderator can type)."""
    minutes = max(0, seconds) // 60
    return f"it can be extended by at most {format_remaining(timedelta(minutes=minutes))}" if minutes else \
        "it cannot be extended further"


@dataclass(frozen=True)
class RoundOpened:
    """A round just opened, and whom its opening tells: the game's players (the active ones get the ballot by DM)
    and the Adjutant General's user id (None: there is none)."""

    round: RoundView
    players: list[PlayerView]
    adjutant: int | None
    forecast: ForecastView | None = None
    """The Victory Point Forecast at the round's start (R3-08), read in the opening's transaction, so it is owed
    with it; None when it could not be read (logged: the round opens all the same)."""


async def _forecast(uow: UnitOfWork, game: Game) -> ForecastView | None:
    """The Forecast as the round opens (R3-08), read in a savepoint of the opening's transaction: a failure of it is
    undone alone and logged, the round opening all the same (as when it was read after the commit)."""
    if game.ruleset != NAME:  # victory points are a Landsdraad rule (docs/rulings.md)
        return None
    name = game.name
    try:
        async with uow.session.begin_nested():
            return await forecast_of(uow.session, game)
    except Exception:
        log.exception("the Forecast of %s could not be made", name)
        return None


@dataclass(frozen=True)
class CrisisCorrected:
    """``/round crisis``: the open round with its corrected crisis, the text it had, the reason, and each active
    player's user id with their ballot in it (None: none yet), for their DMs only."""
    round: RoundView
    was: str
    reason: str | None
    players: tuple[tuple[int, str | None], ...]


@dataclass(frozen=True)
class RoundVoided:
    """``/round void``: the round made void, what it was (``open``, or ``closed`` with its withdrawn ``result``),
    the reason, the user ids of the players who had a ballot in it (told by DM that it no longer counts, never how
    they voted), and what stands or goes on: the numbers of the open player votes and AG elections tied to it (they
    go on into the next round), and of a closed round the elections that closed and the player votes that expired
    at its end (they stand)."""
    round: RoundView
    was: str
    reason: str | None
    voters: tuple[int, ...]
    result: ResultView | None = None
    carried_votes: int = 0
    carried_elections: tuple[int, ...] = ()


async def carry_from_void(uow: UnitOfWork, game_id: int, void: int, number: int) -> None:
    """A round opens after a void one (``/round void``): the player votes still open in the void round, and the AG
    elections that were to close with it, go on into the new round (R0-43's expiry and R0-35's close come at the end
    of a round that is played; the void one never was)."""
    await uow.session.execute(update(PlayerVoteRow).where(
        PlayerVoteRow.game_id == game_id, PlayerVoteRow.round_number == void, PlayerVoteRow.status == "open")
        .values(round_number=number))
    await uow.session.execute(update(AgElection).where(
        AgElection.game_id == game_id, AgElection.closes_with_round == void, AgElection.status == "open")
        .values(closes_with_round=number))


class RoundService(ServiceBase):
    async def open_round(
        self, game_id: int, *, crisis: str, deadline: datetime | None, actor: int | None, source_id: str | None = None
    ) -> RoundView:
        """R0-11: the next round opened, its crisis put to the vote."""
        return (await self.open_round_announced(game_id, crisis=crisis, deadline=deadline, actor=actor,
                                                source_id=source_id)).round

    async def open_round_announced(
        self, game_id: int, *, crisis: str, deadline: datetime | None, actor: int | None, source_id: str | None = None,
        answer: OwedWith[RoundOpened] | None = None
    ) -> RoundOpened:
        """``open_round``, with what its announcement needs read in its transaction: the players (each active one is
        DMed the ballot) and the Adjutant General (told of their free action). ``answer``: the announcement and those
        DMs, owed in its transaction (``owe_in``: a kill after its commit loses none of them)."""
        crisis = crisis.strip()
        if not crisis:
            raise RuleError("A round needs the crisis text.")
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            require_running(game)
            previous = await current_round(uow.session, game)
            if previous is not None and previous.status == "open":
                raise RuleError(f"Round {previous.number} is still open; close it first with /round close.")
            if deadline is not None and deadline <= uow.now:
                raise RuleError("The deadline must be in the future.")
            number = game.current_round + 1
            if previous is not None and previous.status == "void":
                await carry_from_void(uow, game_id, previous.number, number)
            rnd = Round(game_id=game_id, number=number, crisis=crisis, status="open", opened_at=uow.now,
                        deadline=deadline)
            uow.session.add(rnd)
            game.current_round = number
            await uow.session.flush()
            # the round's dice seed is made and sealed now; its commitment is posted with the opening (docs/dice.md)
            sealed = await uow.session.run_sync(commit_seed, self.dice, game_id, number, uow.now)
            payload = {"round": number, "crisis": crisis, "deadline": deadline.isoformat() if deadline else None,
                       "dice_commitment": sealed.commitment}
            await uow.record(game_id, "RoundOpened", actor, payload, source_id)
            adjutant = await adjutant_of(uow.session, game_id)
            opened = RoundOpened(await round_view(uow.session, game, rnd), await game_players(uow.session, game_id),
                                 adjutant.user_id if adjutant is not None else None, await _forecast(uow, game))
            return await owe_in(uow, answer, opened)

    async def add_faction(
        self,
        game_id: int,
        *,
        name: str,
        votes: int,
        stance: str,
        table: str | None,
        roll: int | None,
        actor: int | None,
        source_id: str | None = None,
        answer: OwedWith[RoundView] | None = None,
    ) -> RoundView:
        """``answer``: the opening card's edit (and the moderator's answer), owed in its transaction (``owe_in``)."""
        faction = make_faction(name.strip(), votes, stance, table)
        if roll is not None:
            if not faction.rolls:
                raise RuleError(f"{faction.name} has a fixed stance; only a d6 faction takes a roll.")
            faction.vote(roll)
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            rnd = await open_round_of(uow.session, game)
            present = (await uow.session.execute(select(TempFactionRow).where(
                TempFactionRow.round_id == rnd.id))).scalars()
            clash = find_named(present, faction.name, lambda f: f.name)
            if clash is not None:  # names are matched without regard to case, as /faction remove finds them
                raise RuleError(f"Round {rnd.number} already has a faction called {clash.name}. To change it, "
                                f"/faction remove name:{clash.name} and add it again.")
            stance_word = "d6" if faction.rolls else stance.strip().lower()
            canonical = faction.table.describe() if faction.table else None
            uow.session.add(TempFactionRow(round_id=rnd.id, name=faction.name, votes=votes, stance=stance_word,
                                           table=canonical, roll=roll))
            await uow.session.flush()
            payload = {"round": rnd.number, "name": faction.name, "votes": votes, "stance": stance_word,
                       "table": canonical, "roll": roll}
            if roll is not None:  # the moderator's face is sealed; the seal is posted on the opening card
                payload["sealed"] = await uow.session.run_sync(seal, self.dice, game_id, rnd.number,
                                                               faction_purpose(faction.name), 6, roll, uow.now)
            await uow.record(game_id, "FactionAdded", actor, payload, source_id)
            return await owe_in(uow, answer, await round_view(uow.session, game, rnd))

    async def correct_crisis(self, game_id: int, *, crisis: str, reason: str | None, actor: int | None,
                             source_id: str | None = None, answer: OwedWith[CrisisCorrected] | None = None
                             ) -> CrisisCorrected:
        """The open round's crisis text corrected (play-test Y5: opened with the wrong crisis, options or a typo).
        Recorded (``RoundCrisisChanged``, with the text it had); the caller edits the opening card, tells the channel
        and DMs every active player (``answer``: owed in its transaction, ``owe_in``). Ballots already cast stand:
        each voter is told theirs and that ``Revote:`` changes it until the deadline."""
        crisis = crisis.strip()
        if not crisis:
            raise RuleError("Give the crisis text as it should read.")
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            rnd = await open_round_of(uow.session, game)
            passed(rnd, uow.now, "corrected")
            was = rnd.crisis
            if crisis == was:
                raise RuleError(f"Round {rnd.number}'s crisis already reads so; nothing was changed.")
            rnd.crisis = crisis
            ballots = {int(b.player_id): b.option for b in (await uow.session.execute(
                select(Ballot).where(Ballot.round_id == rnd.id))).scalars()}
            players = [(p.user_id, ballots.get(p.id)) for p in await game_players(uow.session, game_id) if p.active]
            await uow.session.flush()
            await uow.record(game_id, "RoundCrisisChanged", actor,
                             {"round": rnd.number, "from": was, "to": crisis, "reason": reason}, source_id)
            return await owe_in(uow, answer, CrisisCorrected(await round_view(uow.session, game, rnd), was,
                                                             reason, tuple(players)))

    async def void_round(self, game_id: int, *, reason: str | None, actor: int | None, number: int | None = None,
                         source_id: str | None = None, answer: OwedWith[RoundVoided] | None = None) -> RoundVoided:
        """The game's latest round made void (play-test Y6, Y7: opened by mistake or in the wrong game, or closed too
        early): an open round is never tallied; a closed one, while no later round has opened, has its posted result
        withdrawn. Nothing in it counts (no result, no AG income penalty, not for Weathervane or the round 5 check);
        its seed is revealed (a closed round's already was). Recorded (``RoundVoided``); the caller posts the
        correction, edits an open round's opening card and DMs each player who had a ballot in it (``answer``: owed
        in its transaction, ``owe_in``). The moderators then open its crisis again as a new round, with new dice."""
        reason = reason.strip() if reason else None
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            require_running(game)
            rnd = await current_round(uow.session, game)
            if rnd is None:
                raise RuleError(f"{game.name} has not opened a round yet; there is nothing to void.")
            if number is not None and number != rnd.number:
                if number < 1 or number > rnd.number:
                    raise NotFoundError(f"{game.name} has no round {number}: {rounds_so_far(game.current_round)}.")
                older = (await uow.session.execute(select(Round.status).where(
                    Round.game_id == game_id, Round.number == number))).scalar_one_or_none()
                if older == "void":
                    raise RuleError(f"Round {number} of {game.name} is already void; nothing was changed.")
                raise RuleError(f"Round {number} of {game.name} cannot be voided: round {rnd.number} has opened since, "
                                f"and only the latest round can be. Its result stands; if it was counted wrong, "
                                f"`/round erratum round:{number}` posts the correction. Nothing was changed.")
            if rnd.status == "void":
                raise RuleError(f"Round {rnd.number} of {game.name} is already void; nothing was changed. "
                                "`/round open` puts its crisis to the vote again as a new round.")
            was = rnd.status
            withdrawn: ResultView | None = None
            view_before = await round_view(uow.session, game, rnd)
            if was == "closed" and rnd.result:
                withdrawn = result_view(view_before, rnd.result)
            voters = tuple(int(u) for u in (await uow.session.execute(
                select(Player.user_id).join(Ballot, Ballot.player_id == Player.id)
                .where(Ballot.round_id == rnd.id).order_by(Player.id))).scalars())
            votes_open = list((await uow.session.execute(select(PlayerVoteRow.id).where(
                PlayerVoteRow.game_id == game_id, PlayerVoteRow.round_number == rnd.number,
                PlayerVoteRow.status == "open"))).scalars())
            elections = tuple(int(n) for n in (await uow.session.execute(select(AgElection.number).where(
                AgElection.game_id == game_id, AgElection.closes_with_round == rnd.number,
                AgElection.status == "open").order_by(AgElection.number))).scalars())
            note = {"was": was, "reason": reason, "at": uow.now.isoformat()}
            rnd.result = {**(rnd.result or {}), "voided": note}
            rnd.status = "void"
            if was == "open":
                rnd.closed_at = uow.now
            await uow.session.flush()
            shown = await uow.session.run_sync(reveal, game_id, rnd.number, uow.now)
            payload: dict[str, Any] = {"round": rnd.number, "was": was, "reason": reason, "ballots": len(voters)}
            if withdrawn is not None:
                payload["withdrawn"] = {k: (rnd.result or {}).get(k) for k in (
                    "outcome", "aye", "nay", "abstain", "in_play", "needed", "income_penalty")}
            if was == "open" and shown is not None:
                payload["dice"] = {"commitment": shown.commitment, "seed": shown.seed, "salt": shown.salt}
            await uow.record(game_id, "RoundVoided", actor, payload, source_id)
            voided = RoundVoided(await round_view(uow.session, game, rnd), was, reason, voters, withdrawn,
                                 len(votes_open), elections)
            return await owe_in(uow, answer, voided)

    async def remove_faction(self, game_id: int, *, name: str, actor: int | None, source_id: str | None = None,
                             answer: OwedWith[tuple[RoundView, FactionView]] | None = None
                             ) -> tuple[RoundView, FactionView]:
        """A temporary faction taken out of the open round (a moderator's correction: added with the wrong votes,
        stance or table, or not meant at all), found by name without regard to case. Recorded (``FactionRemoved``,
        with what it was; a moderator's sealed roll stays in the dice record, unused); the round's opening card is
        then edited by the caller (``answer``: owed in its transaction, ``owe_in``). Returns the round and the
        faction as it was."""
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            rnd = await open_round_of(uow.session, game)
            rows = (await uow.session.execute(select(TempFactionRow).where(TempFactionRow.round_id == rnd.id)
                                              .order_by(TempFactionRow.id))).scalars().all()
            row = find_named(rows, name, lambda r: r.name)
            if row is None:
                names = ", ".join(r.name for r in rows) or "none"
                raise NotFoundError(f"Round {rnd.number} of {game.name} has no temporary faction called "
                                    f"{typed_back(name)}. Its factions: {names}.")
            removed = FactionView(row.name, row.votes, row.stance, row.table)
            await uow.session.delete(row)
            await uow.session.flush()
            await uow.record(game_id, "FactionRemoved", actor,
                             {"round": rnd.number, "name": row.name, "votes": row.votes, "stance": row.stance,
                              "table": row.table}, source_id)
            return await owe_in(uow, answer, (await round_view(uow.session, game, rnd), removed))

    async def release_result(self, game_id: int, *, number: int | None, actor: int | None,
                             source_id: str | None = None) -> ResultView:
        """A result held by the disclosure check (``disclosure: hold``) is released: it is announced in full, as
        any result is (``ResultPending``, so a bot killed before the post posts it when it starts again). ``number``
        defaults to the last closed round."""
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            if number is None:  # the last closed round: not "has no round 0" before any closed (play-test T5.5)
                number = (await uow.session.execute(select(Round.number).where(
                    Round.game_id == game_id, Round.status == "closed").order_by(Round.number.desc()).limit(1))
                ).scalar_one_or_none()
                if number is None:
                    raise RuleError(f"No round of {game.name} has closed yet, so there is no result to release.")
            found = await uow.session.execute(select(Round).where(Round.game_id == game_id, Round.number == number))
            rnd = found.scalar_one_or_none()
            if rnd is None:
                raise NotFoundError(f"{game.name} has no round {number}: {rounds_so_far(game.current_round)}.")
            held = (rnd.result or {}).get("disclosure") or {}
            if rnd.status != "closed" or not held.get("held"):
                raise RuleError(f"Round {number} of {game.name} has no result held back; there is nothing to release.")
            if held.get("released"):
                raise RuleError(f"Round {number} of {game.name} was already released.")
            result = dict(rnd.result or {})
            result["disclosure"] = {**held, "released": True}
            result[POST_TOKEN] = new_post_token()  # the release's card is a new one: a nonce of its own
            rnd.result = result
            await uow.session.flush()
            await uow.record(game_id, "ResultReleased", actor, {"kind": "round", "number": number}, source_id)
            await uow.record(game_id, "ResultPending", None, {"kind": "round", "number": number}, None)
            return result_view(await round_view(uow.session, game, rnd), result)

    async def round_status(self, game_id: int) -> StatusView:
        async with self._read() as session:
            game = await load_game(session, game_id)
            rnd = await current_round(session, game)
            if rnd is None:
                raise NotFoundError(f"{game.name} has not opened a round yet.")
            view = await round_view(session, game, rnd)
            players = [p for p in await game_players(session, game_id) if p.active]
            voters = select(Ballot.player_id).where(Ballot.round_id == rnd.id)
            voted_ids = set((await session.execute(voters)).scalars())
            voted = tuple(p.name for p in players if p.id in voted_ids)
            waiting = tuple(p.name for p in players if p.id not in voted_ids)
            result = result_view(view, rnd.result) if rnd.status == "closed" and rnd.result else None
            return StatusView(round=view, voted=voted, waiting=waiting, result=result)

    async def close_round(
        self,
        game_id: int,
        *,
        actor: int | None,
        source_id: str | None = None,
        expected_round: int | None = None,
        answer: OwedWith[ResultView] | None = None,
    ) -> ResultView:
        """Tally with every weight read now (R0-15), roll the d6 factions that have no roll yet (P0-04).
        ``expected_round`` (from the scheduler) makes a late or repeated timer a no-op. ``answer``: what a result
        the disclosure check holds back posts, owed in the close's transaction (``round_close.close``)."""
        return await self._self_checking_unit(game_id, source_id, close, self.dice, game_id, actor, source_id,
                                              expected_round, answer)

    async def extend_round(self, game_id: int, *, by: timedelta | None = None, to: datetime | None = None,
                           actor: int | None, source_id: str | None = None,
                           answer: OwedWith[RoundView] | None = None) -> RoundView:
        """Move the open round's deadline ``by`` a duration or ``to`` a time. A paused round's time left grows
        ``by`` the duration; ``to`` needs a running deadline (resume first). ``answer``: its announcement, owed in
        its transaction (``owe_in``), as for ``pause_round`` and ``resume_round``."""
        if by is None and to is None:
            raise RuleError("Give `by` (a duration to add, such as 2h) or `to` (the new deadline, such as "
                            "2026-03-01 20:00 in the game's time zone, or a Discord timestamp).")
        if by is not None and to is not None:
            raise RuleError("Give `by` or `to`, not both.")
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            rnd = await open_round_of(uow.session, game)
            payload: dict[str, Any] = {"round": rnd.number}
            passed(rnd, uow.now, "extended")
            if rnd.paused_left is not None:
                if by is None:
                    raise RuleError(f"Round {rnd.number} is paused; extend it `by` a duration, or resume it first.")
                room = MAX_DAYS * 86400 - rnd.paused_left  # the cap /round open and `to` keep (play-test T5.1)
                if by.total_seconds() > room:
                    raise RuleError(f"A deadline is at most {MAX_DAYS} days away, and paused round {rnd.number} has "
                                    f"{format_remaining(timedelta(seconds=rnd.paused_left))} left, so "
                                    f"{_room(room)}. Nothing was changed.")
                payload |= {"paused_left_from": rnd.paused_left,
                            "paused_left_to": rnd.paused_left + int(by.total_seconds())}
                rnd.paused_left += int(by.total_seconds())
            else:
                if to is not None:
                    new = to
                elif rnd.deadline is None or by is None:
                    raise RuleError(f"Round {rnd.number} has no deadline to extend by a duration; give `to`, the new "
                                    "deadline (such as 2026-03-01 20:00 in the game's time zone, or a Discord "
                                    "timestamp).")
                else:
                    new = utc(rnd.deadline) + by
                if new <= uow.now:
                    raise RuleError("The new deadline must be in the future.")
                if rnd.deadline is not None and new == utc(rnd.deadline):  # announced and recorded nothing (T5.3)
                    raise RuleError(f"Round {rnd.number} already closes at {format_utc(new)}; nothing was changed.")
                latest = uow.now + timedelta(days=MAX_DAYS)
                if new > latest and rnd.deadline is not None:  # `by` again and again (play-test T5.1); `to` is
                    room = int((latest - utc(rnd.deadline)).total_seconds())  # refused as it is read
                    raise RuleError(f"A deadline is at most {MAX_DAYS} days away (until {format_utc(latest)}): round "
                                    f"{rnd.number} closes at {format_utc(utc(rnd.deadline))}, so {_room(room)}. "
                                    "Nothing was changed.")
                payload |= {"from": utc(rnd.deadline).isoformat() if rnd.deadline else None, "to": new.isoformat()}
                rnd.deadline = new
            await uow.session.flush()
            await uow.record(game_id, "RoundExtended", actor, payload, source_id)
            return await owe_in(uow, answer, await round_view(uow.session, game, rnd))

    async def pause_round(self, game_id: int, *, actor: int | None, source_id: str | None = None,
                          answer: OwedWith[RoundView] | None = None) -> RoundView:
        """Stop the open round's deadline and remember the time it had left; ballots are still accepted."""
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            rnd = await open_round_of(uow.session, game)
            if rnd.paused_left is not None:
                raise RuleError(f"Round {rnd.number} is already paused; /round resume starts its deadline again.")
            if rnd.deadline is None:
                raise RuleError(f"Round {rnd.number} has no deadline to pause.")
            passed(rnd, uow.now, "paused")
            left = max(0, int((utc(rnd.deadline) - uow.now).total_seconds()))
            payload = {"round": rnd.number, "deadline": utc(rnd.deadline).isoformat(), "left": left}
            rnd.paused_left = left
            rnd.deadline = None
            await uow.session.flush()
            await uow.record(game_id, "RoundPaused", actor, payload, source_id)
            return await owe_in(uow, answer, await round_view(uow.session, game, rnd))

    async def resume_round(self, game_id: int, *, actor: int | None, source_id: str | None = None,
                           answer: OwedWith[RoundView] | None = None) -> RoundView:
        """Start a paused round's deadline again: now + the time it had left."""
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            rnd = await open_round_of(uow.session, game)
            if rnd.paused_left is None:
                raise RuleError(f"Round {rnd.number} is not paused.")
            deadline = uow.now + timedelta(seconds=rnd.paused_left)
            payload = {"round": rnd.number, "left": rnd.paused_left, "deadline": deadline.isoformat()}
            rnd.deadline = deadline
            rnd.paused_left = None
            await uow.session.flush()
            await uow.record(game_id, "RoundResumed", actor, payload, source_id)
            return await owe_in(uow, answer, await round_view(uow.session, game, rnd))

    async def pending_deadlines(self) -> list[tuple[int, int, datetime]]:
        """Every open round with a deadline, soonest first: (game id, round number, deadline)."""
        async with self._read() as session:
            rows = await session.execute(
                select(Round.game_id, Round.number, Round.deadline)
                .where(Round.status == "open", Round.deadline.is_not(None))
                .order_by(Round.deadline)
            )
            return [(g, n, utc(d)) for g, n, d in rows.all() if d is not None]

    async def setting_up(self, game_id: int) -> bool:
        """Is the game being set up: running, and no round opened yet (docs/commands.md, "Setting up quietly")?"""
        async with self._read() as session:
            game = await load_game(session, game_id)
            return game.status != "ended" and await current_round(session, game) is None

    async def round_of(self, game_id: int, number: int | None = None) -> RoundView:
        async with self._read() as session:
            game = await load_game(session, game_id)
            if number is None:
                rnd = await current_round(session, game)
            else:
                rnd = (await session.execute(select(Round).where(Round.game_id == game_id,
                                                                 Round.number == number))).scalar_one_or_none()
            if rnd is None:
                raise NotFoundError(f"{game.name} has no such round.")
            return await round_view(session, game, rnd)


