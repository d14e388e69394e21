"""The Landsdraad game on Discord: its record for the front end (``FRONT``, listed in ``bot/actions/rulesets.py``).

Players, holdings and rounds are in ``handlers`` (the round's deadline in ``deadlines``, the ballot buttons in
``ballot_buttons``, a DM ballot, the DM fallback, in ``dm_ballot``, what closes at its deadline in ``closing``), the
Adjutant General and player-majority votes in ``politics``, transfers, audits and perks in ``ledgers``, victory
points in ``victory`` (the posts other modules make in ``victory_posts``), the players file of the CSV export in
``players_csv``; what players read in the ``*_render`` modules and ``charts``, what options suggest in ``sources``.
Every command belongs to Landsdraad games (``ruleset``), and a Landsdraad game takes no other ruleset's."""

from __future__ import annotations

from bot.actions.front import Front, MessageCommand
from bot.actions.landsdraad import (
    ag_recount,
    ballot_buttons,
    deadlines,
    dm_ballot,
    errata,
    handlers,
    ledgers,
    politics,
    preview,
    undone,
    victory,
    why,
)
from bot.actions.landsdraad.closing import ag_again, elections_due, round_again, rounds_due
from bot.actions.landsdraad.dm_ballot import unanswered_receipts
from bot.actions.landsdraad.log_sentences import SENTENCES as LOG_SENTENCES
from bot.actions.landsdraad.players_csv import players_file
from bot.actions.landsdraad.render import REMINDERS
from bot.actions.landsdraad.ruleset import RULESET
from bot.actions.landsdraad.sources import SOURCES
from bot.actions.landsdraad.victory_posts import FORECAST_CHART, SCORES_CHART, majorities_at_start
from bot.actions.routes import Routes
from engine.landsdraad.ballot import looks_like_ballot
from engine.landsdraad.import_file import KINDS as IMPORT_KINDS

ROUTES = Routes.merged(handlers.ROUTES, deadlines.ROUTES, ballot_buttons.ROUTES, dm_ballot.ROUTES, politics.ROUTES,
                       ledgers.ROUTES, victory.ROUTES, preview.ROUTES, errata.ROUTES)
"""Every Landsdraad command, form and button, and the DM fallback (a crisis ballot)."""
for group, description in (
        ("ag", "The Adjutant General election"),
        ("pv", "Player-majority votes: support, enact, veto"),
        ("forces", "Landsdraad: a player's Force units"),
        ("assets", "Landsdraad: a player's primary assets"),
        ("economy", "Landsdraad: income, CHOAM shares, wealth and heroes"),
        ("luxury", "Landsdraad: Luxury Good locations in play"),
        ("goal", "Landsdraad: private goals and their VP"),
        ("prestige", "Landsdraad: prestige VP from the moderators' pool"),
        ("vp", "Landsdraad: what the victory categories and awards are worth"),
        ("player", "Add players and change their attributes"),
        ("holding", "Electors and planets a player controls"),
        ("round", "Open, inspect and close crisis vote rounds"),
        ("faction", "Factions: temporary ones of a Landsdraad round")):  # Mylantium's part adds "a ... game's own"
    ROUTES.group(group, description)


def channel_hint(text: str) -> str | None:
    """What the console notes under a crisis ballot posted in a channel (it got no reply)."""
    if looks_like_ballot(text):
        return "(no reply: crisis ballots are not read in channels; they go by DM or /vote)"
    return None


from bot.actions.landsdraad.imports import import_setup  # noqa: E402  (beside the record it fills)

FRONT = Front(
    RULESET,
    routes=ROUTES,
    dm_help=(
        ("Vote: Aye", "your crisis ballot for the open round (`Aye`, `Nay` or `Abstain`; `Vote: Aye, 14` states "
                      "your count)"),
        ("Revote: Nay", "changes your ballot before the deadline"),
        ("AG Vote: Bob", "your ballot in an Adjutant General election"),
        ("Transfer: 500 MS to Bob", "a Transfer Funds action (`Transfer: Planet Deneb to Bob` for anything else)"),
        ("Audit quote: Bob rounds 1-3", "what an audit of Bob would cost now; nothing is recorded"),
        ("Elector: Count Jasek, round 3", "Chancellor Pro tempore only: how that Elector voted"),
    ),
    thread_help=(
        ("AG Vote: Bob", "your ballot in the Adjutant General election, in its thread (or by DM)"),
        ("Vote: No Confidence", "supports a player-majority vote (`Vote: No Confidence in <AG>` too); the others: "
                                "`Vote: End Embargo on Bob`, `Audit: Bob rounds 1-3`, `Vote: End Kanly between "
                                "Ann and Bob`, `Vote: End Game`"),
        ("Unvote: No Confidence", "withdraws your support"),
    ),
    message_commands=(MessageCommand("Count as vote", (politics.ag_vote_in_thread, politics.motion_in_thread,
                                                       politics.crisis_ballot_in_public), "a vote",
                                     for_others=politics.ag_may_count),),
    next_steps="Add players with /player add, then open a round with /round open.",
    ends_with="/game end",
    closing=(rounds_due, elections_due),
    reminders=REMINDERS,
    recover={"round": round_again, "ag": ag_again},
    at_start=(majorities_at_start,),
    sources=SOURCES,
    receipts=unanswered_receipts,
    channel_hint=channel_hint,
    dm_open=politics.form_open,
    export_files=(players_file,),
    importer=import_setup,
    import_kinds=IMPORT_KINDS,
    remover=handlers.remove_player,
    log_sentences=LOG_SENTENCES,
    undone=undone.UNDONE,
    reopened=undone.REOPENED,
    names_itself=False,
    setup=handlers.setup_summary,
    explain=why.EXPLAIN,
    after_setting=ag_recount.AFTER_SETTING,
    explain_help=why.EXPLAIN_HELP,
    explains_posts=why.POSTS,
    charts=(FORECAST_CHART, SCORES_CHART),
)

__all__ = ["FRONT", "ROUTES"]
