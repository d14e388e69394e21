"""``dice.roll_many`` (a close's d6 factions in three statements) rolls exactly what ``dice.roll`` in turn rolls: the
same faces, indexes and rows, after earlier rolls of the scope and with a purpose asked for twice."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from engine.service.clerk import RULESETS  # noqa: F401  (every ruleset's tables in Base.metadata)
from engine.service.clock import RandomDice
from engine.service.dice import roll, roll_many
from engine.store.models import Base, DiceRoll, Game

NOW = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)
WANTED = [("faction Boars", 6), ("faction Wolves", 6), ("faction Boars", 6), ("faction Owls", 3)]


def _rolled(one_by_one: bool) -> tuple[list[int], list[tuple[str, int, int, int]]]:
    engine = create_engine("sqlite://")
    Base.metadata.create_all(engine)
    with Session(engine) as session:
        game = Game(guild_id=1, channel_id=2, name="sirius", ruleset="landsdraad", settings={}, created_at=NOW)
        session.add(game)
        session.flush()
        dice = RandomDice(7)
        roll(session, dice, game.id, 1, "faction Boars", 6, NOW)  # an earlier roll of the scope
        if one_by_one:
            faces = [roll(session, dice, game.id, 1, p, s, NOW) for p, s in WANTED]
        else:
            faces, seed = roll_many(session, dice, game.id, 1, WANTED, NOW)
            assert seed.scope == 1 and seed.game_id == game.id
        rows = session.execute(select(DiceRoll.purpose, DiceRoll.index, DiceRoll.sides, DiceRoll.face)
                               .order_by(DiceRoll.id)).all()
    engine.dispose()
    return faces, [(str(p), int(i), int(s), int(f)) for p, i, s, f in rows]


def test_roll_many_is_roll_in_turn() -> None:
    many = _rolled(one_by_one=False)
    assert many == _rolled(one_by_one=True)
    assert [index for purpose, index, _, _ in many[1] if purpose == "faction Boars"] == [0, 1, 2]
