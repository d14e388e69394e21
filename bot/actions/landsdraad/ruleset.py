"""The name of the Landsdraad ruleset, as its service record has it, and the ``command`` decorator of its modules:
``routes.command`` with ``ruleset="landsdraad"``, so a game of another ruleset refuses the command."""

from __future__ import annotations

from collections.abc import Callable

from bot.actions.commands import Handler, Option, Reads
from bot.actions.routes import Routes

RULESET = "landsdraad"


def commands_on(routes: Routes) -> Callable[..., Callable[[Handler], Handler]]:
    """The decorator that adds a Landsdraad command to ``routes``."""

    def command(name: str, description: str, *options: Option, moderator: bool = False,
                game: str = "channel", reads: Reads = False, closing: bool = False, public: bool = False
                ) -> Callable[[Handler], Handler]:
        return routes.command(name, description, *options, moderator=moderator, game=game, ruleset=RULESET,
                              reads=reads, closing=closing, public=public)

    return command
