"""Victory posts other modules make (rules-spec §3): the Forecast at the start of a round (R3-08), the final table
after an End Game vote (R0-61, R3-04), the Majority Victory notice to moderators (R3-20), and the one place a chart
is attached. Each comes after a command already committed, so a failure is logged and never fails the command."""

from __future__ import annotations

import logging
from datetime import datetime
from functools import partial

from bot.actions.commands import App
from bot.actions.drawing import drawn
from bot.actions.landsdraad import charts
from bot.actions.landsdraad.victory_render import final_card, forecast_card, majority_text, pending_text
from bot.actions.moderators import moderator_target
from bot.actions.outbox import EXPLAINS, TIMED, Answering, AnswerWith, Outgoing, ToChannel, ToThread, reply
from engine.core.errors import ClerkError
from engine.landsdraad.victory import FinalScores
from engine.service.announcements import card_tag
from engine.service.landsdraad.victory_scoring import MAJORITY_AFTER_ROUND
from engine.service.landsdraad.victory_views import (
    FinalOrPending,
    FinalView,
    ForecastView,
    MajorityNotice,
    PendingScores,
)
from engine.service.views import GameView

log = logging.getLogger("clerk.victory")


def landsdraad(game: GameView) -> bool:
    return game.ruleset == "landsdraad"


# -- charts: the one place a PNG is attached ----------------------------------------------------------------------

def chart(kind: str, data: ForecastView | FinalView) -> tuple[str, bytes] | None:
    """THE one place a chart is attached: ``(file name, PNG bytes)`` for a forecast or a final table, drawn by
    bot/actions/landsdraad/charts.py. A chart that fails is logged and left out: the text always goes."""
    try:
        if isinstance(data, ForecastView):
            return "forecast.png", charts.forecast_png(data.forecast, title=f"{data.game.name}: Victory Point "
                                                                            f"Forecast, round {data.round}")
        scores = FinalScores(data.pot, data.rows, data.unawarded)
        return "scores.png", charts.scores_png(scores, title=f"{data.game.name}: final scores",
                                                 penalty=data.penalty)
    except Exception:
        log.exception("could not draw the %s chart of %s", kind, data.game.name)
        return None


def chart_alt(data: ForecastView | FinalView) -> str:
    """The chart of ``chart`` in words, for its alt text."""
    if isinstance(data, ForecastView):
        return charts.forecast_alt(data.forecast, title=f"{data.game.name}'s Victory Point Forecast, round "
                                                        f"{data.round}")
    return charts.scores_alt(FinalScores(data.pot, data.rows, data.unawarded),
                             title=f"the final scores of {data.game.name}")


# -- posts other modules make -------------------------------------------------------------------------------------

async def forecast_posts(app: App, game: GameView, *, taken: str | None = None) -> list[Outgoing]:
    """The Forecast in the game channel (posted at the start of each round, R3-08). It comes after a command that
    has already been committed, so a failure here is logged and leaves it out rather than failing the command."""
    if not landsdraad(game):
        return []
    try:
        view = await app.clerk.landsdraad.victory.forecast(game.id)
        file = await drawn(chart, "forecast", view)  # off the loop: drawing.py
        return [Outgoing(ToChannel(game.channel_id), card=forecast_card(view, taken=taken), file=file,
                         alt=chart_alt(view) if file else "", extra={EXPLAINS: card_tag("forecast", game.id, 0)})]
    except Exception:
        log.exception("the Forecast of %s could not be made", game.name)
        return []


async def final_outgoings(result: FinalOrPending) -> list[Outgoing]:
    """The final table (and its chart, drawn off the loop) in the game channel, or why scoring waits."""
    if isinstance(result, PendingScores):
        return [Outgoing(ToChannel(result.game.channel_id), text=pending_text(result))]
    file = await drawn(chart, "scores", result)  # off the loop: drawing.py
    return [Outgoing(ToChannel(result.game.channel_id), card=final_card(result), file=file,
                     alt=chart_alt(result) if file else "", extra={EXPLAINS: card_tag("score", result.game.id, 0)})]


async def after_end_game(app: App, game: GameView) -> list[Outgoing]:
    """Right after an End Game vote is enacted (R0-61, R3-04): score the game, with its penalty, and post it."""
    if not landsdraad(game):
        return []
    try:
        return await final_outgoings(await app.clerk.landsdraad.victory.score_ended_game(game.id, actor=None))
    except ClerkError as error:
        return [Outgoing(ToChannel(game.channel_id), text=f"**Moderators:** the final scores are not computed: "
                                                         f"{error} `/game end` scores the game.")]
    except Exception:
        log.exception("scoring %s after its End Game vote failed", game.name)
        return [Outgoing(ToChannel(game.channel_id), text="**Moderators:** the final scores could not be computed "
                                                         "(see the bot's log); `/game end` tries again.")]


async def majority_check(app: App, game: GameView | None, answering: Answering | None) -> list[Outgoing]:
    """R3-20, after a change to any V(p) and at each round's close (and at start, ``majorities_at_start``): a post in
    the moderators' private place (``bot/actions/moderators.py``), never the game
    channel: it names the holder's V(p), private to them (P0-14). It never ends the game. The check is a write of its
    own; its notice is owed in that write's transaction when ``answering`` lets it (``AnswerWith``), so a kill after
    its commit cannot lose the notice (the place is read before the write); without, it is owed after."""
    if game is None or not landsdraad(game) or game.current_round < MAJORITY_AFTER_ROUND:
        return []  # no majority before round 5 is complete
    try:
        place = await moderator_target(app, game)
        answered: AnswerWith[MajorityNotice | None] = AnswerWith(answering, partial(_noticed, place))
        notice = await app.clerk.landsdraad.victory.check_majority(game.id, actor=None, answer=answered.owed)
    except Exception:
        log.exception("the majority check of %s failed", game.name)
        return []
    return answered.out(notice)


def _noticed(place: ToChannel | ToThread, notice: MajorityNotice | None) -> list[Outgoing]:
    return majority_posts(notice, place, answered=False)


async def majorities_at_start(app: App, _now: datetime) -> list[Outgoing]:
    """At a start (the deadline scheduler's first pass): the majority check of each running game that has reached
    round 5. The check after a round's close is a write of its own after the close's (whose tuned unit it stays out
    of), and a kill between the two left it undone until the next ledger edit or close: a held result's close is
    not announced again at start (a marked card's is, and its announcement checks again, ``round_closed``). A check
    that finds the majority as it was told (nearly always) writes and posts nothing."""
    out: list[Outgoing] = []
    for game in await app.clerk.games.running_games():
        out += await majority_check(app, game, TIMED.get())
    return out


def majority_posts(notice: MajorityNotice | None, place: ToChannel | ToThread, *, answered: bool = True
                   ) -> list[Outgoing]:
    """``majority_check``'s posts of ``notice`` (none without one), the moderators' place ``place`` read already:
    a line to the moderator who caused it (``answered``) and the post in that place."""
    if notice is None:
        return []
    text = majority_text(notice)
    return [*([reply(text, ephemeral=True)] if answered else []), Outgoing(place, text=text)]
