"""``/election reopen``, ``/election cancel`` and ``/candidate set rename`` through the platform-neutral front end
(play-test U1.2, U1.5, U1.7): what the channel is told (the result withdrawn, linking its card; no choice), what
each Faction's player is told by DM (their own choice, the form to change it), the card of the close again (its own
marker, so it is announced and recovered as a new result), and **Explain this** on the withdrawn card."""

from __future__ import annotations

import itertools
from datetime import timedelta
from typing import Any

import pytest
from ledger_front import MODERATOR, text_of
from mylantium_table import CHANNEL, GUILD, MOD, NAMES, USERS, Republic, republic, with_candidates

from bot.actions.commands import App, dispatch
from bot.actions.context import Actor, Ctx, Place
from bot.actions.message_commands import TargetMessage, handle_message_command
from bot.actions.messages import handle_dm
from bot.actions.outbox import POSTED, Here, Outgoing, ToChannel, ToUser
from bot.actions.recovery import unannounced_results
from engine.mylantium.model import FactionCode
from engine.service import Clerk
from engine.service.clock import ManualClock

C = FactionCode
_ids = itertools.count(1)


async def slash(clerk: Clerk, who: Actor, command: str, **options: Any) -> list[Outgoing]:
    return await dispatch(App(clerk), Ctx(who, Place(GUILD, CHANNEL), f"s-{next(_ids)}", clerk.clock.now()), command,
                          options)


async def dm(clerk: Clerk, code: FactionCode, text: str) -> list[Outgoing]:
    ctx = Ctx(Actor(USERS[code], NAMES[code]), Place(None, None), f"d-{next(_ids)}", clerk.clock.now())
    return await handle_dm(App(clerk), ctx, text)


def channel(out: list[Outgoing]) -> str:
    return "\n".join(text_of(o) for o in out if isinstance(o.to, ToChannel))


def dms(out: list[Outgoing]) -> dict[int, str]:
    return {o.to.user_id: text_of(o) for o in out if isinstance(o.to, ToUser)}


def answer(out: list[Outgoing]) -> str:
    return "\n".join(text_of(o) for o in out if isinstance(o.to, Here))


@pytest.fixture
async def rep(clerk: Clerk, clock: ManualClock) -> Republic:
    r = await with_candidates(await republic(clerk, clock))
    await clerk.mylantium.elections.start_election_round(r.id, actor=MOD)
    return r


async def test_a_reopened_primary_is_withdrawn_in_the_channel_and_each_player_told_by_dm(rep: Republic,
                                                                                       clerk: Clerk) -> None:
    """The channel hears the result is withdrawn (with a link to its card) and no choice; each Faction's player hears
    their own choice and how to change it, or that they have not chosen; the close again posts a card marked as the
    second close, and Explain this on the first card says it was withdrawn."""
    await slash(clerk, MODERATOR, "election primary open", deadline="24h")
    await dm(clerk, C.PL, "Primary: Lee")
    closed = await slash(clerk, MODERATOR, "election primary close")
    [card] = [o for o in closed if POSTED in o.extra]
    assert card.extra[POSTED] == f"primary:{rep.id}:1"
    await clerk.announcements.mark_posted(card.extra[POSTED], 6000)
    await clerk.announcements.remember_post(card.extra[POSTED], CHANNEL, 6000)

    out = await slash(clerk, MODERATOR, "election reopen", reason="closed by mistake")
    said = channel(out)
    assert "**mylantium: the Primary of turn 1 is reopened** by the moderators (closed by mistake)" in said
    assert f"https://discord.com/channels/{GUILD}/{CHANNEL}/6000" in said
    assert "nobody is a nominee until it closes again" in said and "Plutocrats" not in said
    assert "open again" in answer(out) and "the nominees Lee (Whig) and Kim (Federalist)" in answer(out)
    told = dms(out)
    assert set(told) == {USERS[c] for c in (C.PL, C.GR, C.PR, C.BH)}
    assert "Your Faction's choice, **Lee**, stands: DM me `Primary: <Candidate>` to change it." in told[USERS[C.PL]]
    assert "The Grangers have not chosen: DM me `Primary: <Candidate>`." in told[USERS[C.GR]]
    assert "Lee" not in told[USERS[C.GR]]
    status = answer(await slash(clerk, MODERATOR, "election status"))
    assert "(open)" in status and "Plutocrats" in status

    assert "Recorded for the Grangers" in text_of((await dm(clerk, C.GR, "Primary: Lee"))[0])
    again = await slash(clerk, MODERATOR, "election primary close")
    [card] = [o for o in again if POSTED in o.extra]
    assert card.extra[POSTED] == f"primary:{rep.id}:1:2"  # a new announcement, not the first one again
    assert card.card is not None and "Counted afresh" in card.card.description
    assert "Lee: **31**" in card.card.as_text()
    since = clerk.clock.now() - timedelta(hours=1)
    assert await clerk.announcements.unposted(since) == [("primary", rep.id, 1)]  # the second close is owed
    [recovered] = [o for o in await unannounced_results(App(clerk), clerk.clock.now()) if POSTED in o.extra]
    assert recovered.extra[POSTED] == card.extra[POSTED]
    await clerk.announcements.mark_posted(card.extra[POSTED], 6100)
    assert await clerk.announcements.unposted(since) == []

    explained = await handle_message_command(App(clerk), Ctx(MODERATOR, Place(GUILD, CHANNEL), "m-1",
                                                             clerk.clock.now()),
                                             "Explain this", TargetMessage(6000, 99, "Clerk", True, ""))
    assert "That card's result was withdrawn" in text_of(explained[0])
    explained = await handle_message_command(App(clerk), Ctx(MODERATOR, Place(GUILD, CHANNEL), "m-2",
                                                             clerk.clock.now()),
                                             "Explain this", TargetMessage(6100, 99, "Clerk", True, ""))
    assert "Lee" in text_of(explained[0]) and "withdrawn" not in text_of(explained[0])


async def test_an_election_round_called_off_is_announced(rep: Republic, clerk: Clerk) -> None:
    out = await slash(clerk, MODERATOR, "election cancel", reason="the votes were not entered")
    assert "**mylantium: turn 1's Election Round is called off** by the moderators (the votes were not entered)" in \
        channel(out)
    assert "locks it took no longer hold" in channel(out)
    assert "being set up again" in answer(out)
    assert "nothing to call off" in answer(await slash(clerk, MODERATOR, "election cancel"))


async def test_a_renamed_candidate_is_announced(rep: Republic, clerk: Clerk) -> None:
    out = await slash(clerk, MODERATOR, "candidate set", name="Lee", rename="Lee Adams")
    assert "Lee Adams (was Lee): Charisma 7, running." in answer(out)
    assert "The candidate **Lee** of the Plutocrats is **Lee Adams** (a moderator's correction of the name)" in \
        channel(out)


async def test_a_held_result_reopened_is_withdrawn_without_saying_what_it_decided(rep: Republic, clerk: Clerk) -> None:
    """A result the disclosure check held (``disclosure: hold``) was never posted: its withdrawal links no card and
    says nothing of what it decided; closed again it is held again, and its release is the second close's."""
    await slash(clerk, MODERATOR, "game settings", setting="disclosure", value="hold")
    await slash(clerk, MODERATOR, "election primary open")
    await dm(clerk, C.PL, "Primary: Lee")
    await slash(clerk, MODERATOR, "election primary close")
    out = await slash(clerk, MODERATOR, "election reopen")
    said = channel(out)
    assert "Its result, held back and never posted, is withdrawn: nobody is a nominee until it closes again." in said
    assert "Lee" not in said and "https://" not in said
    assert "held back and never posted" in answer(out)
    await slash(clerk, MODERATOR, "election primary close")
    released = await slash(clerk, MODERATOR, "election release")
    [card] = [o for o in released if POSTED in o.extra]
    assert card.extra[POSTED] == f"primary:{rep.id}:1:2"
    await clerk.announcements.mark_posted(card.extra[POSTED], 6200)  # the release is owed as the second close's
    assert await clerk.announcements.unposted(clerk.clock.now() - timedelta(hours=1)) == []
