"""``/player remove`` in the Republic of Mylantium and at the Convocate table, through the service (issue 16;
docs/rulings.md, "A player removed from Mylantium" and "A player removed from the Convocate"): what stops counting,
what is recomputed, that the history stays, that the removed player's later messages are refused, and how they are
brought back."""

from __future__ import annotations

import re
from typing import Any

import pytest
from mylantium_table import MOD, USERS, Republic, republic
from test_service_convocate import A, B, C, Convocate, cv  # noqa: F401  (cv: the fixture)

from engine.convocate.board import Phase
from engine.convocate.motions import MotionCard
from engine.core.errors import RuleError
from engine.mylantium.model import FactionCode, Party
from engine.mylantium.revolution import Waiting
from engine.service import Clerk
from engine.service.clock import ManualClock

F = FactionCode


async def events(clerk: Clerk, game_id: int, kind: str) -> list[dict[str, Any]]:
    doc = await clerk.exports.export(game_id)
    return [e for e in doc["events"] if e["kind"] == kind]


# -- Mylantium ---------------------------------------------------------------------------------------------------


async def remove_myl(rep: Republic, code: FactionCode) -> Any:
    return await rep.clerk.mylantium.removal.remove_player(rep.id, user_id=USERS[code], actor=MOD,
                                                           source_id=rep.source())


async def test_a_removed_faction_withdraws_and_its_primary_choices_stop_counting(clerk: Clerk,
                                                                                 clock: ManualClock) -> None:
    """TV1-I04's Republic (F 64, I 32): the Plutocrats' player leaves during the Primary. Their Faction Votes leave F
    (54, I 27); their choice is dropped, and so is the Grangers' choice of their Candidate Lee (who no longer runs):
    the Grangers choose again, and the Primary closes without Lee. The history stays; their later choice is refused;
    /faction set in_play:true brings them back."""
    rep = await republic(clerk, clock)
    for name, code, charisma in (("Lee", F.PL, 7), ("Ash", F.GR, 3), ("Kim", F.PR, 5), ("Max", F.BH, 4)):
        await clerk.mylantium.add_candidate(rep.id, name=name, code=code, charisma=charisma, actor=MOD)
    await clerk.mylantium.set_government(rep.id, president=F.PR, approval=60, actor=MOD)
    await clerk.mylantium.elections.start_election_round(rep.id, actor=MOD)
    await rep.open("primary", hours=24)
    for code, name in ((F.PL, "Lee"), (F.GR, "Lee"), (F.PR, "Kim"), (F.BH, "Kim")):
        await rep.choose(code, "primary", name)

    r = await remove_myl(rep, F.PL)
    assert (r.name, r.faction, r.faction_votes, r.independent) == ("pat", F.PL, 54, 27)
    assert (r.election, r.choice_dropped, r.choosers_dropped, r.candidate) == ("Primary", True, ("Grangers",), "Lee")
    assert r.pledge_dropped is False and r.chain is None
    with pytest.raises(RuleError, match="pat was already removed from mylantium; nothing changed"):
        await remove_myl(rep, F.PL)
    with pytest.raises(RuleError, match="You are no longer in mylantium: a moderator removed you"):
        await rep.choose(F.PL, "primary", "Lee")
    page = await clerk.mylantium.government(rep.id)
    assert (page.faction_votes, page.independent) == (54, 27)
    view = await clerk.mylantium.elections.election(rep.id)
    assert view is not None and set(view.waiting) == {"Grangers"} and "Plutocrats" not in view.chosen

    await rep.choose(F.GR, "primary", "Ash")
    primary = await clerk.mylantium.elections.close_election(rep.id, actor=MOD)
    assert primary is not None and primary.result is not None
    assert {line["name"]: line["total"] for line in primary.result["lines"]} == {"Ash": 17, "Kim": 45, "Max": 4}
    assert primary.result["nominees"] == {"whig": "Ash", "federalist": "Kim"}

    [removed] = await events(clerk, rep.id, "PlayerRemoved")
    assert removed["actor"] == MOD and removed["payload"]["faction"] == "PL"
    assert removed["payload"]["choosers_dropped"] == ["Grangers"]
    assert len(await events(clerk, rep.id, "ChoiceMade")) == 5  # the dropped choices stay in the history

    with pytest.raises(RuleError, match="in_play:true brings them back"):
        await clerk.mylantium.register_faction(rep.id, code=F.PL, user_id=USERS[F.PL], user_name="pat",
                                               party=Party.WHIG, vp=20, treasury=0, actor=MOD)
    back = await clerk.mylantium.set_faction(rep.id, code=F.PL, in_play=True, actor=MOD)
    assert back.faction.in_play
    assert (await clerk.mylantium.my_faction(rep.id, USERS[F.PL])).code is F.PL
    [changed] = [e for e in await events(clerk, rep.id, "FactionChanged") if e["payload"].get("rejoined")]
    assert changed["payload"]["in_play"] is True


async def test_a_removed_factions_pledge_stops_counting_and_the_vanguard_cannot_be_removed(
        clerk: Clerk, clock: ManualClock) -> None:
    """The chain of the put-down test (test_service_mylantium): the Proles (70) against a CRT of the Plutocrats'
    30, the Robber Barons' 20 and the Brass Hats' 35 = 85, put down. With the Plutocrats' player removed before
    the deadline their pledge stops counting: 55 < 70, and the Revolution wins. While the Brass Hats are asked
    about a coup, their player cannot be removed, nor the Vanguard's."""
    rep = await republic(clerk, clock, tv1_i04=False)
    vp = {"PL": 10, "RB": 9, "GR": 8, "SH": 7, "BH": 6, "PR": 1, "BU": 5, "RN": 4}
    money = {"PL": 30, "RB": 20, "GR": 10, "SH": 10, "BH": 20, "PR": 70, "BU": 10, "RN": 10}
    for code in vp:
        await rep.faction(F[code], Party.WHIG, vp=vp[code], treasury=money[code])
    await clerk.mylantium.add_unit(rep.id, name="Dragoons", territory="Avalon", maintenance=5, cost=25, status=None,
                                   actor=MOD)
    await clerk.mylantium.set_faction(rep.id, code=F.PR, vp=0, actor=MOD)
    with pytest.raises(RuleError, match=r"Brass Hats \(bea\) are being asked whether they attempt a coup"):
        await remove_myl(rep, F.BH)
    await clerk.mylantium.revolutions.answer_coup(rep.id, accept=False, user_id=None, actor=MOD)
    with pytest.raises(RuleError, match=r"Proles \(pru\) are the Vanguard"):
        await remove_myl(rep, F.PR)
    for code, amount in ((F.PL, 30), (F.RB, 20), (F.BH, 35)):
        await clerk.mylantium.revolutions.pledge(rep.id, user_id=USERS[code], amount=amount, to_vanguard=False,
                                                 at=clock.now(), source_id=f"p-{code.name}")
    r = await remove_myl(rep, F.PL)
    assert r.pledge_dropped and r.election is None
    status = await clerk.mylantium.revolutions.revolution(rep.id)
    assert status is not None and set(status.pledged) == {F.RB, F.BH}
    assert status.chain.waiting is Waiting.CONTRIBUTIONS
    done = await clerk.mylantium.revolutions.resolve_revolution(rep.id, actor=MOD)
    assert done is not None and (done.chain.ended, done.chain.winner) == ("won", F.PR)
    assert done.chain.attempts[-1].crt == 55


# -- the Convocate -----------------------------------------------------------------------------------------------


async def test_a_removed_convocate_seat_leaves_the_table(cv: Convocate) -> None:  # noqa: F811
    """carol leaves in her own Action Phase. The cards she owns leave the board (HW_C, S_T, Quill, and Envoy, which
    bob controls); Spy, which she controls and bob owns, goes back to bob; Kista, standing on S_T, stands nowhere;
    the Statute she owns leaves with her. Her turn ends and alice's begins. The standing votes and political
    control are read again; the history stays; her later commit is refused; /convocate player seats her again."""
    await cv.card("character", "K_A", A, at="S_U")
    await cv.card("location", "L1", A, vote=2)
    await cv.card("character", "Kista", A, at="S_T")
    await cv.card("character", "Quill", C, at="HW_C")
    await cv.card("character", "Envoy", B, owner=C, at="HW_B")
    await cv.card("character", "Spy", C, owner=B, at="HW_C")
    await cv.phase(("alice", Phase.ACTION))
    await cv.clerk.convocate.turns.declare(cv.gid, user_id=A, statute="Statute 3498C", character="K_A", section=1,
                                           sections=2, owner=C, source_id=cv.src())
    await cv.phase(("carol", Phase.ACTION))
    before = await cv.sv()

    r = await cv.clerk.convocate.removal.remove_player(cv.gid, user_id=C, actor=MOD, source_id=cv.src())
    assert r.name == "carol" and set(r.left) == {"HW_C", "S_T", "Quill", "Envoy"}
    assert r.returned == (("Spy", "bob"),) and r.statutes_ended == ("Statute 3498C",) and r.statutes_returned == ()
    assert r.turn_to == "alice" and r.offer is None
    after = await cv.sv()
    assert "carol" not in after and dict(r.standing) == after
    assert after["bob"] == before["bob"] - 1 + 1  # Envoy left, Spy came back
    view = await cv.clerk.convocate.board.board(cv.gid)
    assert view.control == r.control
    board = view.board
    assert (board.active, board.phase) == ("alice", Phase.READY)
    assert {c.name for c in board.cards} >= {"Spy", "Kista"} and not {"HW_C", "S_T", "Quill", "Envoy"} & {
        c.name for c in board.cards}
    assert board.card("Kista").at is None and board.card("Spy").controller == "bob"
    assert [s.name for s in board.statutes] == []
    with pytest.raises(RuleError, match="carol was already removed from senate; nothing changed"):
        await cv.clerk.convocate.removal.remove_player(cv.gid, user_id=C, actor=MOD)
    with pytest.raises(RuleError, match="You are no longer in senate: a moderator removed you"):
        await cv.clerk.convocate.turns.commit(cv.gid, user_id=C, cards=["Spy"])
    [removed] = await events(cv.clerk, cv.gid, "PlayerRemoved")
    assert removed["actor"] == MOD and removed["payload"]["turn_to"] == "alice"
    assert (await cv.kinds()).count("PlayerRemoved") == 1 and "ConvocatePlayerAdded" in await cv.kinds()

    back = await cv.clerk.convocate.board.set_player(cv.gid, user_id=C, name="carol", sovereignty_name=None,
                                                     order=None, homeworld=None, temp=None, actor=MOD)
    assert (back.name, back.order) == ("carol", 3)  # the end of the turn order
    assert "carol" in await cv.sv()


async def test_a_convocate_removal_waits_for_the_movers_motion_and_passes_the_offer(cv: Convocate) -> None:  # noqa: F811
    """alice's Motion is offered to carol (alice and bob could not second). alice, its mover, cannot be removed
    while it is offered; bob, already skipped, can, and the offer is untouched; carol's removal passes the offer
    on, nobody is left, and the Motion resolves unseconded."""
    await cv.card("character", "K_A", A, at="HW_A")
    await cv.card("character", "K_C", C, at="HW_C")
    await cv.phase(("alice", Phase.ACTION))
    moved = await cv.clerk.convocate.motions.move_motion(cv.gid, user_id=A, motion=MotionCard("M1"), convocant="K_A",
                                                         source_id=cv.src())
    assert moved.offer_to == "carol"
    with pytest.raises(RuleError, match=r"Motion #1 \(M1\), moved by alice, is being offered for a second") as refused:
        await cv.clerk.convocate.removal.remove_player(cv.gid, user_id=A, actor=MOD)
    from bot.actions.rulesets import COMMANDS
    named = re.findall(r"\(/([a-z ]+)\)", str(refused.value))  # found playing (4.2): it named /motion pass
    assert named == ["motion skip"] and all(n in COMMANDS for n in named)
    bob = await cv.clerk.convocate.removal.remove_player(cv.gid, user_id=B, actor=MOD, source_id=cv.src())
    assert bob.offer is None and bob.motion is None
    assert (await cv.clerk.convocate.motions.motion(cv.gid)).offer_to == "carol"
    carol = await cv.clerk.convocate.removal.remove_player(cv.gid, user_id=C, actor=MOD, source_id=cv.src())
    assert carol.offer == (1, None) and carol.motion is not None and carol.motion.resolved
    assert [a.answer for a in carol.motion.answers] == ["skipped", "skipped", "removed"]
    assert carol.motion.seconder is None
