"""What a ruleset gives the front end: one record (``Front``), listed once in ``bot/actions/rulesets.py``.

Shared code never names a ruleset: dispatch, DM and thread routing, help, recovery, suggestions and the timed work
loop over an app's fronts (``App.fronts``) and read their merged routes (``App.routes``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bot.actions.commands import App, Upload
from bot.actions.context import Ctx, UserRef
from bot.actions.log_text import Sentence
from bot.actions.outbox import Card, Outgoing, ToChannel, ToThread
from bot.actions.owed_files import ChartKind
from bot.actions.routes import Routes, ThreadHandler
from bot.actions.suggest_sources import Source
from engine.core.derivation import Derivation
from engine.core.importing import Kind as ImportKind
from engine.service.announcements import Announced
from engine.service.reminders import Reminder
from engine.service.views import GameView

DueTask = Callable[[App, datetime], Awaitable[list[Outgoing]]]
"""Timed work (closing what is due at ``now``, offers that lapsed): what to send."""
Recover = Callable[[App, int, int], Awaitable[list[Outgoing]]]
"""``(app, game_id, number)``: the announcement of a result that closed but was never posted (the bot was killed)."""
Receipts = Callable[[App, datetime, int], Awaitable[list[tuple[int, str, Outgoing]]]]
"""``(app, now, up_to)``: (message id, source id, receipt) of each DM recorded just before a kill whose receipt was
never owed (``bot.actions.recovery.unanswered_receipts``)."""
SetupSummary = Callable[[App, GameView], Awaitable[Card | None]]
"""``(app, game) -> card``: the game's set-up summary while it is being set up (``bot/actions/setup.py``), None once
its set-up is over (what set-up means is the ruleset's: docs/commands.md, "Setting up quietly")."""
FinalPost = Callable[[App, GameView], Awaitable[list[Outgoing]]]
"""``(app, game) -> posts``: the game as it stood when ``/game close`` ended it, for its channel (play-test X4.1)."""
Importer = Callable[[App, Ctx, GameView, Upload], Awaitable[list[Outgoing]]]
"""``/game import``'s work for a game of the ruleset: read the uploaded file, apply it, say what it did."""
Remover = Callable[[App, Ctx, GameView, UserRef], Awaitable[list[Outgoing]]]
"""``/player remove``'s work for a game of the ruleset (``bot/actions/players.py``): take ``user`` out of the game,
their history kept; what to send (the moderator's receipt, the game channel's announcement, the player's DM)."""
ExportFiles = Callable[[GameView, dict[str, Any], Mapping[int, str]], list[Outgoing]]
"""``(game, export document, user id -> player name)``: files ``/game export format:csv`` sends after the events."""


@dataclass(frozen=True)
class ReminderText:
    """How a reminder of one kind (``engine.service.reminders.ReminderForm.kind``) reads: the DM ``Reminder: <what>
    closes in 2h; <voted>: <how>.`` and the moderator's receipt ``Reminded for <label> <number>: <names>.``"""

    what: Callable[[Reminder], str]
    """What the reminder is about: ``Round 3 of sirius``."""
    how: str
    """How to vote, as the DM ends: ``DM me `Vote: Aye|Nay|Abstain` ``."""
    label: str
    """What the receipt calls it, before its number."""
    voted: str = "you have not voted"
    """Why the player is reminded."""
    brief: bool = False
    """The receipt of this reminder alone reads ``Reminded: <names>.``, without its label and number."""


MayApply = Callable[[App, Ctx, GameView, str], Awaitable[bool]]
"""``(app, applier, game, message text)``: whether the applier, neither the message's author nor a moderator, may
still apply a message command to it (Landsdraad: the Adjutant General, to a player-majority vote)."""


@dataclass(frozen=True)
class MessageCommand:
    """A message context-menu entry (right-click a message, Apps): applies the ruleset's thread forms to a message
    the bot could not read (it runs without the Message Content intent; ``bot/actions/message_commands.py``)."""

    name: str
    """What Discord shows in the menu: ``Count as vote``. Entries of the same name in several rulesets are one
    entry in Discord; each game uses its own ruleset's."""
    forms: tuple[ThreadHandler, ...]
    """The thread forms (``Routes.thread_form`` handlers) it applies, in the routes' order."""
    what: str
    """What the message is read as, for a refusal: ``a vote``."""
    for_others: MayApply | None = None
    """Who, besides the author and the moderators, may apply it to another player's message."""


@dataclass(frozen=True)
class WhyAsk:
    """What ``/why`` was asked (``bot/actions/why.py``): the subject and the options that name the number."""

    what: str
    """The subject, one of the front's ``explain`` keys (``result``, ``votes``, ``score``)."""
    round: int | None = None
    """The round (turn, election) asked about; None: the latest one that has the number."""
    player: UserRef | None = None
    """The player whose number it is (``/why votes player:@jenny``)."""
    name: str | None = None
    """Anything else the subject needs: a category or award of a score, a candidate, a card, a statute."""
    viewer: str | None = None
    """The asker's player name in the game, None if they play none of it."""
    moderator: bool = False
    """The asker moderates the game (sees every step and the rules' ids)."""


Explainer = Callable[[App, Ctx, GameView, WhyAsk], Awaitable[Derivation]]
"""``/why``'s work for one subject of the ruleset (``Front.explain``): the derivation of the number asked about, whole;
the command keeps what the asker may see (``Derivation.seen_by``). A refusal raises ``RuleError`` (no such round)."""


@dataclass(frozen=True)
class AfterSetting:
    """What a ruleset says after ``/game settings`` changed one of its settings (which closed results come out
    differently under it: ``Front.after_setting``), read in the change's own transaction and owed there
    (``clerk.followed``; ``bot.actions.admin.change_setting``)."""

    read: Callable[[Any, int, str], Awaitable[Any]]
    """``(session, game id, setting)``: what the change changes, read in its transaction after it (None: nothing to
    say)."""
    said: Callable[[GameView, ToChannel | ToThread, Any], list[Outgoing]]
    """``(game, the moderators' private place, what ``read`` found)``: the messages (the place is read before the
    write)."""


PostAsks = Callable[[App, GameView, Announced], Awaitable[Sequence[WhyAsk]]]
"""What **Explain this** asks ``/why`` of a card (``Front.explains_posts``): one ask or more, in order."""


FormOpen = Callable[[App, GameView, int, str], Awaitable[str | None]]
"""``(app, game, sender's user id, a DM form's first line)``: None when ``game`` has something open that the form
is for (a round for a crisis ballot, the election it names, an offer waiting for the sender) or the form is not one
it judges; else what is not open there (``no round is open``), without a full stop."""


FormFits = Callable[[App, GameView, int, str], Awaitable[bool]]
"""``(app, game, sender's user id, a DM form's first line)``: whether the form names something of ``game`` as it is
written (a `Primary:` one of the game's candidates)."""


def no_hint(text: str) -> str | None:
    return None


Payload = Mapping[str, Any]


def by_actor(payload: Payload, actor: int | None) -> int | None:
    """Whose a record is: who recorded it (``Undoing.whose``'s default)."""
    return actor


@dataclass(frozen=True)
class Undoing:
    """How the notices of a restore (``bot/actions/restore_notices.py``, docs/backup.md) speak of an event of one kind
    that the restore undid: a player's own ballot, form or command, which they are told to send again. The
    ruleset's own words; each text says no more than its reader may know (rules-spec's secrecy matrices)."""

    again: Callable[[Payload], str]
    """How to send it again, the form or command with what it held: ``DM me `Vote: Aye` (or use /vote)``."""
    yours: Callable[[Payload], str] | None = None
    """What it was, in its sender's own DM only (their crisis ballot's choice included): ``your crisis ballot in round
    1: **Aye**``. None: the event's ``/log`` sentence (``Front.log_sentences``), for a kind with nothing secret."""
    counted: tuple[str, str] | None = None
    """How the game channel counts them, one and several: ``("crisis ballot", "crisis ballots")``. None: the channel
    does not speak of them at all (a transfer, the Pro tempore's question: secret that one was made)."""
    named: bool = False
    """The channel names who sent them (asked to send them again): who did is public already (``/round status``
    shows who has voted, not how). False: a count only."""
    same: Callable[[Payload], object] | None = None
    """Two of one player's with the same value are one thing sent twice (a ballot and its revote in one round): only
    the latest is told. None: each is told."""
    whose: Callable[[Payload, int | None], int | None] = by_actor
    """The user whose own it is, given the payload and who recorded it; None: nobody's own (a moderator's record of
    a player's transfer), left to the moderators."""


@dataclass(frozen=True)
class Front:
    name: str
    """The ruleset's name, as its service record (``engine.service.ruleset.Ruleset``) has it."""
    routes: Routes = field(default_factory=Routes)
    """Its slash commands, DM and thread forms, buttons and menus."""
    dm_help: tuple[tuple[str, str], ...] = ()
    """``(example, what it does)`` of each DM form, for ``/help`` and a DM of ``help``."""
    thread_help: tuple[tuple[str, str], ...] = ()
    """``(example, what it does)`` of each form read from the first line of a message in the game channel's
    threads, for ``/help`` and a DM of ``help``."""
    message_commands: tuple[MessageCommand, ...] = ()
    """Its message context-menu entries (``MessageCommand``), for servers where the bot reads no message text."""
    dm_meant: Callable[[str], str | None] = no_hint
    """For a DM that no form read, from a player of its games: the form of this ruleset it most likely meant
    (``Primary: Debs`` for ``Vote: Debs``), or None. The answer suggests it (``bot.actions.messages``)."""
    final: Callable[[str], str | None] = no_hint
    """For a form a moderator entered for a player (``/cast-for``): what its answers say when the form, once taken,
    cannot be changed or taken back (a Convocate second resolves the Motion at once: play-test U3.1), or None when
    the player's own later form replaces it."""
    dm_meant_refusal: FormOpen | None = None
    """For a form ``dm_meant`` suggested, in one of the sender's games of this ruleset: None when the game would take
    it from them now, else the refusal it would get. A form that would be refused is not suggested as it is: the
    answer says why it would not be taken either (play-test M5.4)."""
    dm_open: FormOpen | None = None
    """Whether a DM form is open in one of the sender's games (``FormOpen``). A sender of several games of this
    ruleset who names none is asked to choose only among the games where it is open; with one, the form goes there,
    and with none it is answered at once (``bot.actions.commands.game_of_user``)."""
    dm_fits: FormFits | None = None
    """Among several games where a DM form is open (``dm_open``), whether it names something of one of them as it is
    written (``FormFits``). When it does in some, only those are asked about (with one, the form goes there); when in
    none, every open game stays, and the game chosen answers with its near miss (``game_of_user``)."""
    next_steps: str = ""
    """What a moderator does after ``/game new`` (the reply says it)."""
    settings_note: str = ""
    """A line ``/game settings`` adds under the settings of one of its games (where else they are shown)."""
    closing: tuple[DueTask, ...] = ()
    """Timed work the scheduler runs at each pass before the reminders: what closes at its deadline (so a vote
    closed in the pass gets no reminder)."""
    due: tuple[DueTask, ...] = ()
    """Timed work the scheduler runs at each pass, after the reminders."""
    reminders: Mapping[str, ReminderText] = field(default_factory=dict)
    """Reminder kind (its service record's ``reminders``) -> how a reminder of it reads."""
    recover: Mapping[str, Recover] = field(default_factory=dict)
    """Result kind (``engine.service.announcements``) -> its announcement again, after a crash."""
    at_start: tuple[DueTask, ...] = ()
    """Work the deadline scheduler's first pass does once at each start, after the announcements' recovery and
    before what is due (``bot.actions.recovery.start_work``): what a kill between two writes may have left undone
    (Landsdraad: the majority check after a round's close)."""
    sources: Mapping[str, Source] = field(default_factory=dict)
    """What an option's ``autocomplete`` kind lists, for the ruleset's own kinds."""
    receipts: Receipts | None = None
    """Its receipts owed again at start (``Receipts``), if its DMs have receipts the service can make again."""
    channel_hint: Callable[[str], str | None] = no_hint
    """What the console notes under a channel message that got no reply and looks like one of its DM forms."""
    export_files: tuple[ExportFiles, ...] = ()
    """Its files of ``/game export format:csv``, made from the export sections its ruleset writes. Those sections
    are in every game's export, so ``/game export`` sends every front's files for every game."""
    ends_with: str | None = None
    """The command that ends its games, when it has its own (Landsdraad's ``/game end`` scores the game); None: a
    moderator ends them with ``/game close`` (``bot/actions/closed.py``)."""
    final_post: FinalPost | None = None
    """What ``/game close`` posts in the game channel after its closing line (``FinalPost``): the game as it stood
    when it ended, its final result where the rules name no end of their own (the Convocate's board, Mylantium's
    government page; play-test X4.1). None: the closing line alone."""
    setup: SetupSummary | None = None
    """Its set-up summary (``SetupSummary``): while it says a game is being set up, the moderators' additions are
    answered to them only and the game channel has one summary message, edited as things are added."""
    importer: Importer | None = None
    """Its set-up files (``/game import``, docs/import.md), if it reads any."""
    import_kinds: tuple[ImportKind, ...] = ()
    """The records its set-up files hold (``engine/<ruleset>/import_file.KINDS``): a file refused in another
    ruleset's game that fits them is answered "this is a <ruleset> set-up file", once, not line by line."""
    remover: Remover | None = None
    """What leaving one of its games means (``/player remove``, ``Remover``), if a moderator can remove a player."""
    exclusive: bool = True
    """Its games take only its own commands and the common ones; a command of no ruleset is refused there."""
    log_sentences: Mapping[str, Sentence] = field(default_factory=dict)
    """Its own kinds of event as sentences for /log and the CSV export (``bot/actions/log_text.py``); the other
    kinds get the generic sentence."""
    after_setting: AfterSetting | None = None
    """Its answer to a change of one of its settings (``AfterSetting``), owed with the change."""
    explain: Mapping[str, Explainer] = field(default_factory=dict)
    """``/why <subject>``: subject -> its ``Explainer``, in the order ``/why`` lists them; the first is the default
    (``/why round:3`` explains the round's result)."""
    explain_help: Mapping[str, str] = field(default_factory=dict)
    """Subject -> what it explains and which options it takes, for ``/why`` without a known subject and ``/help``."""
    explains_posts: Mapping[str, str | PostAsks] = field(default_factory=dict)
    """Announcement kind (``round``, ``audit``: ``engine.service.announcements``) -> the ``explain`` subject that
    explains it (asked with ``round`` = the announcement's number), or what asks it (a Business Phase's card: its
    approval and its Fervor): what **Explain this** on that announcement answers (``bot/actions/explain_this.py``)."""
    undone: Mapping[str, Undoing] = field(default_factory=dict)
    """Event kind -> how a restore's notices speak of a player's own event of it that the restore undid
    (``Undoing``): the forms and commands its players send. Other kinds are the moderators' or the bot's own."""
    reopened: Mapping[str, Callable[[Payload], str]] = field(default_factory=dict)
    """Event kind of a close whose result is posted (a round's, an election's) -> what it closed (``round 3``): a
    restore that undid it says in the game channel that it is open again and that the result posted when it closes
    again is the one that stands."""
    charts: tuple[ChartKind[Any], ...] = ()
    """The charts its cards carry that are drawn after their write (``bot/actions/owed_files.py``): each drawn again
    at start for a card a kill left owed without it."""
    names_itself: bool = True
    """How the other rulesets treat its commands. True: a game of another ruleset refuses one naming this ruleset
    (``/election start is a Mylantium command; sirius plays Landsdraad.``), and a ``game="any"`` command looks for
    the caller's game among their games of this ruleset only. False (Landsdraad's, whose commands came before the
    rulesets declared theirs, kept so that nothing changes): an exclusive game refuses one listing its own commands
    (``/round open is not used in Mylantium games like m. Its commands: ...``), and a ``game="any"`` command finds
    any game of the caller (and is refused there if that game plays another ruleset)."""
