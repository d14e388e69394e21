"""The Convocate card game's tables."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from engine.store.models import Base


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
