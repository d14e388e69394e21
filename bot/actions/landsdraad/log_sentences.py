"""Landsdraad's events as /log sentences (``Front.log_sentences``; the other kinds get the generic sentence)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.actions.log_text import Sentence, Words

MS = {"income": "MS", "wealth": "MS", "fee": "MS", "amount": "MS"}
"""Measures counted in MS (Landsdraad's money)."""


def _rest(p: Mapping[str, Any], w: Words, *skip: str) -> str:
    rest = w.pairs({k: v for k, v in p.items() if k not in skip})
    return f"; {rest}" if rest else ""


def ballot(p: Mapping[str, Any], w: Words) -> str:
    replaced = f" (was {p['replaced']})" if p.get("replaced") else ""
    declared = f", declared {w.number(p['declared'])} votes" if p.get("declared") is not None else ""
    return f"{w.who(p.get('user_id'))} voted {p.get('option')} in round {p.get('round')}{declared}{replaced}"


def transfer(p: Mapping[str, Any], w: Words) -> str:
    what = (f"{w.number(p['amount'])} MS" if p.get("kind") == "funds" and p.get("amount") is not None
            else p.get("item") or p.get("holding") or p.get("kind"))
    sender = p.get("from_name") or w.who(p.get("from"))
    recipient = p.get("to_name") or w.who(p.get("to"))
    note = f" (corrects #{p['corrects']}: {p.get('note')})" if p.get("corrects") else ""
    return f"{sender} → {recipient}: {what}, round {p.get('round')}{note}"


def measures(p: Mapping[str, Any], w: Words) -> str:
    who = p.get("name") or (w.who(p["user_id"]) if "user_id" in p else "")
    return (f"{who}: " if who else "") + w.changes(p.get("changes") or {}, MS) + _rest(
        p, w, "user_id", "name", "changes")


def erratum(p: Mapping[str, Any], w: Words) -> str:
    def totals(t: Mapping[str, Any]) -> str:
        return f"Aye {t.get('aye')}, Nay {t.get('nay')}, Abstain {t.get('abstain')} ({t.get('outcome')})"
    if p.get("election") is not None:
        return (f"erratum for AG election #{p['election']}: "
                + ", ".join(f"{c} {n}" for c, n in p.get("corrected") or ())
                + ("; the winner changes" if p.get("winner_changed") else ""))
    return (f"erratum for round {p.get('round')}: {totals(p.get('corrected') or {})}, posted "
            f"{totals(p.get('posted') or {})}" + ("; the outcome changes" if p.get("outcome_changed") else "")
            + ("; it withdraws the erratum before it" if p.get("restores") else
               "; it replaces the erratum before it" if p.get("stated") else ""))


SENTENCES: dict[str, Sentence] = {
    "ErratumPosted": erratum,
    "BallotCast": ballot,
    "TransferRecorded": transfer,
    "TransferCorrected": transfer,
    "TransferApplied": transfer,
    "EconomySet": measures,
    "ForcesSet": measures,
    "AssetsSet": measures,
    "LuxuriesInPlaySet": measures,
    "AgBallotCast": lambda p, w: (f"ballot for {p.get('candidate')} in AG election #{p.get('election')}"
                                  + (f" (was {p['changed_from']})" if p.get("changed_from") else "")),
    "AgElectionClosed": lambda p, w: (f"AG election #{p.get('number')} closed: "
                                      + (f"{p['winner']} elected" if p.get("winner") else "nobody elected")),
    "RoundOpened": lambda p, w: (f"round {p.get('round')} opened: {p.get('crisis')}, deadline "
                                 f"{w.value(p.get('deadline'))}"),
    "PlayerVoteEnacted": lambda p, w: (f"player vote #{p.get('vote')} ({p.get('subject')}"
                                       + (f", {p['target']}" if p.get("target") else "") + ") enacted"
                                       + (f", fee {w.number(p['fee'])} MS" if p.get("fee") is not None else "")),
}
