"""The Republic of Mylantium in the front end: its record (``FRONT``, listed in ``bot/actions/rulesets.py``) and the
routes of its parts: the setup (``republic``), a turn (``turn``: the Election Round, the Business Phase, the DM
forms), a step of it taken back (``takeback``) and revolutions (``revolution``)."""

from __future__ import annotations

from bot.actions.front import Front
from bot.actions.mylantium import errata, removal, republic, revolution, takeback, turn, undone, why
from bot.actions.mylantium.imports import import_setup
from bot.actions.mylantium.log_sentences import SENTENCES as LOG_SENTENCES
from bot.actions.mylantium.render import REMINDERS
from bot.actions.mylantium.sources import SOURCES
from bot.actions.routes import Routes
from engine.mylantium.forms import meant_form
from engine.mylantium.import_file import KINDS as IMPORT_KINDS
from engine.service.mylantium.state import NAME

ROUTES = Routes.merged(republic.ROUTES, turn.ROUTES, takeback.ROUTES, revolution.ROUTES, errata.ROUTES)
"""Every Mylantium command, DM form and button."""
for _group, _description in (
        ("faction", "a Mylantium game's own"),  # after the Landsdraad part's "Factions: temporary ones of a ... round"
        ("territory", "Mylantium: the territories of the Republic"),
        ("building", "Mylantium: ports, cities, temples and villages"),
        ("unit", "Mylantium: the Republic's military units"),
        ("candidate", "Mylantium: candidates and their Charisma"),
        ("government", "Mylantium: the government page's facts"),
        ("election", "Mylantium: the Election Round, the Primary and the General Election"),
        ("election primary", "Mylantium: the Primary"),
        ("election general", "Mylantium: the General Election"),
        ("event", "Mylantium: what happened this turn (approval and Fervor)"),
        ("phase", "Mylantium: the phases of a turn"),
        ("phase business", "Mylantium: the Business Phase"),
        ("revolution", "Mylantium: revolutions, coups and contributions"),
        ("amendment", "Mylantium: constitutional amendments")):
    ROUTES.group(_group, _description)

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
    dm_meant=meant_form,
    dm_meant_refusal=turn.meant_refusal,
    dm_open=turn.form_open,
    dm_fits=turn.form_fits,
    next_steps=("Register the Factions with /faction register, the territories with /territory add and /building add, "
                "the candidates with /candidate add and the President's Faction with /government set; then "
                "/election start begins the first Election Round."),
    due=(turn.close_overdue,),
    reminders=REMINDERS,
    recover={"primary": turn.primary_again, "general": turn.general_again},
    receipts=turn.unanswered_receipts,
    sources=SOURCES,
    setup=republic.setup_summary,
    final_post=republic.final_page,
    importer=import_setup,
    import_kinds=IMPORT_KINDS,
    remover=removal.remove_player,
    log_sentences=LOG_SENTENCES,
    undone=undone.UNDONE,
    reopened=undone.REOPENED,
    after_setting=errata.AFTER_SETTING,
    explain=why.EXPLAIN,
    explain_help=why.HELP,
    explains_posts=why.POSTS,
    charts=(turn.HISTORY_CHART,),
)
