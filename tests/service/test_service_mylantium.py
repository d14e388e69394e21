"""Mylantium through the service, on SQLite (and PostgreSQL when configured): setup and the government page,
the Election Round (R1-01..R1-14), the Business Phase (R1-20..R1-33) and revolutions (R1-40..R1-50). Each accepted
command is one event; a redelivered message is not applied twice."""

from __future__ import annotations

from datetime import timedelta

import pytest
from ledger_front import MODERATOR
from mylantium_table import CHANNEL, GUILD, MOD, USERS, Republic, republic
from sqlalchemy import select

from bot.actions.mylantium.render import result_card
from engine.core.errors import RuleError
from engine.mylantium.business import Happening as H
from engine.mylantium.model import Building, FactionCode, Party
from engine.mylantium.revolution import Waiting
from engine.service import Clerk
from engine.service.clock import ManualClock
from engine.store.models import Event

C = FactionCode
W, F = Party.WHIG, Party.FEDERALIST


@pytest.fixture
async def rep(clerk: Clerk, clock: ManualClock) -> Republic:
    return await republic(clerk, clock)


async def kinds(r: Republic) -> list[str]:
    async with r.clerk._sessions() as session:
        found = await session.execute(select(Event.kind).where(Event.game_id == r.id).order_by(Event.seq))
        return list(found.scalars())


# -- setup and the government page ----------------------------------------------------------------------------


async def test_the_government_page_tv1_s01_and_the_independent_vote(rep: Republic) -> None:
    """TV1-S01: the Plutocrats' 2 per port give 6 in Avalon and 4 in Bicardia; another port in Avalon gives 8 and
    12. F = 12 + 14 + 20 + 20 = 66 with it, I = 33 (P1-01). Approval starts at 50 (P1-20)."""
    page = await rep.clerk.mylantium.government(rep.id)
    pl = next(f for f in page.factions if f.code is C.PL)
    assert dict(pl.votes) == {"Avalon": 6, "Bicardia": 4} and pl.national == 10
    assert (page.faction_votes, page.independent, page.approval, page.approval_default) == (64, 32, 50, True)
    await rep.clerk.mylantium.change_buildings(rep.id, territory="avalon", kind=Building.PORT, count=1, name="Dunmore",
                                               remove=False, actor=MOD)
    page = await rep.clerk.mylantium.government(rep.id)
    pl = next(f for f in page.factions if f.code is C.PL)
    assert dict(pl.votes) == {"Avalon": 8, "Bicardia": 4} and pl.national == 12
    assert (page.faction_votes, page.independent) == (66, 33)
    avalon = page.territories[0]
    assert avalon.buildings["ports"] == 4 and avalon.names == {"port": ("Dunmore",)}


async def test_registering_makes_a_player_and_refuses_doubles(rep: Republic) -> None:
    games = await rep.clerk.games.games_of_user(USERS[C.PL])
    assert [g.ruleset for g in games] == ["mylantium"]
    with pytest.raises(RuleError, match="already have a player"):
        await rep.clerk.mylantium.register_faction(rep.id, code=C.PL, user_id=99, user_name="x", party=W, vp=1,
                                                   treasury=0, actor=MOD)
    with pytest.raises(RuleError, match="already plays"):
        await rep.clerk.mylantium.register_faction(rep.id, code=C.RB, user_id=USERS[C.PL], user_name="pat", party=W,
                                                   vp=1, treasury=0, actor=MOD)


async def test_mylantium_commands_refuse_a_landsdraad_game(clerk: Clerk) -> None:
    game = await clerk.games.create_game(guild_id=1, channel_id=2, name="sirius", ruleset="landsdraad",
                                         moderator_role_id=None, actor=MOD)
    with pytest.raises(RuleError, match="sirius plays landsdraad; this is a Mylantium command"):
        await clerk.mylantium.add_territory(game.id, name="Avalon", actor=MOD)


async def test_a_candidate_takes_its_faction_party_and_a_faction_has_one(rep: Republic) -> None:
    cand = await rep.clerk.mylantium.add_candidate(rep.id, name="Lee Adams", code=C.PL, charisma=7, actor=MOD)
    assert (cand.party, cand.faction, cand.running) == (W, C.PL, True)
    with pytest.raises(RuleError, match="already have a Candidate, Lee Adams"):
        await rep.clerk.mylantium.add_candidate(rep.id, name="Other", code=C.PL, charisma=3, actor=MOD)
    with pytest.raises(RuleError, match="1 to 13"):
        await rep.clerk.mylantium.add_candidate(rep.id, name="Zed", code=C.GR, charisma=14, actor=MOD)
    with pytest.raises(RuleError, match="cannot be called “None”: `Primary: None` reads as choosing nobody"):
        await rep.clerk.mylantium.add_candidate(rep.id, name="None", code=C.GR, charisma=3, actor=MOD)  # Q5.6


# -- the Election Round -----------------------------------------------------------------------------------------


async def candidates(rep: Republic) -> None:
    for name, code, charisma in (("Lee", C.PL, 7), ("Ash", C.GR, 3), ("Kim", C.PR, 5), ("Max", C.BH, 4)):
        await rep.clerk.mylantium.add_candidate(rep.id, name=name, code=code, charisma=charisma, actor=MOD)


async def test_tv1_i04_a_whole_election_turn(rep: Republic, clock: ManualClock) -> None:
    """TV1-I04 (P1-01, P1-02, P1-16): Primary then General; Whig 24+7+13 = 44, Federalist 40+5+19 = 64."""
    await candidates(rep)
    await rep.clerk.mylantium.set_government(rep.id, president=C.PR, approval=60, actor=MOD)
    turn, locks = await rep.clerk.mylantium.elections.start_election_round(rep.id, actor=MOD)
    assert turn == 1 and set(locks) == {"Grangers", "Proles", "Brass Hats"}
    await rep.open("primary", hours=24)
    for code, name in ((C.PL, "Lee"), (C.GR, "lee"), (C.PR, "Kim"), (C.BH, "Kim")):
        await rep.choose(code, "primary", name)
    primary = await rep.clerk.mylantium.elections.close_election(rep.id, actor=MOD)
    assert primary is not None and primary.result is not None
    assert primary.result["nominees"] == {"whig": "Lee", "federalist": "Kim"}
    assert {line["name"]: line["total"] for line in primary.result["lines"]} == {"Lee": 31, "Ash": 3, "Kim": 45,
                                                                                 "Max": 4}
    await rep.open("general")
    for code, party in ((C.PL, "whig"), (C.GR, "whig"), (C.PR, "federalist"), (C.BH, "federalist")):
        await rep.choose(code, "general", party)
    general = await rep.clerk.mylantium.elections.close_election(rep.id, actor=MOD)
    assert general is not None and general.result is not None
    r = general.result
    assert (r["faction_votes_in_play"], r["independent"], r["incumbent"], r["approval"]) == (64, 32, "federalist", 60)
    assert {p: line["independent"] for p, line in r["lines"].items()} == {"whig": 13, "federalist": 19}
    assert {p: line["total"] for p, line in r["lines"].items()} == {"whig": 44, "federalist": 64}
    assert (r["winner"], r["tie"], r["president"]) == ("federalist", False, "PR")
    assert (await rep.clerk.mylantium.government(rep.id)).president is C.PR
    assert (await kinds(rep)).count("ChoiceMade") == 8


async def test_choices_change_until_the_deadline_and_not_after(rep: Republic, clock: ManualClock) -> None:
    """P0-15's boundary for every ballot: accepted only while received_at < deadline."""
    await candidates(rep)
    await rep.clerk.mylantium.elections.start_election_round(rep.id, actor=MOD)
    await rep.open("primary", hours=2)
    first = await rep.choose(C.PL, "primary", "Lee")
    assert (first.choice, first.replaced, first.votes) == ("Lee", None, 10)
    with pytest.raises(RuleError, match="no candidate called"):
        await rep.choose(C.PL, "primary", "Nobody")
    with pytest.raises(RuleError, match="Kim is a Federalist candidate; your Faction is Whig"):
        await rep.choose(C.PL, "primary", "Kim")
    again = await rep.choose(C.PL, "primary", "Ash")
    assert again.replaced == "Lee"
    with pytest.raises(RuleError, match="too late"):
        await rep.choose(C.PL, "primary", "Lee", at=clock.now() + timedelta(hours=2))
    with pytest.raises(RuleError, match="General Election is not open"):
        await rep.choose(C.PL, "general", "whig")
    view = await rep.clerk.mylantium.elections.election(rep.id)
    assert view is not None and view.chosen == ("Plutocrats",) and "Grangers" in view.waiting


async def test_a_redelivered_choice_is_not_applied_twice(rep: Republic) -> None:
    await candidates(rep)
    await rep.clerk.mylantium.elections.start_election_round(rep.id, actor=MOD)
    await rep.open("primary")
    await rep.choose(C.PL, "primary", "Lee", source_id="m-1")
    await rep.choose(C.PL, "primary", "Ash", source_id="m-2")
    again = await rep.choose(C.PL, "primary", "Lee", source_id="m-1")
    assert again.duplicate and again.choice == "Lee"
    assert (await kinds(rep)).count("ChoiceMade") == 2


async def test_an_election_its_deadline_closed_while_the_bot_was_offline_says_so(rep: Republic,
                                                                              clock: ManualClock) -> None:
    """Play-test S4.2: the Primary's deadline passed while the bot was down; the close at start records when it was
    due, and the result card says it closed late and that a choice DMed meanwhile did not reach the bot (Discord
    does not send it again), as a Landsdraad round's does (R3.2). The General Election, closed in time, says
    nothing of it."""
    await candidates(rep)
    await rep.clerk.mylantium.set_government(rep.id, president=C.PR, approval=60, actor=MOD)
    elections = rep.clerk.mylantium.elections
    await elections.start_election_round(rep.id, actor=MOD)
    await rep.open("primary", hours=1)
    clock.advance(timedelta(hours=3))  # the bot was down from before the deadline until now
    late = await elections.close_election(rep.id, actor=None, source_id="d-1", expected=(1, "primary"))
    assert late is not None and late.result is not None
    text = result_card(late).description
    assert "\n\nClosed at its deadline " in text and "2026-03-01 19:00 UTC" in text
    assert text.endswith(" (the bot was offline). The choices DMed to the bot while it was offline were read when it "
                         "started again: those sent before the deadline are counted.")
    assert late.result["due_at"] == "2026-03-01T19:00:00+00:00"
    with pytest.raises(RuleError) as refused:  # play-test S5.4: the choice bob DMed again on reading the card
        await elections.choose(rep.id, user_id=USERS[C.GR], stage="primary", choice="Ash", at=clock.now(),
                               source_id="m-late")
    assert str(refused.value).startswith("The Primary of turn 1 in ")
    assert " closed at " in str(refused.value) and "2026-03-01 19:00 UTC" in str(refused.value)
    assert str(refused.value).endswith(": a choice sent after it is not taken, and one sent before it, if any, stood.")
    await rep.open("general", hours=1)
    clock.advance(timedelta(hours=1, seconds=30))  # the scheduler's pass a little after the deadline: in time
    in_time = await elections.close_election(rep.id, actor=None, source_id="d-2", expected=(1, "general"))
    assert in_time is not None and in_time.result is not None and "due_at" not in in_time.result
    assert "offline" not in result_card(in_time).description


async def test_the_deadline_closes_an_election_once(rep: Republic, clock: ManualClock) -> None:
    await candidates(rep)
    await rep.clerk.mylantium.elections.start_election_round(rep.id, actor=MOD)
    await rep.open("primary", hours=1)
    (due,) = await rep.clerk.mylantium.elections.pending_elections()
    assert due[1:3] == (1, "primary")
    assert due[3] in await rep.clerk.next_deadlines()
    closed = await rep.clerk.mylantium.elections.close_election(rep.id, actor=None, source_id="d-1",
                                                                expected=(1, "primary"))
    assert closed is not None and closed.status == "closed"
    assert await rep.clerk.mylantium.elections.close_election(rep.id, actor=None, source_id="d-2",
                                                              expected=(1, "primary")) is None
    assert await rep.clerk.mylantium.elections.pending_elections() == []


async def test_realignment_window_locks_and_the_lost_candidate(rep: Republic) -> None:
    """R1-11..R1-13 (TV1-I15, P1-03, P1-04): only between /election start and the Primary, once a turn, not for
    the largest of a party nor the last President; the realigning Faction loses its candidate. P1-18: R1-11's
    "beginning of an Election Round" and R1-13's "start of an Election Phase" are one step, so the realignment made
    in the window is the one that discards the candidate."""
    await candidates(rep)
    await rep.clerk.mylantium.set_government(rep.id, president=C.PR, actor=MOD)
    with pytest.raises(RuleError, match="no Election Round has started"):
        await rep.clerk.mylantium.elections.realign(rep.id, user_id=USERS[C.PL], party=F, source_id="r-0")
    await rep.clerk.mylantium.elections.start_election_round(rep.id, actor=MOD)
    with pytest.raises(RuleError, match="largest National Faction Vote of the Whigs"):
        await rep.clerk.mylantium.elections.realign(rep.id, user_id=USERS[C.GR], party=F, source_id="r-1")
    done = await rep.clerk.mylantium.elections.realign(rep.id, user_id=USERS[C.PL], party=F, source_id="r-2")
    assert (done.old, done.new, done.discarded) == (W, F, "Lee")
    with pytest.raises(RuleError, match="already Federalists"):
        await rep.clerk.mylantium.elections.realign(rep.id, user_id=USERS[C.PL], party=F, source_id="r-3")
    with pytest.raises(RuleError, match="once a turn"):
        await rep.clerk.mylantium.elections.realign(rep.id, user_id=USERS[C.PL], party=W, source_id="r-4")
    again = await rep.clerk.mylantium.elections.realign(rep.id, user_id=USERS[C.PL], party=F, source_id="r-2")
    assert again.duplicate
    page = await rep.clerk.mylantium.government(rep.id)
    assert next(c for c in page.candidates if c.name == "Lee").discarded
    await rep.open("primary")
    with pytest.raises(RuleError, match="the Primary has opened"):
        await rep.clerk.mylantium.elections.realign(rep.id, user_id=USERS[C.BH], party=W, source_id="r-5")


async def test_the_general_election_needs_the_incumbent_and_follows_the_primary(rep: Republic) -> None:
    await rep.clerk.mylantium.elections.start_election_round(rep.id, actor=MOD)
    with pytest.raises(RuleError, match="follows the Primary"):
        await rep.open("general")
    await rep.open("primary")
    await rep.clerk.mylantium.elections.close_election(rep.id, actor=MOD)
    with pytest.raises(RuleError, match="incumbent party is not known"):
        await rep.open("general")


async def test_a_tied_primary_is_settled_by_the_moderator(rep: Republic) -> None:
    await rep.clerk.mylantium.add_candidate(rep.id, name="Lee", code=C.PL, charisma=4, actor=MOD)
    await rep.clerk.mylantium.add_candidate(rep.id, name="Ash", code=C.GR, charisma=4, actor=MOD)
    await rep.clerk.mylantium.elections.start_election_round(rep.id, actor=MOD)
    await rep.open("primary")
    primary = await rep.clerk.mylantium.elections.close_election(rep.id, actor=MOD)
    assert primary is not None and primary.result is not None
    assert primary.result["ties"] == {"whig": ["Lee", "Ash"]} and primary.result["nominees"]["whig"] is None
    await rep.clerk.mylantium.set_government(rep.id, president=C.PR, actor=MOD)
    # play-test M4.2: the General Election would freeze the nominees, leaving the Whigs without Charisma
    with pytest.raises(RuleError, match=r"Whig Primary ended in a tie \(Lee, Ash\).*/election nominee party:Whig"):
        await rep.open("general")
    view = await rep.clerk.mylantium.elections.name_nominee(rep.id, party=W, candidate="ash", actor=MOD)
    assert view.result is not None and view.result["nominees"]["whig"] == "Ash"
    with pytest.raises(RuleError, match="Ash is already the Whig nominee; nothing changed"):  # play-test M5.7
        await rep.clerk.mylantium.elections.name_nominee(rep.id, party=W, candidate="Ash", actor=MOD)
    await rep.open("general")


# -- the Business Phase -------------------------------------------------------------------------------------------


async def test_tv1_i06_and_i07_a_business_phase(clerk: Clerk, clock: ManualClock) -> None:
    """TV1-I07 on the service: the counts in play, the happenings of the turn, +10 Fervor, VP floored at 0 (P1-08),
    and the Grangers' Revolution (R1-40), the Brass Hats first offered a coup (P1-23). The approval breakdown is
    kept with its causes."""
    rep = await republic(clerk, clock, tv1_i04=False)
    vps = {"PL": 30, "RB": 12, "GR": 9, "SH": 15, "BH": 20, "PR": 11, "BU": 25, "RN": 40}
    for code, vp in vps.items():
        await rep.faction(C[code], W, vp=vp, treasury=5)
    await rep.clerk.mylantium.set_government(rep.id, counts={"monopolies": 5, "faction_taxes": 2, "tariffs": 3,
                                                   "subsidies": 3, "pensions": 1, "wars": 1,
                                                   "unfunded_last_turn": 1}, actor=MOD)
    await rep.happen(H.INCOME_TAX_CREATED, 20)
    await rep.happen(H.COVER_UP_EXPOSED, 2)
    await rep.happen(H.FIAT_MONEY, 45)
    await rep.happen(H.SCANDAL)
    done = await clerk.mylantium.business.close_business(rep.id, actor=MOD)
    assert (done.approval_start, done.approval_end) == (50, 50 - 20 - 3 - 4)
    assert sum(c.delta for c in done.fervor_changes) == 10
    assert dict(done.vp) == {C.PL: 20, C.RB: 2, C.GR: 0, C.SH: 5, C.BH: 10, C.PR: 1, C.BU: 15, C.RN: 30}
    assert done.total_vp == 83 and not done.collapse
    assert done.chain is not None and done.chain.chain.waiting is Waiting.COUP
    assert done.chain.chain.attempts[0].vanguard is C.GR
    doc = await clerk.exports.export(rep.id)
    myl = doc["mylantium"]
    assert myl["fervor"] == 10 and myl["approval"] == 23
    assert [h["delta"] for h in myl["approval_history"]] == [-20, -3, -4]
    assert sum(h["delta"] for h in myl["fervor_history"]) == 10
    assert next(h for h in myl["vp_history"] if h["faction"] == "Granger")["delta"] == -9
    with pytest.raises(RuleError, match="Revolution is under way"):
        await clerk.mylantium.elections.start_election_round(rep.id, actor=MOD)


async def test_missed_orders_once_a_turn_and_unfunded_pensions_checked_against_the_turns_total(rep: Republic) -> None:
    """Findings 1.2, 1.3: the President fails to send its orders at most once a turn (−30 and +3 Fervor once; P1-18:
    the "Business Round orders" are those of the turn's Business Phase, counted when it closes), and
    one entry at a time the turn's unfunded pensions stay within the pensions in play (−4 each), as `count:` is."""
    await rep.clerk.mylantium.set_government(rep.id, counts={"pensions": 2}, actor=MOD)
    await rep.happen(H.MISSED_ORDERS)
    with pytest.raises(RuleError, match=r"already recorded for turn 1.*/event undo"):
        await rep.happen(H.MISSED_ORDERS)
    await rep.happen(H.PENSION_UNFUNDED)
    await rep.happen(H.PENSION_UNFUNDED)
    with pytest.raises(RuleError, match="Only 2 pensions in play, and 2 already recorded unfunded in turn 1"):
        await rep.happen(H.PENSION_UNFUNDED)
    done = await rep.clerk.mylantium.business.close_business(rep.id, actor=MOD)
    assert done.approval_end == 50 - 30 - 4 - 4
    await rep.clerk.mylantium.elections.start_election_round(rep.id, actor=MOD)
    await rep.happen(H.MISSED_ORDERS)  # a new turn, a new Business Round


async def test_happenings_can_be_undone_and_the_phase_closes_once(rep: Republic) -> None:
    await rep.happen(H.MONOPOLY_CREATED, 2)
    await rep.happen(H.WAR_DECLARED)
    view, state = await rep.clerk.mylantium.business.undo_happening(rep.id, actor=MOD)
    assert view.text == "war declared" and state.wars == 0 and state.monopolies == 2
    with pytest.raises(RuleError, match="Only 0 Tariffs"):
        await rep.happen(H.TARIFF_REPEALED)
    done = await rep.clerk.mylantium.business.close_business(rep.id, actor=MOD)
    assert done.approval_end == 38 and done.chain is None
    with pytest.raises(RuleError, match="already closed"):
        await rep.clerk.mylantium.business.close_business(rep.id, actor=MOD)
    with pytest.raises(RuleError, match="is closed"):
        await rep.happen(H.SCANDAL)
    turn, _ = await rep.clerk.mylantium.elections.start_election_round(rep.id, actor=MOD)
    assert turn == 2


async def test_a_happening_that_is_not_the_latest_is_taken_back_by_its_number(rep: Republic) -> None:
    """Play-test U1.6: /event undo number:N takes back the N-th entry of /event list; the entries after it are
    counted again from the counts before it, as if it had never been recorded; one that could not have been
    recorded without it keeps it (nothing changed, the answer names that entry)."""
    business = rep.clerk.mylantium.business
    await rep.happen(H.SCANDAL)
    await rep.happen(H.PENSION_CREATED, 2)
    await rep.happen(H.WAR_DECLARED)
    await rep.happen(H.PENSION_UNFUNDED, 2)
    with pytest.raises(RuleError, match=r"pension created ×2 \(number 2\) cannot be taken back on its own: without "
                                        r"it, number 4, pension unfunded ×2, could not have been recorded .*Take back "
                                        r"number 4 first \(/event undo number:4\)\. Nothing was changed\."):
        await business.undo_happening(rep.id, number=2, actor=MOD)
    with pytest.raises(RuleError, match=r"numbered 1 to 4 in /event list; there is no number 5"):
        await business.undo_happening(rep.id, number=5, actor=MOD)
    view, state = await business.undo_happening(rep.id, number=1, actor=MOD)
    assert view.text == "scandal" and (state.pensions, state.wars) == (2, 1)
    _, happened, now = await business.happenings(rep.id)
    assert [h.text for h in happened] == ["pension created ×2", "war declared", "pension unfunded ×2"] and now == state
    view, state = await business.undo_happening(rep.id, number=2, actor=MOD)  # the war, in the middle
    assert view.text == "war declared" and (state.pensions, state.wars) == (2, 0)
    view, state = await business.undo_happening(rep.id, actor=MOD)  # the latest, as before
    assert view.text == "pension unfunded ×2" and (state.pensions, state.wars) == (2, 0)  # its own "before" rewritten
    await business.undo_happening(rep.id, number=1, actor=MOD)  # now nothing depends on it
    _, happened, state = await business.happenings(rep.id)
    assert happened == [] and (state.pensions, state.wars) == (0, 0)
    await rep.happen(H.WAR_DECLARED)  # each later entry's counts before it were rewritten: a latest undo still exact
    view, state = await business.undo_happening(rep.id, actor=MOD)
    assert state.wars == 0


async def test_a_happening_is_not_taken_back_while_play_is_suspended(rep: Republic) -> None:
    """R1-40, play-test M5.1: during a chain recording a happening is refused, and so is taking one back; the
    answer says which one /event undo takes back once play resumes."""
    await rep.happen(H.TARIFF_CREATED, 2)
    change = await rep.clerk.mylantium.set_faction(rep.id, code=C.PR, vp=0, actor=MOD)
    assert change.chain is not None
    with pytest.raises(RuleError, match=r"neither recorded nor taken back.*/event undo takes back the latest, "
                                         r"Tariff created ×2"):
        await rep.clerk.mylantium.business.undo_happening(rep.id, actor=MOD)
    _, happened, state = await rep.clerk.mylantium.business.happenings(rep.id)
    assert [h.text for h in happened] == ["Tariff created ×2"] and state.tariffs == 2


async def test_tv1_i13_social_collapse_ends_the_game(clerk: Clerk, clock: ManualClock) -> None:
    """TV1-I13 (P1-11): S 15, Fervor +1 → S 7: the game ends with no winner and no Revolution."""
    rep = await republic(clerk, clock, tv1_i04=False)
    for code, vp in {"PL": 5, "RB": 4, "GR": 1, "SH": 1, "BH": 1, "PR": 1, "BU": 1, "RN": 1}.items():
        await rep.faction(C[code], W, vp=vp)
    await rep.clerk.mylantium.set_government(rep.id, counts={"tariffs": 3}, actor=MOD)
    done = await clerk.mylantium.business.close_business(rep.id, actor=MOD)
    assert done.collapse and done.total_vp == 7
    assert done.chain is not None and done.chain.chain.attempts == ()
    assert (await clerk.games.game(rep.id)).id == rep.id
    doc = await clerk.exports.export(rep.id)
    assert doc["game"]["status"] == "ended" and doc["mylantium"]["revolutions"][0]["ended"] == "collapse"
    with pytest.raises(RuleError, match="its ledger is closed"):
        await rep.happen(H.SCANDAL)


# -- revolutions --------------------------------------------------------------------------------------------------


async def tv1_i11(clerk: Clerk, clock: ManualClock) -> Republic:
    rep = await republic(clerk, clock, tv1_i04=False)
    vp = {"PL": 10, "RB": 9, "GR": 8, "SH": 7, "BH": 6, "PR": 1, "BU": 5, "RN": 4}
    money = {"PL": 30, "RB": 20, "GR": 10, "SH": 10, "BH": 20, "PR": 70, "BU": 10, "RN": 10}
    for code in vp:
        await rep.faction(C[code], W, vp=vp[code], treasury=money[code])
    await clerk.mylantium.add_unit(rep.id, name="Dragoons", territory="Avalon", maintenance=5, cost=25, status=None,
                                   actor=MOD)
    return rep


async def test_tv1_i11_a_coup_that_succeeds(clerk: Clerk, clock: ManualClock) -> None:
    """TV1-I11 (R1-42, R1-46, P1-13): the Proles fall to 0; the Brass Hats attempt a coup: 20 + 3·5 = 35 against a
    CRT of 10 + 20 + 4 = 34. BH wins; the game ends."""
    rep = await tv1_i11(clerk, clock)
    change = await clerk.mylantium.set_faction(rep.id, code=C.PR, vp=0, reason="lost its last seat", actor=MOD)
    assert change.chain is not None and change.chain.chain.waiting is Waiting.COUP
    with pytest.raises(RuleError, match="Only the Brass Hats"):
        await clerk.mylantium.revolutions.answer_coup(rep.id, accept=True, user_id=USERS[C.PL], actor=USERS[C.PL])
    with pytest.raises(RuleError, match="not taking contributions yet"):
        await clerk.mylantium.revolutions.pledge(rep.id, user_id=USERS[C.PL], amount=1, to_vanguard=False,
                                                 at=clock.now(), source_id="p0")
    view = await clerk.mylantium.revolutions.answer_coup(rep.id, accept=True, user_id=USERS[C.BH], actor=USERS[C.BH])
    attempt = view.chain.current
    assert attempt is not None and (attempt.vanguard, attempt.treasury, attempt.bonus) == (C.BH, 35, {})
    assert view.deadline == clock.now() + timedelta(hours=48)
    for code, amount in ((C.PL, 10), (C.PR, 20), (C.RB, 4)):
        await clerk.mylantium.revolutions.pledge(rep.id, user_id=USERS[code], amount=amount, to_vanguard=False,
                                                 at=clock.now(), source_id=f"p-{code.name}")
    with pytest.raises(RuleError, match="Vanguard"):
        await clerk.mylantium.revolutions.pledge(rep.id, user_id=USERS[C.BH], amount=1, to_vanguard=False,
                                                 at=clock.now(), source_id="p1")
    with pytest.raises(RuleError, match=r"\$31 in all, but the Plutocrats have \$30"):
        await clerk.mylantium.revolutions.pledge(rep.id, user_id=USERS[C.PL], amount=21, to_vanguard=True,
                                                 at=clock.now(), source_id="p2")
    status = await clerk.mylantium.revolutions.revolution(rep.id)
    assert status is not None and set(status.pledged) == {C.PL, C.PR, C.RB}
    done = await clerk.mylantium.revolutions.resolve_revolution(rep.id, actor=MOD)
    assert done is not None and (done.chain.ended, done.chain.winner) == ("won", C.BH)
    assert done.chain.attempts[-1].crt == 34
    assert done.disclosed == ()  # three sent money: the $34 gives no one's away
    doc = await clerk.exports.export(rep.id)
    assert doc["game"]["status"] == "ended"
    (rev,) = doc["mylantium"]["revolutions"]
    assert rev["winner"] == "Brass Hat" and rev["attempts"][0]["contributions"]["PR"] == {"crt": 20, "vanguard": 0}
    money = {f["code"]: f["treasury"] for f in doc["mylantium"]["factions"]}
    assert (money["BH"], money["PL"], money["PR"], money["RB"]) == (35, 20, 50, 16)


async def test_a_pledge_leaves_the_timed_work_unread(clerk: Clerk, clock: ManualClock) -> None:
    """The scheduler's quiet pass (engine/service/timed_changes.py): a contribution changes no deadline (the
    contributions' deadline is set when the attempt begins), so the events after it name nothing timed."""
    rep = await tv1_i11(clerk, clock)
    await clerk.mylantium.set_faction(rep.id, code=C.PR, vp=0, actor=MOD)
    await clerk.mylantium.revolutions.answer_coup(rep.id, accept=True, user_id=USERS[C.BH], actor=USERS[C.BH])
    after, _ = await clerk.timed_changes.since(None)
    await clerk.mylantium.revolutions.pledge(rep.id, user_id=USERS[C.PL], amount=10, to_vanguard=False,
                                             at=clock.now(), source_id="p-PL")
    newest, changed = await clerk.timed_changes.since(after)
    assert newest > after and not changed


async def test_a_lone_contribution_is_told_to_the_moderators_only(clerk: Clerk, clock: ManualClock) -> None:
    """The disclosure check (docs/rulings.md): only the Plutocrats sent money against the coup, so the posted $10
    is theirs; who sent is public. The moderators are told; nothing of it goes to the channel or a player. Their
    warning is owed in the resolution's transaction with the rest (``AnswerWith``; its place looked up before the
    write): a kill after the commit does not lose it (before, it was made and owed after the write)."""
    from itertools import count

    from bot.actions.commands import App, dispatch
    from bot.actions.context import Ctx, Place
    from bot.actions.outbox import Answering, ToThread, not_owed
    from engine.service.owed import NOTICE, Owed

    rep = await tv1_i11(clerk, clock)
    await clerk.mylantium.set_faction(rep.id, code=C.PR, vp=0, actor=MOD)
    await clerk.mylantium.revolutions.answer_coup(rep.id, accept=True, user_id=USERS[C.BH], actor=USERS[C.BH])
    await clerk.mylantium.revolutions.pledge(rep.id, user_id=USERS[C.PL], amount=10, to_vanguard=False,
                                             at=clock.now(), source_id="p-PL")
    posts = count(1)  # a nonce each (at most 25 characters)
    answering = Answering(not_owed, lambda _: Owed("elsewhere", None, NOTICE, f"p:{next(posts)}", {}))
    out = await dispatch(App(clerk), Ctx(MODERATOR, Place(GUILD, CHANNEL), "s-resolve", clock.now(), answering),
                         "revolution resolve", {})
    [warning] = [o for o in out if "gives away contributions" in o.text]
    assert isinstance(warning.to, ToThread) and warning.to.private
    assert "the Plutocrats gave $10 to the Counter-Revolutionary Treasury" in warning.text
    assert warning in [item for item, _ in answering.owed], "owed in the resolution's transaction"
    assert not any("gave $10" in o.text for o in out if o is not warning)


async def test_a_revolution_put_down_at_its_deadline_raises_fervor(clerk: Clerk, clock: ManualClock) -> None:
    """R1-44.5, P1-10, P1-22: BH declines; the Proles (70 > S 49) begin; the SH/GR/BH money is paid (P1-21); nobody
    pledges but the Plutocrats' 30 and Robber Barons' 20 and the Brass Hats' 20 + 15: CRT 85 ≥ 70: put down at the
    deadline, Fervor +3 for every Faction in play."""
    rep = await tv1_i11(clerk, clock)
    await clerk.mylantium.set_faction(rep.id, code=C.PR, vp=0, actor=MOD)
    view = await clerk.mylantium.revolutions.answer_coup(rep.id, accept=False, user_id=None, actor=MOD)
    attempt = view.chain.current
    assert attempt is not None and attempt.begun and attempt.s == 49 and attempt.bonus == {C.SH: 0, C.GR: 0, C.BH: 15}
    await clerk.mylantium.revolutions.pledge(rep.id, user_id=USERS[C.PL], amount=30, to_vanguard=False, at=clock.now(),
                                             source_id="a")
    await clerk.mylantium.revolutions.pledge(rep.id, user_id=USERS[C.RB], amount=20, to_vanguard=False, at=clock.now(),
                                             source_id="b")
    await clerk.mylantium.revolutions.pledge(rep.id, user_id=USERS[C.BH], amount=35, to_vanguard=False, at=clock.now(),
                                             source_id="c")
    (due,) = await clerk.mylantium.revolutions.pending_contributions()
    assert due[1:3] == (1, 1)
    clock.advance(timedelta(hours=48))
    with pytest.raises(RuleError, match="too late"):
        await clerk.mylantium.revolutions.pledge(rep.id, user_id=USERS[C.GR], amount=1, to_vanguard=False,
                                                 at=clock.now(), source_id="d")
    done = await clerk.mylantium.revolutions.resolve_revolution(rep.id, actor=None, source_id="dl-1", expected=(1, 1))
    assert done is not None and done.chain.attempts[0].outcome == "put down"
    assert done.chain.waiting is Waiting.NOTHING and done.chain.ended is None
    assert await clerk.mylantium.revolutions.resolve_revolution(rep.id, actor=None, source_id="dl-2",
                                                                expected=(1, 1)) is None
    page = await clerk.mylantium.government(rep.id)
    assert page.fervor == 3
    assert {f.code: f.vp for f in page.factions if f.in_play} == {C.PL: 7, C.RB: 6, C.GR: 5, C.SH: 4, C.BH: 3,
                                                                  C.BU: 2, C.RN: 1}
    assert "RevolutionResolved" in await kinds(rep)


async def test_events_are_one_per_command(rep: Republic) -> None:
    assert (await kinds(rep))[:3] == ["GameCreated", "TerritoryAdded", "BuildingsAdded"]


async def test_the_history_chart_reads_approval_and_fervor_at_each_turns_end(rep: Republic) -> None:
    """``history``: the value before the first change, then each turn's last value (the current turn so far)."""
    before = await rep.clerk.mylantium.history(rep.id)
    assert (before.turn, before.approval, before.fervor) == (1, ((0, 50), (1, 50)), ((0, 0), (1, 0)))
    await rep.happen(H.MONOPOLY_CREATED, 2)  # approval −12 at the close (P1-06)
    await rep.clerk.mylantium.business.close_business(rep.id, actor=MOD)
    await rep.clerk.mylantium.elections.start_election_round(rep.id, actor=MOD)
    after = await rep.clerk.mylantium.history(rep.id)
    assert after.turn == 2
    assert after.approval == ((0, 50), (1, 38), (2, 38))
    assert after.fervor == ((0, 0), (1, 0), (2, 0))


async def test_the_history_chart_starts_at_the_approval_set_during_set_up(rep: Republic) -> None:
    """Findings 4.4 (P1-20: the moderator sets the real value): set at 60 during set-up and lowered to 57 by the
    first close, the chart runs 60 → 57, not 50 → 57; a change made in play still shows as one."""
    await rep.clerk.mylantium.set_government(rep.id, approval=60, actor=MOD)
    await rep.clerk.mylantium.elections.start_election_round(rep.id, actor=MOD)
    await rep.happen(H.SCANDAL)
    done = await rep.clerk.mylantium.business.close_business(rep.id, actor=MOD)
    assert (done.approval_start, done.approval_end) == (60, 57)
    await rep.clerk.mylantium.elections.start_election_round(rep.id, actor=MOD)
    await rep.clerk.mylantium.set_government(rep.id, approval=70, actor=MOD)
    chart = await rep.clerk.mylantium.history(rep.id)
    assert chart.approval[:2] == ((0, 60), (1, 57))
    assert chart.approval[2] == (2, 70)


async def test_a_party_corrected_during_the_primary_drops_a_choice_it_may_not_make(rep: Republic) -> None:
    """Play-test U1.1: the Grangers, Whigs, choose Lee in the Primary; the moderator corrects their party to
    Federalist. A Federalist Faction votes in the Federalist Primary (own-party), so the choice of Lee is dropped
    (and said so) rather than counting the Grangers' 14 votes in the Whig Primary: Lee 10 + 7 = 17, not 31."""
    await candidates(rep)
    await rep.clerk.mylantium.elections.start_election_round(rep.id, actor=MOD)
    await rep.open("primary", hours=24)
    await rep.choose(C.PL, "primary", "Lee")
    await rep.choose(C.GR, "primary", "Lee")
    await rep.choose(C.PR, "primary", "Kim")
    same = await rep.clerk.mylantium.set_faction(rep.id, code=C.PR, party=F, actor=MOD)
    assert same.choice_dropped is None
    change = await rep.clerk.mylantium.set_faction(rep.id, code=C.GR, party=F, reason="registered wrong", actor=MOD)
    assert change.choice_dropped == "Lee" and change.faction.party is F
    view = await rep.clerk.mylantium.elections.election(rep.id)
    assert view is not None and "Grangers" in view.waiting and "Proles" in view.chosen
    primary = await rep.clerk.mylantium.elections.close_election(rep.id, actor=MOD)
    assert primary is not None and primary.result is not None
    assert {line["name"]: line["total"] for line in primary.result["lines"]}["Lee"] == 17


async def test_an_open_elections_deadline_is_moved_and_recorded(rep: Republic, clock: ManualClock) -> None:
    """Play-test U1.2: a Primary opened with 2 minutes for 2 days had no correction. The deadline moves (recorded
    with the one it had), the old instant no longer closes it, a choice is taken until the new one; the same
    deadline again and no open election are refused with the reason."""
    await candidates(rep)
    elections = rep.clerk.mylantium.elections
    with pytest.raises(RuleError, match="No election is open"):
        await elections.move_deadline(rep.id, deadline=clock.now() + timedelta(days=1), actor=MOD)
    await elections.start_election_round(rep.id, actor=MOD)
    opened = await rep.open("primary", hours=1)
    later = clock.now() + timedelta(days=2)
    view, was = await elections.move_deadline(rep.id, deadline=later, actor=MOD)
    assert (view.deadline, was) == (later, opened.deadline)
    assert [d for g, *_, d in await elections.pending_elections() if g == rep.id] == [later]
    with pytest.raises(RuleError, match="nothing was changed"):
        await elections.move_deadline(rep.id, deadline=later, actor=MOD)
    with pytest.raises(RuleError, match="in the future"):
        await elections.move_deadline(rep.id, deadline=clock.now(), actor=MOD)
    receipt = await rep.choose(C.PL, "primary", "Lee", at=clock.now() + timedelta(hours=3))
    assert receipt.choice == "Lee"
    assert (await kinds(rep)).count("ElectionDeadlineSet") == 1


async def test_a_faction_registered_to_the_wrong_member_goes_to_its_player(rep: Republic) -> None:
    """Play-test U1.3: the refusal of a second registration said "use /faction set", which could not change the
    player. ``user:`` hands the Faction over with everything it has (its choice in an open Primary too); the one
    registered by mistake no longer plays; a member who plays another Faction is refused (one each)."""
    await candidates(rep)
    await rep.clerk.mylantium.elections.start_election_round(rep.id, actor=MOD)
    await rep.open("primary", hours=24)
    await rep.choose(C.GR, "primary", "Lee")
    with pytest.raises(RuleError, match="already plays the Plutocrats"):
        await rep.clerk.mylantium.set_faction(rep.id, code=C.GR, user_id=USERS[C.PL], user_name="pat", actor=MOD)
    change = await rep.clerk.mylantium.set_faction(rep.id, code=C.GR, user_id=77, user_name="gil", actor=MOD)
    assert change.handed == (USERS[C.GR], "gus", 77, "gil")
    mine = await rep.clerk.mylantium.my_faction(rep.id, 77)
    assert (mine.code, mine.player, mine.vp, mine.national) == (C.GR, "gil", 20, 14)
    assert await rep.clerk.games.games_of_user(USERS[C.GR]) == []
    with pytest.raises(RuleError):
        await rep.clerk.mylantium.my_faction(rep.id, USERS[C.GR])
    view = await rep.clerk.mylantium.elections.election(rep.id)
    assert view is not None and "Grangers" in view.chosen
    again = await rep.clerk.mylantium.elections.choose(rep.id, user_id=77, stage="primary", choice="Ash",
                                                       at=rep.clock.now(), source_id="gil-1")
    assert again.replaced == "Lee"
    with pytest.raises(RuleError, match="nothing was changed"):
        await rep.clerk.mylantium.set_faction(rep.id, code=C.GR, user_id=77, user_name="gil", actor=MOD)
