"""Relational tables for what moderators query, plus the append-only ``events`` audit trail: here the tables every
game has (games, players, events, posts, pending DMs, leases, the outbox, the running processes); each ruleset's own
tables are in its module of this package (``landsdraad``, ``mylantium``, ``convocate``)."""

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
    false,
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


def counter() -> Mapped[int]:
    """A count column: 0 until changed, also for rows that existed before the column did."""
    return mapped_column(Integer, default=0, server_default="0")


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
    removed: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """``/player remove``: the player left the game (also inactive); the row stays, for names in the history."""
    __table_args__ = (UniqueConstraint("game_id", "user_id"), Index("ix_players_user_id", "user_id"))


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


class PendingDm(Base):
    """A DM that fits several of its sender's games and named none, kept until they choose the game from the menu
    they were answered with (bot/actions/dm_choice.py): delivery bookkeeping, not an event of any game."""

    __tablename__ = "pending_dms"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(BigInteger)
    source_id: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    text: Mapped[str] = mapped_column(Text)
    sent_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ClosedDm(Base):
    """A user whose DMs refused the bot (Discord 403): no more DMs are attempted to them until they DM the bot or a
    moderator runs ``/player dms`` (bot/discord/delivery.py): delivery bookkeeping, not an event of any game."""

    __tablename__ = "closed_dms"
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    since: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class DmChannel(Base):
    """A user's DM channel with the bot, written once when the bot first learns it (from the outgoing queue's rows at
    a start, or when it asks Discord to open one): the catch-up of the DMs sent while the bot was offline reads their
    history without a create-DM request (bot/discord/catch_up.py, engine/service/dm_channels.py). Delivery
    bookkeeping, not an event of any game: no export carries it (docs/export.md)."""

    __tablename__ = "dm_channels"
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    channel_id: Mapped[int] = mapped_column(BigInteger)


class GameMark(Base):
    """What the bot noted about a game outside its ledger, one value per key: that its channel was found deleted
    and the moderators told (``channel_lost``: the channel's id), that its channel was told the bot cannot read
    message text (``unread``). Delivery bookkeeping, not an event of the game (engine/service/marks.py)."""

    __tablename__ = "game_marks"
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    key: Mapped[str] = mapped_column(String(48), primary_key=True)
    value: Mapped[str] = mapped_column(String(200))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class DiceSeed(Base):
    """The secret seed of a game's dice for one ``scope`` (a round's number; 0 for the rolls outside rounds, the base
    d3s), its salt and its commitment (docs/dice.md). Written once; ``revealed_at`` set when it is revealed. Until
    then the seed and salt are shown nowhere (not to moderators, not in an export)."""

    __tablename__ = "dice_seeds"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    scope: Mapped[int] = mapped_column(Integer)
    seed: Mapped[str] = mapped_column(String(64))
    salt: Mapped[str] = mapped_column(String(64))
    commitment: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    revealed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    __table_args__ = (UniqueConstraint("game_id", "scope"),)


class DiceRoll(Base):
    """One roll under a game's seed of ``scope``: its name (``purpose``), index, die, face; ``sealed`` is the seal of
    a face a moderator set instead (docs/dice.md)."""

    __tablename__ = "dice_rolls"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    scope: Mapped[int] = mapped_column(Integer)
    purpose: Mapped[str] = mapped_column(String(200))
    index: Mapped[int] = mapped_column(Integer)
    sides: Mapped[int] = mapped_column(Integer)
    face: Mapped[int] = mapped_column(Integer)
    sealed: Mapped[str | None] = mapped_column(String(64), nullable=True)
    __table_args__ = (UniqueConstraint("game_id", "scope", "purpose", "index"),)


class Lease(Base):
    """A named lease one process holds until ``expires_at`` (renewed while it runs): the deadline scheduler's
    ``deadlines`` lease makes one process of a deployment do the timed work (``engine.service.lease``)."""

    __tablename__ = "leases"
    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    holder: Mapped[str] = mapped_column(String(200))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ProcessRow(Base):
    """A bot process running on this database (``python -m bot run``) and the Discord shards it reads, written at its
    start, renewed while it runs (``seen_at``) and removed at a clean stop; a start that finds another live process
    reading any of its shards refuses to run (``engine.service.processes``, docs/deploy.md). ``token`` is this run's
    own (two processes may share an ``instance`` name); ``shard_count`` null is an unsharded client, ``shard_ids``
    null all of the count's shards, else the ids separated by commas."""

    __tablename__ = "processes"
    token: Mapped[str] = mapped_column(String(32), primary_key=True)
    instance: Mapped[str] = mapped_column(String(200))
    host: Mapped[str] = mapped_column(String(200))
    pid: Mapped[int] = mapped_column(Integer)
    shard_count: Mapped[int | None] = mapped_column(Integer, nullable=True)
    shard_ids: Mapped[str | None] = mapped_column(Text, nullable=True)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


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
