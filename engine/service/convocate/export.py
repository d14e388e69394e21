"""The Convocate part of the game export (docs/export.md): the board, each player's Standing Vote, the Factors,
Statutes with controller and Section, and the history of Motions and Repeals with their outcomes."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.convocate.seats import govt_range, locked_out, range_text, seat_active
from engine.convocate.votes import political_control, standing_vote, standing_votes
from engine.service.clock import utc
from engine.service.convocate.motions import motion_view
from engine.service.convocate.store import NAME, load, sections_of
from engine.service.ledger import load_game
from engine.store.models.convocate import CvMotion, CvStatute


async def export_convocate(session: AsyncSession, game_id: int) -> dict[str, Any]:
    """``convocate``: {turn, factors, political_control, players, cards, seats, statutes, motions}; nothing for a
    game of another ruleset."""
    game = await load_game(session, game_id)
    if game.ruleset != NAME:
        return {}
    loaded = await load(session, game)
    board = loaded.board
    votes = standing_votes(board)

    players = [{"name": p.name, "sovereignty": p.sovereignty, "turn_order": p.order, "directive": p.directive,
                "homeworld": p.homeworld, "pool": p.pool, "standing_vote": votes[p.name],
                "breakdown": [{"source": line.source, "votes": line.votes, "note": line.note}
                              for line in standing_vote(board, p.name).lines],
                "locked_out": locked_out(board, p)} for p in board.turn_order()]
    cards = [{"name": c.name, "kind": c.kind.value, "controller": c.controller, "owner": c.owner, "vote": c.vote,
              "pallarch": c.pallarch, "morality": c.morality, "at": c.at, "readied": c.readied, "on_map": c.on_map,
              "suppressed": c.suppressed, "bonus": c.bonus, "sovereignty": c.sovereignty} for c in board.cards]
    seats = []
    for c in board.cards:
        if c.kind.value == "seat":
            activity = seat_active(board, c)
            seats.append({"name": c.name, "controller": c.controller, "sovereignty": c.sovereignty,
                          "face": c.current_face.name, "range": range_text(govt_range(board, c)),
                          "prints_directive": c.current_face.prints_directive, "active": activity.active,
                          "why": activity.why})
    names = {p.id: n for n, p in loaded.players.items()}
    statutes = []
    for s in (await session.execute(select(CvStatute).where(CvStatute.game_id == game_id)
                                    .order_by(CvStatute.id))).scalars():
        statutes.append({"name": s.name, "controller": names.get(s.controller_id), "owner": names.get(s.owner_id),
                         "section": s.section, "status": s.status, "declared_by": s.declared_by, "seat": s.seat,
                         "cost": s.cost, "declared_at": utc(s.declared_at).isoformat(),
                         "declared_turn": s.declared_turn, "ended_turn": s.ended_turn,
                         "sections": [{"number": x.number, "one_time": x.one_time, "cost": x.cost}
                                      for x in sections_of(s.sections)]})
    motions = []
    for row in (await session.execute(select(CvMotion).where(CvMotion.game_id == game_id)
                                      .order_by(CvMotion.number))).scalars():
        m = motion_view(loaded, row)
        motions.append({"number": m.number, "kind": m.kind, "name": m.name, "mover": m.mover,
                        "convocant": m.convocant, "route": m.route, "turn": row.turn, "status": m.status,
                        "details": {k: v for k, v in m.details.items() if v not in (None, "")},
                        "offer": list(m.order),
                        "answers": [{k: v for k, v in vars(a).items() if v is not None} for a in m.answers],
                        "seconder": m.seconder, "seconded_with": m.seconder_convocant, "outcome": m.outcome,
                        "taken_back": [vars(t) for t in m.taken_back],
                        "asked_again": [vars(t) for t in m.asked_again],
                        "standing": [{k: v for k, v in vars(a).items() if v is not None} for a in m.standing],
                        "withdrawn": vars(m.withdrawn) if m.withdrawn is not None else None,
                        "moved_at": utc(row.moved_at).isoformat(),
                        "resolved_at": utc(row.resolved_at).isoformat() if row.resolved_at else None})
    return {"convocate": {
        "turn": {"number": board.turn, "active": board.active, "phase": board.phase.value if board.phase else None},
        "factors": dict(board.factors), "political_control": political_control(votes),
        "players": players, "cards": cards, "seats": seats, "statutes": statutes, "motions": motions}}
