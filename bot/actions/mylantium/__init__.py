"""The Republic of Mylantium in the front end: its record (``FRONT``, listed in ``bot/actions/rulesets.py``) and the
routes of its parts: the setup (``republic``), a turn (``turn``: the Election Round, the Business Phase, the DM
forms) and revolutions (``revolution``)."""

from __future__ import annotations

from bot.actions.front import Front
from bot.actions.mylantium import republic, revolution, turn
from bot.actions.mylantium.render import REMINDERS
from bot.actions.mylantium.sources import SOURCES
from bot.actions.routes import Routes
from engine.service.mylantium.state import NAME

ROUTES = Routes.merged(republic.ROUTES, turn.ROUTES, revolution.ROUTES)
"""Every Mylantium command, DM form and button."""

FRONT = Front(
    NAME,
    routes=ROUTES,
    dm_help=(
        ("Realign: Whig", "your Faction changes party (until the Primary opens, once a turn)"),
        ("Primary: <Candidate>", "your Faction's choice in the Primary"),
        ("General: Federalist", "your Faction's choice in the General Election"),
        ("Contribute: 20", "to the Counter-Revolutionary Treasury (`Contribute: 5 to the Vanguard`)"),
        ("Coup: yes", "the Brass Hats answer the coup offer (`Coup: no`)"),
    ),
    next_steps=("Register the Factions with /faction register, the territories with /territory add and /building add, "
                "the candidates with /candidate add and the President's Faction with /government set; then "
                "/election start begins the first Election Round."),
    due=(turn.close_overdue,),
    reminders=REMINDERS,
    recover={"primary": turn.primary_again, "general": turn.general_again},
    sources=SOURCES,
)
