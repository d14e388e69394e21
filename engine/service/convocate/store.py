"""The Convocate board in the store: loading it into the pure ``Board`` and writing back what a command changed.

The board is small (tens of cards), so a command loads it whole, runs the pure rule, and writes only the rows
whose values changed, in the command's one transaction."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.convocate.board import GOVT, Board, Card, Face, Kind, Phase, PlayerState, Section, Statute
from engine.convocate.rulings import rulings_of
from engine.core.errors import NotFoundError, RuleError
from engine.store.models import Game, Player
from engine.store.models.convocate import CvCard, CvFactor, CvMotion, CvPlayer, CvStatute, CvTurn

NAME = "convocate"


def require_convocate(game: Game, what: str = "That") -> None:
    """Commands of one ruleset refuse clearly in a game of another."""
    if game.ruleset != NAME:
        raise RuleError(f"{what} belongs to the Convocate ruleset; {game.name} plays {game.ruleset}.")


def faces_json(faces: Sequence[Face]) -> dict[str, Any]:
    return {"faces": [{"name": f.name, "active_govt": sorted(f.active_govt) if f.active_govt is not None else None,
                       "directive": f.prints_directive} for f in faces]}


def faces_of(data: dict[str, Any]) -> tuple[Face, ...]:
    return tuple(Face(f["name"], frozenset(f["active_govt"]) if f["active_govt"] is not None else None,
                      bool(f["directive"])) for f in data.get("faces", []))


def sections_json(sections: Sequence[Section]) -> dict[str, Any]:
    return {"sections": [{"number": s.number, "one_time": s.one_time, "cost": s.cost} for s in sections]}


def sections_of(data: dict[str, Any]) -> tuple[Section, ...]:
    return tuple(Section(s["number"], bool(s["one_time"]), s.get("cost")) for s in data.get("sections", []))


@dataclass
class Loaded:
    """A game's board and the rows it came from, to write the changes back."""

    game: Game
    board: Board
    players: dict[str, Player]
    """By player name: those seated at the table (a player removed with /player remove is not)."""
    seats: dict[str, CvPlayer]
    cards: dict[str, CvCard]
    factors: dict[str, CvFactor]
    turn: CvTurn
    statutes: dict[str, CvStatute]
    """In force, by name."""
    everyone: dict[str, Player] = field(default_factory=dict)
    """By player name, the removed ones too: the history (old Motions) still names them."""

    def player_id(self, name: str | None) -> int | None:
        return (self.players.get(name) or self.everyone[name]).id if name is not None else None

    def name_of(self, player_id: int | None) -> str | None:
        return next((n for n, p in {**self.everyone, **self.players}.items() if p.id == player_id),
                    None) if player_id else None

    def find_user(self, user_id: int | None) -> str | None:
        return next((n for n, p in self.players.items() if p.user_id == user_id), None) if user_id else None

    def by_user(self, user_id: int) -> str:
        for name, p in self.players.items():
            if p.user_id == user_id:
                return name
        if any(p.user_id == user_id for p in self.everyone.values()):
            raise RuleError(f"You are no longer in {self.game.name}: a moderator removed you, so nothing of yours "
                            "can count. Ask the moderators if this is a mistake.")
        raise NotFoundError(f"You are not a player in {self.game.name}.")

    def user_of(self, name: str) -> int:
        return self.players[name].user_id


async def load(session: AsyncSession, game: Game) -> Loaded:
    require_convocate(game)
    gid = game.id
    rows = (await session.execute(select(CvPlayer, Player).join(Player, Player.id == CvPlayer.player_id)
                                  .where(CvPlayer.game_id == gid).order_by(Player.id))).all()  # in joining order:
    # the board's players, and every list made from them (a tie for political control), in one order on each backend
    everyone = {p.name: p for _, p in rows}
    by_id = {p.id: p.name for p in everyone.values()}
    rows = [r for r in rows if not r[1].removed]  # a removed player's seat has left the table (/player remove)
    players = {p.name: p for _, p in rows}
    seats = {p.name: s for s, p in rows}
    cards = {c.name: c for c in (await session.execute(
        select(CvCard).where(CvCard.game_id == gid).order_by(CvCard.id))).scalars()}
    factors = {f.name: f for f in (await session.execute(
        select(CvFactor).where(CvFactor.game_id == gid).order_by(CvFactor.id))).scalars()}
    turn = (await session.execute(select(CvTurn).where(CvTurn.game_id == gid))).scalar_one_or_none()
    if turn is None:
        turn = CvTurn(game_id=gid, active_id=None, phase=None, turn=0)
        session.add(turn)
    if GOVT not in factors:
        factors[GOVT] = CvFactor(game_id=gid, name=GOVT, value=0)
        session.add(factors[GOVT])
    statutes = {s.name: s for s in (await session.execute(
        select(CvStatute).where(CvStatute.game_id == gid, CvStatute.status == "in force")
        .order_by(CvStatute.id))).scalars()}
    board = Board(
        players=tuple(PlayerState(p.name, s.sovereignty, s.turn_order, s.directive, s.homeworld, s.pool, s.temp,
                                  s.repealed_turn) for s, p in rows),
        cards=tuple(Card(c.name, Kind(c.kind), by_id.get(c.controller_id or 0), by_id.get(c.owner_id or 0), c.vote,
                         c.pallarch, c.morality, c.penalty, c.at, c.readied, c.on_map, c.suppressed, c.bonus,
                         c.sovereignty, faces_of(c.faces), c.face) for c in cards.values()),
        factors=tuple((f.name, f.value) for f in factors.values()),
        statutes=tuple(Statute(s.name, by_id[s.controller_id], by_id[s.owner_id], s.section, sections_of(s.sections),
                               s.changed_turn) for s in statutes.values()),
        active=by_id.get(turn.active_id or 0), phase=Phase(turn.phase) if turn.phase else None, turn=turn.turn or 0,
        rulings=rulings_of(game.settings))
    return Loaded(game, board, players, seats, cards, factors, turn, statutes, everyone)


def save(session: AsyncSession, loaded: Loaded, after: Board) -> Loaded:
    """Write the changed rows of ``after`` (cards, players' pools and flags, factors, the turn, Statutes' Sections).
    New and ended Statutes are written by the caller, who knows how they began or ended."""
    for card in after.cards:
        row = loaded.cards.get(card.name)
        if row is None:
            row = CvCard(game_id=loaded.game.id, name=card.name)
            session.add(row)
            loaded.cards[card.name] = row
        values: dict[str, Any] = {
            "kind": card.kind.value, "controller_id": loaded.player_id(card.controller),
            "owner_id": loaded.player_id(card.owner), "vote": card.vote, "pallarch": card.pallarch,
            "morality": card.morality, "penalty": card.penalty, "at": card.at, "readied": card.readied,
            "on_map": card.on_map, "suppressed": card.suppressed, "bonus": card.bonus,
            "sovereignty": card.sovereignty, "faces": faces_json(card.faces), "face": card.face}
        for key, value in values.items():
            if getattr(row, key) != value:
                setattr(row, key, value)
    for p in after.players:
        seat = loaded.seats[p.name]
        changes: dict[str, Any] = {
            "sovereignty": p.sovereignty, "turn_order": p.order, "directive": p.directive, "homeworld": p.homeworld,
            "pool": p.pool, "temp": p.temp, "repealed_turn": p.repealed_turn}
        for key, value in changes.items():
            if getattr(seat, key) != value:
                setattr(seat, key, value)
    for name, value in after.factors:
        factor = loaded.factors.get(name)
        if factor is None:
            factor = loaded.factors[name] = CvFactor(game_id=loaded.game.id, name=name, value=value)
            session.add(factor)
        elif factor.value != value:
            factor.value = value
    turn = loaded.turn
    active = loaded.player_id(after.active)
    phase = after.phase.value if after.phase else None
    if (turn.active_id, turn.phase, turn.turn) != (active, phase, after.turn):
        turn.active_id, turn.phase, turn.turn = active, phase, after.turn
    for statute in after.statutes:
        found = loaded.statutes.get(statute.name)
        if found is not None and (found.section, found.changed_turn) != (statute.section, statute.changed_turn):
            found.section, found.changed_turn = statute.section, statute.changed_turn
    return replace(loaded, board=after)


async def open_motion(session: AsyncSession, game_id: int) -> CvMotion | None:
    found = await session.execute(select(CvMotion).where(CvMotion.game_id == game_id, CvMotion.status == "offering"))
    return found.scalar_one_or_none()
