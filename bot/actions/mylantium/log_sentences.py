"""Mylantium's events as /log sentences (``Front.log_sentences``; the other kinds get the generic sentence)."""

from __future__ import annotations

from bot.actions.log_text import Sentence
from engine.core.words import plural

SENTENCES: dict[str, Sentence] = {
    "ChoiceMade": lambda p, w: (f"{p.get('faction')} chose {p.get('choice')} in the {p.get('stage')} of turn "
                                f"{p.get('turn')}" + (f" (was {p['replaced']})" if p.get("replaced") else "")),
    "FactionRealigned": lambda p, w: (f"{p.get('faction')} realigned {p.get('from')} → {p.get('to')} in turn "
                                      f"{p.get('turn')}" + (f"; candidate {p['candidate_discarded']} discarded"
                                                            if p.get("candidate_discarded") else "")),
    "ContributionPledged": lambda p, w: (f"{p.get('faction')} pledged ${w.number(p.get('to_crt') or 0)} to the "
                                         f"Counter-Revolutionary Treasury and ${w.number(p.get('to_vanguard') or 0)} "
                                         f"to the Vanguard (attempt {p.get('attempt')})"),
    "ElectionReopened": lambda p, w: (f"the {p.get('stage')} of turn {p.get('turn')} reopened"
                                      + (f" ({p['reason']})" if p.get("reason") else "")
                                      + f"; the result of #{p.get('withdrawn')} withdrawn"
                                      + (f", the Presidency back to {p['president'][1]}" if p.get("president") else "")
                                      + f"; deadline {w.value(p.get('deadline'))}"),
    "ElectionRoundCancelled": lambda p, w: (f"turn {p.get('turn')}'s Election Round (#{p.get('started')}) called off"
                                            + (f" ({p['reason']})" if p.get("reason") else "")
                                            + f"; the game is in turn {p.get('turn_now')}"
                                            + (f"; {plural(int(p['relabelled']), 'change')} counted in it again"
                                               if p.get("relabelled") else "")),
    "HappeningRecorded": lambda p, w: (f"turn {p.get('turn')}: {p.get('what')}"
                                       + (f" ×{p['amount']}" if (p.get("amount") or 1) != 1 else "")
                                       + (f" ({p['note']})" if p.get("note") else "")),
}
