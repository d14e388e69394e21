"""Issue 19 in the Convocate: ``/card set ... since:T`` corrects a card from turn T on after a Motion of Repeal was
resolved; the moderators are told privately whether the Repeal would have come out differently (counted again by
the resolution's own rule, P4-05: a tie goes to the controller); an erratum posts the corrected count."""

from __future__ import annotations

import pytest
from ledger_front import MODERATOR, actor
from sqlalchemy import select
from test_service_convocate import A, B, Convocate, cv  # noqa: F401  (cv: the fixture_F4 table)

from bot.actions.commands import App, dispatch
from bot.actions.context import Ctx, Place, UserRef
from bot.actions.convocate.errata import erratum_card
from bot.actions.outbox import Here, Outgoing, ToThread
from engine.convocate.board import Phase
from engine.core.errors import RuleError
from engine.store.models import Event


async def _statute_x_to_repeal(cv: Convocate) -> None:  # noqa: F811
    """alice's K_A (at S_U) and LA (Vote 2), bob's K_B and J_B at his Homeworld and LB (Vote 1); alice declares
    Statute X in her Action Phase, for bob to repeal."""
    await cv.card("character", "K_A", A, at="S_U")
    await cv.card("location", "LA", A, vote=2)
    await cv.card("character", "K_B", B, at="HW_B")
    await cv.card("character", "J_B", B, at="HW_B")
    await cv.card("location", "LB", B, vote=1)
    await cv.phase(("alice", Phase.ACTION))
    await cv.clerk.convocate.turns.declare(cv.gid, user_id=A, statute="X", character="K_A", section=1, sections=2)


async def test_a_corrected_card_flips_a_tied_repeal(cv: Convocate) -> None:  # noqa: F811
    await _statute_x_to_repeal(cv)
    await cv.phase(("bob", Phase.ACTION))
    tie = await cv.clerk.convocate.motions.repeal(cv.gid, user_id=B, statute="X", convocant="K_B", source_id="r1")
    assert tie.outcome is not None and (tie.outcome["mover_votes"], tie.outcome["controller_votes"],
                                        tie.outcome["destroyed"]) == (3, 3, False)  # a tie: kept
    board, errata = cv.clerk.convocate.board, cv.clerk.convocate.errata
    await board.set_card(cv.gid, actor=1, moderator=True, name="LA", changes={"on_map": True}, source_id="plain")
    assert await errata.after_card_set(cv.gid, source_id="plain") is None  # no since: the board as it is now

    ctx = Ctx(MODERATOR, Place(900, 901), "slash-fix", cv.clock.now())
    out = await dispatch(App(cv.clerk), ctx, "card set", {"name": "LB", "vote": 2, "since": 1})
    assert all(isinstance(o.to, (Here, ToThread)) for o in out)  # the moderators only
    notice = out[-1]
    assert isinstance(notice.to, ToThread) and notice.text.startswith(
        "The correction of LB from turn 1 (Vote 1 → 2) changes resolved Repeals of senate")
    assert (f"Motion #{tie.number} (Repeal of X, turn 2): announced bob 3 against alice 3 (kept); corrected 4 "
            "against 3 (destroyed): **the outcome changes**") in notice.text
    with pytest.raises(RuleError, match="Only a moderator corrects"):
        await board.set_card(cv.gid, actor=B, moderator=False, name="LB", changes={"vote": 1}, since=1)

    e = await errata.post_erratum(cv.gid, number=tie.number, actor=1, source_id="e1")
    assert e.recount.destroyed
    with pytest.raises(RuleError, match="posted already"):
        await errata.post_erratum(cv.gid, number=tie.number, actor=1)
    text = erratum_card(e).as_text()
    assert "X would have been destroyed, not kept as announced" in text and "4 (announced 3)" in text


async def setting(table: Convocate, name: str, value: str) -> list[Outgoing]:
    """``/game settings setting:<name> value:<value>``, each its own interaction."""
    ctx = Ctx(MODERATOR, Place(900, 901), f"s-setting-{name}-{value}", table.clock.now())
    return await dispatch(App(table.clerk), ctx, "game settings", {"setting": name, "value": value})


async def tied(cv: Convocate) -> int:  # noqa: F811
    """bob's Repeal of alice's X, tied 3 to 3 (kept): counted after K_B is activated; alice's LC, activated (it
    committed Votes), adds nothing under ``committed_cards: out``."""
    await _statute_x_to_repeal(cv)
    await cv.phase(("bob", Phase.ACTION))
    await cv.card("location", "LC", A, vote=2, readied=False)
    tie = await cv.clerk.convocate.motions.repeal(cv.gid, user_id=B, statute="X", convocant="K_B", source_id="r1")
    assert tie.outcome is not None and (tie.outcome["mover_votes"], tie.outcome["controller_votes"],
                                        tie.outcome["destroyed"]) == (3, 3, False)
    return tie.number


async def test_a_changed_repeal_count_ruling_recounts_the_resolved_repeal(cv: Convocate) -> None:  # noqa: F811
    """P4-05 ruled ``before``: bob's K_B still counts (4 against 3), so X would have been destroyed; the
    moderators are told privately, the erratum says why; ruled back ``after``, nothing comes out differently."""
    number = await tied(cv)
    out = await setting(cv, "repeal_count", "before")
    [notice] = [o for o in out if isinstance(o.to, ToThread)]
    assert notice.to.private and notice.text.startswith("The change of the ruling repeal_count to before changes "
                                                        "resolved Repeals of senate")
    assert (f"Motion #{number} (Repeal of X, turn 2): announced bob 3 against alice 3 (kept); counted again under "
            "repeal_count before (counted after at the resolution) 4 against 3 (destroyed): **the outcome "
            "changes**") in notice.text
    assert notice.buttons and notice.buttons[0].custom_id == f"clerk:cv-erratum:{cv.gid}:{number}"
    assert not any("4 against 3" in (o.text or "") for o in out if not isinstance(o.to, (Here, ToThread)))
    e = await cv.clerk.convocate.errata.post_erratum(cv.gid, number=number, actor=1, source_id="e-count")
    text = erratum_card(e).as_text()
    assert "The moderators changed the ruling after the Motion of Repeal of X (turn 2) was resolved" in text
    assert "X would have been destroyed, not kept as announced" in text and "4 (announced 3)" in text
    back = await setting(cv, "repeal_count", "after")
    assert not any(isinstance(o.to, ToThread) for o in back)
    assert any("no resolved Motion of Repeal of senate comes out differently" in (o.text or "")
               for o in back if isinstance(o.to, Here))
    with pytest.raises(RuleError, match=r"nothing to correct\. \(A change counts from now on unless it says from "
                                        r"when: `/card set \.\.\. since:N` corrects a card from turn N on\.\)"):
        await cv.clerk.convocate.errata.post_erratum(cv.gid, number=number, actor=1)


async def test_a_changed_committed_cards_ruling_recounts_the_resolved_repeal(cv: Convocate) -> None:  # noqa: F811
    """P4-08 ruled ``locations-count``: alice's activated LC counts its 2 (3 against 5): the Statute is kept
    either way, the outcome stands, but the count differs and the moderators are told so."""
    number = await tied(cv)
    out = await setting(cv, "committed_cards", "locations-count")
    [notice] = [o for o in out if isinstance(o.to, ToThread)]
    assert (f"Motion #{number} (Repeal of X, turn 2): announced bob 3 against alice 3 (kept); counted again under "
            "committed_cards locations-count (counted out at the resolution) 3 against 5 (kept): the outcome "
            "stands") in notice.text
    other = await setting(cv, "second_order", "mover-last")
    assert not any(isinstance(o.to, ToThread) for o in other)  # a ruling no Repeal is counted with: no notice
    back = await setting(cv, "committed_cards", "out")
    assert not any(isinstance(o.to, ToThread) for o in back)


async def test_a_repeal_resolved_before_the_counts_were_kept_is_named_not_recounted(cv: Convocate) -> None:  # noqa: F811
    """An old ``RepealMoved`` without ``by_ruling``: the notice says plainly that it cannot be recounted."""
    number = await tied(cv)
    async with cv.clerk.backend.sessions() as session, session.begin():
        event = (await session.execute(select(Event).where(Event.game_id == cv.gid,
                                                           Event.kind == "RepealMoved"))).scalar_one()
        event.payload = {k: v for k, v in event.payload.items() if k not in ("by_ruling", "committed")}
    out = await setting(cv, "repeal_count", "before")
    assert not any(isinstance(o.to, ToThread) for o in out)
    [said] = [o.text for o in out if isinstance(o.to, Here) and "Not recounted" in (o.text or "")]
    assert (f"• Not recounted: Motion #{number} (Repeal of X, turn 2): it was resolved before Clerk kept its count "
            "under each ruling; judge it by hand.") in said


async def test_a_correction_counts_the_card_as_it_counted_in_the_repeal_not_as_it_stands_now(cv: Convocate) -> None:  # noqa: F811
    """Found playing (1.1): alice's LA was on the Map and readied when bob's Repeal was counted (its 2 is in alice's
    3) and is activated (it committed Votes) when the correction is made. Corrected to Vote 1 from turn 1, alice's
    count is 2 and bob's 3 destroys X; read from the board now, LA's change was 0 (``committed_cards: out``) and the
    moderators were told nothing changes."""
    number = await tied(cv)
    board = cv.clerk.convocate.board
    await board.set_card(cv.gid, actor=1, moderator=True, name="LA", changes={"readied": False}, source_id="now")
    ctx = Ctx(MODERATOR, Place(900, 901), "slash-la", cv.clock.now())
    out = await dispatch(App(cv.clerk), ctx, "card set", {"name": "LA", "vote": 1, "since": 1})
    notice = out[-1]
    assert isinstance(notice.to, ToThread) and notice.text.startswith(
        "The correction of LA from turn 1 (Vote 2 → 1) changes resolved Repeals of senate")
    assert (f"Motion #{number} (Repeal of X, turn 2): announced bob 3 against alice 3 (kept); corrected 3 against 2 "
            "(destroyed): **the outcome changes**") in notice.text
    e = await cv.clerk.convocate.errata.post_erratum(cv.gid, number=number, actor=1, source_id="e-la")
    assert (e.recount.mover_votes, e.recount.controller_votes, e.recount.destroyed) == (3, 2, True)


async def test_a_correction_of_the_mover_changes_nothing_it_counted_0_activated(cv: Convocate) -> None:  # noqa: F811
    """Found playing (1.2): K_B moved the Repeal, so it was counted activated (0, R4-17, P4-05) whatever its Vote.
    Readied again now and corrected to Vote 0 from turn 1, the Repeal comes out as announced, and the erratum is
    refused; read from the board now, bob lost 1 and a false erratum could be posted."""
    number = await tied(cv)
    board = cv.clerk.convocate.board
    await board.set_card(cv.gid, actor=1, moderator=True, name="K_B", changes={"readied": True}, source_id="now")
    ctx = Ctx(MODERATOR, Place(900, 901), "slash-k-b", cv.clock.now())
    out = await dispatch(App(cv.clerk), ctx, "card set", {"name": "K_B", "vote": 0, "since": 1})
    [notice] = [o for o in out if isinstance(o.to, Here) and "correction" in (o.text or "")]
    assert notice.text == ("The correction of K_B from turn 1 (Vote 1 → 0): no resolved Motion of Repeal of senate "
                           "comes out differently.")
    assert not any(isinstance(o.to, ToThread) for o in out)
    with pytest.raises(RuleError, match="comes out as announced"):
        await cv.clerk.convocate.errata.post_erratum(cv.gid, number=number, actor=1)


async def test_a_correction_the_count_cannot_show_is_named_to_judge_by_hand(cv: Convocate) -> None:  # noqa: F811
    """A correction of where a card stands (a Seat's +1) or of a card that added nothing with Vote 0 is not guessed
    from the board now: the Repeal is named, with the reason, and no erratum is posted for it."""
    number = await tied(cv)
    ctx = Ctx(MODERATOR, Place(900, 901), "slash-at", cv.clock.now())
    out = await dispatch(App(cv.clerk), ctx, "card set", {"name": "K_A", "at": "HW_A", "since": 1})
    [notice] = [o for o in out if isinstance(o.to, Here) and "correction" in (o.text or "")]
    assert (f"• Not recounted: Motion #{number} (Repeal of X, turn 2): the correction of K_A changes its at, which "
            "the count card by card does not show; judge it by hand.") in notice.text
    with pytest.raises(RuleError, match=f"Clerk cannot count Motion #{number} again: the correction of K_A"):
        await cv.clerk.convocate.errata.post_erratum(cv.gid, number=number, actor=1)


async def test_a_correction_under_a_changed_ruling_reads_the_count_made_under_it(cv: Convocate) -> None:  # noqa: F811
    """alice's LC, activated, counted 0 at the resolution (``committed_cards: out``) and 2 under ``locations-count``
    (3 against 5). Ruled ``locations-count`` and LC corrected to Vote 1 from turn 1, the count is 3 against 4: the
    count card by card under each ruling is the one ``repeal`` made at the resolution, not the resolution's own."""
    number = await tied(cv)
    await setting(cv, "committed_cards", "locations-count")
    ctx = Ctx(MODERATOR, Place(900, 901), "slash-lc", cv.clock.now())
    await dispatch(App(cv.clerk), ctx, "card set", {"name": "LC", "vote": 1, "since": 1})
    e = await cv.clerk.convocate.errata.post_erratum(cv.gid, number=number, actor=1, source_id="e-lc")
    assert (e.recount.mover_votes, e.recount.controller_votes, e.recount.destroyed) == (3, 4, False)


async def test_the_convocate_rulings_alias_recounts_like_game_settings(cv: Convocate) -> None:  # noqa: F811
    """Found playing (4.1): ``/convocate rulings`` changed ``repeal_count`` without the recount ``/game settings``
    makes; the alias runs the same path, so the moderators get the same notice, button and channel line."""
    number = await tied(cv)
    ctx = Ctx(MODERATOR, Place(900, 901), "s-alias-before", cv.clock.now())
    out = await dispatch(App(cv.clerk), ctx, "convocate rulings", {"ruling": "repeal_count", "value": "before"})
    [notice] = [o for o in out if isinstance(o.to, ToThread)]
    assert (f"Motion #{number} (Repeal of X, turn 2): announced bob 3 against alice 3 (kept); counted again under "
            "repeal_count before (counted after at the resolution) 4 against 3 (destroyed)") in notice.text
    assert notice.buttons and notice.buttons[0].custom_id == f"clerk:cv-erratum:{cv.gid}:{number}"
    [said] = [o.text for o in out if not isinstance(o.to, (Here, ToThread))]
    assert said == "The moderators changed the setting **repeal_count** from after to before."


async def test_a_seat_that_counted_nothing_is_in_the_count_and_a_correction_moves_only_its_own_vote(
        cv: Convocate) -> None:  # noqa: F811
    """Play-test C5.6: an active Seat with no readied occupant of its controller is a line of the Repeal's count,
    "S_K (active Seat, no readied occupant): 0", in `/why repeal` and in the count the resolution keeps. A `since:`
    correction of that Seat's own Vote moves its own line only, never the 0 line (nor a +1 line): bob's S_K, Vote 1
    then corrected to 2, makes him 5, not 6."""
    await _statute_x_to_repeal(cv)
    await cv.clerk.convocate.board.set_card(cv.gid, actor=1, moderator=True, name="S_K", changes={"vote": 1},
                                            source_id="sk")
    await cv.phase(("bob", Phase.ACTION))
    moved = await cv.clerk.convocate.motions.repeal(cv.gid, user_id=B, statute="X", convocant="K_B", source_id="r1")
    assert moved.outcome is not None and (moved.outcome["mover_votes"], moved.outcome["controller_votes"]) == (4, 3)
    why = "\n".join(step.says for step in (await cv.clerk.convocate.explain.repeal(cv.gid, statute="X")).steps)
    assert "S_K (active Seat, no readied occupant): 0" in why and "S_K (Convocate Seat): +1" in why

    ctx = Ctx(MODERATOR, Place(900, 901), "slash-seat", cv.clock.now())
    out = await dispatch(App(cv.clerk), ctx, "card set", {"name": "S_K", "vote": 2, "since": 1})
    notice = out[-1]
    assert isinstance(notice.to, ToThread)
    assert (f"Motion #{moved.number} (Repeal of X, turn 2): announced bob 4 against alice 3 (destroyed); corrected 5 "
            "against 3 (destroyed)") in notice.text


async def test_a_statute_repealed_by_mistake_is_put_back_in_force(cv: Convocate) -> None:  # noqa: F811
    """Play-test U3.2: a Repeal counted with a card at the wrong Vote destroyed X; the erratum says it would have
    been kept, and ``/statute restore`` puts it back in force as it was (controller, owner, Section), announced and
    recorded; nothing resolves again. Refused to a player, for a Statute in force, and for one never ended."""
    await _statute_x_to_repeal(cv)
    await cv.phase(("bob", Phase.ACTION))
    await cv.card("location", "LW", B, vote=1)  # entered by mistake: bob has no such card
    won = await cv.clerk.convocate.motions.repeal(cv.gid, user_id=B, statute="X", convocant="K_B", source_id="r1")
    assert won.outcome is not None and (won.outcome["mover_votes"], won.outcome["controller_votes"],
                                        won.outcome["destroyed"]) == (4, 3, True)
    app = App(cv.clerk)
    fix = Ctx(MODERATOR, Place(900, 901), "slash-fix", cv.clock.now())
    await dispatch(app, fix, "card set", {"name": "LW", "vote": 0, "since": 1})
    await cv.clerk.convocate.errata.post_erratum(cv.gid, number=won.number, actor=1, source_id="e1")
    assert (await cv.clerk.convocate.board.board(cv.gid)).board.statutes == ()
    assert await cv.clerk.convocate.turns.ended_statutes(cv.gid) == [("X", "repealed")]  # what the option suggests

    [no] = await dispatch(app, Ctx(actor(B, "bob"), Place(900, 901), "slash-b", cv.clock.now()), "statute restore",
                          {"statute": "X"})
    assert no.text == "Only the moderators of senate can use /statute restore."
    [no] = await dispatch(app, Ctx(MODERATOR, Place(900, 901), "slash-n", cv.clock.now()), "statute restore",
                          {"statute": "Y"})
    assert no.text == ("No Statute called “Y” has been repealed or destroyed in senate (those: X). Nothing was "
                       "recorded.")
    ctx = Ctx(MODERATOR, Place(900, 901), "slash-restore", cv.clock.now())
    out = await dispatch(app, ctx, "statute restore", {"statute": "x", "reason": "LW was never bob's"})
    assert out[0].text == "X is back in force and announced."
    assert out[1].text == ("The moderators put **X** back in force (a correction: it was repealed by mistake; LW was "
                           "never bob's): Section 1 is in force, controlled by alice. Nothing resolves again, and no "
                           "card is readied or activated by it.")
    [back] = (await cv.clerk.convocate.board.board(cv.gid)).board.statutes
    assert (back.name, back.controller, back.owner, back.section) == ("X", "alice", "alice", 1)
    async with cv.clerk.backend.sessions() as s:
        kinds = [e.kind for e in (await s.execute(select(Event).where(Event.game_id == cv.gid)
                                                   .order_by(Event.seq))).scalars()]
    assert kinds[-1] == "StatuteRestored" and kinds.count("StatuteRestored") == 1
    assert await cv.clerk.convocate.turns.ended_statutes(cv.gid) == []
    [no] = await dispatch(app, Ctx(MODERATOR, Place(900, 901), "slash-again", cv.clock.now()), "statute restore",
                          {"statute": "X"})
    assert no.text == "X is in force; there is nothing to restore."


async def test_a_statute_declared_with_the_wrong_owner_is_given_its_owner(cv: Convocate) -> None:  # noqa: F811
    """Play-test U3.3: alice declared X with ``owner`` bob by mistake; ``/statute set owner`` corrects it (announced,
    recorded as StatuteChanged), so destroying it sends it to alice's Depleted Pile. Controller and Section stay."""
    await cv.card("character", "K_A", A, at="S_U")
    await cv.card("location", "LA", A, vote=2)
    await cv.phase(("alice", Phase.ACTION))
    await cv.clerk.convocate.turns.declare(cv.gid, user_id=A, statute="X", character="K_A", section=1, sections=2,
                                           owner=B)
    app = App(cv.clerk)
    [no] = await dispatch(app, Ctx(actor(A, "alice"), Place(900, 901), "slash-a", cv.clock.now()), "statute set",
                          {"statute": "X", "owner": UserRef(A, "alice")})
    assert no.text == "Only the moderators of senate can use /statute set."
    ctx = Ctx(MODERATOR, Place(900, 901), "slash-owner", cv.clock.now())
    out = await dispatch(app, ctx, "statute set", {"statute": "x", "owner": UserRef(A, "alice"), "reason": "typo"})
    assert [o.text for o in out] == [
        "X's owner is now alice; announced.",
        "The moderators corrected the owner of **X**: alice, not bob (typo). Its controller and Section are "
        "unchanged."]
    [x] = (await cv.clerk.convocate.board.board(cv.gid)).board.statutes
    assert (x.controller, x.owner, x.section) == ("alice", "alice", 1)
    async with cv.clerk.backend.sessions() as s:
        last = (await s.execute(select(Event).where(Event.game_id == cv.gid).order_by(Event.seq.desc())
                                .limit(1))).scalar_one()
    assert (last.kind, last.payload["owner"], last.payload["reason"]) == ("StatuteChanged", ["bob", "alice"], "typo")
    [same] = await dispatch(app, Ctx(MODERATOR, Place(900, 901), "slash-same", cv.clock.now()), "statute set",
                            {"statute": "X", "owner": UserRef(A, "alice")})
    assert same.text == "X's owner is alice already; nothing was changed."
    await cv.phase(("alice", Phase.ADMIN))
    gone = await cv.clerk.convocate.turns.destroy_statute(cv.gid, user_id=A, statute="X")
    assert gone.statute.owner == "alice"
