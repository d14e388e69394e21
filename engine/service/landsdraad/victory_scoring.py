"""The Forecast, a player's projected score, final scores and the end of the game (rules-spec §3: R3-08,
R3-17..R3-23): the pure scoring of engine/landsdraad/victory.py applied to the game as the store holds it."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

from sqlalchemy import ColumnElement, delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from engine.core.errors import RuleError
from engine.landsdraad.victory import (
    Award,
    Category,
    FinalScores,
    ScoreRow,
    Table,
    check_percentages,
    final_scores,
    forecast,
    majority_holder,
    places,
    title_for,
)
from engine.service.dice import reveal
from engine.service.landsdraad.ledger import PLAIN_VOTES, game_players, holding_extras_where
from engine.service.landsdraad.name import NAME
from engine.service.landsdraad.victory_state import (
    Snapshot,
    award_slug,
    goal_totals,
    joined,
    prestige_totals,
    snapshot,
    victory_row,
    victory_row_for_update,
)
from engine.service.landsdraad.victory_views import (
    FinalOrPending,
    FinalView,
    ForecastView,
    GoalView,
    MajorityNotice,
    PendingScores,
    ProjectedScore,
)
from engine.service.landsdraad.views import PlayerView
from engine.service.ledger import game_view, load_game, require_player
from engine.service.owed import OwedWith, owe_in
from engine.service.uow import ServiceBase, UnitOfWork
from engine.store.models import Event, Game, Player
from engine.store.models.landsdraad import FinalScoreRow, Holding, Round, VictoryGoal, VictoryState

MAJORITY_AFTER_ROUND = 5
"""R3-20 / P3-08: a Majority Victory is possible once round 5 is complete."""

AWARD_BY_SLUG = {award_slug(a): a for a in Award}


def exact(x: Fraction | int) -> str:
    """An exact rational as text: ``450``, ``38.4``, or ``1/3`` when it has no finite decimal form."""
    q = Fraction(x)
    if q.denominator == 1:
        return str(q.numerator)
    d = q.denominator
    for p in (2, 5):
        while d % p == 0:
            d //= p
    if d != 1:
        return f"{q.numerator}/{q.denominator}"
    places_needed = 0
    scaled = q
    while scaled.denominator != 1:
        scaled *= 10
        places_needed += 1
    sign = "-" if scaled < 0 else ""
    digits = str(abs(scaled.numerator)).rjust(places_needed + 1, "0")
    return f"{sign}{digits[:-places_needed]}.{digits[-places_needed:]}"


def round_five_complete_where(game_id: Any) -> ColumnElement[bool]:
    """R3-20's "after Round 5 is complete" of ``game_id`` (a value or ``Game.id`` in a read of games): five rounds
    played, that is closed; a void one is not (play-test Y6, Y7)."""
    return select(func.count(Round.id)).where(Round.game_id == game_id, Round.status == "closed") \
        .scalar_subquery() >= MAJORITY_AFTER_ROUND


async def round_five_complete(session: AsyncSession, game_id: int) -> bool:
    return bool((await session.execute(select(round_five_complete_where(game_id)))).scalar_one())


async def goals_of(session: AsyncSession, game_id: int, player: Player) -> tuple[GoalView, ...]:
    rows = await session.execute(select(VictoryGoal).where(VictoryGoal.player_id == player.id)
                                 .order_by(VictoryGoal.number))
    return tuple(GoalView(g.number, player.user_id, player.name, g.description, g.vp, g.achieved)
                 for g in rows.scalars())


async def load_final(session: AsyncSession, game: Game) -> FinalView | None:
    """The stored final scores, or None when the game has not been scored."""
    state = await victory_row(session, game.id)
    if state is None or state.scored_at is None or state.pot is None:
        return None
    found = await session.execute(select(FinalScoreRow, Player).join(Player, Player.id == FinalScoreRow.player_id)
                                  .where(FinalScoreRow.game_id == game.id)
                                  .order_by(FinalScoreRow.place, Player.name))
    rows: list[ScoreRow] = []
    users: dict[int, int] = {}
    chancellor = None
    for r, p in found.all():
        rows.append(ScoreRow(p.id, p.name, {Category(k): int(v) for k, v in r.categories.items()},
                             tuple((AWARD_BY_SLUG[k], int(v)) for k, v in r.singular.items()), r.goals, r.prestige,
                             r.total, r.place, r.title))
        users[p.id] = p.user_id
        if p.id == state.chancellor_id:
            chancellor = p.name
    unawarded = tuple(AWARD_BY_SLUG[k] for k in (state.unawarded or {}))
    return FinalView(game_view(game), Fraction(state.pot), tuple(rows), unawarded, state.ended_by or "moderator",
                     chancellor, state.penalty, await joined(session, game.id), user_ids=users)


async def store_final(uow: UnitOfWork, game: Game, snap: Snapshot, scores: FinalScores, *, ended_by: str,
                      chancellor_id: int | None) -> None:
    state = await victory_row_for_update(uow.session, game.id)
    state.ended_by = ended_by
    state.chancellor_id = chancellor_id
    state.penalty = snap.table.penalty
    state.pot = str(scores.pot)
    state.unawarded = {award_slug(a): exact(snap.table.pot * snap.table.weights.get(a, 0) / 100)
                       for a in scores.unawarded}
    state.scored_at = uow.now
    for row in scores.rows:
        uow.session.add(FinalScoreRow(
            game_id=game.id, player_id=row.player, categories={c.value: vp for c, vp in row.categories.items()},
            singular={award_slug(a): vp for a, vp in row.singular}, goals=row.goals, prestige=row.prestige,
            total=row.total, place=row.place, title=row.title))
    await uow.session.flush()


async def refresh_final(session: AsyncSession, game: Game) -> FinalView | None:
    """After the game was scored, goals and prestige may still change (prestige is awarded "during or after the
    game"); the stored scores take the new totals, places and titles. The measures stay as they were at the end
    (R3-23). None when the game has not been scored, and while it is reopened (``/game reopen``): its next end scores
    it again and posts one correction, so no interim table is posted."""
    state = await victory_row(session, game.id)
    if state is None or state.scored_at is None or game.status != "ended":
        return None
    rows = (await session.execute(select(FinalScoreRow).where(FinalScoreRow.game_id == game.id))).scalars().all()
    goals = await goal_totals(session, game.id)
    prestige = await prestige_totals(session, game.id)
    for r in rows:
        r.goals, r.prestige = goals.get(r.player_id, 0), prestige.get(r.player_id, 0)
        r.total = sum(int(v) for v in r.categories.values()) + sum(int(v) for v in r.singular.values()) \
            + r.goals + r.prestige
    ranked = places({r.player_id: r.total for r in rows})
    table = Table(players=(), joined=await joined(session, game.id), penalty=state.penalty)
    for r in rows:
        r.place = ranked[r.player_id]
        if r.player_id != state.chancellor_id:
            r.title = title_for(r.total, table)
    await session.flush()
    return await load_final(session, game)


async def posted_scores(session: AsyncSession, game_id: int) -> list[dict[str, Any]] | None:
    """The final table as last posted: the ``scores`` of the game's last ``GameEnded`` or ``GameScored`` event."""
    found = await session.execute(select(Event.payload).where(
        Event.game_id == game_id, Event.kind.in_(("GameEnded", "GameScored"))).order_by(Event.seq.desc()).limit(1))
    payload = found.scalar_one_or_none()
    scores = (payload or {}).get("scores")
    return list(scores) if isinstance(scores, list) else None


def score_changes(before: list[dict[str, Any]], after: list[dict[str, Any]], pot_before: Fraction,
                  pot_after: Fraction) -> list[str]:
    """What moved between two final tables (``summary``): the Pot, then each player whose total, place or title
    moved, from what to what; a player new to the table or gone from it."""
    lines = []
    if pot_before != pot_after:
        lines.append(f"the Pot: {exact(pot_before)} → {exact(pot_after)} VP")
    old = {r["name"]: r for r in before}
    for row in after:
        was = old.pop(row["name"], None)
        if was is None:
            lines.append(f"{row['name']}: new, {row['total']} VP, {_place(row['place'])}, {row['title'] or 'no title'}")
            continue
        moved = [f"{was['total']} → {row['total']} VP" if was["total"] != row["total"] else "",
                 f"{_place(was['place'])} → {_place(row['place'])}" if was["place"] != row["place"] else "",
                 f"{was['title'] or 'no title'} → {row['title'] or 'no title'}" if was["title"] != row["title"] else ""]
        if any(moved):
            lines.append(f"{row['name']}: " + ", ".join(m for m in moved if m))
    lines += [f"{name}: no longer scored (was {r['total']} VP, {_place(r['place'])})" for name, r in old.items()]
    return lines


def _place(place: int) -> str:
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def summary(view: FinalView) -> list[dict[str, Any]]:
    """The final table in an event's payload."""
    return [{"name": r.name, "total": r.total, "place": r.place, "title": r.title} for r in view.rows]


async def forecast_of(session: AsyncSession, game: Game) -> ForecastView:
    """R3-08: what everything is worth if ``game`` ended now, read in ``session`` (a round's opening reads it in
    its transaction, so the Forecast posted with it is owed with it). Goals and prestige are never in it."""
    snap = await snapshot(session, game)
    return ForecastView(game_view(game), game.current_round, forecast(snap.table), snap.table.joined,
                        snap.table.penalty, snap.table.total_percent())


async def void_open_rounds(uow: UnitOfWork, game: Game) -> list[int]:
    """The game ends with a round open (an End Game vote, R0-61; a Majority Victory): that round is void. Its crisis
    is never resolved, so nothing its dice seed could still decide is left: the seed is revealed with the end, as a
    closed round's is with its result, and ``/verify`` checks it (a face a moderator sealed included) instead of
    promising a reveal "when the round closes" that never comes (play-test W1)."""
    voided = list((await uow.session.execute(select(Round.number).where(
        Round.game_id == game.id, Round.status == "open"))).scalars().all())
    await uow.session.execute(update(Round).where(Round.game_id == game.id, Round.status == "open")
                              .values(status="void", closed_at=uow.now))
    for number in voided:
        await uow.session.run_sync(reveal, game.id, number, uow.now)
    return voided


async def score_ended(uow: UnitOfWork, game: Game, *, actor: int | None, confirm: bool, source_id: str | None,
                      pending_is_error: bool) -> FinalOrPending:
    """Score ``game``, ended by an End Game vote, with its penalty (R3-04), in ``uow``'s transaction (``GameScored``);
    or, percentages above 100 (P3-15), say why it waits (``pending_is_error``: refuse instead)."""
    snap = await snapshot(uow.session, game)
    try:
        check_percentages(snap.table, confirm)
    except RuleError as error:
        if pending_is_error:
            raise
        return PendingScores(game_view(game), str(error))
    scores = final_scores(snap.table, confirmed=confirm)
    await store_final(uow, game, snap, scores, ended_by="end game", chancellor_id=None)
    view = await load_final(uow.session, game)
    assert view is not None
    await uow.record(game.id, "GameScored", actor,
                     {"ended_by": "end game", "penalty": snap.table.penalty, "confirmed": confirm,
                      "pot": exact(view.pot), "scores": summary(view)}, source_id)
    return view


class ScoringService(ServiceBase):
    async def forecast(self, game_id: int) -> ForecastView:
        """R3-08: what everything is worth if the game ended now. Goals and prestige are never in it."""
        async with self._read() as session:
            return await forecast_of(session, await load_game(session, game_id))

    async def projected_score(self, game_id: int, user_id: int, *, who: str = "You") -> ProjectedScore:
        """One player's score if the game ended now (categories, the singular awards they would win, their goals
        achieved, prestige). Percentages above 100 are applied as they stand (P3-15 asks only the final scoring
        to wait for a moderator)."""
        async with self._read() as session:
            game = await load_game(session, game_id)
            player = await require_player(session, game, user_id, who)
            snap = await snapshot(session, game)
            view = next(p for p in snap.players if p.id == player.id)
            goals = await goals_of(session, game_id, player)
            final = await load_final(session, game)
            if final is not None:  # scored: the stored row (its place, a Chancellor's title, the End Game's Pot)
                stored = next((r for r in final.rows if r.player == player.id), None)
                return ProjectedScore(game_view(game), snap.track(view), stored, goals, final.pot,
                                      snap.table.total_percent(), final=True)
            row = None
            if player.active:
                scores = final_scores(snap.table, confirmed=True)
                row = next(r for r in scores.rows if r.player == player.id)
            return ProjectedScore(game_view(game), snap.track(view), row, goals, snap.table.pot,
                                  snap.table.total_percent())

    async def final(self, game_id: int) -> FinalView | None:
        async with self._read() as session:
            return await load_final(session, await load_game(session, game_id))

    async def end_game(self, game_id: int, *, actor: int | None, confirm: bool = False, majority: bool = False,
                       source_id: str | None = None, answer: OwedWith[FinalOrPending] | None = None
                       ) -> FinalOrPending:
        """``/game end``: the game ends now and is scored (R3-17..R3-19). ``majority``: a Majority Victory (R3-20),
        its holder Chancellor of the Landsdraad. A game an End Game vote ended is scored with its penalty (R3-04).
        A game already scored returns its stored scores (``already``). ``answer``: the final table (and a
        correction's line), owed in its transaction (``owe_in``; its chart is added to its row after:
        ``bot/actions/owed_files.py``)."""
        async with self._write(game_id, source_id) as uow:
            return await owe_in(uow, answer, await self._end_game(uow, game_id, actor=actor, confirm=confirm,
                                                                  majority=majority, source_id=source_id))

    async def _end_game(self, uow: UnitOfWork, game_id: int, *, actor: int | None, confirm: bool, majority: bool,
                        source_id: str | None) -> FinalOrPending:
        game = await load_game(uow.session, game_id)
        if game.ruleset != NAME:
            raise RuleError(f"Final scores as Clerk keeps them are a Landsdraad rule; {game.name} plays "
                            f"{game.ruleset}.")
        stored = await load_final(uow.session, game)
        if stored is not None and game.status == "ended":
            return replace(stored, already=True)
        if stored is not None:
            return await self._score_again(uow, game, stored, actor=actor, confirm=confirm, source_id=source_id)
        if game.status != "ended" and game.settings.get("end_game_penalty_applied") is not None:
            uow.end(game)  # reopened before it was scored: it ends again as its End Game vote ended it
        if game.status == "ended":
            if majority:
                raise RuleError(f"{game.name} already ended by an End Game vote; it cannot also end by a "
                                "majority. `/game end` scores it.")
            return await score_ended(uow, game, actor=actor, confirm=confirm, source_id=source_id,
                                     pending_is_error=True)
        snap = await snapshot(uow.session, game, penalty=0)
        holder = None
        if majority:
            holder = await self._majority_now(uow.session, game, snap)
        else:
            rnd = (await uow.session.execute(select(Round).where(
                Round.game_id == game.id, Round.status == "open"))).scalar_one_or_none()
            if rnd is not None:
                raise RuleError(f"Round {rnd.number} is still open. Close it first with /round close (a crisis "
                                "that ends the game is decided by its vote, and counts for Weathervane), then "
                                "/game end.")
        scores = final_scores(snap.table, majority_winner=holder, confirmed=confirm)
        voided = await void_open_rounds(uow, game)
        uow.end(game)
        ended_by = "majority" if majority else "moderator"
        await store_final(uow, game, snap, scores, ended_by=ended_by, chancellor_id=holder)
        view = await load_final(uow.session, game)
        assert view is not None
        chancellor = view.chancellor
        await uow.record(game.id, "GameEnded", actor,
                         {"ended_by": ended_by, "chancellor": chancellor, "confirmed": confirm,
                          "rounds_voided": list(voided), "pot": exact(view.pot), "scores": summary(view)},
                         source_id)
        return view

    async def _score_again(self, uow: UnitOfWork, game: Game, stored: FinalView, *, actor: int | None,
                           confirm: bool, source_id: str | None) -> FinalView:
        """``/game end`` of a game reopened after it was scored: it ends again as it first ended (by the moderator;
        by a Majority Victory, with the same Chancellor; by an End Game vote, with its penalty), is scored again
        from the ledger as it now stands, and the answer says what changed from the scores posted before."""
        rnd = (await uow.session.execute(select(Round).where(
            Round.game_id == game.id, Round.status == "open"))).scalar_one_or_none()
        if rnd is not None:
            raise RuleError(f"Round {rnd.number} is still open. Close it first with /round close, then /game end.")
        state = await victory_row_for_update(uow.session, game.id)
        ended_by, chancellor_id = stored.ended_by, state.chancellor_id
        snap = await snapshot(uow.session, game, penalty=stored.penalty)
        check_percentages(snap.table, confirm)
        scores = final_scores(snap.table, majority_winner=chancellor_id if ended_by == "majority" else None,
                              confirmed=confirm)
        before = await posted_scores(uow.session, game.id) or summary(stored)
        before_pot = str(stored.pot)
        await uow.session.execute(delete(FinalScoreRow).where(FinalScoreRow.game_id == game.id))
        await store_final(uow, game, snap, scores, ended_by=ended_by, chancellor_id=chancellor_id)
        uow.end(game)
        view = await load_final(uow.session, game)
        assert view is not None
        changes = score_changes(before, summary(view), Fraction(before_pot), view.pot)
        await uow.record(game.id, "GameEnded", actor,
                         {"ended_by": ended_by, "again": True, "confirmed": confirm, "pot": exact(view.pot),
                          "scores": summary(view), "changes": changes}, source_id)
        return replace(view, correction=tuple(changes))

    async def _majority_now(self, session: AsyncSession, game: Game, snap: Snapshot) -> int:
        if not await round_five_complete(session, game.id):
            raise RuleError(f"A Majority Victory is possible only once round {MAJORITY_AFTER_ROUND} is complete; "
                            f"{game.name} is at round {game.current_round}.")
        votes = {p.player: p.votes for p in snap.table.players}
        holder = majority_holder(votes)
        if holder is None:
            total = sum(votes.values())
            top = max(snap.table.players, key=lambda h: h.votes, default=None)
            most = f" The most is {top.name}'s {top.votes}." if top else ""
            raise RuleError(f"Nobody holds a majority of the {total} votes players control (more than half: "
                            f"{total // 2 + 1} or more).{most}")
        return holder

    async def majority_to_tell(self, game_id: int) -> bool:
        """Whether ``check_majority`` would record something now (a holder gained or lost since the last notice):
        a read, no write lock (``majorities_to_tell`` of this game alone)."""
        async with self._read() as session:
            return game_id in await session.run_sync(majorities_to_tell_in, game_id)

    async def majorities_to_tell(self) -> list[int]:
        """The games, oldest first, where ``check_majority`` would record something now: every running Landsdraad
        game past round 5 looked at by one read, a statement and three for each ``MAJORITY_GAMES_A_READ`` games
        (never one per game), no write lock; the check at each start looks first (``majorities_at_start``), so a
        start with many long games takes no write lock for them."""
        async with self._read() as session:
            return await session.run_sync(majorities_to_tell_in)

    async def check_majority(self, game_id: int, *, actor: int | None,
                             answer: OwedWith[MajorityNotice | None] | None = None) -> MajorityNotice | None:
        """R3-20 / P3-08 / P3-10, after a change to any V(p) and at each round's close: once round 5 is complete,
        does one active player hold more than half of the votes active players control? Announced once: a notice
        only when the holder changes (someone gains it, or the holder loses it). The game does not end until a
        moderator confirms with /game end majority:true. ``answer``: the notice's messages, owed in the transaction
        that records it (``owe_in``), so a kill after its commit cannot lose them."""
        async with self._write(game_id) as uow:
            change = await _majority_change(uow.session, game_id)
            if change is None:
                return None
            game, players, holder, announced = change
            votes = {p.id: p.votes for p in players}
            state = await victory_row_for_update(uow.session, game_id)
            state.majority_player_id = holder
            total = sum(votes.values())
            if holder is not None:
                p = next(x for x in players if x.id == holder)
                await uow.record(game_id, "MajorityDetected", actor,
                                 {"user_id": p.user_id, "name": p.name, "votes": p.votes, "total": total}, None)
                return await owe_in(uow, answer, MajorityNotice(game_view(game), p.name, p.user_id, p.votes, total,
                                                                gained=True))
            lost = await uow.session.get(Player, announced)
            name, user = (lost.name, lost.user_id) if lost else ("?", 0)
            lost_votes = votes.get(announced or 0, 0)
            await uow.record(game_id, "MajorityLost", actor,
                             {"user_id": user, "name": name, "votes": lost_votes, "total": total}, None)
            return await owe_in(uow, answer, MajorityNotice(game_view(game), name, user, lost_votes, total,
                                                            gained=False))


MajorityChange = tuple[Game, list[PlayerView], int | None, int | None]
"""The game, its active players, the majority's holder now and the holder last told (player ids)."""


def majorities_to_tell_in(session: Session, game_id: int | None = None) -> list[int]:
    """The ids, in order, of the games whose majority ``_majority_change`` finds changed (not None): the running
    Landsdraad games with a closed round from round 5 on (or ``game_id`` alone, if it is one), the holder now of
    each (``majority_holder`` of its active players' V(p)) against the holder last told (``VictoryState``). One
    statement for their ids, then three for each ``MAJORITY_GAMES_A_READ`` of them (``_majorities_changed``), never
    one per game."""
    long = select(Game.id).where(Game.ruleset == NAME, Game.status != "ended", round_five_complete_where(Game.id))
    if game_id is not None:
        long = long.where(Game.id == game_id)
    ids = list(session.connection().execute(long.order_by(Game.id)).scalars())
    return [game for start in range(0, len(ids), MAJORITY_GAMES_A_READ)
            for game in _majorities_changed(session, ids[start:start + MAJORITY_GAMES_A_READ])]


MAJORITY_GAMES_A_READ = 50
"""Games whose players and holdings ``majorities_to_tell_in`` reads in one step (three statements). The 1,000 long
games of bench ``many-long`` (20 players, 30 holdings a game) all at once held 19.6 MB of rows and objects at the
read's peak (tracemalloc) and left the process 9.5 MB larger (malloc keeps what the heap grew to: the idle bot 107
MB against 97); 100 a step 3.6 MB, 50 a step 2.5 MB, the reads of one game each 1.9 MB. The CPU of the look at all
of them: 0.25-0.39 s whatever the step (25 to 1,000), against 3.8-4.1 s one game at a time (2026-12-07, a process
of its own on that database)."""


def _majorities_changed(session: Session, games: list[int]) -> list[int]:
    """Those of ``games`` (in their order) whose majority holder now differs from the one last told, in three
    statements: their active players' V(p) as the close reads it (``PLAIN_VOTES`` added up by the database, and what
    holdings add, ``holding_extras``: the same numbers as ``PlayerView.votes``, tests/service/test_service_rounds.py),
    and the holders told."""
    connection = session.connection()
    votes: dict[int, dict[int, int]] = {game: {} for game in games}
    game_of: dict[int, int] = {}
    for game, player, plain in connection.execute(select(Player.game_id, Player.id, PLAIN_VOTES).where(
            Player.game_id.in_(games), Player.active.is_(True))):
        votes[game][player] = int(plain)
        game_of[player] = game
    for player, extra in holding_extras_where(session, Holding.game_id.in_(games)).items():
        votes[game_of[player]][player] += extra
    told = {game: held for game, held in connection.execute(
        select(VictoryState.game_id, VictoryState.majority_player_id).where(VictoryState.game_id.in_(games)))}
    return [game for game, held in votes.items() if majority_holder(held) != told.get(game)]


async def _majority_change(session: AsyncSession, game_id: int) -> MajorityChange | None:
    """(the game, its active players, the majority's holder now, the holder last told) when they differ in a
    Landsdraad game running past round 5 (R3-20, P3-08); None when there is nothing to tell."""
    game = await load_game(session, game_id)
    if game.ruleset != NAME or game.status == "ended" or not await round_five_complete(session, game_id):
        return None
    players = [p for p in await game_players(session, game_id) if p.active]
    holder = majority_holder({p.id: p.votes for p in players})
    state = await victory_row(session, game_id)
    announced = state.majority_player_id if state else None
    return None if holder == announced else (game, players, holder, announced)
