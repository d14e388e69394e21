"""The front end's one list of rulesets (``FRONTS``) and the tables merged from them: the composition root of
``bot/actions``, the only module of the front that names the rulesets. A new ruleset adds its ``Front`` here (and its
service record to ``engine/service/clerk.py``).

``ROUTES`` is every command, form, button and menu of the shipped rulesets and the shared ones; an ``App`` reads
them from its fronts (``App.fronts``, ``App.routes``), so an app may also play a ruleset that is not shipped."""

from __future__ import annotations

from collections.abc import Sequence

import bot.actions.handlers  # noqa: F401  (the shared commands and the Landsdraad ones not yet in their package)
from bot.actions import convocate, landsdraad, mylantium
from bot.actions.front import Front
from bot.actions.routes import SHARED, Routes

FRONTS: tuple[Front, ...] = (landsdraad.FRONT, mylantium.FRONT, convocate.FRONT)
"""The rulesets Clerk ships, in the order of ``engine.service.clerk.RULESETS``."""


def routes_of(fronts: Sequence[Front]) -> Routes:
    """The shared routes and those of each front, merged: a name or prefix taken twice is an error at start."""
    return Routes.merged(SHARED, *(f.routes for f in fronts))


ROUTES = routes_of(FRONTS)
COMMANDS = ROUTES.commands
"""The whole command table of the shipped rulesets: what the Discord adapter registers and the console parses."""
DM_FORMS = ROUTES.dm_forms
THREAD_FORMS = ROUTES.thread_forms
