"""The Landsdraad votes that close: a round and an Adjutant General election at their deadline (``Front.closing``),
the close of a round however it closed (``round_closed``), and a closed result announced again after a crash
(``Front.recover``)."""

from __future__ import annotations

import logging
from datetime import datetime
from functools import partial

from bot.actions.commands import App
from bot.actions.drawing import drawn
from bot.actions.landsdraad.charts import result_alt, result_png
from bot.actions.landsdraad.politics import election_closed
from bot.actions.landsdraad.render import exposure_warning, result_card
from bot.actions.landsdraad.victory_posts import majority_check
from bot.actions.moderators import moderator_target
from bot.actions.outbox import (
    POSTED,
    TIMED,
    WARNED,
    Answering,
    AnswerWith,
    Outgoing,
    ToChannel,
    ToThread,
    marked,
)
from engine.service.announcements import posted_marker, warning_marker
from engine.service.landsdraad.views import ResultView
from engine.service.uow import Duplicate
from engine.service.views import GameView
from engine.store.faults import StorageFault

log = logging.getLogger("clerk.messages")


async def rounds_due(app: App, now: datetime) -> list[Outgoing]:
    """Close every open round whose deadline has passed, soonest first; each closes exactly once. One that fails is
    logged and left for the next pass; the others are still closed and announced."""
    out: list[Outgoing] = []
    for game_id, number, deadline in await app.clerk.landsdraad.rounds.pending_deadlines():
        if deadline > now:
            break
        try:  # a held result's card and warning owed with the close, as /round close's (``held_news``)
            answered = await held_answer(app, TIMED.get(), await app.clerk.games.game(game_id))
            result = await app.clerk.landsdraad.rounds.close_round(
                game_id, actor=None, source_id=f"deadline:{game_id}:{number}", expected_round=number,
                answer=answered.owed)
        except Duplicate:
            continue
        except StorageFault:  # logged in one line by the service; closed at a later pass, once writes work
            continue
        except Exception:
            log.exception("closing round %s of game %s at its deadline failed", number, game_id)
            continue
        if not result.already_closed:
            out += await round_closed(app, result, held=answered.out(result), answering=TIMED.get())
    return out


async def elections_due(app: App, now: datetime) -> list[Outgoing]:
    """Close every AG election whose deadline has passed, as ``rounds_due`` closes the rounds."""
    out: list[Outgoing] = []
    for game_id, number, closes in await app.clerk.landsdraad.adjutant.pending_elections():
        if closes > now:
            break
        try:
            election = await app.clerk.landsdraad.adjutant.close_election(game_id, actor=None,
                                                      source_id=f"ag-deadline:{game_id}:{number}", expected=number)
        except StorageFault:
            continue
        except Exception:
            log.exception("closing AG election %s of game %s at its deadline failed", number, game_id)
            continue
        if election is not None:
            out += election_closed(app, election)
    return out


async def round_again(app: App, game_id: int, number: int) -> list[Outgoing]:
    """A round closed but never announced (the bot was killed): its result card again (``Front.recover``)."""
    result = await app.clerk.landsdraad.rounds.close_round(game_id, actor=None, expected_round=number)  # already closed
    return await round_closed(app, result, warn=True,  # the warning may have been lost with the card
                              answering=TIMED.get())


async def ag_again(app: App, game_id: int, number: int) -> list[Outgoing]:
    """An AG election closed but never announced: its result again."""
    election = await app.clerk.landsdraad.adjutant.election(game_id)
    return election_closed(app, election) if election is not None and election.number == number else []


def held_news(place: ToChannel | ToThread, result: ResultView) -> list[Outgoing]:
    """What the close of a result the disclosure check holds back posts (``disclosure: hold``): the moderators'
    warning, in their place (``place``, looked up before the write), and the card saying the result is held, which
    has no marker (the release announces the result): nothing posts them again after a kill, so the close owes them
    in its transaction (``AnswerWith`` with ``warns``: the warning's nonce is new with the close's token). Nothing for
    any other close (its marked card and its warning are owed after it, and posted again at start after a kill:
    ``round_closed``)."""
    if result.shown != "held" or result.already_closed:
        return []
    d = result.disclosure
    warning = [] if d is None or d.released else [Outgoing(place, text=exposure_warning(result), extra=marked(
        WARNED, warning_marker("round", result.round.game.id, result.round.number), result.post_token))]
    return [*warning, Outgoing(ToChannel(result.round.game.channel_id), card=result_card(result))]


async def held_answer(app: App, answering: Answering | None, game: GameView) -> AnswerWith[ResultView]:
    """What a round's close owes in its transaction (``held_news``, its moderators' place looked up now, before the
    write): for ``close_round``'s ``answer``, then ``round_closed``'s ``held``."""
    return AnswerWith(answering, partial(held_news, await moderator_target(app, game)), warns=True)


async def round_closed(app: App, result: ResultView, *, warn: bool | None = None,
                       held: list[Outgoing] | None = None, answering: Answering | None = None) -> list[Outgoing]:
    """The close of any AG election that ended with the round (its winner is in office at round end), then the
    result in the game channel. Each result card carries its own announcement marker (``round:<game>:<n>``, and
    ``ag:<game>:<n>`` on an election's card), marked posted once sent, so a close whose announcement never reached
    Discord is posted at start (recovery.py); its Discord nonce is the marker with the close's token
    (``round:<game>:<n>.<token>``, ``marked``), so a card posted again after a kill is dropped, and the card of a
    close made again after a restore is not (play-test V2.2). However the round closed: at its deadline or by
    ``/round close``. A result held back: its card and warning as the close made them (``held``: owed with it,
    ``held_news``; made here without). Then the majority check (R3-20), a write of its own after the close's, its
    notice owed in that write's transaction when ``answering`` lets it (``majority_check``)."""
    out: list[Outgoing] = []
    for number in result.elections_closed:
        election = await app.clerk.landsdraad.adjutant.election(result.round.game.id)
        if election is not None and election.number == number:
            out += election_closed(app, election)
    if result.shown == "held":  # no totals and no marker: the release announces it (/round release)
        if held is None:
            held = held_news(await moderator_target(app, result.round.game), result)
        return [*out, *held, *await majority_check(app, result.round.game, answering)]
    d = result.disclosure
    if d is not None and not d.released and (warn if warn is not None else not result.already_closed):
        out.append(Outgoing(await moderator_target(app, result.round.game), text=exposure_warning(result),
                            extra=marked(WARNED, warning_marker("round", result.round.game.id, result.round.number),
                                         result.post_token)))
    card = result_card(result)
    marker = marked(POSTED, posted_marker("round", result.round.game.id, result.round.number), result.post_token)
    if result.shown == "coarse":
        return [*out, Outgoing(ToChannel(result.round.game.channel_id), card=card, extra=marker),
                *await majority_check(app, result.round.game, answering)]
    # R0-13's totals as a picture, the factions' share marked; drawn off the loop (drawing.py)
    chart = await drawn(result_png, result, title=card.title)
    return [*out, Outgoing(ToChannel(result.round.game.channel_id), card=card,
                           file=(f"round-{result.round.number}.png", chart),
                           alt=result_alt(result, title=card.title), extra=marker),
            *await majority_check(app, result.round.game, answering)]  # R3-20: a close can make a Majority possible
