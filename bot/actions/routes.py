"""Where plain text, slash commands and presses go (``Routes``): each part of the front (the shared one, each
ruleset's) fills its own ``Routes``, and an app's are merged from its rulesets' (``bot/actions/rulesets.py``).

A handler returns what to send; ``ParseError``/``RuleError`` raised in it become a reply that says what was
wrong and that nothing was recorded."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

from bot.actions.commands import App, Command, Handler, Option, Reads
from bot.actions.context import Ctx
from bot.actions.outbox import Outgoing
from engine.core.text import first_line as core_first_line
from engine.service.views import GameView

Matches = Callable[[str], bool]
DmHandler = Callable[[App, Ctx, str], Awaitable[list[Outgoing]]]
ThreadHandler = Callable[[App, Ctx, GameView, str], Awaitable[list[Outgoing]]]

ButtonHandler = Callable[[App, Ctx, str], Awaitable[list[Outgoing]]]

H = TypeVar("H")


class PrefixRoutes(Generic[H]):
    """Handlers by custom_id prefix (``clerk:second``, ``clerk-menu:dm``): the handler of a custom_id is the one of
    its longest registered prefix that is a whole ``:``-separated part. ``what`` names them in errors."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.handlers: dict[str, H] = {}

    def action(self, prefix: str) -> Callable[[H], H]:
        def register(handler: H) -> H:
            if prefix in self.handlers:
                raise ValueError(f"a {self.what} action for {prefix!r} is already registered")
            self.handlers[prefix] = handler
            return handler

        return register

    def handler(self, custom_id: str) -> H | None:
        found = [p for p in self.handlers if custom_id == p or custom_id.startswith(p + ":")]
        return self.handlers[max(found, key=len)] if found else None


    def merge(self, other: PrefixRoutes[H]) -> None:
        for prefix, handler in other.handlers.items():
            self.action(prefix)(handler)


SelectHandler = Callable[[App, Ctx, str, tuple[str, ...]], Awaitable[list[Outgoing]]]


class Routes:
    """Where the text, commands and presses of one part of the front go (the shared part, or one ruleset's):

    - ``command(name, ...)``: a slash command of the table (``bot.actions.commands.Command``);
    - ``dm_form(matches)``: a DM whose text ``matches`` goes to the handler;
    - ``dm_fallback``: where a DM that no form matches goes (at most one in an app; Landsdraad reads it as a crisis
      ballot); without one, such a DM is answered that nothing matched;
    - ``thread_form(matches)``: a message in a thread of a game channel whose first line ``matches``;
    - ``button(prefix)``: a press of a button whose custom_id is ``prefix`` or starts with ``prefix:``;
    - ``select(prefix)``: a choice in a select menu whose custom_id starts with ``prefix:``;
    - ``group(name, description)``: what a command group (``/round``) says in Discord's command list.

    Each is a decorator that adds its handler to this object only; ``merged`` puts the parts of an app together
    (``bot/actions/rulesets.py``), refusing a name or prefix taken twice."""

    def __init__(self) -> None:
        self.commands: dict[str, Command] = {}
        self.dm_forms: list[tuple[Matches, DmHandler]] = []
        self.thread_forms: list[tuple[Matches, ThreadHandler, bool]] = []
        """(matches, handler, also in the game channel itself rather than only in its threads)."""
        self.not_proxied: list[ThreadHandler] = []
        """Thread forms that ``/cast-for`` skips (``thread_form(proxy=False)``: a refusal, not a vote)."""
        self.buttons: PrefixRoutes[ButtonHandler] = PrefixRoutes("button")
        """What a press of a button does, given its whole custom_id."""
        self.selects: PrefixRoutes[SelectHandler] = PrefixRoutes("select")
        """What a choice in a select menu does, given its whole custom_id and the values chosen."""
        self.fallback: DmHandler | None = None
        """Where a DM that no form matches goes (``dm_fallback``)."""
        self.groups: dict[str, str] = {}
        """Command group (``round``, ``election primary``) -> its description (``group``)."""

    def command(self, name: str, description: str, *options: Option, moderator: bool = False,
                game: str = "channel", ruleset: str | None = None, reads: Reads = False,
                closing: bool = False, public: bool = False) -> Callable[[Handler], Handler]:
        """``reads``: it only reads the game, so it answers after the game has ended (``Command.reads``); every other
        command is then refused. ``closing``: it ends or reopens the game. ``public``: its answer is for the channel
        (``Command.public``)."""
        def register(handler: Handler) -> Handler:
            if name in self.commands:
                raise ValueError(f"the command /{name} is already in the table")
            self.commands[name] = Command(name, description, options, handler, moderator, game, ruleset, reads,
                                          closing, public)
            return handler

        return register

    def dm_form(self, matches: Matches) -> Callable[[DmHandler], DmHandler]:
        def register(handler: DmHandler) -> DmHandler:
            self.dm_forms.append((matches, handler))
            return handler

        return register

    def dm_fallback(self, handler: DmHandler) -> DmHandler:
        """The handler of a DM that no form matches (at most one in an app)."""
        if self.fallback is not None:
            raise ValueError("a DM fallback is already registered")
        self.fallback = handler
        return handler

    def group(self, name: str, description: str) -> None:
        """The description of the command group ``name`` (the commands whose names start with it). A group that
        several parts use (``/faction``) gets each part's description, joined: ``Factions: ... round, ... own``."""
        known = self.groups.get(name)
        self.groups[name] = description if known is None or known == description else f"{known}, {description}"

    def thread_form(self, matches: Matches, *, anywhere: bool = False, proxy: bool = True
                    ) -> Callable[[ThreadHandler], ThreadHandler]:
        """A form read in threads of a game channel (and, with ``anywhere``, in the channel itself). With
        ``proxy=False`` a moderator's ``/cast-for`` does not try it (bot/actions/proxy.py)."""

        def register(handler: ThreadHandler) -> ThreadHandler:
            self.thread_forms.append((matches, handler, anywhere))
            if not proxy:
                self.not_proxied.append(handler)
            return handler

        return register

    def button(self, prefix: str) -> Callable[[ButtonHandler], ButtonHandler]:
        return self.buttons.action(prefix)

    def select(self, prefix: str) -> Callable[[SelectHandler], SelectHandler]:
        return self.selects.action(prefix)

    @classmethod
    def merged(cls, *parts: Routes) -> Routes:
        whole = cls()
        for part in parts:
            for name, spec in part.commands.items():
                if name in whole.commands:
                    raise ValueError(f"the command /{name} is in the table twice")
                whole.commands[name] = spec
            whole.dm_forms += part.dm_forms
            whole.thread_forms += part.thread_forms
            whole.not_proxied += part.not_proxied
            whole.buttons.merge(part.buttons)
            whole.selects.merge(part.selects)
            if part.fallback is not None:
                whole.dm_fallback(part.fallback)
            for name, description in part.groups.items():
                whole.group(name, description)
        return whole




def first_line(text: str) -> str:
    """The first line, its whitespace collapsed (``engine.core.text.first_line``): what the forms are read from."""
    return core_first_line(text)
