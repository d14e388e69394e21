"""The Landsdraad rules that post numbers return their derivation from the same computation (issue 19): the steps
of TV0-S01 (Jenny's votes), TV0-S04 (the 8000 MS audit) and TV0-S05 (the Sirius factions), and what a step's
secrecy keeps from whom."""

from engine.core.derivation import lines
from engine.landsdraad.audit import audit_quote, audit_quote_explained
from engine.landsdraad.crisis import Voter, resolve_explained
from engine.landsdraad.factions import make_faction
from engine.landsdraad.model import Attributes, Elector, Option, Planet, Quality, Tier
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
