"""The Convocate ruleset's service object, ``clerk.convocate`` (rules-spec §4): the board, committed Votes and pushes,
Statutes, phases, Motions and Repeals. It is made of three parts, each a module of this package (``board``,
``turns``, ``motions``); its methods are what the front ends call and hand each call to the part that does it."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from engine.convocate.board import Card, PlayerState
from engine.convocate.factors import Committed, Pushed
from engine.convocate.motions import MotionCard
from engine.convocate.turns import PhaseChanged
from engine.service.convocate.board import ConvocateBoardService
from engine.service.convocate.motions import ConvocateMotionService
from engine.service.convocate.turns import ConvocateTurnService
from engine.service.convocate.views import BoardView, MotionView, StatuteView
from engine.service.ruleset import RulesetService
from engine.service.uow import Backend

if TYPE_CHECKING:  # the composition root imports this package; the service only refers to the Clerk
    from engine.service.clerk import Clerk


class ConvocateService(RulesetService):
    """``clerk.convocate``: the use cases of a Convocate game."""

    def __init__(self, backend: Backend, shared: Clerk) -> None:
        super().__init__(backend, shared)
        self._board = ConvocateBoardService(backend, shared)
        self._turns = ConvocateTurnService(backend)
        self._motions = ConvocateMotionService(backend)

    async def next_deadlines(self) -> list[datetime]:
        """Every offer to second that waits for an answer times out at its deadline."""
        return [d for *_, d in await self.offer_deadlines()]

    async def board(self, game_id: int) -> BoardView:
        return await self._board.board(game_id)

    async def set_player(self, game_id: int, *, user_id: int, name: str, sovereignty_name: str | None,
                         order: int | None, homeworld: str | None, temp: int | None, actor: int | None,
                         source_id: str | None = None) -> PlayerState:
        return await self._board.set_player(game_id, user_id=user_id, name=name, sovereignty_name=sovereignty_name,
                                            order=order, homeworld=homeworld, temp=temp, actor=actor,
                                            source_id=source_id)

    async def add_card(self, game_id: int, *, actor: int, moderator: bool, kind: str, name: str,
                       controller: int | None, owner: int | None, vote: int | None, pallarch: bool,
                       at: str | None, morality: str | None, penalty: str | None, sovereignty_name: str | None,
                       faces: str | None, readied: bool | None, source_id: str | None = None) -> Card:
        return await self._board.add_card(game_id, actor=actor, moderator=moderator, kind=kind, name=name,
                                          controller=controller, owner=owner, vote=vote, pallarch=pallarch, at=at,
                                          morality=morality, penalty=penalty, sovereignty_name=sovereignty_name,
                                          faces=faces, readied=readied, source_id=source_id)

    async def set_card(self, game_id: int, *, actor: int, moderator: bool, name: str, changes: dict[str, Any],
                       source_id: str | None = None) -> Card:
        return await self._board.set_card(game_id, actor=actor, moderator=moderator, name=name, changes=changes,
                                          source_id=source_id)

    async def remove_card(self, game_id: int, *, actor: int, moderator: bool, name: str,
                          source_id: str | None = None) -> Card:
        return await self._board.remove_card(game_id, actor=actor, moderator=moderator, name=name, source_id=source_id)

    async def set_factor(self, game_id: int, *, name: str, value: int, actor: int | None,
                         source_id: str | None = None) -> tuple[str, int | None, int]:
        return await self._board.set_factor(game_id, name=name, value=value, actor=actor, source_id=source_id)

    async def set_directive(self, game_id: int, *, actor: int, moderator: bool, user_id: int, factor: str,
                            source_id: str | None = None) -> tuple[str, str | None]:
        return await self._board.set_directive(game_id, actor=actor, moderator=moderator, user_id=user_id,
                                               factor=factor, source_id=source_id)

    async def rulings(self, game_id: int) -> list[tuple[str, str, str, bool, str]]:
        return await self._board.rulings(game_id)

    async def change_ruling(self, game_id: int, *, name: str, value: str, actor: int | None,
                            source_id: str | None = None) -> tuple[str, str, str]:
        return await self._board.change_ruling(game_id, name=name, value=value, actor=actor, source_id=source_id)

    async def commit(self, game_id: int, *, user_id: int, cards: list[str], added: int = 0,
                     source_id: str | None = None) -> Committed:
        return await self._turns.commit(game_id, user_id=user_id, cards=cards, added=added, source_id=source_id)

    async def push(self, game_id: int, *, user_id: int, factor: str, direction: int, steps: int = 1,
                   source_id: str | None = None) -> Pushed:
        return await self._turns.push(game_id, user_id=user_id, factor=factor, direction=direction, steps=steps,
                                      source_id=source_id)

    async def declare(self, game_id: int, *, user_id: int, statute: str, character: str, section: int,
                      sections: int, one_time: str | None = None, cost: str | None = None,
                      owner: int | None = None, source_id: str | None = None) -> StatuteView:
        return await self._turns.declare(game_id, user_id=user_id, statute=statute, character=character,
                                         section=section, sections=sections, one_time=one_time, cost=cost,
                                         owner=owner, source_id=source_id)

    async def change_section(self, game_id: int, *, user_id: int, statute: str, section: int,
                             source_id: str | None = None) -> StatuteView:
        return await self._turns.change_section(game_id, user_id=user_id, statute=statute, section=section,
                                                source_id=source_id)

    async def destroy_statute(self, game_id: int, *, user_id: int, statute: str,
                              source_id: str | None = None) -> StatuteView:
        return await self._turns.destroy_statute(game_id, user_id=user_id, statute=statute, source_id=source_id)

    async def next_phase(self, game_id: int, *, user_id: int, moderator: bool,
                         source_id: str | None = None) -> PhaseChanged:
        return await self._turns.next_phase(game_id, user_id=user_id, moderator=moderator, source_id=source_id)

    async def move_motion(self, game_id: int, *, user_id: int, motion: MotionCard, convocant: str,
                          source_id: str | None = None) -> MotionView:
        return await self._motions.move_motion(game_id, user_id=user_id, motion=motion, convocant=convocant,
                                               source_id=source_id)

    async def answer_offer(self, game_id: int, *, user_id: int, accept: bool, convocant: str | None,
                           source_id: str | None = None, expected: tuple[int, int] | None = None) -> MotionView:
        return await self._motions.answer_offer(game_id, user_id=user_id, accept=accept, convocant=convocant,
                                                source_id=source_id, expected=expected)

    async def pass_offer(self, game_id: int, *, actor: int | None, reason: str = "passed",
                         expected: tuple[int, int] | None = None, source_id: str | None = None) -> MotionView | None:
        return await self._motions.pass_offer(game_id, actor=actor, reason=reason, expected=expected,
                                              source_id=source_id)

    async def offer_deadlines(self) -> list[tuple[int, int, int, datetime]]:
        return await self._motions.offer_deadlines()

    async def repeal(self, game_id: int, *, user_id: int, statute: str, convocant: str,
                     source_id: str | None = None) -> MotionView:
        return await self._motions.repeal(game_id, user_id=user_id, statute=statute, convocant=convocant,
                                          source_id=source_id)

    async def motions(self, game_id: int) -> list[MotionView]:
        return await self._motions.motions(game_id)

    async def motion(self, game_id: int, number: int | None = None) -> MotionView:
        return await self._motions.motion(game_id, number)
