"""The shared moderators' commands (`/game moderators`, `/game move`, `/game close`, `/game reopen`), Mylantium's
`/election remind` and `/phase business close`, the close of a result the disclosure check holds back (a Mylantium
election's, a Landsdraad round's) and the Convocate set-up summary after a change during set-up owe what they post
in the transaction of their write (``AnswerWith``, ``engine.service.owed.owe_in``): the bot killed between that
commit and the front end owing anything loses none of it, and the next start posts each once (the kill-window checks
of tests/e2e/test_owed_interactions.py)."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any
from unittest.mock import patch

from fakediscord import Channel, until

from .clerkbot import Harness
from .test_discord_conditions import lost_reports
from .test_discord_myl_conv import also_plays, primary
from .test_owed_interactions import (
    killed_as_it_returns,
    killed_in_a_pass,
    nothing_more,
    posted_once_at_start,
    posted_since,
)


async def all_held(h: Harness, count: int) -> None:
    """Wait until ``count`` messages for #sirius, refused there, are recorded held (``settle_soon``: committed a little
    after the refusal)."""
    async def held() -> bool:
        return await h.clerk.outbox.held_count(h.game.id) == count

    await until(held, f"{count} messages for #sirius recorded held")


async def test_what_the_shared_game_commands_announce_committed_just_before_a_kill_is_posted_after_it_once(
        clerk_bot: Harness) -> None:
    """Each killed after its commit, before anything is owed: `/game moderators` (the line in the game channel);
    `/game move` of #sirius, deleted, whose round's card was held meanwhile (the card posted in the new channel, and
    the move's line there: the held card is owed again for the new channel in the move's transaction; before, it
    was released in a write of its own after the move's, and killed before that it stayed held for a channel the
    game had left, never posted); a second `/game move` (the line in the channel left too);
    vega's `/game close`, `/game reopen` and `/game close` again (the correction, with what changed while it was
    reopened, read in the close's transaction). After each restart each is posted once; a second restart posts
    nothing more. Before, each was owed after its commit (and what was held released in a write of its own) and the
    kill lost it."""
    h = clerk_bot
    await h.new_game(deadline="2h")
    await h.fake.reply_to(await h.fake.dm(h.alice, "Vote: Aye"))
    mods = await h.fake.create_role("Mods")
    dora = h.fake.add_user("dora", roles=(mods,))
    before = {m.id for m in h.fake.sent}
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "game moderators", h.game, role=mods))
    changed: dict[str, tuple[Channel | None, str]] = {
        "the moderators changed": (h.game, f"The moderators of sirius are now <@&{mods.id}> (before: members with "
                                           "Manage Server).")}
    await posted_once_at_start(h, before, changed)

    await h.fake.delete_channel(h.game)
    await h.fake.wait_for(lambda: lost_reports(h, h.fake.owner), "the report to the server's owner")
    h.clock.advance(timedelta(hours=3))
    await h.tick()  # the round closes; its card is refused (404 10003) and held
    await h.settle()
    await all_held(h, 2)  # the card and the moderators' note, each settled held a little after its refusal
    new, other = h.fake.add_channel("sirius-again"), h.fake.add_channel("sirius-third")
    before = {m.id for m in h.fake.sent}

    async def killed_before_releasing(_old: int, _new: int) -> int:  # the kill came before any release after it
        return 0

    with patch.object(h.app, "game_moved", killed_before_releasing):
        await killed_as_it_returns(h, lambda: h.fake.slash(dora, "game move", new, game="sirius"))
    held: dict[str, tuple[Channel | None, str]] = {
        "the held card": (new, "sirius, round 1: the measure"),
        "the move's line": (new, f"**sirius** is played in this channel from now on (moved from <#{h.game.id}> "
                                 "(deleted) by the moderators)."),
    }
    await posted_once_at_start(h, before, held)
    assert await h.clerk.outbox.held_count(h.game.id) == 0
    await nothing_more(h, before, held)
    before = {m.id for m in h.fake.sent}
    await killed_as_it_returns(h, lambda: h.fake.slash(dora, "game move", other, game="sirius"))
    again: dict[str, tuple[Channel | None, str]] = {
        "the line in the channel left": (new, f"**sirius** moved to <#{other.id}>."),
        "the line in the new one": (other, f"**sirius** is played in this channel from now on (moved from "
                                           f"<#{new.id}> by the moderators)."),
    }
    await posted_once_at_start(h, before, again)

    vega = await also_plays(h, "convocate", "vega", moved=False)
    before = {m.id for m in h.fake.sent}
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "game close", vega, reason="the table has finished"))
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "game reopen", vega, reason="a Motion was missed"))
    await h.run(h.alice, "motion move", vega, name="Land Reform", convocant="Kista")
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "game close", vega))
    closed: dict[str, tuple[Channel | None, str]] = {
        "the close": (vega, "**vega** has ended (the table has finished): its ledger is closed."),
        "the reopening": (vega, f"**vega** was reopened by <@{h.mod.id}> to correct a mistake (a Motion was "
                                "missed)."),
        "the correction": (vega, f"**Correction: vega** has ended again, closed by <@{h.mod.id}>. Changed while it "
                                 "was reopened: MotionMoved"),
    }
    await posted_once_at_start(h, before, closed)
    await nothing_more(h, before, closed)


async def test_an_election_reminder_and_a_business_phase_closed_just_before_a_kill_are_posted_after_it_once(
        clerk_bot: Harness) -> None:
    """Mylantium's `/election remind` with the General Election open and nobody chosen (a reminder DMed to each
    Faction's player), then `/phase business close`, whose Fervor drops the Proles to 0 VP (the card with its
    chart, and the Revolution it begins), each killed after its commit, before anything is owed. After the restart
    each DM, the card (with its chart: added to the card's row before the kill) and the Revolution are posted once;
    a second restart posts nothing more. Before, each was owed after the commit (the card after its chart was drawn)
    and the kill lost it; the Revolution was under way and nobody was told."""
    h = clerk_bot
    await primary(h)
    await h.run(h.mod, "election primary close", h.game)
    await h.run(h.mod, "election general open", h.game)
    before = {m.id for m in h.fake.sent}
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "election remind", h.game))
    reminded: dict[str, tuple[Channel | None, str]] = {
        f"the reminder to {who.name}": (h.fake.dm_channel(who), "Reminder: The General Election")
        for who in (h.alice, h.bob, h.carol)}
    await posted_once_at_start(h, before, reminded)
    await nothing_more(h, before, reminded)

    for who, text in ((h.alice, "General: Whig"), (h.bob, "General: Whig"), (h.carol, "General: Federalist")):
        await h.fake.reply_to(await h.fake.dm(who, text))
    await h.run(h.mod, "election general close", h.game)
    await h.run(h.mod, "faction set", h.game, faction="Prole", vp=1)
    await h.run(h.mod, "event income-tax", h.game, change="created", points=30)
    before = {m.id for m in h.fake.sent}
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "phase business close", h.game))
    closed: dict[str, tuple[Channel | None, str]] = {
        "the card": (h.game, "sirius: the Business Phase of turn 1 is closed"),
        "the Revolution": (h.game, "**Revolution in sirius!** The Proles have fallen to 0 VP"),
    }
    await posted_once_at_start(h, before, closed)
    [card] = [m for m in h.fake.sent if m.id not in before and closed["the card"][1] in m.text()]
    assert [name for name, _ in card.files] == ["history.png"], "the card posted with its chart"
    await nothing_more(h, before, closed)
    assert posted_since(h, before, {"the card": closed["the card"]}) == {"the card": 1}


async def test_a_held_election_result_closed_just_before_a_kill_is_posted_after_it_once(clerk_bot: Harness) -> None:
    """`disclosure: hold`: the Primary's close gives away what the Plutocrats and Grangers chose, so its result is
    held back; its card (saying so, with no announcement marker) and the moderators' warning are owed in the close's
    transaction (``held_news``), by `/election primary close` and, after `/election reopen`, at its deadline in a
    pass of the scheduler, each killed after its commit. After each restart the card and the warning are posted
    once; a second restart posts nothing more. Before, they were owed after the commit, and nothing posted them again
    after a kill (the announcements' recovery posts a marked card, and a held result has none): nobody learnt that
    the Primary had closed."""
    h = clerk_bot
    await primary(h)
    await h.run(h.mod, "game settings", h.game, setting="disclosure", value="hold")
    before = {m.id for m in h.fake.sent}
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "election primary close", h.game))
    held: dict[str, tuple[Channel | None, str]] = {
        "the card": (h.game, "sirius: the Primary of turn 1 is closed"),
        "the moderators' warning": (None, "**Moderators:** the Faction Votes in the result of the Primary of turn 1 "
                                          "of sirius give away what these Factions chose"),
    }
    await posted_once_at_start(h, before, held)
    warning = next(m for m in h.fake.sent if m.id not in before and held["the moderators' warning"][1] in m.text())
    assert h.fake.channels[warning.channel_id].name == "sirius moderators"  # their private thread
    [card] = [m for m in h.fake.sent if m.id not in before and held["the card"][1] in m.text()]
    assert "The moderators will post the result." in card.text() and "Lee Adams" not in card.text()
    await nothing_more(h, before, held)

    await h.run(h.mod, "election reopen", h.game, reason="a choice was late", deadline="1h")
    before = {m.id for m in h.fake.sent}
    await killed_in_a_pass(h, timedelta(hours=2))
    await posted_once_at_start(h, before, held)
    await nothing_more(h, before, held)


async def test_the_convocate_setup_summary_changed_just_before_a_kill_is_brought_up_to_date_after_it(
        clerk_bot: Harness) -> None:
    """While #vega's table is being set up, the game channel has one set-up summary, edited in place. alice's `/card
    add` of her Homeworld, the moderators' `/card set` of it, `/factor set` and `/card remove` of a Location are
    each killed after their commit, before anything is owed: after each restart the summary reads as the change left
    it (made of the board read in the change's transaction and owed with it; ``CardDone.setup``, ``FactorSet.setup``)
    and is still one message. Before, it was read and owed after the commit, and the kill left it out of date until
    the next change."""
    h = clerk_bot
    vega = h.fake.add_channel("vega")
    await h.run(h.mod, "game new", vega, ruleset="convocate", name="vega")
    await h.run(h.mod, "convocate player", vega, user=h.alice, sovereignty="Union")
    await h.run(h.mod, "card add", vega, kind="location", name="Corovan")
    await h.settle()

    def summary() -> str:
        [message] = [m for m in h.fake.messages(vega) if "being set up" in m.text() or "set-up" in m.text().lower()]
        return message.text()

    for act, piece in ((lambda: h.fake.slash(h.alice, "card add", vega, kind="homeworld", name="Union Prime"),
                        "Union Prime"),
                       (lambda: h.fake.slash(h.mod, "card set", vega, name="Union Prime", vote=1, readied=False),
                        "activated"),
                       (lambda: h.fake.slash(h.mod, "factor set", vega, name="GOVT", value=3), "GOVT +3"),
                       (lambda: h.fake.slash(h.mod, "card remove", vega, name="Corovan"), None)):
        shown = summary()
        await killed_as_it_returns(h, act)
        assert summary() == shown, "killed before the summary was edited"
        await h.restart()
        await h.settle()
        assert summary() != shown, "brought up to date at start"
        if piece is not None:
            assert piece in summary()
        else:
            assert "Corovan" not in summary()


async def test_a_held_round_result_closed_just_before_a_kill_is_posted_after_it_once(clerk_bot: Harness) -> None:
    """Landsdraad with `disclosure: hold`: alice votes Aye and bob Nay, so the totals give both ballots away and the
    result is held back; its card (no totals, no marker) and the moderators' warning are owed in the close's
    transaction (``held_news``), by `/round close` and, for round 2, at its deadline in a pass of the scheduler, each
    killed after its commit. After each restart both are posted once; a second restart posts nothing more. Before,
    they were owed after the commit and nothing posted them again after a kill."""
    h = clerk_bot
    await h.new_game()
    await h.run(h.mod, "game settings", h.game, setting="disclosure", value="hold")
    for number, close in ((1, "command"), (2, "deadline")):
        if number > 1:
            await h.run(h.mod, "round open", h.game, crisis="Build the fleet?", deadline="2h")
        await h.run(h.alice, "vote", h.game, choice="aye")
        await h.run(h.bob, "vote", h.game, choice="nay")
        before = {m.id for m in h.fake.sent}
        if close == "command":
            await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "round close", h.game))
        else:
            await killed_in_a_pass(h, timedelta(hours=3))
        held: dict[str, tuple[Channel | None, str]] = {
            "the card": (h.game, f"sirius, round {number} is closed"),
            "the moderators' warning": (None, f"**Moderators:** the totals of round {number} of sirius"),
        }
        await posted_once_at_start(h, before, held)
        warning = next(m for m in h.fake.sent if m.id not in before and held["the moderators' warning"][1] in m.text())
        assert h.fake.channels[warning.channel_id].name == "sirius moderators"  # their private thread
        await nothing_more(h, before, held)


async def test_a_message_refused_in_the_deleted_channel_just_before_a_move_goes_to_the_new_channel(
        clerk_bot: Harness) -> None:
    """#sirius is deleted; at the deadline the round's card and the moderators' note are refused there (404 10003)
    and found to be for a game's channel, and `/game move` to #sirius-again commits before the first of them is
    recorded held. The hold reads the game's channel in its own transaction, under the game's lock, so it sees the
    move and sends the message to the new channel instead: the card is posted there once and nothing stays held; a
    restart posts nothing more. Before, the hold was a mark of its own committed after the move, whose release could
    not see it: the message stayed held for a channel the game had left, never posted."""
    h = clerk_bot
    await h.new_game(deadline="2h")
    await h.fake.reply_to(await h.fake.dm(h.alice, "Vote: Aye"))
    await h.fake.delete_channel(h.game)
    await h.fake.wait_for(lambda: lost_reports(h, h.fake.owner), "the report to the server's owner")
    new = h.fake.add_channel("sirius-again")
    lost = h.bot.courier.lost
    real = lost.lost
    moving: list[asyncio.Task[object]] = []

    async def then_moved(game: Any, item: Any) -> None:  # the refusal was looked up; the move commits before the hold
        await real(game, item)
        if item is not None:
            if not moving:
                async def move() -> object:
                    return await h.fake.answered(await h.fake.slash(h.mod, "game move", new, game="sirius"))

                moving.append(asyncio.create_task(move()))
            await asyncio.shield(moving[0])

    before = {m.id for m in h.fake.sent}
    with patch.object(lost, "lost", then_moved):
        h.clock.advance(timedelta(hours=3))
        await h.tick()  # the round closes; its card and the moderators' note are refused in #sirius
        await h.fake.wait_for(lambda: bool(moving) and moving[0].done(), "the move")
        await h.settle()
    moved: dict[str, tuple[Channel | None, str]] = {
        "the card": (new, "sirius, round 1: the measure"),
        "the move's line": (new, "**sirius** is played in this channel from now on"),
    }
    assert posted_since(h, before, moved) == dict.fromkeys(moved, 1), "the card posted in the new channel"
    assert await h.clerk.outbox.held_count(h.game.id) == 0, "nothing held for the channel the game left"

    async def nothing_owed() -> bool:  # the marks of what was sent are committed a moment after (``settle_soon``)
        return await h.clerk.outbox.owed_count() == 0

    await until(nothing_owed, "every message marked sent")
    await nothing_more(h, before, moved)
