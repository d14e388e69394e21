"""The secrecy scanner of tests/secrecy.py finds the secrets a game holds and flags a public post that states one.

Every golden transcript is scanned as it is replayed (tests/replay/test_transcripts.py); these tests show that the
scan is not blind: secrets made through the services are found, a deliberately leaking post is flagged, and the
same words in a DM, in an ephemeral reply, or without the player's name are not."""

from __future__ import annotations

from datetime import timedelta

from conftest import CHANNEL, GUILD, MOD, Table
from replay.helpers import Sent
from secrecy import Secret, leaks, secrets_in

from engine.mylantium.model import FactionCode, Party
from engine.store.database import make_sessionmaker
from engine.store.models import Event


def public(text: str, where: str = "#sirius") -> Sent:
    return Sent(where, "", text)


async def landsdraad_secrets(table: Table) -> list[Secret]:
    await table.player(11, "alice", 4, 3, 3)
    await table.player(12, "bob", 3, 2, 2)
    await table.player(13, "carol", 2, 1, 1)
    await table.open(deadline=timedelta(hours=2))
    await table.vote(11, "Vote: Aye")
    await table.vote(11, "Revote: Nay")
    await table.vote(12, "Vote: Abstain")
    await table.clerk.landsdraad.perks.auctions_closed(table.game_id, actor=MOD)
    await table.clerk.landsdraad.victory.add_goal(table.game_id, user_id=13, description="Hold Deneb", vp=40, actor=MOD)
    return await secrets_in(table.engine)


LEAKING = ["alice: Nay", "Ballots so far\nalice voted Aye, bob abstained",
           "**Piracy** failed. Nay: alice (14), Hawks (20)", "bob abstains",
           "The Chancellor Pro tempore this round is alice.", "bob holds the CHOAM Directorship",
           "carol, Master at Arms, gets a militia unit", "Goals: Hold Deneb (40 VP)",
           "alice asked for an audit quote on bob"]
HARMLESS = ["Round 1 closed: **failed**. AYE 0 / NAY 14 / ABS 19 (threshold 8).",
            "carol: Aye",  # carol cast no ballot: nothing of hers to give away
            "alice and bob are in the game. Vote: Aye, Nay or Abstain by DM.",
            "Perks are assigned when the Auction Phases close: Chancellor Pro tempore, CHOAM Directorship, Master at "
            "Arms.",
            "Ask Clerk for an audit quote by DM."]


async def test_the_secrets_of_a_game_are_found_and_a_leaking_post_is_flagged(table: Table) -> None:
    secrets = await landsdraad_secrets(table)
    pairs = {(s.kind, s.who[0] if s.who else None, s.what[0]) for s in secrets}
    assert {("crisis ballot", "alice", "aye"), ("crisis ballot", "alice", "nay"),
            ("crisis ballot", "bob", "abstain")} <= pairs  # the revoted Aye stays secret too
    assert {("perk", "alice", "Chancellor Pro tempore"), ("perk", "bob", "CHOAM Directorship"),
            ("perk", "carol", "Master at Arms")} <= pairs
    assert ("goal", None, "Hold Deneb") in pairs
    assert ("audit quote", "carol", "quote") in pairs
    assert not any(s.kind == "crisis ballot" and s.who == ("carol",) for s in secrets)  # carol did not vote

    for post in LEAKING:  # in a channel, in a thread, in a pinned message
        for where, marks in (("#sirius", ""), ("#sirius/crisis-talk", ""), ("#sirius", "pinned")):
            assert leaks([public("Round 1 closed: AYE 0, NAY 14, ABS 19."), Sent(where, marks, post)], secrets), post
    for post in HARMLESS:
        assert not leaks([public(post)], secrets), post
    private = [Sent("DM alice", "", "alice: your ballot (Nay) replaces Aye"),
               Sent("#sirius", "ephemeral to mod", "alice: Nay\nbob: Abstain\nHold Deneb"),
               Sent("DM alice", "", "alice, you hold the Chancellor Pro tempore perk")]
    assert not leaks(private, secrets)


async def test_a_contribution_is_secret_by_faction_and_amount(table: Table) -> None:
    """P1-19: a Faction's pledge is MOD; only totals are public. The pledge is written as the service records it
    (``ContributionPledged``), its Faction registered through the service."""
    game = await table.clerk.games.create_game(guild_id=GUILD, channel_id=CHANNEL + 1, name="mylantium",
                                               ruleset="mylantium", moderator_role_id=None, actor=MOD)
    await table.clerk.mylantium.register_faction(game.id, code=FactionCode.PL, user_id=21, user_name="pat",
                                                 party=Party.WHIG, vp=20, treasury=50, actor=MOD)
    async with make_sessionmaker(table.engine)() as session, session.begin():
        session.add(Event(game_id=game.id, seq=99, kind="ContributionPledged", actor=21, at=table.clock.now(),
                          payload={"chain": 1, "attempt": 1, "faction": "PL", "to_crt": 30, "to_vanguard": 0}))
    secrets = await secrets_in(table.engine)
    assert leaks([public("The Plutocrats sent $30 to the Counter-Revolutionary Treasury")], secrets)
    assert leaks([public("pat: $30")], secrets)
    assert not leaks([public("The Counter-Revolutionary Treasury holds $30; the Vanguard has $44.")], secrets)
    assert not leaks([public("Plutocrats −3, VP now 17; the Plutocrats' treasury is $300")], secrets)
