"""Mylantium answers through the front end that the play-test of 2026-12-07 found unclear (play-test M5.x): what a
card lists, how a receipt says what it replaced, which settings and commands a Mylantium game describes."""

from __future__ import annotations

from datetime import timedelta
from itertools import count
from typing import Any

import pytest
from ledger_front import MODERATOR, actor, public, text_of
from mylantium_table import CHANNEL, GUILD, USERS, Republic, republic

from bot.actions.commands import App, dispatch
from bot.actions.context import Ctx, Place
from bot.actions.messages import handle_dm
from bot.actions.mylantium.render import pledge_text
from bot.actions.outbox import Outgoing
from engine.mylantium.model import FactionCode
from engine.mylantium.revolution import Waiting
from engine.service import Clerk
from engine.service.clock import ManualClock
from engine.service.mylantium.views import PledgeReceipt

C = FactionCode
_ids = count(1)


async def slash(clerk: Clerk, who: Any, name: str, /, **options: Any) -> list[Outgoing]:
    ctx = Ctx(who, Place(GUILD, CHANNEL), f"a-{next(_ids)}", clerk.clock.now())
    return await dispatch(App(clerk), ctx, name, options)


def texts(out: list[Outgoing]) -> str:
    return "\n".join(text_of(o) for o in out)


@pytest.fixture
async def rep(clerk: Clerk, clock: ManualClock) -> Republic:
    r = await republic(clerk, clock)
    for name, code, charisma in (("Lee Adams", C.PL, 7), ("Ann Oakes", C.GR, 3), ("Kit Marlow", C.PR, 5)):
        await clerk.mylantium.add_candidate(r.id, name=name, code=code, charisma=charisma, actor=1)
    await clerk.mylantium.set_government(r.id, president=C.PR, approval=60, actor=1)
    return r


async def test_the_primary_opening_card_lists_each_partys_running_candidates(rep: Republic, clerk: Clerk) -> None:
    """Play-test M5.2: the players need not look the candidates up in /status; one not running is not listed."""
    await slash(clerk, MODERATOR, "candidate set", name="Ann Oakes", running=False)
    await slash(clerk, MODERATOR, "election start")
    card = texts(public(await slash(clerk, MODERATOR, "election primary open", deadline="1d")))
    assert "Whig: Lee Adams (Plutocrats, Charisma 7)\n" in card
    assert "Federalist: Kit Marlow (Proles, Charisma 5)" in card
    assert "Ann Oakes" not in card


@pytest.mark.parametrize(("before", "now", "was"), [
    ((20, 0), (20, 5), "(was $20 to the Counter-Revolutionary Treasury and nothing to the Brass Hats)"),
    ((20, 5), (20, 0), "(was $20 to the Counter-Revolutionary Treasury and $5 to the Brass Hats)"),
    ((0, 5), (0, 7), "(was nothing to the Counter-Revolutionary Treasury and $5 to the Brass Hats)"),
    ((20, 0), (30, 0), "(was $20)"),
])
async def test_a_contribution_that_changes_a_vanguard_part_says_what_each_part_was(
        rep: Republic, before: tuple[int, int], now: tuple[int, int], was: str) -> None:
    """Play-test M5.8: "$20 to the Treasury and $5 to the Brass Hats (was $20)" read as if the $5 replaced the $20."""
    receipt = PledgeReceipt(rep.game, C.PR, now[0], now[1], 60, None, before, C.BH)
    assert was in pledge_text(receipt, rep.clock.now())


async def test_the_disclosure_setting_is_described_in_mylantiums_words(rep: Republic, clerk: Clerk) -> None:
    """Play-test M5.5: a Mylantium election neither passes nor fails; coarsened, it posts the nominee or the winner
    and a margin band (docs/rulings.md). The words are the ruleset's own (its settings), not the shared code's."""
    shown = texts(await slash(clerk, MODERATOR, "game settings"))
    line = next(t for t in shown.splitlines() if t.startswith("**disclosure**"))
    assert "passed or failed" not in line and "how a player voted" not in line
    assert "what a Faction chose" in line and "each party's nominee in a Primary, or the winning party" in line


async def test_verify_is_neither_offered_nor_run_in_a_game_whose_ruleset_rolls_no_dice(rep: Republic,
                                                                                        clerk: Clerk) -> None:
    """Play-test M5.6: Mylantium has turns and no dice. Its /help does not offer /verify, and /verify answers that
    the game rolls no dice (shared code asks the ruleset's record, ``Ruleset.dice``), not about a round 1."""
    player = actor(USERS[C.PL], "pat")
    assert "/verify" not in texts(await slash(clerk, player, "help"))
    for options in ({}, {"round": 1}):
        answer = texts(await slash(clerk, player, "verify", **options))
        assert answer == ("mylantium is a Mylantium game, and Mylantium rolls no dice: Clerk has no rolls of "
                          "mylantium to check. /verify checks the dice of a game whose ruleset rolls them.")
    assert "the games of a ruleset that rolls dice: Landsdraad" in texts(await slash(clerk, player, "help",
                                                                                     command="verify"))
    sirius = await clerk.games.create_game(guild_id=GUILD, channel_id=950, name="sirius", ruleset="landsdraad",
                                           moderator_role_id=None, actor=1)
    ctx = Ctx(MODERATOR, Place(GUILD, sirius.channel_id), f"a-{next(_ids)}", clerk.clock.now())
    assert "/verify" in texts(await dispatch(App(clerk), ctx, "help", {}))


async def test_a_coup_dm_sent_before_the_offer_open_now_does_not_answer_it(rep: Republic, clerk: Clerk,
                                                                           clock: ManualClock) -> None:
    """Play-test M1.1's sequel: the Proles' attempt is called off and the Brass Hats are offered a coup against the
    Grangers' Revolution. A `Coup: no` sent before that offer was made (it reached Clerk late) meant the old offer:
    refused, saying why; one sent after it answers it."""
    await slash(clerk, MODERATOR, "faction set", faction="Prole", vp=0)
    await slash(clerk, MODERATOR, "faction set", faction="Granger", vp=0)
    sent = clock.now() + timedelta(minutes=1)
    clock.advance(timedelta(minutes=5))
    out = await slash(clerk, MODERATOR, "faction set", faction="Prole", vp=20)
    assert any("the Grangers have fallen to 0 VP" in text_of(o) for o in out)
    bea = actor(USERS[C.BH], "bea")
    stale = texts(await handle_dm(App(clerk), Ctx(bea, Place(None, None), f"a-{next(_ids)}", sent), "Coup: no"))
    assert "before the coup offer open now was made" in stale and "Nothing was recorded" in stale
    assert "asked about the Grangers' Revolution" in stale
    status = await clerk.mylantium.revolutions.revolution(rep.id)
    assert status is not None and status.chain.waiting is Waiting.COUP
    fresh = await handle_dm(App(clerk), Ctx(bea, Place(None, None), f"a-{next(_ids)}", clock.now()), "Coup: no")
    assert "Recorded: the Brass Hats let the Revolution go on." in texts(fresh)
