"""The Landsdraad game's front record (``bot/actions/rulesets.py`` lists it). Its commands and forms are still in the
shared modules (``handlers``, ``politics``, ``ledgers``, ``victory``, ``deadlines``, ``admin``), so its routes are
the shared ones for now, and its games take the commands of no ruleset (``exclusive=False``)."""

from __future__ import annotations

from bot.actions.front import Front
from bot.actions.messages import ag_again, round_again

RULESET = "landsdraad"

FRONT = Front(
    RULESET,
    dm_help=(
        ("Vote: Aye", "your crisis ballot for the open round (`Aye`, `Nay` or `Abstain`; `Vote: Aye, 14` states "
                      "your count)"),
        ("Revote: Nay", "changes your ballot before the deadline"),
        ("AG Vote: Bob", "your ballot in an Adjutant General election"),
        ("Transfer: 500 MS to Bob", "a Transfer Funds action (`Transfer: Planet Deneb to Bob` for anything else)"),
        ("Audit quote: Bob rounds 1-3", "what an audit of Bob would cost now; nothing is recorded"),
        ("Elector: Count Jasek, round 3", "Chancellor Pro tempore only: how that Elector voted"),
    ),
    next_steps="Add players with /player add, then open a round with /round open.",
    recover={"round": round_again, "ag": ag_again},
    exclusive=False,
)
