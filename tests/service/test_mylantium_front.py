"""Mylantium through the platform-neutral front end (``dispatch``, ``handle_dm``, ``close_due``): where each answer
goes (secret choices and contributions back to the sender only, the coup offer and the requests for contributions
by DM, totals in the channel), the rulesets keeping to their own commands and DM forms, the game's own settings,
and deadlines closing through the same path as rounds."""

from __future__ import annotations

from datetime import timedelta
from itertools import count
from typing import Any

import pytest
from ledger_front import MODERATOR, actor, public, text_of, user
from mylantium_table import CHANNEL, GUILD, NAMES, USERS, Republic, republic

from bot.actions.commands import App, dispatch
from bot.actions.context import Ctx, Place
from bot.actions.messages import close_due, handle_button, handle_channel_message, handle_dm
from bot.actions.outbox import Here, Outgoing, ToChannel, ToThread, ToUser
from engine.core.stamps import stamp
from engine.mylantium.model import FactionCode, Party
from engine.service import Clerk
from engine.service.clock import ManualClock

C = FactionCode
_ids = count(1)


async def slash(clerk: Clerk, who: Any, name: str, channel: int = CHANNEL, **options: Any) -> list[Outgoing]:
    ctx = Ctx(who, Place(GUILD, channel), f"s-{next(_ids)}", clerk.clock.now())
    return await dispatch(App(clerk), ctx, name, options)


async def dm(clerk: Clerk, code: FactionCode, text: str) -> list[Outgoing]:
    ctx = Ctx(actor(USERS[code], NAMES[code]), Place(None, None), f"d-{next(_ids)}", clerk.clock.now())
    return await handle_dm(App(clerk), ctx, text)


def texts(out: list[Outgoing]) -> str:
    return "\n".join(text_of(o) for o in out)


@pytest.fixture
async def rep(clerk: Clerk, clock: ManualClock) -> Republic:
    r = await republic(clerk, clock)
    for name, code, charisma in (("Lee", C.PL, 7), ("Kim", C.PR, 5)):
        await clerk.mylantium.add_candidate(r.id, name=name, code=code, charisma=charisma, actor=1)
    await clerk.mylantium.set_government(r.id, president=C.PR, approval=60, actor=1)
    return r


async def test_each_ruleset_keeps_to_its_own_commands(rep: Republic, clerk: Clerk) -> None:
    out = await slash(clerk, MODERATOR, "round open", crisis="Piracy")
    assert "/round open is not used in Mylantium games like mylantium" in texts(out)
    assert "/election" in texts(out) and out[0].ephemeral
    await clerk.games.create_game(guild_id=GUILD, channel_id=950, name="sirius", ruleset="landsdraad",
                                  moderator_role_id=None, actor=1)
    out = await slash(clerk, MODERATOR, "election start", channel=950)
    assert texts(out) == "/election start is a Mylantium command; sirius plays Landsdraad."
    out = await slash(clerk, actor(USERS[C.PL], "pat"), "election start")
    assert "Only the moderators of mylantium" in texts(out)


async def test_the_game_settings_are_the_rulesets_own(rep: Republic, clerk: Clerk) -> None:
    """RULINGS.md: the independent-vote rounding and the initial approval are per-game settings."""
    shown = texts(await slash(clerk, MODERATOR, "game settings"))
    assert "independent_rounding" in shown and "initial_approval" in shown and "ag_weighted" not in shown
    out = await slash(clerk, MODERATOR, "game settings", setting="independent_rounding", value="down")
    assert "changed from half-up to down" in texts(out)
    await clerk.mylantium.set_faction_votes(rep.id, code=C.GR, territory="Avalon", votes=7, actor=1)  # F = 63
    page = await clerk.mylantium.government(rep.id)
    assert (page.faction_votes, page.independent) == (63, 31)


async def test_initial_approval_cannot_rewrite_a_general_election_counted_at_it(clerk: Clerk,
                                                                                clock: ManualClock) -> None:
    """Findings 4.3 (P1-20): before any General Election the starting approval may change; once one was counted at
    it (the approval never set), the change is refused, pointing to `/government set approval:X since:T`."""
    r = await republic(clerk, clock)
    await clerk.mylantium.add_candidate(r.id, name="Lee", code=C.PL, charisma=7, actor=1)
    await clerk.mylantium.set_government(r.id, president=C.PR, actor=1)
    out = await slash(clerk, MODERATOR, "game settings", setting="initial_approval", value="55")
    assert "changed from 50 to 55" in texts(out)
    await slash(clerk, MODERATOR, "election start")
    await slash(clerk, MODERATOR, "election primary open")
    await slash(clerk, MODERATOR, "election primary close")
    await slash(clerk, MODERATOR, "election general open")
    await slash(clerk, MODERATOR, "election general close")
    out = await slash(clerk, MODERATOR, "game settings", setting="initial_approval", value="70")
    assert "The General Election of turn 1 was counted at the starting Approval Rating of 55%" in texts(out)
    assert "/government set approval:<percent> since:<turn>" in texts(out)
    assert (await clerk.mylantium.government(r.id)).approval == 55


async def test_dm_forms_go_to_the_game_of_their_ruleset(rep: Republic, clerk: Clerk) -> None:
    """A player of a Landsdraad game and of a Mylantium game: `Vote: Aye` goes to the first, `Primary:` to the
    second, without asking which game."""
    sirius = await clerk.games.create_game(guild_id=GUILD, channel_id=950, name="sirius", ruleset="landsdraad",
                                           moderator_role_id=None, actor=1)
    await clerk.landsdraad.ledger.add_player(sirius.id, user_id=USERS[C.PL], name="pat", diplomacy=1, command=1,
                                             intrigue=1, roll=1, faction=None, actor=1)
    await clerk.landsdraad.rounds.open_round(sirius.id, crisis="Piracy", deadline=None, actor=1)
    out = await dm(clerk, C.PL, "Vote: Aye")
    assert texts(out).startswith("Ballot recorded for round 1 of sirius")
    await clerk.mylantium.elections.start_election_round(rep.id, actor=1)
    await rep.open("primary")
    out = await dm(clerk, C.PL, "Primary: Lee")
    assert texts(out).startswith("Recorded for the Plutocrats in the Primary of mylantium: **Lee**")
    out = await dm(clerk, C.GR, "Vote: Aye")
    assert "is for Landsdraad games, and yours is #mylantium (Mylantium)" in texts(out)
    for vote in ("Vote: No Confidence", "Audit: gus"):  # play-test M4.7: no Landsdraad instructions nor /pv
        out = await dm(clerk, C.GR, vote)
        assert f"“{vote}” (a player vote) is for Landsdraad games, and yours is #mylantium (Mylantium)" in texts(out)
        assert "/pv" not in texts(out)


async def test_an_election_through_the_front_end_keeps_choices_secret(rep: Republic, clerk: Clerk,
                                                                       clock: ManualClock) -> None:
    out = await slash(clerk, MODERATOR, "election start")
    assert "Locked from this snapshot" in texts(public(out))
    out = await slash(clerk, MODERATOR, "election primary open", deadline="2h")
    assert "Primary of turn 1 is open" in texts(public(out))
    for code, text in ((C.PL, "Primary: Lee"), (C.GR, "Primary: Lee"), (C.PR, "Primary: Kim"),
                       (C.BH, "Primary: Kim")):
        out = await dm(clerk, code, text)
        assert all(isinstance(o.to, Here) for o in out)
    clock.advance(timedelta(hours=2))
    out = await close_due(App(clerk), clock.now())
    (result,) = out
    assert isinstance(result.to, ToChannel) and "Nominee: **Lee**" in text_of(result)
    assert "Plutocrat" not in text_of(result)  # totals only, not who chose what
    await slash(clerk, MODERATOR, "election general open")
    out = await dm(clerk, C.PL, "General: Whig")
    assert "Whig" in texts(out)
    out = await slash(clerk, MODERATOR, "election general close")
    assert "The **Whigs** win" in texts(public(out))  # 10 + 7 + 13 against 0 + 5 + 19: only Pat chose


async def test_removing_a_player_keeps_the_other_factions_primary_choices_secret(rep: Republic, clerk: Clerk) -> None:
    """Findings 2.1: the Grangers' choice of the removed Plutocrats' Candidate is dropped; the channel is told only
    that Lee no longer runs and that a choice of him no longer counts, the Grangers' player by DM, the moderator in
    the answer."""
    await slash(clerk, MODERATOR, "election start")
    await slash(clerk, MODERATOR, "election primary open", deadline="1d")
    await dm(clerk, C.PL, "Primary: Lee")
    await dm(clerk, C.GR, "Primary: Lee")
    out = await slash(clerk, MODERATOR, "player remove", user=user(USERS[C.PL], "pat"))
    shown = texts(public(out))
    assert "Lee no longer runs" in shown and "Granger" not in shown
    mine = [o for o in out if isinstance(o.to, Here) and o.ephemeral]
    assert "The Grangers had chosen Lee in the Primary" in texts(mine)
    (told,) = [o for o in out if isinstance(o.to, ToUser) and o.to.user_id == USERS[C.GR]]
    assert "your Faction's choice of Lee in the Primary no longer counts" in text_of(told)
    assert "Choose again before the Primary closes" in text_of(told)


async def test_a_chain_holds_the_open_elections_deadline_and_its_reminders(rep: Republic, clerk: Clerk,
                                                                          clock: ManualClock) -> None:
    """Findings 3.1 (R1-40: play is suspended during a chain): the open Primary does not close, and nobody is
    reminded, while the Brass Hats are asked about a coup; a choice sent meanwhile is refused saying so; once play
    resumes its deadline runs on with the 4 hours it had left."""
    await slash(clerk, MODERATOR, "election start")
    await slash(clerk, MODERATOR, "election primary open", deadline="1d")
    deadline = clock.now() + timedelta(days=1)
    clock.advance(timedelta(hours=20))
    out = await slash(clerk, MODERATOR, "faction set", faction="Prole", vp=0)
    assert "The Primary's deadline is held while play is suspended: it had 4h left" in texts(public(out))
    clock.advance(timedelta(days=1))
    assert await close_due(App(clerk), clock.now()) == []  # neither the close nor a reminder
    out = await dm(clerk, C.GR, "Primary: Lee")
    assert "The Primary's deadline is held meanwhile; send your choice again once play resumes" in texts(out)
    shown = texts(await slash(clerk, MODERATOR, "election status"))
    assert "held while a Revolution suspends play: 4h left" in shown
    out = await dm(clerk, C.BH, "Coup: no")
    assert "play resumes" in texts(public(out))
    moved = deadline + timedelta(days=1)
    assert f"it now closes {stamp(moved)}" in texts(public(out))
    assert "Recorded for the Grangers" in texts(await dm(clerk, C.GR, "Primary: Lee"))
    view = await clerk.mylantium.elections.election(rep.id)
    assert view is not None and view.deadline == moved and view.status == "open"
    clock.advance(timedelta(hours=4))
    assert "Nominee: **Lee**" in texts(await close_due(App(clerk), clock.now()))


async def test_a_reopened_game_decided_by_a_revolution_starts_no_new_one(rep: Republic, clerk: Clerk,
                                                                        clock: ManualClock) -> None:
    """Findings 4.1: the Proles' Revolution won the game; reopened to correct a figure, a change to VP (the Brass Hats
    at 0) starts no Revolution and no coup offer, the moderator is told why, and once closed again a DM gets the
    closed line."""
    await slash(clerk, MODERATOR, "faction set", faction="Prole", vp=0, treasury=100)
    await dm(clerk, C.BH, "Coup: no")
    clock.advance(timedelta(hours=48))
    assert "They win the game." in texts(await close_due(App(clerk), clock.now()))
    await slash(clerk, MODERATOR, "game reopen", reason="a typo")
    out = await slash(clerk, MODERATOR, "faction set", faction="Brass Hat", vp=0, reason="fix")
    assert "decided by the Proles' victory, so no Revolution is checked" in texts(out)
    assert "Revolution in" not in texts(out) and not [o for o in out if isinstance(o.to, ToUser)]
    await slash(clerk, MODERATOR, "game close", reason="fixed")
    assert "its ledger is closed" in texts(await dm(clerk, C.PL, "Contribute: 5"))


async def test_counter_revolutionaries_given_0_are_not_said_to_be_given_money(rep: Republic, clerk: Clerk) -> None:
    """Findings 4.6 (R1-44.1): no temples, villages or units in play, so the Grangers and Brass Hats draw $0; the
    channel does not say they are given money."""
    await slash(clerk, MODERATOR, "faction set", faction="Prole", vp=0, treasury=100)
    out = await dm(clerk, C.BH, "Coup: no")
    shown = texts(public(out))
    assert "the Revolution has begun" in shown and "are given money" not in shown
    assert "Nobody is given counter-revolutionary money" in shown


async def test_a_reminder_done_only_at_its_deadline_is_not_sent(rep: Republic, clerk: Clerk,
                                                                 clock: ManualClock) -> None:
    """Findings 4.10: the bot comes back at the Primary's deadline: the 2 h reminder it missed would ask for choices
    that can no longer count ("closes in now"), so it is not sent; the Primary closes."""
    await slash(clerk, MODERATOR, "election start")
    await slash(clerk, MODERATOR, "election primary open", deadline="1d")
    clock.advance(timedelta(hours=21))
    out = await close_due(App(clerk), clock.now())  # 3 h before: nothing due yet
    assert out == []
    clock.advance(timedelta(hours=3))
    out = await close_due(App(clerk), clock.now())
    assert not [o for o in out if isinstance(o.to, ToUser)] and "Reminder" not in texts(out)
    assert "Nominee" in texts(out)
    assert await close_due(App(clerk), clock.now()) == []  # recorded as done: not tried again


async def test_a_faction_brought_back_hears_its_candidate_does_not_run(rep: Republic, clerk: Clerk) -> None:
    """Findings 4.11: `in_play:true` brings a removed player back; the moderator is told that their Candidate is
    still not running and how to put them back, and the channel, told of the removal, is told of the return."""
    await slash(clerk, MODERATOR, "election start")
    await slash(clerk, MODERATOR, "election primary open", deadline="1d")
    await slash(clerk, MODERATOR, "player remove", user=user(USERS[C.PL], "pat"))
    out = await slash(clerk, MODERATOR, "faction set", faction="Plutocrat", in_play=True)
    mine = texts([o for o in out if isinstance(o.to, Here) and o.ephemeral])
    assert "Their Candidate Lee is not running" in mine and "/candidate set name:Lee running:true" in mine
    assert "**pat** is back in **mylantium**: the Plutocrats are in play again." in texts(public(out))
    await dispatch(App(clerk), Ctx(MODERATOR, Place(GUILD, CHANNEL), "cs-1", clerk.clock.now()), "candidate set",
                   {"name": "Lee", "running": True})
    assert "Recorded for the Plutocrats" in texts(await dm(clerk, C.PL, "Primary: Lee"))


async def test_a_form_posted_in_the_channel_is_answered_and_not_recorded(rep: Republic, clerk: Clerk) -> None:
    """Findings 5.9: `Primary: Kim` in the game channel or a thread is told it goes by DM and was not recorded;
    chat that mentions a form mid-sentence stays unanswered."""
    await slash(clerk, MODERATOR, "election start")
    await slash(clerk, MODERATOR, "election primary open", deadline="1d")
    for place in (Place(GUILD, CHANNEL), Place(GUILD, CHANNEL, 7001)):
        ctx = Ctx(actor(USERS[C.PL], "pat"), place, f"p-{next(_ids)}", clerk.clock.now())
        out = await handle_channel_message(App(clerk), ctx, "Primary: Lee")
        assert "`Primary:` goes to me by DM" in texts(out) and "NOT recorded" in texts(out)
    ctx = Ctx(actor(USERS[C.PL], "pat"), Place(GUILD, CHANNEL), f"p-{next(_ids)}", clerk.clock.now())
    assert await handle_channel_message(App(clerk), ctx, "we discussed primary: stuff") == []
    view = await clerk.mylantium.elections.election(rep.id)
    assert view is not None and view.chosen == ()


async def test_the_revolution_chain_through_the_front_end(rep: Republic, clerk: Clerk, clock: ManualClock) -> None:
    """R1-42, R1-44: the coup offer by DM to the Brass Hats only; the requests for contributions by DM; a pledge
    answered to its sender alone; the result in the channel with totals only (P1-19), at the deadline."""
    out = await slash(clerk, MODERATOR, "faction set", faction="Prole", vp=0, treasury=100)
    offers = [o for o in out if isinstance(o.to, ToUser)]
    assert [o.to.user_id for o in offers] == [USERS[C.BH]]  # type: ignore[union-attr]
    assert "Coup: yes" in text_of(offers[0])
    out = await dm(clerk, C.PL, "Coup: yes")
    assert "Only the Brass Hats' player" in texts(out)
    # play-test M5.4: the near miss `Coup: yes` is suggested to the player offered the coup, and to no other
    assert "Did you mean “Coup: yes”?" in texts(await dm(clerk, C.BH, "yes"))
    assert "it would not be taken either: Only the Brass Hats' player" in texts(await dm(clerk, C.PL, "yes"))
    assert "it would not be taken either: The Revolution is not taking" in texts(await dm(clerk, C.PL, "20"))
    out = await dm(clerk, C.BH, "Coup: no")
    requests = {o.to.user_id for o in out if isinstance(o.to, ToUser)}  # type: ignore[union-attr]
    assert requests == {USERS[C.PL], USERS[C.GR], USERS[C.BH]}
    assert "the Revolution has begun" in texts(public(out))
    assert "Did you mean “Contribute: 0”?" in texts(await dm(clerk, C.PL, "0"))
    out = await dm(clerk, C.PL, "Contribute: 0")
    assert all(isinstance(o.to, Here) for o in out) and "Contribution recorded" in texts(out)
    out = await slash(clerk, actor(USERS[C.GR], "gus"), "revolution status")
    assert "Contributions from: Plutocrats" in texts(out) and "$" not in texts(out)
    clock.advance(timedelta(hours=48))
    out = await close_due(App(clerk), clock.now())
    assert "They win the game." in texts(out)
    # only the Plutocrats sent one, so the posted $0 is theirs: the moderators alone are told (the disclosure check)
    warnings = [o for o in out if isinstance(o.to, ToThread)]
    assert len(warnings) == 1 and warnings[0].to.private and "the Plutocrats gave $0" in text_of(warnings[0])
    assert all(isinstance(o.to, ToChannel) for o in out if o not in warnings)
    assert (await clerk.exports.export(rep.id))["game"]["status"] == "ended"


async def test_a_vanguard_corrected_above_0_during_the_coup_offer_is_not_crushed(rep: Republic, clerk: Clerk) -> None:
    """Findings 1.1 (R1-40, R1-41): a typo'd vp:0 corrected while the Brass Hats are asked about a coup calls the
    attempt off: the channel and the Brass Hats are told, a late `Coup: no` changes nothing, nobody withdraws and
    play resumes."""
    await slash(clerk, MODERATOR, "faction set", faction="Prole", vp=0, treasury=60)
    out = await slash(clerk, MODERATOR, "faction set", faction="Prole", vp=20, reason="typo, meant 20")
    assert "The Proles are no longer at 0 VP" in texts(public(out)) and "play resumes" in texts(public(out))
    told = [o for o in out if isinstance(o.to, ToUser)]
    assert [o.to.user_id for o in told] == [USERS[C.BH]] and "coup offer" in text_of(told[0])  # type: ignore[union-attr]
    out = await dm(clerk, C.BH, "Coup: no")
    assert "No Revolution is under way" in texts(out)
    page = await clerk.mylantium.government(rep.id)
    assert page.revolution is None
    assert all(f.in_play for f in page.factions) and {f.code: f.vp for f in page.factions}[C.PR] == 20
    out = await slash(clerk, MODERATOR, "election start")
    assert "Election Round has started" in texts(out)


async def test_a_command_in_a_dm_of_a_player_of_two_games_gives_its_own_example(rep: Republic, clerk: Clerk) -> None:
    """Findings 4.8: `/faction me` by DM from a player of two Mylantium games asks for the `game` option with that
    command as the example, not a crisis ballot."""
    other = await clerk.games.create_game(guild_id=GUILD, channel_id=951, name="other", ruleset="mylantium",
                                          moderator_role_id=None, actor=1)
    await clerk.mylantium.register_faction(other.id, code=C.PL, user_id=USERS[C.PL], user_name="pat",
                                           party=Party.WHIG, vp=10, treasury=0, actor=1)
    ctx = Ctx(actor(USERS[C.PL], "pat"), Place(None, None), "me-2", clerk.clock.now())
    out = await dispatch(App(clerk), ctx, "faction me", {})
    assert "say which with the `game` option, e.g. `/faction me game:mylantium`" in texts(out)
    assert "Vote: Aye" not in texts(out)


async def test_amendment_check_does_not_claim_certainty_it_cannot_have(rep: Republic, clerk: Clerk) -> None:
    """Findings 4.9 (R1-06 protects how Charisma works, not the word): a text without the protected words is not
    declared unstoppable; the moderators judge it."""
    out = await slash(clerk, actor(USERS[C.PL], "pat"), "amendment check",
                      text="Candidates' personal following no longer gives votes")
    assert "nothing in the Constitution stops it" not in texts(out)
    assert "I found no mention of Charisma or the Independent Vote" in texts(out)
    assert "the moderators judge" in texts(out)
    out = await slash(clerk, actor(USERS[C.PL], "pat"), "amendment check", text="Abolish the independents")
    assert "Refused: An amendment may not remove or change the Independent Vote" in texts(out)


async def test_a_coup_button_of_a_called_off_attempt_does_not_answer_the_next_offer(rep: Republic,
                                                                                   clerk: Clerk) -> None:
    """Findings 1.1: the Proles and the Grangers are at 0; the Proles' attempt is called off and the Grangers' offer
    has the same chain and attempt number, so the first offer's button is refused as settled."""
    out = await slash(clerk, MODERATOR, "faction set", faction="Prole", vp=0)
    (first_offer,) = [o for o in out if isinstance(o.to, ToUser) and o.buttons]
    assert "the Proles have fallen to 0 VP" in text_of(first_offer)
    out = await slash(clerk, MODERATOR, "faction set", faction="Granger", vp=0)
    assert not [o for o in out if isinstance(o.to, ToUser)]  # the chain picks the Grangers up later
    out = await slash(clerk, MODERATOR, "faction set", faction="Prole", vp=20)
    (second_offer,) = [o for o in out if isinstance(o.to, ToUser) and o.buttons]
    assert "the Grangers have fallen to 0 VP" in text_of(second_offer)
    bea = Ctx(actor(USERS[C.BH], "bea"), Place(None, None), f"b-{next(_ids)}", clerk.clock.now())
    stale = await handle_button(App(clerk), bea, first_offer.buttons[1].custom_id)
    assert "already answered or decided" in texts(stale)
    fresh = await handle_button(App(clerk), bea, second_offer.buttons[1].custom_id)
    assert "Recorded: the Brass Hats let the Revolution go on." in texts(fresh)


async def test_status_is_public_and_faction_me_private(rep: Republic, clerk: Clerk) -> None:
    out = await slash(clerk, actor(USERS[C.GR], "gus"), "status")
    assert public(out) and "Independent Vote (F/2): 32" in texts(out)
    assert "treasury" not in texts(out)
    ctx = Ctx(actor(USERS[C.GR], "gus"), Place(None, None), "me-1", clerk.clock.now())
    out = await dispatch(App(clerk), ctx, "faction me", {})
    assert out[0].ephemeral and "treasury $0" in texts(out)


def test_user_helper_is_shared() -> None:
    assert user(1, "x").id == 1


async def test_an_unread_dm_is_answered_with_the_mylantium_form_it_meant(rep: Republic, clerk: Clerk) -> None:
    """Issue 17: a player of Mylantium only gets Mylantium's answer, not the Landsdraad ballot's ("not Aye, Nay or
    Abstain"): the near miss (``Primary: Lee``) and the forms they can DM; nothing is recorded. The near miss is
    suggested only where it would be taken (play-test M5.4): with no Primary open it says why not."""
    out = await dm(clerk, C.PL, "Vote: Debs")
    assert texts(out) == ("I couldn't read “Vote: Debs”.\nIf you meant “Primary: Debs”, it would not be taken either: "
                          "The Primary is not open in mylantium.\nAccepted: `Realign: Whig`; `Primary: <Candidate>`; "
                          "`General: Federalist`; `Contribute: 20`; `Coup: yes`; DM me `help` for what each does.\n"
                          "Nothing was recorded.")
    await clerk.mylantium.elections.start_election_round(rep.id, actor=1)
    await rep.open("primary")
    out = await dm(clerk, C.PL, "Vote: Lee")
    assert texts(out) == ("I couldn't read “Vote: Lee”.\nDid you mean “Primary: Lee”?\nAccepted: `Realign: Whig`; "
                          "`Primary: <Candidate>`; `General: Federalist`; `Contribute: 20`; `Coup: yes`; DM me "
                          "`help` for what each does.\nNothing was recorded.")
    await clerk.mylantium.elections.close_election(rep.id, actor=1)
    await rep.open("general")
    assert "Did you mean “General: Whig”?" in texts(await dm(clerk, C.PL, "vote whig"))
    assert ("If you meant “Coup: yes”, it would not be taken either: No Revolution is under way in mylantium."
            in texts(await dm(clerk, C.PL, "Yes")))
    assert "Aye, Nay or Abstain" not in texts(await dm(clerk, C.PL, "Vote: Debs #mylantium"))
    sirius = await clerk.games.create_game(guild_id=GUILD, channel_id=950, name="sirius", ruleset="landsdraad",
                                           moderator_role_id=None, actor=1)
    await clerk.landsdraad.ledger.add_player(sirius.id, user_id=USERS[C.PL], name="pat", diplomacy=2, command=2,
                                             intrigue=2, roll=1, faction=None, actor=1)
    both = texts(await dm(clerk, C.PL, "Vote: Debs"))  # a player of both: the ballot's answer, and Mylantium's
    assert "“Debs” is not Aye, Nay or Abstain" in both
    assert ("If you meant “Primary: Debs”, it would not be taken in #mylantium either: The Primary of turn 1 in "
            "mylantium closed at " in both and both.endswith("Nothing was recorded."))
    assert ("; the General Election is open now: a choice sent after it is not taken, and one sent before it, if any, "
            "stood." in both)  # play-test S5.4: when it closed, not only that it is not open
    assert "In #mylantium (Mylantium), did you mean “General: Whig”?" in texts(await dm(clerk, C.PL, "Vote: Whig"))


async def test_a_suggested_form_is_one_that_would_be_taken(rep: Republic, clerk: Clerk) -> None:
    """Play-test M5.4: a near miss is not suggested when it would be refused itself: a Whig's `Vote: Kim` (Kim is a
    Federalist candidate) and a Federalist's `realign federalist` are answered with why that form would not be
    taken either, not "Did you mean"; a form the Faction may send is still suggested."""
    await clerk.mylantium.elections.start_election_round(rep.id, actor=1)
    out = texts(await dm(clerk, C.PR, "realign federalist"))
    assert "Did you mean" not in out
    assert ("If you meant “Realign: federalist”, it would not be taken either: The Proles are already "
            "Federalists.") in out
    assert "Did you mean “Realign: federalist”?" in texts(await dm(clerk, C.PL, "realign federalist"))
    await rep.open("primary")
    out = texts(await dm(clerk, C.PL, "Vote: Kim"))
    assert "Did you mean" not in out
    assert ("If you meant “Primary: Kim”, it would not be taken either: Kim is a Federalist candidate; your Faction "
            "is Whig") in out
    assert await clerk.mylantium.elections.refusal(rep.id, user_id=USERS[C.PR], stage="primary", choice="Kim",
                                                   at=clerk.clock.now()) is None


async def test_a_form_below_the_first_line_is_pointed_to(rep: Republic, clerk: Clerk) -> None:
    """Play-test M5.10: `Hello` then `Primary: Lee` is quoted by its first line alone, with how many lines the
    message has, and the answer says the form below it is not read; nothing is recorded."""
    await clerk.mylantium.elections.start_election_round(rep.id, actor=1)
    await rep.open("primary")
    out = texts(await dm(clerk, C.PL, "Hello\nPrimary: Lee"))
    assert out.startswith("I couldn't read “Hello” (the first of your message's 2 lines).\nOnly a message's first line "
                          "is read, and “Primary: Lee” is below it: send that line as a message of its own.")
    assert "\nPrimary" not in out
    assert (await clerk.mylantium.elections.election(rep.id)).chosen == ()  # type: ignore[union-attr]


async def test_extra_words_after_a_candidate_are_refused_and_a_start_of_the_name_is_echoed(rep: Republic,
                                                                                          clerk: Clerk) -> None:
    """Play-test M5.3: `Primary: Lee, please` says what was read and what was not, and records nothing, as a crisis
    ballot's `vote: nay please` does; `Primary: Lee.` is forgiven its full stop. A unique start of a candidate's
    name is recorded as that candidate (docs/rulings.md), and the receipt names the candidate recorded beside what
    the player wrote, so a secret choice never stands under a name the player did not see."""
    await clerk.mylantium.add_candidate(rep.id, name="Lee Adams", code=C.GR, charisma=3, actor=1)
    await clerk.mylantium.elections.start_election_round(rep.id, actor=1)
    await rep.open("primary")
    out = texts(await dm(clerk, C.PL, "Primary: Lee Adams, please"))
    assert out == ("I read Lee Adams in “Lee Adams, please”, but not “please”: give the candidate's name alone (Lee "
                   "Adams).\nNothing was recorded.")
    assert (await clerk.mylantium.elections.election(rep.id)).chosen == ()  # type: ignore[union-attr]
    out = texts(await dm(clerk, C.PL, "Primary: Lee Ad"))
    assert out.startswith("Recorded for the Plutocrats in the Primary of mylantium: **Lee Adams** (you wrote "
                          "“Lee Ad”). ")
    out = texts(await dm(clerk, C.PL, "Primary: lee."))
    assert out.startswith("Recorded for the Plutocrats in the Primary of mylantium: **Lee** (was Lee Adams). ")


async def test_two_different_choices_in_one_dm_are_refused(rep: Republic, clerk: Clerk, clock: ManualClock) -> None:
    """Play-test Q3.1: `Primary: Lee` with `Primary: Kim` on the next line recorded Lee, silently; likewise a
    `General:` or a `Contribute:` corrected on line 2. Now neither is recorded and the answer names both; the same
    choice twice, or a reason under it, is read as before."""
    await slash(clerk, MODERATOR, "election start")
    await slash(clerk, MODERATOR, "election primary open", deadline="2h")
    out = texts(await dm(clerk, C.PL, "Primary: Lee\nPrimary: Kim"))
    assert "two Primary choices, Lee on its first line and Kim on line 2" in out and "Recorded" not in out
    assert "Recorded" in texts(await dm(clerk, C.PL, "Primary: Lee\nPrimary: lee"))
    assert "Recorded" in texts(await dm(clerk, C.GR, "Primary: Lee\nhe is the best"))
    clock.advance(timedelta(hours=2))
    await close_due(App(clerk), clock.now())
    await slash(clerk, MODERATOR, "election general open")
    out = texts(await dm(clerk, C.BH, "General: Federalist\nGeneral: Whig"))
    assert "two General Election choices, Federalist on its first line and Whig on line 2" in out
    await slash(clerk, MODERATOR, "election general close")
    await slash(clerk, MODERATOR, "faction set", faction="Prole", vp=0, treasury=100)
    await dm(clerk, C.BH, "Coup: no")
    out = texts(await dm(clerk, C.PL, "Contribute: 0\nContribute: 5 to the Vanguard"))
    assert "two contributions, $0 on its first line and $5 to the Vanguard on line 2; send each part" in out
    assert "Contribution recorded" not in out


async def test_a_removed_factions_forms_all_get_the_removal_line(rep: Republic, clerk: Clerk) -> None:
    """Play-test Q4.2: a removed Faction's `General:`, `Coup:` and `Contribute:` were answered "The General Election
    is not open" or "No Revolution is under way", as if it could take part once they were; `Realign:` and `Primary:`
    said it was removed. Every form now says so first, with nothing open, an election open, and a chain running."""
    removed = "You are no longer in mylantium: a moderator removed you"
    await slash(clerk, MODERATOR, "election start")
    await slash(clerk, MODERATOR, "player remove", user=user(USERS[C.GR], "gus"))
    for text in ("Realign: Federalist", "General: Whig", "Primary: Lee", "Coup: yes", "Contribute: 5"):
        assert removed in texts(await dm(clerk, C.GR, text)), text
    await slash(clerk, MODERATOR, "election primary open", deadline="1d")
    for text in ("General: Whig", "Primary: Lee"):
        assert removed in texts(await dm(clerk, C.GR, text)), text
    await slash(clerk, MODERATOR, "faction set", faction="Prole", vp=0, treasury=100)
    for text in ("Primary: Lee", "Coup: no", "Contribute: 5"):
        assert removed in texts(await dm(clerk, C.GR, text)), text
    await dm(clerk, C.BH, "Coup: no")
    assert removed in texts(await dm(clerk, C.GR, "Contribute: 5"))
    assert "Contribution recorded" in texts(await dm(clerk, C.PL, "Contribute: 0"))


async def test_a_refusal_in_the_one_game_of_several_where_the_form_is_open_names_it(rep: Republic,
                                                                                    clerk: Clerk) -> None:
    """Play-test Q4.1: with the Primary open only in `other`, where pat plays the Federalist Grangers, pat's
    `Primary: Lee` (meant for mylantium, whose Primary is not open) went to `other` and was answered "Lee is a Whig
    candidate; your Faction is Federalist", naming no game. The refusal now names the game it went to; one with the
    game named, or a choice recorded, is as before."""
    other = await clerk.games.create_game(guild_id=GUILD, channel_id=951, name="other", ruleset="mylantium",
                                          moderator_role_id=None, actor=1)
    await clerk.mylantium.register_faction(other.id, code=C.GR, user_id=USERS[C.PL], user_name="pat",
                                           party=Party.FEDERALIST, vp=10, treasury=0, actor=1)
    await clerk.mylantium.register_faction(other.id, code=C.PL, user_id=USERS[C.GR], user_name="gus",
                                           party=Party.WHIG, vp=10, treasury=0, actor=1)
    await clerk.mylantium.add_candidate(other.id, name="Lee", code=C.PL, charisma=4, actor=1)
    await clerk.mylantium.set_government(other.id, president=C.PL, actor=1)
    await slash(clerk, MODERATOR, "election start", channel=951)
    await slash(clerk, MODERATOR, "election primary open", channel=951, deadline="1d")
    out = texts(await dm(clerk, C.PL, "Primary: Lee"))
    assert out.startswith("In #other, the one of your games where `Primary:` is open now") and "Whig candidate" in out
    out = texts(await dm(clerk, C.PL, "Primary: Lee #other"))
    assert not out.startswith("In #other") and "Whig candidate" in out


async def test_a_primary_in_several_open_games_goes_to_the_one_where_the_name_runs(rep: Republic,
                                                                                 clerk: Clerk) -> None:
    """`Primary: Ann Oakes` from a player of two games with the Primary open in both, Ann Oakes running in one: it
    goes there, not to a menu (the open election alone let both games through). A name that runs in none (`Ann
    Oaks`) still gets the menu of both, and the game chosen answers with its near miss; a name that runs in both,
    the menu of those. A refusal in the game so chosen names it and why it went there."""
    other = await clerk.games.create_game(guild_id=GUILD, channel_id=951, name="other", ruleset="mylantium",
                                          moderator_role_id=None, actor=1)
    await clerk.mylantium.register_faction(other.id, code=C.PL, user_id=USERS[C.PL], user_name="pat",
                                           party=Party.WHIG, vp=10, treasury=0, actor=1)
    await clerk.mylantium.register_faction(other.id, code=C.GR, user_id=USERS[C.GR], user_name="gus",
                                           party=Party.WHIG, vp=10, treasury=0, actor=1)
    await clerk.mylantium.register_faction(other.id, code=C.BH, user_id=USERS[C.BH], user_name="bea",
                                           party=Party.FEDERALIST, vp=10, treasury=0, actor=1)
    for name, code in (("Ann Oakes", C.GR), ("Lee", C.PL), ("Max Ford", C.BH)):
        await clerk.mylantium.add_candidate(other.id, name=name, code=code, charisma=3, actor=1)
    await clerk.mylantium.set_government(other.id, president=C.PL, actor=1)
    for channel in (CHANNEL, 951):
        await slash(clerk, MODERATOR, "election start", channel=channel)
        await slash(clerk, MODERATOR, "election primary open", channel=channel, deadline="1d")
    out = await dm(clerk, C.PL, "Primary: ann  oakes")
    assert "Ann Oakes" in texts(out) and all(o.select is None for o in out), texts(out)
    assert (await clerk.mylantium.elections.election(other.id)).chosen == ("Plutocrats",)  # type: ignore[union-attr]
    assert (await clerk.mylantium.elections.election(rep.id)).chosen == ()  # type: ignore[union-attr]
    for text in ("Primary: Ann Oaks", "Primary: Lee"):
        (menu,) = await dm(clerk, C.PL, text)
        assert menu.select is not None and len(menu.select.options) == 2, text
    assert "Did you mean Ann Oakes?" in texts(await dm(clerk, C.PL, "Primary: Ann Oaks #other"))
    refused = texts(await dm(clerk, C.PL, "Primary: Max Ford"))  # a refusal there says why it went there
    assert refused.startswith("In #other, the one of your games with a candidate called Max Ford") and \
        "Federalist candidate" in refused, refused
