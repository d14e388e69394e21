"""Play-test Y9: a Landsdraad player's name, faction or d3 entered wrong is put right with ``/player set`` (not
``/player remove`` then ``/player add``, which posts a removal and a join). A d3 changes V(p) (R0-03) and is corrected
as a score is (``since:`` and the moderators' notice of the closed results it changes); a rename or a new faction is
told in the channel in one line once the game is under way (names and houses are public, as the join line shows)."""

from __future__ import annotations

from itertools import count
from typing import Any

import pytest
from ledger_front import CHANNEL, GUILD, MODERATOR, text_of, user

from bot.actions.commands import App, dispatch
from bot.actions.context import Ctx, Place
from bot.actions.outbox import Here, Outgoing, ToChannel, ToThread
from engine.core.errors import RuleError
from engine.landsdraad.tally import Tally
from engine.service.landsdraad.votes_asof import ledger_then

ALICE, BOB, CAROL = 301, 302, 303
MOD = 1
_ids = count(1)


async def player_set(clerk: Any, **options: Any) -> list[Outgoing]:
    """``/player set`` by the moderator (``slash`` takes its own ``name``)."""
    ctx = Ctx(MODERATOR, Place(GUILD, CHANNEL), f"set-{next(_ids)}", clerk.clock.now())
    return await dispatch(App(clerk), ctx, "player set", options)


async def _three_rounds(table: Any, planet: str | None = None) -> None:
    """alice V 9 (D 3), bob V 7, carol V 7 (d3 1 each). Round 1 and 2: alice Aye, bob and carol Nay (Aye 9, Nay 14:
    failed); round 3: alice and bob Aye (Aye 16, Nay 7: passed). ``planet``: bob holds Lankiveil of that quality."""
    await table.player(ALICE, "alice", 3, 2, 2, faction="House Atreides")
    await table.player(BOB, "bob", 2, 2, 2)
    await table.player(CAROL, "carol", 2, 2, 2)
    if planet is not None:  # bob holds Lankiveil of this quality
        await table.planet(BOB, "Lankiveil", planet)
    for number, ayes in ((1, (ALICE,)), (2, (ALICE,)), (3, (ALICE, BOB))):
        await table.open(f"Crisis {number}")
        for who in (ALICE, BOB, CAROL):
            await table.vote(who, "Vote: Aye" if who in ayes else "Vote: Nay")
        await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=MOD)


async def test_a_d3_corrected_with_since_is_told_as_a_score_correction_is(table: Any) -> None:
    await _three_rounds(table)
    ledger, errata = table.clerk.landsdraad.ledger, table.clerk.landsdraad.errata
    bob = await ledger.set_player(table.game_id, user_id=BOB, roll=3, since=2, actor=MOD, source_id="roll-1")
    assert (bob.roll, bob.votes, bob.breakdown.base) == (3, 9, 9)
    c = await errata.after_edit(table.game_id, source_id="roll-1")
    assert c is not None and c.subject == "The correction of bob (d3 3 from round 2)"
    assert [(r.round, r.corrected, r.outcome_changed) for r in c.recounts] == [
        (2, Tally(9, 16, 0), False), (3, Tally(18, 7, 0), False)]  # round 1 is before round 2: not asked
    last = (await table.events())[-1]
    assert last.kind == "PlayerChanged" and last.payload["roll"] == 3 and last.payload["votes_change"] == 2
    # the ledger as replayed for /why votes round:N knows the corrected d3 from this event on
    events = [(e.seq, e.kind, e.payload) for e in await table.events()]
    then = ledger_then(events, BOB, last.seq)
    assert then is not None and then.attributes.roll == 3 and last.seq in then.attribute_events
    before = ledger_then(events, BOB, last.seq - 1)
    assert before is not None and before.attributes.roll == 1

    out = await player_set(table.clerk, user=user(CAROL, "carol"), roll=2, since=3)
    [notice] = [o for o in out if isinstance(o.to, ToThread)]
    assert "d3 2 from round 3" in notice.text and "Round 3: posted Aye 16, Nay 7" in notice.text and notice.buttons
    assert not [o for o in out if isinstance(o.to, ToChannel)]  # a d3 is told as a score change is: not in public
    assert "d3 2" in text_of(out[0])


async def test_bad_d3_and_since_without_a_vote_change_are_refused(table: Any) -> None:
    await _three_rounds(table)
    ledger = table.clerk.landsdraad.ledger
    with pytest.raises(RuleError, match="roll is the d3 of the base vote: 1, 2 or 3, not 4"):
        await ledger.set_player(table.game_id, user_id=BOB, roll=4, actor=MOD)
    with pytest.raises(RuleError, match="a name or faction changes no votes, so leave since out"):
        await ledger.set_player(table.game_id, user_id=BOB, name="Bobby", since=2, actor=MOD)
    with pytest.raises(RuleError, match="already a player's in sirius: alice"):  # as /player add: case does not matter
        await ledger.set_player(table.game_id, user_id=BOB, name="ALICE", actor=MOD)
    with pytest.raises(RuleError, match="Nothing to change"):
        await ledger.set_player(table.game_id, user_id=BOB, name="bob", actor=MOD)
    assert (await ledger.player(table.game_id, BOB)).name == "bob"


async def test_a_rename_and_a_new_faction_are_one_line_in_the_channel(table: Any) -> None:
    await _three_rounds(table)
    out = await player_set(table.clerk, user=user(BOB, "bob"), name="Bobby")
    [line] = [o for o in out if isinstance(o.to, ToChannel)]
    assert line.to == ToChannel(901)
    assert line.text == "**bob** is now called **Bobby** in **sirius** (corrected by <@1>)."
    assert (await table.clerk.landsdraad.ledger.player(table.game_id, BOB)).name == "Bobby"
    out = await player_set(table.clerk, user=user(ALICE, "alice"), faction="House Harkonnen")
    [line] = [o for o in out if isinstance(o.to, ToChannel)]
    assert line.text == "**alice** is now of House Harkonnen in **sirius** (corrected by <@1>)."
    out = await player_set(table.clerk, user=user(ALICE, "alice"), faction="None")
    [line] = [o for o in out if isinstance(o.to, ToChannel)]
    assert line.text == "**alice** now has no faction in **sirius** (corrected by <@1>)."
    assert (await table.clerk.landsdraad.ledger.player(table.game_id, ALICE)).faction is None
    # a later ballot form names the new name: "AG Vote: Bobby" etc. find them (find_player reads the row)
    kinds = await table.kinds()
    assert "PlayerRemoved" not in kinds and kinds.count("PlayerAdded") == 3


async def test_during_set_up_a_rename_is_not_posted(table: Any) -> None:
    await table.player(ALICE, "alice", 3, 2, 2)
    out = await player_set(table.clerk, user=user(ALICE, "alice"), name="Alicia", roll=2,
                      faction="House Ordos")
    posted = [o for o in out if isinstance(o.to, ToChannel)]
    assert [o.keep is not None and o.card is not None for o in posted] == [True]  # the set-up summary, edited
    assert "Alicia" in text_of(posted[0]) and "House Ordos" in text_of(posted[0])
    answer = next(o for o in out if isinstance(o.to, Here))
    assert "Alicia: D 3 / C 2 / I 2, d3 2. Votes 10" in text_of(answer)


async def holding_set(clerk: Any, **options: Any) -> list[Outgoing]:
    ctx = Ctx(MODERATOR, Place(GUILD, CHANNEL), f"hset-{next(_ids)}", clerk.clock.now())
    return await dispatch(App(clerk), ctx, "holding set", options)


async def test_a_holding_is_corrected_in_place_with_since_as_remove_then_add_would(table: Any) -> None:
    """bob held Lankiveil (poor: 2) from before round 1; it was rich (4). Corrected from round 2: round 2 had Nay
    16 + 2; round 3, Aye 18 + 2. The moderators' notice counts the whole change, as a removal and an addition with
    ``since`` would (both are recorded, so every replay of the ledger reads them as it reads those)."""
    await _three_rounds(table, "poor")
    out = await holding_set(table.clerk, player=user(BOB, "bob"), name="lankiveil", quality="rich", since=2)
    assert text_of(out[0]) == "Corrected Lankiveil (planet, rich, 4 votes); bob now has 11 votes."
    [notice] = [o for o in out if isinstance(o.to, ToThread)]
    assert notice.text.startswith("The correction of bob (Lankiveil set to rich planet from round 2)")
    assert "Round 2: posted Aye 9, Nay 16" in notice.text and notice.buttons
    assert not [o for o in out if isinstance(o.to, ToChannel)]  # holdings are private, as /holding add's are
    c = await table.clerk.landsdraad.errata.recount(table.game_id, 2)
    assert c.corrected == Tally(9, 18, 0)
    kinds = await table.kinds()
    assert kinds[-2:] == ["HoldingRemoved", "HoldingAdded"]
    events = [(e.seq, e.kind, e.payload) for e in await table.events()]
    then = ledger_then(events, BOB, events[-1][0])
    assert then is not None and [(p.name, p.quality.value) for p in then.planets] == [("Lankiveil", "rich")]
    [held] = (await table.clerk.landsdraad.ledger.player(table.game_id, BOB)).holdings
    assert (held.name, held.grade, held.votes) == ("Lankiveil", "rich", 4)


async def test_a_holding_set_refuses_what_does_not_fit_it(table: Any) -> None:
    await table.player(ALICE, "alice", 3, 2, 2)
    await table.elector(ALICE, "Count Jasek", "weak", 2)
    await table.planet(ALICE, "Caladan", "rich")
    ledger = table.clerk.landsdraad.ledger
    with pytest.raises(RuleError, match="Count Jasek is an Elector: it has a tier, not a quality"):
        await ledger.set_holding(table.game_id, user_id=ALICE, name="Count Jasek", quality="rich", actor=MOD)
    with pytest.raises(RuleError, match="leave votes out"):
        await ledger.set_holding(table.game_id, user_id=ALICE, name="Caladan", votes=3, actor=MOD)
    with pytest.raises(RuleError, match="Nothing to change: Count Jasek is already so"):
        await ledger.set_holding(table.game_id, user_id=ALICE, name="Count Jasek", tier="weak", votes=2, actor=MOD)
    with pytest.raises(RuleError, match="Nothing to change: give"):
        await ledger.set_holding(table.game_id, user_id=ALICE, name="Caladan", actor=MOD)
    with pytest.raises(RuleError, match="holds nothing called"):
        await ledger.set_holding(table.game_id, user_id=ALICE, name="Giedi", tier="strong", actor=MOD)
    alice = await ledger.set_holding(table.game_id, user_id=ALICE, name="Count Jasek", tier="strong", votes=5,
                                     actor=MOD)
    assert [(h.name, h.grade, h.votes) for h in alice.holdings] == [("Count Jasek", "strong", 5),
                                                                    ("Caladan", "rich", 4)]
    alice = await ledger.set_holding(table.game_id, user_id=ALICE, name="Caladan", homeworld=True, actor=MOD)
    assert alice.holdings[1].homeworld and alice.holdings[1].votes == 0


async def test_a_planet_made_the_homeworld_is_told_though_its_addition_changes_nothing(table: Any) -> None:
    """Lankiveil (rich, bob's: 4) was bob's Homeworld (0) from round 2: the whole change is in the removal's event,
    the addition of a Homeworld adds nothing; the notice still lists the rounds it changes."""
    await _three_rounds(table, "rich")
    out = await holding_set(table.clerk, player=user(BOB, "bob"), name="Lankiveil", homeworld=True, since=2)
    assert text_of(out[0]) == "Corrected Lankiveil (planet, rich, Homeworld, 0 votes); bob now has 7 votes."
    [notice] = [o for o in out if isinstance(o.to, ToThread)]
    assert "Lankiveil set to Homeworld from round 2" in notice.text
    assert "Round 2: posted Aye 9, Nay 18" in notice.text and "Round 3: posted Aye 20, Nay 7" in notice.text
    assert (await table.clerk.landsdraad.errata.recount(table.game_id, 3)).corrected == Tally(16, 7, 0)
