"""The Landsdraad game's tables: holdings, rounds and their ballots, offices and AG elections, player votes,
registries, transfers, audits, perks and victory points."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, Boolean, DateTime, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from engine.store.models import Base, counter


class Holding(Base):
    """An Elector or a planet a player controls (R0-03, R0-04)."""

    __tablename__ = "holdings"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    name: Mapped[str] = mapped_column(String(100))
    grade: Mapped[str] = mapped_column(String(16))
    votes: Mapped[int] = mapped_column(Integer, default=0)
    homeworld: Mapped[bool] = mapped_column(Boolean, default=False)
    __table_args__ = (UniqueConstraint("game_id", "name"),)


class Round(Base):
    __tablename__ = "rounds"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    crisis: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16), default="open")
    opened_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    deadline: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    paused_left: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """Seconds the deadline had left when a moderator paused the round (its deadline is then None)."""
    __table_args__ = (UniqueConstraint("game_id", "number"), Index("ix_rounds_status_deadline", "status", "deadline"))


class TempFactionRow(Base):
    __tablename__ = "temp_factions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(100))
    votes: Mapped[int] = mapped_column(Integer)
    stance: Mapped[str] = mapped_column(String(16))
    table: Mapped[str | None] = mapped_column(String(200), nullable=True)
    roll: Mapped[int | None] = mapped_column(Integer, nullable=True)
    vote: Mapped[str | None] = mapped_column(String(16), nullable=True)
    __table_args__ = (UniqueConstraint("round_id", "name"),)


class Ballot(Base):
    """One row per player per round, updated in place; the source message id is kept."""

    __tablename__ = "ballots"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    option: Mapped[str] = mapped_column(String(16))
    declared: Mapped[int | None] = mapped_column(Integer, nullable=True)
    revotes: Mapped[int] = mapped_column(Integer, default=0)
    received_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    source_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    __table_args__ = (UniqueConstraint("round_id", "player_id"),)


class Office(Base):
    """Who holds a public office (the Adjutant General); ``player_id`` None when vacant."""

    __tablename__ = "offices"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    office: Mapped[str] = mapped_column(String(32))
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="SET NULL"), nullable=True)
    since: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    __table_args__ = (UniqueConstraint("game_id", "office"),)


class AgElection(Base):
    __tablename__ = "ag_elections"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    reason: Mapped[str] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(16), default="open")
    opened_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    closes_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """None: closes with the round (after No Confidence, R0-35)."""
    closes_with_round: Mapped[int | None] = mapped_column(Integer, nullable=True)
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    winner_id: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="SET NULL"), nullable=True)
    thread_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    __table_args__ = (
        UniqueConstraint("game_id", "number"),
        Index("ix_ag_elections_status_closes", "status", "closes_at"),
    )


class AgBallotRow(Base):
    __tablename__ = "ag_ballots"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    election_id: Mapped[int] = mapped_column(ForeignKey("ag_elections.id", ondelete="CASCADE"))
    voter_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    candidate_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    cast_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    source_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    __table_args__ = (UniqueConstraint("election_id", "voter_id"),)


class PlayerVoteRow(Base):
    """A Player Majority Vote: one subject and target in one round (R0-44)."""

    __tablename__ = "player_votes"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    round_number: Mapped[int] = mapped_column(Integer)
    subject: Mapped[str] = mapped_column(String(32))
    target: Mapped[str] = mapped_column(String(64), default="")
    details: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    status: Mapped[str] = mapped_column(String(16), default="open")
    needed: Mapped[int | None] = mapped_column(Integer, nullable=True)
    opened_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    passed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    decided_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    decided_by: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    thread_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    __table_args__ = (UniqueConstraint("game_id", "round_number", "subject", "target"),)


class SupportRow(Base):
    __tablename__ = "player_vote_supports"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    vote_id: Mapped[int] = mapped_column(ForeignKey("player_votes.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    source_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    __table_args__ = (UniqueConstraint("vote_id", "player_id"),)


class EmbargoRow(Base):
    __tablename__ = "embargoes"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    by_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    on_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    since: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    __table_args__ = (UniqueConstraint("game_id", "by_id", "on_id"),)


class KanlyRow(Base):
    """Kanly between two players; ``first_id`` < ``second_id``."""

    __tablename__ = "kanly"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    first_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    second_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    since: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    __table_args__ = (UniqueConstraint("game_id", "first_id", "second_id"),)


class TransitRow(Base):
    """Forces or assassins en route against a kanly rival, with the Guild transport fee paid (R0-60)."""

    __tablename__ = "kanly_transit"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    owner_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    target_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    guild_fee: Mapped[int] = mapped_column(Integer)
    description: Mapped[str] = mapped_column(String(200), default="")
    returned: Mapped[bool] = mapped_column(Boolean, default=False)


class TransferRow(Base):
    """A Transfer or Transfer Funds action. Entries are never changed; a correction is a new entry."""

    __tablename__ = "transfers"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    round_number: Mapped[int] = mapped_column(Integer)
    from_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    to_id: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="SET NULL"), nullable=True)
    recipient: Mapped[str] = mapped_column(String(100))
    kind: Mapped[str] = mapped_column(String(16))
    amount: Mapped[int | None] = mapped_column(Integer, nullable=True)
    item: Mapped[str | None] = mapped_column(String(200), nullable=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    recorded_by: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    corrects_id: Mapped[int | None] = mapped_column(ForeignKey("transfers.id"), nullable=True)
    note: Mapped[str | None] = mapped_column(String(200), nullable=True)
    source_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    __table_args__ = (Index("ix_transfers_game_from_round", "game_id", "from_id", "round_number"),)


class AuditRow(Base):
    __tablename__ = "audits"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    round_number: Mapped[int] = mapped_column(Integer)
    target_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    rounds: Mapped[dict[str, Any]] = mapped_column(JSON)
    fee: Mapped[int] = mapped_column(Integer)
    share: Mapped[int] = mapped_column(Integer)
    vote_id: Mapped[int | None] = mapped_column(ForeignKey("player_votes.id", ondelete="SET NULL"), nullable=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PerkRow(Base):
    """A perk held for a round (R0-70..R0-73); never announced."""

    __tablename__ = "perks"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    round_number: Mapped[int] = mapped_column(Integer)
    perk: Mapped[str] = mapped_column(String(32))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    used: Mapped[bool] = mapped_column(Boolean, default=False)
    __table_args__ = (UniqueConstraint("game_id", "round_number", "perk"),)


class VictoryHoldings(Base):
    """What the victory categories and singular awards count for one player (rules-spec §3, R3-06, R3-10):
    Force units, Primary Assets by kind, income, CHOAM shares, wealth, heroes, and the game-long counters.
    Planets and votes are not here: they come from ``holdings`` and the vote ledger."""

    __tablename__ = "victory_holdings"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), unique=True)
    militia: Mapped[int] = counter()
    standard: Mapped[int] = counter()
    upgraded: Mapped[int] = counter()
    elite: Mapped[int] = counter()
    weapons_factory: Mapped[int] = counter()
    agricultural_fief: Mapped[int] = counter()
    manufacturing_facility: Mapped[int] = counter()
    space_port: Mapped[int] = counter()
    gem_mine: Mapped[int] = counter()
    ore_mine: Mapped[int] = counter()
    spice: Mapped[int] = counter()
    soostone: Mapped[int] = counter()
    sapho_juice: Mapped[int] = counter()
    semuta: Mapped[int] = counter()
    income: Mapped[int] = counter()
    stock: Mapped[int] = counter()
    wealth: Mapped[int] = counter()
    heroes: Mapped[int] = counter()
    seizures: Mapped[int] = counter()
    raids: Mapped[int] = counter()
    house_raids: Mapped[int] = counter()
    assassinations: Mapped[int] = counter()
    electors_bribed: Mapped[int] = counter()
    troop_movements: Mapped[int] = counter()


class VictoryGoal(Base):
    """A goal with fixed VP (R3-15), numbered per player; PRIVATE to its player (P3-09)."""

    __tablename__ = "victory_goals"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    description: Mapped[str] = mapped_column(String(300))
    vp: Mapped[int] = mapped_column(Integer)
    achieved: Mapped[bool] = mapped_column(Boolean, default=False)
    added_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    achieved_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    __table_args__ = (UniqueConstraint("player_id", "number"),)


class PrestigeAward(Base):
    """Prestige VP a moderator awarded, with the reason (R3-16); a negative award corrects an earlier one."""

    __tablename__ = "prestige_awards"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    vp: Mapped[int] = mapped_column(Integer)
    reason: Mapped[str] = mapped_column(String(200))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    awarded_by: Mapped[int | None] = mapped_column(BigInteger, nullable=True)


class VictoryState(Base):
    """A game's victory settings and end: the percentages and award weights changed from their defaults
    (P3-15), the Luxury Good locations in play (R3-12), the announced majority holder (R3-20), and, once scored,
    how the game ended and the final Pot."""

    __tablename__ = "victory"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), unique=True)
    percentages: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    weights: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    luxuries: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    majority_player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="SET NULL"),
                                                           nullable=True)
    ended_by: Mapped[str | None] = mapped_column(String(16), nullable=True)
    chancellor_id: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="SET NULL"), nullable=True)
    penalty: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    pot: Mapped[str | None] = mapped_column(String(32), nullable=True)
    unawarded: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    scored_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class FinalScoreRow(Base):
    """One player's final score (R3-17..R3-19), stored when the game is scored."""

    __tablename__ = "final_scores"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    categories: Mapped[dict[str, Any]] = mapped_column(JSON)
    singular: Mapped[dict[str, Any]] = mapped_column(JSON)
    goals: Mapped[int] = mapped_column(Integer)
    prestige: Mapped[int] = mapped_column(Integer)
    total: Mapped[int] = mapped_column(Integer)
    place: Mapped[int] = mapped_column(Integer)
    title: Mapped[str | None] = mapped_column(String(64), nullable=True)
    __table_args__ = (UniqueConstraint("game_id", "player_id"),)
