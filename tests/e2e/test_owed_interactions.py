"""What a button press, a menu choice, a slash command (a player's or a moderator's), a post in a game channel and
the deadline scheduler's timed work post elsewhere is owed in the transaction of the write they make
(``Courier.answering_posts``, ``outbox.TIMED``, ``AnswerWith``), as a DM form's is
(tests/e2e/test_discord_myl_conv.py): the bot killed between that commit and the front end owing anything loses
none of it; the next start posts each once. The answer to the presser (the interaction's response) is not owed: a
restart has no token to send it with; pressing again tells them what counted (docs/reliability.md)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import timedelta
from functools import partial
from typing import Any
from unittest.mock import patch

from fakediscord import Channel, Interaction, Sent
from fakediscord.wiring import ErrorLog

from bot.discord import client

from .clerkbot import Harness
from .test_ballot_buttons import ballots, offer_to
from .test_convocate_erratum_link import seated, until
from .test_discord_myl_conv import also_plays, primary
from .test_mylantium import coup_offer


async def killed_as_it_returns(h: Harness, act: Callable[[], Awaitable[Interaction]]) -> Interaction:
    """``act`` makes an interaction (a press, a menu choice, a slash command): the bot takes it, its handler commits,
    and the bot is killed as the handler returns, before the front end answers, owes or queues anything
    (``Courier.to_interaction``) or shows the pressed message's buttons disabled. The interaction, never
    answered."""
    async def killed(*_args: Any, **_kwargs: Any) -> None:
        return None

    real = h.bot.courier.to_interaction
    h.bot.courier.to_interaction = killed  # type: ignore[method-assign]
    try:
        with patch.object(client, "disable_buttons", killed), patch.object(client, "disable_select", killed):
            interaction = await act()
            await h.settle()
    finally:
        h.bot.courier.to_interaction = real  # type: ignore[method-assign]
    assert interaction.responses == [], "killed before the interaction was answered"
    return interaction


async def killed_in_a_pass(h: Harness, later: timedelta) -> None:
    """The clock moves on by ``later`` and the deadline scheduler's pass does what has come due: it commits, and the
    bot is killed as the pass is about to deliver, before it owes or queues anything (``DeadlineScheduler.deliver``)."""
    async def killed(*_args: Any, **_kwargs: Any) -> None:
        return None

    real = h.bot.scheduler.deliver
    h.bot.scheduler.deliver = killed
    try:
        h.clock.advance(later)
        await h.tick()
        await h.settle()
    finally:
        h.bot.scheduler.deliver = real


def posted_since(h: Harness, before: set[int], wanted: dict[str, tuple[Channel | None, str]]) -> dict[str, int]:
    """How many messages, new since ``before``, carry each wanted piece (in its channel, when one is named)."""
    new = [m for m in h.fake.sent if m.id not in before and m.kind == "message"]
    return {what: sum(1 for m in new if piece in m.text() and (where is None or m.channel_id == where.id))
            for what, (where, piece) in wanted.items()}


async def posted_once_at_start(h: Harness, before: set[int], wanted: dict[str, tuple[Channel | None, str]]) -> None:
    """Nothing of ``wanted`` was sent since ``before`` (the bot was killed first); after a restart each is posted
    once, from the outgoing queue."""
    assert posted_since(h, before, wanted) == dict.fromkeys(wanted, 0), "killed before anything was sent"
    await h.restart()
    await h.settle()  # what was owed before the kill is sent from the outgoing queue at start
    assert posted_since(h, before, wanted) == dict.fromkeys(wanted, 1), "each posted once at start"


async def nothing_more(h: Harness, before: set[int], wanted: dict[str, tuple[Channel | None, str]]) -> None:
    """After one more restart each of ``wanted`` is still posted once: owed once, sent once."""
    await h.restart()
    await h.settle()
    assert posted_since(h, before, wanted) == dict.fromkeys(wanted, 1), "owed once, posted once"


def newest_dm(h: Harness, user: Any, piece: str) -> Sent:
    return [m for m in h.fake.dms(user) if piece in m.content][-1]


async def test_what_a_button_press_posts_elsewhere_committed_just_before_a_kill_is_posted_after_it_once(
        clerk_bot: Harness) -> None:
    """alice presses **No coup** on the coup offer (#sirius, Mylantium) and **Decline** on the offer to second Land
    Reform (#vega, the Convocate); each press commits and the bot is killed before anything is owed. After the
    restart the coup's news, the requests for contributions, the offer's move and the offer DMed to carol are each
    posted once, and a second restart posts nothing more. Before, each was owed after the commit and the kill lost
    it: carol was never asked to second, and the channel never heard that the offer moved. alice's answer (the
    press's response) is not sent after the restart: pressing again tells her it was answered."""
    h = clerk_bot
    coup = await coup_offer(h)  # #sirius: alice the Brass Hats, offered a coup
    vega = await also_plays(h, "convocate", "vega")  # alice offered to second Land Reform, carol next
    offer = newest_dm(h, h.alice, "Will you second")
    before = {m.id for m in h.fake.sent}
    await killed_as_it_returns(h, lambda: h.fake.press(h.alice, coup, "No coup"))
    await killed_as_it_returns(h, lambda: h.fake.press(h.alice, offer, "Decline"))
    carol = h.fake.dm_channel(h.carol)
    wanted: dict[str, tuple[Channel | None, str]] = {
        "the coup answer's news": (h.game, "The Brass Hats do not attempt a coup."),
        "the requests for contributions": (carol, "sirius: the Proles' Revolution is under way."),
        "the offer's move, in the channel": (vega, "Motion #1 (Land Reform): alice declined. The offer to second is "
                                                   "now with **carol**"),
        "the offer to the next player": (carol, "vega: alice moved **Land Reform** with Kista.\nWill you second it?"),
    }
    await posted_once_at_start(h, before, wanted)
    again = await h.press(h.alice, offer, "Decline")  # alice saw "This interaction failed": she presses again
    assert "already answered" in again.first.content and "Nothing was recorded" in again.first.content
    await nothing_more(h, before, wanted)


async def test_what_a_slash_command_or_a_post_records_and_posts_committed_just_before_a_kill_is_posted_after_it_once(
        clerk_bot: Harness) -> None:
    """Players' slash commands that record something, and a vote posted in a thread of the game channel, each killed
    after its commit, before anything is owed: alice's `/motion move` (the Motion announced, the offer DMed to
    the first player asked), her `/motion decline` (the offer's move, the offer DMed to carol), carol's `/motion
    second` (the resolution), bob's `/ag vote` (the AG election's running count), alice's `/pv support` (the player
    vote's running count, in a thread the bot makes); then bob's `Vote: End Game` posted in that thread (the count
    brought up to date, the vote passed), the moderators' `/motion reopen` of carol's second (the channel told,
    the offer DMed to carol again) and their `/motion ask-again` of alice's decline (the channel told, the offer
    DMed to alice again, carol told it went back). After each restart each is posted once; a second restart posts
    nothing more. Before, each was owed after its commit and the kill lost it."""
    h = clerk_bot
    vega = await also_plays(h, "convocate", "vega", moved=False)
    rigel = await also_plays(h, "landsdraad", "rigel")
    await h.run(h.mod, "ag open", rigel)
    tally = next(m for m in h.fake.sent if "rigel: Adjutant General election #1" in m.text())
    before = {m.id for m in h.fake.sent}
    await killed_as_it_returns(h, lambda: h.fake.slash(h.alice, "motion move", vega, name="Land Reform",
                                                       convocant="Kista"))
    await killed_as_it_returns(h, lambda: h.fake.slash(h.alice, "motion decline", vega))
    await killed_as_it_returns(h, lambda: h.fake.slash(h.carol, "motion second", vega))
    await killed_as_it_returns(h, lambda: h.fake.slash(h.bob, "ag vote", rigel, candidate="alice"))
    await killed_as_it_returns(h, lambda: h.fake.slash(h.alice, "pv support", rigel, subject="End Game"))
    alice, carol = h.fake.dm_channel(h.alice), h.fake.dm_channel(h.carol)
    wanted: dict[str, tuple[Channel | None, str]] = {
        "the Motion announced": (vega, "alice activates Kista (from its Homeworld) to move **Land Reform**."),
        "the offer to alice": (alice, "vega: alice moved **Land Reform** with Kista.\nWill you second it?"),
        "the offer's move, in the channel": (vega, "Motion #1 (Land Reform): alice declined. The offer to second is "
                                                   "now with **carol**"),
        "the offer to carol": (carol, "vega: alice moved **Land Reform** with Kista.\nWill you second it?"),
        "the resolution": (vega, "vega: Motion #1, Land Reform, resolves"),
        "the player vote's running count": (None, "Player vote #1: End Game (round 1)"),
    }
    assert "bob → alice" not in tally.text()
    await posted_once_at_start(h, before, wanted)
    assert "bob → alice" in tally.text(), "the AG election's running count brought up to date"
    count = next(m for m in h.fake.sent if "Player vote #1: End Game (round 1)" in m.text())
    thread = h.fake.channels[count.channel_id]
    assert thread.name == "player-votes-round-1" and "open: 1 of the 2 needed" in count.text()

    async def killed(*_args: Any, **_kwargs: Any) -> None:
        return None

    real = h.bot.courier.to_message
    h.bot.courier.to_message = killed  # type: ignore[method-assign]
    later = {m.id for m in h.fake.sent}
    try:  # bob's post in the thread: read, committed, killed before the front end owes anything
        await h.fake.say(h.bob, thread, "Vote: End Game")
        await h.settle()
    finally:
        h.bot.courier.to_message = real  # type: ignore[method-assign]
    # the moderators take carol's second back (`/motion reopen`): the offer is with her again
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "motion reopen", vega, number=1, reason="wrong seat"))
    passed: dict[str, tuple[Channel | None, str]] = {
        "the vote passed": (rigel, "Player vote passed: End Game"),
        "the Motion reopened": (vega, "**Motion #1 (Land Reform) is reopened** by the moderators: carol's second"),
        "the offer to carol again": wanted["the offer to carol"]}
    assert "open: 1 of" in count.text()
    await posted_once_at_start(h, later, passed)
    assert "PASSED: awaiting the moderator" in count.text(), "the running count brought up to date"
    edits = (tally.edits, count.edits)
    await nothing_more(h, later, passed)
    assert posted_since(h, before, wanted) == {**dict.fromkeys(wanted, 1), "the offer to carol": 2}
    assert (tally.edits, count.edits) == edits
    # the moderators take alice's decline back (`/motion ask-again`): the offer goes back to her, carol is told
    asked_from = {m.id for m in h.fake.sent}
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "motion ask-again", vega, player=h.alice,
                                                       reason="wrong player"))
    asked = {"the offer back to alice": (vega, "**Motion #1 (Land Reform): the offer to second goes back to alice**"),
             "the offer to alice again": wanted["the offer to alice"],
             "carol told": (carol, "vega: the offer to second Motion #1 (Land Reform) has gone back to alice")}
    await posted_once_at_start(h, asked_from, asked)
    await nothing_more(h, asked_from, asked)


async def test_what_a_dm_chosen_by_its_menu_posts_elsewhere_committed_just_before_a_kill_is_posted_after_it_once(
        clerk_bot: Harness) -> None:
    """bob plays two Landsdraad games; his `Transfer: 500 MS to alice` fits both, so it is answered with a menu of
    them. He chooses rigel; the transfer commits and the bot is killed before anything is owed. After the restart
    the moderators' notice of the transfer is posted once (their private thread); a second restart posts nothing
    more. Before, it was owed after the commit and the kill lost it."""
    h = clerk_bot
    rigel = await also_plays(h, "landsdraad", "rigel")
    await also_plays(h, "landsdraad", "deneb")
    menu = await h.fake.reply_to(await h.fake.dm(h.bob, "Transfer: 500 MS to alice"))
    await h.settle()
    assert "Nothing was recorded yet" in menu.content
    before = {m.id for m in h.fake.sent}
    [option] = [o["value"] for o in menu.selects()[0]["options"] if o["label"].startswith("#rigel")]
    await killed_as_it_returns(h, lambda: h.fake.choose(h.bob, menu, option))
    wanted: dict[str, tuple[Channel | None, str]] = {
        "the moderators' notice": (None, "📦 Transfer #1 · round 1 of rigel (by DM,")}
    await posted_once_at_start(h, before, wanted)
    notice = next(m for m in h.fake.sent if wanted["the moderators' notice"][1] in m.text())
    assert h.fake.channels[notice.channel_id].name == "rigel moderators"  # their private thread, nowhere public
    assert rigel.id != notice.channel_id
    await nothing_more(h, before, wanted)


async def test_what_a_convocate_turns_commands_announce_committed_just_before_a_kill_is_posted_after_it_once(
        clerk_bot: Harness) -> None:
    """alice's turn in the Convocate, each command killed after its commit, before anything is owed: `/statute
    declare` (its card), `/directive`, the moderators' `/factor set` (a Factor added), `/phase next` (whose Phase it
    is now), `/statute section` and `/statute destroy` (their lines in the game channel); then the moderators'
    `/statute set` (alice's Statute Y given carol as its owner), bob's `/repeal` of Y (its outcome) and the
    moderators' `/statute restore` of X. After the restart each is posted once; a second restart posts nothing
    more. Before, each was owed after its commit and the kill lost it: the table never heard that X was declared or
    whose Phase it was."""
    h = clerk_bot
    game_id = await seated(h)
    before = {m.id for m in h.fake.sent}
    for who, command, options in (
            (h.alice, "statute declare", {"statute": "X", "character": "K_A", "section": 1, "sections": 2}),
            (h.alice, "directive", {"factor": "GOVT"}),
            (h.mod, "factor set", {"name": "Trade", "value": 1}),
            (h.alice, "phase next", {}),
            (h.alice, "statute section", {"statute": "X", "section": 2}),
            (h.alice, "statute destroy", {"statute": "X"})):
        await killed_as_it_returns(h, partial(h.fake.slash, who, command, h.game, **options))
    wanted: dict[str, tuple[Channel | None, str]] = {
        "the Statute declared": (h.game, "sirius: alice declares X"),
        "the Directive": (h.game, "alice's current Directive is now GOVT."),
        "the Factor set": (h.game, "The moderators set **TRADE** to +1 (added)."),
        "whose Phase it is": (h.game, "Turn 1: **alice's Admin Phase**."),
        "the Section in force": (h.game, "Section 2 of X is in force now (alice's Admin Phase)."),
        "the Statute destroyed": (h.game, "alice destroys X; it goes to alice's Depleted Pile."),
    }
    await posted_once_at_start(h, before, wanted)
    await until(h, game_id, "alice")  # alice's next turn: K_A readied, she declares Y; then bob moves to repeal it
    await h.run(h.alice, "statute declare", h.game, statute="Y", character="K_A", section=1, sections=2)
    await until(h, game_id, "bob")
    for who, command, options in (
            (h.mod, "statute set", {"statute": "Y", "owner": h.carol, "reason": "mistyped"}),
            (h.bob, "repeal", {"statute": "Y", "convocant": "K_B"}),
            (h.mod, "statute restore", {"statute": "X", "reason": "a typo"})):
        await killed_as_it_returns(h, partial(h.fake.slash, who, command, h.game, **options))
    repealed: dict[str, tuple[Channel | None, str]] = {
        "the owner corrected": (h.game, "The moderators corrected the owner of **Y**: carol, not alice (mistyped)"),
        "the Repeal": (h.game, "sirius: Motion of Repeal against Y"),
        "the Statute restored": (h.game, "The moderators put **X** back in force (a correction: it was destroyed by "
                                         "mistake; a typo)")}
    await posted_once_at_start(h, before, repealed)
    await nothing_more(h, before, {**wanted, **repealed})


async def test_a_phase_stepped_back_just_before_a_kill_is_announced_after_it_once(clerk_bot: Harness) -> None:
    """The moderators' `/phase back` (play-test U2.2) takes back alice's /phase next, and the bot is killed after its
    commit, before anything is owed: after the restart the channel is told, once, that alice's Action Phase is
    under way again (owed in the step back's transaction, ``AnswerWith``). Before, the kill lost it: the table
    would not know the Phase had been taken back."""
    h = clerk_bot
    await seated(h)
    await h.run(h.alice, "phase next", h.game)
    before = {m.id for m in h.fake.sent}
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "phase back", h.game, reason="pressed twice"))
    wanted: dict[str, tuple[Channel | None, str]] = {
        "the step back": (h.game, "Turn 1: **alice's Action Phase** again. The moderators took back")}
    await posted_once_at_start(h, before, wanted)
    await nothing_more(h, before, wanted)


async def test_an_election_reopened_or_a_round_called_off_just_before_a_kill_is_announced_after_it_once(
        clerk_bot: Harness) -> None:
    """Mylantium's election commands, each killed after its commit, before anything is owed: the Primary closed by
    mistake and reopened (play-test U1.2: the channel told, each Faction's player DMed their own choice) and its
    deadline moved (`/election deadline`); after the Primary closes again, the Whig nominee named (`/election
    nominee`), the General Election opened (its card) and, once it has closed and the approval was corrected, its
    erratum (`/election erratum`); after the turn's Business Phase, the next Round started too early (`/election
    start`: the locks) and called off (play-test U1.5). After each restart what each announced is posted once (owed
    in its transaction, ``AnswerWith``); before, each was owed after its commit and the kill lost it."""
    h = clerk_bot
    await primary(h)
    await h.run(h.mod, "election primary close", h.game)
    before = {m.id for m in h.fake.sent}
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "election reopen", h.game, reason="too early"))
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "election deadline", h.game, deadline="48h"))
    reopened: dict[str, tuple[Channel | None, str]] = {
        "the channel told": (h.game, "**sirius: the Primary of turn 1 is reopened** by the moderators (too early)"),
        "alice told her choice": (h.fake.dm_channel(h.alice), "Your Faction's choice, **Lee Adams**, stands"),
        "carol told hers": (h.fake.dm_channel(h.carol), "Your Faction's choice, **Kit Marlow**, stands"),
        "the deadline moved": (h.game, "The Primary of turn 1 in sirius now closes")}
    await posted_once_at_start(h, before, reopened)
    await nothing_more(h, before, reopened)
    await h.run(h.mod, "election primary close", h.game)
    await h.run(h.mod, "election cancel", h.game)  # refused: the Primary has opened (nothing owed)
    before = {m.id for m in h.fake.sent}
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "election nominee", h.game, party="Whig",
                                                       candidate="Ann Oakes"))
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "election general open", h.game))
    await h.run(h.mod, "election general close", h.game)
    await h.run(h.mod, "government set", h.game, approval=10, since=1)
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "election erratum", h.game, turn=1))
    await h.run(h.mod, "phase business close", h.game)
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "election start", h.game))
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "election cancel", h.game, reason="started early"))
    called_off: dict[str, tuple[Channel | None, str]] = {
        "the nominee named": (h.game, "The moderators name **Ann Oakes** the Whig nominee."),
        "the General Election opened": (h.game, "sirius: the General Election of turn 1 is open"),
        "the erratum": (h.game, "sirius, General Election of turn 1: erratum"),
        "the locks": (h.game, "**sirius: the Election Round of turn 2 begins.**"),
        "the channel told": (h.game, "**sirius: turn 2's Election Round is called off** by the moderators")}
    await posted_once_at_start(h, before, called_off)


async def test_a_ballot_pressed_just_before_a_kill_counts_once_and_pressing_again_says_so(clerk_bot: Harness) -> None:
    """The decision for the answer to the presser (docs/reliability.md): a crisis ballot's buttons post nothing
    elsewhere (the ballot is secret), so all a press makes is its receipt, the interaction's response, which is not
    owed: after a kill Discord has told alice "This interaction failed" and a restart has no token to answer it
    with. Her ballot counts, once; nothing is sent to her after the restart; pressing again answers that her ballot
    stays Aye (the same choice again counts once). This held before the change too: it shows the decision."""
    h = clerk_bot
    await h.new_game(deadline="2h")
    offer = await offer_to(h, h.alice)
    before = {m.id for m in h.fake.sent}
    await killed_as_it_returns(h, lambda: h.fake.press(h.alice, offer, "Aye"))
    await h.restart()
    await h.settle()
    assert [m for m in h.fake.sent if m.id not in before and m.kind == "message"] == [], "nothing owed for it"
    assert [e["payload"]["option"] for e in await ballots(h)] == ["aye"], "it counts, once"
    again = await h.press(h.alice, offer, "Aye")
    assert again.first.ephemeral and "stays **Aye** (the same choice again; it counts once)" in again.first.content


async def test_an_offer_passed_on_by_a_moderator_or_at_its_timeout_just_before_a_kill_is_posted_after_it_once(
        clerk_bot: Harness) -> None:
    """The moderator's `/motion skip` passes alice's offer to second on, and the bot is killed after its commit;
    then carol's offer times out in a pass of the deadline scheduler, which also records the reminder of #sirius's
    round (24 h before its deadline), killed after those commits too, before the pass owes anything. After each
    restart what it announced is posted once: the offer's move and the offer DMed to carol, then the Motion's
    resolution without a second and the reminder DMed to alice and bob. Before, each was owed after its commit and
    the kill lost it (carol was never asked; the table never heard that the Motion resolved; nobody was reminded,
    and the reminder, recorded as sent, was never sent again)."""
    h = clerk_bot
    vega = await also_plays(h, "convocate", "vega")  # alice offered to second Land Reform, carol next
    await h.new_game(deadline="2d12h")  # #sirius: its round's reminder 24 h before comes in 36 h
    before = {m.id for m in h.fake.sent}
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "motion skip", vega))
    carol = h.fake.dm_channel(h.carol)
    skipped: dict[str, tuple[Channel | None, str]] = {
        "the offer's move, in the channel": (vega, "Motion #1 (Land Reform): alice passed over by a moderator"),
        "the offer to carol": (carol, "vega: alice moved **Land Reform** with Kista.\nWill you second it?"),
    }
    await posted_once_at_start(h, before, skipped)
    await killed_in_a_pass(h, timedelta(days=2))  # the pass commits carol's timeout and the reminder, then is killed
    reminder = "Reminder: Round 1 of sirius closes"
    resolved: dict[str, tuple[Channel | None, str]] = {
        "the resolution": (vega, "Nobody seconded it."),
        "the reminder to alice": (h.fake.dm_channel(h.alice), reminder),
        "the reminder to bob": (h.fake.dm_channel(h.bob), reminder)}
    await posted_once_at_start(h, before, resolved)
    await nothing_more(h, before, {**skipped, **resolved})


async def corrected(h: Harness) -> None:
    """#sirius (Landsdraad, weighing AG ballots): bob (6 votes) alone votes, for himself as AG and Nay in round 1,
    and both close; then ``/player set bob misc:10 since:1`` changes both counts (16 votes)."""
    await h.new_game()
    await h.run(h.mod, "game settings", h.game, setting="ag_weighted", value="yes")
    await h.run(h.mod, "ag open", h.game)
    await h.run(h.bob, "ag vote", h.game, candidate="bob")
    await h.run(h.bob, "vote", h.game, choice="nay")
    await h.run(h.mod, "ag close", h.game)
    await h.run(h.mod, "round close", h.game)
    await h.run(h.mod, "player set", h.game, user=h.bob, misc=10, since=1)


async def test_what_a_moderators_command_announces_committed_just_before_a_kill_is_posted_after_it_once(
        clerk_bot: Harness) -> None:
    """The moderator's commands whose announcements the players rely on, each killed after its commit, before
    anything is owed: `/ag open` (the line in the game channel, the running count in its thread), `/ag extend` (the
    count with its new close), `/pv veto` of a passed player vote (the veto, the vote's count), `/pv enact` of a
    passed Audit (the audit's card, the vote's count), `/round extend`, `/round pause` and `/round resume` (each
    line in the game channel), `/round remind` (the DMs of the round's and the AG election's reminders), `/motion
    withdraw` (the line in the game channel, the DM to alice, who was offered the Motion), `/round erratum` (the
    erratum, the moderators' warning of the ballots its totals give away) and `/ag erratum`. After the restart each
    is posted once, the count with the extended close; a second restart posts nothing more. Before, each was owed
    after its commit and the kill lost it (and an erratum could not be posted again: "posted already")."""
    h = clerk_bot
    vega = await also_plays(h, "convocate", "vega")  # alice offered to second Land Reform
    rigel = await also_plays(h, "landsdraad", "rigel")
    for who in (h.alice, h.bob):
        await h.run(who, "pv support", rigel, subject="End Game")  # passed: 2 of the 2 needed
        await h.run(who, "pv support", rigel, subject="Audit: bob")
    vote = next(m for m in h.fake.sent if "Player vote #1: End Game (round 1)" in m.text())
    audit = next(m for m in h.fake.sent if "Player vote #2: Audit" in m.text())
    assert "PASSED" in vote.text() and "PASSED" in audit.text()
    await corrected(h)  # #sirius: round 1 and a weighted AG election closed, then a correction that changes both
    before = {m.id for m in h.fake.sent}
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "ag open", rigel, deadline="24h"))
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "ag extend", rigel, until="48h"))
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "pv veto", rigel, vote=1))
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "pv enact", rigel, vote=2))
    for command, options in (("round extend", {"to": "3d"}), ("round pause", {}), ("round resume", {}),
                             ("round remind", {})):
        await killed_as_it_returns(h, partial(h.fake.slash, h.mod, command, rigel, **options))
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "motion withdraw", vega))
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "round erratum", h.game, round=1))
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "ag erratum", h.game))
    wanted: dict[str, tuple[Channel | None, str]] = {
        "the election announced": (rigel, "**Adjutant General election #1** is open, in the thread"),
        "the election's running count": (None, "rigel: Adjutant General election #1"),
        "the veto": (rigel, "Vetoed: End Game"),
        "the audit enacted": (rigel, "CHOAM audit of bob"),
        "the round extended": (rigel, "The moderators extended round 1."),
        "the round paused": (rigel, "The moderators paused round 1."),
        "the round resumed": (rigel, "The moderators resumed round 1."),
        "the round's reminder to bob": (h.fake.dm_channel(h.bob), "Reminder: Round 1 of rigel"),
        "the AG election's reminder to bob": (h.fake.dm_channel(h.bob), "Reminder: The Adjutant General election 1 "
                                                                        "of rigel"),
        "the withdrawal": (vega, "**Motion #1 (Land Reform) is withdrawn** by the moderators"),
        "the withdrawal, to alice": (h.fake.dm_channel(h.alice), "vega: Motion #1 (Land Reform), which you were "
                                                                 "offered to second, is withdrawn"),
        "the round's erratum": (h.game, "sirius, round 1: erratum"),
        "its warning, to the moderators": (None, "**Moderators:** the corrected totals of the erratum for round 1"),
        "the AG election's erratum": (h.game, "sirius: Adjutant General election #1: erratum"),
    }
    assert "vetoed" not in vote.text()
    await posted_once_at_start(h, before, wanted)
    tally = next(m for m in h.fake.sent if wanted["the election's running count"][1] in m.text())
    extended = int((h.clock.now() + timedelta(hours=48)).timestamp())
    assert f"<t:{extended}:" in tally.text(), "the count with the extended close (the older text superseded)"
    assert "vetoed by the moderator" in vote.text(), "the vote's count brought up to date"
    assert "enacted by the moderator" in audit.text(), "the audit vote's count brought up to date"
    warning = next(m for m in h.fake.sent if wanted["its warning, to the moderators"][1] in m.text())
    assert h.fake.channels[warning.channel_id].name == "sirius moderators"  # their private thread
    edits = (tally.edits, vote.edits, audit.edits)
    await nothing_more(h, before, wanted)
    assert (tally.edits, vote.edits, audit.edits) == edits


async def test_a_round_opened_just_before_a_kill_is_announced_and_its_ballots_dmed_after_it_once(
        clerk_bot: Harness) -> None:
    """The moderator's `/game announce` during set-up, then `/round open`, each killed after its commit, before
    anything is owed: after the restart the set-up summary is posted again at the foot of the channel (the old one
    edited to point to it), and the round's announcement and each active player's ballot DM (with its buttons) are
    posted once; a second restart posts nothing more. Before, they were owed after the commit and the kill lost
    them: the summary was nowhere new, the round was open, and no player was told or given the ballot. (The
    Forecast posted at a round's start is owed with them too, its chart added after: tests/e2e/test_owed_charts.py.)"""
    h = clerk_bot
    await h.run(h.mod, "game new", h.game, ruleset="landsdraad", name="sirius")
    for who in (h.alice, h.bob):
        await h.run(h.mod, "player add", h.game, user=who, diplomacy=2, command=2, intrigue=1, roll=1)
    summary = h.fake.messages(h.game)[-1]
    assert "being set up" in summary.text()
    before = {m.id for m in h.fake.sent}
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "game announce", h.game))
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "round open", h.game, crisis="Raise the fleet levy?"))
    offer = "Round 1 of sirius is open: Raise the fleet levy?"
    wanted: dict[str, tuple[Channel | None, str]] = {
        "the set-up summary again": (h.game, "being set up"),
        "the announcement": (h.game, "sirius: round 1 is open"),
        "alice's ballot": (h.fake.dm_channel(h.alice), offer),
        "bob's ballot": (h.fake.dm_channel(h.bob), offer),
    }
    await posted_once_at_start(h, before, wanted)
    assert summary.content.startswith("The set-up summary was posted again"), "the old one points to it"
    assert [b["label"] for b in (await offer_to(h, h.alice)).buttons()] == ["Aye", "Nay", "Abstain"]
    await nothing_more(h, before, wanted)


async def test_a_revolution_resolved_at_its_deadline_just_before_a_kill_is_announced_after_it_once(
        clerk_bot: Harness) -> None:
    """The moderators answer the coup offer for the Brass Hats (`/revolution coup answer:no`: the Proles' Revolution
    goes on) and move the contributions' deadline (`/revolution deadline`), each killed after its commit; carol alone
    sends a contribution; the contributions close at their deadline in a pass of the deadline scheduler, which
    commits the resolution and is killed before it owes anything. After the restart the coup's news, the request for
    contributions, the deadline moved, the moderators' warning that the result gives carol's contribution away, the
    outcome and the game's end are posted once; a second restart posts nothing more. Before, they were owed after
    their commits (the warning's place looked up after the write) and the kill lost them: the game had ended, and
    nobody was told."""
    h = clerk_bot
    await coup_offer(h)  # #sirius: alice the Brass Hats, offered a coup; bob's Proles rise
    before = {m.id for m in h.fake.sent}
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "revolution coup", h.game, answer="no"))
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "revolution deadline", h.game, deadline="24h"))
    await h.fake.reply_to(await h.fake.dm(h.carol, "Contribute: 20"))
    await killed_in_a_pass(h, timedelta(days=2))
    wanted: dict[str, tuple[Channel | None, str]] = {
        "the coup answer's news": (h.game, "The Brass Hats do not attempt a coup."),
        "the request for contributions": (h.fake.dm_channel(h.carol), "sirius: the Proles' Revolution is under way."),
        "the deadline moved": (h.game, "Contributions to revolution #1 now close"),
        "the moderators' warning": (None, "the Plutocrats gave $20 to the Counter-Revolutionary Treasury"),
        "the outcome": (h.game, "The Proles are victorious: they install a Proletarian Socialism."),
        "the game's end": (h.game, "**sirius has ended:** the Proles have overthrown the government."),
    }
    await posted_once_at_start(h, before, wanted)
    warning = next(m for m in h.fake.sent if wanted["the moderators' warning"][1] in m.text())
    assert h.fake.channels[warning.channel_id].name == "sirius moderators"  # their private thread
    await nothing_more(h, before, wanted)


async def test_what_a_press_owed_with_its_write_goes_out_even_when_its_answer_fails(clerk_bot: Harness,
                                                                                    errors: ErrorLog) -> None:
    """alice presses **Decline**, and answering her press fails unexpectedly (not a refusal Discord sends: the
    connection breaks, say). What her write owed, the offer's move and the offer DMed to carol, is queued all the
    same and posted now, not only at the next start."""
    h = clerk_bot
    vega = await also_plays(h, "convocate", "vega")  # alice offered to second Land Reform, carol next
    offer = newest_dm(h, h.alice, "Will you second")
    before = {m.id for m in h.fake.sent}

    async def broken(*_args: Any, **_kwargs: Any) -> None:
        raise ConnectionResetError("the connection broke while answering")

    with patch.object(h.bot.courier, "_respond", broken):
        await h.fake.press(h.alice, offer, "Decline")
        await h.settle()
    carol = h.fake.dm_channel(h.carol)
    wanted: dict[str, tuple[Channel | None, str]] = {
        "the offer's move, in the channel": (vega, "Motion #1 (Land Reform): alice declined."),
        "the offer to carol": (carol, "vega: alice moved **Land Reform** with Kista.\nWill you second it?"),
    }
    assert posted_since(h, before, wanted) == dict.fromkeys(wanted, 1)
    assert [isinstance(r.exc_info[1] if r.exc_info else None, ConnectionResetError)
            for r in errors.records] == [True]  # discord.py logs the failed callback
    errors.records.clear()
