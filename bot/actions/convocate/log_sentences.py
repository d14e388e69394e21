"""The Convocate's events as /log sentences (``Front.log_sentences``; the other kinds get the generic sentence)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.actions.log_text import Sentence, Words
from engine.service.convocate.views import what_was_taken


def _phase(where: Any, turn: Any) -> str:
    """``[player, phase]`` of a payload as ``bob's Ready Phase of turn 2``."""
    player, phase = where if isinstance(where, list) and len(where) == 2 else ("?", "?")
    return f"{player}'s {str(phase).capitalize()} Phase of turn {turn}"


def _stepped_back(p: Mapping[str, Any], w: Words) -> str:
    back = [f"pools {w.pairs(p['pools'])}" if p.get("pools") else "",
            f"activated again {w.value(p['activated'])}" if p.get("activated") else "",
            f"effects back {w.value(p['effects'])}" if p.get("effects") else "",
            f"reason {p['reason']}" if p.get("reason") else ""]
    return (f"took back #{p.get('undoes')}: {_phase(p.get('from'), p.get('from_turn'))} → "
            f"{_phase(p.get('to'), p.get('turn'))}" + "".join(f"; {b}" for b in back if b))


SENTENCES: dict[str, Sentence] = {
    "FactorSet": lambda p, w: f"{p.get('factor')} set {w.change(p.get('from'), p.get('to'))}",
    "FactorPushed": lambda p, w: (f"{p.get('player')} pushed {p.get('factor')} {w.change(p.get('from'), p.get('to'))}"
                                  f" for {w.value(p.get('costs'))} committed Votes; pool now {p.get('pool')}"),
    "VotesCommitted": lambda p, w: (f"{p.get('player')} committed "
                                    + ", ".join(f"{c} ({v})" for c, v in p.get("cards") or [])
                                    + f"; pool now {p.get('pool')}"),
    "MotionMoved": lambda p, w: (f"{p.get('mover')} moved Motion #{p.get('motion')} ({p.get('name')}) with "
                                 f"{p.get('convocant')}; offered to {p.get('offer_to')}"),
    "MotionSeconded": lambda p, w: (f"{p.get('player')} seconded Motion #{p.get('motion')} with "
                                    f"{p.get('convocant')}"),
    "MotionWithdrawn": lambda p, w: (f"the moderators withdrew Motion #{p.get('motion')} ({p.get('name')}), moved by "
                                     f"{p.get('mover')}" + (f": {p['reason']}" if p.get("reason") else "")),
    "MotionReopened": lambda p, w: (f"the moderators took back {p.get('seconder')}'s second of Motion "
                                    f"#{p.get('motion')}" + (f": {p['reason']}" if p.get("reason") else "")
                                    + (f"; offered to {p['offer_to']}" if p.get("offer_to") else
                                       "; it resolved again")),
    "SecondAskedAgain": lambda p, w: ("the moderators took back "
                                      + what_was_taken(str(p.get("player")), str(p.get("answer")))
                                      + f" to the offer to second Motion #{p.get('motion')}"
                                      + (f": {p['reason']}" if p.get("reason") else "")
                                      + ("; reopened" if p.get("undone") else "")
                                      + (f"; offered to {p['offer_to']}" if p.get("offer_to") else "")),
    "SecondDeclined": lambda p, w: (f"{p.get('player')} declined to second Motion #{p.get('motion')}"
                                    + (f"; offered to {p['offer_to']}" if p.get("offer_to") else "")),
    "PhaseSteppedBack": _stepped_back,
}
