"""The Convocate services on a real database (SQLite, and PostgreSQL when TEST_POSTGRES_URL is set): the board,
committed Votes and pushes, Statutes, phases, Motions with the offer to second, Repeals, one event per accepted
command, redeliveries recognised, and the export."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.actions.convocate.render import answers_text
from engine.convocate.board import Phase
from engine.convocate.motions import MotionCard
from engine.core.errors import RuleError
from engine.service import Clerk
from engine.service.clock import ManualClock
from engine.service.views import GameView
from engine.store.database import make_sessionmaker
from engine.store.models import Event

GUILD, CHANNEL, MOD = 900, 901, 1

A, B, C = 11, 12, 13


@dataclass
class Convocate:
    clerk: Clerk
    clock: ManualClock
    engine: AsyncEngine
    game: GameView
    _n: int = field(default=0)

    @property
    def gid(self) -> int:
        return self.game.id

    def src(self) -> str:
        self._n += 1
        return f"cv-{self._n}"

    async def card(self, kind: str, name: str, controller: int | None, **o: Any) -> None:
        await self.clerk.convocate.board.add_card(self.gid, actor=MOD, moderator=True, kind=kind, name=name,
                                                  controller=controller, owner=o.get("owner"), vote=o.get("vote"),
                                                  pallarch=o.get("pallarch", False),
                                                  at=o.get("at"), morality=o.get("morality"), penalty=o.get("penalty"),
                                                  sovereignty_name=o.get("sovereignty"), faces=o.get("faces"),
                                                  readied=o.get("readied"), source_id=self.src())

    async def phase(self, until: tuple[str, Phase]) -> None:
        for _ in range(20):
            changed = await self.clerk.convocate.turns.next_phase(self.gid, user_id=MOD, moderator=True,
                                                                  source_id=self.src())
            if changed.started == until:
                return
        raise AssertionError(f"never reached {until}")

    async def govt(self, value: int) -> None:
        await self.clerk.convocate.board.set_factor(self.gid, name="GOVT", value=value, actor=MOD)

    async def kinds(self) -> list[str]:
        async with make_sessionmaker(self.engine)() as session:
            found = await session.execute(select(Event.kind).where(Event.game_id == self.gid).order_by(Event.seq))
            return list(found.scalars())

    async def sv(self) -> dict[str, int]:
        view = await self.clerk.convocate.board.board(self.gid)
        return {s.player: s.vote.total for s in view.standings}


@pytest.fixture
async def cv(clerk: Clerk, clock: ManualClock, db_engine: AsyncEngine) -> AsyncIterator[Convocate]:
    """fixture_F4 (rules-spec §4.5): alice (Union, +), bob (Kingdom, −), carol (Republic, +); their Homeworlds;
    S_U (alice), S_K (bob), S_T (carol, Prime face prints Directive). GOVT 0. No turn started."""
    game = await clerk.games.create_game(guild_id=GUILD, channel_id=CHANNEL, name="senate", ruleset="convocate",
                                         moderator_role_id=None, actor=MOD)
    t = Convocate(clerk, clock, db_engine, game)
    for uid, name, sov in ((A, "alice", "Union"), (B, "bob", "Kingdom"), (C, "carol", "Republic")):
        await clerk.convocate.board.set_player(game.id, user_id=uid, name=name, sovereignty_name=sov, order=None,
                                               homeworld=None, temp=None, actor=MOD)
    await t.card("homeworld", "HW_A", A)
    await t.card("homeworld", "HW_B", B)
    await t.card("homeworld", "HW_C", C)
    await t.card("seat", "S_U", A, sovereignty="Union", faces="prime: 0..4")
    await t.card("seat", "S_K", B, sovereignty="Kingdom", faces="prime: -4..0")
    await t.card("seat", "S_T", C, sovereignty="Republic", faces="prime: 0..4 directive; contested: 0..4")
    yield t


async def test_the_board_standing_vote_control_seats_and_lockout(cv: Convocate) -> None:
    """TV4-I01 on the service: A's Standing Vote with its breakdown; Seats active and why; the lockout."""
    await cv.card("location", "L1", A, vote=1)
    await cv.card("character", "P_A", A, vote=2, pallarch=True, at="S_U")
    await cv.card("character", "K_A", A, vote=1, at="S_U")
    await cv.card("ground-unit", "G_A", A, vote=1)
    await cv.govt(2)
    view = await cv.clerk.convocate.board.board(cv.gid)
    alice = view.standings[0]
    assert (alice.player, alice.vote.total, alice.locked_out) == ("alice", 7, False)  # 1+1+2+1+1, S_U 1
    assert view.control == "alice" and view.tied == ()
    assert [(s.name, s.active, s.bonus) for s in view.seats] == [("S_U", True, True), ("S_K", False, False),
                                                                ("S_T", True, False)]
    assert [s.locked_out for s in view.standings] == [False, True, False]
    assert (await cv.sv()) == {"alice": 7, "bob": 1, "carol": 1}


async def test_the_board_and_the_export_follow_r4_10_a_held_active_seat_is_no_lockout(cv: Convocate) -> None:
    """Found playing (1.3): at GOVT +2 bob (Kingdom, −) holds a captured Republic Seat active in its own range, so
    the Seat route is open and he is not locked out; the board's list and the export said he was (the sign of GOVT
    alone), while the engine let him move. All three read ``seats.locked_out``."""
    await cv.card("seat", "Hall", B, sovereignty="Republic", faces="prime: 1..4")
    await cv.govt(2)
    view = await cv.clerk.convocate.board.board(cv.gid)
    assert [(s.player, s.locked_out) for s in view.standings] == [("alice", False), ("bob", False), ("carol", False)]
    from engine.service.convocate.export import export_convocate
    async with make_sessionmaker(cv.engine)() as session:
        exported = await export_convocate(session, cv.gid)
    players = exported["convocate"]["players"]
    assert [(p["name"], p["locked_out"]) for p in players] == [("alice", False), ("bob", False), ("carol", False)]
    await cv.clerk.convocate.board.set_card(cv.gid, actor=1, moderator=True, name="Hall", changes={"on_map": False})
    view = await cv.clerk.convocate.board.board(cv.gid)
    assert [s.locked_out for s in view.standings] == [False, True, False]  # without it, GOVT locks bob out


async def test_cards_are_checked_when_they_are_put_on_the_board(cv: Convocate) -> None:
    with pytest.raises(RuleError, match="No card prints Vote 3"):
        await cv.card("location", "L3", A, vote=3)
    with pytest.raises(RuleError, match="There is no card called “S_X”"):
        await cv.card("character", "K_A", A, at="S_X")
    with pytest.raises(RuleError, match="already on the board"):
        await cv.card("location", "hw_a", A)
    with pytest.raises(RuleError, match="The Emberates hold no Convocate Seat"):
        await cv.card("seat", "S_E", None, sovereignty="Emberates")
    # R4-01: a sovereign who is not one of the Ten has Vote 1; a typed 3 is refused with the rule, not stored as 1
    with pytest.raises(RuleError) as three:
        await cv.card("character", "Corovan", A, vote=3)
    assert str(three.value) == ("No card prints Vote 3 (rules §6.1): a Character prints 1, or 0 if its card prints 0, "
                                "and a Pallarch (one of the Ten) 2.")
    before = (await cv.clerk.convocate.board.board(cv.gid)).board
    assert before.find("Corovan") is None
    await cv.card("character", "Corovan", A, vote=1)
    board = (await cv.clerk.convocate.board.board(cv.gid)).board
    assert board.card("Corovan").vote == 1 and board.player("alice").homeworld == "HW_A"
    with pytest.raises(RuleError, match="only cards they control"):
        await cv.clerk.convocate.board.add_card(cv.gid, actor=B, moderator=False, kind="location", name="LX",
                                                controller=A, owner=None, vote=1, pallarch=False, at=None,
                                                morality=None, penalty=None, sovereignty_name=None, faces=None,
                                                readied=None)
    await cv.clerk.convocate.board.set_card(cv.gid, actor=A, moderator=False, name="Corovan", changes={"at": "HW_A"})
    with pytest.raises(RuleError, match="You do not control Corovan"):
        await cv.clerk.convocate.board.set_card(cv.gid, actor=B, moderator=False, name="Corovan",
                                                changes={"readied": False})


async def test_a_typed_vote_the_card_cannot_print_is_refused_with_the_rule_and_nothing_recorded(
        cv: Convocate) -> None:
    """Issue 16, rules §6.1 (R4-01): /card add and /card set refuse a Vote above 2, a 2 on a Character that is not a
    Pallarch, another Vote on a Pallarch, and a Homeworld's other than 1; the answer says the rule in words."""
    before = await cv.kinds()
    refusals = [
        (("location", "L3"), {"vote": 3}, "No card prints Vote 3 (rules §6.1): a Location keeps the Vote it prints, "
                                          "0, 1 or 2."),
        (("character", "Quill"), {"vote": 2}, "Only a Pallarch (one of the Ten) prints Vote 2; every other Character "
                                              "prints 1, or 0 if its card prints 0 (rules §6.1). Give "
                                              "`pallarch:true` if it is one of the Ten."),
        (("character", "Mirel"), {"vote": 1, "pallarch": True}, "A Pallarch (one of the Ten) prints Vote 2 on both "
                                                                "faces, not 1 (rules §6.1); leave `vote` out."),
        (("homeworld", "HW_X"), {"vote": 0}, "Every Homeworld prints Vote 1, not 0 (rules §6.1); leave `vote` out."),
    ]
    for (kind, name), options, message in refusals:
        with pytest.raises(RuleError) as refused:
            await cv.card(kind, name, A, **options)
        assert str(refused.value) == message
        assert "R4-" not in message
    assert await cv.kinds() == before
    await cv.card("character", "Quill", A, vote=0)
    await cv.card("character", "Mirel", A, vote=2, pallarch=True)
    await cv.card("homeworld", "HW_X", None, vote=1)
    await cv.card("location", "Vault", A, vote=2)
    board = cv.clerk.convocate.board
    changed = await cv.kinds()
    for name, changes, found in (("Quill", {"vote": 2}, "Only a Pallarch"), ("HW_A", {"vote": 2}, "Every Homeworld"),
                                 ("Vault", {"vote": 4}, "No card prints Vote 4"),
                                 ("Mirel", {"vote": 0}, r"A Pallarch \(one of the Ten\) prints Vote 2")):
        with pytest.raises(RuleError, match=found):
            await board.set_card(cv.gid, actor=MOD, moderator=True, name=name, changes=changes)
    assert await cv.kinds() == changed
    quill = (await board.set_card(cv.gid, actor=MOD, moderator=True, name="Quill",
                                  changes={"vote": 2, "pallarch": True})).card
    assert (quill.vote, quill.pallarch) == (2, True)
    assert (await board.board(cv.gid)).board.card("Quill").vote == 2


async def test_the_26_vote_push_and_the_pool_emptying(cv: Convocate) -> None:
    """TV4-S02 on the service: 26 committed Votes move GOVT from 0 to +4; the pool empties at the Phase's end."""
    for i in range(13):
        await cv.card("location", f"L{i}", A, vote=2)
    await cv.phase(("alice", Phase.ACTION))
    names = [f"L{i}" for i in range(13)]
    with pytest.raises(RuleError, match="own turn"):
        await cv.clerk.convocate.turns.commit(cv.gid, user_id=B, cards=["HW_B"], source_id=cv.src())
    done = await cv.clerk.convocate.turns.commit(cv.gid, user_id=A, cards=names, source_id=cv.src())
    assert done.pool == 26
    pushed = await cv.clerk.convocate.turns.push(cv.gid, user_id=A, factor="govt", direction=1, steps=4,
                                                 source_id=cv.src())
    assert (pushed.frm, pushed.to, pushed.costs, pushed.pool) == (0, 4, (5, 6, 7, 8), 0)
    view = await cv.clerk.convocate.board.board(cv.gid)
    assert view.board.govt == 4 and [s.locked_out for s in view.standings] == [False, True, False]
    await cv.clerk.convocate.turns.commit(cv.gid, user_id=A, cards=["HW_A"], source_id=cv.src())
    changed = await cv.clerk.convocate.turns.next_phase(cv.gid, user_id=A, moderator=False, source_id=cv.src())
    assert changed.lost == (("alice", 1),)
    assert (await cv.kinds()).count("FactorPushed") == 1


async def test_committed_votes_leave_the_timed_work_unread_and_a_phase_change_does_not(cv: Convocate) -> None:
    """The scheduler's quiet pass (engine/service/timed_changes.py): committing Votes changes no deadline, reminder
    or offer, so the events after it name nothing timed; a phase change is read again."""
    await cv.card("location", "L0", A, vote=2)
    await cv.phase(("alice", Phase.ACTION))
    after, _ = await cv.clerk.timed_changes.since(None)
    await cv.clerk.convocate.turns.commit(cv.gid, user_id=A, cards=["L0"], source_id=cv.src())
    newest, changed = await cv.clerk.timed_changes.since(after)
    assert newest > after and not changed
    await cv.clerk.convocate.turns.next_phase(cv.gid, user_id=A, moderator=False, source_id=cv.src())
    assert (await cv.clerk.timed_changes.since(newest))[1]


async def test_a_statute_declared_a_section_changed_then_destroyed(cv: Convocate) -> None:
    """R4-11/R4-12: declared from S_U with political control; its one-time Section resolves; a different Section in
    alice's Admin Phase; destroyed there."""
    await cv.card("character", "K_A", A, at="S_U")
    await cv.card("location", "L1", A, vote=2)
    await cv.phase(("alice", Phase.ACTION))
    with pytest.raises(RuleError, match="never declared from a Homeworld"):
        await cv.card("character", "H_A", A, at="HW_A")
        await cv.clerk.convocate.turns.declare(cv.gid, user_id=A, statute="Statute 3498C", character="H_A", section=1,
                                               sections=3)
    view = await cv.clerk.convocate.turns.declare(cv.gid, user_id=A, statute="Statute 3498C", character="K_A",
                                                  section=1, sections=3, one_time="1; 2: Rank + 1 = 3",
                                                  cost="2 Currency", owner=C, source_id=cv.src())
    assert view.resolves == (1, None) and view.statute.owner == "carol" and view.seat == "S_U"
    with pytest.raises(RuleError, match="Admin Phase"):
        await cv.clerk.convocate.turns.change_section(cv.gid, user_id=A, statute="statute 3498c", section=2)
    await cv.phase(("alice", Phase.ADMIN))
    changed = await cv.clerk.convocate.turns.change_section(cv.gid, user_id=A, statute="statute 3498c", section=2,
                                                            source_id=cv.src())
    assert changed.resolves == (2, "Rank + 1 = 3")
    with pytest.raises(RuleError, match="controlled by alice"):
        await cv.clerk.convocate.turns.destroy_statute(cv.gid, user_id=B, statute="Statute 3498C")
    gone = await cv.clerk.convocate.turns.destroy_statute(cv.gid, user_id=A, statute="Statute 3498C",
                                                          source_id=cv.src())
    assert gone.destroyed and gone.statute.owner == "carol"
    doc = await cv.clerk.exports.export(cv.gid)
    (statute,) = doc["convocate"]["statutes"]
    assert (statute["name"], statute["controller"], statute["owner"], statute["section"], statute["status"]) == (
        "Statute 3498C", "alice", "carol", 2, "destroyed")


async def test_a_motion_offered_round_the_table_and_seconded(cv: Convocate) -> None:
    """R4-15/P4-13: alice moves; the offer goes to alice first (a second Convocant), who declines; bob is locked out
    at GOVT +1 and skipped; carol seconds. Moved then Seconded; each Penalty listed. A redelivered answer is
    recognised."""
    await cv.govt(1)
    await cv.card("character", "K_A", A, morality="Loyal")
    await cv.card("character", "J_A", A, at="HW_A", morality="Loyal")
    await cv.card("character", "K_B", B, at="HW_B")
    await cv.card("character", "K_C", C, at="S_T", morality="Ruthless", penalty="Lose 1 Story Point")
    await cv.phase(("alice", Phase.ACTION))
    motion = MotionCard("Land Reform", "Loyal", "Draw a card.", "Draw another card.", None, "HW_B")
    moved = await cv.clerk.convocate.motions.move_motion(cv.gid, user_id=A, motion=motion, convocant="K_A",
                                                         source_id="m1")
    assert (moved.status, moved.order, moved.offer_to, moved.candidates) == (
        "offering", ("alice", "bob", "carol"), "alice", ("J_A",))
    assert moved.deadline == cv.clock.now() + timedelta(hours=24)
    again = await cv.clerk.convocate.motions.move_motion(cv.gid, user_id=A, motion=motion, convocant="K_A",
                                                         source_id="m1")
    assert again.duplicate and again.number == moved.number
    with pytest.raises(RuleError, match="with alice now, not with you"):
        await cv.clerk.convocate.motions.answer_offer(cv.gid, user_id=C, accept=True, convocant=None)
    declined = await cv.clerk.convocate.motions.answer_offer(cv.gid, user_id=A, accept=False, convocant=None,
                                                             source_id="a1")
    assert declined.offer_to == "carol"
    assert [(a.player, a.answer) for a in declined.answers] == [("alice", "declined"), ("bob", "skipped")]
    assert declined.answers[1].why == "locked out, no active Seat"
    with pytest.raises(RuleError, match=r"^Only alice \(whose .+ it is\) or a moderator ends the Phase\.$"):
        await cv.clerk.convocate.turns.next_phase(cv.gid, user_id=C, moderator=False)  # said once (issue 17)
    with pytest.raises(RuleError, match="still being offered"):
        await cv.clerk.convocate.turns.next_phase(cv.gid, user_id=A, moderator=False)
    done = await cv.clerk.convocate.motions.answer_offer(cv.gid, user_id=C, accept=True, convocant=None, source_id="a2")
    assert done.resolved and (done.seconder, done.seconder_convocant) == ("carol", "K_C")
    assert done.outcome is not None
    assert done.outcome["effects"] == [["Moved", "Draw a card."], ["Seconded", "Draw another card."]]
    assert done.outcome["penalties"] == [{"convocant": "K_C", "player": "carol", "morality": "Ruthless",
                                          "penalty": "Lose 1 Story Point"}]
    repeat = await cv.clerk.convocate.motions.answer_offer(cv.gid, user_id=C, accept=True, convocant=None,
                                                           source_id="a2")
    assert repeat.duplicate and repeat.resolved
    kinds = await cv.kinds()
    assert kinds[-3:] == ["MotionMoved", "SecondDeclined", "MotionSeconded"]
    board = (await cv.clerk.convocate.board.board(cv.gid)).board
    assert not board.card("K_A").readied and not board.card("K_C").readied and board.card("J_A").readied


async def test_an_offer_times_out_and_a_motion_nobody_can_second_resolves_at_once(cv: Convocate) -> None:
    await cv.clerk.settings.change_setting(cv.gid, name="second_timeout", value="2h", actor=MOD)
    await cv.card("character", "K_A", A, at="HW_A")
    await cv.card("character", "K_C", C, at="HW_C")
    await cv.phase(("alice", Phase.ACTION))
    moved = await cv.clerk.convocate.motions.move_motion(cv.gid, user_id=A, motion=MotionCard("M1"), convocant="K_A",
                                                         source_id=cv.src())
    assert moved.offer_to == "carol" and [a.answer for a in moved.answers] == ["skipped", "skipped"]
    (due,) = await cv.clerk.convocate.motions.offer_deadlines()
    assert due == (cv.gid, 1, 2, cv.clock.now() + timedelta(hours=2))
    assert await cv.clerk.next_deadlines() == [due[3]]
    assert await cv.clerk.convocate.motions.pass_offer(cv.gid, actor=None, reason="timed out", expected=(1, 1)) is None
    timed = await cv.clerk.convocate.motions.pass_offer(cv.gid, actor=None, reason="timed out", expected=(1, 2),
                                                        source_id="second-timeout:1:1:2")
    assert timed is not None and timed.resolved and timed.outcome is not None
    assert timed.outcome["effects"] == [["Moved", ""]] and timed.answers[-1].answer == "timed out"
    await cv.card("character", "J_A", A, at="HW_A")
    plain = await cv.clerk.convocate.motions.move_motion(cv.gid, user_id=A, motion=MotionCard("M2", seconded="none"),
                                                         convocant="J_A", source_id=cv.src())
    assert plain.resolved and plain.order == () and plain.answers == ()
    assert await cv.clerk.convocate.motions.offer_deadlines() == []


async def test_an_offer_passed_on_while_the_bot_was_offline_says_so(cv: Convocate) -> None:
    """Play-test S4.3: the offer's deadline passed while the bot was down, and it passes on at start: the answer
    recorded and shown (the channel's post, the resolution's card, /motion status) says the bot was offline, and
    that no answer had been sent before the deadline (the DMs of that time are read back first, R3.2). One passed on a
    few seconds after its deadline (the scheduler's pass) does
    not."""
    await cv.clerk.settings.change_setting(cv.gid, name="second_timeout", value="2h", actor=MOD)
    await cv.card("character", "K_A", A, at="HW_A")
    await cv.card("character", "K_C", C, at="HW_C")
    await cv.card("character", "J_A", A, at="HW_A")
    await cv.phase(("alice", Phase.ACTION))
    motions = cv.clerk.convocate.motions
    moved = await motions.move_motion(cv.gid, user_id=A, motion=MotionCard("M1"), convocant="K_A", source_id=cv.src())
    assert moved.offer_to == "alice"
    cv.clock.advance(timedelta(hours=2, seconds=20))
    in_time = await motions.pass_offer(cv.gid, actor=None, reason="timed out", expected=(1, 0), source_id="t-1")
    assert in_time is not None and in_time.offer_to == "carol"
    first = in_time.answers[0]
    assert (first.player, first.answer, first.why) == ("alice", "timed out", None)
    cv.clock.advance(timedelta(hours=5))
    late = await motions.pass_offer(cv.gid, actor=None, reason="timed out", expected=(1, 2), source_id="t-2")
    assert late is not None and late.resolved
    assert answers_text(late).endswith("carol did not answer in time (its deadline passed while the bot was "
                                       "offline, with no answer sent before it; the DMs sent meanwhile were read "
                                       "when the bot started again)")


async def test_repeals_succeed_fail_on_a_tie_and_are_exported(cv: Convocate) -> None:
    """R4-17 on the service: counted after the activation; a tie goes to the controller (TV4-I19); a successful
    repeal (TV4-I10) sends the Statute to its owner's Depleted Pile; the history is in the export."""
    await cv.card("character", "K_A", A, at="S_U")
    await cv.card("location", "LA", A, vote=2)
    await cv.card("character", "K_B", B, at="HW_B")
    await cv.card("character", "J_B", B, at="HW_B")
    await cv.card("location", "LB", B, vote=1)
    await cv.phase(("alice", Phase.ACTION))
    await cv.clerk.convocate.turns.declare(cv.gid, user_id=A, statute="X", character="K_A", section=1, sections=2)
    await cv.phase(("bob", Phase.ACTION))
    assert await cv.sv() == {"alice": 3, "bob": 4, "carol": 1}
    tie = await cv.clerk.convocate.motions.repeal(cv.gid, user_id=B, statute="X", convocant="K_B", source_id="r1")
    assert tie.outcome is not None and (tie.outcome["mover_votes"], tie.outcome["controller_votes"],
                                        tie.outcome["destroyed"]) == (3, 3, False)
    assert (await cv.clerk.convocate.motions.repeal(cv.gid, user_id=B, statute="X", convocant="K_B",
                                                    source_id="r1")).duplicate
    await cv.card("location", "LB2", B, vote=2)
    won = await cv.clerk.convocate.motions.repeal(cv.gid, user_id=B, statute="X", convocant="J_B", source_id="r2")
    assert won.outcome is not None and (won.outcome["mover_votes"], won.outcome["controller_votes"],
                                        won.outcome["destroyed"]) == (4, 3, True)
    with pytest.raises(RuleError, match="No Statute called “X” is in force"):
        await cv.clerk.convocate.motions.repeal(cv.gid, user_id=B, statute="X", convocant="HW_B")
    doc = (await cv.clerk.exports.export(cv.gid))["convocate"]
    assert [(m["kind"], m["mover"], m["outcome"]["destroyed"]) for m in doc["motions"]] == [
        ("repeal", "bob", False), ("repeal", "bob", True)]
    (statute,) = doc["statutes"]
    assert (statute["status"], statute["controller"], statute["owner"]) == ("repealed", "alice", "alice")
    assert doc["factors"] == {"GOVT": 0} and doc["turn"] == {"number": 2, "active": "bob", "phase": "action"}


async def test_convocate_commands_refuse_in_a_landsdraad_game(clerk: Clerk) -> None:
    game = await clerk.games.create_game(guild_id=GUILD, channel_id=CHANNEL + 1, name="sirius", ruleset="landsdraad",
                                         moderator_role_id=None, actor=MOD)
    with pytest.raises(RuleError, match="belongs to the Convocate ruleset; sirius plays landsdraad"):
        await clerk.convocate.board.board(game.id)
    with pytest.raises(RuleError, match="belongs to the Convocate ruleset"):
        await clerk.convocate.board.rulings(game.id)
    assert "convocate" not in await clerk.exports.export(game.id)


async def test_rulings_are_per_game_settings_and_events(cv: Convocate) -> None:
    name, old, new = await cv.clerk.settings.change_setting(cv.gid, name="seat range plus", value="1..4", actor=MOD)
    assert (name, str(old), str(new)) == ("seat_range_plus", "0..4", "1..4")
    rows = {r[0]: r for r in await cv.clerk.convocate.board.rulings(cv.gid)}
    assert rows["seat_range_plus"][2:4] == ("1..4", False) and rows["repeal_count"][1:4] == ("P4-05", "after", True)
    assert (await cv.kinds())[-1] == "SettingChanged"


async def test_the_offer_skips_a_player_with_an_active_seat_for_the_real_reason(cv: Convocate) -> None:
    """Found playing (4.3): at GOVT −2 carol's S_T is active by her Directive (R4-09), so she is not locked out
    (R4-10); she is skipped because her one Convocant is activated, and the reason says so. alice, with no active
    Seat, is locked out."""
    await cv.govt(-2)
    await cv.clerk.convocate.board.set_directive(cv.gid, actor=MOD, moderator=True, user_id=C, factor="GOVT")
    await cv.card("character", "K_B", B, at="HW_B")
    await cv.card("character", "K_C", C, at="HW_C", readied=False)
    await cv.card("character", "K_A", A, at="HW_A")
    await cv.phase(("bob", Phase.ACTION))
    motion = MotionCard("Decree", None, "Draw a card.", "Draw another card.", None, None)
    moved = await cv.clerk.convocate.motions.move_motion(cv.gid, user_id=B, motion=motion, convocant="K_B")
    assert [(a.player, a.why) for a in moved.answers] == [
        ("bob", "no readied Convocant with access"), ("carol", "no readied Convocant with access"),
        ("alice", "locked out, no active Seat")]


async def test_a_change_during_set_up_gives_the_board_as_the_read_after_it_finds(cv: Convocate) -> None:
    """``CardDone.setup`` and ``FactorSet.setup``: the board as a change during set-up leaves it, made in the
    change's transaction (the set-up summary is owed with it, bot/actions/convocate/board.py), is the board a read
    after the commit finds; none once a turn has begun."""
    board = cv.clerk.convocate.board
    added = await board.add_card(cv.gid, actor=MOD, moderator=True, kind="location", name="Corovan", controller=A,
                                 owner=None, vote=None, pallarch=False, at=None, morality=None, penalty=None,
                                 sovereignty_name=None, faces=None, readied=None)
    assert added.setup == await board.board(cv.gid)
    changed = await board.set_card(cv.gid, actor=MOD, moderator=True, name="Corovan", changes={"readied": False})
    assert changed.setup == await board.board(cv.gid) and not changed.card.readied
    factor = await board.set_factor(cv.gid, name="GOVT", value=2, actor=MOD)
    assert factor.setting_up and factor.setup == await board.board(cv.gid)
    removed = await board.remove_card(cv.gid, actor=MOD, moderator=True, name="Corovan")
    assert removed.setup == await board.board(cv.gid) and removed.card.name == "Corovan"
    await cv.clerk.convocate.turns.next_phase(cv.gid, user_id=MOD, moderator=True, source_id=cv.src())
    later = await board.set_factor(cv.gid, name="GOVT", value=1, actor=MOD)
    assert not later.setting_up and later.setup is None


async def test_an_offer_left_on_the_floor_when_the_game_ended_runs_on_at_a_reopening(cv: Convocate) -> None:
    """Play-test X4.5: a table closed by mistake while carol was asked to second (1h of her 2h left) and reopened
    5h later: her offer does not time out at once for a time her answer was refused with the closed line; it runs
    on from the reopening with the hour she had left."""
    await cv.clerk.settings.change_setting(cv.gid, name="second_timeout", value="2h", actor=MOD)
    await cv.card("character", "K_A", A, at="HW_A")
    await cv.card("character", "K_C", C, at="HW_C")
    await cv.phase(("alice", Phase.ACTION))
    await cv.clerk.convocate.motions.move_motion(cv.gid, user_id=A, motion=MotionCard("M1"), convocant="K_A",
                                                 source_id=cv.src())
    cv.clock.advance(timedelta(hours=1))
    await cv.clerk.games.close(cv.gid, actor=MOD, reason="by mistake")
    cv.clock.advance(timedelta(hours=5))
    done = await cv.clerk.games.reopen(cv.gid, actor=MOD, reason="closed by mistake")
    (due,) = await cv.clerk.convocate.motions.offer_deadlines()
    assert due == (cv.gid, 1, 2, cv.clock.now() + timedelta(hours=1))
    # play-test X5.6: the reopening's announcement says which deadline moved, and to when
    assert done.deadlines == (("the offer to second Motion #1 (M1)", cv.clock.now() + timedelta(hours=1)),)
