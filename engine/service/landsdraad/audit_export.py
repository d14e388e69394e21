"""The export's ``transfers`` (every ledger entry, corrections too, as recorded) and ``audits`` (each audit and what
it published): a section of the Landsdraad game export (docs/export.md)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.service.clock import utc
from engine.service.landsdraad.audits import CANCELLED, player_names
from engine.store.models.landsdraad import AuditRow, TransferRow


def transfer_doc(row: TransferRow, names: dict[int, str]) -> dict[str, Any]:
    what = "nothing (cancelled)" if row.kind == CANCELLED else (
        f"{row.amount} MS" if row.amount is not None else row.item)
    return {"id": row.id, "round": row.round_number, "from": names.get(row.from_id), "to": row.recipient,
            "what": what, "kind": row.kind, "amount": row.amount, "at": utc(row.at).isoformat(),
            "corrects": row.corrects_id, "note": row.note}


async def export_transfers(session: AsyncSession, game_id: int) -> dict[str, Any]:
    names = await player_names(session, game_id)
    rows: Sequence[TransferRow] = (await session.execute(
        select(TransferRow).where(TransferRow.game_id == game_id).order_by(TransferRow.id))).scalars().all()
    audits = (await session.execute(select(AuditRow).where(AuditRow.game_id == game_id).order_by(AuditRow.id))
              ).scalars().all()
    return {
        "transfers": [transfer_doc(r, names) for r in rows],
        "audits": [{"target": names.get(a.target_id), "rounds": list(a.rounds.get("published", [])),
                    "requested": list(a.rounds.get("requested", [])), "fee": a.fee, "share": a.share,
                    "round": a.round_number, "vote": a.vote_id, "at": utc(a.at).isoformat()} for a in audits],
    }
