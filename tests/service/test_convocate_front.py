"""The Convocate's front end (``dispatch``, ``handle_dm``, ``handle_channel_message``, ``close_due``): where each
answer goes, the forms players write, refusals in a game of another ruleset, and the offer's timeout."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from itertools import count
from typing import Any

from ledger_front import MODERATOR, actor, dm, dms, only_here, public, text_of, user

from bot.actions.commands import App, dispatch
from bot.actions.context import Actor, Ctx, Place
from bot.actions.messages import close_due, handle_channel_message
from bot.actions.outbox import Here, Outgoing, ToChannel, ToUser
from engine.service import Clerk

GUILD, CHANNEL = 900, 901
ALICE, BOB, CAROL = actor(21, "alice"), actor(22, "bob"), actor(23, "carol")
_ids = count(1)


async def say(clerk: Clerk, who: Actor, text: str, source_id: str) -> list[Outgoing]:
    """A message in the game channel."""
    return await handle_channel_message(App(clerk), Ctx(who, Place(GUILD, CHANNEL), source_id, clerk.clock.now()),
                                        text)


async def slash(clerk: Clerk, who: Actor, command: str, /, **options: Any) -> list[Outgoing]:
    """A slash command in the game channel (options may be called ``name``)."""
    ctx = Ctx(who, Place(GUILD, CHANNEL), f"slash-{next(_ids)}", clerk.clock.now())
    return await dispatch(App(clerk), ctx, command, options)


async def senate(clerk: Clerk) -> None:
    """alice (Union), bob (Kingdom), carol (Republic); GOVT +1, so bob is locked out; alice's turn, Action Phase."""
    await slash(clerk, MODERATOR, "game new", ruleset="convocate", name="senate")
    for who, sov in ((ALICE, "Union"), (BOB, "Kingdom"), (CAROL, "Republic")):
        await slash(clerk, MODERATOR, "convocate player", user=user(who.id, who.name), sovereignty=sov)
    for who, home in ((ALICE, "Union Prime"), (BOB, "Korhal"), (CAROL, "Tribune")):
        await slash(clerk, who, "card add", kind="homeworld", name=home)
    await slash(clerk, MODERATOR, "card add", kind="seat", name="Union Senate", controller=user(ALICE.id, "alice"),
                sovereignty="Union")
    await slash(clerk, ALICE, "card add", kind="character", name="Kista", at="Union Senate", morality="Loyal")
    await slash(clerk, ALICE, "card add", kind="character", name="Dorn", at="Union Prime")
    await slash(clerk, BOB, "card add", kind="character", name="Mirel", pallarch=True, at="Korhal")
    await slash(clerk, CAROL, "card add", kind="character", name="Quill", at="Tribune", morality="Ruthless")
    await slash(clerk, MODERATOR, "factor set", name="GOVT", value=1)
    await slash(clerk, MODERATOR, "phase next")
    await slash(clerk, ALICE, "phase next")


async def test_the_board_is_public_and_the_setup_answers_only_the_asker(clerk: Clerk) -> None:
    await senate(clerk)
    out = await slash(clerk, BOB, "board")
    (card,) = out
    assert isinstance(card.to, Here) and not card.ephemeral
    text = text_of(card)
    assert "senate: the Convocate, turn 1, alice's Action Phase" in text
    assert "alice (Union): **4** = Union Prime 1 + Union Senate 1 (Seat) + Kista 1 + Dorn 1" in text
    assert "Political control: alice (4)" in text and "bob is locked out: GOVT +1" in text
    added = await slash(clerk, ALICE, "card add", kind="location", name="Vault", vote=2)
    assert only_here(added) == "On the board: Vault (Location, Vote 2): alice." and added[0].ephemeral


async def test_a_motion_in_the_channel_the_offer_by_dm_and_the_answer_by_dm(clerk: Clerk) -> None:
    await senate(clerk)
    moved = await say(clerk, ALICE, "Motion: Land Reform by Kista\nMorality: Loyal\nSeconded: Instead, draw two.",
                      "post-1")
    assert [type(o.to) for o in moved] == [Here, ToChannel, ToUser]
    assert dms(moved).keys() == {ALICE.id}  # alice first (P4-13): Dorn on her Homeworld may second
    assert "Your Convocants with access: Dorn." in dms(moved)[ALICE.id]
    declined = await dm(clerk, ALICE, "Second: no")
    assert dms(declined).keys() == {CAROL.id}  # bob is locked out and skipped
    assert "bob cannot second (locked out, no active Seat)" in text_of(public(declined)[0])
    wrong = await dm(clerk, BOB, "Second: Mirel")
    assert "No Motion is waiting" in only_here(wrong) or "not with you" in only_here(wrong)
    done = await dm(clerk, CAROL, "Second: yes", source_id="dm-carol-1")
    resolved = text_of(public(done)[-1])
    assert "Seconded by carol with Quill." in resolved and "the Moved text does not resolve" in resolved
    assert "1. Seconded: Instead, draw two." in resolved
    assert "Quill (carol, Ruthless): pays its Penalty from its Penalties block" in resolved
    again = await dm(clerk, CAROL, "Second: yes", source_id="dm-carol-1")
    assert only_here(again).startswith("That message reached me twice")


async def test_an_unanswered_offer_times_out_at_its_deadline(clerk: Clerk) -> None:
    await senate(clerk)
    await slash(clerk, MODERATOR, "convocate rulings", ruling="second_timeout", value="1h")
    await slash(clerk, ALICE, "motion move", name="M", convocant="Kista")
    assert await close_due(App(clerk), clerk.clock.now()) == []
    clerk.clock.advance(timedelta(hours=1))  # type: ignore[attr-defined]
    out = await close_due(App(clerk), clerk.clock.now())
    assert "alice did not answer in time" in text_of(out[0]) and dms(out).keys() == {CAROL.id}
    assert await close_due(App(clerk), clerk.clock.now()) == []  # once only


async def test_refusals_are_answered_to_the_asker_and_change_nothing(clerk: Clerk) -> None:
    await senate(clerk)
    assert "only in your own Action Phase; it is alice's Action Phase" in only_here(
        await slash(clerk, BOB, "statute declare", statute="X", character="Mirel", section=1, sections=2))
    assert "Only the moderators" in only_here(await slash(clerk, BOB, "factor set", name="GOVT", value=-1))
    bad = await say(clerk, ALICE, "Motion: Land Reform", "post-2")
    assert "name the Convocant who moves it" in only_here(bad) and "Nothing was recorded." in only_here(bad)
    repeal = await say(clerk, ALICE, "Motion of Repeal: Nothing by Kista", "post-3")
    assert "No Statute called “Nothing” is in force" in only_here(repeal)


async def test_convocate_commands_refuse_in_another_rulesets_game(clerk: Clerk) -> None:
    await slash(clerk, MODERATOR, "game new", ruleset="landsdraad", name="sirius")
    for name, options in (("board", {}), ("push", {"factor": "GOVT", "direction": "up"}),
                          ("phase next", {}), ("repeal", {"statute": "X", "convocant": "K"})):
        assert only_here(await slash(clerk, MODERATOR, name, **options)) == (
            f"/{name} is a Convocate command; sirius plays Landsdraad.")
    posted = await say(clerk, ALICE, "Motion: Land Reform by Kista", "post-4")
    assert only_here(posted).startswith("A Motion is a Convocate command; sirius plays Landsdraad.")
    assert await say(clerk, ALICE, "I move we adjourn", "post-5") == []



async def test_a_crisis_ballot_by_dm_is_not_for_a_convocate_player(clerk: Clerk) -> None:
    await senate(clerk)
    assert "A crisis ballot" in only_here(await dm(clerk, ALICE, "Vote: Aye"))


async def test_game_settings_shows_and_changes_the_convocate_rulings(clerk: Clerk) -> None:
    """Issue 15: /game settings has the Convocate rulings as the Convocate section; a change there is what
    /convocate rulings shows and what the rules read (P4-14: a + bloc Seat's default range)."""
    await senate(clerk)
    shown = only_here(await slash(clerk, BOB, "game settings"))
    assert "**seat_range_plus** = 0..4 (default): GOVT values where a + bloc Seat" in shown
    assert "**second_timeout** = 24h (default)" in shown and "/convocate rulings" in shown
    refused = await slash(clerk, BOB, "game settings", setting="seat_range_plus", value="2..4")
    assert "Only the moderators of senate can change its settings." in only_here(refused)
    out = await slash(clerk, MODERATOR, "game settings", setting="seat_range_plus", value="2 to 4")
    assert text_of(out[0]) == "senate: seat_range_plus changed from 0..4 to 2..4." and out[0].ephemeral
    assert "The moderators changed the setting **seat_range_plus** from 0..4 to 2..4." in text_of(public(out)[0])
    assert "**seat_range_plus** (P4-14) = 2..4: " in only_here(await slash(clerk, BOB, "convocate rulings"))
    board = text_of((await slash(clerk, BOB, "board"))[0])
    assert "alice (Union): **3** = Union Prime 1 + Kista 1 + Dorn 1" in board  # GOVT +1: Union Senate inactive
    bad = await slash(clerk, MODERATOR, "game settings", setting="seat_range_plus", value="4..0")
    assert "GOVT" in only_here(bad)


async def test_convocate_rulings_is_an_alias_that_points_to_game_settings(clerk: Clerk) -> None:
    await senate(clerk)
    listed = only_here(await slash(clerk, BOB, "convocate rulings"))
    assert listed.startswith("Convocate rulings of senate:") and "**repeal_count** (P4-05) = after (default)" in listed
    assert listed.endswith("The rulings now live under /game settings (its Convocate section), which shows and "
                           "changes them; /convocate rulings is kept as an alias.")
    out = await slash(clerk, MODERATOR, "convocate rulings", ruling="repeal_count", value="before")
    assert text_of(out[0]) == "senate: repeal_count changed from after to before." and out[0].ephemeral
    assert "**repeal_count** = before: " in only_here(await slash(clerk, BOB, "game settings"))


async def test_an_unread_dm_of_a_convocate_player_suggests_the_convocate_form(clerk: Clerk) -> None:
    """Issue 17: ``Yes`` or ``Vote: Dorn`` from a player of the Convocate only: did you mean ``Second: ...``."""
    await senate(clerk)
    out = only_here(await dm(clerk, BOB, "Yes"))
    assert out.startswith("I couldn't read “Yes”.\nDid you mean “Second: yes”?\nAccepted: `Second: <Convocant>`")
    assert "Did you mean “Second: Dorn”?" in only_here(await dm(clerk, BOB, "Vote: Dorn"))
    assert "Aye, Nay or Abstain" not in only_here(await dm(clerk, BOB, "Vote: Dorn"))


async def test_the_dm_help_lists_the_thread_forms(clerk: Clerk) -> None:
    await senate(clerk)
    text = only_here(await dm(clerk, BOB, "help"))
    assert "**2. In a thread of the game channel**, as the first line of your message:" in text
    assert "`Motion: <name> by <Convocant>`: moves a Motion" in text


async def test_the_card_names_the_offer_order_the_ruling_made(clerk: Clerk) -> None:
    """Found playing (4.6): under ``second_order: mover-last`` (P4-13's alternative) the order is right and the label
    said "from the mover"; it says the mover is last."""
    await senate(clerk)
    await slash(clerk, MODERATOR, "game settings", setting="second_order", value="mover-last")
    moved = await say(clerk, ALICE, "Motion: Quick by Kista\nMorality: Loyal", "post-last")
    assert "Offer to second: In turn order after the mover, the mover last: bob, carol, alice" in text_of(
        public(moved)[0])


async def test_a_motion_without_a_morality_does_not_say_none_pay(clerk: Clerk) -> None:
    """Found playing (4.7): with no Morality on the Motion, nobody's Penalty is known; "none" before "cannot tell"
    said both that nobody pays and that Clerk cannot tell."""
    await senate(clerk)
    moved = await say(clerk, ALICE, "Motion: Bare by Dorn\nSeconded: none", "post-bare")
    resolved = text_of(public(moved)[-1])
    assert ("Penalties (after it resolves): unknown: this Motion's Morality is not on the board, so Clerk cannot "
            "tell who pays a Penalty; the table checks Dorn by hand.") in resolved.replace("\n", " ")
    assert "none" not in resolved.split("Penalties")[1]


async def test_one_committed_vote_is_one_vote(clerk: Clerk) -> None:
    """Found playing (5.1): "= 1 Votes"."""
    await senate(clerk)
    out = await slash(clerk, ALICE, "commit", cards="Union Prime")
    assert "alice commits Union Prime 1 = 1 Vote to the Resource Pool, which holds 1." in text_of(public(out)[0])


async def test_a_commit_outside_the_action_phase_is_taken_with_a_warning(clerk: Clerk) -> None:
    """Found playing (4.8): Votes committed in the Ready or Admin Phase cannot pay a push (Action Phase only) before
    the pool empties at the end of the Phase (R4-07). The rules do not forbid the commit (a card may spend the pool),
    so Clerk takes it and warns; in the Action Phase there is no warning."""
    await senate(clerk)
    await slash(clerk, ALICE, "phase next")  # alice's Admin Phase
    out = await slash(clerk, ALICE, "commit", cards="Union Prime")
    text = text_of(public(out)[0])
    assert "alice commits Union Prime 1 = 1 Vote" in text
    assert ("**Warning:** this is the Admin Phase, and pushes are made in your Action Phase, so nothing Clerk records "
            "can be paid from the pool before it empties; unless a card spends these Votes in this Phase, they are "
            "lost.") in text


async def test_two_different_answers_to_the_offer_in_one_message_are_refused(clerk: Clerk) -> None:
    """Play-test Q3.2: `Second: Dorn` with `Second: no` on the next line seconded with Dorn, silently, and a second
    cannot be taken back. Now neither is taken, by DM or in the channel, and the answer names both; the same answer
    twice, or a reason under it, is read as before."""
    await senate(clerk)
    await say(clerk, ALICE, "Motion: Land Reform by Kista\nMorality: Loyal", "post-q32")
    out = only_here(await dm(clerk, ALICE, "Second: Dorn\nSecond: no"))
    assert "two answers, Dorn on its first line and no on line 2" in out
    out = text_of((await say(clerk, ALICE, "Second: no\nSecond: Dorn", "post-q32b"))[0])
    assert "two answers, no on its first line and Dorn on line 2" in out
    done = await dm(clerk, ALICE, "Second: Dorn\nSecond: dorn\nfor the Union")
    assert "Seconded by alice with Dorn." in text_of(public(done)[-1])


async def test_words_after_the_convocant_say_what_was_read(clerk: Clerk) -> None:
    """Play-test Q5.2: `Second: dorn please` was "There is no card called “dorn please” on the board. Did you mean
    Dorn?", and `Second: Dorn, Kista` the same without a hint. The answer now says what it read and what not."""
    await senate(clerk)
    await say(clerk, ALICE, "Motion: Land Reform by Kista\nMorality: Loyal", "post-q52")
    out = only_here(await dm(clerk, ALICE, "Second: dorn please"))
    assert "I read Dorn in “dorn please”, but not “please”: name one card alone." in out
    assert "but not “Kista”" in only_here(await dm(clerk, ALICE, "Second: Dorn, Kista"))


async def test_a_second_by_dm_goes_to_the_one_game_whose_offer_waits(clerk: Clerk) -> None:
    """A player of two Convocate games sends `Second: no` without `#game`: it goes to the game whose offer to second
    waits for them, with no menu (``Front.dm_open``, as the other rulesets' forms); with no offer in either, it is
    answered at once (the transcript convocate-second-two-games)."""
    await senate(clerk)
    other = Ctx(MODERATOR, Place(GUILD, 902), f"slash-{next(_ids)}", clerk.clock.now())
    await dispatch(App(clerk), other, "game new", {"ruleset": "convocate", "name": "other"})
    await dispatch(App(clerk), replace(other, source_id=f"slash-{next(_ids)}"), "convocate player",
                   {"user": user(ALICE.id, ALICE.name), "sovereignty": "Union"})
    none_yet = only_here(await dm(clerk, ALICE, "Second: no"))
    assert none_yet.startswith("None of your games can take that now: in #senate and #other no Motion waits for your "
                               "second (an offer comes by DM, with buttons, when it reaches you).")
    await say(clerk, ALICE, "Motion: Land Reform by Kista\nMorality: Loyal", "post-1")
    declined = await dm(clerk, ALICE, "Second: no")
    assert "You decline to second Motion #1" in text_of(declined[0]) and dms(declined).keys() == {CAROL.id}


async def test_a_second_entered_for_a_player_says_it_cannot_be_changed(clerk: Clerk) -> None:
    """Play-test U3.1: `/cast-for` of a second resolves the Motion (or moves the offer on) at once; the answers said
    the player's own DM would replace it "where a choice can be changed". Now both say it cannot be changed and the
    player is told to go to the moderators (``Front.final``)."""
    await senate(clerk)
    await say(clerk, ALICE, "Motion: Land Reform by Kista\nMorality: Loyal", "post-1")
    out = await slash(clerk, MODERATOR, "cast-for", player=user(ALICE.id, ALICE.name), choice="Second: no")
    final = "A second, or declining one, cannot be changed once made"

    def answer(out: list[Outgoing]) -> str:
        return "\n".join(text_of(o) for o in out if isinstance(o.to, Here))

    assert final in answer(out)
    told = dms(out)[ALICE.id]
    assert final in told and "tell the moderators" in told and "DM me your own choice" not in told
    seconded = await slash(clerk, MODERATOR, "cast-for", player=user(CAROL.id, CAROL.name), choice="Second: Quill")
    assert final in answer(seconded) and final in dms(seconded)[CAROL.id]


async def test_a_factor_name_is_kept_without_markdown_and_a_name_not_found_is_quoted_as_typed(clerk: Clerk) -> None:
    """`/factor set name:**Trade**` adds TRADE, not a Factor whose name is its markdown (shown as ****TRADE****), and
    a card named with markdown that is not on the board is quoted back as it was typed, not as a spoiler."""
    await senate(clerk)
    out = await slash(clerk, MODERATOR, "factor set", name="**Trade**", value=2)
    assert "The moderators set **TRADE** to +2 (added)." in [o.text for o in public(out)]
    assert any("is kept as “Trade”" in text_of(o) for o in out if isinstance(o.to, Here) and o.ephemeral)
    assert "Galactic Factors: GOVT +1 · TRADE +2\n" in text_of((await slash(clerk, BOB, "board"))[0])
    again = await slash(clerk, MODERATOR, "factor set", name="trade", value=-1)
    assert "The moderators set **TRADE** to -1 (was +2)." in [o.text for o in public(again)]
    missing = await slash(clerk, MODERATOR, "card remove", name="||Sela||")
    assert "There is no card called “\\|\\|Sela\\|\\|” on the board." in only_here(missing)
    plain = await slash(clerk, MODERATOR, "card remove", name="Sela")
    assert "There is no card called “Sela” on the board." in only_here(plain)  # no backslashes when none are needed


async def test_a_homeworld_given_another_controller_stays_its_owners_and_the_answer_says_how_to_correct_it(
        clerk: Clerk) -> None:
    """Play-test U2.3: a Homeworld put on the board for bob by mistake and given to alice with /card set is still
    bob's Homeworld (he owns it; a captured Homeworld stays its owner's): the answer says so and how to correct a
    mistake; removing it makes bob's other Homeworld his, and adding it again for alice makes it hers, Union."""
    await slash(clerk, MODERATOR, "game new", ruleset="convocate", name="senate")
    await slash(clerk, MODERATOR, "convocate player", user=user(ALICE.id, "alice"), sovereignty="Union")
    await slash(clerk, MODERATOR, "convocate player", user=user(BOB.id, "bob"), sovereignty="Kingdom")
    await slash(clerk, MODERATOR, "card add", kind="homeworld", name="Union Prime", controller=user(BOB.id, "bob"))
    await slash(clerk, MODERATOR, "card add", kind="homeworld", name="Korhal", controller=user(BOB.id, "bob"))
    alice = user(ALICE.id, "alice")
    moved = only_here((await slash(clerk, MODERATOR, "card set", name="Union Prime", controller=alice))[:1])
    assert "Union Prime stays bob's Homeworld (bob owns it; sovereignty Kingdom): alice controls it" in moved
    assert "`/card remove name:Union Prime` and `/card add` it again" in moved
    (game,) = await clerk.games.games_in_guild(GUILD)
    board = (await clerk.convocate.board.board(game.game.id)).board
    assert (board.player("bob").homeworld, board.player("alice").homeworld) == ("Union Prime", None)
    await slash(clerk, MODERATOR, "card remove", name="Union Prime")
    board = (await clerk.convocate.board.board(game.game.id)).board
    assert board.player("bob").homeworld == "Korhal"  # his only other Homeworld of his sovereignty
    await slash(clerk, MODERATOR, "card add", kind="homeworld", name="Union Prime", controller=user(ALICE.id, "alice"))
    board = (await clerk.convocate.board.board(game.game.id)).board
    assert board.player("alice").homeworld == "Union Prime" and board.card("Union Prime").sovereignty == "Union"
    plain = only_here((await slash(clerk, MODERATOR, "card set", name="Korhal", vote=1))[:1])
    assert "stays" not in plain  # no note where the controller did not change
