"""Transfers that move what they move (issue 16): a Transfer of a holding the ledger knows (an Elector, a planet)
offers the moderators to apply it, which moves the holding from the sender to the recipient in the ledger, as an
event of its own (``TransferApplied``), and says the new votes of both and the votes in play.

The offer names the ledger entry, the holding and the two players; the press is refused when the entry has been
corrected or cancelled since, was applied already, or the sender no longer holds the holding."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.core.errors import RuleError
from engine.landsdraad.transfers import holding_named
from engine.service.clock import utc
from engine.service.landsdraad.ledger import active_votes, view_player
from engine.service.landsdraad.round_state import current_round, factions_of
from engine.service.ledger import game_view, load_game, require_running
from engine.service.uow import ServiceBase
from engine.service.views import GameView
from engine.store.models import Event, Player
from engine.store.models.landsdraad import Holding, TransferRow

APPLIED = "TransferApplied"


@dataclass(frozen=True)
class HoldingMatch:
    """The holding a transfer's item names, as the ledger has it when the transfer is recorded."""

    id: int
    kind: str
    name: str
    holder: str
    """The name of the player who holds it now."""
    held_by_sender: bool
    homeworld: bool = False

    @property
    def movable(self) -> bool:
        """Can the transfer be applied (an Apply offer): the sender holds it and it is not their Homeworld."""
        return self.held_by_sender and not self.homeworld


@dataclass(frozen=True)
class AppliedTransfer:
    """A transfer applied to the ledger: ``holding`` moved from ``sender`` to ``recipient``."""

    game: GameView
    entry: int
    round: int
    kind: str
    holding: str
    sender: str
    sender_user: int
    sender_votes: int
    recipient: str
    recipient_user: int
    recipient_votes: int
    in_play: int
    """The votes in play now (R0-17): the active players' and, in an open round, its temporary factions'."""
    round_open: bool
    at: datetime

    def payload(self) -> dict[str, Any]:
        return {"id": self.entry, "round": self.round, "holding": self.holding, "kind": self.kind,
                "from": self.sender_user, "from_name": self.sender, "from_votes": self.sender_votes,
                "to": self.recipient_user, "to_name": self.recipient, "to_votes": self.recipient_votes,
                "in_play": self.in_play}


async def match_holding(session: AsyncSession, row: TransferRow) -> HoldingMatch | None:
    """The holding the entry's item names: the sender's own first, else any holding of the game (so the moderators
    read who holds it); None for funds, a cancellation or anything the ledger does not track."""
    if row.kind != "item" or not row.item:
        return None
    found = await session.execute(select(Holding, Player.name).join(Player, Player.id == Holding.player_id)
                                  .where(Holding.game_id == row.game_id).order_by(Holding.id))
    rows = list(found.all())
    own = [(h, n) for h, n in rows if h.player_id == row.from_id]
    for pool in (own, rows):
        index = holding_named(row.item, [(h.kind, h.name) for h, _ in pool])
        if index is not None:
            holding, holder = pool[index]
            return HoldingMatch(holding.id, holding.kind, holding.name, holder, holding.player_id == row.from_id,
                                holding.homeworld)
    return None


async def applied_entries(session: AsyncSession, game_id: int) -> dict[int, Event]:
    """Entry id -> the ``TransferApplied`` event that applied it."""
    found = await session.execute(select(Event).where(Event.game_id == game_id, Event.kind == APPLIED)
                                  .order_by(Event.id))
    return {int(e.payload["id"]): e for e in found.scalars()}


class TransferMoveService(ServiceBase):
    async def apply_transfer(self, game_id: int, *, entry_id: int, expected: tuple[int, int, int] | None = None,
                             actor: int | None, source_id: str | None = None) -> AppliedTransfer:
        """Apply transfer ``entry_id``: move the holding it names from its sender to its recipient. ``expected``
        (holding id, sender's user id, recipient's user id) is what the Apply offer was made for; a press is
        refused if the ledger no longer says so. One event, ``TransferApplied``; nothing else changes."""
        async with self._write(game_id, source_id) as uow:
            session = uow.session
            game = await load_game(session, game_id)
            require_running(game)
            rows = {r.id: r for r in (await session.execute(
                select(TransferRow).where(TransferRow.game_id == game_id))).scalars()}
            row = rows.get(entry_id)
            if row is None:
                raise RuleError(f"{game.name} has no transfer #{entry_id}; /transfer list shows the numbers.")
            later = sorted(r.id for r in rows.values() if r.corrects_id == entry_id)
            if later:
                raise RuleError(f"Transfer #{entry_id} was corrected by #{later[-1]}; apply the correction instead "
                                f"(its own message, or /transfer apply id:{later[-1]}). Nothing was moved.")
            done = (await applied_entries(session, game_id)).get(entry_id)
            if done is not None:
                raise RuleError(f"Transfer #{entry_id} was already applied on {utc(done.at):%Y-%m-%d %H:%M} UTC: "
                                f"{done.payload.get('holding')} went to {done.payload.get('to_name')}. "
                                "It is not moved twice.")
            if row.kind != "item" or row.to_id is None:
                raise RuleError(f"Transfer #{entry_id} moves nothing the ledger holds ({_what(row)}); it is only "
                                "recorded.")
            match = await match_holding(session, row)
            sender = await session.get(Player, row.from_id)
            recipient = await session.get(Player, row.to_id)
            assert sender is not None
            if recipient is None or recipient.game_id != game_id:
                raise RuleError(f"The recipient of transfer #{entry_id} is no longer a player of {game.name}.")
            if expected is not None:
                holding_id, from_user, to_user = expected
                if (from_user, to_user) != (sender.user_id, recipient.user_id):
                    raise RuleError("This button does not match the transfer it was offered for; nothing was moved.")
                if match is None or match.id != holding_id:
                    holding = await session.get(Holding, holding_id)
                    if holding is None or holding.game_id != game_id:
                        raise RuleError(f"The holding of transfer #{entry_id} is no longer in the ledger of "
                                        f"{game.name}; nothing was moved.")
                    match = HoldingMatch(holding.id, holding.kind, holding.name, "", holding.player_id == sender.id,
                                         holding.homeworld)
            if match is None:
                raise RuleError(f"Transfer #{entry_id} ({_what(row)}) names no Elector or planet of the ledger; it is "
                                "only recorded.")
            holding = await session.get(Holding, match.id)
            assert holding is not None
            if holding.player_id != sender.id:
                holder = await session.get(Player, holding.player_id)
                who = f"{holder.name} holds it" if holder is not None else "someone else holds it"
                raise RuleError(f"{sender.name} no longer holds {holding.name} ({who} now); nothing was moved.")
            if holding.homeworld:
                raise RuleError(f"{holding.name} is {sender.name}'s Homeworld; a transfer does not move a Homeworld "
                                "(if it really changes hands, /holding remove and /holding add). Nothing was moved.")
            holding.player_id = recipient.id
            await session.flush()
            sender_view = await view_player(session, sender)
            recipient_view = await view_player(session, recipient)
            rnd = await current_round(session, game)
            round_open = rnd is not None and rnd.status == "open"
            in_play = await session.run_sync(active_votes, game_id)
            if rnd is not None and round_open:
                in_play += sum(f.votes for f in await factions_of(session, rnd.id))
            applied = AppliedTransfer(
                game=game_view(game), entry=row.id, round=row.round_number, kind=holding.kind, holding=holding.name,
                sender=sender.name, sender_user=sender.user_id, sender_votes=sender_view.votes,
                recipient=recipient.name, recipient_user=recipient.user_id, recipient_votes=recipient_view.votes,
                in_play=in_play, round_open=round_open, at=uow.now)
            await uow.record(game_id, APPLIED, actor, applied.payload(), source_id)
            return applied


def _what(row: TransferRow) -> str:
    if row.kind == "cancelled":
        return "cancelled"
    return f"{row.amount} MS" if row.amount is not None else str(row.item)
