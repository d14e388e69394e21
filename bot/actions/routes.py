"""Where plain text goes. Feature modules register the forms they read:

- ``dm_form(matches)``: a DM whose text ``matches`` goes to the handler (a crisis ballot is the fallback);
- ``thread_form(matches)``: a message in a thread of a game channel whose first line ``matches``;
- ``button_action(prefix)``: a press of a button whose custom_id is ``prefix`` or starts with ``prefix:``;
- ``select_action(prefix)``: a choice in a select menu whose custom_id starts with ``prefix:``.

A handler returns what to send; ``ParseError``/``RuleError`` raised in it become a reply that says what was
wrong and that nothing was recorded."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

from bot.actions.commands import App
from bot.actions.context import Ctx
from bot.actions.outbox import Outgoing
from engine.core.text import first_line as core_first_line
from engine.service.views import GameView

Matches = Callable[[str], bool]
DmHandler = Callable[[App, Ctx, str], Awaitable[list[Outgoing]]]
ThreadHandler = Callable[[App, Ctx, GameView, str], Awaitable[list[Outgoing]]]

ButtonHandler = Callable[[App, Ctx, str], Awaitable[list[Outgoing]]]

DM_FORMS: list[tuple[Matches, DmHandler]] = []
THREAD_FORMS: list[tuple[Matches, ThreadHandler, bool]] = []
"""(matches, handler, also in the game channel itself rather than only in its threads)."""


def dm_form(matches: Matches) -> Callable[[DmHandler], DmHandler]:
    def register(handler: DmHandler) -> DmHandler:
        DM_FORMS.append((matches, handler))
        return handler

    return register


def thread_form(matches: Matches, *, anywhere: bool = False) -> Callable[[ThreadHandler], ThreadHandler]:
    """Register a form read in threads of a game channel (and, with ``anywhere``, in the channel itself)."""

    def register(handler: ThreadHandler) -> ThreadHandler:
        THREAD_FORMS.append((matches, handler, anywhere))
        return handler

    return register


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


SelectHandler = Callable[[App, Ctx, str, tuple[str, ...]], Awaitable[list[Outgoing]]]
BUTTONS: PrefixRoutes[ButtonHandler] = PrefixRoutes("button")
"""What a press of a button does, given its whole custom_id."""
SELECTS: PrefixRoutes[SelectHandler] = PrefixRoutes("select")
"""What a choice in a select menu does, given its whole custom_id and the values chosen."""
button_action = BUTTONS.action
button_handler = BUTTONS.handler
select_action = SELECTS.action
select_handler = SELECTS.handler


def first_line(text: str) -> str:
    """The first line, its whitespace collapsed (``engine.core.text.first_line``): what the forms are read from."""
    return core_first_line(text)
