"""The Landsdraad rules that post numbers return their derivation from the same computation (issue 19): the steps
of TV0-S01 (Jenny's votes), TV0-S04 (the 8000 MS audit) and TV0-S05 (the Sirius factions), a score and the
Forecast, and what a step's secrecy keeps from whom."""

from fractions import Fraction

import pytest

from engine.core.derivation import lines
from engine.core.errors import RuleError
from engine.landsdraad.audit import audit_quote, audit_quote_explained
from engine.landsdraad.crisis import Voter, resolve_explained
from engine.landsdraad.factions import make_faction
from engine.landsdraad.model import Attributes, Elector, Option, Planet, Quality, Tier
from engine.landsdraad.victory import Category, Holdings, Table, final_scores, forecast
from engine.landsdraad.victory_explained import forecast_explained, named, score_explained
from engine.landsdraad.votes import vote_breakdown, vote_breakdown_explained


def test_tv0_s01_jennys_25_votes_step_by_step() -> None:
    attrs = Attributes.start(3, 2, 2, 3).with_scores(diplomacy=4)
    electors, planets = [Elector("Count Jasek", Tier.AVERAGE, 5)], [Planet("Deneb", Quality.AVERAGE),
                                                                    Planet("Kaitain", None, homeworld=True)]
    breakdown, why = vote_breakdown_explained("jenny's votes", attrs, electors, planets, attribute_events=(2, 3),
                                              holding_events={"Deneb": (5,)}, seen_by=frozenset({"jenny"}))
    assert breakdown == vote_breakdown(attrs, electors, planets) and why.value == 25
    says = [s.says for s in why.steps]
    assert says[0] == "Base vote: 2 × highest Diplomacy 4 + highest Intrigue 2 + the d3 roll 3 = 13"
    assert says[1] == "Count Jasek (average Elector): 5 votes; Diplomacy 4 ≥ 4: +2"
    assert says[2] == "Deneb (average planet): 3 votes; Diplomacy 4 ≥ 4: +2"
    assert says[3] == "Kaitain (Homeworld): 0 votes, no bonus"
    assert says[-1] == "Total: base 13 + Electors 5 + planets 3 + other 0 + Diplomacy Bonus 4 = 25"
    assert why.steps[0].events == (2, 3) and why.steps[2].events == (5,)
    assert why.seen_by("bob", moderator=False).withheld == len(why.steps)  # a player's votes are theirs


def test_tv0_s04_the_8000_ms_audit_and_a_share_rounded_down() -> None:
    quote, why = audit_quote_explained("Bob's audit", 4, 10, [1, 2, 3], events=(41,))
    assert quote == audit_quote(4, 10, [1, 2, 3]) and why.value == (8000, 800)
    assert "Fee: 1000 + 100 × 10 active players + 1000 × ((4 − 1) + (4 − 2) + (4 − 3)) = 8000 MS" in why.steps[1].says
    _, down = audit_quote_explained("q", 2, 3, [], down=True)
    assert down.value == (1300, 433) and "rounded down = 433 MS" in down.steps[2].says


def test_tv0_s05_the_factions_and_a_ballot_only_its_voter_sees() -> None:
    factions = [make_faction("Hawks", 20, "aye", None), make_faction("Doves", 12, "nay", None),
                make_faction("Boars", 12, "d6", "1-3 nay, 4 abstain, 5-6 aye")]
    voters = [Voter("jenny", 25, Option.NAY, (24,)), Voter("bob", 7, None)]
    result, why = resolve_explained("Round 3", voters, factions, {"Boars": 4}, (26,), {"Hawks": (21,)})
    assert result.tally.aye == 20 and result.tally.nay == 37 and result.tally.abstain == 19
    assert why.value == ("failed", 20, 37, 19, 76, 29)
    assert why.steps[0].events == (21, 26)
    assert "Boars (12 votes) rolled 4 on `1-3 nay, 4 abstain, 5-6 aye`: Abstain" in why.steps[2].says
    jenny = "\n".join(lines(why.seen_by("jenny", moderator=False), moderator=False))
    assert "jenny: 25 votes, all for Nay" in jenny and "bob" not in jenny and "R0-" not in jenny
    assert "Nay: Doves 12 + the players 25 = 37" in jenny
    assert "Aye 20 < 29 needed: failed" in jenny and "steps withheld" in jenny
    mod = "\n".join(lines(why, moderator=True))
    assert "bob: 7 votes, no ballot, so they abstain" in mod and "Abstain: Boars 12 + bob 7 = 19" in mod
    assert "(R0-18)" in mod and "withheld" not in mod


def short_game() -> Table:
    """Three players: votes 30/20/10, Forces 16/12/10 (militia), 2/3/1 planets; N = 3, Pot 1600."""
    return Table((Holdings(1, "anna", votes=30, units={"militia": 16}, planets=2, goals=40, prestige=5),
                  Holdings(2, "boris", votes=20, units={"militia": 12}, planets=3),
                  Holdings(3, "chen", votes=10, units={"militia": 10}, planets=1)), joined=3)


def test_a_score_is_final_scores_row_laid_out_with_each_category_and_award() -> None:
    table = short_game()
    scores, why = score_explained("anna's score", table, 1)
    row = final_scores(table, confirmed=True).rows[0]
    assert scores.rows[0] == row and why.value[0] == row.total and why.value[2] == row.title
    military = next(p for p in why.parts if p.subject == "Military")
    assert military.value == 67 and "160 VP × anna's 16 of 38 in play = 1280/19, rounded down: 67" in \
        military.steps[0].says
    public = "\n".join(lines(why.seen_by("boris", moderator=False), moderator=False))
    assert "anna's 16" not in public and "**Military**: 67 VP" in public and "withheld" in public
    assert "First Among Equals: the most; 2% of the Pot = 32 VP, rounded down: 32" in public
    _, votes = score_explained("anna's score", table, 1, only=named("votes"))
    assert votes.value == row.categories[Category.VOTES] == 120
    _, lost = score_explained("chen's score", table, 3, only=named("spymaster"))
    assert lost.value == 0 and "chen did not win Spymaster" in lost.steps[0].says


def test_the_forecast_is_victory_forecast_with_each_players_measure_theirs_only() -> None:
    table = short_game()
    why = forecast_explained("Forecast", table, {1: "anna", 2: "boris", 3: "chen"})
    assert why.value == (table.pot, tuple(line.text() for line in forecast(table).lines))
    seen = "\n".join(lines(why.seen_by("chen", moderator=False), moderator=False))
    assert "chen: 10 votes" in seen and "anna: 30" not in seen and "In play: 60 votes" in seen
    assert "Pot: 1000 + 200 × 3 players who joined = 1600 VP" in seen
    award = forecast_explained("Forecast", table, {}, named("Unopposed Chancellor"))
    assert award.value == Fraction(48)
    with pytest.raises(RuleError, match=r"neither a category nor an award.*Military"):
        named("weather")
