"""A Motion of Repeal before it is moved, for the moderators (``/motion preview``): the board read in one read-only
transaction and the pure count of ``engine/convocate/repeal_preview.py``; nothing is written or recorded."""

from __future__ import annotations

from dataclasses import dataclass

from engine.convocate.repeal_preview import RepealPreview, preview_repeal
from engine.core.errors import NotFoundError
from engine.service.convocate.store import load
from engine.service.ledger import game_view, load_game
from engine.service.uow import ServiceBase
from engine.service.views import GameView


@dataclass(frozen=True)
class RepealPreviewView:
    game: GameView
    preview: RepealPreview


class ConvocatePreviewService(ServiceBase):
    """``clerk.convocate.previews``: reads only."""

    async def repeal(self, game_id: int, *, mover_user: int, statute: str, convocant: str) -> RepealPreviewView:
        """What a Motion of Repeal by the player ``mover_user`` against ``statute``, moved with ``convocant``, would
        count and do if it were moved now."""
        async with self._read() as session:
            loaded = await load(session, await load_game(session, game_id))
            mover = next((name for name, p in loaded.players.items() if p.user_id == mover_user), None)
            if mover is None:
                raise NotFoundError(f"That player is not seated at the table of {loaded.game.name}; /board shows "
                                    "who is.")
            return RepealPreviewView(game_view(loaded.game), preview_repeal(loaded.board, mover, statute, convocant))
