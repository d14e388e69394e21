"""``dice.roll_many`` (a close's d6 factions in three statements) rolls exactly what ``dice.roll`` in turn rolls: the
same faces, indexes and rows, after earlier rolls of the scope and with a purpose asked for twice."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from engine.service.clerk import RULESETS  # noqa: F401  (every ruleset's tables in Base.metadata)
from engine.service.clock import RandomDice
from engine.service.dice import GAME_SCOPE, roll, roll_many, seal, seed_row, seeds_and_rolls
from engine.store.models import Base, DiceRoll, Game

NOW = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)
WANTED = [("faction Boars", 6), ("faction Wolves", 6), ("faction Boars", 6), ("faction Owls", 3)]


@contextmanager
def _game() -> Iterator[tuple[Session, Game]]:
    """A session on a new in-memory database with one game."""
    engine = create_engine("sqlite://")
    Base.metadata.create_all(engine)
    try:
        with Session(engine) as session:
            game = Game(guild_id=1, channel_id=2, name="sirius", ruleset="landsdraad", settings={}, created_at=NOW)
            session.add(game)
            session.flush()
            yield session, game
    finally:
        engine.dispose()


def _rolled(one_by_one: bool) -> tuple[list[int], list[tuple[str, int, int, int]]]:
    with _game() as (session, game):
        dice = RandomDice(7)
        roll(session, dice, game.id, 1, "faction Boars", 6, NOW)  # an earlier roll of the scope
        if one_by_one:
            faces = [roll(session, dice, game.id, 1, p, s, NOW) for p, s in WANTED]
        else:
            faces, seed = roll_many(session, dice, game.id, 1, WANTED, NOW)
            assert seed.scope == 1 and seed.game_id == game.id
        rows = session.execute(select(DiceRoll.purpose, DiceRoll.index, DiceRoll.sides, DiceRoll.face)
                               .order_by(DiceRoll.id)).all()
    return faces, [(str(p), int(i), int(s), int(f)) for p, i, s, f in rows]


def test_roll_many_is_roll_in_turn() -> None:
    many = _rolled(one_by_one=False)
    assert many == _rolled(one_by_one=True)
    assert [index for purpose, index, _, _ in many[1] if purpose == "faction Boars"] == [0, 1, 2]


def test_seeds_and_rolls_reads_what_the_close_needs_of_the_dice() -> None:
    """pgclose: the round's seed, the game's and the round's rolls in one statement give the counts by purpose
    (the next index of each), the last seal of each sealed purpose and both seeds; a deferred ``roll_many`` makes
    the same rows as one that inserts them."""
    with _game() as (session, game):
        dice = RandomDice(7)
        roll(session, dice, game.id, GAME_SCOPE, "base d3 p1", 3, NOW)  # the game's seed, with a roll of its own
        assert seeds_and_rolls(session, game.id, 1) == ({GAME_SCOPE: seed_row(session, game.id, GAME_SCOPE)}, {}, {})
        roll(session, dice, game.id, 1, "faction Boars", 6, NOW)
        seal(session, dice, game.id, 1, "faction Owls", 6, 2, NOW)
        last = seal(session, dice, game.id, 1, "faction Owls", 6, 5, NOW)
        roll(session, dice, game.id, 2, "faction Boars", 6, NOW)  # another round's: not counted
        seeds, counts, seals = seeds_and_rolls(session, game.id, 1)
        assert set(seeds) == {GAME_SCOPE, 1} and seeds[1] is seed_row(session, game.id, 1)
        assert counts == {"faction Boars": 1, "faction Owls": 2} and seals == {"faction Owls": last}
        deferred: list[dict[str, object]] = []
        faces, _ = roll_many(session, dice, game.id, 1, WANTED, NOW, (seeds[1], counts), deferred)
        assert [(r["purpose"], r["index"], r["face"]) for r in deferred] == [
            ("faction Boars", 1, faces[0]), ("faction Wolves", 0, faces[1]), ("faction Boars", 2, faces[2]),
            ("faction Owls", 2, faces[3])]
        assert len(session.execute(select(DiceRoll).where(DiceRoll.scope == 1)).scalars().all()) == 3  # none added
