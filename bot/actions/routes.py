"""Where plain text goes. Feature modules register the forms they read:

- ``dm_form(matches)``: a DM whose text ``matches`` goes to the handler (a crisis ballot is the fallback);
- ``thread_form(matches)``: a message in a thread of a game channel whose first line ``matches``;
- ``button_action(prefix)``: a press of a button whose custom_id is ``prefix`` or starts with ``prefix:``;
- ``select_action(prefix)``: a choice in a select menu whose custom_id starts with ``prefix:``.

A handler returns what to send; ``ParseError``/``RuleError`` raised in it become a reply that says what was
wrong and that nothing was recorded."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.actions.commands import App
from bot.actions.context import Ctx
from bot.actions.outbox import Outgoing
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


BUTTON_ACTIONS: dict[str, ButtonHandler] = {}
"""prefix (``clerk:second``) -> handler of a press, given the whole custom_id."""


def button_action(prefix: str) -> Callable[[ButtonHandler], ButtonHandler]:
    """Register what a press of a button whose custom_id starts with ``prefix:`` does."""

    def register(handler: ButtonHandler) -> ButtonHandler:
        if prefix in BUTTON_ACTIONS:
            raise ValueError(f"a button action for {prefix!r} is already registered")
        BUTTON_ACTIONS[prefix] = handler
        return handler

    return register


def button_handler(custom_id: str) -> ButtonHandler | None:
    """The handler of the longest registered prefix of ``custom_id`` (a whole ``:``-separated part)."""
    found = [p for p in BUTTON_ACTIONS if custom_id == p or custom_id.startswith(p + ":")]
    return BUTTON_ACTIONS[max(found, key=len)] if found else None


SelectHandler = Callable[[App, Ctx, str, tuple[str, ...]], Awaitable[list[Outgoing]]]
SELECT_ACTIONS: dict[str, SelectHandler] = {}
"""prefix (``clerk-menu:dm``) -> handler of a choice in a select menu, given the whole custom_id and the values."""


def select_action(prefix: str) -> Callable[[SelectHandler], SelectHandler]:
    """Register what a choice in a select menu whose custom_id starts with ``prefix:`` does."""

    def register(handler: SelectHandler) -> SelectHandler:
        if prefix in SELECT_ACTIONS:
            raise ValueError(f"a select action for {prefix!r} is already registered")
        SELECT_ACTIONS[prefix] = handler
        return handler

    return register


def select_handler(custom_id: str) -> SelectHandler | None:
    """The handler of the longest registered prefix of ``custom_id`` (a whole ``:``-separated part)."""
    found = [p for p in SELECT_ACTIONS if custom_id == p or custom_id.startswith(p + ":")]
    return SELECT_ACTIONS[max(found, key=len)] if found else None


def first_line(text: str) -> str:
    stripped = text.strip()
    return stripped.splitlines()[0].strip() if stripped else ""
