"""``/player remove`` at the Convocate table (issue 16; docs/rulings.md, "A player removed from the Convocate").

The rules do not say what happens when a player leaves. Clerk does what a card game's moderator would (the same as
"when a player leaves a multiplayer game, the cards they own leave with them"): their seat leaves the table (the
turn order closes up); the cards they own leave the board (the owner is "the player whose deck it came from");
a card they control that another player owns goes back to its owner; a Character standing on a card that left
stands nowhere. So their cards' Votes leave the standing vote, and political control (R4-05) is read again
from what is left. A Statute they own leaves with them; one they control that another owns goes to its owner.
If it is their turn, it ends as at the end of their Admin Phase and the next player's turn begins (R4-06, R4-07).
An offer to second the open Motion that is with them passes on; they are taken out of the rest of its order.
While a Motion they moved is on the floor the removal is refused (it resolves on their Moved text; the moderator
passes the offer on with /motion skip until it has). The players row and seat stay, marked removed, for the
history; ``/convocate player`` seats them again. One ``PlayerRemoved`` event."""

from __future__ import annotations

from dataclasses import dataclass, replace

from sqlalchemy import select

from engine.convocate.board import Phase
from engine.convocate.turns import next_phase
from engine.convocate.votes import political_control, standing_votes
from engine.core.errors import RuleError
from engine.service.convocate.motions import advance, motion_view
from engine.service.convocate.store import load, open_motion, save
from engine.service.convocate.views import MotionView
from engine.service.ledger import game_view, load_game, require_player, require_running
from engine.service.membership import games_cache
from engine.service.uow import ServiceBase
from engine.service.views import GameView
from engine.store.models import Event, Player

REMOVED = "PlayerRemoved"


@dataclass(frozen=True)
class CvRemoval:
    game: GameView
    user_id: int
    name: str
    left: tuple[str, ...]
    """Cards they owned, which left the board."""
    returned: tuple[tuple[str, str], ...]
    """(card, owner): cards they controlled that went back to their owners."""
    statutes_ended: tuple[str, ...]
    statutes_returned: tuple[tuple[str, str], ...]
    standing: tuple[tuple[str, int], ...]
    """Each seated player's Standing Vote now, in turn order."""
    control: str | None
    """Who has political control now (R4-05); None on a tie."""
    turn_to: str | None
    """Whose turn began because it was theirs."""
    offer: tuple[int, str | None] | None
    """(Motion number, who the offer to second is with now) when they were in an open Motion's order."""
    motion: MotionView | None = None
    """That Motion as it stands now, when the offer was with them and moved on (resolved, if nobody was left)."""


class RemovalService(ServiceBase):
    async def remove_player(self, game_id: int, *, user_id: int, actor: int | None,
                            source_id: str | None = None) -> CvRemoval:
        async with self._write(game_id, source_id) as uow:
            session = uow.session
            game = await load_game(session, game_id)
            require_running(game)
            loaded = await load(session, game)
            player = await require_player(session, game, user_id)
            if player.removed:
                raise RuleError(f"{player.name} was already removed from {game.name}; nothing changed.")
            name = player.name
            motion = await open_motion(session, game_id)
            if motion is not None and motion.mover_id == player.id:
                raise RuleError(f"Motion #{motion.number} ({motion.name}), moved by {name}, is being offered for a "
                                "second; it resolves on its Moved text. Pass the offer on (/motion skip) until it "
                                "has resolved, then remove them. Nothing changed.")
            board = loaded.board
            turn_to = None
            if board.active == name:
                if len(board.players) > 1:
                    board, changed = next_phase(replace(board, phase=Phase.ADMIN))
                    turn_to = changed.started[0]
                else:
                    board = replace(board, active=None, phase=None)
            left = [c.name for c in board.cards if c.owner == name or (c.owner is None and c.controller == name)]
            gone = {n.lower() for n in left}
            returned: list[tuple[str, str]] = []
            cards = []
            for card in board.cards:
                if card.name in left:
                    continue
                owner = card.owner
                if card.controller == name and owner is not None:
                    card = replace(card, controller=owner)
                    returned.append((card.name, owner))
                if card.at is not None and card.at.lower() in gone:
                    card = replace(card, at=None)
                cards.append(card)
            statutes_ended = [s.name for s in board.statutes if s.owner == name]
            statutes_returned: list[tuple[str, str]] = [(s.name, s.owner) for s in board.statutes
                                                        if s.controller == name and s.owner != name]
            statutes = tuple(replace(s, controller=s.owner) if s.controller == name else s
                             for s in board.statutes if s.owner != name)
            board = replace(board, players=tuple(p for p in board.players if p.name != name), cards=tuple(cards),
                            statutes=statutes)
            loaded = save(session, loaded, board)
            for card_name in left:
                await session.delete(loaded.cards.pop(card_name))
            for statute_name in statutes_ended:
                row = loaded.statutes[statute_name]
                row.status, row.ended_at, row.ended_turn = "left the game", uow.now, board.turn
            for statute_name, owner in statutes_returned:
                loaded.statutes[statute_name].controller_id = loaded.players[owner].id
            player.removed, player.active = True, False
            del loaded.players[name]
            del loaded.seats[name]
            offer = None
            shown = None
            if motion is not None:
                order = list(motion.offer.get("order", []))
                index = int(motion.offer.get("index", 0))
                if name in order[index:]:
                    answers = list(motion.offer.get("answers", []))
                    if motion.offer_to == player.id:
                        answers.append({"player": name, "answer": "removed", "why": "removed from the game"})
                    kept = [a for a in motion.offer.get("standing", []) if a["player"] != name]
                    motion.offer = {**{k: v for k, v in motion.offer.items() if k != "standing"}, "answers": answers,
                                    "order": order[:index] + [n for n in order[index:] if n != name],
                                    **({"standing": kept} if kept else {})}
                    if motion.offer_to == player.id:
                        advance(loaded, motion, board, uow.now)
                        shown = motion_view(loaded, motion)
                    offer = (motion.number, loaded.name_of(motion.offer_to))
            await session.flush()
            votes = standing_votes(board)
            standing = tuple((p.name, votes[p.name]) for p in board.turn_order())
            control = political_control(votes)
            removal = CvRemoval(game_view(game), user_id, name, tuple(left), tuple(returned), tuple(statutes_ended),
                                tuple(statutes_returned), standing, control, turn_to, offer, shown)
            await uow.record(game_id, REMOVED, actor,
                             {"user_id": user_id, "name": name, "cards_left": left,
                              "cards_returned": [list(r) for r in returned], "statutes_ended": statutes_ended,
                              "statutes_returned": [list(r) for r in statutes_returned],
                              "standing": dict(standing), "control": control, "turn_to": turn_to,
                              "offer": list(offer) if offer is not None else None}, source_id)
        games_cache(self).forget([user_id])
        return removal

    async def left_with(self, game_id: int, user_id: int) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]] | None:
        """For a player removed from the game and not seated again: the cards they owned that left the board and
        the (card, owner) pairs they controlled that went back to their owners, as their removal recorded them;
        None for anyone else. ``/convocate player`` seats them again without those (play-test U2.1), and says so."""
        async with self._read() as session:
            game = await load_game(session, game_id)
            found = await session.execute(select(Player).where(Player.game_id == game.id, Player.user_id == user_id))
            player = found.scalar_one_or_none()
            if player is None or not player.removed:
                return None
            last = (await session.execute(select(Event).where(Event.game_id == game_id, Event.kind == REMOVED)
                                          .order_by(Event.seq.desc()))).scalars()
            payload = next((e.payload for e in last if e.payload.get("user_id") == user_id), None)
            if payload is None:
                return (), ()
            return (tuple(payload.get("cards_left") or ()),
                    tuple((str(c), str(o)) for c, o in payload.get("cards_returned") or ()))
