"""Victory posts other modules make (rules-spec §3): the Forecast at the start of a round (R3-08), the final table
after an End Game vote (R0-61, R3-04), the Majority Victory notice to moderators (R3-20), and the one place a chart
is attached. The Forecast and the final table are made of what their write read in its transaction and owed with it
(``AnswerWith``), their chart drawn off the event loop after the commit and added to their row before it is queued
(``charted_cards``, ``bot/actions/owed_files.py``); a failure to draw it is logged and never fails the command."""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import datetime
from functools import partial
from typing import Any

from bot.actions.commands import App
from bot.actions.drawing import Picture, drawn
from bot.actions.landsdraad import charts
from bot.actions.landsdraad.victory_render import final_card, forecast_card, majority_text, pending_text
from bot.actions.moderators import moderator_target
from bot.actions.outbox import EXPLAINS, TIMED, Answering, AnswerWith, Outgoing, ToChannel, ToThread, reply
from bot.actions.owed_files import ChartKind, charted
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


Charted = tuple[Outgoing, ForecastView | FinalView]
"""A card owed with its write, and what its chart is drawn of once the write has committed."""


async def chart_picture(data: ForecastView | FinalView) -> Picture:
    """``data``'s chart (``chart``), drawn off the loop, with its alt text; no file when it could not be drawn."""
    file = await drawn(chart, "forecast" if isinstance(data, ForecastView) else "scores", data)  # drawing.py
    return Picture(file, chart_alt(data) if file else "")


async def charted_cards(app: App, answered: AnswerWith[Any], out: list[Outgoing], cards: list[Charted]
                        ) -> list[Outgoing]:
    """``out`` (``answered.out``'s) with each of ``cards`` given its chart, drawn now, after the write: added to the
    card's row first when it was owed with the write (``charted``), so a kill before that posts it without it."""
    for item, data in cards:
        out = await charted(app, answered, out, item, await chart_picture(data))
    return out


async def _forecast_now(app: App, game_id: int) -> ForecastView:
    return await app.clerk.landsdraad.victory.forecast(game_id)


async def _final_now(app: App, game_id: int) -> FinalView | None:
    return await app.clerk.landsdraad.victory.final(game_id)


FORECAST_CHART: ChartKind[ForecastView] = ChartKind(
    "forecast", _forecast_now, lambda v: (v.game.name, v.round, v.forecast), chart_picture)
"""The Forecast's chart (``forecast.png``), drawn again at start for a card a kill left owed without it."""
SCORES_CHART: ChartKind[FinalView] = ChartKind(
    "scores", _final_now, lambda v: (v.game.name, v.pot, v.rows, v.unawarded, v.penalty), chart_picture)
"""The final table's chart (``scores.png``), drawn again at start for a card a kill left owed without it."""


def forecast_post(view: ForecastView, *, taken: str | None = None) -> Outgoing:
    """The Forecast's card in the game channel, without its chart (``charted_cards`` adds it; its marker lets the
    recovery at start add it: ``FORECAST_CHART``)."""
    return Outgoing(ToChannel(view.game.channel_id), card=forecast_card(view, taken=taken),
                    extra={EXPLAINS: card_tag("forecast", view.game.id, 0),
                           **FORECAST_CHART.marker(view.game.id, view)})


def final_posts(result: FinalOrPending, cards: list[Charted], *, text: str = "") -> list[Outgoing]:
    """The final table in the game channel (after ``text``, when given), without its chart (appended to ``cards``
    with its data, for ``charted_cards``), or why scoring waits."""
    if isinstance(result, PendingScores):
        return [Outgoing(ToChannel(result.game.channel_id), text=pending_text(result))]
    card = Outgoing(ToChannel(result.game.channel_id), text=text, card=final_card(result),
                    extra={EXPLAINS: card_tag("score", result.game.id, 0),
                           **SCORES_CHART.marker(result.game.id, result)})
    cards.append((card, result))
    return [card]


def unscored_post(game: GameView, refused: str | None) -> Outgoing:
    """After an End Game vote whose scoring failed (the game ended all the same): the moderators told why, and that
    ``/game end`` scores it."""
    if refused is not None:
        return Outgoing(ToChannel(game.channel_id), text=f"**Moderators:** the final scores are not computed: "
                                                         f"{refused} `/game end` scores the game.")
    return Outgoing(ToChannel(game.channel_id), text="**Moderators:** the final scores could not be computed (see the "
                                                     "bot's log); `/game end` tries again.")


# -- posts other modules make -------------------------------------------------------------------------------------

async def forecast_posts(app: App, game: GameView, *, taken: str | None = None) -> list[Outgoing]:
    """The Forecast in the game channel as it stands now, with its chart (a round's opening owes it with its write
    instead: ``forecast_post``). A failure here is logged and leaves it out."""
    if not landsdraad(game):
        return []
    try:
        view = await app.clerk.landsdraad.victory.forecast(game.id)
        picture = await chart_picture(view)
        return [replace(forecast_post(view, taken=taken), file=picture.file, alt=picture.alt)]
    except Exception:
        log.exception("the Forecast of %s could not be made", game.name)
        return []


async def final_outgoings(result: FinalOrPending) -> list[Outgoing]:
    """The final table with its chart (drawn off the loop) in the game channel, or why scoring waits."""
    cards: list[Charted] = []
    out = final_posts(result, cards)
    for item, data in cards:
        picture = await chart_picture(data)
        out = [replace(o, file=picture.file, alt=picture.alt) if o is item else o for o in out]
    return out


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
    that finds the majority as it was told (nearly always) writes and posts nothing; every game is looked at first by
    one read (``majorities_to_tell``: a statement, and three for each 50 games, none per game), so a start with many
    long games takes no write lock for them, and only a game with something to tell is checked (a write)."""
    to_tell = set(await app.clerk.landsdraad.victory.majorities_to_tell())
    if not to_tell:
        return []
    out: list[Outgoing] = []
    for game in await app.clerk.games.running_games():
        if game.id in to_tell and landsdraad(game) and game.current_round >= MAJORITY_AFTER_ROUND:
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
