"""The vote ledger through the service (R0-01..R0-07): players, attributes, holdings, V(p), and the errors a
moderator sees. Runs on a migrated SQLite file, and on PostgreSQL when TEST_POSTGRES_URL is set."""

from __future__ import annotations

import re
from typing import Any

import pytest

from engine.core.dice import face
from engine.core.errors import NotFoundError, RuleError

JENNY, BOB = 101, 102
MOD = 1


async def _jenny(table: Any) -> None:
    await table.player(JENNY, "jenny", 3, 2, 2, roll=3, faction="House Atreides")


async def test_TV0_S01_jenny_ledger_through_the_service(table: Any) -> None:
    """TV0-S01: "she begins play with a Base Vote of [...] 11 votes. She raises her diplomacy to 4 [...] 13 votes
    [...] Count Jasek (average), an Elector with 5 votes, and the Planet of Deneb, which is average [...] giving
    her 25 votes total"."""
    await _jenny(table)
    jenny = await table.clerk.landsdraad.ledger.player(table.game_id, JENNY)
    assert (jenny.votes, jenny.breakdown.base, jenny.faction) == (11, 11, "House Atreides")

    jenny = await table.clerk.landsdraad.ledger.set_player(table.game_id, user_id=JENNY, diplomacy=4, actor=MOD)
    assert (jenny.diplomacy, jenny.breakdown.base, jenny.votes) == (4, 13, 13)

    jenny = await table.elector(JENNY, "Count Jasek", "average", 5)
    assert jenny.votes == 13 + 5 + 2
    jenny = await table.planet(JENNY, "Deneb", "Average")
    b = jenny.breakdown
    assert (b.base, b.electors, b.planets, b.misc, b.bonus, jenny.votes) == (13, 5, 3, 0, 4, 25)
    assert [(h.kind, h.name, h.grade, h.votes) for h in jenny.holdings] == [
        ("elector", "Count Jasek", "average", 5), ("planet", "Deneb", "average", 3)]

    jenny = await table.planet(JENNY, "Caladan", "rich", homeworld=True)
    assert jenny.votes == 25  # R0-04/R0-06: the Homeworld adds neither planet votes nor the bonus
    assert (await table.clerk.landsdraad.ledger.player(table.game_id, JENNY)).votes == 25


async def test_TV0_I02_base_vote_never_falls_but_the_bonus_uses_current_diplomacy(table: Any) -> None:
    """R0-02 / P0-02: the Base Vote "can never be reduced" in play; R0-06's bonus uses the current D."""
    await _jenny(table)
    await table.open()  # in play (before the first round a change is a correction of the set-up: below)
    await table.clerk.landsdraad.ledger.set_player(table.game_id, user_id=JENNY, diplomacy=4, actor=MOD)
    await table.elector(JENNY, "Count Jasek", "average", 5)
    await table.planet(JENNY, "Deneb", "average")
    jenny = await table.clerk.landsdraad.ledger.set_player(table.game_id, user_id=JENNY, diplomacy=3, actor=MOD)
    assert (jenny.breakdown.base, jenny.breakdown.bonus, jenny.votes) == (13, 0, 21)
    jenny = await table.clerk.landsdraad.ledger.set_player(table.game_id, user_id=JENNY, intrigue=1, misc=4, actor=MOD)
    assert (jenny.breakdown.base, jenny.breakdown.misc, jenny.votes) == (13, 4, 25)


async def test_a_score_corrected_before_the_first_round_is_as_if_entered_so(table: Any) -> None:
    """A typo in set-up (D 4 for 3) corrected before any round opens: no score was held in play, so the base is
    2·3 + 2 + 3 = 11 (TV0-S01's Jenny), not 13; /why rebuilds the same from the events. Once play starts, a fall in D
    no longer lowers the base (R0-02)."""
    ledger = table.clerk.landsdraad.ledger
    await table.player(JENNY, "jenny", 4, 2, 2, roll=3, faction="House Atreides")
    jenny = await ledger.set_player(table.game_id, user_id=JENNY, diplomacy=3, actor=MOD)
    assert (jenny.breakdown.base, jenny.votes, jenny.diplomacy_max) == (11, 11, 3)
    await table.open()
    jenny = await ledger.set_player(table.game_id, user_id=JENNY, diplomacy=2, actor=MOD)
    assert (jenny.breakdown.base, jenny.diplomacy_max) == (11, 3)
    await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=MOD)
    why = await table.clerk.landsdraad.explain.votes(table.game_id, JENNY, 1)
    assert why.value == 11
    [rebuilt] = why.parts  # the ledger's events up to the close, rebuilt by the same rule
    assert rebuilt.value == 11 and "2 × highest Diplomacy 3" in rebuilt.steps[0].says


async def test_a_score_corrected_with_since_in_play_was_never_held(table: Any) -> None:
    """docs/rulings.md: a Diplomacy typed wrong in play (5 for 3) and set again with `since:N` (a correction: the score
    should have been so from round N on) was never held: the base is rebuilt from the highest held before round N
    and the corrected score (2·3 + 2 + 3 = 11), not the 5's 15. Without `since` a fall still never lowers it
    (R0-02, P0-02). A typo made after a close is corrected with the next round while none is open; `/why votes
    round:N` rebuilds the corrected figure from the events."""
    ledger = table.clerk.landsdraad.ledger
    await table.player(JENNY, "jenny", 3, 2, 2, roll=3)
    await table.open()
    await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=MOD)
    typo = await ledger.set_player(table.game_id, user_id=JENNY, diplomacy=5, actor=MOD)  # between rounds 1 and 2
    assert typo.votes == 15
    fell = await ledger.set_player(table.game_id, user_id=JENNY, diplomacy=3, actor=MOD)
    assert (fell.votes, fell.diplomacy_max) == (15, 5)  # a fall: the base keeps the highest held
    fixed = await ledger.set_player(table.game_id, user_id=JENNY, diplomacy=3, since=2, actor=MOD)
    assert (fixed.votes, fixed.diplomacy_max) == (11, 3)
    assert (await table.events())[-1].payload["highest"] == {"diplomacy": 3, "intrigue": 2}
    with pytest.raises(RuleError, match=r"\(1 to 2\) \(the next round counts while none is open\), not 3"):
        await ledger.set_player(table.game_id, user_id=JENNY, diplomacy=3, since=3, actor=MOD)
    await table.open()
    await ledger.set_player(table.game_id, user_id=JENNY, intrigue=4, actor=MOD)  # a real raise in round 2: 13
    await ledger.set_player(table.game_id, user_id=JENNY, diplomacy=5, actor=MOD)  # a typo for 4: 17
    fixed = await ledger.set_player(table.game_id, user_id=JENNY, diplomacy=4, since=2, actor=MOD)
    assert (fixed.votes, fixed.diplomacy_max, fixed.intrigue_max) == (15, 4, 4)  # 2·4 + 4 + 3; Intrigue kept
    with pytest.raises(RuleError, match=r"\(1 to 2\), not 3"):  # a round is open: the next one is not yet
        await ledger.set_player(table.game_id, user_id=JENNY, diplomacy=4, since=3, actor=MOD)
    await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=MOD)
    why = await table.clerk.landsdraad.explain.votes(table.game_id, JENNY, 2)
    [rebuilt] = why.parts  # rebuilt from the events, the correction's highest held among them
    assert why.value == rebuilt.value == 15 and "2 × highest Diplomacy 4" in rebuilt.steps[0].says


async def test_removing_a_holding_lowers_the_votes(table: Any) -> None:
    """R0-07: "Assassinations or Seizures can reduce a player's votes that round"."""
    await _jenny(table)
    await table.elector(JENNY, "Count Jasek", "strong", 5)
    jenny = await table.clerk.landsdraad.ledger.remove_holding(table.game_id, user_id=JENNY, name="Count Jasek",
                                                               actor=MOD)
    assert (jenny.votes, jenny.holdings) == (11, ())


async def test_d3_rolled_by_the_service_when_not_given_and_recorded(table: Any) -> None:
    """R0-01: "roll 1d3 once and store the result"; the roll comes from the game's committed seed (docs/dice.md)
    and is logged."""
    bob = await table.player(BOB, "bob", 2, 2, 2, roll=None)
    assert await table.rolls() == [(3, bob.roll)]
    seed = table.dice._dice.secret(f"game {table.game_id} scope 0 seed")
    assert bob.roll == face(seed, f"d3 base roll of user {BOB}", 0, 3)  # the seeded dice: the same on every run
    assert bob.votes == 6 + bob.roll
    added = (await table.events())[-1]
    assert added.kind == "PlayerAdded"
    assert (added.payload["roll"], added.payload["rolled_by_clerk"]) == (bob.roll, True)
    await table.player(JENNY, "jenny", 3, 2, 2, roll=3)
    assert (await table.events())[-1].payload["rolled_by_clerk"] is False
    assert len(await table.rolls()) == 1


async def test_players_listing_and_games_of_user(table: Any) -> None:
    await _jenny(table)
    await table.player(BOB, "bob", 1, 1, 1)
    assert [p.name for p in await table.clerk.landsdraad.ledger.players(table.game_id)] == ["jenny", "bob"]
    assert [g.name for g in await table.clerk.games.games_of_user(JENNY)] == ["sirius"]
    assert await table.clerk.games.games_of_user(999) == []
    assert (await table.clerk.games.game_in_channel(901)) == table.game


# --- errors: well formed, not allowed (RuleError says why) ---------------------------------------------------------


async def test_duplicate_player(table: Any) -> None:
    await _jenny(table)
    with pytest.raises(RuleError, match="jenny is already a player in sirius"):
        await _jenny(table)


async def test_not_a_player(table: Any) -> None:
    with pytest.raises(NotFoundError, match="is not a player in sirius"):
        await table.clerk.landsdraad.ledger.set_player(table.game_id, user_id=555, diplomacy=3, actor=MOD)
    with pytest.raises(NotFoundError, match="is not a player in sirius"):
        await table.elector(555, "Count Jasek", "average", 5)
    with pytest.raises(NotFoundError, match="not a player in sirius"):
        await table.clerk.landsdraad.ledger.player(table.game_id, 555)


async def test_duplicate_holding_name_even_for_another_player(table: Any) -> None:
    await _jenny(table)
    await table.player(BOB, "bob", 1, 1, 1)
    await table.planet(JENNY, "Deneb", "average")
    with pytest.raises(RuleError, match="Deneb is already held in sirius"):
        await table.planet(BOB, "Deneb", "rich")
    with pytest.raises(RuleError, match="Deneb is already held"):
        await table.elector(JENNY, "Deneb", "weak", 2)
    with pytest.raises(RuleError, match="Deneb is already held in sirius"):  # the same name in another case
        await table.planet(BOB, "deneb", "rich")


async def test_a_holding_is_removed_by_its_name_in_any_case(table: Any) -> None:
    """Holding names are one holding in any case (as transfers match them): ``count jasek`` removes Count Jasek,
    and the event records the holding's own name, as its HoldingAdded has it."""
    await _jenny(table)
    await table.elector(JENNY, "Count Jasek", "strong", 5)
    jenny = await table.clerk.landsdraad.ledger.remove_holding(table.game_id, user_id=JENNY, name="count JASEK",
                                                               actor=MOD)
    assert (jenny.votes, jenny.holdings) == (11, ())
    [removed] = [e for e in await table.events() if e.kind == "HoldingRemoved"]
    assert removed.payload["name"] == "Count Jasek"


async def test_removing_an_unknown_holding_lists_what_they_hold(table: Any) -> None:
    await _jenny(table)
    with pytest.raises(NotFoundError, match=re.escape("jenny holds nothing called “Deneb”. They hold: nothing.")):
        await table.clerk.landsdraad.ledger.remove_holding(table.game_id, user_id=JENNY, name="Deneb", actor=MOD)
    await table.elector(JENNY, "Count Jasek", "average", 5)
    await table.planet(JENNY, "Deneb", "average")
    held = "jenny holds nothing called “Giedi Prime”. They hold: Count Jasek, Deneb."
    with pytest.raises(NotFoundError, match=re.escape(held)):
        await table.clerk.landsdraad.ledger.remove_holding(table.game_id, user_id=JENNY, name="Giedi Prime", actor=MOD)


@pytest.mark.parametrize(
    ("kind", "grade", "votes", "homeworld", "message"),
    [
        ("elector", "legendary", 5, False, "An Elector's tier is weak, average or strong, not “legendary”"),
        ("planet", "lush", None, False, "A planet's quality is poor, average or rich, not “lush”"),
        ("elector", "weak", None, False, "An Elector needs its number of votes"),
        ("elector", "weak", -1, False, "An Elector needs its number of votes"),
        ("planet", "rich", 4, False, "A planet's votes come from its quality"),
        ("elector", "weak", 2, True, "Only a planet can be a Homeworld"),
        ("moon", "rich", None, False, "A holding is an elector or a planet, not “moon”"),
    ],
)
async def test_bad_holding(table: Any, kind: str, grade: str, votes: int | None, homeworld: bool, message: str) -> None:
    await _jenny(table)
    with pytest.raises(RuleError, match=message):
        await table.clerk.landsdraad.ledger.add_holding(table.game_id, user_id=JENNY, kind=kind, name="X",
                                                        grade=grade, votes=votes, homeworld=homeworld, actor=MOD)


async def test_bad_attributes_and_empty_change(table: Any) -> None:
    with pytest.raises(RuleError, match="the d3 roll must be 1, 2 or 3, not 4"):
        await table.player(JENNY, "jenny", 3, 2, 2, roll=4)
    with pytest.raises(RuleError, match="diplomacy must be 0 or more"):
        await table.player(JENNY, "jenny", -1, 2, 2)
    await _jenny(table)
    with pytest.raises(RuleError, match="Nothing to change"):
        await table.clerk.landsdraad.ledger.set_player(table.game_id, user_id=JENNY, actor=MOD)
    with pytest.raises(RuleError, match="misc votes must be 0 or more"):
        await table.clerk.landsdraad.ledger.set_player(table.game_id, user_id=JENNY, misc=-2, actor=MOD)


async def test_game_creation_errors(table: Any) -> None:
    clerk = table.clerk
    with pytest.raises(RuleError, match="“chess” is not a ruleset"):
        await clerk.games.create_game(guild_id=900, channel_id=950, name="x", ruleset="chess", moderator_role_id=None,
                                      actor=MOD)
    with pytest.raises(RuleError, match="Choose one of: landsdraad, mylantium, convocate"):
        await clerk.games.create_game(guild_id=900, channel_id=950, name="x", ruleset="diplomacy",
                                      moderator_role_id=None, actor=MOD)
    with pytest.raises(RuleError, match="already the game channel of sirius"):
        await clerk.games.create_game(guild_id=900, channel_id=901, name="other", ruleset="landsdraad",
                                      moderator_role_id=None, actor=MOD)
    with pytest.raises(RuleError, match="A game called sirius already exists"):
        await clerk.games.create_game(guild_id=900, channel_id=951, name="sirius", ruleset="landsdraad",
                                      moderator_role_id=None, actor=MOD)
    other = await clerk.games.create_game(guild_id=900, channel_id=952, name="deneb", ruleset="Landsdraad",
                                          moderator_role_id=77, actor=MOD)
    assert (other.ruleset, other.moderator_role_id, other.current_round) == ("landsdraad", 77, 0)


async def test_refused_commands_leave_no_trace(table: Any) -> None:
    """A RuleError rolls the whole transaction back: no event, no row, no sequence number used."""
    await _jenny(table)
    with pytest.raises(RuleError):
        await table.clerk.landsdraad.ledger.add_holding(table.game_id, user_id=JENNY, kind="elector",
                                                        name="Count Jasek", grade="average", votes=5,
                                                        homeworld=True, actor=MOD)
    with pytest.raises(RuleError):
        await _jenny(table)
    jenny = await table.clerk.landsdraad.ledger.player(table.game_id, JENNY)
    assert jenny.holdings == ()
    assert await table.kinds() == ["GameCreated", "PlayerAdded"]
