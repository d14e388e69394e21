"""R1-40..R1-46 and R1-50: revolutions, counter-revolutions, periods of anarchy and military coups.

"A Revolution begins at the moment that a Faction comes to have 0 Victory Points ... If the amount of money in the
Vanguard's treasury is greater than the sum of all the Victory Points so far awarded in the game, then a Revolution
has successfully begun ... If the resulting [Counter-Revolutionary] treasury is less than the Vanguard's treasury,
the Vanguard has succeeded ... Immediately after a Revolution is put down, Fervor rises by 3 points ... Any time a
Revolution is attempted, the Brass Hat may attempt a coup ..."
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core.errors import RuleError
from engine.mylantium.model import AVALON, Building, Faction, FactionCode, Party, Territory, Unit, UnitStatus
from engine.mylantium.revolution import (
    Assets,
    Chain,
    Contribution,
    Step,
    Waiting,
    answer_coup,
    call_off,
    chain_of,
    chain_to_dict,
    check_contribution,
    contributors,
    funding,
    resolve,
    start,
    vanguard_order,
)

C = FactionCode
NO_ASSETS = Assets()


def factions(vp: dict[str, int], treasury: dict[str, int] | None = None) -> tuple[Faction, ...]:
    money = treasury or {}
    return tuple(Faction(C[k], Party.WHIG, v, money.get(k, 0)) for k, v in vp.items())


def by_code(step: Step) -> dict[FactionCode, Faction]:
    return {f.code: f for f in step.factions}


# -- R1-41 precedence ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("at_zero", "order"), [
    (["RN", "GR", "SH", "BU"], ["SH", "RN", "GR", "BU"]),
    (["PL", "RB"], ["RB", "PL"]),
    (["PL", "BH", "PR"], ["BH", "PR", "PL"]),
])
def test_TV1_I10_vanguard_precedence_when_several_factions_are_at_0(at_zero: list[str], order: list[str]) -> None:
    """TV1-I10 (R1-41): BH > PR > SH > RN > GR > BU > RB > PL."""
    vp = {c.name: (0 if c.name in at_zero else 5) for c in C}
    assert [c.name for c in vanguard_order(factions(vp))] == order


# -- R1-43 funding and the begin test ----------------------------------------------------------------------------

I08_VP = {"PL": 11, "RB": 8, "GR": 6, "SH": 4, "BH": 7, "PR": 0, "BU": 5, "RN": 3}


@pytest.mark.parametrize(("treasury", "begins"), [(44, False), (45, True)])
def test_TV1_I08_revolution_begin_test_at_the_boundary(treasury: int, begins: bool) -> None:
    """TV1-I08 (R1-43, P1-12): S = 44; the Proles begin only with more than 44; with 44 they are crushed,
    withdraw, and Fervor does not change."""
    step = start(factions(I08_VP, {"PR": treasury}), NO_ASSETS)
    assert step.chain.waiting is Waiting.COUP  # the Brass Hats are asked first (P1-23)
    step = answer_coup(step.chain, step.factions, NO_ASSETS, accept=False)
    (attempt,) = step.chain.attempts
    assert (attempt.vanguard, attempt.s, attempt.begun) == (C.PR, 44, begins)
    if begins:
        assert step.chain.waiting is Waiting.CONTRIBUTIONS
    else:
        assert attempt.outcome == "crushed" and attempt.fervor == 0
        assert not by_code(step)[C.PR].in_play
        assert step.chain.waiting is Waiting.NOTHING and step.chain.fervor == 0
        assert {c: f.vp for c, f in by_code(step).items() if c is not C.PR} == {
            C[k]: v for k, v in I08_VP.items() if k != "PR"}


def test_R1_43_funding_by_faction() -> None:
    """R1-43: SH $5 a temple; BH 3× maintenance of units on station or in battle; GR $3 a village; RN $5 a city,
    temple or port in Avalon plus the purchase cost of units on station there; the others nothing."""
    assets = Assets(
        territories=(Territory(AVALON, {Building.PORT: 3, Building.CITY: 1, Building.TEMPLE: 2, Building.VILLAGE: 4}),
                     Territory("Bicardia", {Building.PORT: 2, Building.TEMPLE: 1, Building.VILLAGE: 6})),
        units=(Unit("1st Foot", AVALON, maintenance=2, cost=10),
               Unit("Fleet", "Bicardia", maintenance=5, cost=30, status=UnitStatus.IN_BATTLE),
               Unit("Reserve", AVALON, maintenance=7, cost=40, status=UnitStatus.ELSEWHERE),
               Unit("Cavalry", AVALON, maintenance=1, cost=8, status=UnitStatus.IN_BATTLE)))
    assert funding(C.SH, assets)[0] == 15
    assert funding(C.BH, assets)[0] == 3 * (2 + 5 + 1)
    assert funding(C.GR, assets)[0] == 30
    assert funding(C.RN, assets)[0] == 5 * (3 + 1 + 2) + 10
    for code in (C.PL, C.RB, C.PR, C.BU):
        assert funding(code, assets)[0] == 0


# -- R1-44 counter-revolution --------------------------------------------------------------------------------

ASSETS = Assets(territories=(Territory(AVALON, {Building.TEMPLE: 2, Building.VILLAGE: 3}),),
                units=(Unit("Guard", AVALON, 4, 20),))


def begun(vp: dict[str, int], treasury: dict[str, int]) -> Step:
    step = start(factions(vp, treasury), ASSETS)
    if step.chain.waiting is Waiting.COUP:
        step = answer_coup(step.chain, step.factions, ASSETS, accept=False)
    assert step.chain.waiting is Waiting.CONTRIBUTIONS
    return step


def test_R1_44_counter_revolutionary_money_for_SH_GR_BH_only() -> None:
    """R1-44.1: SH $5 a temple, GR $3 a village, BH 3× maintenance; nobody else."""
    step = begun({"PR": 0, "SH": 5, "GR": 5, "BH": 5, "PL": 5}, {"PR": 100})
    assert step.chain.attempts[0].bonus == {C.SH: 10, C.GR: 9, C.BH: 12}
    money = {c: f.treasury for c, f in by_code(step).items()}
    assert money == {C.PR: 100, C.SH: 10, C.GR: 9, C.BH: 12, C.PL: 0}


def test_R1_44_the_vanguard_wins_when_the_crt_is_less() -> None:
    """R1-44.4: CRT < Vanguard treasury (its contributions included) → the Vanguard wins; contributions are paid
    and never returned (R1-44.3)."""
    step = begun({"PR": 0, "PL": 20, "RB": 20}, {"PR": 50, "PL": 40, "RB": 40})
    assert contributors(step.chain, step.factions) == (C.PL, C.RB)
    done = resolve(step.chain, step.factions, ASSETS, {C.PL: Contribution(30), C.RB: Contribution(10, 5)})
    attempt = done.chain.attempts[-1]
    assert (attempt.crt, attempt.vanguard_total, attempt.outcome) == (40, 55, "won")
    assert done.chain.ended == "won" and done.chain.winner is C.PR
    money = {c: f.treasury for c, f in by_code(done).items()}
    assert money == {C.PR: 55, C.PL: 10, C.RB: 25}


def test_R1_44_put_down_when_the_crt_is_equal_and_fervor_rises_by_3_at_once() -> None:
    """R1-44.5, P1-10: CRT ≥ the Vanguard's treasury puts it down: it withdraws and every Faction in play loses 3 VP
    at once."""
    step = begun({"PR": 0, "PL": 20, "RB": 20}, {"PR": 50, "PL": 40, "RB": 40})
    done = resolve(step.chain, step.factions, ASSETS, {C.PL: Contribution(30), C.RB: Contribution(20)})
    attempt = done.chain.attempts[-1]
    assert (attempt.crt, attempt.outcome, attempt.fervor) == (50, "put down", 3)
    assert attempt.lost == {C.PL: 3, C.RB: 3}
    f = by_code(done)
    assert not f[C.PR].in_play and (f[C.PL].vp, f[C.RB].vp) == (17, 17)
    assert done.chain.waiting is Waiting.NOTHING and done.chain.ended is None


def test_P1_22_no_contribution_by_the_deadline_is_zero_and_pledges_are_checked() -> None:
    """P1-22: whole dollars from 0 to the treasury; a Faction that sends nothing gives $0."""
    step = begun({"PR": 0, "PL": 20, "RB": 20}, {"PR": 50, "PL": 40, "RB": 40})
    with pytest.raises(RuleError, match=r"\$41 in all, but the Plutocrats have \$40"):
        check_contribution(step.chain, step.factions, C.PL, Contribution(41))
    with pytest.raises(RuleError, match="Vanguard"):
        check_contribution(step.chain, step.factions, C.PR, Contribution(1))
    done = resolve(step.chain, step.factions, ASSETS, {C.PL: Contribution(40)})
    assert done.chain.attempts[-1].contributions[C.RB] == Contribution(0, 0)
    assert done.chain.ended == "won"


def test_a_pledge_above_a_treasury_lowered_since_pays_what_is_there() -> None:
    step = begun({"PR": 0, "PL": 20}, {"PR": 50, "PL": 40})
    poorer = tuple(Faction(f.code, f.party, f.vp, 10 if f.code is C.PL else f.treasury) for f in step.factions)
    done = resolve(step.chain, poorer, ASSETS, {C.PL: Contribution(30, 5)})
    assert done.chain.attempts[-1].contributions[C.PL] == Contribution(10, 0)


# -- R1-45 periods of anarchy ----------------------------------------------------------------------------------


def test_R1_45_a_put_down_that_pushes_another_faction_to_0_starts_the_next_link_without_money() -> None:
    """R1-45, P1-21: RB falls from 3 to 0 when the Proles are put down; its Revolution is in the same chain, so the
    counter-revolutionaries get no more money."""
    step = begun({"PR": 0, "RB": 3, "SH": 20, "PL": 20}, {"PR": 60, "RB": 100, "PL": 60})
    assert step.chain.attempts[0].bonus == {C.SH: 10}
    step = resolve(step.chain, step.factions, ASSETS, {C.SH: Contribution(10), C.PL: Contribution(50)})
    assert step.chain.attempts[0].outcome == "put down"
    assert [a.vanguard for a in step.chain.attempts] == [C.PR, C.RB]
    second = step.chain.attempts[1]
    assert second.begun and second.s == 17 + 17 and second.bonus == {}
    assert step.chain.waiting is Waiting.CONTRIBUTIONS


def test_P1_21_a_crushed_vanguard_leaves_the_money_for_the_next_one_that_begins() -> None:
    """P1-21: two Factions at 0; the first is crushed (it never began), so the money goes to the second's
    counter-revolutionaries."""
    step = start(factions({"PR": 0, "GR": 0, "SH": 5, "PL": 10}, {"PR": 1, "GR": 50}), ASSETS)
    crushed, second = step.chain.attempts
    assert (crushed.vanguard, crushed.outcome) == (C.PR, "crushed")
    assert second.vanguard is C.GR and second.begun and second.bonus == {C.SH: 10}


def test_P1_11_social_collapse_is_checked_before_the_next_revolution() -> None:
    """P1-11: a put-down that takes S below 10 ends the game with no winner."""
    step = begun({"PR": 0, "PL": 6, "RB": 6}, {"PR": 30, "PL": 40})
    done = resolve(step.chain, step.factions, ASSETS, {C.PL: Contribution(40)})
    assert done.chain.ended == "collapse" and done.chain.winner is None
    assert sum(f.vp for f in done.factions if f.in_play) == 6


# -- R1-42 and R1-46 military coup -----------------------------------------------------------------------------

I11_VP = {"PL": 10, "RB": 9, "GR": 8, "SH": 7, "BH": 6, "PR": 0, "BU": 5, "RN": 4}
I11_TREASURY = {"PL": 30, "RB": 20, "GR": 10, "SH": 10, "BH": 20, "PR": 70, "BU": 10, "RN": 10}
I11_ASSETS = Assets(units=(Unit("Dragoons", AVALON, maintenance=5, cost=25),))


def test_TV1_I11_military_coup_succeeds() -> None:
    """TV1-I11 (R1-42, R1-46, P1-13): BH's treasury 20 + 3·5 = 35, no comparison with S = 49; CRT 10 + 20 + 4 =
    34 < 35: BH wins and the game ends."""
    step = start(factions(I11_VP, I11_TREASURY), I11_ASSETS)
    assert step.chain.waiting is Waiting.COUP and step.chain.current is not None
    assert step.chain.current.vanguard is C.PR
    step = answer_coup(step.chain, step.factions, I11_ASSETS, accept=True)
    attempt = step.chain.current
    assert attempt is not None
    assert (attempt.vanguard, attempt.forestalled, attempt.coup, attempt.s) == (C.BH, C.PR, True, None)
    assert attempt.treasury == 35 and attempt.bonus == {}
    assert C.PR in contributors(step.chain, step.factions)  # the forestalled Vanguard may contribute
    done = resolve(step.chain, step.factions, I11_ASSETS,
                   {C.PL: Contribution(10), C.PR: Contribution(20), C.RB: Contribution(4)})
    assert done.chain.attempts[-1].crt == 34
    assert (done.chain.ended, done.chain.winner) == ("won", C.BH)


def test_R1_46_a_failed_coup_raises_fervor_and_the_forestalled_faction_tries_without_a_second_offer() -> None:
    """R1-46.5..6, P1-21: BH withdraws, Fervor +3, then the Proles attempt their own Revolution in the same chain:
    BH is gone, so there is no coup offer, and no counter-revolutionary money."""
    step = start(factions(I11_VP, I11_TREASURY), I11_ASSETS)
    step = answer_coup(step.chain, step.factions, I11_ASSETS, accept=True)
    step = resolve(step.chain, step.factions, I11_ASSETS, {C.PL: Contribution(30), C.RB: Contribution(5)})
    coup, revolution = step.chain.attempts
    assert (coup.outcome, coup.fervor) == ("put down", 3)
    f = by_code(step)
    assert not f[C.BH].in_play and f[C.PL].vp == 7 and f[C.RN].vp == 1
    assert revolution.vanguard is C.PR and not revolution.coup and revolution.bonus == {}
    assert revolution.s == 7 + 6 + 5 + 4 + 2 + 1 and revolution.begun  # 25 < 70
    assert step.chain.waiting is Waiting.CONTRIBUTIONS


def test_R1_46_6_a_faction_of_higher_precedence_that_fell_to_0_goes_before_the_forestalled_one() -> None:
    """R1-46.6: "The Factions whose Revolution he forestalled then attempts his Revolution (unless another Faction
    who takes precedence has in the meantime fallen to zero points)". The failed coup's +3 takes the Snake-Handlers
    from 3 to 0; they precede the Grangers, so they go first (and, penniless, are crushed); then the Grangers."""
    vp = {"PL": 20, "SH": 3, "BH": 6, "GR": 0, "PR": 9}
    step = start(factions(vp, {"GR": 100, "BH": 0}), NO_ASSETS)
    assert step.chain.current is not None and step.chain.current.vanguard is C.GR
    step = answer_coup(step.chain, step.factions, NO_ASSETS, accept=True)
    step = resolve(step.chain, step.factions, NO_ASSETS, {})  # BH $0 against a CRT of $0: put down
    coup, sh, gr = step.chain.attempts
    assert (coup.vanguard, coup.forestalled, coup.outcome) == (C.BH, C.GR, "put down")
    assert (sh.vanguard, sh.outcome, sh.coup) == (C.SH, "crushed", False)
    assert (gr.vanguard, gr.begun, gr.s) == (C.GR, True, 17 + 6)
    assert step.chain.waiting is Waiting.CONTRIBUTIONS


def test_P1_23_the_coup_is_offered_before_funding_and_once_per_attempt() -> None:
    """P1-23: nothing is funded or compared while BH decides; declining goes on with the Vanguard; the next attempt
    of the chain is offered again."""
    step = start(factions({"PR": 0, "GR": 0, "BH": 5, "PL": 30}, {"PR": 1, "GR": 1}), NO_ASSETS)
    assert step.chain.waiting is Waiting.COUP
    attempt = step.chain.current
    assert attempt is not None and attempt.funding == 0 and attempt.s is None
    step = answer_coup(step.chain, step.factions, NO_ASSETS, accept=False)  # PR crushed (1 ≤ 35)
    assert step.chain.waiting is Waiting.COUP and step.chain.current is not None
    assert step.chain.current.vanguard is C.GR and step.chain.attempts[0].coup_declined
    with pytest.raises(RuleError, match="No Revolution"):
        resolve(step.chain, step.factions, NO_ASSETS, {})


def test_no_coup_offer_when_the_brass_hats_are_the_vanguard_or_gone() -> None:
    """R1-42."""
    assert start(factions({"BH": 0, "PL": 30}, {"BH": 50}), NO_ASSETS).chain.waiting is Waiting.CONTRIBUTIONS
    gone = (Faction(C.BH, Party.WHIG, 5, 0, in_play=False), *factions({"PR": 0, "PL": 30}, {"PR": 50}))
    assert start(gone, NO_ASSETS).chain.waiting is Waiting.CONTRIBUTIONS
    with pytest.raises(RuleError, match="No coup"):
        answer_coup(Chain(), gone, NO_ASSETS, accept=True)


# -- R1-50 / TV1-I13 --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("vp", "s", "collapse"), [
    ({"PL": 5, "RB": 4, "GR": 1, "SH": 1, "BH": 1, "PR": 1, "BU": 1, "RN": 1}, 7, True),
    ({"PL": 6, "RB": 5, "GR": 1, "SH": 1, "BH": 1, "PR": 1, "BU": 1, "RN": 1}, 9, True),
    ({"PL": 7, "RB": 5, "GR": 1, "SH": 1, "BH": 1, "PR": 1, "BU": 1, "RN": 1}, 10, False),
], ids=["S15", "S17", "S18"])
def test_TV1_I13_social_collapse_takes_precedence_over_revolutions(vp: dict[str, int], s: int,
                                                                   collapse: bool) -> None:
    """TV1-I13 (R1-50, R1-40, P1-08, P1-11): Fervor +1; S 7 and 9 collapse with no Revolution; S = 10 does not, and
    BH, first in precedence of the six at 0, is the Vanguard (and is offered no coup)."""
    from engine.mylantium.fervor import deduct

    after, _ = deduct(factions(vp), 1)
    assert sum(f.vp for f in after) == s
    step = start(after, NO_ASSETS)
    if collapse:
        assert step.chain.ended == "collapse" and step.chain.attempts == ()
        if s == 7:
            assert {f.code.name: f.vp for f in after} == {"PL": 4, "RB": 3, "GR": 0, "SH": 0, "BH": 0, "PR": 0,
                                                          "BU": 0, "RN": 0}
    else:
        assert step.chain.ended is None
        assert step.chain.attempts[0].vanguard is C.BH
        assert len(vanguard_order(after)) == 6


# -- a correction during a chain (R1-41: the engine re-evaluates; docs/rulings.md "A Vanguard corrected above 0") --


def corrected(step: Step, code: FactionCode, vp: int) -> tuple[Faction, ...]:
    return tuple(Faction(f.code, f.party, vp, f.treasury, f.in_play) if f.code is code else f for f in step.factions)


def test_a_vanguard_corrected_above_0_while_the_coup_is_offered_is_called_off_not_crushed() -> None:
    """R1-40, R1-41: the Proles were put at 0 VP by mistake; corrected to 20 while the Brass Hats are asked about a
    coup, their attempt is dropped before it is funded or compared with S, and nobody withdraws."""
    step = start(factions({"PR": 0, "BH": 20, "PL": 20}, {"PR": 60}), ASSETS)
    assert step.chain.waiting is Waiting.COUP
    fixed = corrected(step, C.PR, 20)
    after = call_off(step.chain, fixed, ASSETS)
    assert after is not None
    assert after.chain.attempts == () and after.chain.waiting is Waiting.NOTHING and after.chain.ended is None
    assert [(o.vanguard, o.begun, dict(o.took_back)) for o in after.chain.called_off] == [(C.PR, False, {})]
    assert all(f.in_play for f in after.factions) and by_code(after)[C.PR].treasury == 60
    with pytest.raises(RuleError, match="No coup"):
        answer_coup(after.chain, after.factions, ASSETS, accept=False)
    assert call_off(step.chain, step.factions, ASSETS) is None  # still at 0: nothing changes
    assert chain_of(chain_to_dict(after.chain)) == after.chain


def test_a_begun_revolution_called_off_gives_its_money_back_and_the_next_vanguard_gets_the_bonus() -> None:
    """R1-43, R1-44.1, P1-21: the Proles' Revolution had begun (GR given $9 against it); corrected above 0, the
    money its beginning gave is taken back, and the Rednecks, also at 0, are the Vanguard now, with the
    counter-revolutionaries' money still due in the chain (their Revolution is the first to begin)."""
    step = begun({"PR": 0, "RN": 0, "GR": 5, "PL": 10}, {"PR": 100, "RN": 100, "GR": 1})
    assert step.chain.attempts[0].bonus == {C.GR: 9} and by_code(step)[C.GR].treasury == 10
    after = call_off(step.chain, corrected(step, C.PR, 20), ASSETS)
    assert after is not None
    assert [(o.vanguard, o.begun, dict(o.took_back)) for o in after.chain.called_off] == [(C.PR, True, {C.GR: 9})]
    (rn,) = after.chain.attempts
    assert (rn.number, rn.vanguard, rn.begun, rn.s) == (1, C.RN, True, 20 + 5 + 10)
    assert rn.bonus == {C.GR: 9} and by_code(after)[C.GR].treasury == 10 and by_code(after)[C.PR].treasury == 100
    assert after.chain.waiting is Waiting.CONTRIBUTIONS


def test_a_coup_is_not_called_off_by_the_forestalled_factions_correction() -> None:
    """R1-46: the coup goes on; the forestalled Faction's VP are looked at again after it (R1-41)."""
    step = start(factions(I11_VP, I11_TREASURY), I11_ASSETS)
    step = answer_coup(step.chain, step.factions, I11_ASSETS, accept=True)
    assert call_off(step.chain, corrected(step, C.PR, 5), I11_ASSETS) is None


# -- storing ----------------------------------------------------------------------------------------------------


def test_a_chain_survives_the_round_trip_through_json() -> None:
    step = start(factions(I11_VP, I11_TREASURY), I11_ASSETS)
    step = answer_coup(step.chain, step.factions, I11_ASSETS, accept=True)
    step = resolve(step.chain, step.factions, I11_ASSETS, {C.PL: Contribution(30, 2)})
    assert chain_of(chain_to_dict(step.chain)) == step.chain


@given(st.lists(st.integers(0, 12), min_size=8, max_size=8), st.lists(st.integers(0, 60), min_size=8, max_size=8),
       st.lists(st.booleans(), min_size=8, max_size=8), st.lists(st.integers(0, 60), min_size=8, max_size=8))
def test_any_chain_runs_to_its_end_and_keeps_its_promises(vps: list[int], money: list[int], coups: list[bool],
                                                          pledges: list[int]) -> None:
    """Whatever the VP, treasuries, coup answers and pledges: the chain ends (a win, a collapse, or nobody left at
    0); VP never go below 0 nor rise; money only moves as the rules move it; at most one winner."""
    assets = Assets(territories=(Territory(AVALON, {Building.TEMPLE: 1, Building.VILLAGE: 2}),),
                    units=(Unit("Guard", AVALON, 3, 9),))
    fs = tuple(Faction(c, Party.WHIG, v, m) for c, v, m in zip(C, vps, money, strict=True))
    step = start(fs, assets)
    answers = iter(coups)
    for _ in range(40):
        if step.chain.waiting is Waiting.COUP:
            step = answer_coup(step.chain, step.factions, assets, next(answers, False))
        elif step.chain.waiting is Waiting.CONTRIBUTIONS:
            who = contributors(step.chain, step.factions)
            have = {f.code: f.treasury for f in step.factions}
            offer = {c: Contribution(min(p, have[c])) for c, p in zip(who, pledges, strict=False)}
            step = resolve(step.chain, step.factions, assets, offer)
        else:
            break
    assert step.chain.waiting is Waiting.NOTHING
    assert all(f.vp >= 0 for f in step.factions)
    assert all(a.vp <= b.vp for a, b in zip(step.factions, fs, strict=True))
    if step.chain.ended is None:
        assert vanguard_order(step.factions) == ()
    assert (step.chain.winner is not None) == (step.chain.ended == "won")


def test_S_is_kept_faction_by_faction_and_explained_from_them() -> None:
    """/why revolution rebuilds S (R1-43, P1-15) from each other Faction in play's VP, as the funding read them."""
    from engine.core.derivation import lines
    from engine.mylantium.revolution import attempt_of, attempt_to_dict
    from engine.mylantium.revolution_why import attempt_explained

    step = start(factions({"PR": 0, "GR": 7, "SH": 5, "PL": 10}, {"PR": 30}), NO_ASSETS)
    attempt = step.chain.attempts[-1]
    assert attempt.s == 22 and sum(attempt.s_parts.values()) == 22 and FactionCode.PR not in attempt.s_parts
    assert attempt_of(attempt_to_dict(attempt)) == attempt
    said = "\n".join(lines(attempt_explained(attempt, {}).seen_by(None, False), False))
    assert "S = " in said and "= 22 [S is the VP of every Faction in play but the Vanguard" in said
    older = attempt_to_dict(attempt)
    del older["s_parts"]  # an attempt funded before Clerk kept them: S as recorded, no breakdown invented
    assert "S is the VP of every Faction" not in "\n".join(lines(attempt_explained(attempt_of(older), {}), True))
