"""Issue 19 in Mylantium: ``/government set approval:X since:T`` corrects the Approval Rating after a General
Election closed; the moderators are told privately which closed elections come out differently (counted again by
the close's own ``general``: TV1-I04's numbers at the corrected approval); an erratum links the original card."""

from __future__ import annotations

from typing import Any

import pytest
from ledger_front import MODERATOR, text_of
from mylantium_table import CHANNEL, GUILD, Republic, republic
from sqlalchemy import select

from bot.actions.commands import App, dispatch
from bot.actions.context import Ctx, Place
from bot.actions.outbox import Here, Outgoing, ToChannel, ToThread
from engine.core.errors import RuleError
from engine.mylantium.model import FactionCode as C
from engine.mylantium.model import Party
from engine.service import Clerk
from engine.service.clock import ManualClock
from engine.store.models import Event

MOD = 1
W, F = Party.WHIG, Party.FEDERALIST


async def slash(clerk: Clerk, name: str, source: str = "", **options: Any) -> list[Outgoing]:
    return await dispatch(App(clerk), Ctx(MODERATOR, Place(GUILD, CHANNEL), f"s-{name}{source}", clerk.clock.now()),
                          name, options)


@pytest.fixture
async def rep(clerk: Clerk, clock: ManualClock) -> Republic:
    """TV1-I04's turn, closed: Whig 24+7+13 = 44, Federalist 40+5+19 = 64 at approval 60 (Federalist incumbent)."""
    return await _closed_under(clerk, clock, None)


async def test_a_corrected_approval_recounts_the_closed_general_election(rep: Republic) -> None:
    errata = rep.clerk.mylantium.errata
    with pytest.raises(RuleError, match=r"comes out as posted under the corrected ledger; there is nothing to "
                                        r"correct\. \(A change counts from now on unless it says from when: "
                                        r"`/government set approval:X since:T`"):
        await errata.post_erratum(rep.id, turn=1, actor=MOD)
    await rep.clerk.mylantium.set_government(rep.id, approval=50, since=1, actor=MOD, source_id="gov-1")
    c = await errata.after_set(rep.id, source_id="gov-1")  # 60 → 50: 16 each of the Independent Vote's 32
    assert c is not None and c.subject == "The correction of the Approval Rating (-10 from turn 1)"
    [r] = c.recounts
    assert (r.turn, r.totals, r.outcome_changed, r.corrected.approval) == (1, {W: 47, F: 61}, False, 50)
    await rep.clerk.mylantium.set_government(rep.id, approval=10, since=1, actor=MOD, source_id="gov-2")
    c = await errata.after_set(rep.id, source_id="gov-2")  # 60 - 10 - 40 = 10: the incumbent gets 3, Whig 29
    assert c is not None and [(r.totals, r.corrected.winner, r.outcome_changed) for r in c.recounts] == [
        ({W: 60, F: 48}, W, True)]
    assert await errata.after_set(rep.id, source_id="nothing") is None

    await rep.clerk.announcements.remember_post(f"general:{rep.id}:1", 902, 777)
    e = await errata.post_erratum(rep.id, turn=1, actor=MOD)
    assert e.link == "https://discord.com/channels/900/902/777"
    with pytest.raises(RuleError, match="posted already"):
        await errata.post_erratum(rep.id, turn=1, actor=MOD)
    with pytest.raises(RuleError, match="give approval with it"):
        await rep.clerk.mylantium.set_government(rep.id, fervor=1, since=1, actor=MOD)
    with pytest.raises(RuleError, match="1 to 1, not 2"):
        await rep.clerk.mylantium.set_government(rep.id, approval=40, since=2, actor=MOD)


async def test_the_notice_is_private_and_the_erratum_public(rep: Republic) -> None:
    out = await slash(rep.clerk, "government set", approval=10, since=1)
    assert all(isinstance(o.to, (Here, ToThread)) for o in out)
    notice = out[-1]
    assert isinstance(notice.to, ToThread) and notice.to.private
    assert ("General Election of turn 1: posted Whig 44, Federalist 64 (Federalist won) at approval 60; under the "
            "corrected approval 10: Whig 60, Federalist 48 (Whig won): **the winner changes**") in notice.text
    posted = await slash(rep.clerk, "election erratum", turn=1)
    [card] = [o for o in posted if isinstance(o.to, ToChannel)]
    assert "Whig party would have won" in text_of(card) and "Whig: 60 (posted 44)" in text_of(card)


async def setting(clerk: Clerk, name: str, value: str) -> list[Outgoing]:
    """``/game settings setting:<name> value:<value>``, each its own interaction."""
    ctx = Ctx(MODERATOR, Place(GUILD, CHANNEL), f"s-setting-{name}-{value}", clerk.clock.now())
    return await dispatch(App(clerk), ctx, "game settings", {"setting": name, "value": value})


async def test_a_changed_rounding_setting_tells_which_closed_elections_it_changes(rep: Republic) -> None:
    """``/game settings setting:independent_rounding``: the incumbent's 60% of the Independent Vote's 32 is 19.2,
    19 half up, 20 rounded up: the closed election would have been Whig 43, Federalist 65 (the winner stands)."""
    out = await setting(rep.clerk, "independent_rounding", "up")
    [notice] = [o for o in out if isinstance(o.to, ToThread)]
    assert notice.to.private and "The change of the setting independent_rounding to up" in notice.text
    assert ("General Election of turn 1: posted Whig 44, Federalist 64 (Federalist won) at approval 60; under the "
            "Independent Vote rounded up (counted half-up at the close): Whig 43, Federalist 65 (Federalist won): "
            "the winner stands") in notice.text
    assert not any("Whig 43" in (o.text or "") for o in out if isinstance(o.to, ToChannel))  # players: the change
    posted = await slash(rep.clerk, "election erratum", turn=1)
    [card] = [o for o in posted if isinstance(o.to, ToChannel)]
    assert "changed how the Independent Vote is rounded (up, not half-up)" in text_of(card)
    assert "Federalist: 65 (posted 64)" in text_of(card)
    other = await setting(rep.clerk, "contribution_hours", "24")
    assert not any(isinstance(o.to, ToThread) for o in other)  # a setting no election is counted with: no notice
    # play-test M4.5: the players' last word is now the erratum, which no longer holds once the setting is undone
    back = await setting(rep.clerk, "independent_rounding", "half-up")
    told = "\n".join(o.text or "" for o in back if isinstance(o.to, Here))
    assert "the latest erratum said Whig 43, Federalist 65" in told
    assert "**the erratum posted for it no longer holds**" in told
    posted = await slash(rep.clerk, "election erratum", "-2", turn=1)
    [card] = [o for o in posted if isinstance(o.to, ToChannel)]
    assert "General Election of turn 1: erratum withdrawn" in text_of(card)
    assert "Federalist: 64 (as posted; the erratum said 65)" in text_of(card)
    again = await slash(rep.clerk, "election erratum", "-3", turn=1)
    assert "was posted already; it is not posted twice" in text_of(again[0])


async def _closed_under(clerk: Clerk, clock: ManualClock, mode: str | None) -> Republic:
    """TV1-I04's turn, closed, with the ``disclosure`` setting ``mode`` from the start (None: the default): its
    General Election's Faction Votes (Whig 24 + 7, Federalist 40 + 5) give every Faction's choice away."""
    r = await republic(clerk, clock)
    if mode is not None:
        await clerk.settings.change_setting(r.id, name="disclosure", value=mode, actor=MOD)
    for name, code, charisma in (("Lee", C.PL, 7), ("Kim", C.PR, 5)):
        await clerk.mylantium.add_candidate(r.id, name=name, code=code, charisma=charisma, actor=MOD)
    await clerk.mylantium.set_government(r.id, president=C.PR, approval=60, actor=MOD)
    await clerk.mylantium.elections.start_election_round(r.id, actor=MOD)
    await r.open("primary")
    for code, name in ((C.PL, "Lee"), (C.GR, "Lee"), (C.PR, "Kim"), (C.BH, "Kim")):
        await r.choose(code, "primary", name)
    await clerk.mylantium.elections.close_election(r.id, actor=MOD)
    await r.open("general")
    for code, party in ((C.PL, "whig"), (C.GR, "whig"), (C.PR, "federalist"), (C.BH, "federalist")):
        await r.choose(code, "general", party)
    await clerk.mylantium.elections.close_election(r.id, actor=MOD)
    return r


async def test_the_erratum_of_a_coarsened_election_withholds_its_totals_too(clerk: Clerk, clock: ManualClock) -> None:
    """The erratum's totals differ from the card's only by the Independent Vote's split (public approval): under
    ``coarsen`` the card had no totals, so the erratum has none either; it says who would have won."""
    r = await _closed_under(clerk, clock, "coarsen")
    await slash(clerk, "government set", approval=10, since=1)
    posted = await slash(clerk, "election erratum", turn=1)
    [card] = [o for o in posted if isinstance(o.to, ToChannel)]
    text = text_of(card)
    assert "Whig party would have won" in text and "would give away how a Faction chose" in text
    assert "Whig: 60" not in text and "posted 44" not in text and "Federalist: 48" not in text
    async with clerk._sessions() as session:
        found = await session.execute(select(Event.payload).where(Event.game_id == r.id, Event.kind == "ErratumPosted"))
        assert [p["shown"] for p in found.scalars()] == ["coarse"]


async def test_the_erratum_of_a_held_election_waits_for_its_release(clerk: Clerk, clock: ManualClock) -> None:
    r = await _closed_under(clerk, clock, "hold")
    await slash(clerk, "government set", approval=10, since=1)
    with pytest.raises(RuleError, match="held by the disclosure check: release it with `/election release`"):
        await clerk.mylantium.errata.post_erratum(r.id, turn=1, actor=MOD)
    await clerk.mylantium.elections.release_result(r.id, stage=None, actor=MOD)
    posted = await slash(clerk, "election erratum", turn=1)
    [card] = [o for o in posted if isinstance(o.to, ToChannel)]
    assert "Whig: 60 (posted 44)" in text_of(card)  # released: the card had its totals, the erratum has them
