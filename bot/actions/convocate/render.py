"""What players read about the Convocate: the board, commits and pushes, Statutes, phases, Motions with the offer
to second, and Repeals. Everything here is public (rules-spec §4.2.9) except the offer, which goes to the player
asked (and is announced in the game channel as it moves round the table)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from bot.actions.outbox import Card
from bot.actions.render import FAILED, NEUTRAL, PASSED
from engine.convocate.access import lockout_text
from engine.convocate.board import Board, Phase, signed
from engine.convocate.factors import Committed, Pushed
from engine.convocate.turns import PhaseChanged, PhaseReturned
from engine.convocate.votes import StandingVote
from engine.core.stamps import due_text
from engine.core.words import plural
from engine.service.convocate.views import BoardView, MotionView, StatuteView, card_line, what_was_taken

SECOND_HOW = ("Press a button below, or reply `Second: <Convocant>` (or `Second: yes` if you have only one with "
              "access), or `Second: no`")


def factors_text(board: Board) -> str:
    return " · ".join(f"{name} {signed(value)}" for name, value in board.factors)


def breakdown(sv: StandingVote) -> str:
    counted = [f"{line.source} {line.votes}" + (" (Seat)" if line.note.startswith("active Seat") else "")
               for line in sv.lines if line.votes]
    zeros = [f"{line.source} 0 ({line.note})" for line in sv.lines if not line.votes]
    text = f"**{sv.total}**" + (" = " + " + ".join(counted) if counted else "")
    return text + (f"; not counted: {', '.join(zeros)}" if zeros else "")


def control_text(view: BoardView) -> str:
    if view.control is not None:
        votes = next(s.vote.total for s in view.standings if s.player == view.control)
        return f"{view.control} ({votes})"
    if view.tied:
        top = next(s.vote.total for s in view.standings if s.player == view.tied[0])
        return f"nobody: {' and '.join(view.tied)} are tied at {top}"
    return "nobody"


def when_text(board: Board) -> str:
    if board.active is None or board.phase is None:
        return "before the first turn"
    return f"turn {board.turn}, {board.active}'s {board.phase.label}"


def board_card(view: BoardView, now: datetime, *, cards: bool = False) -> Card:
    board = view.board
    standing = "\n".join(
        f"{s.player} ({s.sovereignty}{', Directive ' + s.directive if s.directive else ''}): {breakdown(s.vote)}"
        + (f"; pool {s.pool}" if s.pool else "") for s in view.standings) or "no players yet"
    seats = "\n".join(f"{s.name} ({s.controller or 'nobody'}, {s.sovereignty}): "
                      + (f"active: {s.why}" if s.active else f"inactive: {s.why}")
                      + (f"; +1 to {s.controller}" if s.bonus else "") for s in view.seats) or "none on the board"
    locked = "\n".join(lockout_text(board, s.player) for s in view.standings if s.locked_out) or "nobody"
    statutes = "\n".join(f"{s.name}: Section {s.section} is in force (controlled by {s.controller}"
                         + (f", owned by {s.owner}" if s.owner != s.controller else "") + ")"
                         for s in board.statutes) or "none"
    fields = [("Standing Vote", standing, False), ("Political control", control_text(view), False),
              ("Convocate Seats", seats, False), ("Locked out", locked, False),
              ("Statutes in force", statutes, False)]
    if view.motion is not None:
        fields.append(("Motion on the floor", motion_status(view.motion, now), False))
    if cards:
        fields.append(("Cards", "\n".join(card_line(c) for c in board.cards) or "none", False))
    return Card(title=f"{view.game.name}: the Convocate, {when_text(board)}",
                description=f"Galactic Factors: {factors_text(board)}", fields=tuple(fields), color=NEUTRAL)


def setup_card(view: BoardView, now: datetime) -> Card:
    """The set-up summary (``bot/actions/setup.py``): the public board with every card on it (§4.2.9: the board is
    public, hands are not)."""
    board = board_card(view, now, cards=True)
    return Card(title=f"{view.game.name}: the Convocate, being set up",
                description=(f"{board.description}\nSet-up so far (this message is updated as cards and players are "
                             "added; the first /phase next begins the first turn)."),
                fields=board.fields, color=board.color)


def committed_text(c: Committed) -> str:
    parts = [f"{name} {votes}" for name, votes in c.cards] + ([f"card effect {c.added}"] if c.added else [])
    votes = plural(sum(v for _, v in c.cards) + c.added, "Vote")
    warning = (f" **Warning:** this is the {c.phase.label}, and pushes are made in your Action Phase, so nothing "
               "Clerk records can be paid from the pool before it empties; unless a card spends these Votes in this "
               "Phase, they are lost." if c.phase is not None and c.phase is not Phase.ACTION else "")
    return (f"{c.player} commits {' + '.join(parts)} = {votes} to the Resource Pool, which holds {c.pool}. The "
            f"activated cards leave Standing Vote until {c.player}'s next Ready Phase; the pool empties at the end of "
            f"this Phase.{warning}")


def pushed_text(p: Pushed) -> str:
    steps = " + ".join(str(c) for c in p.costs)
    total = f"{steps} = {p.paid}" if len(p.costs) > 1 else str(p.paid)
    return (f"{p.player} pushes **{p.factor}** from {signed(p.frm)} to **{signed(p.to)}**, paying {total} committed "
            f"Votes, each step in full. Pool left: {p.pool}.")


def resolves_text(v: StatuteView) -> str:
    if v.resolves is None:
        return ""
    number, cost = v.resolves
    pay = f" Its cost is paid now: {cost}." if cost else ""
    return f" Section {number} is a one-time Section: it resolves now.{pay}"


def declared_card(v: StatuteView) -> Card:
    s = v.statute
    owner = f" (its owner is {s.owner})" if s.owner != s.controller else ""
    votes = ", ".join(f"{p} {n}" for p, n in (v.votes or {}).items())
    cost = f" paying its cost ({v.cost})" if v.cost else " paying its printed cost"
    return Card(title=f"{v.game.name}: {s.controller} declares {s.name}",
                description=(f"{s.controller} activates {v.character} on the active Seat {v.seat} and declares "
                             f"{s.name}{cost}. Section {s.section} of {s.name} is in force; {s.controller} controls "
                             f"it{owner}.{resolves_text(v)}"),
                fields=(("Political control", f"{s.controller}, checked before the activation: {votes}", False),),
                color=PASSED)


def section_text(v: StatuteView, old: int | None = None) -> str:
    s = v.statute
    return f"Section {s.section} of {s.name} is in force now ({s.controller}'s Admin Phase).{resolves_text(v)}"


def destroyed_text(v: StatuteView) -> str:
    s = v.statute
    return f"{s.controller} destroys {s.name}; it goes to {s.owner}'s Depleted Pile."


def phase_text(c: PhaseChanged) -> str:
    player, phase = c.started
    lines = [f"Turn {c.turn}: **{player}'s {phase.label}**."]
    if c.lost:
        lines.append("The Resource Pool empties: " + ", ".join(f"{p} loses {n}" for p, n in c.lost) + ".")
    if c.readied:
        lines.append(f"{player}'s cards ready: {', '.join(c.readied)}.")
    if c.expired:
        lines.append("Effects until end of turn end: " + ", ".join(c.expired) + ".")
    return "\n".join(lines)


def back_text(b: PhaseReturned, reason: str | None) -> str:
    """``/phase back`` in the game channel: the Phase under way again, and that the one announced did not begin
    (whoever read "Turn 2: bob's Ready Phase" is told it is not), with what came back."""
    player, phase = b.back
    left, left_phase = b.left
    why = f" ({reason})" if reason else ""
    wait = f", and {left}'s turn comes when {player}'s ends" if left != player else ""
    lines = [f"Turn {b.turn}: **{player}'s {phase.label}** again. The moderators took back the /phase next that "
             f"began {left}'s {left_phase.label} of turn {b.left_turn}{why}: that Phase has not begun{wait}."]
    if b.pools:
        lines.append("The Resource Pool holds again what it lost: "
                     + ", ".join(f"{p} {n}" for p, n in b.pools) + ".")
    if b.activated:
        lines.append(f"{left}'s cards that readied are activated again: {', '.join(b.activated)}.")
    if b.effects:
        lines.append("Effects until end of turn are back: " + ", ".join(b.effects) + ".")
    return "\n".join(lines)


ROUTES = {"seat": "from anywhere, as its player controls an active Seat", "homeworld": "from its Homeworld",
          "pallarch": "as a Pallarch"}


def deadline(at: datetime | None, now: datetime) -> str:
    if at is None:
        return "no deadline"
    return due_text(at, now)


def motion_status(m: MotionView, now: datetime) -> str:
    head = f"#{m.number} {m.name}, moved by {m.mover} with {m.convocant}"
    if m.status == "offering" and m.game.ended:  # the offer can no longer move (docs/rulings.md)
        return f"{head}: the offer to second stopped with {m.offer_to} when the game ended"
    if m.status == "offering":
        return f"{head}: the offer to second is with {m.offer_to} until {deadline(m.deadline, now)}"
    if m.withdrawn is not None:
        return f"{head}: withdrawn by the moderators"
    return f"{head}: resolved"


def corrections_fields(m: MotionView) -> list[tuple[str, str, bool]]:
    """The moderators' corrections of a Motion (``/motion reopen``, ``/motion ask-again``, ``/motion withdraw``), for
    its cards."""
    fields: list[tuple[str, str, bool]] = []
    if m.taken_back:
        fields.append(("Seconds taken back by the moderators", "; ".join(
            f"{t.player}'s with {t.convocant}" + (f" ({t.reason})" if t.reason else "") for t in m.taken_back),
            False))
    if m.asked_again:
        fields.append(("Answers taken back by the moderators", "; ".join(
            what_was_taken(t.player, t.answer) + (f" ({t.reason})" if t.reason else "") for t in m.asked_again),
            False))
    w = m.withdrawn
    if w is not None:
        fields.append(("Withdrawn", "by the moderators, while the offer was "
                       + (f"with {w.offer_was_with}" if w.offer_was_with else "going round")
                       + (f" ({w.reason})" if w.reason else "") + "; it did not resolve", False))
    return fields


def answers_text(m: MotionView) -> str:
    words = {"declined": "declined", "skipped": "cannot second", "timed out": "did not answer in time",
             "passed": "passed over by a moderator", "seconded": "seconded"}
    parts = []
    for a in m.answers:
        text = f"{a.player} {words.get(a.answer, a.answer)}"
        if a.convocant:
            text += f" with {a.convocant}"
        if a.why:
            text += f" ({a.why})"
        parts.append(text)
    return "; ".join(parts)


def moved_card(m: MotionView, now: datetime) -> Card:
    d = m.details
    lines = [f"{m.mover} activates {m.convocant} ({ROUTES.get(m.route, m.route)}) to move **{m.name}**."]
    if d.get("morality"):
        lines.append(f"Morality: {d['morality']}.")
    if d.get("moved"):
        lines.append(f"Moved: {d['moved']}")
    if d.get("targets"):
        lines.append(f"Targets (chosen by {m.mover}): {d['targets']}")
    fields: list[tuple[str, str, bool]] = []
    if d.get("box") == "none":
        lines.append("It has no Seconded box, so it cannot be seconded and no offer is made.")
    else:
        if d.get("seconded"):
            lines.append(f"Seconded: {d['seconded']}")
        fields.append(("Offer to second", order_text(m), False))
        if m.answers:
            fields.append(("So far", answers_text(m), False))
        if m.standing:
            fields.append(("Answers that stand", answers_text(replace(m, answers=m.standing))
                           + " (given after an answer the moderators took back; taken as given when the offer "
                           "reaches them)", False))
        fields += corrections_fields(m)
        if m.offer_to and m.game.ended:
            fields.append(("Offer stopped", f"with {m.offer_to}: the game ended before it was answered", False))
        elif m.offer_to:
            fields.append(("Now asked", f"{m.offer_to}, by DM, until {deadline(m.deadline, now)}", False))
    return Card(title=f"{m.game.name}: Motion #{m.number}, {m.name}", description="\n".join(lines),
                fields=tuple(fields), color=NEUTRAL)


def order_text(m: MotionView) -> str:
    """The order of the offer as the ruling ``second_order`` made it (P4-13): from the mover, or the mover last."""
    if m.order and m.order[-1] == m.mover and m.order[0] != m.mover:
        return "In turn order after the mover, the mover last: " + ", ".join(m.order)
    return "In turn order from the mover: " + ", ".join(m.order)


def offer_text(m: MotionView, now: datetime) -> str:
    d = m.details
    box = "instead of Moved" if d.get("box") == "instead" else "in addition to Moved"
    seconded = f"\nSeconded ({box}): {d['seconded']}" if d.get("seconded") else ""
    moved = f"\nMoved: {d['moved']}" if d.get("moved") else ""
    return (f"{m.game.name}: {m.mover} moved **{m.name}** with {m.convocant}.{moved}{seconded}\n"
            f"Will you second it? Seconding activates the Convocant you name; the mover chooses every target, "
            f"and your Convocant pays its own Penalty if its Morality differs"
            + (f" (the Motion's is {d['morality']})" if d.get("morality") else "") + ".\n"
            f"Your Convocants with access: {', '.join(m.candidates)}.\n"
            f"{SECOND_HOW}, by {deadline(m.deadline, now)}; after that the offer passes on.")


def offer_in_channel_text(m: MotionView, now: datetime) -> str:
    """The offer, in the game channel, for a player whose DMs are closed to the bot (play-test S4.4): who is asked,
    with which Convocants, and how to answer without a DM. The offer is public (rules-spec 4.2.9)."""
    return (f"**{m.offer_to}**: I cannot DM you the offer to second Motion #{m.number} ({m.name}) (your DMs are closed "
            f"to me). Your Convocants with access: {', '.join(m.candidates)}. Answer with `/motion second` or "
            f"`/motion decline`, or post here `Second: <Convocant>` or `Second: no`, by {deadline(m.deadline, now)}; "
            "after that the offer passes on.")


def offer_moves_text(m: MotionView, now: datetime) -> str:
    last = answers_text(m)
    return (f"Motion #{m.number} ({m.name}): {last}. The offer to second is now with **{m.offer_to}** until "
            f"{deadline(m.deadline, now)}.")


def resolved_card(m: MotionView) -> Card:
    out = m.outcome or {}
    title = f"{m.game.name}: Motion #{m.number}, {m.name}, resolves"
    if m.seconder:
        head = f"Seconded by {m.seconder} with {m.seconder_convocant}."
        if out.get("released"):
            head += (" The Seconded text begins “Instead”: the Moved text does not resolve, and its targets are "
                     "released.")
    elif m.details.get("box") == "none":
        head = "It has no Seconded box."
    else:
        head = "Nobody seconded it."
    effects = "\n".join(f"{i}. {box}: {text or '(as printed on the card)'}"
                        for i, (box, text) in enumerate(out.get("effects", []), 1))
    penalties = "\n".join(f"{p['convocant']} ({p['player']}, {p['morality']}): pays its Penalty"
                          + (f": {p['penalty']}" if p.get("penalty") else " from its Penalties block")
                          for p in out.get("penalties", []))
    unknown = ", ".join(out.get("unknown", []))
    if unknown and not m.details.get("morality"):  # nobody's Penalty is known, so not "none" (found playing, 4.7)
        penalties = (f"unknown: this Motion's Morality is not on the board, so Clerk cannot tell who pays a "
                     f"Penalty; the table checks {unknown} by hand.")
    elif unknown:
        penalties = ((penalties or "none among the Convocants whose Morality is on the board")
                     + f"\nMorality not on the board for {unknown}; the table checks their Penalty by hand.")
    elif not penalties:
        penalties = "none"
    fields = [("Resolves, in order", effects or "nothing", False), ("Penalties (after it resolves)", penalties, False)]
    if m.answers:
        fields.insert(0, ("Offer to second", answers_text(m), False))
    if m.seconder and out.get("effects"):
        fields.insert(1, ("Seconded targets", f"chosen by {m.mover}, the mover", False))
    fields += corrections_fields(m)
    return Card(title=title, description=head, fields=tuple(fields), color=PASSED)


def repeal_card(m: MotionView) -> Card:
    out = m.outcome or {}
    statute, controller = out.get("statute"), out.get("controller")
    mine, theirs = out.get("mover_votes"), out.get("controller_votes")
    when = "after" if out.get("count", "after") == "after" else "before"
    counted = (f"Standing Vote, counted {when} {m.convocant} is activated: {m.mover} **{mine}**, {controller} "
               f"**{theirs}**.")
    if out.get("destroyed"):
        result = f"{statute} is repealed and goes to {out.get('owner')}'s Depleted Pile."
    elif mine == theirs:
        result = f"A tie goes to the controller: {statute} stays in force."
    else:
        result = f"{m.mover} does not have more: {statute} stays in force."
    return Card(title=f"{m.game.name}: Motion of Repeal against {statute}",
                description=(f"{m.mover} activates {m.convocant} ({ROUTES.get(m.route, m.route)}) to move a Motion of "
                             f"Repeal against {controller}'s {statute}.\n{counted}\n{result}"),
                fields=(("Compared", f"only {m.mover} and {controller}, the Statute's controller", False),),
                color=PASSED if out.get("destroyed") else FAILED)
