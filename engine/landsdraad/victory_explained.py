"""Where the Forecast and a final score come from (``/why forecast``, ``/why score``): ``victory.forecast`` and
``victory.final_scores`` run once, and their results are laid out as steps with the rule each applies. A player's
own measures (their votes, Forces, planets, ...) are theirs only; the Pot, the category values, what is in play and
the VP a posted table shows are public. Pure: no I/O."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from engine.core.derivation import Derivation, Step
from engine.core.errors import RuleError
from engine.landsdraad.victory import (
    ALIASES,
    BASE_POT,
    OWN_ALL,
    POT_PER_PLAYER,
    TITLES,
    UNIT,
    Award,
    Category,
    FinalScores,
    Holdings,
    ScoreRow,
    Table,
    final_scores,
    forecast,
    most,
)


def exact_text(x: Fraction) -> str:
    """``240``, ``38.4``, ``0.125`` or ``1600/3``: an exact rational as a step writes it (a decimal only when it
    ends within four places)."""
    if x.denominator == 1:
        return str(x.numerator)
    for places in range(1, 5):
        scaled = x * 10**places
        if scaled.denominator == 1:
            whole, rest = divmod(abs(scaled.numerator), 10**places)
            return f"{'-' if x < 0 else ''}{whole}.{rest:0{places}d}"
    return f"{x.numerator}/{x.denominator}"


def pot_step(table: Table, events: tuple[int, ...] = ()) -> Step:
    base = BASE_POT + POT_PER_PLAYER * table.joined
    text = f"Pot: {BASE_POT} + {POT_PER_PLAYER} × {table.joined} players who joined = {base} VP"
    if table.penalty:
        text += f", × (100 − {table.penalty})/100 for the End Game vote = {exact_text(table.pot)} VP"
    return Step(text, "the Pot is 1000 VP and 200 per player who ever joined, less an End Game vote's penalty",
                "R3-01, R3-04", events)


def named(name: str) -> Category | Award:
    """The category or singular award ``name`` names (case ignored)."""
    key = " ".join(name.split()).lower()
    for c in Category:
        if key in (c.value, c.label.lower()):
            return c
    for a in Award:
        if key == a.title.lower():
            return a
    if key in ALIASES:
        return ALIASES[key]
    raise RuleError(f"“{name}” is neither a category nor an award. The categories: "
                    + ", ".join(c.label for c in Category) + "; the awards: " + ", ".join(a.title for a in Award)
                    + ".")


def _unit(category: Category, count: int) -> str:
    unit = UNIT[category]
    return unit if unit.startswith("MS") or count == 1 else f"{unit}s"


def category_part(table: Table, category: Category, names: Mapping[int, str]) -> Derivation:
    """One line of the Forecast: the category's share of the Pot, what is in play (each player's part theirs
    only), the rate."""
    line = next(x for x in forecast(table).lines if x.category is category)
    pct = table.percentages.get(category, 0)
    steps = [Step(f"{category.label}: {pct}% of the Pot {exact_text(table.pot)} = {exact_text(line.vp)} VP",
                  "each category is worth its percentage of the Pot", "R3-05")]
    steps += [Step(f"{names.get(p.player, p.name)}: {p.measure(category)} {_unit(category, p.measure(category))}",
                   "each player's measure now, as at the end of play (negative income or wealth counts as 0)", "R3-06",
                   (), frozenset({names.get(p.player, p.name)})) for p in table.players]
    steps.append(Step(f"In play: {line.total} {_unit(category, line.total)}", "the sum of the players' measures",
                      "R3-06"))
    if line.rate is not None:
        steps.append(Step(f"{exact_text(line.vp)} VP ÷ {line.total} = {line.rate_text()} (shown rounded; a "
                          "score uses the exact share)", "the Forecast shows what one unit is worth", "R3-08"))
    return Derivation(f"{category.label} in the Forecast", line.text(), tuple(steps), value=line.text())


def forecast_explained(subject: str, table: Table, names: Mapping[int, str], only: Category | Award | None = None,
                       events: tuple[int, ...] = (), *, ended: bool = False) -> Derivation:
    """``victory.forecast`` of ``table``, every category (or ``only`` one, or one award) as a part; ``ended``: the
    game has ended, so these are the rates it was scored at, not "if the game ended now" (play-test W7)."""
    result = forecast(table)
    if isinstance(only, Award):
        vp = dict(result.singular)[only]
        w = table.weights.get(only, 0)
        return Derivation(f"{subject}: {only.title}", f"{exact_text(vp)} VP", (
            pot_step(table, events),
            Step(f"{only.title}: {w}% of the Pot {exact_text(table.pot)} = {exact_text(vp)} VP", "each singular award "
                 "is worth its weight in percent of the Pot", "R3-10")), value=vp)
    categories = [only] if only is not None else list(Category)
    parts = tuple(category_part(table, c, names) for c in categories)
    value = (result.pot, tuple(p.value for p in parts))
    return Derivation(subject, f"Pot {exact_text(result.pot)} VP", (pot_step(table, events),), value=value,
                      parts=parts, note=("The game has ended: these are the rates of its final scores (`/why "
                                         "what:score` explains a player's); goals and prestige are on top of it."
                                         if ended else "If the game ended now; goals and prestige are on top of it."))


def _place(place: int) -> str:
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def _share(table: Table, category: Category, holder: Holdings, row: ScoreRow) -> Derivation:
    """A category of a score: the share ``final_scores`` computed (exact, then its floor)."""
    cp = table.pot * table.percentages.get(category, 0) / 100
    total = sum(p.measure(category) for p in table.players)
    q = holder.measure(category)
    vp, name = row.categories[category], row.name
    mine = frozenset({name})
    if not total:
        steps = (Step(f"Nothing in play in {category.label}: 0 VP to everyone", "a category nobody holds gives 0",
                      "R3-07"),)
    else:
        steps = (Step(f"{category.label}: {exact_text(cp)} VP × {name}'s {q} of {total} in play = "
                      f"{exact_text(row.exact[category])}, rounded down: {vp}", "a player's share of a category is "
                      "its VP times their part of what is in play, rounded down", "R3-05, R3-07", (), mine),)
    return Derivation(category.label, f"{vp} VP", steps, value=vp)


def _award(table: Table, award: Award, vp: int, winners: int) -> Derivation:
    worth = table.pot * table.weights.get(award, 0) / 100
    if award is Award.UNOPPOSED_CHANCELLOR:
        how = "more than half of the players' votes"
    elif award in OWN_ALL:
        how = f"owns all {table.luxuries_in_play.get(OWN_ALL[award], 0)} in play"
    else:
        how = "the most"  # not how many: a player's measures (their votes, ...) are theirs
    shared = f" ÷ {winners} winners" if winners > 1 else ""
    return Derivation(award.title, f"{vp} VP", (Step(
        f"{award.title}: {how}; {table.weights.get(award, 0)}% of the Pot = {exact_text(worth)} VP{shared}, rounded "
        f"down: {vp}", "a singular award is worth its weight of the Pot, shared evenly on a tie, rounded down",
        "R3-10, R3-11, R3-12"),), value=vp)


def score_explained(subject: str, table: Table, player: int, *, majority_winner: int | None = None,
                    only: Category | Award | None = None, events: tuple[int, ...] = ()
                    ) -> tuple[FinalScores, Derivation]:
    """``victory.final_scores`` of ``table`` (percentages as they stand) and the derivation of ``player``'s row:
    each category and award won as a part (or ``only`` one), goals, prestige, the total, place and title."""
    scores = final_scores(table, majority_winner=majority_winner, confirmed=True)
    row = next((r for r in scores.rows if r.player == player), None)
    if row is None:
        raise RuleError("That player was not in play at the end, so they have no score.")
    holder = next(p for p in table.players if p.player == player)
    won = dict(row.singular)
    winners = {a: (len(most(table, a)) if a not in OWN_ALL and a is not Award.UNOPPOSED_CHANCELLOR else 1)
               for a in won}
    parts = [_share(table, c, holder, row) for c in Category]
    parts += [_award(table, a, vp, winners[a]) for a, vp in row.singular]
    if only is not None:
        label = only.label if isinstance(only, Category) else only.title
        found = [p for p in parts if p.subject == label]
        if not found:
            assert isinstance(only, Award)
            return scores, Derivation(f"{subject}: {only.title}", "0 VP", (Step(
                f"{row.name} did not win {only.title}", "only its winners score a singular award", "R3-10"),),
                value=0)
        return scores, Derivation(f"{subject}: {label}", found[0].result, (pot_step(table, events),),
                                  value=found[0].value, parts=tuple(found))
    categories = sum(row.categories.values())
    awards = sum(won.values())
    steps = [pot_step(table, events),
             Step(f"Goals achieved: {row.goals} VP; prestige: {row.prestige} VP", "goals and prestige add their VP, "
                  "outside the Pot", "R3-15, R3-16"),
             Step(f"Score: categories {categories} + awards {awards} + goals {row.goals} + prestige {row.prestige} "
                  f"= {row.total} VP, {_place(row.place)}", "the score is the sum; equal scores share a place",
                  "R3-17, R3-18")]
    if row.title is not None and row.player == majority_winner:
        steps.append(Step(f"{row.title}: won by a majority of the votes", "the Chancellor wins by majority",
                          "R3-18, R3-20"))
    else:
        n = table.joined
        if row.title in TITLES:
            k = TITLES.index(row.title)
            steps.append(Step(f"Title: 6 × {n} × {row.total} = {6 * n * row.total} ≥ Pot {exact_text(table.pot)} × "
                              f"(6 + {k}) = {exact_text(table.pot * (6 + k))}: {TITLES[k]}",
                              "the highest title whose threshold the score meets", "R3-19"))
        else:
            steps.append(Step(f"No title: {row.total} VP is below the Baron's Pot ÷ {n} = "
                              f"{exact_text(table.pot / n)}", "a title needs at least the Pot per player", "R3-19"))
    value = (row.total, row.place, row.title, tuple(row.categories[c] for c in Category), tuple(row.singular),
             row.goals, row.prestige)
    text = f"{row.total} VP, {_place(row.place)}" + (f", {row.title}" if row.title else "")
    return scores, Derivation(subject, text, tuple(steps), value=value, parts=tuple(parts))


__all__ = ["category_part", "forecast_explained", "named", "pot_step", "score_explained"]
