"""Victory points as players and moderators read them: the Forecast (public), a player's own projected score
(private), the final table (public), the majority notice, and the moderators' views of what is tracked.
Goals never enter a public card (P3-09)."""

from __future__ import annotations

from fractions import Fraction

from bot.actions.outbox import Card
from bot.actions.render import NEUTRAL
from engine.core.words import plural
from engine.landsdraad.victory import (
    ASSET_KINDS,
    COUNTERS,
    FORCE_POINTS,
    GOAL_VP,
    UNIT_KINDS,
    Award,
    Category,
    ScoreRow,
    down_to_hundredths,
)
from engine.service.landsdraad.victory_scoring import exact
from engine.service.landsdraad.victory_state import counter_text, pretty
from engine.service.landsdraad.victory_views import (
    FinalView,
    ForecastView,
    GoalView,
    MajorityNotice,
    PendingScores,
    PrestigeReceipt,
    ProjectedScore,
    TrackChange,
    TrackView,
    VpSettingsView,
)

GOLD = 0xF1C40F
MAX_PLAYER_FIELDS = 24
"""Discord allows 25 fields in an embed; one is kept for the awards nobody won."""

ENDED_BY = {
    "moderator": "The moderators ended the game.",
    "end game": "The game ended by an End Game vote.",
    "majority": "The game ended by a Majority Victory.",
}


def vp(x: Fraction | int) -> str:
    return f"{exact(Fraction(x))} VP"


def pot_line(pot: Fraction, penalty: int) -> str:
    after = f" (after the End Game penalty of {penalty}%)" if penalty else ""
    return f"Current Victory Pot: {exact(pot)}{after}"


def singular_lines(v: ForecastView) -> list[str]:
    """Awards grouped by what each is worth, the biggest first; awards with no weight listed apart."""
    by_worth: dict[Fraction, list[Award]] = {}
    for award, worth in v.forecast.singular:
        by_worth.setdefault(worth, []).append(award)
    lines = []
    for worth in sorted(by_worth, reverse=True):
        names = ", ".join(a.title for a in by_worth[worth])
        if worth:
            each = " each" if len(by_worth[worth]) > 1 else ""
            lines.append(f"{vp(worth)}{each}: {names}")
        else:
            lines.append(f"Not awarded in this game: {names}")
    return lines


def forecast_card(v: ForecastView, *, taken: str | None = None) -> Card:
    """R3-08: the Pot and, per category, the VP per unit; what each singular award is worth."""
    when = taken or (f"round {v.round}" if v.round else "before round 1")
    description = "\n".join([f"Forecast taken: {when}", pot_line(v.forecast.pot, v.penalty)])
    fields = [
        ("Proportional (each player's share, rounded down)", "\n".join(line.text() for line in v.forecast.lines),
         False),
        ("Singular awards (shared evenly on a tie)", "\n".join(singular_lines(v)), False),
    ]
    footer = (f"If the game ended now. On top of this, each player's own goals (up to {GOAL_VP} VP) and prestige "
              "awarded by the moderators.")
    if v.total_percent != 100:
        footer += f" The categories and awards add up to {v.total_percent}% of the Pot."
    return Card(title=f"{v.game.name}: Victory Point Forecast", description=description, fields=tuple(fields),
                color=GOLD, footer=footer)


def category_line(row: ScoreRow, c: Category) -> str:
    return f"{c.label} {row.categories.get(c, 0)}"


def measure_text(t: TrackView, c: Category) -> str:
    forces = sum(FORCE_POINTS[k] * t.units.get(k, 0) for k in UNIT_KINDS)
    return {
        Category.VOTES: plural(t.votes, "vote"),
        Category.MILITARY: plural(forces, "Force point"),
        Category.PLANETS: f"{plural(t.planets, 'planet')} (Homeworld included)",
        Category.ASSETS: plural(sum(t.assets.values()), "Primary Asset"),
        Category.INCOME: f"{t.income} MS income per round",
        Category.STOCK: plural(t.stock, "CHOAM share"),
        Category.WEALTH: f"{t.wealth} MS wealth",
    }[c]


def share_text(row: ScoreRow, c: Category) -> str:
    """``120 VP``; ``67.36… VP, rounded down to 67 VP`` (R3-07: each category is rounded down on its own)."""
    floored = row.categories.get(c, 0)
    share = row.exact.get(c)
    if share is None or share == floored:
        return f"{floored} VP"
    return f"{down_to_hundredths(share)} VP, rounded down to {floored} VP"


def goal_line(g: GoalView) -> str:
    mark = "✓" if g.achieved else "·"
    return f"{mark} #{g.number} {g.description} ({g.vp} VP, {'achieved' if g.achieved else 'not yet achieved'})"


def score_card(p: ProjectedScore) -> Card:
    """A player's own score if the game ended now: never shown to anyone else (goals are private, P3-09)."""
    t = p.track
    goals = "\n".join(goal_line(g) for g in p.goals) or "none recorded yet"
    if p.row is None:
        why = "A moderator removed you from the game" if t.removed else "You are marked inactive"
        return Card(title=f"{t.name} in {p.game.name}: not in play",
                    description=f"{why}, so you take no share of the Pot.",
                    fields=(("Your goals", goals, False),), footer="Only you can see this.", color=NEUTRAL)
    row = p.row
    lines = [f"{c.label}: {measure_text(t, c)} → {share_text(row, c)}" for c in Category]
    won = "\n".join(f"{a.title}: {n} VP" for a, n in row.singular) or ("none" if p.final else "none at the moment")
    fields: list[tuple[str, str, bool]] = [
        ("Proportional categories", "\n".join(lines), False),
        ("Singular awards you won" if p.final else "Singular awards you would win now", won, False),
        (f"Goals: {row.goals} VP achieved", goals, False),
        ("Prestige", f"{row.prestige} VP", True),
        ("Title", row.title or "none", True) if p.final else ("Title at this score", row.title or "none yet", True),
    ]
    if p.final:  # the game has ended and been scored: the stored final scores, with the place
        return Card(title=f"{t.name} in {p.game.name}: final score {row.total} VP, {place_text(row.place)}",
                    description=f"Final Victory Pot: {exact(p.pot)}", fields=tuple(fields), color=GOLD,
                    footer="Only you can see this. The game has ended and been scored; the final table is public."
                    if p.game.ended else "Only you can see this. The final score posted when the game ended: the "
                    "moderators reopened it to correct a mistake, and it stands until they end it again.")
    footer = "Only you can see this. Each category is rounded down separately."
    if p.total_percent > 100:
        footer += f" The categories and awards add up to {p.total_percent}% of the Pot, as they stand."
    return Card(title=f"{t.name} in {p.game.name}: {row.total} VP if the game ended now",
                description=pot_line(p.pot, 0) if p.pot else "", fields=tuple(fields), color=GOLD, footer=footer)


def place_text(place: int) -> str:
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def final_card(v: FinalView) -> Card:
    """R3-17..R3-19: the final table, then each player's categories, awards, goals and prestige."""
    table = "\n".join(f"**{place_text(r.place)}** {r.name}: {r.total} VP" + (f", {r.title}" if r.title else "")
                      for r in v.rows)
    head = [ENDED_BY.get(v.ended_by, ""), f"Final Victory Pot: {exact(v.pot)}"
            + (f" (after the End Game penalty of {v.penalty}%)" if v.penalty else "")]
    if v.chancellor:
        head.append(f"**{v.chancellor}** is Chancellor of the Landsdraad.")
    fields: list[tuple[str, str, bool]] = []
    for r in v.rows[:MAX_PLAYER_FIELDS]:
        parts = [" · ".join(category_line(r, c) for c in Category)]
        if r.singular:
            parts.append("Awards: " + ", ".join(f"{a.title} {n}" for a, n in r.singular))
        parts.append(f"Goals {r.goals} · Prestige {r.prestige}")
        fields.append((f"{r.name} ({place_text(r.place)}, {r.total} VP)", "\n".join(parts), False))
    if v.unawarded:
        fields.append(("Not awarded (their VP disappear)", ", ".join(a.title for a in v.unawarded), False))
    footer = "Shared places on equal scores."
    if len(v.rows) > MAX_PLAYER_FIELDS:
        footer += f" {len(v.rows) - MAX_PLAYER_FIELDS} more players' lines are in the export."
    return Card(title=f"{v.game.name}: final scores", description="\n".join([*head, "", table]),
                fields=tuple(fields), color=GOLD, footer=footer)


def pending_text(p: PendingScores) -> str:
    return (f"**{p.game.name} has ended, but is not scored yet.** {p.reason} Moderators: `/game end confirm:true` "
            "scores it with the percentages as they stand; or change them first with `/vp percentage` and "
            "`/vp weight`.")


def majority_text(n: MajorityNotice) -> str:
    if n.gained:
        return (f"**Moderators: Majority Victory?** {n.player} controls {n.votes} of the {n.total} votes players "
                "control, more than half. The game goes on until a moderator confirms with "
                f"`/game end majority:true`, which ends it with {n.player} as Chancellor of the Landsdraad.")
    return (f"**Moderators:** {n.player} no longer holds a majority ({n.votes} of the {n.total} votes players "
            "control); there is no Majority Victory to confirm now.")


def change_text(c: TrackChange) -> str:
    changed = ", ".join(f"{pretty(k)} {old} → {new}" for k, old, new in c.changes)
    lines = [f"{c.player.name}: {changed}."]
    lines += list(c.notes)
    return "\n".join(lines)


def track_text(t: TrackView) -> str:
    """One player's tracked measures, for the moderators."""
    units = ", ".join(f"{t.units.get(k, 0)} {k}" for k in UNIT_KINDS)
    assets = ", ".join(f"{t.assets[k]} {pretty(k)}" for k in ASSET_KINDS if t.assets.get(k)) or "none"
    counters = ", ".join(counter_text(t.counters[k], k) for k in COUNTERS if t.counters.get(k)) or "none"
    state = " (removed: not in play)" if t.removed else "" if t.active else " (inactive: not in play)"
    return "\n".join([
        f"**{t.name}**{state}: {plural(t.votes, 'vote')}, {plural(t.planets, 'planet')}",
        f"  Forces: {units}",
        f"  Assets: {assets}",
        f"  Income {t.income} MS/round, stock {plural(t.stock, 'share')}, wealth {t.wealth} MS, heroes {t.heroes}",
        f"  Counters: {counters}; Weathervane {t.weathervane}",
        f"  Goals achieved {t.goals} VP, prestige {t.prestige} VP",
    ])


def settings_card(v: VpSettingsView) -> Card:
    def mark(value: int, default: int) -> str:
        return f"{value}%" if value == default else f"**{value}%** (default {default}%)"

    cats = "\n".join(f"{c.label}: {mark(p, d)}" for c, p, d in v.percentages)
    by_weight: dict[int, list[str]] = {}
    for a, w, d in v.weights:
        by_weight.setdefault(w, []).append(a.title if w == d else f"**{a.title}** (default {d}%)")
    awards = "\n".join(f"{w}%{' each' if len(names) > 1 else ''}: {', '.join(names)}"
                       for w, names in sorted(by_weight.items(), reverse=True))
    luxuries = "\n".join(f"{pretty(x.good).capitalize()}: {x.in_play} in play ({x.owned} owned)" for x in v.luxuries)
    total = v.total
    over = " — more than 100%: final scoring will wait for a moderator's confirmation" if total > 100 else (
        " — the rest of the Pot is not awarded" if total < 100 else "")
    return Card(title=f"{v.game.name}: victory categories", description=f"In all: {total}% of the Pot{over}.",
                fields=(("Proportional categories", cats, False), ("Singular awards", awards, False),
                        ("Luxury Good locations", luxuries, False)),
                color=GOLD, footer=f"Pot now: {exact(v.pot)} VP ({pot_count(v)}).")


def pot_count(v: VpSettingsView) -> str:
    """``6 players joined``, and how many of them were removed since: they still count for the Pot (P3-01)."""
    joined = f"{plural(v.joined, 'player')} joined"
    if not v.removed:
        return joined
    return f"{joined}, {v.removed} of them since removed: every player who joined counts toward the Pot"


def prestige_text(r: PrestigeReceipt) -> str:
    a = r.award
    verb = "Awarded" if a.vp > 0 else "Took back"
    line = (f"{verb} {abs(a.vp)} prestige VP {'to' if a.vp > 0 else 'from'} {a.player} ({a.reason}); they have "
            f"{r.player_total}. Prestige awarded in the game: {r.awarded} of the {r.pool} VP pool.")
    if r.over:
        line += (f"\n⚠ That is over the pool of {r.pool} VP (20 per player who joined); recorded anyway, as prestige "
                 "is at the moderators' discretion.")
    return line
