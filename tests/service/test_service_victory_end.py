"""Final scores and the end of the game through the service and the front end (rules-spec §3: R3-04, R3-13,
R3-17..R3-23, P3-08, P3-15): a whole 3-player game scored by hand, the End Game penalty (TV3-I08), Weathervane
from real rounds (TV3-I13), a Majority Victory detected after round 5 and confirmed by a moderator, and what
may change once the game has ended. Runs on SQLite, and on PostgreSQL when TEST_POSTGRES_URL is set."""

from __future__ import annotations

from typing import Any

import pytest
from ledger_front import GUILD, MODERATOR, actor, only_here, slash, user

from bot.actions.commands import App, dispatch
from bot.actions.context import Ctx, Place
from bot.actions.landsdraad.victory_posts import forecast_posts, majority_check
from bot.actions.outbox import Here, Outgoing, ToChannel, ToThread
from engine.core.errors import RuleError
from engine.landsdraad.majority import Subject
from engine.landsdraad.motions import Motion
from engine.landsdraad.victory import Award, Category
from engine.service.landsdraad.victory_views import FinalView
from engine.store.database import make_sessionmaker
from engine.store.models import Game

MOD = 1
ANN, BO, CY = 601, 602, 603


def text_of(out: Outgoing) -> str:
    """The text and the card of a message."""
    return "\n".join(part for part in (out.text, out.card.as_text() if out.card else "") if part)


async def player(table: Any, user_id: int, name: str, misc: int = 0) -> None:
    """D 1, I 1, d3 1: a base vote of 4 and no Diplomacy bonus; ``misc`` adds votes."""
    await table.player(user_id, name, 1, 1, 1, roll=1)
    if misc:
        await table.clerk.landsdraad.ledger.set_player(table.game_id, user_id=user_id, misc=misc, actor=MOD)


async def track(table: Any, user_id: int, **values: int) -> None:
    await table.clerk.landsdraad.victory.set_tracked(table.game_id, user_id=user_id, values=values, actor=MOD)


async def count(table: Any, user_id: int, counter: str, amount: int = 1) -> None:
    await table.clerk.landsdraad.victory.record_counter(table.game_id, user_id=user_id, counter=counter,
                                                        amount=amount, actor=MOD)


async def crisis(table: Any, ballots: dict[int, str]) -> str:
    await table.open()
    for user_id, text in ballots.items():
        await table.vote(user_id, text)
    return str((await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=MOD)).outcome)


async def end_game_vote(table: Any, supporters: list[int], penalty: int | None = None) -> Any:
    for user_id in supporters:
        receipt = await table.clerk.landsdraad.majority.support(table.game_id, user_id=user_id,
                                                                motion=Motion(Subject.END_GAME), thread_id=None,
                                                                at=table.clock.now(), source_id=table.source())
    return await table.clerk.landsdraad.majority.enact(table.game_id, vote_id=receipt.vote.id, actor=MOD,
                                                       penalty=penalty)


async def three_player_game(table: Any) -> None:
    """The game scored in test_a_whole_three_player_game_scored_by_hand."""
    await player(table, ANN, "ann", misc=26)
    await player(table, BO, "bo", misc=14)
    await player(table, CY, "cy", misc=2)
    await table.planet(ANN, "Caladan", "average", homeworld=True)
    await table.planet(BO, "Giedi Prime", "average", homeworld=True)
    await table.planet(BO, "Lankiveil", "poor")
    await table.planet(CY, "Ix", "average", homeworld=True)
    await table.planet(CY, "Ecaz", "poor")
    await table.planet(CY, "Richese", "poor")
    await track(table, ANN, militia=10, standard=5, weapons_factory=2, manufacturing_facility=1, spice=3,
                income=12000, stock=10, wealth=5000)
    await track(table, BO, militia=20, standard=10, elite=6, agricultural_fief=2, space_port=1, gem_mine=1,
                soostone=1, income=-2000, stock=10, wealth=30000)
    await track(table, CY, militia=5, standard=4, upgraded=3, elite=2, ore_mine=2, gem_mine=1, soostone=1,
                income=4000, stock=5, wealth=15000, heroes=2)
    await table.clerk.landsdraad.victory.set_luxuries(table.game_id, counts={"spice": 3, "soostone": 2, "semuta": 1},
                                                      actor=MOD)
    await count(table, ANN, "seizures", 2)
    await count(table, BO, "seizures")
    await count(table, CY, "raids")
    await count(table, BO, "assassinations")
    await count(table, CY, "assassinations")
    await count(table, ANN, "electors_bribed", 3)
    await count(table, BO, "troop_movements")
    await count(table, BO, "troop_movements", -1)
    for user_id, text, vp in ((ANN, "Own 4 Agri Fiefs", 30), (ANN, "Hold Kaitain", 50), (BO, "Win the Landsraad", 40),
                              (BO, "Marry into House Corrino", 40), (CY, "Build a Heighliner", 20)):
        await table.clerk.landsdraad.victory.add_goal(table.game_id, user_id=user_id, description=text, vp=vp,
                                                      actor=MOD)
    for user_id, number in ((ANN, 1), (BO, 1), (BO, 2), (CY, 1)):
        await table.clerk.landsdraad.victory.set_goal_achieved(table.game_id, user_id=user_id, number=number, actor=MOD)
    for user_id, vp, reason in ((ANN, 8, "Most posts"), (ANN, -3, "miscounted"), (CY, 10, "Bloodiest Ambush")):
        await table.clerk.landsdraad.victory.award_prestige(table.game_id, user_id=user_id, vp=vp, reason=reason,
                                                            actor=MOD)
    assert await crisis(table, {ANN: "Vote: Aye", BO: "Vote: Nay", CY: "Vote: Aye"}) == "passed"  # 40 : 20
    assert await crisis(table, {ANN: "Vote: Aye", BO: "Vote: Nay", CY: "Vote: Nay"}) == "failed"  # 30 : 30


async def test_a_whole_three_player_game_scored_by_hand(table: Any) -> None:
    """R3-05, R3-06, R3-14 and P3-07 through the service. N = 3: Pot 1000 + 3·200 = 1600; each 10% category 160 VP,
    Votes 240 (R3-05); a 1% award 16, First Among Equals 32,
    Unopposed Chancellor 48. V(p) = 4 + misc + planet votes: ann 4+26 = 30, bo 4+14+2 = 20, cy 4+2+2+2 = 10.

    | category | ann | bo | cy | Q | VP each (floor(CP·q/Q)) |
    |---|---|---|---|---|---|
    | Votes (240) | 30 | 20 | 10 | 60 | 120, 80, 40 |
    | Military (160) | 10+3·5 = 25 | 20+30+30 = 80 | 5+12+12+10 = 39 | 144 | 27 (27.8), 88 (88.9), 43 (43.3) |
    | Planets (160) | 1 | 2 | 3 (Homeworlds count) | 6 | 26 (26.7), 53 (53.3), 80 |
    | Assets (160) | 2+1+3 = 6 | 2+1+1+1 = 5 | 2+1+1 = 4 | 15 | 64, 53 (53.3), 42 (42.7) |
    | Income (160) | 12000 | -2000 → 0 | 4000 | 16000 | 120, 0, 40 |
    | Stock (160) | 10 | 10 | 5 | 25 | 64, 64, 32 |
    | Wealth (160) | 5000 | 30000 | 15000 | 50000 | 16, 96, 48 |
    | sum | | | | | 437, 434, 325 |

    Singular: First Among Equals ann 32; Spice Baron and He Who Controls the Spice (3 of 3 in play) ann 16 + 16;
    Industrial Titan (WF+MF 3) ann 16; All Your Base (2 seizures) ann 16; Master of Corruption ann 16; CHOAM
    Director tied ann/bo 10 shares: 8 each; Cannon Fodder (36 pieces) bo 16; Shock Troops (6) bo 16; Grain Barge
    (3) bo 16; Master of Assassins tied bo/cy: 8 each; Feudal Overlord (3 planets) cy 16; Mountain King (3) cy 16;
    Justice League (2 heroes) cy 16; Jolly Roger cy 16; Weathervane cy 16 (round 1 passed: ann and cy Aye; round 2
    30 : 30 failed: bo and cy Nay; so ann 1, bo 1, cy 2). Nobody: Unopposed Chancellor (30 is not more than half
    of 60), Bright Shiny (soostone 1 + 1 of 2), Stained Lips (none in play), Very Soothing Music (1 in play, not
    owned), Uninvited Guest, Spymaster (1 then corrected to 0): their VP go to nobody (R3-14).
    Singular sums: ann 120, bo 64, cy 88. Goals: ann 30 (goal 2 not achieved), bo 80, cy 20. Prestige: ann 8 − 3 =
    5, cy 10. Totals: ann 437+120+30+5 = 592, bo 434+64+80 = 578, cy 325+88+20+10 = 443.
    Titles (B = 1600/3, P3-07's exact comparison): 18·Score ≥ 1600·(6+k): ann 10656 and bo 10404 reach 9600 (Baron)
    but not 11200; cy 7974 reaches none. The measures (R3-06) are V(p) from the ledger, Total Forces, planets with
    the Homeworld, Primary Assets with Luxury Goods, income and wealth with a negative as 0, CHOAM shares."""
    await three_player_game(table)
    result = await table.clerk.landsdraad.victory.end_game(table.game_id, actor=MOD)
    assert isinstance(result, FinalView) and not result.already
    assert (result.pot, result.ended_by, result.chancellor, result.penalty) == (1600, "moderator", None, 0)
    rows = {r.name: r for r in result.rows}
    order = [Category.VOTES, Category.MILITARY, Category.PLANETS, Category.ASSETS, Category.INCOME, Category.STOCK,
             Category.WEALTH]
    assert [rows["ann"].categories[c] for c in order] == [120, 27, 26, 64, 120, 64, 16]
    assert [rows["bo"].categories[c] for c in order] == [80, 88, 53, 53, 0, 64, 96]
    assert [rows["cy"].categories[c] for c in order] == [40, 43, 80, 42, 40, 32, 48]
    assert dict(rows["ann"].singular) == {Award.FIRST_AMONG_EQUALS: 32, Award.SPICE_BARON: 16,
                                          Award.CONTROLS_THE_SPICE: 16, Award.CHOAM_DIRECTOR: 8,
                                          Award.INDUSTRIAL_TITAN: 16, Award.ALL_YOUR_BASE: 16,
                                          Award.MASTER_OF_CORRUPTION: 16}
    assert dict(rows["bo"].singular) == {Award.CHOAM_DIRECTOR: 8, Award.CANNON_FODDER: 16, Award.SHOCK_TROOPS: 16,
                                         Award.GRAIN_BARGE: 16, Award.MASTER_OF_ASSASSINS: 8}
    assert dict(rows["cy"].singular) == {Award.WEATHERVANE: 16, Award.FEUDAL_OVERLORD: 16, Award.MOUNTAIN_KING: 16,
                                         Award.JUSTICE_LEAGUE: 16, Award.JOLLY_ROGER: 16, Award.MASTER_OF_ASSASSINS: 8}
    assert [(r.name, r.goals, r.prestige, r.total, r.place, r.title) for r in result.rows] == [
        ("ann", 30, 5, 592, 1, "Baron"), ("bo", 80, 0, 578, 2, "Baron"), ("cy", 20, 10, 443, 3, None)]
    assert set(result.unawarded) == {Award.UNOPPOSED_CHANCELLOR, Award.BRIGHT_SHINY, Award.STAINED_LIPS,
                                     Award.VERY_SOOTHING_MUSIC, Award.UNINVITED_GUEST, Award.SPYMASTER}

    again = await table.clerk.landsdraad.victory.end_game(table.game_id, actor=MOD)
    assert isinstance(again, FinalView) and again.already and again.rows == result.rows
    [ended] = [e for e in await table.events() if e.kind == "GameEnded"]
    assert ended.payload["scores"][0] == {"name": "ann", "total": 592, "place": 1, "title": "Baron"}
    doc = await table.clerk.exports.export(table.game_id, include_events=False)
    assert doc["game"]["status"] == "ended"
    assert doc["final_scores"][0] == {
        "name": "ann", "categories": {"votes": 120, "military": 27, "planets": 26, "assets": 64, "income": 120,
                                      "stock": 64, "wealth": 16},
        "singular": [{"award": "First Among Equals", "vp": 32}, {"award": "Spice Baron", "vp": 16},
                     {"award": "He Who Controls the Spice", "vp": 16}, {"award": "CHOAM Director", "vp": 8},
                     {"award": "Industrial Titan", "vp": 16}, {"award": "All Your Base Are Belong To Us", "vp": 16},
                     {"award": "Master of Corruption", "vp": 16}],
        "goals": 30, "prestige": 5, "total": 592, "place": 1, "title": "Baron"}
    assert doc["final"]["unawarded"][0] == "Unopposed Chancellor" and doc["final"]["pot"] == "1600"


async def test_the_final_table_at_the_front_end(table: Any) -> None:
    """/game end posts the final table (and its PNG) in the game channel; afterwards it and /forecast show the
    stored scores; measures no longer change (R3-23)."""
    await three_player_game(table)
    c = table.clerk
    out = await slash(c, MODERATOR, "game end")
    assert out[0].ephemeral and isinstance(out[1].to, ToChannel)
    posted = text_of(out[1])
    assert "**1st** ann: 592 VP, Baron" in posted and "**3rd** cy: 443 VP" in posted
    assert "Final Victory Pot: 1600" in posted and "Not awarded" in posted
    assert out[1].file is not None and out[1].file[0] == "scores.png" and out[1].file[1][:4] == b"\x89PNG"
    assert "Hold Kaitain" not in posted and "Own 4 Agri Fiefs" not in posted, "goal texts stay private"
    again = await slash(c, MODERATOR, "game end")
    assert len(again) == 1 and again[0].ephemeral and "already ended" in text_of(again[0])
    shown = await slash(c, actor(BO, "bo"), "forecast")
    assert "has ended" in text_of(shown[0]) and "**2nd** bo: 578 VP, Baron" in text_of(shown[0])
    refused = only_here(await slash(c, MODERATOR, "forces set", player=user(ANN, "ann"), militia=1))
    assert refused == ("sirius ended on 2026-03-01 18:00 UTC; its ledger is closed. A moderator's /game export has "
                       "everything.")
    with pytest.raises(RuleError, match="no longer change"):
        await table.clerk.landsdraad.victory.set_percentage(table.game_id, category=Category.VOTES, value=20, actor=MOD)


async def test_prestige_and_goals_after_the_end_update_the_final_scores(table: Any) -> None:
    """R3-16: prestige may be awarded "during or after the game". Once ended the ledger is closed (issue 16), so a
    moderator reopens the game, awards it and ends it again: the totals, places and titles follow, the measures as
    they are. cy 443 + 91 = 534 becomes a Baron (18·534 = 9612 ≥ 9600); ann's second goal (50) makes 642; 50 more
    for cy (584) puts cy second, ahead of bo (578)."""
    await three_player_game(table)
    await table.clerk.landsdraad.victory.end_game(table.game_id, actor=MOD)
    with pytest.raises(RuleError, match="its ledger is closed"):
        await table.clerk.landsdraad.victory.award_prestige(table.game_id, user_id=CY, vp=91,
                                                            reason="Epic backstab", actor=MOD)
    await table.clerk.games.reopen(table.game_id, actor=MOD, reason="the prestige of the last session")
    receipt = await table.clerk.landsdraad.victory.award_prestige(table.game_id, user_id=CY, vp=91,
                                                                  reason="Epic backstab", actor=MOD)
    assert receipt.final is None, "while reopened no interim table: the next end posts one correction"
    ended = await table.clerk.landsdraad.victory.end_game(table.game_id, actor=MOD)
    assert isinstance(ended, FinalView) and [(r.name, r.total, r.place, r.title) for r in ended.rows] == [
        ("ann", 592, 1, "Baron"), ("bo", 578, 2, "Baron"), ("cy", 534, 3, "Baron")]
    assert ended.correction == ("cy: 443 → 534 VP, no title → Baron",)
    await table.clerk.games.reopen(table.game_id, actor=MOD)
    changed = await table.clerk.landsdraad.victory.set_goal_achieved(table.game_id, user_id=ANN, number=2, actor=MOD)
    assert changed.final is None
    out = await slash(table.clerk, MODERATOR, "prestige award", player=user(CY, "cy"), vp=50, reason="Sportsmanship")
    assert not [o for o in out if isinstance(o.to, ToChannel)], "nothing posted while it is reopened"
    out = await slash(table.clerk, MODERATOR, "game end")
    posted = [o for o in out if isinstance(o.to, ToChannel)]
    assert "**1st** ann: 642 VP" in text_of(posted[1]) and "**2nd** cy: 584 VP" in text_of(posted[1])
    correction = text_of(posted[0])
    assert correction.startswith("**Correction: the final scores of sirius**")
    assert correction.endswith("What changed:\n- ann: 592 → 642 VP, Baron → Viscount\n"
                               "- cy: 534 → 584 VP, 3rd → 2nd\n- bo: 2nd → 3rd"), correction


async def test_tv3_i08_the_end_game_penalty_through_the_service(table: Any) -> None:
    """TV3-I08: 10 players, an End Game vote enacted with the default 20% penalty: Pot 3000 → 2400, Income 240 VP;
    John's 12,000 of 100,000 MS is floor(240·0.12) = floor(28.8) = 28 VP; a 1% award is 24 VP (John's 2 heroes:
    Justice League). His goal (10 VP) and prestige (5 VP) are not reduced."""
    incomes = [12000, *([11000] * 8), 0]
    for i, income in enumerate(incomes):
        await player(table, 900 + i, "john" if i == 0 else f"p{i}")
        if income:
            await track(table, 900 + i, income=income)
    await track(table, 900, heroes=2)
    await table.clerk.landsdraad.victory.add_goal(table.game_id, user_id=900, description="Rule Arrakis", vp=10,
                                                  actor=MOD)
    await table.clerk.landsdraad.victory.set_goal_achieved(table.game_id, user_id=900, number=1, actor=MOD)
    await table.clerk.landsdraad.victory.award_prestige(table.game_id, user_id=900, vp=5,
                                                        reason="Master of Ceremonies", actor=MOD)
    await table.open()
    enacted = await end_game_vote(table, [900 + i for i in range(6)])
    assert enacted.game_ended and enacted.extra == {"penalty": 20}

    result = enacted.final  # scored in the enactment's transaction
    assert isinstance(result, FinalView) and (result.pot, result.penalty, result.ended_by) == (2400, 20, "end game")
    john = next(r for r in result.rows if r.name == "john")
    assert john.categories[Category.INCOME] == 28
    assert dict(john.singular)[Award.JUSTICE_LEAGUE] == 24
    assert (john.goals, john.prestige) == (10, 5)
    assert (await table.clerk.landsdraad.victory.forecast(table.game_id)).forecast.pot == 2400
    again = await table.clerk.landsdraad.victory.end_game(table.game_id, actor=MOD)
    assert isinstance(again, FinalView) and again.already and again.rows == result.rows
    assert [e.kind for e in await table.events()].count("GameScored") == 1


async def test_an_enacted_end_game_vote_posts_the_final_scores(table: Any) -> None:
    """/pv enact of End Game: the enacted card, then the final table, with the penalty applied (R3-04)."""
    for user_id, name in ((ANN, "ann"), (BO, "bo"), (CY, "cy")):
        await player(table, user_id, name)
    await table.open()
    for user_id in (ANN, BO):
        receipt = await table.clerk.landsdraad.majority.support(table.game_id, user_id=user_id,
                                                                motion=Motion(Subject.END_GAME), thread_id=None,
                                                                at=table.clock.now(), source_id=table.source())
    out = await slash(table.clerk, MODERATOR, "pv enact", vote=receipt.vote.id, penalty=25)
    texts = [text_of(o) for o in out if isinstance(o.to, ToChannel)]
    assert any("Enacted: End Game" in t for t in texts)
    [final] = [t for t in texts if "final scores" in t]
    assert "The game ended by an End Game vote." in final
    assert "Final Victory Pot: 1200 (after the End Game penalty of 25%)" in final  # 1600 · 75%


async def test_p3_15_more_than_100_percent_waits_for_a_moderator(table: Any) -> None:
    """P3-15 (TV3-I12): above 100% in all, /game end refuses until confirmed; after an End Game vote the game is
    ended but unscored, and the moderators are told how to score it."""
    for user_id, name in ((ANN, "ann"), (BO, "bo"), (CY, "cy")):
        await player(table, user_id, name)
    await table.clerk.landsdraad.victory.set_percentage(table.game_id, category=Category.VOTES, value=20, actor=MOD)
    with pytest.raises(RuleError, match="105% of the Pot"):
        await table.clerk.landsdraad.victory.end_game(table.game_id, actor=MOD)
    assert (await table.clerk.games.game(table.game_id)).name == "sirius"
    doc = await table.clerk.exports.export(table.game_id, include_events=False)
    assert doc["game"]["status"] == "active", "a refused end changes nothing"

    await table.open()
    for user_id in (ANN, BO):
        receipt = await table.clerk.landsdraad.majority.support(table.game_id, user_id=user_id,
                                                                motion=Motion(Subject.END_GAME), thread_id=None,
                                                                at=table.clock.now(), source_id=table.source())
    out = await slash(table.clerk, MODERATOR, "pv enact", vote=receipt.vote.id)
    [pending] = [text_of(o) for o in out if isinstance(o.to, ToChannel) and "not scored yet" in text_of(o)]
    assert "/game end confirm:true" in pending
    assert await table.clerk.landsdraad.victory.final(table.game_id) is None, "ended, not scored: it waits"
    assert "GameScored" not in [e.kind for e in await table.events()]
    with pytest.raises(RuleError, match="more than 100%"):
        await table.clerk.landsdraad.victory.end_game(table.game_id, actor=MOD)
    scored = await table.clerk.landsdraad.victory.end_game(table.game_id, actor=MOD, confirm=True)
    assert isinstance(scored, FinalView) and scored.pot == 1280 and scored.ended_by == "end game"
    # all three have 4 votes: Votes is 20% of 1280 = 256, a third each is floor(85.3) = 85
    assert [r.categories[Category.VOTES] for r in scored.rows] == [85, 85, 85]


async def test_a_round_still_open_blocks_a_moderators_end(table: Any) -> None:
    await player(table, ANN, "ann")
    await table.open()
    with pytest.raises(RuleError, match="Round 1 is still open"):
        await table.clerk.landsdraad.victory.end_game(table.game_id, actor=MOD)


async def test_R3_21_a_severe_crisis_ends_the_game_and_changes_the_shares(table: Any) -> None:
    """R3-21 with the document's example (R3-03): "if the player's vote to dissolve the Empire into a hundred
    kingdoms the final result might see CHOAM stock worth nothing and Military and Planets each worth 15% of the
    Pot". The crisis is its vote first (P0-05: Aye is the game-ending option; /game end waits while it is open),
    then the moderators enter the Appendix G data: Stock 0, Military 15, Planets 15, still 100% in all, so the
    game is scored without a confirmation. N = 2: Pot 1400. Ann (12 votes, 10 militia) beats Bo (8 votes, 10 CHOAM
    shares) 12 : 8. Military is 15% = 210 VP, all Ann's; Stock is worth nothing to Bo (10% would have been 140);
    the crisis counts for Weathervane: Ann, 1% = 14 VP."""
    await player(table, ANN, "ann", misc=8)
    await player(table, BO, "bo", misc=4)
    await track(table, ANN, militia=10)
    await track(table, BO, stock=10)
    await table.open("Severe Crisis: dissolve the Empire into a hundred kingdoms (Aye ends the game)")
    await table.vote(ANN, "Vote: Aye")
    await table.vote(BO, "Vote: Nay")
    with pytest.raises(RuleError, match="Round 1 is still open"):
        await table.clerk.landsdraad.victory.end_game(table.game_id, actor=MOD)
    assert (await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=MOD)).outcome == "passed"
    for category, value in ((Category.STOCK, 0), (Category.MILITARY, 15), (Category.PLANETS, 15)):
        await table.clerk.landsdraad.victory.set_percentage(table.game_id, category=category, value=value, actor=MOD)
    result = await table.clerk.landsdraad.victory.end_game(table.game_id, actor=MOD)
    assert isinstance(result, FinalView) and result.pot == 1400
    rows = {r.name: r for r in result.rows}
    assert (rows["ann"].categories[Category.MILITARY], rows["bo"].categories[Category.STOCK]) == (210, 0)
    assert dict(rows["ann"].singular)[Award.WEATHERVANE] == 14


async def test_tv3_i13_weathervane_from_the_closed_rounds(table: Any) -> None:
    """TV3-I13 / R3-13 with real rounds: ann 10, bo 8, cy 4 votes. Round 1 ann Aye, bo Nay, cy Abstain: 10 : 8
    passed (Aye wins: ann). Round 2 ann Nay, bo Nay, cy Aye: failed (Nay: ann, bo). Round 3 ann Aye, bo Nay, cy Nay:
    10 : 12 failed (Nay: bo, cy). Round 4 is pre-empted by End Game and never counts. ann 2, bo 2, cy 1: ann and
    bo share Weathervane: the Pot is 1600 less 20% = 1280, 1% is 12.8, floor(12.8 / 2) = 6 each."""
    await player(table, ANN, "ann", misc=6)
    await player(table, BO, "bo", misc=4)
    await player(table, CY, "cy")
    assert await crisis(table, {ANN: "Vote: Aye", BO: "Vote: Nay", CY: "Vote: Abstain"}) == "passed"
    assert await crisis(table, {ANN: "Vote: Nay", BO: "Vote: Nay", CY: "Vote: Aye"}) == "failed"
    assert await crisis(table, {ANN: "Vote: Aye", BO: "Vote: Nay", CY: "Vote: Nay"}) == "failed"
    await table.open()
    for user_id in (ANN, BO, CY):
        await table.vote(user_id, "Vote: Aye")
    result = (await end_game_vote(table, [ANN, BO])).final  # scored in the enactment's transaction
    assert {t.name: t.weathervane for t in await table.clerk.landsdraad.victory.tracked(
        table.game_id)} == {"ann": 2, "bo": 2, "cy": 1}
    assert isinstance(result, FinalView)
    assert {r.name: dict(r.singular).get(Award.WEATHERVANE) for r in result.rows} == {"ann": 6, "bo": 6, "cy": None}


async def test_majority_victory_is_noticed_after_round_five_and_confirmed_by_a_moderator(table: Any) -> None:
    """R3-20 / P3-08 / P3-10 (TV3-I07): ann controls 31 of 51 player votes from the start, yet nothing is said
    until round 5 is complete; its close tells the moderators once; the game goes on until a moderator confirms
    with /game end majority:true: ann is Chancellor of the Landsdraad and wins Unopposed Chancellor (3% of 1600 =
    48 VP). Temporary factions never count."""
    c = table.clerk
    await player(table, ANN, "ann", misc=27)  # 31
    await player(table, BO, "bo", misc=8)  # 12
    await player(table, CY, "cy", misc=4)  # 8
    with pytest.raises(RuleError, match="once round 5 is complete"):
        await c.landsdraad.victory.end_game(table.game_id, actor=MOD, majority=True)
    for _ in range(4):
        await crisis(table, {})
    await table.open()
    await table.faction("Hawks", 100, "nay")
    out = await slash(c, MODERATOR, "player set", user=user(BO, "bo"), misc=9)  # round 5 still open
    assert not any("Majority" in text_of(o) for o in out)

    closed = await slash(c, MODERATOR, "round close")
    notices = [o for o in closed if "Majority Victory?" in text_of(o)]
    # in the moderators' private place, never the game channel: it names ann's V(p), private to ann (P0-14)
    assert len(notices) == 1 and isinstance(notices[0].to, ToThread) and notices[0].to.private
    assert not [o for o in closed if isinstance(o.to, ToChannel) and "Majority Victory" in text_of(o)]
    assert "ann controls 31 of the 52 votes" in text_of(notices[0]) and "/game end majority:true" in text_of(notices[0])
    again = await slash(c, MODERATOR, "player set", user=user(CY, "cy"), misc=5)
    assert not any("Majority" in text_of(o) for o in again), "announced once"
    assert (await c.exports.export(table.game_id, include_events=False))["game"]["status"] == "active"

    lost = await slash(c, MODERATOR, "player set", user=user(BO, "bo"), misc=30)  # bo 34: ann 31 of 74
    assert any("no longer holds a majority" in text_of(o) for o in lost if isinstance(o.to, ToThread) and o.to.private)
    assert not [o for o in lost if isinstance(o.to, ToChannel)]
    with pytest.raises(RuleError, match="Nobody holds a majority of the 74 votes"):
        await c.landsdraad.victory.end_game(table.game_id, actor=MOD, majority=True)
    back = await slash(c, MODERATOR, "player set", user=user(BO, "bo"), misc=8)
    [gained] = [o for o in back if isinstance(o.to, Here) and "Majority Victory?" in text_of(o)]
    assert gained.ephemeral, "the moderator whose command caused it is told too"
    kinds = [e.kind for e in await table.events() if e.kind.startswith("Majority")]
    assert kinds == ["MajorityDetected", "MajorityLost", "MajorityDetected"]

    await table.open()
    result = await c.landsdraad.victory.end_game(table.game_id, actor=MOD, majority=True)
    assert isinstance(result, FinalView) and result.ended_by == "majority" and result.chancellor == "ann"
    ann = result.rows[0]
    assert (ann.name, ann.title, dict(ann.singular)[Award.UNOPPOSED_CHANCELLOR]) == (
        "ann", "Chancellor of the Landsdraad", 48)
    doc = await c.exports.export(table.game_id, include_events=False)
    assert doc["rounds"][-1]["status"] == "void", "a majority ends play at once; the open round is void"
    assert doc["final"]["chancellor"] == "ann"
    # /score once scored: ann's stored final row, with her place and the Chancellor's title, not a projection
    [card] = [o.card for o in await slash(c, actor(ANN, "ann"), "score") if o.card is not None]
    assert card.title == f"ann in sirius: final score {ann.total} VP, 1st"
    assert ("Title", "Chancellor of the Landsdraad", True) in card.fields
    assert "if the game ended now" not in card.title


async def test_the_majority_checks_notice_is_owed_in_the_checks_transaction(table: Any) -> None:
    """R3-20 after a round's close: the check is a write of its own after the close's, and with an ``answer`` the
    notice's messages are owed in the transaction that records ``MajorityDetected`` (``owe_in``): both commit, or
    neither (a failure making them undoes the record, so the next check tells it). A check that finds the majority
    told already owes nothing."""
    from engine.service.landsdraad.victory_views import MajorityNotice
    from engine.service.owed import NOTICE, Owed, OwedWith

    c = table.clerk
    await player(table, ANN, "ann", misc=27)  # 31
    await player(table, BO, "bo", misc=8)  # 12
    for _ in range(5):
        await crisis(table, {})

    def failing(_notice: MajorityNotice | None) -> list[Owed]:
        raise RuntimeError("the notice could not be made")

    with pytest.raises(RuntimeError):
        await c.landsdraad.victory.check_majority(table.game_id, actor=None, answer=OwedWith(failing))
    assert not [e for e in await table.events() if e.kind.startswith("Majority")], "undone with its notice"
    assert await c.outbox.owed() == []

    def notice(found: MajorityNotice | None) -> list[Owed]:
        assert found is not None
        return [Owed("channel:1", 1, NOTICE, f"majority-{found.player}", {"to": {"channel": 1}, "text": "told"})]

    answer: OwedWith[MajorityNotice | None] = OwedWith(notice)
    told = await c.landsdraad.victory.check_majority(table.game_id, actor=None, answer=answer)
    assert told is not None and told.player == "ann" and told.gained
    assert [e.kind for e in await table.events() if e.kind.startswith("Majority")] == ["MajorityDetected"]
    assert [r.owed.nonce for r in await c.outbox.owed()] == ["majority-ann"] == [r.owed.nonce for r in answer.rows]
    again: OwedWith[MajorityNotice | None] = OwedWith(notice)
    assert await c.landsdraad.victory.check_majority(table.game_id, actor=None, answer=again) is None
    assert again.rows == [] and len(await c.outbox.owed()) == 1


async def test_the_look_at_start_tells_a_majority_not_told_yet_from_one_told(table: Any) -> None:
    """``majority_to_tell``, the read each start makes before the check's write: true only while the holder differs
    from the one last told (gained, or lost), false before round 5 is complete."""
    c = table.clerk
    await player(table, ANN, "ann", misc=27)  # 31
    await player(table, BO, "bo", misc=8)  # 12
    for _ in range(4):
        await crisis(table, {})
    assert not await c.landsdraad.victory.majority_to_tell(table.game_id), "round 5 not complete"
    await crisis(table, {})
    assert await c.landsdraad.victory.majority_to_tell(table.game_id), "ann holds it, not told yet"
    assert await c.landsdraad.victory.check_majority(table.game_id, actor=None) is not None
    assert not await c.landsdraad.victory.majority_to_tell(table.game_id), "told"


async def test_victory_points_are_a_landsdraad_rule(table: Any) -> None:
    """A game of another ruleset gets no Forecast, no majority check and no Landsdraad final scores."""
    async with make_sessionmaker(table.engine)() as session, session.begin():
        other = Game(guild_id=GUILD, channel_id=4242, name="senate", ruleset="convocate", settings={},
                     current_round=6, last_seq=0, created_at=table.clock.now())
        session.add(other)
    view = await table.clerk.games.game(other.id)
    ctx = Ctx(MODERATOR, Place(GUILD, 4242), "x-1", table.clock.now())
    refused = await dispatch(App(table.clerk), ctx, "forecast", {})
    assert "/forecast is not used in Convocate games like senate" in text_of(refused[0])
    assert await forecast_posts(App(table.clerk), view) == []
    assert await majority_check(App(table.clerk), view, None) == []
    with pytest.raises(RuleError, match="Landsdraad rule"):
        await table.clerk.landsdraad.victory.end_game(other.id, actor=MOD)


async def test_a_game_an_end_game_vote_ended_ends_again_with_its_penalty(table: Any) -> None:
    """Reopened after an End Game vote (issue 16), the game ends again as that vote ended it: the same penalty on
    the Pot, scored again from the ledger; the correction names what moved, and the Pot does not."""
    await three_player_game(table)
    await table.open()
    enacted = await end_game_vote(table, [ANN, BO], penalty=25)
    assert enacted.game_ended
    first = enacted.final  # scored in the enactment's transaction
    assert isinstance(first, FinalView) and (first.penalty, first.ended_by) == (25, "end game")
    await table.clerk.games.reopen(table.game_id, actor=MOD, reason="cy's prestige")
    await table.clerk.landsdraad.victory.award_prestige(table.game_id, user_id=CY, vp=10, reason="Host", actor=MOD)
    again = await table.clerk.landsdraad.victory.end_game(table.game_id, actor=MOD)
    assert isinstance(again, FinalView) and (again.penalty, again.ended_by, again.pot) == (25, "end game", first.pot)
    cy = next(r for r in first.rows if r.name == "cy")
    assert again.correction is not None and again.correction[0].startswith(f"cy: {cy.total} → {cy.total + 10} VP")
    assert (await table.clerk.games.game(table.game_id)).ended


async def test_an_end_game_vote_enacted_by_mistake_is_vetoed_after_the_game_is_reopened(table: Any) -> None:
    """Play-test Y4 (docs/rulings.md, "An End Game vote enacted by mistake"): once the game is reopened, `/pv veto` of
    the enacted End Game vote takes it back: the penalty is lifted, the final scores it posted are withdrawn, the game
    goes on (the round it made void stays void) and it is scored without the penalty when the moderator ends it."""
    for user_id, name in ((ANN, "ann"), (BO, "bo"), (CY, "cy")):
        await player(table, user_id, name)
    await table.open()
    for user_id in (ANN, BO):
        receipt = await table.clerk.landsdraad.majority.support(table.game_id, user_id=user_id,
                                                                motion=Motion(Subject.END_GAME), thread_id=None,
                                                                at=table.clock.now(), source_id=table.source())
    await slash(table.clerk, MODERATOR, "pv enact", vote=receipt.vote.id, penalty=25)
    assert (await table.clerk.landsdraad.victory.final(table.game_id)).pot == 1200
    await table.clerk.games.reopen(table.game_id, actor=MOD, reason="enacted by mistake")
    out = await slash(table.clerk, MODERATOR, "pv veto", vote=receipt.vote.id)
    [card] = [text_of(o) for o in out if isinstance(o.to, ToChannel) and "Vetoed after all" in text_of(o)]
    assert "The Victory Pot is no longer reduced by 25%." in card and "final scores it posted are withdrawn" in card
    assert "Round 1, which it made void, stays void" in card
    assert await table.clerk.landsdraad.victory.final(table.game_id) is None
    [vetoed] = [e for e in await table.events() if e.kind == "PlayerVoteVetoed"]
    assert vetoed.payload["after_enactment"] is True and vetoed.payload["penalty_lifted"] == 25
    await table.open()
    await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=MOD)
    final = await table.clerk.landsdraad.victory.end_game(table.game_id, actor=MOD)
    assert isinstance(final, FinalView) and (final.pot, final.ended_by, final.penalty) == (1600, "moderator", 0)
    with pytest.raises(RuleError, match="is vetoed"):  # once taken back, never again
        await table.clerk.games.reopen(table.game_id, actor=MOD)
        await table.clerk.landsdraad.majority.veto(table.game_id, vote_id=receipt.vote.id, actor=MOD)
