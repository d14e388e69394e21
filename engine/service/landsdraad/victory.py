"""Victory points through the service (rules-spec §3): what moderators track (Force units, Primary Assets, income,
CHOAM shares, wealth, heroes, the game-long counters, Luxury Goods in play), goals (private to their player,
P3-09), prestige (from the 20·N pool, P3-05), the category percentages and award weights (P3-15), and, in
victory_scoring.py, the Forecast, projected and final scores, and the end of the game. Every change is an event."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.core.errors import NotFoundError, RuleError
from engine.landsdraad.victory import (
    ASSET_KINDS,
    COUNTERS,
    DEFAULT_PERCENTAGES,
    LUXURIES,
    UNIT_KINDS,
    Award,
    Category,
    pot,
    prestige_pool,
)
from engine.service.landsdraad.victory_scoring import ScoringService, refresh_final
from engine.service.landsdraad.victory_state import (
    ECONOMY,
    LUXURY_MAX,
    TRACKED,
    award_slug,
    joined,
    luxuries_of,
    owned_luxuries,
    percentages_of,
    pretty,
    removed_since,
    snapshot,
    track_for_update,
    victory_row,
    victory_row_for_update,
    weights_of,
)
from engine.service.landsdraad.victory_views import (
    GoalChange,
    GoalView,
    LuxuryView,
    PrestigeReceipt,
    PrestigeView,
    TrackChange,
    TrackView,
    VpSettingsView,
)
from engine.service.ledger import game_view, load_game, require_player, require_running
from engine.service.owed import OwedWith, owe_in
from engine.service.uow import UnitOfWork
from engine.store.models import Game, Player
from engine.store.models.landsdraad import PrestigeAward, VictoryGoal, VictoryState

MAY_BE_NEGATIVE = ("income", "wealth")
"""Income and wealth can fall below 0 (they then count as 0, P3-02); every other measure is a count."""
GOAL_TEXT = 300
PRESTIGE_REASON = 200


def require_unscored_measures(game: Game) -> None:
    """R3-23: the measures are read at the instant the game ends; afterwards they no longer change, like the rest of
    the closed ledger: the closed line (goals and prestige are refused there too, so "they can still be given" was
    not so, play-test W7)."""
    require_running(game)


async def settings_view(session: AsyncSession, game: Game, state: VictoryState | None) -> VpSettingsView:
    percentages, weights = percentages_of(state), weights_of(state)
    owned = await owned_luxuries(session, game.id)
    in_play = luxuries_of(state)
    n = await joined(session, game.id)
    return VpSettingsView(
        game=game_view(game),
        percentages=tuple((c, percentages[c], DEFAULT_PERCENTAGES[c]) for c in Category),
        weights=tuple((a, weights[a], a.default_weight) for a in Award),
        luxuries=tuple(LuxuryView(good, in_play[good], owned[good]) for good in LUXURIES),
        joined=n, pot=pot(n, int(game.settings.get("end_game_penalty_applied") or 0)),
        removed=await removed_since(session, game.id),
    )


def event_kind(changed: set[str]) -> str:
    for group, kind in ((UNIT_KINDS, "ForcesSet"), (ASSET_KINDS, "AssetsSet"), (ECONOMY, "EconomySet")):
        if changed <= set(group):
            return kind
    return "HoldingsTracked"


class VictoryService(ScoringService):
    # -- tracking -------------------------------------------------------------------------------------------------

    async def set_tracked(self, game_id: int, *, user_id: int, values: dict[str, int | None], actor: int | None,
                          source_id: str | None = None) -> TrackChange:
        """Set some of a player's tracked measures (``values``: column -> new value, None = unchanged). The event
        is ``ForcesSet``, ``AssetsSet`` or ``EconomySet`` when only that group changes, else ``HoldingsTracked``."""
        wanted = {k: v for k, v in values.items() if v is not None}
        unknown = [k for k in wanted if k not in TRACKED]
        if unknown:
            raise RuleError(f"Nothing called {', '.join(unknown)} is tracked.")
        if not wanted:
            raise RuleError("Nothing to change: give at least one value.")
        for kind, number in wanted.items():
            if number < 0 and kind not in MAY_BE_NEGATIVE:
                raise RuleError(f"{pretty(kind).capitalize()} is a count: 0 or more, not {number}.")
            if kind in LUXURIES and number > LUXURY_MAX:
                raise RuleError(f"There are at most {LUXURY_MAX} {pretty(kind)} locations, not {number}.")
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            require_unscored_measures(game)
            player = await require_player(uow.session, game, user_id)
            row = await track_for_update(uow.session, game_id, player.id)
            changes = [(k, int(getattr(row, k)), v) for k, v in wanted.items()]
            for kind, number in wanted.items():
                setattr(row, kind, number)
            await uow.session.flush()
            notes = await self._luxuries_follow(uow, game, [k for k in wanted if k in LUXURIES])
            payload: dict[str, Any] = {"user_id": user_id, "name": player.name,
                                       "changes": {k: {"from": old, "to": new} for k, old, new in changes}}
            if notes:
                payload["luxuries_in_play"] = luxuries_of(await victory_row(uow.session, game_id))
            await uow.record(game_id, event_kind(set(wanted)), actor, payload, source_id)
            return TrackChange(game_view(game), await self._track(uow.session, game, player), tuple(changes),
                               tuple(notes))

    async def _luxuries_follow(self, uow: UnitOfWork, game: Game, goods: list[str]) -> list[str]:
        """Players cannot own more locations of a Luxury Good than are in play: the count in play rises to what
        they own (at most 5 in all, R3-12)."""
        if not goods:
            return []
        owned = await owned_luxuries(uow.session, game.id)
        state = await victory_row(uow.session, game.id)
        in_play = luxuries_of(state)
        notes = []
        for good in goods:
            if owned[good] > LUXURY_MAX:
                raise RuleError(f"Players would own {owned[good]} {pretty(good)} locations in all; there are at most "
                                f"{LUXURY_MAX}. Take some from their owner first.")
            if owned[good] > in_play[good]:
                state = await victory_row_for_update(uow.session, game.id)
                was, in_play[good] = in_play[good], owned[good]
                state.luxuries = dict(in_play)
                notes.append(f"Players now own {owned[good]} {pretty(good)} locations, so {owned[good]} are in play "
                             f"(was {was}).")
        await uow.session.flush()
        return notes

    async def record_counter(self, game_id: int, *, user_id: int, counter: str, amount: int = 1,
                             actor: int | None, source_id: str | None = None) -> TrackChange:
        """A game-long count (successful seizures, raids, …) goes up by ``amount``; a negative amount corrects it."""
        if counter not in COUNTERS:
            raise RuleError(f"“{counter}” is not a counter. Counters: {', '.join(COUNTERS)}.")
        if amount == 0:
            raise RuleError("The amount is a whole number other than 0 (negative to correct a mistake).")
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            require_unscored_measures(game)
            player = await require_player(uow.session, game, user_id)
            row = await track_for_update(uow.session, game_id, player.id)
            old = int(getattr(row, counter))
            if old + amount < 0:
                raise RuleError(f"{player.name} has {old} {pretty(counter)}; taking {-amount} away would go below 0.")
            setattr(row, counter, old + amount)
            await uow.session.flush()
            await uow.record(game_id, "CounterRecorded", actor,
                             {"user_id": user_id, "name": player.name, "counter": counter, "amount": amount,
                              "from": old, "to": old + amount}, source_id)
            return TrackChange(game_view(game), await self._track(uow.session, game, player),
                               ((counter, old, old + amount),))

    async def set_luxuries(self, game_id: int, *, counts: dict[str, int | None], actor: int | None,
                           source_id: str | None = None) -> tuple[VpSettingsView, tuple[tuple[str, int, int], ...]]:
        """R3-12: how many locations of each Luxury Good are in play (0 to 5, never fewer than players own)."""
        wanted = {k: v for k, v in counts.items() if v is not None}
        if not wanted:
            raise RuleError("Nothing to change: give the count in play of at least one Luxury Good.")
        for good, n in wanted.items():
            if good not in LUXURIES:
                raise RuleError(f"“{good}” is not a Luxury Good. They are: {', '.join(map(pretty, LUXURIES))}.")
            if not 0 <= n <= LUXURY_MAX:
                raise RuleError(f"Each Luxury Good has 0 to {LUXURY_MAX} locations in play, not {n}.")
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            require_unscored_measures(game)
            owned = await owned_luxuries(uow.session, game_id)
            short = [f"{owned[g]} {pretty(g)}" for g, n in wanted.items() if n < owned[g]]
            if short:
                raise RuleError(f"Players own {', '.join(short)} locations; fewer cannot be in play. Change their "
                                "assets first (/assets set).")
            state = await victory_row_for_update(uow.session, game_id)
            before = luxuries_of(state)
            state.luxuries = {**before, **wanted}
            changes = tuple((g, before[g], n) for g, n in wanted.items())
            await uow.session.flush()
            await uow.record(game_id, "LuxuriesInPlaySet", actor,
                             {"changes": {g: {"from": old, "to": new} for g, old, new in changes}}, source_id)
            return await settings_view(uow.session, game, state), changes

    async def _track(self, session: AsyncSession, game: Game, player: Player) -> TrackView:
        snap = await snapshot(session, game)
        view = next(p for p in snap.players if p.id == player.id)
        return snap.track(view)

    async def tracked(self, game_id: int, user_id: int | None = None) -> list[TrackView]:
        """Every player's tracked measures (or one player's): moderators only."""
        async with self._read() as session:
            game = await load_game(session, game_id)
            snap = await snapshot(session, game)
            if user_id is not None:
                await require_player(session, game, user_id)
            return [snap.track(p) for p in snap.players if user_id is None or p.user_id == user_id]

    # -- percentages and weights ------------------------------------------------------------------------------------

    async def vp_settings(self, game_id: int) -> VpSettingsView:
        async with self._read() as session:
            game = await load_game(session, game_id)
            return await settings_view(session, game, await victory_row(session, game_id))

    async def set_percentage(self, game_id: int, *, category: Category, value: int, actor: int | None,
                             source_id: str | None = None) -> tuple[int, VpSettingsView]:
        """P3-15: a category's percentage of the Pot, as a Severe Crisis changes it; never normalised. Returns
        the old value and the settings now."""
        return await self._set_share(game_id, "percentages", category.value, category.label, value,
                                     lambda state: percentages_of(state)[category], actor, source_id,
                                     "VpPercentageChanged")

    async def set_weight(self, game_id: int, *, award: Award, value: int, actor: int | None,
                         source_id: str | None = None) -> tuple[int, VpSettingsView]:
        """A singular award's weight in percent of the Pot (R3-10), as a Severe Crisis changes it."""
        return await self._set_share(game_id, "weights", award_slug(award), award.title, value,
                                     lambda state: weights_of(state)[award], actor, source_id, "VpWeightChanged")

    async def _set_share(self, game_id: int, column: str, key: str, title: str, value: int,
                         current: Callable[[VictoryState], int], actor: int | None, source_id: str | None,
                         event: str) -> tuple[int, VpSettingsView]:
        if not 0 <= value <= 100:
            raise RuleError(f"A share of the Pot is a percentage from 0 to 100, not {value}.")
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            state = await victory_row_for_update(uow.session, game_id)
            if state.scored_at is not None:
                raise RuleError(f"{game.name} has been scored; its percentages no longer change.")
            old = current(state)
            setattr(state, column, {**getattr(state, column), key: value})
            await uow.session.flush()
            after = await settings_view(uow.session, game, state)
            await uow.record(game_id, event, actor, {"what": title, "from": old, "to": value, "total": after.total},
                             source_id)
            return old, after

    # -- goals ------------------------------------------------------------------------------------------------------

    async def add_goal(self, game_id: int, *, user_id: int, description: str, vp: int, actor: int | None,
                       source_id: str | None = None, answer: OwedWith[GoalChange] | None = None) -> GoalChange:
        """R3-15: a goal with fixed VP, private to its player (P3-09). Auctioned goals are goals too. ``answer``: the
        DM to its player, owed in its transaction (``owe_in``)."""
        description = description.strip()  # kept as typed, newlines too (docs/input.md)
        if not description:
            raise RuleError("A goal needs its description, e.g. “Own 4 Agri Fiefs”.")
        if len(description) > GOAL_TEXT:
            raise RuleError(f"A goal's description is at most {GOAL_TEXT} characters.")
        if vp < 1:
            raise RuleError(f"A goal is worth 1 VP or more, not {vp}.")
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            player = await require_player(uow.session, game, user_id)
            last = (await uow.session.execute(select(func.max(VictoryGoal.number))
                                              .where(VictoryGoal.player_id == player.id))).scalar_one()
            goal = VictoryGoal(game_id=game_id, player_id=player.id, number=(last or 0) + 1, description=description,
                               vp=vp, achieved=False, added_at=uow.now)
            uow.session.add(goal)
            await uow.session.flush()
            await uow.record(game_id, "GoalAdded", actor, {"user_id": user_id, "name": player.name,
                                                           "goal": goal.number, "description": description, "vp": vp},
                             source_id)
            return await owe_in(uow, answer, GoalChange(self._goal_view(goal, player), "added"))

    async def set_goal_achieved(self, game_id: int, *, user_id: int, number: int, achieved: bool = True,
                                actor: int | None, source_id: str | None = None,
                                answer: OwedWith[GoalChange] | None = None) -> GoalChange:
        """``answer``: the player's DM (and the final table scored again, were there one: ``refresh_final``; an
        ended game's closed ledger refuses the change), owed in its transaction (``owe_in``; the table's chart is
        added to its row after: ``bot/actions/owed_files.py``)."""
        async with self._write(game_id, source_id) as uow:
            game, player, goal = await self._goal(uow, game_id, user_id, number)
            if goal.achieved == achieved:
                state = "already achieved" if achieved else "not achieved"
                raise RuleError(f"{player.name}'s goal {number} is {state}; nothing changed.")
            goal.achieved = achieved
            goal.achieved_at = uow.now if achieved else None
            await uow.session.flush()
            final = await refresh_final(uow.session, game)
            await uow.record(game_id, "GoalAchieved" if achieved else "GoalNotAchieved", actor,
                             {"user_id": user_id, "name": player.name, "goal": number, "vp": goal.vp,
                              "final_scores_updated": final is not None}, source_id)
            return await owe_in(uow, answer, GoalChange(self._goal_view(goal, player),
                                                        "achieved" if achieved else "not achieved", final))

    async def remove_goal(self, game_id: int, *, user_id: int, number: int, actor: int | None,
                          source_id: str | None = None, answer: OwedWith[GoalChange] | None = None) -> GoalChange:
        """``answer``: as ``set_goal_achieved``'s."""
        async with self._write(game_id, source_id) as uow:
            game, player, goal = await self._goal(uow, game_id, user_id, number)
            view = self._goal_view(goal, player)
            await uow.session.delete(goal)
            await uow.session.flush()
            final = await refresh_final(uow.session, game)
            await uow.record(game_id, "GoalRemoved", actor,
                             {"user_id": user_id, "name": player.name, "goal": number,
                              "description": goal.description, "vp": goal.vp,
                              "final_scores_updated": final is not None}, source_id)
            return await owe_in(uow, answer, GoalChange(view, "removed", final))

    async def _goal(self, uow: UnitOfWork, game_id: int, user_id: int, number: int
                    ) -> tuple[Game, Player, VictoryGoal]:
        game = await load_game(uow.session, game_id)
        player = await require_player(uow.session, game, user_id)
        goal = (await uow.session.execute(select(VictoryGoal).where(
            VictoryGoal.player_id == player.id, VictoryGoal.number == number))).scalar_one_or_none()
        if goal is None:
            numbers = (await uow.session.execute(select(VictoryGoal.number).where(
                VictoryGoal.player_id == player.id).order_by(VictoryGoal.number))).scalars().all()
            have = ", ".join(map(str, numbers)) if numbers else "none yet (/goal add)"
            raise NotFoundError(f"{player.name} has no goal {number}. Their goals: {have}.")
        return game, player, goal

    @staticmethod
    def _goal_view(goal: VictoryGoal, player: Player) -> GoalView:
        return GoalView(goal.number, player.user_id, player.name, goal.description, goal.vp, goal.achieved)

    async def goals(self, game_id: int, *, user_id: int | None = None) -> list[GoalView]:
        """Goals are PRIVATE (P3-09): the front end shows a player only their own; moderators any."""
        async with self._read() as session:
            game = await load_game(session, game_id)
            query = select(VictoryGoal, Player).join(Player, Player.id == VictoryGoal.player_id).where(
                VictoryGoal.game_id == game_id)
            if user_id is not None:
                player = await require_player(session, game, user_id)
                query = query.where(VictoryGoal.player_id == player.id)
            rows = await session.execute(query.order_by(Player.name, VictoryGoal.number))
            return [self._goal_view(g, p) for g, p in rows.all()]

    # -- prestige ---------------------------------------------------------------------------------------------------

    async def award_prestige(self, game_id: int, *, user_id: int, vp: int, reason: str, actor: int | None,
                             source_id: str | None = None, answer: OwedWith[PrestigeReceipt] | None = None
                             ) -> PrestigeReceipt:
        """R3-16: prestige at the moderator's discretion, during or after the game; over the 20·N pool it is
        recorded with a warning (P3-05). A negative award corrects an earlier one. ``answer``: the player's DM,
        the announcement (and the final table scored again, were there one: as ``set_goal_achieved``'s), owed in its
        transaction (``owe_in``; the table's chart is added to its row after: ``bot/actions/owed_files.py``)."""
        reason = reason.strip()  # kept as typed, newlines too (docs/input.md)
        if not reason:
            raise RuleError("Give the reason for the award, e.g. “Bloodiest Ambush”.")
        if len(reason) > PRESTIGE_REASON:
            raise RuleError(f"The reason is at most {PRESTIGE_REASON} characters.")
        if vp == 0:
            raise RuleError("Award 1 VP or more (a negative number takes VP back to correct a mistake).")
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            player = await require_player(uow.session, game, user_id)
            mine = (await uow.session.execute(select(func.coalesce(func.sum(PrestigeAward.vp), 0)).where(
                PrestigeAward.player_id == player.id))).scalar_one()
            if int(mine) + vp < 0:
                raise RuleError(f"{player.name} has {mine} prestige VP; taking {-vp} away would go below 0.")
            award = PrestigeAward(game_id=game_id, player_id=player.id, vp=vp, reason=reason, at=uow.now,
                                  awarded_by=actor)
            uow.session.add(award)
            await uow.session.flush()
            awarded = int((await uow.session.execute(select(func.coalesce(func.sum(PrestigeAward.vp), 0)).where(
                PrestigeAward.game_id == game_id))).scalar_one())
            pool = prestige_pool(await joined(uow.session, game_id))
            final = await refresh_final(uow.session, game)
            await uow.record(game_id, "PrestigeAwarded", actor,
                             {"user_id": user_id, "name": player.name, "vp": vp, "reason": reason,
                              "awarded": awarded, "pool": pool, "final_scores_updated": final is not None},
                             source_id)
            view = PrestigeView(award.id, player.user_id, player.name, vp, reason)
            return await owe_in(uow, answer, PrestigeReceipt(view, int(mine) + vp, awarded, pool, final))

    async def prestige(self, game_id: int) -> tuple[list[PrestigeView], int]:
        """Every prestige award, and the pool (20·N)."""
        async with self._read() as session:
            await load_game(session, game_id)
            query = select(PrestigeAward, Player).join(Player, Player.id == PrestigeAward.player_id)
            rows = await session.execute(query.where(PrestigeAward.game_id == game_id).order_by(PrestigeAward.id))
            awards = [PrestigeView(a.id, p.user_id, p.name, a.vp, a.reason) for a, p in rows.all()]
            return awards, prestige_pool(await joined(session, game_id))
