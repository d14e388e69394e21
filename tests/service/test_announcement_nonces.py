"""Each close draws its own token and keeps it with the close (a round's and a Mylantium election's
``result.post_token``, an ``AgElectionClosed``'s payload); its announcement's Discord nonce, and its disclosure
warning's, is the marker with that token (``announcement_nonce``). The recovery after a kill reads the token back and
sends the same nonce (Discord drops the repeat); a close made again after a restore draws another, so its card is
posted rather than returned as the first close's (play-test V2.2; end to end with the fake's nonce enforcement:
tests/e2e/test_backup_restore.py). A release of a held result is a new card: a new token. A close recorded by a Clerk
from before tokens recovers with the nonce it was first sent with, its marker."""

from __future__ import annotations

import re
from typing import Any

from ag_election import ANN, BO, CY, MOD, ann_against_bo
from mylantium_table import republic
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.actions.commands import App
from bot.actions.landsdraad.closing import round_closed
from bot.actions.landsdraad.politics import election_closed as ag_closed
from bot.actions.mylantium.turn import election_closed as myl_closed
from bot.actions.outbox import NONCE, POSTED, WARNED, Outgoing
from bot.actions.recovery import unannounced_results
from engine.mylantium.model import FactionCode as C
from engine.service import Clerk
from engine.service.announcements import NONCE_MAX, POST_TOKEN, announcement_nonce, new_post_token
from engine.service.clock import ManualClock
from engine.store.models import Event
from engine.store.models.landsdraad import Round
from engine.store.models.mylantium import MylElection

TOKEN = re.compile("[0-9a-z]{5}")


def nonces(out: list[Outgoing]) -> dict[str, str]:
    """Marker -> nonce of each announcement and warning in ``out``."""
    return {o.extra.get(POSTED) or o.extra[WARNED]: o.extra[NONCE] for o in out
            if POSTED in o.extra or WARNED in o.extra}


async def recovered(clerk: Clerk) -> dict[str, str]:
    """What the bot's first pass at start would send again, as ``nonces``."""
    return nonces(await unannounced_results(App(clerk), clerk.clock.now()))


def test_a_nonce_is_the_marker_with_the_token_and_fits_discords_limit() -> None:
    assert announcement_nonce("round:7:3", None) == "round:7:3"  # a close from before tokens: as it was sent
    assert announcement_nonce("round:7:3", "k3v9q") == "round:7:3.k3v9q"
    assert announcement_nonce("primary:7:3:2", "k3v9q") == "primary:7:3:2.k3v9q"
    long = "wgeneral:1234567890:12:3"  # 24 characters: with a token past the 25 Discord and the queue take
    hashed = {announcement_nonce(long, token) for token in ("k3v9q", "k3v9r")}
    assert len(hashed) == 2 and all(len(n) == NONCE_MAX and n.startswith("n") for n in hashed)
    assert announcement_nonce(long, "k3v9q") == announcement_nonce(long, "k3v9q")  # the recovery's is the same
    tokens = {new_post_token() for _ in range(20)}
    assert len(tokens) == 20 and all(TOKEN.fullmatch(t) for t in tokens)


async def unanimous_round(table: Any, disclosure: str) -> None:
    """alice and bob both vote Aye: the totals give both ballots away (the disclosure check)."""
    await table.clerk.settings.change_setting(table.game_id, name="disclosure", value=disclosure, actor=MOD)
    await table.player(11, "alice", 3, 2, 2)
    await table.player(12, "bob", 3, 2, 2)
    await table.open()
    await table.vote(11, "Vote: Aye")
    await table.vote(12, "Vote: Aye")


async def test_a_rounds_card_and_warning_carry_its_token_again_at_start_and_an_old_close_its_marker(
        table: Any) -> None:
    await unanimous_round(table, "coarsen")  # coarsened: no chart to draw
    result = await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=MOD)
    token = result.post_token
    assert token is not None and TOKEN.fullmatch(token)
    g = table.game_id
    expected = {f"wround:{g}:1": f"wround:{g}:1.{token}", f"round:{g}:1": f"round:{g}:1.{token}"}
    assert nonces(await round_closed(App(table.clerk), result)) == expected
    assert await recovered(table.clerk) == expected  # the same close, the same nonces: a repeat Discord drops

    async with table.engine.begin() as connection:  # as a Clerk from before tokens recorded it
        kept = (await connection.execute(select(Round.result).where(Round.game_id == g))).scalar_one()
        await connection.execute(update(Round).where(Round.game_id == g).values(
            result={k: v for k, v in kept.items() if k != POST_TOKEN}))
    assert await recovered(table.clerk) == {f"wround:{g}:1": f"wround:{g}:1", f"round:{g}:1": f"round:{g}:1"}


async def test_a_released_result_is_a_new_card_with_a_token_of_its_own(table: Any) -> None:
    await unanimous_round(table, "hold")
    closed = await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=MOD)
    released = await table.clerk.landsdraad.rounds.release_result(table.game_id, number=1, actor=MOD)
    assert closed.post_token is not None and released.post_token is not None
    assert released.post_token != closed.post_token  # a release undone by a restore and made again: posted
    again = await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=None, expected_round=1)
    assert again.post_token == released.post_token  # what the recovery announces it from (closing.round_again)


async def test_an_ag_elections_card_carries_its_token_again_at_start_and_an_old_close_its_marker(
        table: Any) -> None:
    for user, name in ((ANN, "ann"), (BO, "bo"), (CY, "cy")):
        await table.player(user, name, 1, 1, 1)
    await table.open()
    await ann_against_bo(table)
    election = await table.clerk.landsdraad.adjutant.election(table.game_id)
    assert election is not None and election.post_token is not None and TOKEN.fullmatch(election.post_token)
    g = table.game_id
    expected = {f"ag:{g}:1": f"ag:{g}:1.{election.post_token}"}
    assert nonces(ag_closed(App(table.clerk), election)) == expected
    assert await recovered(table.clerk) == expected

    async with table.engine.begin() as connection:
        event_id, payload = (await connection.execute(select(Event.id, Event.payload).where(
            Event.game_id == g, Event.kind == "AgElectionClosed"))).one()
        await connection.execute(update(Event).where(Event.id == event_id).values(
            payload={k: v for k, v in payload.items() if k != POST_TOKEN}))
    assert await recovered(table.clerk) == {f"ag:{g}:1": f"ag:{g}:1"}


async def test_the_ag_close_returns_the_token_it_kept(table: Any) -> None:
    """``/ag close`` announces from the view the close returns: it carries the token its event kept."""
    for user, name in ((ANN, "ann"), (BO, "bo")):
        await table.player(user, name, 1, 1, 1)
    adjutant = table.clerk.landsdraad.adjutant
    await adjutant.open_election(table.game_id, deadline=None, actor=MOD)
    closed = await adjutant.close_election(table.game_id, actor=MOD)
    read = await adjutant.election(table.game_id)
    assert closed is not None and read is not None
    assert closed.post_token is not None and closed.post_token == read.post_token


async def test_a_mylantium_elections_card_carries_its_token_again_at_start_and_an_old_close_its_marker(
        clerk: Clerk, clock: ManualClock, db_engine: AsyncEngine) -> None:
    """A Primary whose Faction Votes give away two choices (as tests/service/test_disclosure_front.py's), coarsened:
    the moderators' warning and the card, and no chart to draw."""
    rep = await republic(clerk, clock)
    await clerk.settings.change_setting(rep.id, name="disclosure", value="coarsen", actor=MOD)
    for name, code, charisma in (("Lee", C.PL, 7), ("Ann", C.GR, 3), ("Kim", C.PR, 5)):
        await clerk.mylantium.add_candidate(rep.id, name=name, code=code, charisma=charisma, actor=MOD)
    await clerk.mylantium.elections.start_election_round(rep.id, actor=MOD)
    await rep.open("primary", hours=24)
    for code, name in ((C.PL, "Lee"), (C.GR, "Lee"), (C.PR, "Kim"), (C.BH, "Kim")):
        await rep.choose(code, "primary", name)
    e = await clerk.mylantium.elections.close_election(rep.id, actor=MOD)
    assert e is not None and e.post_token is not None and TOKEN.fullmatch(e.post_token)
    g = rep.id
    expected = {f"wprimary:{g}:1": f"wprimary:{g}:1.{e.post_token}", f"primary:{g}:1": f"primary:{g}:1.{e.post_token}"}
    assert nonces(await myl_closed(App(clerk), e)) == expected
    assert await recovered(clerk) == expected

    async with db_engine.begin() as connection:
        kept = (await connection.execute(select(MylElection.result).where(MylElection.game_id == rep.id))
                ).scalar_one()
        await connection.execute(update(MylElection).where(MylElection.game_id == rep.id).values(
            result={k: v for k, v in kept.items() if k != POST_TOKEN}))
    assert await recovered(clerk) == {f"wprimary:{g}:1": f"wprimary:{g}:1", f"primary:{g}:1": f"primary:{g}:1"}
