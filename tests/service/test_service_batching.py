"""Group commit of crisis ballots (engine/service/batching.py, ballot_batch.py) and the bulk roster import: ballots
that arrive together are written in one transaction, yet each is judged as if alone, in arrival order."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import select

from engine.core.errors import NotFoundError, RuleError
from engine.landsdraad.ballot import parse_ballot
from engine.service.clock import utc
from engine.service.landsdraad.roster import RosterRow
from engine.store.models.landsdraad import Ballot

MOD = 1


def cast(table: Any, user_id: int, text: str, source: str) -> Any:
    return table.clerk.landsdraad.ballots.cast_ballot(table.game_id, user_id=user_id, command=parse_ballot(text),
                                                      received_at=table.clock.now(), source_id=source)


async def test_ballots_arriving_together_share_a_batch_and_are_each_judged_alone(table: Any) -> None:
    await table.player(10, "alice", 3, 2, 2)
    await table.player(11, "bob", 4, 2, 3)
    await table.open()
    await cast(table, 11, "Vote: Aye", "m0")  # a first batch, alone
    batches = table.clerk.landsdraad.ballots._ballot_batcher.batches

    results = await asyncio.gather(
        cast(table, 10, "Vote: Aye", "m1"),
        cast(table, 99, "Vote: Nay", "m2"),      # not a player: refused, the others still count
        cast(table, 10, "Revote: Nay", "m3"),    # the same player again, in the same batch: sees m1's ballot
        cast(table, 10, "Vote: Aye", "m1"),      # m1 redelivered inside the batch: answered, counted once
        cast(table, 11, "Vote: Aye", "m0"),      # m0 redelivered from an earlier batch
        return_exceptions=True)

    assert table.clerk.landsdraad.ballots._ballot_batcher.batches == batches + 1, "one transaction for the five"
    first, stranger, revote, again, old = results
    assert first.option == "aye" and first.replaced is None
    assert isinstance(stranger, NotFoundError) and "You are not a player in sirius." in str(stranger)
    assert revote.option == "nay" and revote.replaced == "aye"
    assert again.duplicate and again.option == "aye" and again.current == "nay"
    assert old.duplicate and old.option == "aye"
    events = [(e.kind, e.source_id, e.payload["option"]) for e in await table.events() if e.kind == "BallotCast"]
    assert events == [("BallotCast", "m0", "aye"), ("BallotCast", "m1", "aye"), ("BallotCast", "m3", "nay")]
    seqs = [e.seq for e in await table.events()]
    assert seqs == list(range(1, len(seqs) + 1)), "the batch's events continue the game's sequence"
    status = await table.clerk.landsdraad.rounds.round_status(table.game_id)
    assert sorted(status.voted) == ["alice", "bob"]


async def test_a_closed_round_refuses_every_ballot_of_a_batch(table: Any) -> None:
    await table.player(10, "alice", 3, 2, 2)
    await table.open()
    await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=MOD)
    results = await asyncio.gather(cast(table, 10, "Vote: Aye", "a"), cast(table, 10, "Vote: Nay", "b"),
                                   return_exceptions=True)
    assert all(isinstance(r, RuleError) and "Round 1 of sirius is closed" in str(r) for r in results)
    assert "BallotCast" not in await table.kinds()


async def test_a_roster_is_imported_in_one_transaction_or_not_at_all(table: Any) -> None:
    rows = [RosterRow(100 + n, f"p{n}", diplomacy=n % 4 + 1, command=1, intrigue=1, roll=2) for n in range(50)]
    assert await table.clerk.landsdraad.roster.add_players(table.game_id, rows, actor=MOD, source_id="import-1") == 50
    players = await table.clerk.landsdraad.ledger.players(table.game_id)
    assert [p.name for p in players] == [f"p{n}" for n in range(50)]
    assert players[5].votes == (await table.player(999, "solo", 2, 1, 1, roll=2)).votes  # as /player add counts
    assert (await table.kinds()).count("PlayerAdded") == 51

    with pytest.raises(RuleError, match="Already players in sirius: p0"):
        await table.clerk.landsdraad.roster.add_players(table.game_id, [RosterRow(100, "p0", 1, 1, 1, 2)], actor=MOD)
    with pytest.raises(RuleError, match="names a user twice"):
        await table.clerk.landsdraad.roster.add_players(table.game_id,
                                                        [RosterRow(5, "x", 1, 1, 1, 2), RosterRow(5, "y", 1, 1, 1, 2)],
                                                        actor=MOD)
    assert len(await table.clerk.landsdraad.ledger.players(table.game_id)) == 51


async def test_a_batch_writes_each_voters_ballot_row_once_as_the_batch_leaves_it(table: Any) -> None:
    """The batch upserts one row per voter (ballot_batch.py): a first ballot and its revote in one batch are one row
    with one revote; a revote in a later batch updates that row in place. The receipts' votes are the voter's V(p)
    from their holdings, as ``player`` reports it."""
    await table.player(10, "alice", 4, 2, 2, roll=2)
    await table.elector(10, "Ix", "strong", 5)
    await table.planet(10, "Caladan", "rich")
    await table.planet(10, "Giedi", "poor", homeworld=True)
    await table.player(11, "bob", 2, 2, 3)
    await table.open()
    alice = (await table.clerk.landsdraad.ledger.player(table.game_id, 10)).votes
    batches = table.clerk.landsdraad.ballots._ballot_batcher.batches
    assert alice == 2 * 4 + 2 + 2 + 5 + 4 + 2 * 2  # base, elector, rich planet, D 4 reaches both bonuses

    first, revote, bob = await asyncio.gather(cast(table, 10, "Vote: Aye, 12", "a1"),
                                              cast(table, 10, "Revote: Nay", "a2"), cast(table, 11, "Vote: Aye", "b1"))
    assert table.clerk.landsdraad.ballots._ballot_batcher.batches == batches + 1, "the three in one transaction"
    assert (first.votes, revote.votes, bob.votes) == (alice, alice, (await table.clerk.landsdraad.ledger.player(
        table.game_id, 11)).votes)
    assert (first.declared, revote.replaced, revote.declared) == (12, "aye", None)
    table.clock.advance(timedelta(minutes=5))
    later = await cast(table, 10, "Revote: Abstain", "a3")
    assert later.replaced == "nay"

    async with table.engine.connect() as connection:
        rows = (await connection.execute(
            select(Ballot.player_id, Ballot.option, Ballot.declared, Ballot.revotes, Ballot.source_id,
                   Ballot.received_at).order_by(Ballot.player_id))).all()
    assert [r[1:5] for r in rows] == [("abstain", None, 2, "a3"), ("aye", None, 0, "b1")]
    assert utc(rows[0].received_at) == table.clock.now()


async def test_a_batch_of_more_voters_sources_and_remembered_games_than_a_short_list_is_judged_alone(table: Any
                                                                                                   ) -> None:
    """A batch whose lists of voters, source ids and remembered users are longer than 4 (read by a statement whose
    ``IN`` lists are padded to 8: ``ballot_batch._padded``): each ballot is judged as if alone."""
    for n in range(7):
        await table.player(10 + n, f"p{n}", n % 3 + 1, 2, 2)
    await table.open()
    await cast(table, 10, "Vote: Aye", "m-old")  # a first batch, alone
    batches = table.clerk.landsdraad.ballots._ballot_batcher.batches

    def known(user_id: int, text: str, source: str) -> Any:
        return table.clerk.landsdraad.ballots.cast_ballot(table.game_id, user_id=user_id, command=parse_ballot(text),
                                                          received_at=table.clock.now(), source_id=source,
                                                          plays_in=[table.game_id])

    results = await asyncio.gather(*(known(10 + n, "Vote: Nay", f"m{n}") for n in range(7)),
                                   cast(table, 10, "Vote: Aye", "m-old"),  # redelivered from the first batch
                                   cast(table, 99, "Vote: Aye", "m-stranger"), return_exceptions=True)

    assert table.clerk.landsdraad.ballots._ballot_batcher.batches == batches + 1, "one transaction for the nine"
    *voted, old, stranger = results
    assert [(r.option, r.replaced) for r in voted] == [("nay", "aye")] + [("nay", None)] * 6
    assert not any(r.duplicate for r in voted)
    assert old.duplicate and old.option == "aye" and old.current == "nay"
    assert isinstance(stranger, NotFoundError)
    events = [(e.source_id, e.payload["option"]) for e in await table.events() if e.kind == "BallotCast"]
    assert events == [("m-old", "aye")] + [(f"m{n}", "nay") for n in range(7)]
