"""``/why standing round:N`` (issue 19): the Convocate's Standing Votes and political control as they stood when turn
N ended, from what its ``PhaseAdvanced`` event kept, explained by the same functions as the board now
(``engine.convocate.votes.vote_explained``); a turn not yet ended, one that never was and one ended before Clerk kept
them are answered with why, never with the board now."""

from __future__ import annotations

import pytest
from ledger_front import MODERATOR, actor, only_here, slash, user
from sqlalchemy import select
from test_service_convocate import MOD, A, Convocate, cv

from engine.convocate.board import Phase
from engine.core.errors import NotFoundError, RuleError
from engine.store.database import make_sessionmaker
from engine.store.models import Event

__all__ = ["cv"]  # the fixture, shared with the Convocate service tests


async def turn_one_with_a_temporary_vote(cv: Convocate) -> dict[str, int]:
    """Turn 1 (alice's) with her +2 temporary effect; the Standing Votes just before it ends; then turn 1 ends (the
    +2 expires) and a Location comes to alice in turn 2."""
    await cv.phase(("alice", Phase.READY))
    await cv.clerk.convocate.board.set_player(cv.gid, user_id=A, name="alice", sovereignty_name=None, order=None,
                                              homeworld=None, temp=2, actor=MOD)
    before = await cv.sv()
    await cv.phase(("bob", Phase.ACTION))  # past the turn's end: a later phase of turn 2 keeps nothing
    await cv.card("character", "Trantor", A, vote=1, at="HW_A", readied=True)
    return before


async def test_a_turns_end_is_explained_as_it_stood_then(cv: Convocate) -> None:
    before = await turn_one_with_a_temporary_vote(cv)
    now = await cv.sv()
    assert now != before
    whole = await cv.clerk.convocate.explain.standing(cv.gid, turn=1)
    assert whole.value == before and "at the end of turn 1" in whole.subject
    alice = await cv.clerk.convocate.explain.standing(cv.gid, "alice", 1)
    assert alice.value == before["alice"]
    said = " | ".join(s.says for s in alice.steps)
    assert "temporary effects (until end of turn): +2" in said and "Trantor" not in said
    async with make_sessionmaker(cv.engine)() as session:
        end = (await session.execute(select(Event).where(Event.game_id == cv.gid, Event.kind == "PhaseAdvanced")
                                     .order_by(Event.seq))).scalars().all()
    ended = [e for e in end if e.payload.get("turn_ended") == 1]
    assert len(ended) == 1 and {k: sum(v for _, v, _ in lines) for k, lines in ended[0].payload["standing"].items()
                                } == before
    assert all(s <= ended[0].seq for step in alice.steps for s in step.events)
    current = await cv.clerk.convocate.explain.standing(cv.gid)
    assert current.value == now and "Trantor" in str(current.parts)


async def test_a_turn_not_ended_never_begun_or_ended_before_clerk_kept_it_says_why(cv: Convocate) -> None:
    with pytest.raises(NotFoundError, match="no turn has begun yet"):
        await cv.clerk.convocate.explain.standing(cv.gid, turn=1)
    await turn_one_with_a_temporary_vote(cv)
    text = only_here(await slash(cv.clerk, MODERATOR, "why", what="standing", round=2))
    assert "Turn 2 of senate has not ended yet" in text
    assert "has had no turn 5" in only_here(await slash(cv.clerk, MODERATOR, "why", what="standing", round=5))
    async with make_sessionmaker(cv.engine)() as session:  # a turn's end recorded before Clerk kept the votes
        for e in (await session.execute(select(Event).where(Event.kind == "PhaseAdvanced"))).scalars():
            if "standing" in e.payload:
                e.payload = {k: v for k, v in e.payload.items() if k not in ("standing", "turn_ended")}
        await session.commit()
    with pytest.raises(RuleError, match="cannot be rebuilt exactly"):  # not answered with the board now
        await cv.clerk.convocate.explain.standing(cv.gid, turn=1)


async def test_a_player_asks_of_a_past_turn_through_the_front(cv: Convocate) -> None:
    before = await turn_one_with_a_temporary_vote(cv)
    bob = actor(12, "bob")
    text = only_here(await slash(cv.clerk, bob, "why", what="standing", round=1, player=user(A, "alice")))
    assert "alice's Standing Vote at the end of turn 1" in text and f"= **{before['alice']}**" in text
    assert "withheld" not in text  # the board is public (rules-spec 4.2.9)
