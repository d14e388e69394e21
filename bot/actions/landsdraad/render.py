"""The Landsdraad round in what players read: the round's cards (opened, status, result), the receipt of a crisis
ballot, a player's own votes, how a reminder reads (``REMINDERS``). Secrets never enter a public card."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from bot.actions.front import ReminderText
from bot.actions.landsdraad.charts import needed_text
from bot.actions.outbox import Card
from bot.actions.render import FAILED, NEUTRAL, PASSED, deadline_line, deadline_text
from bot.actions.verify import commitment_text, reveal_text
from engine.core.disclosure import margin_band
from engine.core.durations import format_remaining
from engine.core.stamps import stamp
from engine.service.dice import SealView
from engine.service.landsdraad.views import BallotReceipt, FactionView, PlayerView, ResultView, RoundView, StatusView
from engine.service.reminders import Reminder
from engine.service.views import GameView

OFFLINE_DMS = ("The ballots DMed to the bot while it was offline were read when it started again: those sent before "
               "the deadline are counted.")
"""Said under a result closed late: Discord does not send the bot the DMs of a time it was offline; it reads them
back from each player's DM channel at start, before it closes the round (bot/discord/catch_up.py, play-test R3.2),
so the players and the moderators know that a ballot sent in time while it was down counts."""


def label(option: str | None) -> str:
    return (option or "abstain").capitalize()


def paused_text(left: timedelta) -> str:
    return f"paused by the moderators with {format_remaining(left)} left; ballots are still accepted"


def round_timing_text(view: RoundView, now: datetime) -> str:
    """What /round extend, pause and resume announce."""
    if view.paused_left is not None:
        return f"Round {view.number} of {view.game.name} is {paused_text(view.paused_left)}."
    return f"Round {view.number} of {view.game.name} now closes at {deadline_text(view.deadline, now)}."


def _ag_reminded(reminder: Reminder) -> str:
    what = f"The Adjutant General election {reminder.number} of {reminder.game.name}"
    if reminder.with_round is not None:
        what += f" (it closes with round {reminder.with_round})"
    return what


REMINDERS = {
    "round": ReminderText(lambda r: f"Round {r.number} of {r.game.name}", "DM me `Vote: Aye|Nay|Abstain`", "round",
                          brief=True),
    "ag": ReminderText(_ag_reminded, "DM me `AG Vote: <Name>`", "AG election"),
}
"""How a reminder of a crisis round and of an AG election reads (``Front.reminders``)."""


def faction_line(f: FactionView, *, result: bool) -> str:
    if result and f.vote is not None:
        rolled = f" (rolled {f.roll} on {f.table})" if f.roll is not None else ""
        return f"**{f.name}**: {f.votes} votes, {label(f.vote)}{rolled}"
    if f.stance == "d6" and f.sealed is not None:  # the moderator's own face: its seal, not the face (docs/dice.md)
        return f"**{f.name}**: {f.votes} votes, by a d6 the moderator rolled, sealed `{f.sealed}`: {f.table}"
    if f.stance == "d6" and f.preset:  # a copy (console --from) keeps the face but not its seal (play-test I4.8)
        return f"**{f.name}**: {f.votes} votes, by a d6 the moderator rolled (kept in this copy): {f.table}"
    if f.stance == "d6":
        return f"**{f.name}**: {f.votes} votes, by a d6 rolled at the close: {f.table}"
    return f"**{f.name}**: {f.votes} votes, {label(f.stance)}"


def receipt_text(r: BallotReceipt, now: datetime) -> str:
    if r.duplicate:
        head = (f"This message reached me twice; it was counted once, when it first came (it recorded "
                f"**{label(r.option)}**). Nothing was changed.")
        if r.current is not None and r.current != r.option:
            head += f" Your ballot now is **{label(r.current)}**, from a later message."
    elif r.replaced is not None and r.replaced == r.option:
        head = (f"Your ballot for round {r.round_number} of {r.game.name} stays **{label(r.option)}** "
                "(the same choice again; it counts once)")
    elif r.replaced is not None:
        head = (f"Revote recorded for round {r.round_number} of {r.game.name}: **{label(r.option)}** "
                f"(was {label(r.replaced)})")
    else:
        head = f"Ballot recorded for round {r.round_number} of {r.game.name}: **{label(r.option)}**"
    lines = [head, f"Your ballot carries your {r.votes} votes from the ledger, counted as they stand at the close."]
    if r.declared is not None and r.declared != r.votes:
        lines.append(f"You wrote {r.declared}, but the ledger gives you {r.votes}; the ledger's number is what counts.")
    if r.paused_left is not None:
        lines.append(f"Deadline: paused by the moderators; {format_remaining(r.paused_left)} will be left when it "
                     "resumes. You can change your ballot with `Revote: Aye|Nay|Abstain` until the deadline.")
    else:
        lines.append(deadline_line(r.deadline, now, "You can change it with `Revote: Aye|Nay|Abstain` until then."))
    return "\n".join(lines)


def void_text(view: RoundView) -> str:
    """Why a void round has no result: the moderators voided it (``/round void``, play-test Y6, Y7) or the game ended
    while it was open (play-test W4)."""
    if view.void_was is None:
        return ("none: the game ended before this round's crisis was resolved, so it is void and its ballots count "
                "for nothing")
    why = f" ({view.void_reason})" if view.void_reason else ""
    posted = ", its posted result withdrawn" if view.void_was == "closed" else ""
    return (f"none: the moderators voided this round{why}{posted}; nothing in it counts, its ballots included. Its "
            "crisis is put to the vote again as a new round.")


def round_opened_card(view: RoundView, now: datetime) -> Card:
    if view.status == "void":  # the opening card of a round the moderators voided while it was open
        return Card(title=f"{view.game.name}: round {view.number} is void", description=view.crisis,
                    fields=(("Result", void_text(view), False),), color=NEUTRAL)
    fields = [
        ("Votes in play", str(view.in_play), True),
        ("Deadline", deadline_text(view.deadline, now), True),
        ("How to vote", "DM me `Vote: Aye`, `Vote: Nay` or `Vote: Abstain` (or use `/vote`). "
                        "Ballots are secret; only the totals are announced.", False),
    ]
    if view.factions:  # added with /faction add: this card is edited to show them (PUBLIC, rules-spec §1.2.9)
        fields.insert(1, ("Temporary factions", "\n".join(faction_line(f, result=False) for f in view.factions),
                          False))
    if view.seal is not None:  # sealed before any roll of the round (docs/dice.md)
        dice = f"This round's dice: {commitment_text(view.seal)}."
        if view.base_seal is not None:
            dice += f"\nThe base d3 rolls: {commitment_text(view.base_seal)}."
        fields.append(("Dice", dice, False))
    return Card(title=f"{view.game.name}: round {view.number} is open", description=view.crisis,
                fields=tuple(fields), color=NEUTRAL)


def setup_card(game: GameView, players: Sequence[PlayerView], base_seal: SealView | None = None) -> Card:
    """The set-up summary (``bot/actions/setup.py``): who plays, and how many holdings are recorded. PUBLIC, so no
    attributes, holdings' grades or votes: a player's own votes are theirs (rules-spec §1.2.9, P0-14). A player
    removed during set-up is left out: they never joined the game (play-test Y1, docs/rulings.md)."""
    players = [p for p in players if not p.removed]
    names = "\n".join(p.name + (f" ({p.faction})" if p.faction else "") + p.state
                      for p in players) or "nobody yet (/player add)"
    kinds = [h.kind for p in players for h in p.holdings]
    # the commitment of the base d3s' seed, public as soon as Clerk rolled one (docs/dice.md)
    dice = (("Dice", f"The base d3 rolls: {commitment_text(base_seal)}.", False),) if base_seal else ()
    held = ", ".join(f"{n} {label}{'' if n == 1 else 's'}" for kind, label in (("elector", "Elector"),
                                                                                ("planet", "planet"))
                     if (n := kinds.count(kind))) or "none yet (/holding add)"
    return Card(title=f"{game.name}: being set up",
                description="Set-up so far (this message is updated as the moderators add to it; /round open starts "
                            "the first round).",
                fields=((f"Players ({len(players)})", names, False), ("Holdings recorded", held, False), *dice),
                color=NEUTRAL)


def status_card(status: StatusView, now: datetime) -> Card:
    if status.result is not None:
        return result_card(status.result)
    view = status.round
    fields = [("Votes in play", str(view.in_play), True)]
    if view.status == "open":
        fields.append(("Deadline", paused_text(view.paused_left) if view.paused_left is not None
                       else deadline_text(view.deadline, now), True))
        fields.append((f"Have voted ({len(status.voted)})", ", ".join(status.voted) or "nobody yet", False))
        fields.append((f"Not yet voted ({len(status.waiting)})", ", ".join(status.waiting) or "nobody", False))
    if view.factions:
        fields.append(("Temporary factions", "\n".join(faction_line(f, result=view.status == "closed")
                                                       for f in view.factions), False))
    if view.status == "void":
        fields.append(("Result", void_text(view), False))
    state = view.status if view.status in ("open", "void") else "closed"
    return Card(title=f"{view.game.name}: round {view.number} ({state})", description=view.crisis,
                fields=tuple(fields), color=NEUTRAL)


def round_end_text(result: ResultView) -> str:
    if result.income_penalty:
        return (f"none at the end of the round, so every player's income this round is docked "
                f"{result.income_penalty} MS")
    return f"{result.adjutant} (in office at the end of the round)"


def held_card(result: ResultView) -> Card:
    """A result the disclosure check holds back (``disclosure: hold``): only that the round closed."""
    view = result.round
    return Card(title=f"{view.game.name}, round {view.number} is closed",
                description=view.crisis + "\n\nThe moderators will post the result.", color=NEUTRAL)


def result_card(result: ResultView) -> Card:
    if result.shown == "held":
        return held_card(result)
    view = result.round
    passed = result.outcome == "passed"
    fields = [
        ("Aye", str(result.aye), True),
        ("Nay", str(result.nay), True),
        ("Abstain", str(result.abstain), True),
        ("Votes in play", str(result.in_play), True),
        ("Needed to pass", needed_text(result), True),
    ]
    footer = "Individual ballots are secret; only the totals are published."
    if result.shown == "coarse":  # the totals would give a ballot away (docs/rulings.md)
        fields = [("Margin", margin_band(abs(result.aye - result.nay), result.aye + result.nay), True),
                  ("Votes in play", str(result.in_play), True)]
        footer = "Individual ballots are secret; the totals are not published, since they would give one away."
    if result.factions:
        fields.append(("Temporary factions", "\n".join(faction_line(f, result=True) for f in result.factions), False))
    fields.append(("Adjutant General", round_end_text(result), False))
    if view.seal is not None and view.seal.revealed:
        fields.append(("Dice", reveal_text(view.seal), False))
    if result.expired:
        fields.append(("Player votes expired", "\n".join(result.expired) + "\n(support never carries over)", False))
    late = (f"\n\nClosed at its deadline {stamp(result.due_at)} (the bot was offline). {OFFLINE_DMS}"
            if result.due_at is not None else "")
    return Card(
        title=f"{view.game.name}, round {view.number}: the measure {'PASSED' if passed else 'FAILED'}",
        description=view.crisis + late,
        fields=tuple(fields),
        color=PASSED if passed else FAILED,
        footer=footer,
    )


def holding_words(kind: str, grade: str | None, homeworld: bool) -> str:
    """``elector, strong``, ``planet, rich``, ``planet, Homeworld`` (a Homeworld needs no quality) or
    ``planet, rich, Homeworld``."""
    return ", ".join(w for w in (kind, grade, "Homeworld" if homeworld else None) if w)


def player_card(p: PlayerView, game_name: str) -> Card:
    b = p.breakdown
    lines = [
        f"Base vote: {b.base} (2×D + I + your d3 of {p.roll}, from the highest D and I you have held)",
        f"Electors: {b.electors}",
        f"Planets (Homeworld excluded): {b.planets}",
        f"Misc: {b.misc}",
        f"Diplomacy bonus (D {p.diplomacy}): {b.bonus}",
    ]
    held = "\n".join(
        f"• {h.name}: {holding_words(h.kind, h.grade, h.homeworld)}, {h.votes} votes" for h in p.holdings
    ) or "none"
    return Card(
        title=f"{p.name} in {game_name}: {p.votes} votes",
        description="\n".join(lines),
        fields=(("Attributes", f"D {p.diplomacy} / C {p.command} / I {p.intrigue}", True),
                ("Holdings", held, False)),
        footer="Only you can see this." + (" A moderator removed you from this game." if p.removed else
                                           "" if p.active else " You are marked inactive."),
    )


def either(words: Sequence[str]) -> str:
    """``Nay``, ``Nay or Abstain``, ``Lee, Ann or Kim``."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def exposure_warning(result: ResultView) -> str:
    """For the moderators only: whose crisis ballot the totals give away, whole or in part, and what was done with
    the result."""
    d = result.disclosure
    assert d is not None
    view = result.round
    totals = (f"the totals of round {view.number} of {view.game.name} (Aye {result.aye}, Nay {result.nay}, Abstain "
              f"{result.abstain})")
    known = ("With each player's votes known (the final table shows them, and players compare), with the temporary "
             "factions' votes and who cast a ballot")
    lines: list[str] = []
    if d.exposed:
        who = ", ".join(f"{name} ({label(option)})" for name, option in d.exposed)
        lines.append(f"**Moderators:** {totals} give away how these players voted: {who}. {known}, no other "
                     "combination of ballots gives these totals.")
    if d.ruled_out:
        head = ("They also give away part of these ballots" if d.exposed else
                f"**Moderators:** {totals} give away part of these ballots")
        parts = "; ".join(f"{name} ({votes} votes): the totals show {name} did not vote "
                          f"{either([label(o) for o in out])}" for name, votes, out in d.ruled_out)
        lines.append(f"{head}: {parts}." + ("" if d.exposed else f" {known}, no combination of ballots that "
                                            "gives these totals has them vote so."))
    if d.partial:
        lines.append("The electorate is too big for the full check; only a quick one ran, which may miss others.")
    if not d.exposed:
        lines.append("A ballot given away only in part does not coarsen or hold a result: it was posted in full "
                     "(docs/rulings.md).")
    elif d.mode == "coarsen":
        lines.append("The result was posted as passed or failed with the margin's band, without the totals "
                     "(setting `disclosure: coarsen`).")
    elif d.mode == "hold":
        lines.append(f"The result is held: the game channel was told only that the round closed. `/round release "
                     f"number:{view.number}` posts it in full (setting `disclosure: hold`).")
    else:
        lines.append("The result was posted in full (setting `disclosure: post`); `/game settings` can set "
                     "`disclosure` to coarsen or hold for later rounds.")
    return "\n".join(lines)
