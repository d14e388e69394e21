"""A Mylantium election result the disclosure check found giving a Faction's choice away (docs/rulings.md): the
moderators' warning, the coarsened card (nominees or the winner and the margin's band, no totals) and the held card
(only that the election closed)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.actions.mylantium.render import GOLD, close_notes
from bot.actions.outbox import Card
from bot.actions.render import NEUTRAL
from engine.core.disclosure import margin_band
from engine.mylantium.model import FactionCode, Party
from engine.service.mylantium.views import MylElectionView


def _choice(e: MylElectionView, choice: str) -> str:
    return Party(choice).title if e.stage == "general" else choice


def _either(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def exposure_warning(e: MylElectionView) -> str:
    """For the moderators only: whose choice the posted Faction Votes give away, whole or in part, and what was done
    with the result."""
    d: Mapping[str, Any] = (e.result or {})["disclosure"]
    where = f"the Faction Votes in the result of the {e.title} of turn {e.turn} of {e.game.name}"
    lines: list[str] = []
    if d["exposed"]:
        who = ", ".join(f"the {FactionCode[code].plural} ({_choice(e, choice)})" for code, choice in d["exposed"])
        lines.append(f"**Moderators:** {where} give away what these Factions chose: {who}. With each Faction's votes "
                     "public and who chose known, no other combination of choices gives these totals.")
    ruled_out = d.get("ruled_out") or []
    if ruled_out:
        head = ("They also give away part of these choices" if d["exposed"] else
                f"**Moderators:** {where} give away part of these choices")
        parts = "; ".join(f"the {FactionCode[code].plural} ({votes} Faction Votes): the totals show they did not "
                          f"choose {_either([_choice(e, c) for c in out])}" for code, votes, out in ruled_out)
        lines.append(f"{head}: {parts}.")
    if d.get("partial"):
        lines.append("The election is too big for the full check; only a quick one ran, which may miss others.")
    if not d["exposed"]:
        lines.append("A choice given away only in part does not coarsen or hold a result: it was posted in full "
                     "(docs/rulings.md).")
    elif d["mode"] == "coarsen":
        lines.append("The result was posted with the winners and the margin's band, without the totals (setting "
                     "`disclosure: coarsen`).")
    elif d["mode"] == "hold":
        lines.append(f"The result is held: the game channel was told only that the election closed. `/election "
                     f"release stage:{e.stage}` posts it in full (setting `disclosure: hold`).")
    else:
        lines.append("The result was posted in full (setting `disclosure: post`); `/game settings` can set "
                     "`disclosure` to coarsen or hold for later elections.")
    return "\n".join(lines)


def held_card(e: MylElectionView) -> Card:
    return Card(f"{e.game.name}: the {e.title} of turn {e.turn} is closed", "The moderators will post the result."
                + close_notes(e.result or {}),
                (), NEUTRAL)


def _band(totals: list[int]) -> str:
    ranked = sorted(totals, reverse=True)
    lead = ranked[0] - ranked[1] if len(ranked) > 1 else ranked[0] if ranked else 0
    return margin_band(lead, sum(ranked))


def coarse_card(e: MylElectionView) -> Card:
    """The outcome without the totals: each party's nominee (Primary) or the winning party (General Election), with
    how wide the lead over the next was (its share of all the votes, in bands)."""
    r: Mapping[str, Any] = e.result or {}
    footer = "Choices are secret; the totals are not published, since they would give one away."
    if e.stage == "primary":
        fields: list[tuple[str, str, bool]] = []
        for party in Party:
            totals = [int(line["total"]) for line in r.get("lines", []) if line["party"] == party.value]
            nominee = r.get("nominees", {}).get(party.value)
            tie = r.get("ties", {}).get(party.value)
            text = (f"Tied: {', '.join(tie)}. The moderators name the nominee (/election nominee)." if tie else
                    f"Nominee: **{nominee}**; margin {_band(totals)}" if nominee else "no candidates")
            fields.append((f"{party.title} Primary", text, False))
        return Card(f"{e.game.name}: the Primary of turn {e.turn}", close_notes(e.result or {}).lstrip(), tuple(fields),
                    GOLD, footer=footer)
    winner = Party(r["winner"])
    totals = [int(line.get("total", 0)) for line in r.get("lines", {}).values()]
    outcome = f"The **{winner.title}s** win" + (" the tie, which keeps the incumbent party in power." if r.get("tie")
                                                 else f"; margin {_band(totals)}.")
    if r.get("president"):
        outcome += (f" The Presidency goes to their nominee, {r['nominees'][winner.value]} (the "
                    f"{FactionCode[r['president']].plural}).")
    return Card(f"{e.game.name}: the General Election of turn {e.turn}", outcome + close_notes(e.result or {}), (),
                GOLD, footer=footer)
