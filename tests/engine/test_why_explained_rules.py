"""The pure rules' derivations for ``/why`` in Mylantium and the Convocate (issue 19): each is made by the function
that computes the number (the plain function returns the same result), its steps name their rule in words and by id,
and a step on a secret (a choice, a treasury, a contribution) is seen only by its Faction's player."""

from __future__ import annotations

from convocate_f4 import character, f4, location, statute

from engine.convocate.factors import push_cost, steps_explained
from engine.convocate.repeal import repeal, repeal_explained
from engine.convocate.votes import Line, control_explained, standing_explained, standing_vote, standing_votes
from engine.core.derivation import lines
from engine.mylantium.approval import approval_change, approval_explained
from engine.mylantium.business import Happening, InPlay, Occurrence
from engine.mylantium.elections import Candidate, Known, general, general_explained
from engine.mylantium.fervor import fervor_explained
from engine.mylantium.model import FactionCode as C
from engine.mylantium.model import Party
from engine.mylantium.revolution import Attempt, Contribution
from engine.mylantium.revolution_why import attempt_explained

VOTES = {C.PL: 10, C.GR: 14, C.BH: 20, C.PR: 20}
CHOICES = {C.PL: Party.WHIG, C.GR: Party.WHIG, C.BH: Party.FEDERALIST, C.PR: Party.FEDERALIST}
NOMINEES = {Party.WHIG: Candidate("Lee", C.PL, Party.WHIG, 7), Party.FEDERALIST: Candidate("Kim", C.PR,
                                                                                            Party.FEDERALIST, 5)}
PLAYERS = {C.PL: "pat", C.GR: "gus", C.BH: "bea", C.PR: "pru", C.SH: "sam"}


def test_tv1_i04_the_general_election_and_its_steps() -> None:
    """TV1-I04 / TV1-S02: 44 against 64; I = 32 split 19/13 at 60%; the derivation's value is the result's."""
    result, why = general_explained(NOMINEES, CHOICES, VOTES, Party.FEDERALIST, 60, known=Known(PLAYERS))
    assert result == general(NOMINEES, CHOICES, VOTES, Party.FEDERALIST, 60)
    assert why.value == {"whig": 44, "federalist": 64}
    says = [s.says for s in why.steps]
    assert "Independent Vote: I = F/2 = 64/2 → **32** (rounded half up)" in says
    assert any("32 × 60/100 = 19.2 → **19**" in s and "remaining 32 − 19 = **13**" in s for s in says)
    assert all(s.rule and s.rule_id for s in why.steps)
    pat = why.seen_by("pat", moderator=False)
    assert [s.says for s in pat.steps if " chose **" in s.says] == ["The Plutocrats (10 Faction Votes at the close) "
                                                                  "chose **Whig**."]
    assert pat.withheld == 3
    assert why.seen_by(None, moderator=False).withheld == 4


def test_a_tied_general_election_keeps_the_incumbent_and_says_so() -> None:
    votes = {C.PL: 20, C.BH: 20}
    result, why = general_explained({}, {C.PL: Party.WHIG, C.BH: Party.FEDERALIST}, votes, Party.WHIG, 50)
    assert result.tie and result.winner is Party.WHIG
    assert why.steps[-1].says == "Whig 30 ties Federalist 30: the **Whigs** win (a tie keeps the incumbent party)"


def test_approval_and_fervor_are_explained_by_the_functions_that_apply_them() -> None:
    """R1-21, P1-05: 95 + 16 + 12 = 123, clamped to 100; R1-31: an Income Tax and 3 Tariffs, +2."""
    happened = [Occurrence(Happening.INCOME_TAX_ABOLISHED), Occurrence(Happening.WAR_DECLARED)]
    result, why = approval_explained(95, happened, InPlay(), events=(9,), recorded=[(4,), (5,)])
    assert result == approval_change(95, happened, InPlay()) and why.value == 100
    assert [s.says for s in why.steps] == ["Start: 95%", "+16: Income Tax abolished", "+12: war declared",
                                           "95 + 16 + 12 = 123, clamped to **100**%"]
    assert [s.events for s in why.steps[1:3]] == [(4, 9), (5, 9)]
    fervor, fwhy = fervor_explained(InPlay(income_tax=30, tariffs=3), [], 0, start=4)
    assert fervor.total == 2 and fwhy.value == (2, 6) and fwhy.result == "+2: now 6"
    assert {s.rule_id for s in fwhy.steps[:2]} == {"R1-31"}


def test_a_revolutions_money_is_seen_only_by_its_faction() -> None:
    """P1-19: after the result only the totals are public; each contribution and the Vanguard's own treasury are
    its Faction's player's (and the moderators')."""
    attempt = Attempt(2, C.PR, funding=0, funding_why="nothing", treasury=55, s=38, begun=True,
                      contributions={C.PL: Contribution(10), C.SH: Contribution(0, 3), C.GR: Contribution(50)},
                      outcome="put down", fervor=3)
    why = attempt_explained(attempt, PLAYERS, {C.PL: (32,)}, (38,))
    assert why.value == (60, 58)
    public = "\n".join(lines(why.seen_by("gus", moderator=False), moderator=False))
    assert "The Grangers gave $50" in public and "Plutocrats gave" not in public and "drawn for" not in public
    assert "Counter-Revolutionary Treasury: **$60**; the Vanguard: $55 + $3 contributed = $58" in public
    assert "$60 ≥ $58: the Revolution is put down" in public and "P1-19" not in public
    pru = why.seen_by("pru", moderator=False)
    assert any(s.says.startswith("The Proles' treasury $55 + $0") for s in pru.steps)
    assert next(s for s in why.steps if s.says.startswith("The Plutocrats")).events == (32, 38)
    open_attempt = attempt_explained(Attempt(1, C.PR, treasury=55, s=38, begun=True,
                                             contributions={C.PL: Contribution(10)}), PLAYERS)
    assert open_attempt.value is None and open_attempt.result == "under way"


def test_tv4_s02_a_push_costs_every_step_in_full() -> None:
    """TV4-S02 / P4-07: 0 → +4 costs 5 + 6 + 7 + 8 = 26."""
    costs, why = steps_explained(0, 4, (30,))
    assert costs == [5, 6, 7, 8] and push_cost(0, 4) == 26 == why.value
    assert why.steps[-1].says == "Cost: 5 + 6 + 7 + 8 = **26** committed Votes"
    assert steps_explained(-2, -3)[1].steps[0].says == "−2 → −3: 4 + 3 = 7"


def test_the_standing_vote_and_a_repeal_count_from_the_same_lines() -> None:
    """R4-04, R4-05, R4-17/P4-06: the derivation's totals are ``standing_vote``'s; a tie keeps the Statute."""
    board = f4(0, character("K_A", "A", 1, at="HW_A"), location("LA", "A", 2), location("LB", "B", 2),
               location("LB2", "B", 2), seats=()).with_statute(statute("X", "B"))
    vote, why = standing_explained(board, "A", {"LA": (7,)})
    assert vote == standing_vote(board, "A") and why.value == vote.total
    assert next(s for s in why.steps if s.says.startswith("LA")).events == (7,)
    control = control_explained(board)
    assert control.value == standing_votes(board) and len(control.parts) == len(board.players)
    _, done = repeal(board, "A", "X", "K_A")
    counted = repeal_explained("X", "A", "B", "K_A", "after", done.mover_lines, done.controller_lines)
    assert counted.value == (done.mover_votes, done.controller_votes)
    assert counted.result.endswith("repealed" if done.destroyed else "not repealed")
    tie = repeal_explained("X", "A", "B", "K_A", "after", (Line("LA", 2),), (Line("LB", 2),))
    assert tie.steps[-1].says == "2 = 2: X stays (a tie goes to the controller)"
