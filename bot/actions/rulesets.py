"""The front end's one list of rulesets (``FRONTS``) and the tables merged from them: the composition root of
``bot/actions``, the only module of the front that names the rulesets. A new ruleset adds its ``Front`` here (and its
service record to ``engine/service/clerk.py``).

``ROUTES`` is every command, form, button and menu of the shipped rulesets and the shared ones; an ``App`` reads
them from its fronts (``App.fronts``, ``App.routes``), so an app may also play a ruleset that is not shipped."""

from __future__ import annotations

from collections.abc import Sequence

from bot.actions import (
    admin,
    closed,
    convocate,
    dm_choice,
    help,
    imports,
    landsdraad,
    mylantium,
    players,
    proxy,
    setup,
    verify,
    why,
)
from bot.actions.front import Front
from bot.actions.routes import Routes

FRONTS: tuple[Front, ...] = (landsdraad.FRONT, mylantium.FRONT, convocate.FRONT)
"""The rulesets Clerk ships, in the order of ``engine.service.clerk.RULESETS``."""


def routes_of(fronts: Sequence[Front]) -> Routes:
    """Those of each front and the shared routes, merged: a name or prefix taken twice is an error at start. (The
    fronts' forms are tried in the order of the fronts.)"""
    return Routes.merged(*(f.routes for f in fronts), admin.ROUTES, closed.ROUTES, setup.ROUTES, imports.ROUTES,
                         help.ROUTES, dm_choice.ROUTES, proxy.ROUTES, players.ROUTES, why.ROUTES,
                         verify.ROUTES)


ROUTES = routes_of(FRONTS)
COMMANDS = ROUTES.commands
"""The whole command table of the shipped rulesets: what the Discord adapter registers and the console parses."""
DM_FORMS = ROUTES.dm_forms
THREAD_FORMS = ROUTES.thread_forms
