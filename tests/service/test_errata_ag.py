"""Issue 19 for weighted AG elections: a ledger edit made as a correction (``since``) that changes the V(p) a closed
weighted election counted is told to the moderators privately, with the posted and recounted standings and whether
the winner changes; the V(p) as of the close is rebuilt from the ledger's events (``votes_asof``). Unweighted
elections (one ballot each) are never recounted. Nothing recorded is changed."""

from __future__ import annotations

from typing import Any

from ag_election import ANN, BO, CY, MOD, ann_against_bo
from ledger_front import MODERATOR, actor, slash, text_of, user

from bot.actions.commands import App
from bot.actions.context import Ctx, Place
from bot.actions.messages import handle_button
from bot.actions.outbox import Here, ToChannel, ToThread


async def _election_in_round_one(table: Any, weighted: bool = True) -> None:
    """ann V 12, bo 4, cy 4; in round 1 ann votes ann, bo and cy vote bo: weighted ann 12, bo 8 (ann wins);
    unweighted bo 2, ann 1."""
    await table.player(ANN, "ann", 5, 2, 1)
    await table.player(BO, "bo", 1, 1, 1)
    await table.player(CY, "cy", 1, 1, 1)
    if weighted:
        await table.clerk.settings.change_setting(table.game_id, name="ag_weighted", value="yes", actor=MOD)
    await table.open()
    await ann_against_bo(table)


async def test_a_correction_that_changes_a_counted_vp_flips_the_weighted_winner(table: Any) -> None:
    await _election_in_round_one(table)
    ledger, errata = table.clerk.landsdraad.ledger, table.clerk.landsdraad.errata
    await ledger.set_player(table.game_id, user_id=BO, misc=5, since=1, actor=MOD, source_id="set-1")
    c = await errata.after_edit(table.game_id, source_id="set-1")
    assert c is not None
    [r] = c.ag_recounts
    assert (r.number, r.posted, r.recounted) == (1, (("ann", 12), ("bo", 8)), (("bo", 13), ("ann", 12)))
    assert r.winner_changed and dict(r.weights) == {"bo": (4, 9)}
    assert await table.clerk.landsdraad.adjutant.adjutant(table.game_id) == (ANN, "ann")  # the office stays
    assert "ErratumPosted" not in await table.kinds()
    # the view of the closed election still shows what its close counted
    view = await table.clerk.landsdraad.adjutant.election(table.game_id)
    assert view is not None and [(s.candidate, s.votes) for s in view.standings] == [("ann", 12), ("bo", 8)]


async def test_a_correction_from_a_later_round_does_not_reach_the_election(table: Any) -> None:
    await _election_in_round_one(table)
    await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=MOD)
    await table.open("Spice tithe")
    ledger, errata = table.clerk.landsdraad.ledger, table.clerk.landsdraad.errata
    await ledger.set_player(table.game_id, user_id=BO, misc=5, since=2, actor=MOD, source_id="set-2")
    c = await errata.after_edit(table.game_id, source_id="set-2")
    assert c is not None and c.ag_recounts == ()


async def test_a_correction_that_keeps_the_winner_is_listed_with_the_new_standings(table: Any) -> None:
    await _election_in_round_one(table)
    await table.clerk.landsdraad.ledger.set_player(table.game_id, user_id=CY, misc=2, since=1, actor=MOD,
                                                   source_id="set-3")
    c = await table.clerk.landsdraad.errata.after_edit(table.game_id, source_id="set-3")
    assert c is not None
    [r] = c.ag_recounts
    assert r.recounted == (("ann", 12), ("bo", 10)) and not r.winner_changed


async def test_unweighted_elections_are_not_recounted(table: Any) -> None:
    await _election_in_round_one(table, weighted=False)
    await table.clerk.landsdraad.ledger.set_player(table.game_id, user_id=BO, misc=5, since=1, actor=MOD,
                                                   source_id="set-4")
    c = await table.clerk.landsdraad.errata.after_edit(table.game_id, source_id="set-4")
    assert c is not None and c.ag_recounts == ()


async def test_the_notice_goes_only_to_the_moderators(table: Any) -> None:
    await _election_in_round_one(table)
    out = await slash(table.clerk, MODERATOR, "player set", user=user(BO, "bo"), misc=5, since=1)
    assert not any(isinstance(o.to, ToChannel) for o in out)  # nothing in the game channel, no DM to a player
    assert all(isinstance(o.to, (Here, ToThread)) for o in out)
    assert all(o.ephemeral for o in out if isinstance(o.to, Here))
    notice = out[-1]
    assert isinstance(notice.to, ToThread) and notice.to.private
    assert ("AG election 1: posted ann 12, bo 8; under the corrected ledger bo 13, ann 12: **the winner would be bo, "
            "not ann**") in notice.text
    assert "bo 4 → 9" in notice.text
    [button] = notice.buttons
    assert button.custom_id == f"clerk:ag-erratum:{table.game_id}:1"
    player = Ctx(actor(ANN, "ann"), Place(900, 901), "press-0", table.clock.now())
    refused = await handle_button(App(table.clerk), player, button.custom_id)
    assert "Only the moderators" in text_of(refused[0]) and (await table.kinds())[-1] != "ErratumPosted"
    pressed = await handle_button(App(table.clerk), Ctx(MODERATOR, Place(900, 901), "press-1", table.clock.now()),
                                  button.custom_id)
    [card] = [o for o in pressed if isinstance(o.to, ToChannel)]
    assert card.to == ToChannel(901) and "election #1: erratum" in text_of(card)


async def test_ag_erratum_posts_standings_and_winner_and_no_voter_vp(table: Any) -> None:
    """``/ag erratum``: refused while nothing differs; then the public card shows the ballots, the standings posted
    and recounted and the winner, never a voter's V(p) (bo's corrected 9 is his alone: the standings show bo 13)."""
    await _election_in_round_one(table)
    c = table.clerk
    out = await slash(c, MODERATOR, "ag erratum")
    assert "No closed Adjutant General election of sirius comes out differently" in text_of(out[0])
    await c.announcements.remember_post(f"ag:{table.game_id}:1", 901, 777)
    await c.landsdraad.ledger.set_player(table.game_id, user_id=BO, misc=5, since=1, actor=MOD)
    out = await slash(c, MODERATOR, "ag erratum")
    [card] = [o for o in out if isinstance(o.to, ToChannel)]
    text = text_of(card)
    assert "Adjutant General election #1: erratum" in text and "would have been bo, not ann" in text
    assert "bo 13, ann 12" in text and "ann 12, bo 8" in text and "bo → bo" in text and "cy → bo" in text
    assert "https://discord.com/channels/900/901/777" in text
    assert "9" not in text.replace("901", "").replace("900", "")  # bo's corrected V(p) is not published
    assert "4 →" not in text and "misc" not in text
    payload = (await table.events())[-1].payload
    assert (await table.kinds())[-1] == "ErratumPosted"
    assert payload["election"] == 1 and payload["corrected"] == [["bo", 13], ["ann", 12]] and payload["winner_changed"]
    assert "round" not in payload  # not read as a crisis round's erratum
    again = await slash(c, MODERATOR, "ag erratum", election=1)
    assert "posted already" in text_of(again[0])
    other = await slash(c, MODERATOR, "ag erratum", election=2)
    assert "AG election 2 of sirius does not come out differently" in text_of(other[0])
    assert await c.landsdraad.adjutant.adjutant(table.game_id) == (ANN, "ann")  # the office is not changed
