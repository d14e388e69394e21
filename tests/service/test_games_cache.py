"""The remembered games of a DM's sender (engine/service/membership.py, bot/actions/dm_ballot.py): a player's
second DM ballot reads no games, yet a join is never missed: a join through this process forgets the entry, and a
join the process cannot see (another process, a script) is caught by the ballot's own transaction, which then
records nothing and the DM is answered from a fresh lookup. Leaving (marked inactive) and a game's end are read
by the ballot's transaction itself. Runs on SQLite, and on PostgreSQL when TEST_POSTGRES_URL is set."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from conftest import Table
from ledger_front import MOD, actor, dm
from sqlalchemy import insert

from bot.actions.commands import App
from bot.actions.context import Ctx, Place
from bot.actions.landsdraad.dm_ballot import cast_dm_ballot
from engine.core.errors import RuleError
from engine.landsdraad.ballot import parse_ballot
from engine.mylantium.model import FactionCode, Party
from engine.service.landsdraad.roster import RosterRow
from engine.service.membership import GamesCache, StaleGames
from engine.store.models import Player

ALICE = actor(10, "alice")


async def counted(table: Table, game_id: int | None = None) -> list[str]:
    """The options of the BallotCast events of the game (the table's by default), in order."""
    events = (await table.clerk.exports.export(game_id or table.game_id))["events"]
    return [e["payload"]["option"] for e in events if e["kind"] == "BallotCast"]


async def voted_once(table: Table) -> None:
    """alice plays in sirius (round open) and has voted once by DM: her games are remembered."""
    await table.player(ALICE.id, "alice", 3, 2, 1)
    await table.open()
    (answer,) = await dm(table.clerk, ALICE, "Vote: Aye")
    assert "Ballot recorded" in answer.text
    assert [g.name for g in table.clerk.games.known_games(ALICE.id) or ()] == ["sirius"]


async def test_a_second_dm_ballot_is_cast_without_looking_the_games_up(table: Table, monkeypatch: Any) -> None:
    await voted_once(table)

    async def no_lookup(user_id: int) -> None:
        raise AssertionError("the games were looked up again")

    monkeypatch.setattr(table.clerk.games, "games_of_user", no_lookup)
    (answer,) = await dm(table.clerk, ALICE, "Revote: Nay")

    assert "Revote recorded for round 1 of sirius: **Nay** (was Aye)" in answer.text
    assert await counted(table) == ["aye", "nay"]


async def arrakis(table: Table) -> int:
    game = await table.clerk.games.create_game(guild_id=900, channel_id=902, name="arrakis", ruleset="landsdraad",
                                               moderator_role_id=None, actor=MOD)
    await table.clerk.landsdraad.rounds.open_round(game.id, crisis="Spice quotas", deadline=None, actor=MOD)
    return game.id


async def test_joining_another_game_forgets_the_remembered_games_and_the_next_dm_asks_which(table: Table) -> None:
    await voted_once(table)
    other = await arrakis(table)

    await table.clerk.landsdraad.ledger.add_player(other, user_id=ALICE.id, name="alice", diplomacy=1, command=1,
                                                   intrigue=1, roll=1, faction=None, actor=MOD)
    assert table.clerk.games.known_games(ALICE.id) is None
    (answer,) = await dm(table.clerk, ALICE, "Revote: Nay")

    assert "You play in several games (#sirius, #arrakis)" in answer.text and answer.select is not None
    assert await counted(table) == ["aye"] and await counted(table, other) == []


@pytest.mark.parametrize("how", ["roster", "convocate", "mylantium"])
async def test_every_way_of_joining_a_game_forgets_the_remembered_games(table: Table, how: str) -> None:
    await voted_once(table)
    clerk = table.clerk
    if how == "roster":
        await clerk.landsdraad.roster.add_players(await arrakis(table), [RosterRow(ALICE.id, "alice", 1, 1, 1, 1)],
                                                  actor=MOD)
    elif how == "convocate":
        game = await clerk.games.create_game(guild_id=900, channel_id=903, name="senate", ruleset="convocate",
                                             moderator_role_id=None, actor=MOD)
        await clerk.convocate.board.set_player(game.id, user_id=ALICE.id, name="alice", sovereignty_name="Union",
                                               order=None, homeworld=None, temp=None, actor=MOD)
    else:
        game = await clerk.games.create_game(guild_id=900, channel_id=904, name="mylantium", ruleset="mylantium",
                                             moderator_role_id=None, actor=MOD)
        await clerk.mylantium.register_faction(game.id, code=FactionCode.PL, user_id=ALICE.id, user_name="alice",
                                               party=Party.WHIG, vp=20, treasury=50, actor=MOD)

    assert clerk.games.known_games(ALICE.id) is None


async def test_a_join_this_process_did_not_see_is_caught_by_the_ballots_transaction(table: Table) -> None:
    """As if another process added alice to arrakis: the remembered games say sirius only, the ballot's transaction
    finds two games, records nothing, and the DM is answered from a fresh lookup: a menu of both."""
    await voted_once(table)
    other = await arrakis(table)
    async with table.engine.begin() as conn:
        await conn.execute(insert(Player).values(
            game_id=other, user_id=ALICE.id, name="alice", faction=None, diplomacy=1, command=1, intrigue=1, roll=1,
            diplomacy_max=1, intrigue_max=1, misc_votes=0, active=True))
    assert [g.name for g in table.clerk.games.known_games(ALICE.id) or ()] == ["sirius"]

    (answer,) = await dm(table.clerk, ALICE, "Revote: Nay")

    assert "You play in several games (#sirius, #arrakis)" in answer.text and answer.select is not None
    assert await counted(table) == ["aye"] and await counted(table, other) == []
    assert [g.name for g in table.clerk.games.known_games(ALICE.id) or ()] == ["sirius", "arrakis"]  # looked up again


async def test_a_ballot_whose_games_changed_records_nothing_and_says_so(table: Table) -> None:
    await voted_once(table)

    with pytest.raises(StaleGames):
        await table.clerk.landsdraad.ballots.cast_ballot(table.game_id, user_id=ALICE.id,
                                                         command=parse_ballot("Revote: Nay"),
                                                         received_at=table.clock.now(), source_id="m-stale",
                                                         plays_in=[table.game_id, table.game_id + 1])

    assert await counted(table) == ["aye"]
    assert table.clerk.games.known_games(ALICE.id) is None
    receipt = await table.clerk.landsdraad.ballots.cast_ballot(table.game_id, user_id=ALICE.id,
                                                               command=parse_ballot("Revote: Nay"),
                                                               received_at=table.clock.now(), source_id="m-stale",
                                                               plays_in=[table.game_id])
    assert receipt.option == "nay" and not receipt.duplicate  # the refused message was not used up


async def test_a_player_marked_inactive_after_voting_cannot_vote_from_the_remembered_games(table: Table) -> None:
    await voted_once(table)
    await table.clerk.landsdraad.ledger.set_player(table.game_id, user_id=ALICE.id, active=False, actor=MOD)

    (answer,) = await dm(table.clerk, ALICE, "Revote: Nay")

    assert "You are marked inactive in sirius, so your ballot cannot count" in answer.text
    assert await counted(table) == ["aye"]


async def test_after_the_game_ends_a_remembered_game_takes_no_ballot(table: Table) -> None:
    await voted_once(table)
    await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=MOD)
    await table.clerk.landsdraad.victory.end_game(table.game_id, actor=MOD)

    (answer,) = await dm(table.clerk, ALICE, "Vote: Nay")

    assert "sirius ended on 2026-03-01 18:00 UTC; its ledger is closed" in answer.text
    assert await counted(table) == ["aye"]


def test_the_cache_drops_its_oldest_entry_and_ignores_a_lookup_that_began_before_a_forget() -> None:
    cache = GamesCache(capacity=2)
    cache.store(cache.generation, [(1, []), (2, [])])
    cache.store(cache.generation, [(3, [])])
    assert (cache.get(1), cache.get(2), cache.get(3), len(cache)) == (None, (), (), 2)

    began = cache.generation
    cache.forget([2])  # a join committed while a lookup was running
    cache.store(began, [(2, []), (4, [])])
    assert (cache.get(2), cache.get(4)) == (None, None)
    cache.forget()
    assert len(cache) == 0


async def test_a_refusal_is_answered_from_a_fresh_lookup_not_the_remembered_games(table: Table) -> None:
    """A ``#name`` the remembered games do not have is checked against the games read now."""
    await voted_once(table)
    other = await arrakis(table)
    async with table.engine.begin() as conn:  # unseen by this process, as above
        await conn.execute(insert(Player).values(
            game_id=other, user_id=ALICE.id, name="alice", faction=None, diplomacy=1, command=1, intrigue=1, roll=1,
            diplomacy_max=1, intrigue_max=1, misc_votes=0, active=True))

    (answer,) = await dm(table.clerk, ALICE, "Vote: Nay #arrakis")

    assert "Ballot recorded for round 1 of arrakis: **Nay**" in answer.text
    assert await counted(table, other) == ["nay"]
    ctx = Ctx(ALICE, Place(None, None), "m-dune", table.clock.now())
    with pytest.raises(RuleError, match=r"not a player in a game called “dune”\. Your games: #sirius, #arrakis"):
        await cast_dm_ballot(App(table.clerk), ctx, parse_ballot("Vote: Aye #dune"))


async def test_in_one_batch_only_the_ballot_whose_games_changed_is_refused(table: Table) -> None:
    """Ballots of several users written together: one query checks them all, and one stale lookup stops only its
    own ballot."""
    await table.player(ALICE.id, "alice", 3, 2, 1)
    await table.player(11, "bob", 1, 1, 1)
    await table.player(12, "cy", 1, 1, 1)
    await table.open()
    other = await arrakis(table)
    await table.clerk.landsdraad.ledger.add_player(other, user_id=ALICE.id, name="alice", diplomacy=1, command=1,
                                                   intrigue=1, roll=1, faction=None, actor=MOD)

    def cast(user_id: int, plays_in: list[int]) -> Any:
        return table.clerk.landsdraad.ballots.cast_ballot(table.game_id, user_id=user_id,
                                                          command=parse_ballot("Vote: Aye"),
                                                          received_at=table.clock.now(), source_id=f"m-{user_id}",
                                                          plays_in=plays_in)

    batches = table.clerk.landsdraad.ballots._ballot_batcher.batches
    alice, bob, cy = await asyncio.gather(cast(ALICE.id, [table.game_id]), cast(11, [table.game_id]),
                                          cast(12, [table.game_id]), return_exceptions=True)

    assert table.clerk.landsdraad.ballots._ballot_batcher.batches == batches + 1
    assert isinstance(alice, StaleGames)
    assert not isinstance(bob, BaseException) and bob.option == "aye"
    assert not isinstance(cy, BaseException) and cy.option == "aye"
    assert await counted(table) == ["aye", "aye"]
