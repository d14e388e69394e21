"""Play-test U2.2: a Phase ended by mistake (a moderator's ``/phase next`` typed in the wrong channel, a player's
double press) is taken back by a moderator's ``/phase back [reason]``: the board reads as if the step had never been
taken (the Phase and turn, the Resource Pools R4-07 emptied, the cards R4-06 readied, the effects "until end of turn"
the turn ended), announced and recorded (``PhaseSteppedBack``); several in a row each take back the step before;
refused once anything was recorded after the step, and to a player (docs/rulings.md, "Stepping the phase back")."""

from __future__ import annotations

import pytest
from ledger_front import MODERATOR, actor
from test_service_convocate import A, B, Convocate, cv  # noqa: F401  (cv: the fixture_F4 table)

from bot.actions.commands import App, dispatch
from bot.actions.context import Ctx, Place
from bot.actions.outbox import Outgoing
from engine.convocate.board import Phase
from engine.convocate.motions import MotionCard
from engine.core.errors import RuleError


async def back(table: Convocate, reason: str | None = None, who: int = 0) -> list[Outgoing]:
    """``/phase back`` in the game channel, by the moderator (or by player ``who``), each its own interaction."""
    person = actor(who, {A: "alice", B: "bob"}[who]) if who else MODERATOR
    ctx = Ctx(person, Place(900, 901), f"slash-back-{table.src()}", table.clock.now())
    return await dispatch(App(table.clerk), ctx, "phase back", {"reason": reason} if reason else {})


async def where(table: Convocate) -> tuple[str | None, Phase | None, int, dict[str, int]]:
    """Whose Phase, which, the turn, and each Resource Pool."""
    board = (await table.clerk.convocate.board.board(table.gid)).board
    return board.active, board.phase, board.turn, {p.name: p.pool for p in board.players}


async def test_back_from_admin_to_action_restores_the_pools_so_the_motion_can_be_moved(
        cv: Convocate) -> None:  # noqa: F811
    """The finding's case: alice committed 5 in her Action Phase; the moderator's ``/phase next`` (typed in the
    wrong channel) ended it and the pool emptied. ``/phase back`` puts her Action Phase back with the 5 in her pool:
    she moves the Motion she meant to and pays for a push from that pool."""
    await cv.card("character", "K_A", A, at="S_U")
    await cv.card("location", "LA", A, vote=2)
    await cv.phase(("alice", Phase.ACTION))
    await cv.clerk.convocate.turns.commit(cv.gid, user_id=A, cards=["LA"], added=3, source_id=cv.src())
    await cv.phase(("alice", Phase.ADMIN))
    assert await where(cv) == ("alice", Phase.ADMIN, 1, {"alice": 0, "bob": 0, "carol": 0})
    with pytest.raises(RuleError, match="in your own Action Phase"):
        await cv.clerk.convocate.motions.move_motion(cv.gid, user_id=A, motion=MotionCard("Open the Archives"),
                                                     convocant="K_A")

    step = len(await cv.kinds())
    out = await back(cv, "typed in the wrong channel")
    assert [o.text for o in out] == [
        f"Back in alice's Action Phase of turn 1 (the /phase next #{step} is taken back); announced.",
        "Turn 1: **alice's Action Phase** again. The moderators took back the /phase next that began alice's Admin "
        "Phase of turn 1 (typed in the wrong channel): that Phase has not begun.\n"
        "The Resource Pool holds again what it lost: alice 5."]
    assert await where(cv) == ("alice", Phase.ACTION, 1, {"alice": 5, "bob": 0, "carol": 0})
    kinds = await cv.kinds()
    assert kinds[-2:] == ["PhaseAdvanced", "PhaseSteppedBack"]

    moved = await cv.clerk.convocate.motions.move_motion(cv.gid, user_id=A, motion=MotionCard("Open the Archives"),
                                                         convocant="K_A", source_id=cv.src())
    assert moved.number == 1 and moved.resolved  # nobody else has a Convocant to second with
    pushed = await cv.clerk.convocate.turns.push(cv.gid, user_id=A, factor="GOVT", direction=1, source_id=cv.src())
    assert (pushed.costs, pushed.pool) == ((5,), 0)  # paid from the pool the step had emptied


async def test_back_across_a_turn_boundary_and_again(cv: Convocate) -> None:  # noqa: F811
    """alice's double press ended her turn: bob's Ready Phase readied his activated K_B (R4-06), and the effects
    until end of turn ended (alice's +1, LA's +1). One ``/phase back`` returns to alice's Admin Phase of turn 1 with
    K_B activated and both effects back (bob, told his Phase began, is told it has not); a second returns to her
    Action Phase with her pool. Stepping forward again does what it did the first time."""
    await cv.card("location", "LA", A, vote=1)
    await cv.card("character", "K_B", B, at="HW_B", readied=False)
    await cv.clerk.convocate.board.set_player(cv.gid, user_id=A, name="alice", sovereignty_name=None, order=None,
                                              homeworld=None, temp=1, actor=MODERATOR.id)
    await cv.clerk.convocate.board.set_card(cv.gid, actor=MODERATOR.id, moderator=True, name="LA",
                                            changes={"bonus": 1})
    await cv.phase(("alice", Phase.ACTION))
    await cv.clerk.convocate.turns.commit(cv.gid, user_id=A, cards=["HW_A"], source_id=cv.src())
    before = (await cv.sv(), await where(cv))
    await cv.clerk.convocate.turns.next_phase(cv.gid, user_id=A, moderator=False, source_id=cv.src())
    admin = (await cv.sv(), await where(cv))
    turned = await cv.clerk.convocate.turns.next_phase(cv.gid, user_id=A, moderator=False, source_id=cv.src())
    assert turned.started == ("bob", Phase.READY) and turned.readied == ("K_B",)
    assert await cv.sv() == {"alice": 1, "bob": 2, "carol": 1}  # HW_A activated; the +1s gone; K_B counts

    out = await back(cv, "alice pressed twice")
    assert out[1].text == (
        "Turn 1: **alice's Admin Phase** again. The moderators took back the /phase next that began bob's Ready "
        "Phase of turn 2 (alice pressed twice): that Phase has not begun, and bob's turn comes when alice's ends.\n"
        "bob's cards that readied are activated again: K_B.\n"
        "Effects until end of turn are back: alice +1 Vote, LA +1 Vote.")
    assert (await cv.sv(), await where(cv)) == admin
    board = (await cv.clerk.convocate.board.board(cv.gid)).board
    assert not board.card("K_B").readied and board.card("LA").bonus == 1 and board.player("alice").temp == 1

    out = await back(cv)
    assert out[1].text.endswith("The Resource Pool holds again what it lost: alice 1.")
    assert (await cv.sv(), await where(cv)) == before

    again = await cv.clerk.convocate.turns.next_phase(cv.gid, user_id=A, moderator=False, source_id=cv.src())
    assert again.lost == (("alice", 1),)
    again = await cv.clerk.convocate.turns.next_phase(cv.gid, user_id=A, moderator=False, source_id=cv.src())
    assert (again.started, again.turn, again.readied, again.expired) == (
        ("bob", Phase.READY), 2, ("K_B",), ("alice +1 Vote", "LA +1 Vote"))


async def test_back_is_refused_once_something_was_recorded_after_the_step(cv: Convocate) -> None:  # noqa: F811
    """bob committed in the Ready Phase the step began: stepping back would leave his commit in a Phase that never
    began, so it is refused with why and what to do instead, and nothing is recorded. So is a back with no step
    to take back, and past the first ``/phase next`` (it began the game)."""
    [no] = await back(cv)
    assert no.text == ("No turn is under way in senate (no /phase next has begun one); there is no step to take "
                       "back.")
    await cv.card("location", "LB", B, vote=1)
    await cv.phase(("alice", Phase.READY))
    [no] = await back(cv)
    assert no.text.startswith("The latest /phase next began the first turn; there is no Phase before it")
    await cv.phase(("bob", Phase.READY))
    await cv.clerk.convocate.turns.commit(cv.gid, user_id=B, cards=["LB"], source_id=cv.src())
    kinds = await cv.kinds()
    [no] = await back(cv, "too late")
    assert no.text.startswith(
        "Too late to step back: something was recorded after the latest /phase next (Votes committed, "
        f"#{len(kinds)} in /log), and stepping back would leave it in a Phase that never began. /phase back takes "
        "back only the latest /phase next, while nothing has been recorded since. Nothing was changed. Instead, put "
        "right by hand")
    assert await cv.kinds() == kinds
    assert await where(cv) == ("bob", Phase.READY, 2, {"alice": 0, "bob": 1, "carol": 0})


async def test_a_player_cannot_step_the_phase_back(cv: Convocate) -> None:  # noqa: F811
    """Only a moderator takes a step back, even the player whose double press it was."""
    await cv.phase(("alice", Phase.ADMIN))
    kinds = await cv.kinds()
    [no] = await back(cv, who=A)
    assert no.text == "Only the moderators of senate can use /phase back."
    assert await cv.kinds() == kinds and (await where(cv))[:2] == ("alice", Phase.ADMIN)
