"""Relational tables for what moderators query, plus the append-only ``events`` audit trail."""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSON, datetime: DateTime(timezone=True)}


class Game(Base):
    __tablename__ = "games"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int] = mapped_column(BigInteger)
    channel_id: Mapped[int] = mapped_column(BigInteger, unique=True)
    name: Mapped[str] = mapped_column(String(100))
    ruleset: Mapped[str] = mapped_column(String(32))
    settings: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    moderator_role_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    current_round: Mapped[int] = mapped_column(Integer, default=0)
    last_seq: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    status: Mapped[str] = mapped_column(String(16), default="active", server_default="active")
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    __table_args__ = (UniqueConstraint("guild_id", "name"),)


class Player(Base):
    __tablename__ = "players"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(BigInteger)
    name: Mapped[str] = mapped_column(String(100))
    faction: Mapped[str | None] = mapped_column(String(100), nullable=True)
    diplomacy: Mapped[int] = mapped_column(Integer)
    command: Mapped[int] = mapped_column(Integer)
    intrigue: Mapped[int] = mapped_column(Integer)
    roll: Mapped[int] = mapped_column(Integer)
    diplomacy_max: Mapped[int] = mapped_column(Integer)
    intrigue_max: Mapped[int] = mapped_column(Integer)
    misc_votes: Mapped[int] = mapped_column(Integer, default=0)
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    __table_args__ = (UniqueConstraint("game_id", "user_id"), Index("ix_players_user_id", "user_id"))


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


class Event(Base):
    """The append-only audit trail: one row per accepted command."""

    __tablename__ = "events"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(48))
    actor: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    source_id: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    __table_args__ = (UniqueConstraint("game_id", "seq"),)


class PostedMessage(Base):
    """A message the bot keeps up to date (a pinned tally, a running count): its key and where it is."""

    __tablename__ = "posted_messages"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    key: Mapped[str] = mapped_column(String(100))
    channel_id: Mapped[int] = mapped_column(BigInteger)
    message_id: Mapped[int] = mapped_column(BigInteger)
    __table_args__ = (UniqueConstraint("game_id", "key"),)


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


def _count() -> Mapped[int]:
    return mapped_column(Integer, default=0, server_default="0")


class VictoryHoldings(Base):
    """What the victory categories and singular awards count for one player (rules-spec §3, R3-06, R3-10):
    Force units, Primary Assets by kind, income, CHOAM shares, wealth, heroes, and the game-long counters.
    Planets and votes are not here: they come from ``holdings`` and the vote ledger."""

    __tablename__ = "victory_holdings"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), unique=True)
    militia: Mapped[int] = _count()
    standard: Mapped[int] = _count()
    upgraded: Mapped[int] = _count()
    elite: Mapped[int] = _count()
    weapons_factory: Mapped[int] = _count()
    agricultural_fief: Mapped[int] = _count()
    manufacturing_facility: Mapped[int] = _count()
    space_port: Mapped[int] = _count()
    gem_mine: Mapped[int] = _count()
    ore_mine: Mapped[int] = _count()
    spice: Mapped[int] = _count()
    soostone: Mapped[int] = _count()
    sapho_juice: Mapped[int] = _count()
    semuta: Mapped[int] = _count()
    income: Mapped[int] = _count()
    stock: Mapped[int] = _count()
    wealth: Mapped[int] = _count()
    heroes: Mapped[int] = _count()
    seizures: Mapped[int] = _count()
    raids: Mapped[int] = _count()
    house_raids: Mapped[int] = _count()
    assassinations: Mapped[int] = _count()
    electors_bribed: Mapped[int] = _count()
    troop_movements: Mapped[int] = _count()


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


# --- Mylantium ---


class MylGovernment(Base):
    """A Mylantium game's government page and turn: approval (None until set: the ``initial_approval`` setting,
    P1-20), Fervor, the Faction that controlled the Presidency in the last Business Phase (R1-20), what is in play
    (R1-21, R1-31), and where the turn is: ``election_started`` (the Election Round began, with its lock snapshot,
    P1-04) and ``business_closed``."""

    __tablename__ = "myl_government"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), unique=True)
    turn: Mapped[int] = mapped_column(Integer, default=1)
    approval: Mapped[int | None] = mapped_column(Integer, nullable=True)
    fervor: Mapped[int] = _count()
    president: Mapped[str | None] = mapped_column(String(2), nullable=True)
    monopolies: Mapped[int] = _count()
    income_tax: Mapped[int | None] = mapped_column(Integer, nullable=True)
    faction_taxes: Mapped[int] = _count()
    tariffs: Mapped[int] = _count()
    subsidies: Mapped[int] = _count()
    pensions: Mapped[int] = _count()
    wars: Mapped[int] = _count()
    unfunded_last_turn: Mapped[int] = _count()
    election_started: Mapped[bool] = mapped_column(Boolean, default=False)
    business_closed: Mapped[bool] = mapped_column(Boolean, default=False)
    snapshot: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)


class MylFaction(Base):
    """A Faction (§2.1): its player, party, VP and treasury; where its votes come from (``per`` building kind and
    ``entered`` per territory, R1-02); the turn it last realigned."""

    __tablename__ = "myl_factions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), unique=True)
    code: Mapped[str] = mapped_column(String(2))
    party: Mapped[str] = mapped_column(String(16))
    vp: Mapped[int] = _count()
    treasury: Mapped[int] = _count()
    in_play: Mapped[bool] = mapped_column(Boolean, default=True)
    realigned_turn: Mapped[int | None] = mapped_column(Integer, nullable=True)
    per: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    entered: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    __table_args__ = (UniqueConstraint("game_id", "code"),)


class MylCandidate(Base):
    """A Candidate (R1-03, R1-10): its Faction, its party fixed at creation, Charisma 1..13; ``running`` in the
    coming elections; ``discarded`` when its Faction lost it (R1-13)."""

    __tablename__ = "myl_candidates"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    faction_id: Mapped[int] = mapped_column(ForeignKey("myl_factions.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(100))
    party: Mapped[str] = mapped_column(String(16))
    charisma: Mapped[int] = mapped_column(Integer)
    running: Mapped[bool] = mapped_column(Boolean, default=True)
    discarded: Mapped[bool] = mapped_column(Boolean, default=False)
    __table_args__ = (UniqueConstraint("game_id", "name"),)


class MylTerritory(Base):
    """A territory and how many of each building are in play there; ``names`` the named ones, by kind."""

    __tablename__ = "myl_territories"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(100))
    ports: Mapped[int] = _count()
    cities: Mapped[int] = _count()
    temples: Mapped[int] = _count()
    villages: Mapped[int] = _count()
    names: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    __table_args__ = (UniqueConstraint("game_id", "name"),)


class MylUnit(Base):
    """A military unit of the Republic: maintenance and purchase cost (entered, A1-09) and where it is."""

    __tablename__ = "myl_units"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(100))
    territory: Mapped[str] = mapped_column(String(100))
    maintenance: Mapped[int] = mapped_column(Integer)
    cost: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16))
    __table_args__ = (UniqueConstraint("game_id", "name"),)


class MylElection(Base):
    """A Primary or General Election of a turn; ``result`` holds the totals and winner once closed."""

    __tablename__ = "myl_elections"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    turn: Mapped[int] = mapped_column(Integer)
    stage: Mapped[str] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(16), default="open")
    opened_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    deadline: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    __table_args__ = (UniqueConstraint("game_id", "turn", "stage"),
                      Index("ix_myl_elections_status_deadline", "status", "deadline"))


class MylChoice(Base):
    """A Faction's choice in an election (a candidate's name or a party), one row per Faction, updated in place."""

    __tablename__ = "myl_choices"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    election_id: Mapped[int] = mapped_column(ForeignKey("myl_elections.id", ondelete="CASCADE"))
    faction_id: Mapped[int] = mapped_column(ForeignKey("myl_factions.id", ondelete="CASCADE"))
    choice: Mapped[str] = mapped_column(String(100))
    received_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    source_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    __table_args__ = (UniqueConstraint("election_id", "faction_id"),)


class MylHappening(Base):
    """Something the moderator recorded in a turn (R1-21, R1-31); applied at the Business Phase's close."""

    __tablename__ = "myl_happenings"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    turn: Mapped[int] = mapped_column(Integer)
    what: Mapped[str] = mapped_column(String(32))
    amount: Mapped[int] = mapped_column(Integer)
    note: Mapped[str | None] = mapped_column(String(200), nullable=True)
    before: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    """What was in play before it, so that undoing it restores the counts exactly."""
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class MylHistory(Base):
    """Every change of approval, Fervor or a Faction's VP, with its cause: the histories of the export."""

    __tablename__ = "myl_history"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    turn: Mapped[int] = mapped_column(Integer)
    measure: Mapped[str] = mapped_column(String(16))
    cause: Mapped[str] = mapped_column(String(200))
    delta: Mapped[int] = mapped_column(Integer)
    value: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class MylChain(Base):
    """A chain of Revolutions and coups (R1-40..R1-46): the pure chain's state, and the contributions' deadline."""

    __tablename__ = "myl_chains"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    turn: Mapped[int] = mapped_column(Integer)
    waiting: Mapped[str] = mapped_column(String(16))
    state: Mapped[dict[str, Any]] = mapped_column(JSON)
    deadline: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    opened_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    __table_args__ = (UniqueConstraint("game_id", "number"), Index("ix_myl_chains_waiting_deadline", "waiting",
                                                                   "deadline"))


class MylContribution(Base):
    """A Faction's pledge to the current attempt of a chain (P1-22); MOD until resolution (P1-19)."""

    __tablename__ = "myl_contributions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    chain_id: Mapped[int] = mapped_column(ForeignKey("myl_chains.id", ondelete="CASCADE"))
    attempt: Mapped[int] = mapped_column(Integer)
    faction_id: Mapped[int] = mapped_column(ForeignKey("myl_factions.id", ondelete="CASCADE"))
    to_crt: Mapped[int] = _count()
    to_vanguard: Mapped[int] = _count()
    received_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    source_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    __table_args__ = (UniqueConstraint("chain_id", "attempt", "faction_id"),)


# --- Convocate ---


class CvPlayer(Base):
    """A Convocate player's seat at the table: sovereignty, turn order, Directive, Homeworld, Resource Pool."""

    __tablename__ = "cv_players"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), unique=True)
    sovereignty: Mapped[str] = mapped_column(String(16))
    turn_order: Mapped[int] = mapped_column(Integer)
    directive: Mapped[str | None] = mapped_column(String(32), nullable=True)
    homeworld: Mapped[str | None] = mapped_column(String(100), nullable=True)
    pool: Mapped[int] = mapped_column(Integer, default=0)
    temp: Mapped[int] = mapped_column(Integer, default=0)
    repealed_turn: Mapped[int | None] = mapped_column(Integer, nullable=True)


class CvCard(Base):
    """A card on the Convocate board (R4-01..R4-04, R4-09); ``faces`` holds a Seat's faces."""

    __tablename__ = "cv_cards"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(100))
    kind: Mapped[str] = mapped_column(String(16))
    controller_id: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="SET NULL"), nullable=True)
    owner_id: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="SET NULL"), nullable=True)
    vote: Mapped[int] = mapped_column(Integer, default=0)
    pallarch: Mapped[bool] = mapped_column(Boolean, default=False)
    morality: Mapped[str | None] = mapped_column(String(32), nullable=True)
    penalty: Mapped[str | None] = mapped_column(String(200), nullable=True)
    at: Mapped[str | None] = mapped_column(String(100), nullable=True)
    readied: Mapped[bool] = mapped_column(Boolean, default=True)
    on_map: Mapped[bool] = mapped_column(Boolean, default=True)
    suppressed: Mapped[bool] = mapped_column(Boolean, default=False)
    bonus: Mapped[int] = mapped_column(Integer, default=0)
    sovereignty: Mapped[str | None] = mapped_column(String(16), nullable=True)
    faces: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    face: Mapped[str | None] = mapped_column(String(32), nullable=True)
    __table_args__ = (UniqueConstraint("game_id", "name"),)


class CvFactor(Base):
    """A Galactic Factor and its value, −4..+4 (P4-02); GOVT among them."""

    __tablename__ = "cv_factors"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(32))
    value: Mapped[int] = mapped_column(Integer, default=0)
    __table_args__ = (UniqueConstraint("game_id", "name"),)


class CvTurn(Base):
    """Whose turn it is and in which Phase (Ready, Action, Admin); none before the first turn."""

    __tablename__ = "cv_turns"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), unique=True)
    active_id: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="SET NULL"), nullable=True)
    phase: Mapped[str | None] = mapped_column(String(16), nullable=True)
    turn: Mapped[int] = mapped_column(Integer, default=0)


class CvStatute(Base):
    """A Statute declared (R4-11, R4-12): in force, destroyed by its controller, or repealed."""

    __tablename__ = "cv_statutes"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(100))
    controller_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    owner_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    section: Mapped[int] = mapped_column(Integer)
    sections: Mapped[dict[str, Any]] = mapped_column(JSON)
    changed_turn: Mapped[int | None] = mapped_column(Integer, nullable=True)
    status: Mapped[str] = mapped_column(String(16), default="in force")
    declared_by: Mapped[str] = mapped_column(String(100))
    seat: Mapped[str] = mapped_column(String(100))
    cost: Mapped[str | None] = mapped_column(String(200), nullable=True)
    declared_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    declared_turn: Mapped[int] = mapped_column(Integer)
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    ended_turn: Mapped[int | None] = mapped_column(Integer, nullable=True)


class CvMotion(Base):
    """A Motion or a Motion of Repeal (R4-13..R4-17): who moved it, the offer to second and its answers, and the
    outcome. ``status``: offering, or resolved."""

    __tablename__ = "cv_motions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    name: Mapped[str] = mapped_column(String(100))
    mover_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    convocant: Mapped[str] = mapped_column(String(100))
    route: Mapped[str] = mapped_column(String(16))
    details: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    turn: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16), default="offering")
    offer: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    offer_to: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="SET NULL"), nullable=True)
    offer_deadline: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    seconder_id: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="SET NULL"), nullable=True)
    seconder: Mapped[str | None] = mapped_column(String(100), nullable=True)
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    statute_id: Mapped[int | None] = mapped_column(ForeignKey("cv_statutes.id", ondelete="SET NULL"), nullable=True)
    moved_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    resolved_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    __table_args__ = (
        UniqueConstraint("game_id", "number"),
        Index("ix_cv_motions_status_offer_deadline", "status", "offer_deadline"),
    )


class PendingDm(Base):
    """A DM that fits several of its sender's games and named none, kept until they choose the game from the menu
    they were answered with (bot/actions/dm_choice.py): delivery bookkeeping, not an event of any game."""

    __tablename__ = "pending_dms"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(BigInteger)
    source_id: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    text: Mapped[str] = mapped_column(Text)
    sent_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Lease(Base):
    """A named lease one process holds until ``expires_at`` (renewed while it runs): the deadline scheduler's
    ``deadlines`` lease makes one process of a deployment do the timed work (``engine.service.lease``)."""

    __tablename__ = "leases"
    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    holder: Mapped[str] = mapped_column(String(200))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class OwedMessage(Base):
    """A message the bot owes Discord (a receipt, a reminder, an announcement, an edit of a kept message), kept until
    it is delivered so that a restart resumes what was owed (bot/discord/outbox_worker.py, docs/reliability.md).
    ``lane`` orders delivery: one lane per channel or DM, sent in ``id`` order. ``nonce`` is the Discord nonce it is
    sent with (``enforce_nonce``), so a send repeated after a kill is dropped by Discord. ``coalesce`` marks what only
    its latest text is needed of (the edits of one kept message): owing a new one supersedes the unsent older ones.
    ``source_id`` is the message this answers (``msg:<id>``): a committed DM ballot with no row is owed its receipt
    at start. ``outcome`` is null while owed, then ``sent``, ``superseded`` or ``undeliverable``."""

    __tablename__ = "owed_messages"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    lane: Mapped[str] = mapped_column(String(160))
    channel_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    priority: Mapped[int] = mapped_column(Integer)
    nonce: Mapped[str] = mapped_column(String(25), unique=True)
    coalesce: Mapped[str | None] = mapped_column(String(160), nullable=True, index=True)
    source_id: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    body: Mapped[dict[str, Any]] = mapped_column(JSON)
    owed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    outcome: Mapped[str | None] = mapped_column(String(16), nullable=True)
    done_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    __table_args__ = (Index("ix_owed_messages_waiting", "outcome", "priority", "id"),)
