"""The Republic of Mylantium's tables."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from engine.store.models import Base, counter


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
    fervor: Mapped[int] = counter()
    president: Mapped[str | None] = mapped_column(String(2), nullable=True)
    monopolies: Mapped[int] = counter()
    income_tax: Mapped[int | None] = mapped_column(Integer, nullable=True)
    faction_taxes: Mapped[int] = counter()
    tariffs: Mapped[int] = counter()
    subsidies: Mapped[int] = counter()
    pensions: Mapped[int] = counter()
    wars: Mapped[int] = counter()
    unfunded_last_turn: Mapped[int] = counter()
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
    vp: Mapped[int] = counter()
    treasury: Mapped[int] = counter()
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
    ports: Mapped[int] = counter()
    cities: Mapped[int] = counter()
    temples: Mapped[int] = counter()
    villages: Mapped[int] = counter()
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
    """Every change of approval, Fervor or a Faction's VP, with its cause: the histories of the export, and the
    steps of ``/why fervor-level`` and ``/why approval-level``. ``event_seq``: the number of the event that recorded
    the change (``#41``); None for a change written before Clerk kept it (migration 0013)."""

    __tablename__ = "myl_history"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    turn: Mapped[int] = mapped_column(Integer)
    measure: Mapped[str] = mapped_column(String(16))
    cause: Mapped[str] = mapped_column(String(200))
    delta: Mapped[int] = mapped_column(Integer)
    value: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    event_seq: Mapped[int | None] = mapped_column(Integer, nullable=True)


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
    offered_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """When the coup offer open now (or last) was made: a `Coup:` DM sent before it meant an earlier offer."""
    __table_args__ = (UniqueConstraint("game_id", "number"), Index("ix_myl_chains_waiting_deadline", "waiting",
                                                                   "deadline"))


class MylContribution(Base):
    """A Faction's pledge to the current attempt of a chain (P1-22); MOD until resolution (P1-19)."""

    __tablename__ = "myl_contributions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    chain_id: Mapped[int] = mapped_column(ForeignKey("myl_chains.id", ondelete="CASCADE"))
    attempt: Mapped[int] = mapped_column(Integer)
    faction_id: Mapped[int] = mapped_column(ForeignKey("myl_factions.id", ondelete="CASCADE"))
    to_crt: Mapped[int] = counter()
    to_vanguard: Mapped[int] = counter()
    received_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    source_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    __table_args__ = (UniqueConstraint("chain_id", "attempt", "faction_id"),)
