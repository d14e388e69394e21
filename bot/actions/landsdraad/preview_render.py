"""What the moderators read in ``/round preview`` and ``/ag preview``: the close before it happens. Private to the
moderator who asks (it shows how players voted), and recorded as nothing."""

from __future__ import annotations

from fractions import Fraction

from bot.actions.outbox import Card
from bot.actions.render import NEUTRAL
from engine.core.odds import odds_text
from engine.core.stamps import stamp
from engine.landsdraad.preview import FactionOdds, OptionOdds, Preview
from engine.service.landsdraad.previews import ElectionPreview, RoundPreview

SHOWN = 10
"""At most this many factions or names in one field (a card field holds 1,024 characters)."""
PRIVATE = "Only you see this, and nothing is recorded."


def votes(n: int, what: str = "") -> str:
    """``1 Aye vote``, ``17 Aye votes``, ``3 votes``."""
    return f"{n} {what + ' ' if what else ''}vote{'s' if n != 1 else ''}"


def listed(items: list[str]) -> str:
    more = f" and {len(items) - SHOWN} more" if len(items) > SHOWN else ""
    return ", ".join(items[:SHOWN]) + more


def tally_text(p: Preview) -> str:
    k = p.known
    text = f"Aye {k.aye}, Nay {k.nay}, Abstain {k.abstain}"
    if not p.factions:
        outcome = "passes" if k.passed else "fails (a tie fails)" if k.aye == k.nay else "fails"
        return f"{text}: {k.needed} Aye needed (more Aye than Nay), so it {outcome}."
    rolling = ", ".join(f"{f.name} ({f.votes})" for f in p.factions[:SHOWN])
    more = f" and {len(p.factions) - SHOWN} more" if len(p.factions) > SHOWN else ""
    return f"{text}, before the roll of {rolling}{more}."


def outcome_text(p: Preview) -> str:
    if not p.factions:
        return "Passes." if p.known.passed else "Fails."
    over = (f"over the 6 faces of the d6 of {p.factions[0].name}" if len(p.factions) == 1
            else f"over all {p.combinations} face combinations of {len(p.factions)} unrolled factions")
    if p.certain:
        return f"{'Passes' if p.passing else 'Fails'} whatever the roll ({over})."
    return f"Passes {odds_text(p.passes)}, fails {odds_text(p.fails)}, {over}."


def option_text(o: OptionOdds) -> str:
    return f"on {o.faces_text} ({o.option.label}): {chance_text(o.passes)}"


def faction_field(f: FactionOdds) -> tuple[str, str, bool]:
    name = f"{f.name}: {votes(f.votes)}, {f.table}" + ("" if f.decides else " (its roll changes nothing)")
    return name, "\n".join(option_text(o) for o in f.options), False


def turning_text(p: Preview) -> str:
    lines: list[str] = []
    if p.passing == p.combinations:
        if p.factions and p.more_nay_to_fail_at_all() != p.more_nay_to_fail():
            lines.append(f"{votes(p.more_nay_to_fail_at_all(), 'more Nay')} would make it fail on some rolls, "
                         f"{p.more_nay_to_fail()} whatever the rolls.")
        else:
            lines.append(f"{votes(p.more_nay_to_fail(), 'more Nay')} would make it fail.")
    elif p.passing == 0:
        if p.factions and p.more_aye_to_pass_at_all() != p.more_aye_to_pass():
            lines.append(f"{votes(p.more_aye_to_pass_at_all(), 'more Aye')} would make it pass on some rolls, "
                         f"{p.more_aye_to_pass()} whatever the rolls.")
        else:
            lines.append(f"{votes(p.more_aye_to_pass(), 'more Aye')} would make it pass.")
    else:
        lines.append(f"{votes(p.more_aye_to_pass(), 'more Aye')} would make it pass whatever the rolls; "
                     f"{votes(p.more_nay_to_fail(), 'more Nay')} would make it fail whatever the rolls.")
    deciding = [f for f in p.factions if f.decides and {o.passes for o in f.options} <= {0, 1}]
    for f in deciding[:SHOWN]:
        on = [o.faces_text for o in f.options if o.passes == 1]
        lines.append(f"The roll of {f.name} decides it: it passes on {', '.join(on)} and fails on the other faces.")
    lines.append("A ballot moved from one side to the other counts twice; an abstention (or no ballot) turned to a "
                 "side counts once.")
    return "\n".join(lines)


def chance_text(p: Fraction) -> str:
    return "certain to pass" if p == 1 else "certain to fail" if p == 0 else f"passes {odds_text(p)}"


def waiting_field(r: RoundPreview) -> tuple[str, str, bool]:
    """Who has no ballot yet (they abstain if it closes now), and what their ballot would do: the most votes first."""
    if not r.waiting:
        return "No ballot yet", "nobody: every active player has voted", False
    p = r.preview
    lines = [f"{name} ({votes(n)}): as Aye {chance_text(p.passes_with_more(aye=n))}; as Nay "
             f"{chance_text(p.passes_with_more(nay=n))}" for name, n in r.waiting[:SHOWN]]
    if len(r.waiting) > SHOWN:
        lines.append("and " + listed([f"{name} {n}" for name, n in r.waiting[SHOWN:]]))
    return f"No ballot yet ({len(r.waiting)}, they abstain if it closes now)", "\n".join(lines), False


def round_preview_card(r: RoundPreview) -> Card:
    p = r.preview
    fields = [("Certain now", tally_text(p), False), ("If it closed now", outcome_text(p), False)]
    fields += [faction_field(f) for f in p.factions[:SHOWN]]
    if len(p.factions) > SHOWN:
        fields.append(("More unrolled factions", listed([f.name for f in p.factions[SHOWN:]]), False))
    fields.append(("What would turn it", turning_text(p), False))
    fields.append(waiting_field(r))
    return Card(title=f"{r.game.name}, round {r.number}: the close before it happens",
                description=f"{r.crisis}\n{r.voted} ballot{'s' if r.voted != 1 else ''} counted. {PRIVATE} No die "
                            "is rolled.",
                fields=tuple(fields), color=NEUTRAL)


def election_preview_card(e: ElectionPreview) -> Card:
    p = e.preview
    unit = "votes" if p.weighted else "ballots"

    def n_of(n: int) -> str:
        return f"{n} {unit if n != 1 else unit[:-1]}"

    name = e.names.get
    fields: list[tuple[str, str, bool]] = []
    if p.winner is None:
        fields.append(("Would win", "nobody: no ballots yet, so there would be no Adjutant General", False))
    else:
        fields.append(("Would win", f"{name(p.winner)}, with {n_of(p.standings[0][1])}", False))
        fields.append(("Standings", "\n".join(f"{i}. {name(c)}: {n_of(n)} (last at {stamp(at, 'f')})"
                                              for i, (c, n, at) in enumerate(p.standings, 1)), False))
    if p.tied:
        last = {c: at for c, _, at in p.standings}
        order = ", then ".join(f"{name(c)} (last ballot {stamp(last[c], 'f')})" for c in p.tied)
        fields.append(("Tie at the top", f"it goes to the candidate whose last ballot came first: {order}.",
                       False))
    chases = []
    for c in p.chases[:SHOWN]:
        moved = f", or {n_of(c.moved)} moved from {name(p.winner) if p.winner else '?'}" if c.moved else ""
        level = (f"level now; the tie goes to {name(c.tie_goes_to)}" if c.to_tie == 0 else
                 f"{c.to_tie} more to draw level, and that tie goes to {name(c.tie_goes_to)} (a ballot cast now "
                 "comes last)")
        chases.append(f"{name(c.candidate)}: {level}; {c.to_win} more to win{moved}")
    if p.winner is not None:
        chases.append(f"anyone else: {p.newcomer_to_win} more to win")
    if chases:
        fields.append(("What would turn it", "\n".join(chases), False))
    fields.append((f"Not yet voted ({p.waiting})", listed(list(e.waiting)) or "nobody", False))
    closes = (f"closes {stamp(e.closes_at, 'f')}" if e.closes_at else
              f"closes with round {e.closes_with_round}" if e.closes_with_round else "open")
    return Card(title=f"{e.game.name}: Adjutant General election #{e.number} before it closes",
                description=f"It {closes}. {PRIVATE}", fields=tuple(fields), color=NEUTRAL)
