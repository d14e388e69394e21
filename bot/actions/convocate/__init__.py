"""The Convocate on Discord (rules-spec §4): its record for the front end (``FRONT``, listed in
``bot/actions/rulesets.py``). The board commands are in ``board``, a turn's in ``turns``, Motions, the offer to
second and Repeals in ``motions``, a decline made by mistake taken back in ``takeback``; what players read in
``render`` and what options suggest in ``sources``. Every command refuses in a game of another ruleset
(``guard``)."""

from __future__ import annotations

from bot.actions.convocate import board, errata, motions, preview, removal, takeback, turns, undone, why
from bot.actions.convocate.guard import RULESET
from bot.actions.convocate.imports import import_setup
from bot.actions.convocate.log_sentences import SENTENCES as LOG_SENTENCES
from bot.actions.convocate.motions import offers_due
from bot.actions.convocate.sources import SOURCES
from bot.actions.front import Front, MessageCommand
from bot.actions.routes import Routes
from engine.convocate.import_file import KINDS as IMPORT_KINDS
from engine.convocate.parsing import meant_form

ROUTES = Routes.merged(board.ROUTES, turns.ROUTES, motions.ROUTES, takeback.ROUTES, preview.ROUTES, errata.ROUTES)
"""Every Convocate command, form and button."""
ROUTES.group("phase", "the Convocate: the next Phase, or the last one taken back")

FRONT = Front(
    RULESET,
    routes=ROUTES,
    dm_help=(
        ("Second: <Convocant>", "answers an offer to second a Motion (`Second: yes` for your only eligible "
                                "Convocant, `Second: no` declines)"),
    ),
    thread_help=(
        ("Motion: <name> by <Convocant>", "moves a Motion in your Action Phase (here or in the game channel; "
                                          "further lines such as `Morality: <Morality>` fill its card)"),
        ("Motion of Repeal: <Statute> by <Convocant>", "moves a Motion of Repeal against a Statute"),
        ("Second: <Convocant>", "answers an offer to second, as by DM"),
    ),
    message_commands=(MessageCommand("Count as motion", (motions.motion_in_channel, motions.second_in_channel),
                                     "a Motion or a Second"),),
    dm_meant=meant_form,
    dm_open=motions.form_open,
    final=motions.second_is_final,
    next_steps=("Seat the players with /convocate player, put the cards on the board with /card add and the "
                "Factors with /factor set; /board shows the table, and /phase next starts the first turn."),
    settings_note=("These are the Convocate rulings; /convocate rulings, kept as an alias, lists them with their "
                   "P-numbers."),
    due=(offers_due,),
    sources=SOURCES,
    setup=board.setup_summary,
    final_post=board.final_board,
    importer=import_setup,
    import_kinds=IMPORT_KINDS,
    remover=removal.remove_player,
    log_sentences=LOG_SENTENCES,
    undone=undone.UNDONE,
    explain=why.EXPLAIN,
    explain_help=why.HELP,
    explains_posts=why.POSTS,
    after_setting=errata.AFTER_SETTING,
)

__all__ = ["FRONT", "ROUTES"]
