"""A decline made by mistake taken back by the moderators (``/motion ask-again player [reason]``; docs/rulings.md,
"A decline made by mistake"): a decline entered for the wrong player (`/cast-for`), a Decline pressed by mistake or a
``/motion skip`` of a player about to answer took their chance to second (R4-15: the first acceptance ends the
offer). The offer goes back to that player by a new DM with a new ``second_timeout``; the answers given after theirs
stand; the player the offer was with is told and asked again when it reaches them; a Motion everyone declined is
unresolved; each refusal says why and records nothing."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from ledger_front import MODERATOR, dm, dms, text_of, user
from sqlalchemy import select
from test_motion_corrections_convocate import ALICE, BOB, CAROL, MOTION, channel, here, slash, table
from test_service_convocate import A, B, C, Convocate, cv  # noqa: F401  (cv: the fixture_F4 table)

from bot.actions.commands import App
from bot.actions.context import Actor, Ctx, Place
from bot.actions.convocate.motions import offers_due, second_button
from bot.actions.outbox import Outgoing, ToUser
from engine.convocate.board import Phase
from engine.convocate.motions import MotionCard
from engine.core.errors import RuleError
from engine.store.models import Event


async def press(cv: Convocate, who: Actor, custom_id: str) -> list[Outgoing] | str:  # noqa: F811
    """A press of a button of an offer to second, as the bot's button handler gets it; a refusal's text."""
    try:
        return await second_button(App(cv.clerk), Ctx(who, Place(None, None), cv.src(), cv.clock.now()), custom_id)
    except RuleError as error:
        return str(error)


def offers(out: list[Outgoing]) -> dict[int, list[str]]:
    """The offers to second DMed: user id -> the custom ids of its buttons."""
    return {o.to.user_id: [b.custom_id for b in o.buttons] for o in out if isinstance(o.to, ToUser) and o.buttons}


async def last_payload(cv: Convocate) -> tuple[str, dict[str, Any]]:  # noqa: F811
    async with cv.clerk.backend.sessions() as s:
        e = (await s.execute(select(Event).where(Event.game_id == cv.gid).order_by(Event.seq.desc())
                             .limit(1))).scalar_one()
        return e.kind, dict(e.payload)


async def test_a_decline_entered_for_the_wrong_player_is_taken_back_and_the_offer_goes_back(cv: Convocate) -> None:  # noqa: F811
    """The moderator meant bob's decline and entered alice's (`/cast-for`), whose answer says a moderator takes it
    back with /motion ask-again; bob declined, and the offer is with carol. The moderator takes alice's decline back:
    the offer goes back to alice by a new DM (buttons of her place in the order) with a new second_timeout; bob's
    decline stands; carol, whom it was with, is told by DM. A stale press or `Second:` of carol's is answered that the
    offer went back and comes to her again; bob's, that his decline stands. alice seconds: it resolves with her second
    and its card lists the decline taken back."""
    await table(cv)
    motions = cv.clerk.convocate.motions
    await motions.move_motion(cv.gid, user_id=A, motion=MOTION, convocant="K_A", source_id="m1")
    wrong = await slash(cv, MODERATOR, "cast-for", player=user(A, "alice"), choice="Second: no")
    assert "a decline with /motion ask-again (the offer goes back to the player)" in dms(wrong)[A]
    await motions.answer_offer(cv.gid, user_id=B, accept=False, convocant=None, source_id="b1")
    cv.clock.advance(timedelta(hours=2))

    assert here(await slash(cv, ALICE, "motion ask-again", player=user(A, "alice"))) == (
        "Only the moderators of senate can use /motion ask-again.")
    out = await slash(cv, MODERATOR, "motion ask-again", player=user(A, "alice"), reason="bob's decline was meant")
    assert here(out) == ("Motion #1 (Land Reform): alice's decline is taken back and announced; the offer to second "
                         "is with alice now. Told by DM: carol.")
    [said] = channel(out)
    assert said.startswith(
        "**Motion #1 (Land Reform): the offer to second goes back to alice**. The moderators took back alice's "
        "decline (a correction: it was made by mistake; bob's decline was meant). **alice** is asked again, by DM, "
        "until ")
    assert said.endswith("If alice does not second it, the offer goes on in turn order: the answers given after "
                         "alice's stand (bob declined), and carol, whom it was with, is asked again.")
    assert offers(out) == {A: [f"clerk:second:{cv.gid}:1:0:yes:J_A", f"clerk:second:{cv.gid}:1:0:no"]}
    assert dms(out)[C] == (
        "senate: the offer to second Motion #1 (Land Reform) has gone back to alice: the moderators took back alice's "
        "decline as a mistake (bob's decline was meant). It is not yours to answer now; if nobody before you seconds "
        "it, it comes to you again by DM, with a new deadline.")

    m = await motions.motion(cv.gid)
    assert (m.offer_to, m.offer_index, m.answers, [(a.player, a.answer) for a in m.standing]) == (
        "alice", 0, (), [("bob", "declined")])
    assert m.deadline == cv.clock.now() + timedelta(hours=24)  # a new second_timeout
    kind, payload = await last_payload(cv)
    assert (kind, payload["player"], payload["answer"], payload["offer_was_with"], payload["offer_to"],
            payload["standing"], payload["undone"], payload["reason"]) == (
        "SecondAskedAgain", "alice", "declined", "carol", "alice", ["bob"], None, "bob's decline was meant")

    gone_back = ("The offer to second Motion #1 (Land Reform) is with alice now, not with you. The moderators gave "
                 "the offer back to alice, taking back alice's decline as a mistake (bob's decline was meant).")
    assert await press(cv, CAROL, f"clerk:second:{cv.gid}:1:2:yes:K_C") == (
        f"{gone_back} If nobody before you seconds it, it comes to you again by DM, with a new deadline.")
    assert await press(cv, BOB, f"clerk:second:{cv.gid}:1:1:yes:K_B") == (
        f"{gone_back} Your decline stands: you are not asked again.")
    assert here(await dm(cv.clerk, CAROL, "Second: K_C")).startswith(
        "The offer to second Motion #1 (Land Reform) is with alice now, not with you; it goes round the table in turn "
        "order. The moderators gave the offer back to alice, taking back alice's decline as a mistake (bob's decline "
        "was meant). If nobody before you seconds it, it comes to you again by DM, with a new deadline.")
    card = text_of((await slash(cv, BOB, "motion status"))[0])
    assert ("Answers that stand: bob declined (given after an answer the moderators took back; taken as given when "
            "the offer reaches them)") in card
    assert "Answers taken back by the moderators: alice's decline (bob's decline was meant)" in card
    assert (await cv.clerk.convocate.board.board(cv.gid)).board.card("K_C").readied  # nothing of carol's counted

    pressed = await press(cv, ALICE, f"clerk:second:{cv.gid}:1:0:yes:J_A")  # the new DM's button
    assert not isinstance(pressed, str)
    done = await motions.motion(cv.gid, 1)
    assert done.resolved and (done.seconder, done.seconder_convocant) == ("alice", "J_A")
    assert [(a.player, a.answer) for a in done.answers] == [("alice", "seconded")]
    assert [(a.player, a.answer) for a in done.standing] == [("bob", "declined")]  # not reached: kept for a reopen
    card = text_of((await slash(cv, BOB, "motion status", number=1))[0])
    assert "Seconded by alice with J_A." in card
    assert "Answers taken back by the moderators: alice's decline (bob's decline was meant)" in card
    doc = (await cv.clerk.exports.export(cv.gid))["convocate"]["motions"][0]
    assert doc["asked_again"] == [{"player": "alice", "answer": "declined", "reason": "bob's decline was meant",
                                   "offer_was_with": "carol", "reopened": False, "when_reached": False}]
    assert doc["standing"] == [{"player": "bob", "answer": "declined"}]
    assert (await cv.kinds())[-4:] == ["SecondDeclined", "SecondDeclined", "SecondAskedAgain", "MotionSeconded"]


async def test_a_skip_taken_back_then_the_offer_times_out_and_goes_on_to_whom_it_was_with(cv: Convocate) -> None:  # noqa: F811
    """A moderator's `/motion skip` of bob, who was about to answer, is taken back: bob is asked again. He lets the new
    second_timeout pass: the offer passes on at its deadline, as any (the timer of his place in the order runs again),
    and carol, whom it was with, is asked again; her old offer's button works again, since the offer is hers again.
    Her decline resolves the Motion without a second. bob's timeout is not taken back: it is the game's setting."""
    await table(cv)
    motions = cv.clerk.convocate.motions
    await motions.move_motion(cv.gid, user_id=A, motion=MOTION, convocant="K_A", source_id="m1")
    await motions.answer_offer(cv.gid, user_id=A, accept=False, convocant=None, source_id="a1")
    skipped = await slash(cv, MODERATOR, "motion skip")
    assert offers(skipped) == {C: [f"clerk:second:{cv.gid}:1:2:yes:K_C", f"clerk:second:{cv.gid}:1:2:no"]}

    out = await slash(cv, MODERATOR, "motion ask-again", player=user(B, "bob"), reason="bob was answering")
    assert here(out) == ("Motion #1 (Land Reform): the /motion skip of bob is taken back and announced; the offer to "
                         "second is with bob now. Told by DM: carol.")
    [said] = channel(out)
    assert said.startswith("**Motion #1 (Land Reform): the offer to second goes back to bob**. The moderators took "
                           "back the /motion skip of bob (a correction: it was made by mistake; bob was answering).")
    assert said.endswith("the answers given after bob's stand, and carol, whom it was with, is asked again.")
    assert offers(out) == {B: [f"clerk:second:{cv.gid}:1:1:yes:K_B", f"clerk:second:{cv.gid}:1:1:no"]}
    assert (await last_payload(cv))[1]["answer"] == "passed"

    cv.clock.advance(timedelta(hours=24, seconds=1))
    timed = await offers_due(App(cv.clerk), cv.clock.now())
    assert offers(timed) == {C: [f"clerk:second:{cv.gid}:1:2:yes:K_C", f"clerk:second:{cv.gid}:1:2:no"]}
    m = await motions.motion(cv.gid)
    assert (m.offer_to, m.deadline) == ("carol", cv.clock.now() + timedelta(hours=24))
    assert [(a.player, a.answer) for a in m.answers] == [("alice", "declined"), ("bob", "timed out")]

    assert not isinstance(await press(cv, CAROL, f"clerk:second:{cv.gid}:1:2:no"), str)  # her first offer's button
    done = await motions.motion(cv.gid, 1)
    assert done.resolved and done.seconder is None
    assert [(a.player, a.answer) for a in done.answers] == [("alice", "declined"), ("bob", "timed out"),
                                                           ("carol", "declined")]
    kinds = await cv.kinds()
    assert here(await slash(cv, MODERATOR, "motion ask-again", player=user(B, "bob"))) == (
        "bob did not answer the offer to second Motion #1 (Land Reform) in time: it passed on at the game's "
        "second_timeout, as agreed, not by mistake, so it is not given back. /motion ask-again takes back a decline "
        "or a /motion skip made by mistake.")
    assert await cv.kinds() == kinds
    assert kinds[-5:] == ["SecondDeclined", "SecondPassed", "SecondAskedAgain", "SecondTimedOut", "SecondDeclined"]


async def test_a_motion_everyone_declined_is_reopened_and_an_answer_ahead_is_taken_back_too(cv: Convocate) -> None:  # noqa: F811
    """Everyone declined, so Land Reform resolved without a second. alice's decline was a mistake: taking it back
    unresolves the Motion (the channel is told that what was done at the table is put right by hand) and the offer
    goes back to alice; bob's and carol's declines stand. carol's was a mistake too: taken back while the offer is
    with alice, she is asked when it reaches her. alice declines; bob's decline stands; carol is asked and seconds."""
    await table(cv)
    motions = cv.clerk.convocate.motions
    await motions.move_motion(cv.gid, user_id=A, motion=MOTION, convocant="K_A", source_id="m1")
    for uid in (A, B, C):
        await motions.answer_offer(cv.gid, user_id=uid, accept=False, convocant=None, source_id=f"d{uid}")
    first = await motions.motion(cv.gid, 1)
    assert first.resolved and first.seconder is None

    out = await slash(cv, MODERATOR, "motion ask-again", player=user(A, "alice"))
    assert here(out) == ("Motion #1 (Land Reform): alice's decline is taken back and announced; the offer to second "
                         "is with alice now.")  # nobody else had the offer: nobody is told by DM
    [said] = channel(out)
    assert said.startswith(
        "**Motion #1 (Land Reform) is reopened** by the moderators: alice's decline is taken back (a correction: it "
        "was made by mistake), and the Motion, which had resolved without a second, has not resolved. Clerk records a "
        "Motion's text but does not carry it out")
    assert said.endswith("If alice does not second it, the offer goes on in turn order: the answers given after "
                         "alice's stand (bob declined; carol declined), and it resolves again once the offer has gone "
                         "round.")
    assert list(offers(out)) == [A]
    m = await motions.motion(cv.gid)
    assert (m.status, m.outcome, m.offer_to, [a.player for a in m.standing]) == (
        "offering", None, "alice", ["bob", "carol"])
    kind, payload = await last_payload(cv)
    assert (kind, payload["offer_was_with"], payload["undone"]["effects"]) == (
        "SecondAskedAgain", None, [["Moved", "Draw a card."]])

    ahead = await slash(cv, MODERATOR, "motion ask-again", player=user(C, "carol"), reason="she meant yes")
    assert here(ahead) == ("Motion #1 (Land Reform): carol's decline is taken back and announced; carol is asked when "
                           "the offer reaches them (it is with alice now).")
    assert channel(ahead) == [
        "**Motion #1 (Land Reform)**: the moderators took back carol's decline (a correction: it was made by mistake; "
        "she meant yes). carol is asked again when the offer to second reaches them in turn order; it is with "
        "**alice** now."]
    assert offers(ahead) == {} and dms(ahead) == {}
    assert [a.player for a in (await motions.motion(cv.gid)).standing] == ["bob"]

    declined = await motions.answer_offer(cv.gid, user_id=A, accept=False, convocant=None, source_id="a2")
    assert (declined.offer_to, declined.offer_index) == ("carol", 2)
    assert [(a.player, a.answer) for a in declined.answers] == [("alice", "declined"), ("bob", "declined")]
    done = await motions.answer_offer(cv.gid, user_id=C, accept=True, convocant=None, source_id="c2")
    assert done.resolved and (done.seconder, done.seconder_convocant) == ("carol", "K_C")
    card = text_of((await slash(cv, BOB, "motion status", number=1))[0])
    assert "Answers taken back by the moderators: alice's decline; carol's decline (she meant yes)" in card
    assert (await cv.kinds())[-5:] == ["SecondDeclined", "SecondAskedAgain", "SecondAskedAgain", "SecondDeclined",
                                       "MotionSeconded"]


async def test_a_decline_before_a_mistaken_second_is_taken_back_after_the_second(cv: Convocate) -> None:  # noqa: F811
    """alice meant to second, but a decline was entered for her, and then bob seconded. Her decline is not taken back
    while bob's second stands (it resolved the Motion): the refusal says to take the second back first. After /motion
    reopen the offer is with bob, and /motion ask-again gives it back to alice, bob told by DM."""
    await table(cv)
    motions = cv.clerk.convocate.motions
    await motions.move_motion(cv.gid, user_id=A, motion=MOTION, convocant="K_A", source_id="m1")
    await motions.answer_offer(cv.gid, user_id=A, accept=False, convocant=None, source_id="a1")
    await motions.answer_offer(cv.gid, user_id=B, accept=True, convocant=None, source_id="b1")
    kinds = await cv.kinds()
    assert here(await slash(cv, MODERATOR, "motion ask-again", player=user(A, "alice"))) == (
        "Motion #1 (Land Reform) was seconded by bob with K_B, after alice's decline. Take that second back first "
        "with /motion reopen number:1 (the offer reopens with bob); then /motion ask-again gives the offer back to "
        "alice.")
    assert here(await slash(cv, MODERATOR, "motion ask-again", player=user(B, "bob"))) == (
        "bob seconded Motion #1 (Land Reform) with K_B: a second made by mistake is taken back with /motion reopen "
        "number:1.")
    assert await cv.kinds() == kinds
    await slash(cv, MODERATOR, "motion reopen", number=1)
    out = await slash(cv, MODERATOR, "motion ask-again", player=user(A, "alice"))
    assert list(offers(out)) == [A] and B in dms(out)
    m = await motions.motion(cv.gid)
    assert (m.offer_to, m.answers, m.standing) == ("alice", (), ())  # bob had not answered the reopened offer
    assert (await cv.clerk.convocate.board.board(cv.gid)).board.card("K_B").readied


async def test_ask_again_is_refused_where_it_cannot_take_the_answer_back(cv: Convocate) -> None:  # noqa: F811
    """Each refusal says why (and what /motion ask-again takes); nothing is recorded by any of them."""
    await table(cv)
    motions = cv.clerk.convocate.motions

    async def refused(uid: int, name: str) -> str:
        kinds = await cv.kinds()
        said = here(await slash(cv, MODERATOR, "motion ask-again", player=user(uid, name)))
        assert await cv.kinds() == kinds
        return said

    async def readied(card: str, value: bool) -> None:
        await cv.clerk.convocate.board.set_card(cv.gid, actor=1, moderator=True, name=card, changes={"readied": value})

    assert await refused(A, "alice") == "No Motion has been moved in senate yet; there is no answer to take back."
    assert await refused(99, "zed") == "That member is not a player in senate; nothing was changed."
    await readied("J_A", False)
    moved = await motions.move_motion(cv.gid, user_id=A, motion=MOTION, convocant="K_A", source_id="m1")
    assert moved.offer_to == "bob"
    assert await refused(A, "alice") == (
        "Clerk skipped alice when the offer to second Motion #1 (Land Reform) reached them (no readied Convocant with "
        "access): nobody asked them, so there is no answer to take back.")
    await readied("J_A", True)
    assert await refused(B, "bob") == (
        "The offer to second Motion #1 (Land Reform) is with bob now: they have not answered it, so there is no answer "
        "to take back (/motion skip passes it on).")
    assert await refused(C, "carol") == (
        "carol has not answered the offer to second Motion #1 (Land Reform) (the offer is with bob now, and reaches "
        "carol in turn order); there is no answer to take back.")
    await motions.answer_offer(cv.gid, user_id=B, accept=False, convocant=None, source_id="b1")
    await readied("K_B", False)
    assert await refused(B, "bob") == (
        "bob has no Convocant that could second Motion #1 (Land Reform) now (no readied Convocant with access), so "
        "asking them again could only end in no; nothing was changed.")
    await readied("K_B", True)
    await cv.card("character", "P_A", A, at="S_U", pallarch=True)
    await cv.clerk.convocate.turns.declare(cv.gid, user_id=A, statute="X", character="P_A", section=1, sections=2)
    assert await refused(B, "bob") == (
        "alice declared X after bob's decline of Motion #1 (Land Reform), with political control counted while bob "
        "had not seconded; had bob seconded, their Convocant would have been activated before that count. The "
        "moderators put it right by hand.")
    done = await motions.answer_offer(cv.gid, user_id=C, accept=False, convocant=None, source_id="c1")
    assert done.resolved and done.seconder is None
    await cv.phase(("alice", Phase.ADMIN))
    assert await refused(C, "carol") == (
        "Motion #1 (Land Reform) resolved in alice's Action Phase of turn 1, which has ended (it is alice's Admin "
        "Phase): carol's decline is taken back only while the Action Phase in which the Motion was offered goes on. "
        "The moderators put it right by hand.")
    await cv.clerk.convocate.removal.remove_player(cv.gid, user_id=C, actor=1, source_id="rm")
    assert await refused(C, "carol") == "carol was removed from senate, so their answer is not taken back; nothing " \
                                        "was changed."
    await cv.phase(("bob", Phase.ACTION))
    await motions.move_motion(cv.gid, user_id=B, motion=MotionCard("Decree", seconded="none"), convocant="K_B",
                              source_id="m2")
    assert await refused(A, "alice") == ("Motion #2 (Decree) has no Seconded box: no offer to second was made, so "
                                         "there is no answer to take back.")
    await cv.card("character", "L_B", B, at="HW_B")
    await motions.repeal(cv.gid, user_id=B, statute="X", convocant="L_B", source_id="r1")
    assert await refused(A, "alice") == ("Motion #3 is a Motion of Repeal, which cannot be seconded (rules §6.9): "
                                         "nobody was asked to second it, so there is no answer to take back.")


async def test_an_offer_back_in_a_place_that_timed_out_before_times_out_again(cv: Convocate) -> None:  # noqa: F811
    """alice declined, bob let the offer time out, and it is with carol. alice's decline is taken back, then bob is
    removed: carol moves into bob's place in the order, whose timeout is in the log. alice declines again and carol
    lets her new deadline pass: the offer still times out at it (the timer names its deadline), and the Motion
    resolves without a second; a repeat of that timer does nothing."""
    await table(cv)
    motions = cv.clerk.convocate.motions
    await motions.move_motion(cv.gid, user_id=A, motion=MOTION, convocant="K_A", source_id="m1")
    await motions.answer_offer(cv.gid, user_id=A, accept=False, convocant=None, source_id="a1")
    cv.clock.advance(timedelta(hours=24, seconds=1))
    await offers_due(App(cv.clerk), cv.clock.now())
    assert (await motions.motion(cv.gid)).offer_to == "carol"
    await slash(cv, MODERATOR, "motion ask-again", player=user(A, "alice"))
    await cv.clerk.convocate.removal.remove_player(cv.gid, user_id=B, actor=1, source_id="rm")
    m = await motions.answer_offer(cv.gid, user_id=A, accept=False, convocant=None, source_id="a2")
    assert (m.order, m.offer_to, m.offer_index) == (("alice", "carol"), "carol", 1)
    cv.clock.advance(timedelta(hours=24, seconds=1))
    timed = await offers_due(App(cv.clerk), cv.clock.now())
    assert any("**senate: Motion #1, Land Reform, resolves**" in text_of(o) for o in timed)
    done = await motions.motion(cv.gid, 1)
    assert done.resolved and [(a.player, a.answer) for a in done.answers] == [("alice", "declined"),
                                                                              ("carol", "timed out")]
    assert await offers_due(App(cv.clerk), cv.clock.now()) == []
    assert (await cv.kinds()).count("SecondTimedOut") == 2


async def test_a_player_removed_while_asked_keeps_their_place_in_the_answers(cv: Convocate) -> None:  # noqa: F811
    """bob was removed while the offer was with him (it passed to carol). alice's decline is taken back; when she
    declines again, bob's removal is still told in its place, and the offer goes on to carol."""
    await table(cv)
    motions = cv.clerk.convocate.motions
    await motions.move_motion(cv.gid, user_id=A, motion=MOTION, convocant="K_A", source_id="m1")
    await motions.answer_offer(cv.gid, user_id=A, accept=False, convocant=None, source_id="a1")
    await cv.clerk.convocate.removal.remove_player(cv.gid, user_id=B, actor=1, source_id="rm")
    await slash(cv, MODERATOR, "motion ask-again", player=user(A, "alice"))
    m = await motions.motion(cv.gid)
    assert (m.offer_to, [(a.player, a.answer) for a in m.standing]) == ("alice", [("bob", "removed")])
    m = await motions.answer_offer(cv.gid, user_id=A, accept=False, convocant=None, source_id="a2")
    assert m.offer_to == "carol" and m.standing == ()
    assert [(a.player, a.answer) for a in m.answers] == [("alice", "declined"), ("bob", "removed")]
