"""The moderators' corrections of a Convocate Motion (play-test U3.4, U3.1): ``/motion withdraw`` takes back a Motion
moved by mistake while its offer to second goes round; ``/motion reopen`` takes back a second that resolved a Motion
by mistake (a ``/cast-for`` for the wrong player), and the offer goes round again from the player it had reached.
Each is announced and recorded, readies the Convocant activated by the mistake, and is refused, saying why and what
is accepted, where later play stands on it (docs/rulings.md)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from ledger_front import MODERATOR, actor, dm, dms, text_of, user
from sqlalchemy import select, update
from test_service_convocate import A, B, C, Convocate, cv  # noqa: F401  (cv: the fixture_F4 table)

from bot.actions.commands import App, dispatch
from bot.actions.context import Actor, Ctx, Place
from bot.actions.outbox import Here, Outgoing, ToChannel, ToUser
from engine.convocate.board import Phase
from engine.convocate.motions import MotionCard
from engine.core.errors import RuleError
from engine.store.models import Event
from engine.store.models.convocate import CvTurn

ALICE, BOB, CAROL = actor(A, "alice"), actor(B, "bob"), actor(C, "carol")
MOTION = MotionCard("Land Reform", "Loyal", "Draw a card.", "Draw another card.", None, None)


async def slash(cv: Convocate, who: Actor, name: str, **options: Any) -> list[Outgoing]:  # noqa: F811
    ctx = Ctx(who, Place(900, 901), cv.src(), cv.clock.now())
    return await dispatch(App(cv.clerk), ctx, name, options)


def here(out: list[Outgoing]) -> str:
    return "\n".join(text_of(o) for o in out if isinstance(o.to, Here))


def channel(out: list[Outgoing]) -> list[str]:
    return [text_of(o) for o in out if isinstance(o.to, ToChannel)]


async def table(cv: Convocate) -> None:  # noqa: F811
    """GOVT 0, so every Seat is active and each player may second from anywhere: alice's K_A (on S_U) and J_A, bob's
    K_B, carol's K_C; alice's Action Phase."""
    await cv.card("character", "K_A", A, at="S_U", morality="Loyal")
    await cv.card("character", "J_A", A, at="HW_A", morality="Loyal")
    await cv.card("character", "K_B", B, at="HW_B", morality="Ruthless")
    await cv.card("character", "K_C", C, at="HW_C", morality="Loyal")
    await cv.phase(("alice", Phase.ACTION))


async def last_event(cv: Convocate) -> Event:  # noqa: F811
    async with cv.clerk.backend.sessions() as s:
        return (await s.execute(select(Event).where(Event.game_id == cv.gid).order_by(Event.seq.desc())
                                .limit(1))).scalar_one()


async def test_a_motion_moved_by_mistake_is_withdrawn_while_it_is_offered(cv: Convocate) -> None:  # noqa: F811
    """U3.4: alice moved Land Reform with the wrong Convocant; alice declined her own offer and it is with bob. A
    moderator withdraws it: the offer ends, K_A is readied again, the channel is told with the reason, alice and bob
    (sent the offer by DM) are told, carol (never asked) is not. bob's later answer, by DM or by the offer's button,
    is answered that the Motion was withdrawn. alice, the mover, may not withdraw it herself."""
    await table(cv)
    motions = cv.clerk.convocate.motions
    await motions.move_motion(cv.gid, user_id=A, motion=MOTION, convocant="K_A", source_id="m1")
    declined = await motions.answer_offer(cv.gid, user_id=A, accept=False, convocant=None, source_id="a1")
    assert declined.offer_to == "bob" and not (await cv.clerk.convocate.board.board(cv.gid)).board.card("K_A").readied

    assert here(await slash(cv, ALICE, "motion withdraw")) == "Only the moderators of senate can use /motion withdraw."
    out = await slash(cv, MODERATOR, "motion withdraw", reason="J_A was meant")
    assert here(out) == "Motion #1 (Land Reform) is withdrawn and announced; told by DM: alice, bob."
    assert channel(out) == [
        "**Motion #1 (Land Reform) is withdrawn** by the moderators (a correction: it was moved by mistake; J_A was "
        "meant). It does not resolve: none of its text happens and nobody pays a Penalty. alice's K_A, activated to "
        "move it, is readied again. The offer to second ends (it was with bob); no answer to it counts."]
    told = dms(out)
    assert told.keys() == {A, B}
    assert told[B] == ("senate: Motion #1 (Land Reform), which you were offered to second, is withdrawn by the "
                       "moderators (J_A was meant). The offer has ended: nothing you answer to it counts.")

    view = await cv.clerk.convocate.board.board(cv.gid)
    assert view.board.card("K_A").readied and view.motion is None
    event = await last_event(cv)
    assert (event.kind, event.payload["readied"], event.payload["offer_was_with"], event.payload["told"],
            event.payload["reason"]) == ("MotionWithdrawn", True, "bob", ["alice", "bob"], "J_A was meant")

    later = await dm(cv.clerk, BOB, "Second: K_B")
    assert here(later).startswith("No Motion in senate is waiting for a second. Motion #1 (Land Reform) was "
                                  "withdrawn by the moderators (J_A was meant); nothing answered to it counts.")
    with pytest.raises(RuleError, match=r"^Motion #1 \(Land Reform\) was withdrawn by the moderators \(J_A was "
                                        r"meant\); nothing answered to it counts\.$"):
        await motions.answer_offer(cv.gid, user_id=B, accept=True, convocant="K_B", expected=(1, 1))
    assert (await cv.clerk.convocate.board.board(cv.gid)).board.card("K_B").readied  # nothing counted

    status = text_of((await slash(cv, BOB, "motion status", number=1))[0])
    assert "Withdrawn: by the moderators, while the offer was with bob (J_A was meant); it did not resolve" in status
    again = await motions.move_motion(cv.gid, user_id=A, motion=MOTION, convocant="K_A", source_id="m2")
    assert (again.number, again.offer_to) == (2, "alice")  # K_A moves it again, as if the mistake had not been
    doc = (await cv.clerk.exports.export(cv.gid))["convocate"]["motions"][0]
    assert (doc["status"], doc["withdrawn"]) == ("withdrawn", {"offer_was_with": "bob", "reason": "J_A was meant",
                                                               "not_readied": None})


async def test_withdraw_with_no_motion_offered_says_what_it_takes(cv: Convocate) -> None:  # noqa: F811
    """With nothing on the floor the refusal says what /motion withdraw takes and what fits the latest Motion: a
    second is taken back with /motion reopen, a Repeal's Statute put back with /statute restore."""
    await table(cv)
    head = ("No Motion in senate is being offered for a second, so there is nothing to withdraw: /motion withdraw "
            "takes back a Motion only while its offer to second goes round.")
    assert here(await slash(cv, MODERATOR, "motion withdraw")) == head
    motions = cv.clerk.convocate.motions
    await motions.move_motion(cv.gid, user_id=A, motion=MOTION, convocant="K_A", source_id="m1")
    await motions.answer_offer(cv.gid, user_id=A, accept=True, convocant="J_A", source_id="a1")
    assert here(await slash(cv, MODERATOR, "motion withdraw")) == (
        f"{head} The latest, Motion #1 (Land Reform), has resolved: a second entered by mistake is taken back with "
        "/motion reopen number:1.")
    await cv.card("character", "P_A", A, at="S_U")
    await cv.clerk.convocate.turns.declare(cv.gid, user_id=A, statute="X", character="P_A", section=1, sections=2)
    await cv.phase(("bob", Phase.ACTION))
    await motions.repeal(cv.gid, user_id=B, statute="X", convocant="K_B", source_id="r1")
    assert here(await slash(cv, MODERATOR, "motion withdraw")) == (
        f"{head} The latest, Motion #2, is a Motion of Repeal, which resolves as it is moved: /statute restore puts "
        "back a Statute it destroyed by mistake.")
    assert (await cv.kinds())[-1] == "RepealMoved"  # nothing recorded by the refusals


async def test_a_second_entered_for_the_wrong_player_is_taken_back_and_the_offer_reopens(cv: Convocate) -> None:  # noqa: F811
    """U3.1: the moderator meant carol's second and entered alice's (`/cast-for`); the Motion resolved at once. A
    moderator takes the second back: J_A is readied (alice's Standing Vote is what it was), the Motion is unresolved,
    the offer reopens with alice (where it was when the second came), by a new DM; the channel is told with the
    reason, and that Clerk undoes nothing done at the table. alice declines, bob declines, carol seconds: it resolves
    with carol's second, and its card lists the second taken back."""
    await table(cv)
    assert (await cv.sv())["alice"] == 4  # HW_A, K_A, J_A, and S_U's +1 for K_A on it
    motions = cv.clerk.convocate.motions
    await motions.move_motion(cv.gid, user_id=A, motion=MOTION, convocant="K_A", source_id="m1")
    wrong = await slash(cv, MODERATOR, "cast-for", player=user(A, "alice"), choice="Second: J_A")
    assert "Only a moderator can take one made by mistake back, while the Action Phase in which it was made goes on: " \
           "a second with /motion reopen" in dms(wrong)[A]
    assert (await motions.motion(cv.gid, 1)).resolved and (await cv.sv())["alice"] == 1

    assert here(await slash(cv, ALICE, "motion reopen", number=1)) == (
        "Only the moderators of senate can use /motion reopen.")
    out = await slash(cv, MODERATOR, "motion reopen", number=1, reason="carol's second was meant")
    assert here(out) == ("The second of Motion #1 (Land Reform) is taken back and announced; the offer to second is "
                         "with alice now.")
    [said] = channel(out)
    assert said.startswith(
        "**Motion #1 (Land Reform) is reopened** by the moderators: alice's second with J_A is taken back (a "
        "correction: it was entered by mistake; carol's second was meant), and the Motion has not resolved. alice's "
        "J_A, activated to second it, is readied again. Clerk records a Motion's text but does not carry it out, and "
        "holds no hand, deck or target: whatever was done at the table when it resolved (a card drawn, a target "
        "exhausted or destroyed, a Penalty paid, Votes added to a pool) is not undone by this, and must be put right "
        "by hand. The offer to second reopens where it had reached when the second came: it is with **alice** until ")
    [offer] = [o for o in out if isinstance(o.to, ToUser)]
    assert offer.to.user_id == A and "Your Convocants with access: J_A." in text_of(offer)
    assert [b.custom_id for b in offer.buttons] == [f"clerk:second:{cv.gid}:1:0:yes:J_A",
                                                    f"clerk:second:{cv.gid}:1:0:no"]

    m = await motions.motion(cv.gid, 1)
    assert (m.status, m.offer_to, m.offer_index, m.answers, m.seconder, m.outcome) == (
        "offering", "alice", 0, (), None, None)
    assert m.deadline == cv.clock.now() + timedelta(hours=24)  # a new second_timeout, as at the first offer
    assert (await cv.sv())["alice"] == 2  # K_A moved it (and S_U's +1 went with it); J_A is readied again
    event = await last_event(cv)
    assert (event.kind, event.payload["seconder"], event.payload["convocant"], event.payload["readied"],
            event.payload["offer_to"], event.payload["undone"]["effects"]) == (
        "MotionReopened", "alice", "J_A", True, "alice",
        [["Moved", "Draw a card."], ["Seconded", "Draw another card."]])

    await motions.answer_offer(cv.gid, user_id=A, accept=False, convocant=None, source_id="a2")
    await motions.answer_offer(cv.gid, user_id=B, accept=False, convocant=None, source_id="b2")
    done = await motions.answer_offer(cv.gid, user_id=C, accept=True, convocant=None, source_id="c2")
    assert done.resolved and (done.seconder, done.seconder_convocant) == ("carol", "K_C")
    assert [(a.player, a.answer) for a in done.answers] == [("alice", "declined"), ("bob", "declined"),
                                                           ("carol", "seconded")]
    card = text_of((await slash(cv, BOB, "motion status", number=1))[0])
    assert "Seconds taken back by the moderators: alice's with J_A (carol's second was meant)" in card
    assert "Seconded by carol with K_C." in card
    doc = (await cv.clerk.exports.export(cv.gid))["convocate"]["motions"][0]
    assert doc["taken_back"] == [{"player": "alice", "convocant": "J_A", "reason": "carol's second was meant",
                                  "not_readied": None}]
    assert (await cv.kinds())[-5:] == ["MotionSeconded", "MotionReopened", "SecondDeclined", "SecondDeclined",
                                       "MotionSeconded"]


async def test_a_second_readied_by_hand_is_taken_back_without_readying_it_twice(cv: Convocate) -> None:  # noqa: F811
    """Before /motion reopen the play-test readied the seconder's Convocant by hand (`/card set readied:true`); taking
    the second back then says the Convocant was readied already, and changes nothing else about it."""
    await table(cv)
    motions = cv.clerk.convocate.motions
    await motions.move_motion(cv.gid, user_id=A, motion=MOTION, convocant="K_A", source_id="m1")
    await motions.answer_offer(cv.gid, user_id=A, accept=True, convocant="J_A", source_id="a1")
    await cv.clerk.convocate.board.set_card(cv.gid, actor=1, moderator=True, name="J_A", changes={"readied": True})
    [said] = channel(await slash(cv, MODERATOR, "motion reopen", number=1))
    assert ("(a correction: it was entered by mistake), and the Motion has not resolved. Clerk did not ready alice's "
            "J_A, activated to second it: J_A is readied already.") in said
    assert (await last_event(cv)).payload["readied"] is False


async def test_reopen_is_refused_where_it_cannot_take_the_second_back(cv: Convocate) -> None:  # noqa: F811
    """Each refusal says why and what /motion reopen takes; nothing is recorded by any of them."""
    await table(cv)
    motions = cv.clerk.convocate.motions

    async def refused(number: int) -> str:
        kinds = await cv.kinds()
        said = here(await slash(cv, MODERATOR, "motion reopen", number=number))
        assert await cv.kinds() == kinds
        return said

    assert await refused(1) == "senate has no Motion #1 (no Motion has been moved yet)."
    await motions.move_motion(cv.gid, user_id=A, motion=MOTION, convocant="K_A", source_id="m1")
    assert await refused(2) == "senate has no Motion #2 (its Motions are #1 to #1; only the latest can be reopened)."
    assert await refused(1) == (
        "Motion #1 (Land Reform) has not resolved: its offer to second is with alice. /motion reopen takes back a "
        "second that resolved a Motion; a Motion moved by mistake is withdrawn with /motion withdraw while it is "
        "offered.")
    await slash(cv, MODERATOR, "motion withdraw")
    assert await refused(1) == "Motion #1 (Land Reform) was withdrawn; it has no second to take back."
    plain = await motions.move_motion(cv.gid, user_id=A, motion=MotionCard("Decree", seconded="none"),
                                      convocant="K_A", source_id="m2")
    assert await refused(plain.number) == (
        "Motion #2 (Decree) resolved without a second (it has no Seconded box); /motion reopen takes back only a "
        "second that resolved a Motion: what it did at the table is put right by hand.")
    moved = await motions.move_motion(cv.gid, user_id=A, motion=MOTION, convocant="J_A", source_id="m3")
    assert moved.offer_to == "bob"  # alice has no readied Convocant left: skipped
    third = await motions.answer_offer(cv.gid, user_id=B, accept=True, convocant=None, source_id="b3")
    assert third.resolved and third.seconder == "bob"
    assert await refused(2) == (
        "Motion #2 (Decree) resolved without a second (it has no Seconded box); /motion reopen takes back only a "
        "second that resolved a Motion: what it did at the table is put right by hand.")

    await cv.card("character", "P_A", A, at="S_U", pallarch=True)
    await cv.clerk.convocate.turns.declare(cv.gid, user_id=A, statute="X", character="P_A", section=1, sections=2)
    assert await refused(3) == (
        "alice declared X after Motion #3 (Land Reform) resolved, with political control counted while K_B was "
        "activated by the second; taking the second back would change that count. The moderators put it right by "
        "hand.")

    await cv.phase(("alice", Phase.ADMIN))
    assert await refused(3) == (
        "Motion #3 (Land Reform) resolved in alice's Action Phase of turn 1, which has ended (it is alice's Admin "
        "Phase): a second is taken back only while the Action Phase in which it resolved goes on. The moderators "
        "put it right by hand.")


async def test_a_repeal_has_no_second_to_take_back(cv: Convocate) -> None:  # noqa: F811
    """A Motion of Repeal is never seconded (R4-17): /motion reopen is refused, pointing to /motion erratum and, for a
    Statute it destroyed, /statute restore, which put a wrongly counted Repeal right."""
    await cv.card("character", "K_A", A, at="S_U")
    await cv.card("location", "LA", A, vote=2)
    await cv.card("character", "K_B", B, at="HW_B")
    await cv.card("location", "LB", B, vote=2)
    await cv.phase(("alice", Phase.ACTION))
    await cv.clerk.convocate.turns.declare(cv.gid, user_id=A, statute="X", character="K_A", section=1, sections=2)
    await cv.card("location", "LW", B, vote=2)  # entered by mistake: the Repeal passes on it
    await cv.phase(("bob", Phase.ACTION))
    won = await cv.clerk.convocate.motions.repeal(cv.gid, user_id=B, statute="X", convocant="K_B", source_id="r1")
    assert won.outcome is not None and won.outcome["destroyed"]
    said = here(await slash(cv, MODERATOR, "motion reopen", number=won.number))
    assert said == ("Motion #1 is a Motion of Repeal, which has no Seconded text and cannot be seconded (rules §6.9), "
                    "so there is no second to take back, and it is not moved again. If it was counted wrongly, /motion "
                    "erratum number:1 posts the corrected count; if it destroyed X by mistake, /statute restore "
                    "statute:X puts it back in force.")


async def test_a_phase_ended_and_stepped_back_still_refuses_the_reopen(cv: Convocate) -> None:  # noqa: F811
    """The Action Phase in which the Motion resolved is over once a Phase event follows its second, even if the turn
    is back in that Phase (a step back: here the turn's row is written back by hand): the pools emptied between."""
    await table(cv)
    motions = cv.clerk.convocate.motions
    await motions.move_motion(cv.gid, user_id=A, motion=MOTION, convocant="K_A", source_id="m1")
    await motions.answer_offer(cv.gid, user_id=A, accept=True, convocant="J_A", source_id="a1")
    await cv.phase(("alice", Phase.ADMIN))
    async with cv.clerk.backend.sessions() as s, s.begin():
        await s.execute(update(CvTurn).where(CvTurn.game_id == cv.gid).values(phase=Phase.ACTION.value))
    said = here(await slash(cv, MODERATOR, "motion reopen", number=1))
    assert said.startswith("The Phase has changed since Motion #1 (Land Reform) resolved (event #")
    assert said.endswith(", PhaseAdvanced): a second is taken back only while the Action Phase in which it resolved "
                         "goes on.")
