"""Perks (R0-70..R0-73, P0-12, P0-13, P0-18) and the Pro tempore's Elector query (R0-71, P0-16) through the
service and the front end; secrecy of both (R0-72, rules-spec §1.2.9). Runs on SQLite, and on PostgreSQL when
TEST_POSTGRES_URL is set."""

from __future__ import annotations

from typing import Any

import pytest
from ledger_front import MODERATOR, actor, dm, dms, only_here, slash
from sqlalchemy import select

from bot.actions.outbox import Here, ToChannel
from engine.core.errors import RuleError
from engine.landsdraad.perks import Perk
from engine.landsdraad.transfers import parse_elector_query
from engine.store.models.landsdraad import PerkRow

MOD = 1
IDS = {"alice": 501, "bob": 502, "carol": 503, "dave": 504}


async def _players(table: Any, **votes: int) -> None:
    """Players with exactly these V(p): base 2·1 + 1 + 1 = 4, the rest as misc votes."""
    for name, v in votes.items():
        await table.player(IDS[name], name, 1, 1, 1, roll=1)
        await table.clerk.landsdraad.ledger.set_player(table.game_id, user_id=IDS[name], misc=v - 4, actor=MOD)


async def _close_auctions(table: Any) -> Any:
    return await table.clerk.landsdraad.perks.auctions_closed(table.game_id, actor=MOD, source_id=table.source())


def _held(awarded: Any) -> dict[str, str]:
    return {g.key: g.player for g in awarded.grants}


async def _perk_rows(table: Any) -> list[tuple[int, str, int, bool]]:
    async with table.clerk._read() as session:
        rows = await session.execute(select(PerkRow).order_by(PerkRow.id))
        return [(r.round_number, r.perk, r.player_id, r.used) for r in rows.scalars()]


async def test_the_three_perks_go_to_the_first_second_and_third(table: Any) -> None:
    """R0-71: Pro tempore "controls the most votes", CHOAM "the second most", Master at Arms "the third most"."""
    await _players(table, alice=30, bob=20, carol=10, dave=5)
    await table.planet(IDS["carol"], "Deneb", "average")
    await table.planet(IDS["carol"], "Giedi Prime", "poor", homeworld=True)
    await table.open()
    awarded = await _close_auctions(table)
    assert _held(awarded) == {"pro_tempore": "alice", "choam": "bob", "master_at_arms": "carol"}
    assert awarded.unawarded == ()
    [maa] = [g for g in awarded.grants if g.perk is Perk.MASTER_AT_ARMS]
    assert (maa.votes, maa.locations) == (13, ("Deneb",))  # R0-73: never the Homeworld; 10 + 3 for Deneb
    assert [(r.name, r.votes, r.rank) for r in awarded.ranking] == [
        ("alice", 30, 1), ("bob", 20, 2), ("carol", 13, 3), ("dave", 5, 4)]
    ids = {p.name: p.id for p in await table.clerk.landsdraad.ledger.players(table.game_id)}
    assert await _perk_rows(table) == [(1, "pro_tempore", ids["alice"], False), (1, "choam", ids["bob"], False),
                                       (1, "master_at_arms", ids["carol"], False)]
    export = await table.clerk.exports.export(table.game_id, include_events=False)
    assert [(p["round"], p["perk"], p["player"]) for p in export["perks"]] == [
        (1, "pro_tempore", "alice"), (1, "choam", "bob"), (1, "master_at_arms", "carol")]


@pytest.mark.parametrize(("votes", "held", "why"), [
    ({"alice": 30, "bob": 30, "carol": 10},
     {"master_at_arms": "carol"},
     {Perk.PRO_TEMPORE: "alice, bob tie for 1st with 30 votes", Perk.CHOAM: "nobody is 2nd: alice, bob tie for 1st"}),
    ({"alice": 30, "bob": 20, "carol": 20, "dave": 5},
     {"pro_tempore": "alice"},
     {Perk.CHOAM: "bob, carol tie for 2nd with 20 votes",
      Perk.MASTER_AT_ARMS: "nobody is 3rd: bob, carol tie for 2nd"}),
    ({"alice": 30, "bob": 20, "carol": 10, "dave": 10},
     {"pro_tempore": "alice", "choam": "bob"},
     {Perk.MASTER_AT_ARMS: "carol, dave tie for 3rd with 10 votes"}),
    ({"alice": 9, "bob": 9, "carol": 9},
     {},
     {Perk.PRO_TEMPORE: "alice, bob, carol tie for 1st with 9 votes",
      Perk.CHOAM: "nobody is 2nd: alice, bob, carol tie for 1st",
      Perk.MASTER_AT_ARMS: "nobody is 3rd: alice, bob, carol tie for 1st"}),
    ({"alice": 9, "bob": 8},
     {"pro_tempore": "alice", "choam": "bob"},
     {Perk.MASTER_AT_ARMS: "only 2 active players"}),
])
async def test_P0_12_a_shared_position_and_any_it_spills_over_are_not_awarded(
        table: Any, votes: dict[str, int], held: dict[str, str], why: dict[Perk, str]) -> None:
    """P0-12: standard competition ranking; a perk goes only to the sole holder of its position."""
    await _players(table, **votes)
    await table.open()
    awarded = await _close_auctions(table)
    assert _held(awarded) == held
    assert dict(awarded.unawarded) == why
    assert len(await _perk_rows(table)) == len(held)


async def test_the_perk_ties_setting_breaks_ties_by_the_higher_base_vote(table: Any) -> None:
    """A0-11's alternative, as the game setting perk_ties = base-vote: a tie in votes goes to the higher Base Vote;
    players equal in both still share the position and get nothing."""
    await table.player(IDS["alice"], "alice", 2, 1, 1, roll=1)  # base 6
    await table.player(IDS["bob"], "bob", 1, 1, 1, roll=1)  # base 4
    await table.player(IDS["carol"], "carol", 1, 1, 1, roll=1)  # base 4
    await table.player(IDS["dave"], "dave", 1, 1, 1, roll=1)  # base 4
    for name, misc in (("alice", 24), ("bob", 26), ("carol", 6), ("dave", 6)):
        await table.clerk.landsdraad.ledger.set_player(table.game_id, user_id=IDS[name], misc=misc, actor=MOD)
    await table.clerk.settings.change_setting(table.game_id, name="perk_ties", value="base-vote", actor=MOD)
    await table.open()
    awarded = await _close_auctions(table)
    assert _held(awarded) == {"pro_tempore": "alice", "choam": "bob"}
    assert dict(awarded.unawarded) == {
        Perk.MASTER_AT_ARMS: "carol, dave tie for 3rd with 10 votes and a Base Vote of 4"}


async def test_inactive_players_are_not_ranked(table: Any) -> None:
    """R0-70: the engine ranks the active players."""
    await _players(table, alice=30, bob=20, carol=10)
    await table.clerk.landsdraad.ledger.set_player(table.game_id, user_id=IDS["alice"], active=False, actor=MOD)
    await table.open()
    assert _held(await _close_auctions(table)) == {"pro_tempore": "bob", "choam": "carol"}


async def test_TV0_I13_a_master_at_arms_with_only_a_homeworld_gets_the_perk_but_no_militia(table: Any) -> None:
    """TV0-I13 / P0-13: perk recorded, no militia created, the holder told there is no eligible location."""
    await _players(table, alice=30, bob=20, carol=10)
    await table.planet(IDS["carol"], "Giedi Prime", "rich", homeworld=True)
    await table.open()
    out = await slash(table.clerk, MODERATOR, "round auctions-closed")
    [maa] = [g for g in (await table.clerk.exports.export(table.game_id, include_events=False))["perks"]
             if g["perk"] == "master_at_arms"]
    assert maa["player"] == "carol"
    notice = dms(out)[IDS["carol"]]
    assert "**Master at Arms**, round 1 of sirius" in notice
    assert "You control no location other than your Homeworld, so no militia unit can be placed" in notice
    [closed] = [e for e in await table.events() if e.kind == "AuctionsClosed"]
    assert closed.payload["militia_locations"] == []


async def test_perks_are_assigned_once_a_round_and_only_in_an_open_round(table: Any) -> None:
    """Choice (docs/rulings.md): a second /round auctions-closed in the same round is refused, not a re-ranking."""
    await _players(table, alice=30, bob=20, carol=10)
    with pytest.raises(RuleError, match="No round is open in sirius"):
        await _close_auctions(table)
    await table.open()
    await _close_auctions(table)
    await table.clerk.landsdraad.ledger.set_player(table.game_id, user_id=IDS["bob"], misc=40, actor=MOD)
    with pytest.raises(RuleError, match="Auction Phases of round 1 were already closed"):
        await _close_auctions(table)
    await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=MOD)
    with pytest.raises(RuleError, match="No round is open"):
        await _close_auctions(table)
    await table.open()
    assert _held(await _close_auctions(table)) == {"pro_tempore": "bob", "choam": "alice", "master_at_arms": "carol"}


async def test_perk_notices_go_only_to_their_holders_and_nothing_to_the_game_channel(table: Any) -> None:
    """R0-72: "Control of these posts is secret"; each holder is told PRIVATEly; holders are never announced."""
    await _players(table, alice=30, bob=20, carol=10, dave=5)
    await table.planet(IDS["carol"], "Deneb", "average")
    await table.open()
    [refused] = await slash(table.clerk, actor(IDS["alice"], "alice"), "round auctions-closed")
    assert refused.ephemeral and "Only the moderators" in refused.text
    out = await slash(table.clerk, MODERATOR, "round auctions-closed")
    assert not [o for o in out if isinstance(o.to, ToChannel)]
    [summary] = [o for o in out if isinstance(o.to, Here)]
    assert summary.ephemeral and summary.card is not None
    assert "Chancellor Pro tempore: alice (30 votes)" in summary.card.as_text()
    notices = dms(out)
    assert set(notices) == {IDS["alice"], IDS["bob"], IDS["carol"]}
    assert notices[IDS["alice"]].startswith("**Chancellor Pro tempore**, round 1 of sirius")
    assert "You control the most votes in the Landsdraad (30)" in notices[IDS["alice"]]
    # round 1: no earlier round to ask about, so the Elector question is not offered (it would be refused)
    assert "Roll 5" in notices[IDS["alice"]] and "`Elector:" not in notices[IDS["alice"]]
    assert "this is the first round: there is none yet" in notices[IDS["alice"]]
    assert "Roll 6" in notices[IDS["bob"]] and "one free share of CHOAM stock" in notices[IDS["bob"]]
    assert "tell the moderator which of Deneb" in notices[IDS["carol"]]
    for uid, text in notices.items():  # nobody learns another holder's name
        others = [n for n, i in IDS.items() if i != uid]
        assert not any(n in text for n in others), text


# -- the Pro tempore's Elector query -------------------------------------------------------------------------

async def _elector_game(table: Any) -> None:
    """Round 1: alice holds Count Jasek and votes Aye, bob Nay, carol holds Baron Vo and sends nothing. Closed.
    Then Count Jasek passes to bob, and round 2 opens with alice the Pro tempore."""
    await _players(table, alice=30, bob=20, carol=10)
    await table.elector(IDS["alice"], "Count Jasek", "average", 5)
    await table.elector(IDS["carol"], "Baron Vo", "weak", 3)
    await table.open()
    await table.vote(IDS["alice"], "Vote: Aye")
    await table.vote(IDS["bob"], "Vote: Nay")
    await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=MOD)
    await table.clerk.landsdraad.ledger.remove_holding(table.game_id, user_id=IDS["alice"], name="Count Jasek",
                                                       actor=MOD)
    await table.elector(IDS["bob"], "Count Jasek", "average", 5)
    await table.open()
    awarded = await _close_auctions(table)
    assert _held(awarded)["pro_tempore"] == "alice"


async def _ask(table: Any, name: str, text: str, source_id: str | None = None) -> Any:
    return await table.clerk.landsdraad.perks.elector_query(table.game_id, user_id=IDS[name],
                                                            query=parse_elector_query(text),
                                                            source_id=source_id or table.source())


async def test_the_elector_voted_with_whoever_controlled_it_at_that_rounds_close(table: Any) -> None:
    """R0-71 (c) / P0-16: "find out how any one Elector voted by designating the Elector's name and the round";
    the Elector voted with the block of its controller at that round's close, even though it has changed hands."""
    await _elector_game(table)
    answer = await _ask(table, "alice", "Elector: count jasek, round 1", source_id="q-1")
    assert (answer.elector, answer.round, answer.option, answer.votes, answer.defaulted) == (
        "Count Jasek", 1, "aye", 5, False)
    assert [(n, perk, used) for n, perk, _, used in await _perk_rows(table)] == [
        (2, "pro_tempore", True), (2, "choam", False), (2, "master_at_arms", False)]
    again = await _ask(table, "alice", "Elector: count jasek, round 1", source_id="q-1")  # redelivered
    assert again.duplicate and again.option == "aye"
    with pytest.raises(RuleError, match="already asked about an Elector in round 2"):
        await _ask(table, "alice", "Elector: Baron Vo, round 1")
    [queried] = [e for e in await table.events() if e.kind == "ElectorQueried"]
    assert queried.payload == {"round": 2, "asked_round": 1, "elector": "Count Jasek", "option": "aye", "votes": 5,
                               "defaulted": False}


async def test_an_elector_whose_controller_sent_no_ballot_abstained(table: Any) -> None:
    """R0-13: a player with no ballot abstains, and the Elector with them."""
    await _elector_game(table)
    answer = await _ask(table, "alice", "Elector: Baron Vo, round 1")
    assert (answer.option, answer.defaulted) == ("abstain", True)


async def test_an_elector_whose_controller_was_inactive_did_not_vote(table: Any) -> None:
    await _players(table, alice=30, bob=20, carol=10)
    await table.elector(IDS["carol"], "Baron Vo", "weak", 3)
    await table.clerk.landsdraad.ledger.set_player(table.game_id, user_id=IDS["carol"], active=False, actor=MOD)
    await table.open()
    await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=MOD)
    await table.open()
    await _close_auctions(table)
    answer = await _ask(table, "alice", "Elector: Baron Vo, round 1")
    assert (answer.option, answer.votes) == (None, 3)


async def test_elector_queries_that_are_refused_and_do_not_use_up_the_question(table: Any) -> None:
    await _elector_game(table)
    with pytest.raises(RuleError, match=r"^Only the Chancellor Pro tempore can ask how an Elector voted"):
        await _ask(table, "bob", "Elector: Count Jasek, round 1")
    with pytest.raises(RuleError, match="Round 2 has not closed yet"):
        await _ask(table, "alice", "Elector: Count Jasek, round 2")
    with pytest.raises(RuleError, match="sirius has no round 7"):
        await _ask(table, "alice", "Elector: Count Jasek, round 7")
    with pytest.raises(RuleError, match=r"No player controlled an Elector called “Count Jasec” at the close of "
                                        r"round 1.*Did you mean Count Jasek\? Electors controlled then: Count Jasek, "
                                        r"Baron Vo"):
        await _ask(table, "alice", "Elector: Count Jasec, round 1")
    assert (await _ask(table, "alice", "Elector: Count Jasek, round 1")).option == "aye"


async def test_the_question_expires_with_the_round_and_a_former_pro_tempore_cannot_ask(table: Any) -> None:
    """P0-18: one query per round held; an unused grant expires at the end of the round."""
    await _elector_game(table)
    await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=MOD)
    with pytest.raises(RuleError, match="expired when the round closed"):
        await _ask(table, "alice", "Elector: Count Jasek, round 1")
    await table.open()
    with pytest.raises(RuleError, match="Only the Chancellor Pro tempore"):
        await _ask(table, "alice", "Elector: Count Jasek, round 1")


async def test_the_elector_answer_goes_only_to_the_pro_tempore_who_asked(table: Any) -> None:
    """Rules-spec §1.2.9: "How an Elector voted: PRIVATE to the Pro tempore who asks"."""
    await _elector_game(table)
    refused = only_here(await dm(table.clerk, actor(IDS["bob"], "bob"), "Elector: Count Jasek, round 1"))
    assert refused.startswith("Only the Chancellor Pro tempore can ask how an Elector voted.")
    assert "alice" not in refused and refused.endswith("Nothing was recorded.")
    answer = only_here(await dm(table.clerk, actor(IDS["alice"], "alice"), "Elector: Count Jasek, round 1 #sirius"))
    assert answer.startswith("In round 1, Count Jasek (5 votes) voted **Aye**.")
    unreadable = only_here(await dm(table.clerk, actor(IDS["alice"], "alice"), "Elector: Count Jasek"))
    assert "`Elector: <Name>, round <N>`" in unreadable
