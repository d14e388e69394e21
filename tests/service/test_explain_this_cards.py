"""**Explain this** on the result cards that carry no announcement marker (issue 19): each front tags its card
(``EXPLAINS``, ``card_tag``), the front end keeps the message it became (``remember_card``, as
bot/discord/delivery.py does), and the menu on that message answers what ``/why`` does for that result, privately.
Here: a Mylantium Business Phase's card (its approval, then its Fervor), a Primary's card (its marker), a Landsdraad
Forecast posted twice (both messages are found), and a message that is no card."""

from __future__ import annotations

import itertools
from datetime import timedelta

import pytest
from conftest import Table
from mylantium_table import CHANNEL, GUILD, MOD, NAMES, USERS, Republic, republic
from test_service_convocate import CHANNEL as CV_CHANNEL
from test_service_convocate import A as CV_A
from test_service_convocate import B as CV_B
from test_service_convocate import Convocate, cv  # noqa: F401 (the fixture)

from bot.actions.commands import App, dispatch
from bot.actions.context import Actor, Ctx, Place, UserRef
from bot.actions.convocate.motions import motion_outgoings
from bot.actions.landsdraad.victory_posts import final_outgoings, forecast_posts
from bot.actions.message_commands import TargetMessage, handle_message_command
from bot.actions.messages import close_due, handle_dm
from bot.actions.outbox import EXPLAINS, Here, Outgoing, ToChannel
from engine.convocate.board import Phase
from engine.landsdraad.majority import Subject
from engine.landsdraad.motions import Motion
from engine.mylantium.business import Happening as H
from engine.mylantium.model import FactionCode
from engine.mylantium.model import FactionCode as C
from engine.service import Clerk
from engine.service.announcements import card_tag, posted_marker
from engine.service.clock import ManualClock

_ids = itertools.count(1)
MODERATOR = Actor(MOD, "mod", manages_server=True)
GUS = Actor(USERS[C.GR], "gus")


async def posted(clerk: Clerk, out: list[Outgoing], first_id: int) -> list[int]:
    """What delivery does with each tagged card sent to the channel: keep the message id it got."""
    ids = []
    for n, o in enumerate(o for o in out if EXPLAINS in o.extra):
        assert isinstance(o.to, ToChannel)
        await clerk.announcements.remember_card(o.extra[EXPLAINS], o.to.channel_id, first_id + n)
        ids.append(first_id + n)
    return ids


def ctx(clerk: Clerk, who: Actor, channel: int = CHANNEL) -> Ctx:
    return Ctx(who, Place(GUILD, channel), f"int-{next(_ids)}", clerk.clock.now())


async def menu(clerk: Clerk, who: Actor, message_id: int, channel: int = CHANNEL) -> list[Outgoing]:
    return await handle_message_command(App(clerk), ctx(clerk, who, channel), "Explain this",
                                        TargetMessage(message_id, 99, "Clerk", True, ""))


async def why(clerk: Clerk, who: Actor, channel: int = CHANNEL, **options: object) -> list[Outgoing]:
    return await dispatch(App(clerk), ctx(clerk, who, channel), "why", dict(options))


def texts(out: list[Outgoing]) -> list[str]:
    assert out and all(isinstance(o.to, Here) and o.ephemeral for o in out), out
    return [o.text or "" for o in out]


async def dm(clerk: Clerk, code: FactionCode, text: str) -> list[Outgoing]:
    who = Actor(USERS[code], NAMES[code])
    return await handle_dm(App(clerk), Ctx(who, Place(None, None), f"dm-{next(_ids)}", clerk.clock.now()), text)


@pytest.fixture
async def rep(clerk: Clerk, clock: ManualClock) -> Republic:
    return await republic(clerk, clock)


async def test_a_business_phase_card_explains_its_approval_and_its_fervor(rep: Republic) -> None:
    await rep.clerk.mylantium.set_government(rep.id, president=C.PR, actor=MOD)
    await rep.clerk.mylantium.elections.start_election_round(rep.id, actor=MOD)
    await rep.happen(H.WAR_DECLARED)
    await rep.happen(H.INCOME_TAX_CREATED, 30)
    out = await dispatch(App(rep.clerk), ctx(rep.clerk, MODERATOR), "phase business close", {})
    (card,) = await posted(rep.clerk, out, 5000)
    answered = texts(await menu(rep.clerk, GUS, card))
    expected = texts(await why(rep.clerk, GUS, what="approval", round=1)) + texts(
        await why(rep.clerk, GUS, what="fervor", round=1))
    assert answered == expected
    assert "50% → 38%" in answered[0] and "+2: now 2" in "\n".join(answered)


async def test_an_election_card_explains_its_stage_and_a_message_that_is_no_card_is_told_so(rep: Republic) -> None:
    for name, code, charisma in (("Lee", C.PL, 7), ("Ash", C.GR, 3), ("Kim", C.PR, 5), ("Max", C.BH, 4)):
        await rep.clerk.mylantium.add_candidate(rep.id, name=name, code=code, charisma=charisma, actor=MOD)
    await rep.clerk.mylantium.set_government(rep.id, president=C.PR, approval=60, actor=MOD)
    await rep.clerk.mylantium.elections.start_election_round(rep.id, actor=MOD)
    await rep.open("primary")
    for code, name in ((C.PL, "Lee"), (C.GR, "Lee"), (C.PR, "Kim"), (C.BH, "Kim")):
        await rep.choose(code, "primary", name)
    await rep.clerk.mylantium.elections.close_election(rep.id, actor=MOD)
    await rep.clerk.announcements.mark_posted(posted_marker("primary", rep.id, 1), 6000)
    answered = texts(await menu(rep.clerk, GUS, 6000))
    assert answered == texts(await why(rep.clerk, GUS, what="election", round=1, name="primary"))
    assert "The Grangers (" in answered[0] and "The Proles (" not in answered[0]  # only gus's own choice
    other = "\n".join(texts(await menu(rep.clerk, GUS, 6001)))
    assert "I cannot tell which result that message announced" in other and "`approval`" in other


async def test_every_posted_forecast_is_found_and_explains_the_forecast(table: Table) -> None:
    """A Forecast is posted at each round's start: every one of its messages is kept (not only the latest)."""
    app = App(table.clerk)
    game = await table.clerk.games.game(table.game_id)
    first = await posted(table.clerk, await forecast_posts(app, game), 7000)
    second = await posted(table.clerk, await forecast_posts(app, game), 7100)
    await posted(table.clerk, await forecast_posts(app, game), 7100)  # the same message reported twice: kept once
    channel = game.channel_id
    expected = texts(await why(table.clerk, MODERATOR, channel, what="forecast"))
    assert "Forecast" in expected[0]
    for card in (*first, *second):
        assert texts(await menu(table.clerk, MODERATOR, card, channel)) == expected
    # Another game's message of the same id is not this game's card.
    assert await table.clerk.announcements.announced_by(table.game_id + 1, first[0]) is None


async def test_a_revolutions_attempt_card_explains_that_attempt_and_not_one_of_another_chain(rep: Republic) -> None:
    """The Proles fall to 0 VP, the Brass Hats decline the coup, only the Plutocrats send $0: the attempt's news in
    the channel is tagged with its attempt and chain, and explained with the money each Faction's own."""
    app = App(rep.clerk)
    out = await dispatch(app, ctx(rep.clerk, MODERATOR), "faction set", {"faction": "Prole", "vp": 0, "treasury": 100})
    out += await dm(rep.clerk, C.BH, "Coup: no")
    out += await dm(rep.clerk, C.PL, "Contribute: 0")
    rep.clock.advance(timedelta(hours=48))
    out += await close_due(app, rep.clock.now())
    cards = await posted(rep.clerk, out, 8000)
    assert cards
    expected = texts(await why(rep.clerk, GUS, what="revolution", round=1))
    assert texts(await menu(rep.clerk, GUS, cards[-1])) == expected and "$" in "\n".join(expected)
    chain = await rep.clerk.mylantium.explain.latest_chain(rep.id)
    assert chain is not None
    await rep.clerk.announcements.remember_card(card_tag("revolution", rep.id, 1, chain + 1), CHANNEL, 8100)
    refused = "\n".join(texts(await menu(rep.clerk, GUS, 8100)))
    assert f"That card is of Revolution #{chain + 1}, not the latest; Clerk explains the attempts" in refused


async def test_each_repeal_card_explains_its_own_motion_and_a_resolved_motion_has_no_count(
        cv: Convocate) -> None:  # noqa: F811 (the fixture imported above)
    """Two Motions of Repeal against the same Statute (a tie, then one that passes): each card explains its own
    count, not the latest against that Statute; an ordinary Motion's resolution says it has nothing counted."""
    await cv.card("character", "K_A", CV_A, at="S_U")
    await cv.card("location", "LA", CV_A, vote=2)
    await cv.card("character", "K_B", CV_B, at="HW_B")
    await cv.card("character", "J_B", CV_B, at="HW_B")
    await cv.card("location", "LB", CV_B, vote=1)
    await cv.phase(("alice", Phase.ACTION))
    await cv.clerk.convocate.turns.declare(cv.gid, user_id=CV_A, statute="X", character="K_A", section=1, sections=2)
    await cv.phase(("bob", Phase.ACTION))
    app = App(cv.clerk)
    tie = await cv.clerk.convocate.motions.repeal(cv.gid, user_id=CV_B, statute="X", convocant="K_B", source_id="r1")
    await cv.card("location", "LB2", CV_B, vote=2)
    won = await cv.clerk.convocate.motions.repeal(cv.gid, user_id=CV_B, statute="X", convocant="J_B", source_id="r2")
    (first,) = await posted(cv.clerk, motion_outgoings(app, tie, first=True), 9000)
    (second,) = await posted(cv.clerk, motion_outgoings(app, won, first=True), 9100)
    bob = Actor(CV_B, "bob")
    one = texts(await menu(cv.clerk, bob, first, CV_CHANNEL))
    two = texts(await menu(cv.clerk, bob, second, CV_CHANNEL))
    assert one == texts(await why(cv.clerk, bob, CV_CHANNEL, what="repeal", round=tie.number))
    assert two == texts(await why(cv.clerk, bob, CV_CHANNEL, what="repeal"))
    assert one != two
    await cv.clerk.announcements.remember_card(card_tag("motion", cv.gid, 3), CV_CHANNEL, 9200)
    told = "\n".join(texts(await menu(cv.clerk, bob, 9200, CV_CHANNEL)))
    assert told.startswith("Motion #3 resolves as its card says") and "`repeal`" in told


async def test_an_audit_card_explains_that_audit_and_the_final_table_the_askers_score(table: Table) -> None:
    """An audit of ann enacted through the front: its card explains ann's audit. The final scores' card explains
    the asker's own score, and asks a moderator (who has none) to name the player."""
    for user_id, name in ((21, "ann"), (22, "bo"), (23, "cy")):
        await table.player(user_id, name, 2, 2, 1)
    await table.open()
    for user_id in (21, 22):
        passed = await table.clerk.landsdraad.majority.support(
            table.game_id, user_id=user_id, motion=Motion(Subject.AUDIT, ("ann",)), thread_id=777,
            at=table.clock.now(), source_id=f"support-{user_id}")
    game = await table.clerk.games.game(table.game_id)
    channel, bo = game.channel_id, Actor(22, "bo")
    out = await dispatch(App(table.clerk), ctx(table.clerk, MODERATOR, channel), "pv enact", {"vote": passed.vote.id})
    (audit,) = await posted(table.clerk, out, 9500)
    answered = texts(await menu(table.clerk, bo, audit, channel))
    assert answered == texts(await why(table.clerk, bo, channel, what="audit", player=UserRef(21, "ann")))
    assert "The audit of ann in round 1" in answered[0]
    await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=MOD)
    result = await table.clerk.landsdraad.victory.end_game(table.game_id, actor=MOD, confirm=True)
    (final,) = await posted(table.clerk, await final_outgoings(result), 9600)
    mine = texts(await menu(table.clerk, bo, final, channel))
    assert mine == texts(await why(table.clerk, bo, channel, what="score")) and "bo's final score" in mine[0]
    told = "\n".join(texts(await menu(table.clerk, MODERATOR, final, channel)))
    assert "Name the player whose score to explain: `/why score player:@jenny`." in told
