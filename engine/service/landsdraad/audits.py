"""The ledger of Transfer and Transfer Funds actions, audit quotes and audits (R0-50..R0-53, P0-10, P0-17).

Players DM ``Transfer: 500 MS to Bob``; moderators record or correct entries. The ledger never changes or
deletes an entry: a correction is a new entry that points at the one it corrects (``corrects_id``), and the
*effective* ledger, which an audit publishes, shows the latest correction of each entry in its place."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.core.errors import RuleError
from engine.core.text import MAX_DIGITS, whole_number
from engine.landsdraad.audit import AuditQuote, audit_quote
from engine.landsdraad.settings import SETTINGS
from engine.landsdraad.transfers import TransferCommand
from engine.service.clock import utc
from engine.service.landsdraad.transfer_moves import HoldingMatch, applied_entries, match_holding
from engine.service.ledger import game_view, load_game, require_player, require_running
from engine.service.names import find_player_by_name
from engine.service.owed import OwedWith, owe_in
from engine.service.settings import value_of
from engine.service.uow import Duplicate, ServiceBase, UnitOfWork
from engine.service.views import GameView
from engine.store.models import Game, Player
from engine.store.models.landsdraad import AuditRow, TransferRow

CANCELLED = "cancelled"
MAX_ITEM = 200
_FUNDS = re.compile(r"^(?P<n>[\d,]+)\s*(?:ms|solaris|solari)?$", re.IGNORECASE)


@dataclass(frozen=True)
class TransferView:
    """One entry of the ledger, as recorded (never changed afterwards)."""

    id: int
    game: GameView
    round: int
    sender: str
    recipient: str
    kind: str
    """``funds`` (Transfer Funds, ``amount`` MS), ``item`` (anything else), or ``cancelled`` (a correction that
    says the entry it corrects never happened)."""
    amount: int | None
    item: str | None
    at: datetime
    corrects: int | None = None
    note: str | None = None
    corrected_by: int | None = None
    """In a listing: the later entry that corrects this one (so this one no longer counts)."""
    duplicate: bool = False
    """The same message arrived twice: this is the entry it made the first time."""
    from_user: int | None = None
    to_user: int | None = None
    holding: HoldingMatch | None = None
    """The Elector or planet the item names, as the ledger has it now (``transfer_moves.match_holding``)."""
    applied: bool = False
    """In a listing: a moderator applied it (the holding moved in the ledger)."""

    @property
    def what(self) -> str:
        if self.kind == CANCELLED:
            return "nothing (cancelled)"
        return f"{self.amount} MS" if self.amount is not None else str(self.item)


@dataclass(frozen=True)
class TransferList:
    game: GameView
    player: str | None
    """None: every player's transfers (``/transfer list`` without ``player``)."""
    round: int | None
    entries: tuple[TransferView, ...]


@dataclass(frozen=True)
class QuoteView:
    """R0-53: what an audit would cost now; told only to whoever asked."""

    game: GameView
    target: str
    current: int
    active: int
    requested: tuple[int, ...]
    """The earlier rounds asked for (the current round is always included, at no cost)."""
    rounds: tuple[int, ...]
    """The rounds that would be published: the requested ones and the current one (R0-51)."""
    fee: int
    share: int


@dataclass(frozen=True)
class AuditLine:
    round: int
    what: str
    to: str
    at: datetime
    corrected: bool = False


@dataclass(frozen=True)
class AuditView:
    """An audit performed (R0-51, R0-52): published in the game channel."""

    game: GameView
    target: str
    round: int
    requested: tuple[int, ...]
    rounds: tuple[int, ...]
    fee: int
    share: int
    payers: tuple[str, ...]
    transfers: tuple[AuditLine, ...]
    vote_id: int | None = None

    def payload(self) -> dict[str, Any]:
        """For the event that records the audit."""
        return {"target": self.target, "round": self.round, "requested": list(self.requested),
                "rounds": list(self.rounds), "fee": self.fee, "share": self.share, "payers": list(self.payers),
                "transfers": len(self.transfers)}


def parse_what(what: str) -> tuple[str, int | None, str | None]:
    """``500 MS`` -> funds of 500; anything else is an item (``Planet Deneb``), kept as typed but for its ends
    (docs/input.md: long texts keep their newlines)."""
    what = what.strip()
    if not what:
        raise RuleError("Say what was transferred, e.g. `500 MS` or `Planet Deneb`.")
    funds = _FUNDS.match(" ".join(what.split()))
    if funds:
        amount = whole_number(funds["n"].replace(",", ""))
        if amount is None:
            raise RuleError(f"A transfer of funds is a whole number of MS of at most {MAX_DIGITS} digits.")
        if amount <= 0:
            raise RuleError("A transfer of funds is more than 0 MS.")
        return "funds", amount, None
    if len(what) > MAX_ITEM:
        raise RuleError(f"Describe what was transferred in {MAX_ITEM} characters or fewer.")
    return "item", None, what


def _root(row: TransferRow, by_id: dict[int, TransferRow]) -> int:
    seen = set()
    while row.corrects_id is not None and row.corrects_id in by_id and row.id not in seen:
        seen.add(row.id)
        row = by_id[row.corrects_id]
    return row.id


def latest_versions(rows: Iterable[TransferRow]) -> dict[int, TransferRow]:
    """Original entry id -> the latest entry of its chain of corrections (the original itself if uncorrected)."""
    ordered = sorted(rows, key=lambda r: r.id)
    by_id = {r.id: r for r in ordered}
    latest: dict[int, TransferRow] = {}
    for row in ordered:
        latest[_root(row, by_id)] = row
    return latest


def effective(rows: Iterable[TransferRow]) -> list[TransferRow]:
    """The ledger as it counts: each entry replaced by its latest correction; cancelled entries left out.
    Ordered by round, then by when the original entry was made."""
    latest = latest_versions(rows)
    kept = [(row.round_number, root, row) for root, row in latest.items() if row.kind != CANCELLED]
    return [row for _, _, row in sorted(kept, key=lambda t: (t[0], t[1]))]


async def player_names(session: AsyncSession, game_id: int) -> dict[int, str]:
    rows = await session.execute(select(Player.id, Player.name).where(Player.game_id == game_id))
    return {i: n for i, n in rows.all()}


def _view(row: TransferRow, game: Game, names: dict[int, str], *, corrected_by: int | None = None,
          duplicate: bool = False, applied: bool = False) -> TransferView:
    return TransferView(id=row.id, game=game_view(game), round=row.round_number, sender=names.get(row.from_id, "?"),
                        recipient=row.recipient, kind=row.kind, amount=row.amount, item=row.item, at=utc(row.at),
                        corrects=row.corrects_id, note=row.note, corrected_by=corrected_by, duplicate=duplicate,
                        applied=applied)


async def _offered(session: AsyncSession, row: TransferRow, view: TransferView) -> TransferView:
    """``view`` with the players' user ids and the holding its item names (what the moderators' notice needs)."""
    found = await session.execute(select(Player.id, Player.user_id).where(
        Player.id.in_([i for i in (row.from_id, row.to_id) if i is not None])))
    users = {player_id: user_id for player_id, user_id in found.all()}
    return replace(view, from_user=users.get(row.from_id), to_user=users.get(row.to_id) if row.to_id else None,
                   holding=await match_holding(session, row))


def _round_now(game: Game) -> int:
    if game.current_round < 1:
        raise RuleError(f"No round has started in {game.name} yet, so there is no round to record it in.")
    return game.current_round


async def active_players(session: AsyncSession, game_id: int) -> list[Player]:
    found = await session.execute(select(Player).where(Player.game_id == game_id, Player.active.is_(True))
                                  .order_by(Player.id))
    return list(found.scalars())


def _audit_quote(game: Game, active: int, rounds: Iterable[int]) -> AuditQuote:
    """R0-50 with the game's ``audit_share_rounding`` setting: up (P0-10, the default) or down."""
    return audit_quote(game.current_round, active, rounds, down=shares_down(game))


def shares_down(game: Game) -> bool:
    """The game's ``audit_share_rounding`` setting is ``down`` (the default rounds each share up, P0-10)."""
    return bool(value_of(game.settings, "audit_share_rounding", SETTINGS) == "down")


async def quote(session: AsyncSession, game: Game, target_name: str, rounds: Iterable[int]) -> QuoteView:
    """R0-50..R0-53: the fee and each active player's share of auditing ``target_name`` now (c = the game's
    current round, N = its active players). Once the game has ended no audit can be called, so there is nothing
    to quote: the closed line, before anything is worked out (play-test W7)."""
    require_running(game)
    if game.current_round < 1:
        raise RuleError(f"No round has started in {game.name} yet, so there is nothing to audit.")
    target = await find_player_by_name(session, game, target_name)
    active = len(await active_players(session, game.id))
    q = _audit_quote(game, active, rounds)
    return QuoteView(game=game_view(game), target=target.name, current=game.current_round, active=active,
                     requested=q.rounds[:-1], rounds=q.rounds, fee=q.fee, share=q.share)


async def perform_audit(uow: UnitOfWork, game: Game, target_id: int, rounds: tuple[int, ...],
                        vote_id: int | None) -> AuditView:
    """R0-51/R0-52: publish the target's Transfer and Transfer Funds actions in the requested rounds and the
    current one (corrections applied), and record the fee and each active player's share. Records no event:
    the caller (the enactment of an Audit vote) records one."""
    session = uow.session
    if game.current_round < 1:
        raise RuleError(f"No round has started in {game.name} yet, so there is nothing to audit.")
    target = await session.get(Player, target_id)
    if target is None or target.game_id != game.id:
        raise RuleError(f"That player is not in {game.name}.")
    payers = await active_players(session, game.id)
    q = _audit_quote(game, len(payers), rounds)
    names = await player_names(session, game.id)
    found = await session.execute(select(TransferRow).where(TransferRow.game_id == game.id,
                                                            TransferRow.from_id == target.id))
    rows = list(found.scalars())
    published = set(q.rounds)
    lines = tuple(AuditLine(r.round_number, _view(r, game, names).what, r.recipient, utc(r.at),
                            corrected=r.corrects_id is not None)
                  for r in effective(rows) if r.round_number in published)
    requested = q.rounds[:-1]
    session.add(AuditRow(game_id=game.id, round_number=game.current_round, target_id=target.id,
                         rounds={"requested": list(requested), "published": list(q.rounds),
                                 "payers": [{"user_id": p.user_id, "name": p.name, "share": q.share} for p in payers]},
                         fee=q.fee, share=q.share, vote_id=vote_id, at=uow.now))
    await session.flush()
    return AuditView(game=game_view(game), target=target.name, round=game.current_round, requested=requested,
                     rounds=q.rounds, fee=q.fee, share=q.share, payers=tuple(p.name for p in payers),
                     transfers=lines, vote_id=vote_id)


class AuditService(ServiceBase):
    async def record_transfer(self, game_id: int, *, user_id: int, command: TransferCommand, at: datetime,
                              source_id: str | None, answer: OwedWith[TransferView] | None = None) -> TransferView:
        """A player's own ``Transfer: ...`` DM, recorded in the game's current round. Answered after the commit (or
        in its transaction: ``answer``, ``owe_in``); a redelivered message is answered from the entry it made and is
        not recorded twice."""
        if command.item is not None and len(command.item) > MAX_ITEM:
            raise RuleError(f"Describe what you transferred in {MAX_ITEM} characters or fewer.")
        try:
            async with self._write(game_id, source_id) as uow:
                game = await load_game(uow.session, game_id)
                require_running(game)
                sender = await require_player(uow.session, game, user_id, "You")
                number = _round_now(game)
                recipient = await find_player_by_name(uow.session, game, command.recipient)
                if recipient.id == sender.id:
                    raise RuleError("A transfer goes to another player, not to yourself.")
                row = TransferRow(game_id=game_id, round_number=number, from_id=sender.id, to_id=recipient.id,
                                  recipient=recipient.name, kind=command.kind, amount=command.amount,
                                  item=command.item, at=at, recorded_by=user_id, source_id=source_id)
                uow.session.add(row)
                await uow.session.flush()
                await uow.record(game_id, "TransferRecorded", user_id, self._payload(row, sender, recipient),
                                 source_id)
                return await owe_in(uow, answer, await _offered(uow.session, row,
                                                                _view(row, game, {sender.id: sender.name})))
        except Duplicate as dup:
            if dup.kind != "TransferRecorded" or source_id is None:
                raise RuleError("That message was already handled; nothing was changed.") from None
            async with self._read() as session:
                game = await load_game(session, game_id)
                again = (await session.execute(select(TransferRow).where(
                    TransferRow.game_id == game_id, TransferRow.source_id == source_id))).scalar_one()
                return _view(again, game, await player_names(session, game_id), duplicate=True)

    @staticmethod
    def _payload(row: TransferRow, sender: Player, recipient: Player | None, **extra: Any) -> dict[str, Any]:
        return {"id": row.id, "round": row.round_number, "from": sender.user_id, "from_name": sender.name,
                "to": recipient.user_id if recipient else None, "to_name": row.recipient, "kind": row.kind,
                "amount": row.amount, "item": row.item, "at": utc(row.at).isoformat(), **extra}

    async def record_transfer_for(self, game_id: int, *, sender_user: int, to_user: int, what: str,
                                  round_number: int | None, note: str | None, actor: int | None,
                                  source_id: str | None = None, answer: OwedWith[TransferView] | None = None
                                  ) -> TransferView:
        """``/transfer record``: a moderator enters a transfer (one a player told them of some other way).
        ``answer``: the moderators' notice of it, owed in its transaction (``owe_in``)."""
        kind, amount, item = parse_what(what)
        note = _note(note)
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            sender = await require_player(uow.session, game, sender_user)
            recipient = await require_player(uow.session, game, to_user)
            if recipient.id == sender.id:
                raise RuleError("A transfer goes from one player to another.")
            number = _round_in_range(game, round_number)
            row = TransferRow(game_id=game_id, round_number=number, from_id=sender.id, to_id=recipient.id,
                              recipient=recipient.name, kind=kind, amount=amount, item=item, at=uow.now,
                              recorded_by=actor, note=note, source_id=source_id)
            uow.session.add(row)
            await uow.session.flush()
            await uow.record(game_id, "TransferRecorded", actor,
                             self._payload(row, sender, recipient, note=note, by_moderator=True), source_id)
            return await owe_in(uow, answer, await _offered(uow.session, row,
                                                            _view(row, game, {sender.id: sender.name})))

    async def correct_transfer(self, game_id: int, *, entry_id: int, note: str, what: str | None = None,
                               to_user: int | None = None, round_number: int | None = None, cancel: bool = False,
                               actor: int | None, source_id: str | None = None) -> TransferView:
        """``/transfer correct``: a NEW entry that replaces entry ``entry_id`` (or the latest correction of it)
        in the effective ledger. Nothing recorded before is changed. ``cancel``: the entry never happened."""
        note_text = _note(note)
        if not note_text:
            raise RuleError("A correction needs a note saying why.")
        if cancel and (what is not None or to_user is not None or round_number is not None):
            raise RuleError("A cancellation changes nothing else: leave out what, to and round.")
        if not cancel and what is None and to_user is None and round_number is None:
            raise RuleError("Say what to correct: what, to or round (or cancel:true if it never happened).")
        parsed = parse_what(what) if what is not None else None
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            found = await uow.session.execute(select(TransferRow).where(TransferRow.game_id == game_id))
            rows = list(found.scalars())
            by_id = {r.id: r for r in rows}
            if entry_id not in by_id:
                raise RuleError(f"{game.name} has no transfer #{entry_id}; /transfer list shows the numbers.")
            chain_root = _root(by_id[entry_id], by_id)
            base = latest_versions(r for r in rows if r.from_id == by_id[entry_id].from_id)[chain_root]
            sender = await uow.session.get(Player, base.from_id)
            assert sender is not None
            recipient: Player | None = None
            if to_user is not None:
                recipient = await require_player(uow.session, game, to_user)
                if recipient.id == sender.id:
                    raise RuleError("A transfer goes from one player to another.")
            elif base.to_id is not None:
                recipient = await uow.session.get(Player, base.to_id)
            kind, amount, item = (CANCELLED, None, None) if cancel else parsed or (base.kind, base.amount, base.item)
            if cancel and base.kind == CANCELLED:
                raise RuleError(f"Transfer #{entry_id} is already cancelled.")
            if kind == CANCELLED and not cancel:
                raise RuleError(f"Transfer #{entry_id} was cancelled; to restore it, give what was transferred.")
            row = TransferRow(game_id=game_id,
                              round_number=_round_in_range(game, round_number) if round_number else base.round_number,
                              from_id=sender.id, to_id=recipient.id if recipient else None,
                              recipient=recipient.name if recipient else base.recipient, kind=kind, amount=amount,
                              item=item, at=base.at, recorded_by=actor, corrects_id=base.id, note=note_text,
                              source_id=source_id)
            uow.session.add(row)
            await uow.session.flush()
            await uow.record(game_id, "TransferCorrected", actor,
                             self._payload(row, sender, recipient, corrects=base.id, note=note_text), source_id)
            return await _offered(uow.session, row, _view(row, game, {sender.id: sender.name}))

    async def transfers(self, game_id: int, *, user_id: int | None, round_number: int | None = None) -> TransferList:
        """``/transfer list``: every entry the player sent (corrections and the entries they replace included); with
        no player, every player's entries of ``round_number`` (the current round if None), in the order made."""
        async with self._read() as session:
            game = await load_game(session, game_id)
            query = select(TransferRow).where(TransferRow.game_id == game_id).order_by(TransferRow.id)
            player: Player | None = None
            if user_id is not None:
                player = await require_player(session, game, user_id)
                query = query.where(TransferRow.from_id == player.id)
            elif round_number is None:
                round_number = _round_now(game)
            rows = list((await session.execute(query)).scalars())
            names = await player_names(session, game_id)
            corrected_by = {r.corrects_id: r.id for r in rows if r.corrects_id is not None}
            applied = await applied_entries(session, game_id)
            views = tuple(_view(r, game, names, corrected_by=corrected_by.get(r.id), applied=r.id in applied)
                          for r in rows if round_number is None or r.round_number == round_number)
            return TransferList(game_view(game), player.name if player is not None else None, round_number, views)

    async def audit_quote(self, game_id: int, *, target: str, rounds: Iterable[int]) -> QuoteView:
        """R0-53: the cost of an audit, for any player who asks; nothing is recorded."""
        async with self._read() as session:
            return await quote(session, await load_game(session, game_id), target, rounds)


def _note(note: str | None) -> str | None:
    text = (note or "").strip()  # kept as typed, newlines too (docs/input.md)
    if len(text) > 200:
        raise RuleError("Keep the note to 200 characters or fewer.")
    return text or None


def _round_in_range(game: Game, number: int | None) -> int:
    current = _round_now(game)
    if number is None:
        return current
    if not 1 <= number <= current:
        raise RuleError(f"Choose a round from 1 to {current}, not {number}.")
    return number
