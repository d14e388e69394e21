"""issue 2: "Casting a vote must not get slower as the game grows"; DESIGN.md: "Casting a vote costs one short
transaction whose size does not grow with the number of players".

Not a timing test: it counts (and compares) the SQL statements one cast_ballot sends, in a game of 3 players and
in a game of 200 players with 50 closed rounds of ballots and events behind it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

from sqlalchemy import event, insert, select, update

from engine.store.models import Event, Game, Player
from engine.store.models.landsdraad import Ballot, Holding, Round

MOD = 1
BIG_PLAYERS, BIG_ROUNDS = 200, 50


@contextmanager
def statements(*engines: Any) -> Iterator[list[str]]:
    """Every statement sent through any of ``engines`` (sync engines) while the block runs."""
    seen: list[str] = []

    def _count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        seen.append(" ".join(statement.split()))

    for engine in engines:
        event.listen(engine, "before_cursor_execute", _count)
    try:
        yield seen
    finally:
        for engine in engines:
            event.remove(engine, "before_cursor_execute", _count)


async def _big_game(table: Any) -> int:
    """A game of 200 players (two holdings each) and 50 closed rounds, each with every player's ballot and its
    event, written in bulk (the service would take minutes to build it one command at a time)."""
    clerk, engine = table.clerk, table.engine
    game = await clerk.games.create_game(guild_id=900, channel_id=999, name="big", ruleset="landsdraad",
                                         moderator_role_id=None, actor=MOD)
    now = table.clock.now()
    user_ids = range(10_000, 10_000 + BIG_PLAYERS)
    async with engine.begin() as conn:
        await conn.execute(insert(Player), [
            {"game_id": game.id, "user_id": u, "name": f"p{u}", "faction": None, "diplomacy": 3, "command": 2,
             "intrigue": 2, "roll": 2, "diplomacy_max": 3, "intrigue_max": 2, "misc_votes": 0, "active": True}
            for u in user_ids])
        found = await conn.execute(select(Player.user_id, Player.id).where(Player.game_id == game.id))
        ids = {user_id: player_id for user_id, player_id in found.all()}
        await conn.execute(insert(Holding), [
            {"game_id": game.id, "player_id": pid, "kind": kind, "name": f"{kind}-{u}", "grade": "average",
             "votes": 4 if kind == "elector" else 0, "homeworld": False}
            for u, pid in ids.items() for kind in ("elector", "planet")])
        await conn.execute(insert(Round), [
            {"game_id": game.id, "number": n, "crisis": f"crisis {n}", "status": "closed",
             "opened_at": now - timedelta(days=60 - n), "deadline": None, "closed_at": now - timedelta(days=59 - n),
             "result": {"outcome": "failed"}} for n in range(1, BIG_ROUNDS + 1)])
        rounds = (await conn.execute(select(Round.id).where(Round.game_id == game.id))).scalars().all()
        await conn.execute(insert(Ballot), [
            {"round_id": rid, "player_id": pid, "option": "aye", "declared": None, "revotes": 0, "received_at": now,
             "source_id": f"old-{rid}-{pid}"} for rid in rounds for pid in ids.values()])
        seq = 1
        rows = []
        for n in range(1, BIG_ROUNDS + 1):
            for u in user_ids:
                seq += 1
                rows.append({"game_id": game.id, "seq": seq, "kind": "BallotCast", "actor": u,
                             "payload": {"round": n, "option": "aye"}, "source_id": f"old-{n}-{u}", "at": now})
        await conn.execute(insert(Event), rows)
        await conn.execute(update(Game).where(Game.id == game.id).values(last_seq=seq, current_round=BIG_ROUNDS))
    await clerk.landsdraad.rounds.open_round(game.id, crisis="The big crisis", deadline=now + timedelta(days=1),
                                             actor=MOD)
    assert len(await clerk.landsdraad.ledger.players(game.id)) == BIG_PLAYERS
    return game.id


async def _cast(table: Any, game_id: int, user_id: int, text: str, source_id: str) -> list[str]:
    from engine.landsdraad.ballot import parse_ballot

    # on a SQLite file the ballot goes through the service's synchronous twin of the engine (engine/store/twin.py)
    twin = table.clerk._twin
    with statements(table.engine.sync_engine, *([twin] if twin is not None else [])) as seen:
        receipt = await table.clerk.landsdraad.ballots.cast_ballot(game_id, user_id=user_id, command=parse_ballot(text),
                                                                   received_at=table.clock.now(), source_id=source_id)
    assert not receipt.duplicate
    assert seen, "no statement counted: the ballot went through an engine nobody listened to"
    return seen


async def test_casting_a_vote_costs_the_same_statements_in_a_small_and_a_large_game(table: Any) -> None:
    for user_id in (101, 102, 103):
        await table.player(user_id, f"p{user_id}", 3, 2, 2, roll=2)
        await table.elector(user_id, f"elector-{user_id}", "average", 4)
    await table.open(deadline=timedelta(days=1))
    small_first = await _cast(table, table.game_id, 101, "Vote: Aye, 15", "small-1")
    small_revote = await _cast(table, table.game_id, 101, "Revote: Nay", "small-2")

    big = await _big_game(table)
    big_first = await _cast(table, big, 10_150, "Vote: Aye, 15", "big-1")
    big_revote = await _cast(table, big, 10_150, "Revote: Nay", "big-2")

    assert len(small_first) == len(big_first), (small_first, big_first)
    assert len(small_revote) == len(big_revote), (small_revote, big_revote)
    assert small_first == big_first  # the very same statements, not just as many
    assert small_revote == big_revote
    # a short transaction: the lock, ONE read (the duplicate check and the joined read), the writes: on SQLite
    # BEGIN IMMEDIATE (the lock), the read and three writes; on PostgreSQL no transaction around them (the unit is
    # optimistic, uow._optimistic_unit): the read, with the game's last_seq, and one write guarded by it (a
    # data-modifying WITH): two statements, two round trips
    postgres = table.engine.dialect.name == "postgresql"
    most = 2 if postgres else 5
    assert len(small_first) <= most, small_first
    assert len(small_revote) <= most, small_revote
    if postgres:
        for read, write in (small_first, small_revote):
            assert "read_seq" in read and "FOR UPDATE" not in read, read
            assert "games.last_seq = $" in write and "INSERT INTO ballots" in write, write
    votes = (await table.clerk.landsdraad.ledger.player(big, 10_150)).votes
    assert votes == 10 + 4 + 3  # base 2·3+2+2, elector 4, average planet 3, no bonus at D 3
    result = await table.clerk.landsdraad.rounds.close_round(big, actor=MOD)
    assert (result.aye, result.nay, result.abstain) == (0, votes, (BIG_PLAYERS - 1) * votes)


async def test_a_mylantium_choice_looks_the_faction_up_once(clerk: Any, clock: Any, db_engine: Any) -> None:
    """A Primary choice reads the chooser's Faction once in its transaction: first, so that a removed Faction's
    player is told so whatever is open (play-test Q4.2), and that row serves the choice too (it was read twice)."""
    from mylantium_table import MOD, republic

    from engine.mylantium.model import FactionCode

    rep = await republic(clerk, clock)
    await clerk.mylantium.add_candidate(rep.id, name="Lee", code=FactionCode.PL, charisma=7, actor=MOD)
    await clerk.mylantium.elections.start_election_round(rep.id, actor=MOD)
    await rep.open("primary", hours=24)
    twin = clerk._twin
    with statements(db_engine.sync_engine, *([twin] if twin is not None else [])) as seen:
        receipt = await rep.choose(FactionCode.PL, "primary", "Lee")
    assert receipt.choice == "Lee" and not receipt.duplicate
    lookups = [s for s in seen if "JOIN myl_factions" in s and "players.user_id" in s]
    assert len(lookups) == 1, lookups


async def test_a_dm_ballots_receipt_made_by_answer_with_is_owed_within_the_ballots_statements(table: Any) -> None:
    """The receipt of a DM ballot, made by the handler's ``AnswerWith`` (which owes what a form posts elsewhere with
    its write too: a crisis ballot posts nothing elsewhere), adds no statement on PostgreSQL (it is owed inside the
    guarded write) and one on SQLite (its insert in the ballot's transaction): the hot path gains nothing else."""
    from bot.actions.outbox import Answering, AnswerWith, reply
    from engine.landsdraad.ballot import parse_ballot
    from engine.service.owed import RECEIPT, Owed

    for user_id in (101, 102):
        await table.player(user_id, f"p{user_id}", 3, 2, 2, roll=2)
    await table.open(deadline=timedelta(days=1))
    bare = await _cast(table, table.game_id, 101, "Vote: Aye", "msg:1")
    answering = Answering(lambda item: Owed("user:102", None, RECEIPT, f"n-{item.text}", {"text": item.text},
                                            source_id="msg:2"))
    answered: AnswerWith[Any] = AnswerWith(answering, lambda receipt: [reply(f"Recorded {receipt.option}.")])
    twin = table.clerk._twin
    with statements(table.engine.sync_engine, *([twin] if twin is not None else [])) as seen:
        receipt = await table.clerk.landsdraad.ballots.cast_ballot(
            table.game_id, user_id=102, command=parse_ballot("Vote: Aye"), received_at=table.clock.now(),
            source_id="msg:2", answer=answered.owed)
    assert [row.owed.source_id for row in await table.clerk.outbox.owed()] == ["msg:2"]
    assert len(answered.out(receipt)) == 1 and len(answering.owed) == 1
    more = [s for s in seen if s not in bare]
    if table.engine.dialect.name == "postgresql":
        assert len(seen) == len(bare), (bare, seen)
    else:
        assert len(seen) == len(bare) + 1 and len(more) == 1 and "INSERT INTO owed_messages" in more[0], more
