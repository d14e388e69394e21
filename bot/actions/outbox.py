"""What Clerk sends, and where: plain data the Discord adapter turns into messages and embeds,
and the console prints."""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from engine.core.stamps import utc_text
from engine.service.announcements import announcement_nonce
from engine.service.owed import Owed, OwedRow, OwedWith

R = TypeVar("R")


@dataclass(frozen=True)
class Card:
    """An embed, platform-neutral."""

    title: str
    description: str = ""
    fields: tuple[tuple[str, str, bool], ...] = ()
    color: int = 0x5865F2
    footer: str | None = None

    def as_text(self) -> str:
        """The card as plain text, its times in UTC (``engine/core/stamps.py``)."""
        lines = [f"**{self.title}**"]
        if self.description:
            lines.append(self.description)
        for name, value, _ in self.fields:
            if "\n" in value:  # a list: one item a line under its name
                lines.append(f"{name}:")
                lines += [f"  {item}" for item in value.splitlines()]
            else:
                lines.append(f"{name}: {value}")
        if self.footer:
            lines.append(self.footer)
        return utc_text("\n".join(lines))


@dataclass(frozen=True)
class Here:
    """A reply to whoever acted, where they acted (ephemeral when asked and possible)."""


@dataclass(frozen=True)
class ToChannel:
    channel_id: int
    moderators_of: int | None = None
    """The game whose moderators' channel this is (``/game settings moderator_channel``): what goes there is for
    the moderators only, so when Discord refuses it the front end DMs it to them instead, never quoting it anywhere
    public (play-test S4.1)."""


@dataclass(frozen=True)
class ToUser:
    """A direct message."""

    user_id: int


@dataclass(frozen=True)
class ToThread:
    """A thread of a channel, found by ``thread_id`` when known, else by ``name``: the front end looks the
    name up among the threads it made before (``clerk.posts.kept_message(game_id, "thread:" + name)``) and creates a
    public thread with that name under ``channel_id`` if there is none, remembering it the same way."""

    channel_id: int
    name: str
    game_id: int
    thread_id: int | None = None
    private: bool = False
    """A private thread (only its members, and members with Manage Threads, see it) instead of a public one."""
    members: tuple[int, ...] = ()
    """Users added to a private thread (the moderators Clerk knows, ``bot/actions/moderators.py``)."""


Target = Here | ToChannel | ToUser | ToThread


@dataclass(frozen=True)
class Keep:
    """Keep this as ONE message that later sends with the same key edit in place (a pinned tally, a running
    count). The front end looks the key up with ``clerk.posts.kept_message(game_id, key)``; if found it edits that
    message, otherwise it sends a new one, pins it when ``pin``, and stores it with ``clerk.posts.keep_message``."""

    game_id: int
    key: str
    pin: bool = False


SETTLED = "settled"
"""An ``Outgoing.extra`` key: this answers a button press that was recorded (the front end may then show that
message's buttons as disabled)."""
INSTEAD = "instead"
"""An ``Outgoing.extra`` key: what to say in place of its buttons when it goes by DM instead (a private thread the bot
may not make, ``bot/actions/moderators.py``)."""
POSTED = "posted"
"""An ``Outgoing.extra`` key: the announcement of a result closed at its deadline (``round:<game>:<n>``); the front end
sends it with its ``NONCE`` and marks it posted once sent (engine/service/announcements.py)."""
WARNED = "warned"
"""An ``Outgoing.extra`` key: the moderators' disclosure warning of a result (``wround:<game>:<n>``, as
``warning_marker`` makes it); the front end sends it with its ``NONCE`` and records it sent
(``AnnouncementService.mark_warned``), so a restart that announces the result again does not warn twice
(recovery.py)."""
NONCE = "nonce"
"""An ``Outgoing.extra`` key, beside ``POSTED`` or ``WARNED``: the Discord nonce the front end sends it with, its
marker with the close's own token (``engine.service.announcements.announcement_nonce``): the same for that close's
card sent again after a kill, another for another close of the same result (one undone by a restore and made again,
play-test V2.2). Without it, the marker is the nonce (``marked`` always sets it)."""
EXPLAINS = "explains"
"""An ``Outgoing.extra`` key: a result card with no announcement marker (an audit, a Forecast, a Business Phase's
close), as ``card_tag`` makes it; the front end records the message it became, so **Explain this** finds it."""
CHART = "chart"
"""An ``Outgoing.extra`` key of a card owed with its write whose chart is drawn after the commit
(``bot/actions/owed_files.py``): ``<kind>:<game>:<digest>``, which chart it carries and a digest of what the chart is
drawn from as the write left it (``ChartKind.marker``), so the recovery at start can draw it again
(``charts_at_start``)."""
LIVE = "live"
"""An ``Outgoing.extra`` key: this answers a press whose buttons stay usable (a crisis ballot can be changed by
another press until the deadline), so they are not disabled."""
IF_CLOSED = "if_closed"
"""An ``Outgoing.extra`` key of a DM whose news is public anyway (an offer to second, the coup offer): the text to post
in the channel ``extra[IF_CLOSED_IN]`` instead when the user's DMs are closed to the bot (the DM refused, or not
tried because they were refused before), so the player asked learns of it and how to answer without a DM
(play-test S4.4). Never on a DM with a secret in it."""
IF_CLOSED_IN = "if_closed_in"
"""The channel id (as text) ``IF_CLOSED``'s text goes to."""
BUTTON_STYLES = ("primary", "secondary", "success", "danger")
CUSTOM_ID_MAX = 100
"""Discord's limit on a button's custom_id."""


@dataclass(frozen=True)
class Button:
    """A button under a message. ``custom_id`` is a stable string that carries everything needed to act on a
    press, even after a restart (``clerk:second:<game>:<motion>:<offer>:<answer>``); a press goes to the handler
    registered for its prefix (``routes.button_action``)."""

    label: str
    custom_id: str
    style: str = "secondary"

    def __post_init__(self) -> None:
        if len(self.custom_id) > CUSTOM_ID_MAX:
            raise ValueError(f"custom_id longer than {CUSTOM_ID_MAX}: {self.custom_id!r}")
        if self.style not in BUTTON_STYLES:
            raise ValueError(f"unknown button style {self.style!r}")


SELECT_OPTIONS_MAX = 25
"""Discord's limit on the options of a select menu (labels and values at most 100 characters)."""


@dataclass(frozen=True)
class Choice:
    """One option of a ``Select``: what the reader sees, and the value a choice sends back."""

    label: str
    value: str


@dataclass(frozen=True)
class Select:
    """A menu under a message from which one option is chosen. Like a button's, ``custom_id`` is stable and carries
    everything a choice needs after a restart (``clerk-menu:dm:<pending DM id>``); a choice goes to the handler
    registered for its prefix (``routes.select_action``) with the chosen values."""

    custom_id: str
    options: tuple[Choice, ...]
    placeholder: str = ""

    def __post_init__(self) -> None:
        if len(self.custom_id) > CUSTOM_ID_MAX:
            raise ValueError(f"custom_id longer than {CUSTOM_ID_MAX}: {self.custom_id!r}")
        if not 1 <= len(self.options) <= SELECT_OPTIONS_MAX:
            raise ValueError(f"a select menu has 1 to {SELECT_OPTIONS_MAX} options, not {len(self.options)}")
        if any(len(o.label) > CUSTOM_ID_MAX or len(o.value) > CUSTOM_ID_MAX for o in self.options):
            raise ValueError(f"an option's label or value is longer than {CUSTOM_ID_MAX}")

    def option(self, wanted: str) -> Choice | None:
        """The option whose label, value or first word of its label (``#sirius``) is ``wanted`` (any case)."""
        key = wanted.strip().lower()
        for o in self.options:
            if key in (o.label.lower(), o.value.lower(), o.label.split(" ", 1)[0].lower()):
                return o
        return None


@dataclass(frozen=True)
class Outgoing:
    to: Target
    text: str = ""
    card: Card | None = None
    ephemeral: bool = False
    file: tuple[str, bytes] | None = None
    extra: dict[str, str] = field(default_factory=dict)
    keep: Keep | None = None
    buttons: tuple[Button, ...] = ()
    select: Select | None = None
    alt: str = ""
    """The file's alt text (Discord's attachment description, read out by screen readers and shown on hover): the
    picture in words. Empty for a file that is not a picture."""


def reply(text: str = "", *, card: Card | None = None, ephemeral: bool = False,
          file: tuple[str, bytes] | None = None, alt: str = "") -> Outgoing:
    return Outgoing(Here(), text, card, ephemeral, file, alt=alt)


def not_owed(_item: Outgoing) -> Owed | None:
    """``Answering.row_of`` of an interaction: its answer is the interaction's response, never owed."""
    return None


@dataclass
class Answering:
    """What one message's or interaction's handler owes in the transaction of its own write (a DM ballot's receipt,
    a realignment's public line, the offer to second passed on by a button: ``engine.service.owed.OwedWith``):
    ``row_of``, given by the front end that delivers them, makes the owed row of an answer (``Here``), or None when
    the answer is not owed (an interaction's: its response, ``not_owed``); ``post_of`` the row of a message posted
    elsewhere (a channel, a thread, a DM to someone else), or None when it has nothing to send; ``owed`` holds the
    messages so kept with their rows, which the front end queues without owing them a second time. A front end that
    owes nothing (the console, a transcript) passes none."""

    row_of: Callable[[Outgoing], Owed | None]
    post_of: Callable[[Outgoing], Owed | None] = not_owed
    owed: list[tuple[Outgoing, OwedRow]] = field(default_factory=list)


def answered_by_dm(answering: Answering | None, user_id: int, text: Callable[[str], str]) -> Answering | None:
    """An ``Answering`` for a form someone else entered for ``user_id`` (``/cast-for``, **Count as vote** on their
    message): what the form answers (``Here``, its receipt) is owed in the form's write's transaction as the DM
    ``text(answer)`` to them, and what it posts elsewhere as ``answering`` owes it; both go into ``answering.owed``,
    which the front end queues. None: nothing is owed with the write (the console)."""
    if answering is None:
        return None

    def dm_of(item: Outgoing) -> Owed | None:
        return answering.post_of(Outgoing(ToUser(user_id), text=text(item.text))) if item.text else None

    return Answering(dm_of, answering.post_of, answering.owed)


def owed_with(answering: Answering | None, item: Outgoing) -> bool:
    """Whether ``item`` was owed with its write (``answering.owed``)."""
    return answering is not None and any(kept is item for kept, _ in answering.owed)


TIMED: ContextVar[Answering | None] = ContextVar("clerk_timed_answering", default=None)
"""Where the timed work of one pass of the deadline scheduler (``close_due``'s tasks: an offer to second passed on
at its timeout) may owe what it posts in its write's transaction, as a handler does with ``Ctx.answering``: set by
the front end for the pass (bot/discord/scheduler.py), which then queues what was so owed and owes the rest; None
(the console, a transcript): it is owed after."""


class AnswerWith(Generic[R]):
    """The messages a message's, an interaction's or timed work's write makes of its result (``replies``: pure, as
    they are made inside the write's transaction): its answers (``Here``; an interaction's are its response, not
    owed) and what it posts elsewhere (a realignment's public line, a transfer's notice to the moderators, the next
    offer to second), owed in that transaction when the front end lets the handler (``Ctx.answering``, or
    ``TIMED`` for timed work), so a kill between the commit and owing them cannot lose them (play-test S4.5; a
    Landsdraad DM ballot's receipt is owed so by its batch). Pass ``owed`` to the service's write
    (``engine.service.owed.owe_in``), then return ``out(result)``: the messages, those owed already handed to the
    front end (which queues them and owes them no second time), and made again after the write when nothing was
    owed with it (no ``answering``, or a redelivery answered outside the write). ``replies`` is given the result of
    a redelivery too (``duplicate``): what it posts elsewhere was posted when the message first came."""

    def __init__(self, answering: Answering | None, replies: Callable[[R], list[Outgoing]], *,
                 warns: bool = False) -> None:
        self._answering = answering
        self._replies = replies
        self._warns = warns
        """The write is the close that made its disclosure warning's token (a result the disclosure check holds
        back, whose card has no marker: nothing posts the warning again after a kill): the warning (``WARNED``) is
        owed with the write too, its nonce new."""
        self._made: list[Outgoing] = []
        self._owing: list[Outgoing] = []
        self.owed: OwedWith[R] | None = OwedWith(self._make) if answering is not None else None

    def _make(self, result: R) -> list[Owed]:  # in the write's transaction
        assert self._answering is not None
        self._made = self._replies(result)
        rows = [(item, self._row(self._answering, item)) for item in self._made]
        self._owing = [item for item, row in rows if row is not None]
        return [row for _, row in rows if row is not None]

    def _row(self, answering: Answering, item: Outgoing) -> Owed | None:
        """The row of ``item`` owed with the write, or None: a result card carrying its announcement marker, or a
        disclosure warning carrying its own (but with ``warns``), is owed after the write, as before: its nonce
        (``NONCE``), which may be owed already (``clerk.outbox.owe`` skips it then; owed with the write it would
        fail the write)."""
        if isinstance(item.to, Here):
            return answering.row_of(item) if _answers(item) else None
        if POSTED in item.extra or (WARNED in item.extra and not self._warns):
            return None
        return answering.post_of(item)

    def out(self, result: R) -> list[Outgoing]:
        if self._answering is None or self.owed is None or not self.owed.rows:
            return self._replies(result)
        self._answering.owed.extend(zip(self._owing, self.owed.rows, strict=True))
        return list(self._made)

    def owed_row(self, item: Outgoing) -> OwedRow | None:
        """The row ``item`` (one of the messages ``out`` returned) was owed as with the write; None when it was not
        (nothing was owed with the write, or not that)."""
        if self._answering is None:
            return None
        return next((row for kept, row in self._answering.owed if kept is item), None)

    def swap(self, item: Outgoing, new: Outgoing, row: OwedRow) -> None:
        """``item``, owed with the write, goes as ``new``, its row amended as ``row`` (written already: a card's
        chart added once drawn, ``bot/actions/owed_files.py``); the front end queues that row with ``new``."""
        assert self._answering is not None
        self._answering.owed[:] = [(new, row) if kept is item else (kept, was) for kept, was in self._answering.owed]


def marked(key: str, marker: str, token: str | None) -> dict[str, str]:
    """The ``extra`` of a result's announcement (``key`` ``POSTED``) or disclosure warning (``WARNED``): its marker,
    and its nonce made of the marker and the close's token (``NONCE``; the marker alone for a close without one)."""
    return {key: marker, NONCE: announcement_nonce(marker, token)}


def _answers(item: Outgoing) -> bool:
    """A reply to the message with something in it (what the front end owes as an answer)."""
    return isinstance(item.to, Here) and bool(item.text or item.card is not None or item.file is not None)
