"""Transfers, audit quotes and audits (R0-50..R0-53, P0-10, P0-17) through the service and the front end.
Runs on SQLite, and on PostgreSQL when TEST_POSTGRES_URL is set."""

from __future__ import annotations

from typing import Any

import pytest
from ledger_front import MODERATOR, actor, dm, only_here, slash, user
from sqlalchemy import select

from bot.actions.landsdraad.ledger_render import audit_card
from bot.actions.outbox import ToThread
from engine.core.errors import RuleError
from engine.landsdraad.transfers import parse_transfer
from engine.service.landsdraad.audits import perform_audit, quote
from engine.service.ledger import load_game
from engine.store.models.landsdraad import AuditRow, TransferRow

ALICE, BOB, CAROL = 301, 302, 303
MOD = 1


async def _round(table: Any, number: int) -> None:
    """Open rounds until round ``number`` is open (closing each one before)."""
    while True:
        game = await table.clerk.games.game(table.game_id)
        if game.current_round == number:
            return
        if game.current_round:
            await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=MOD)
        await table.open()


async def _ten_players(table: Any) -> None:
    await table.player(BOB, "bob", 2, 2, 2)
    for n in range(9):
        await table.player(400 + n, f"p{n}", 2, 2, 2)


async def _trio(table: Any) -> None:
    await table.player(ALICE, "alice", 3, 2, 2, faction="House Atreides")
    await table.player(BOB, "bob", 2, 2, 2)
    await table.player(CAROL, "carol", 2, 2, 2)


async def _quote(table: Any, target: str, rounds: tuple[int, ...]) -> Any:
    return await table.clerk.landsdraad.audits.audit_quote(table.game_id, target=target, rounds=rounds)


async def _send(table: Any, user_id: int, text: str, source_id: str | None = None) -> Any:
    return await table.clerk.landsdraad.audits.record_transfer(table.game_id, user_id=user_id,
                                                               command=parse_transfer(text), at=table.clock.now(),
                                                               source_id=source_id or table.source())


def moderators_thread(table: Any) -> ToThread:
    """Where the moderators of the table's game read its transfers (no moderator_channel set): a private thread."""
    return ToThread(table.game.channel_id, "sirius moderators", table.game.id, private=True,
                    members=(MODERATOR.id,))


async def _rows(table: Any, model: Any) -> list[Any]:
    async with table.clerk._read() as session:
        return list((await session.execute(select(model).order_by(model.id))).scalars())


async def test_TV0_S03_and_S04_audit_quotes_through_the_service(table: Any) -> None:
    """TV0-S03: "if it is round 4, with 10 players, and players wish to see Bob's round 2 transfers it would cost
    [...] 4000 MS, evenly divided among players or 400 MS each, and CHOAM would publish all of Bob's round 2 and 4
    transfers." TV0-S04: "They could get all his transfer that game for 8000 MS (during round 4) or 800 MS each"."""
    await _ten_players(table)
    await _round(table, 4)
    q = await _quote(table, "Bob", (2,))
    assert (q.fee, q.share, q.rounds, q.requested, q.active, q.current, q.target) == (4000, 400, (2, 4), (2,), 10, 4,
                                                                                      "bob")
    q = await _quote(table, "bob", (1, 2, 3))
    assert (q.fee, q.share, q.rounds) == (8000, 800, (1, 2, 3, 4))
    q = await _quote(table, "bob", (1, 2, 3, 4))  # naming the current round adds nothing
    assert (q.fee, q.share) == (8000, 800)
    q = await _quote(table, "bob", ())  # R0-50: the default, and the cheapest
    assert (q.fee, q.share, q.rounds) == (2000, 200, (4,))


async def test_quote_counts_only_active_players_rounds_share_up_and_refuses_bad_rounds(table: Any) -> None:
    """R0-52 / P0-10: share = ceil(Fee / N) with N the active players; R0-50: a round r > c or r < 1 is refused."""
    await _trio(table)
    async with table.clerk._read() as session:
        with pytest.raises(RuleError, match="No round has started in sirius"):
            await quote(session, await load_game(session, table.game_id), "bob", ())
    await _round(table, 3)
    await table.clerk.landsdraad.ledger.set_player(table.game_id, user_id=CAROL, active=False, actor=MOD)
    q = await _quote(table, "carol", (1,))  # an inactive player can still be audited
    assert (q.fee, q.active, q.share) == (1000 + 200 + 2000, 2, 1600)
    await table.clerk.landsdraad.ledger.set_player(table.game_id, user_id=CAROL, active=True, actor=MOD)
    q = await _quote(table, "bob", (2,))
    assert (q.fee, q.share) == (2300, 767)  # 2300 / 3 = 766.67, rounded up
    await table.clerk.settings.change_setting(table.game_id, name="audit_share_rounding", value="down", actor=MOD)
    q = await _quote(table, "bob", (2,))
    assert (q.fee, q.share) == (2300, 766)  # the game setting: rounded down
    with pytest.raises(RuleError, match="Round 5 cannot be audited in round 3"):
        await _quote(table, "bob", (5,))
    with pytest.raises(RuleError, match="No player in sirius is called “dave”"):
        await _quote(table, "dave", ())


async def test_a_transfer_is_recorded_against_the_sender_in_the_current_round(table: Any) -> None:
    await _trio(table)
    with pytest.raises(RuleError, match="No round has started in sirius"):
        await _send(table, ALICE, "Transfer: 500 MS to Bob")
    await _round(table, 3)
    v = await _send(table, ALICE, "Transfer: 1,500 MS to bob", source_id="m-1")
    assert (v.round, v.sender, v.recipient, v.kind, v.amount, v.what, v.duplicate) == (
        3, "alice", "bob", "funds", 1500, "1500 MS", False)
    v = await _send(table, ALICE, "Transfer: Planet Deneb to carol")
    assert (v.kind, v.item, v.what) == ("item", "Planet Deneb", "Planet Deneb")
    again = await _send(table, ALICE, "Transfer: 1,500 MS to bob", source_id="m-1")  # redelivered
    assert again.duplicate and again.id == 1
    with pytest.raises(RuleError, match=r"No player in sirius is called “Dave”\. Players: alice"):
        await _send(table, ALICE, "Transfer: 5 MS to Dave")
    with pytest.raises(RuleError, match="not to yourself"):
        await _send(table, ALICE, "Transfer: 5 MS to House Atreides")
    rows = await _rows(table, TransferRow)
    assert [(r.round_number, r.kind, r.amount, r.item, r.recipient, r.source_id) for r in rows] == [
        (3, "funds", 1500, None, "bob", "m-1"), (3, "item", None, "Planet Deneb", "carol", "msg-2")]
    assert (await table.kinds()).count("TransferRecorded") == 2


async def test_corrections_are_new_entries_and_never_rewrite_the_ledger(table: Any) -> None:
    """The ledger never loses or rewrites an entry; corrections are new entries (issue 3). An audit publishes the
    effective ledger: a corrected entry shows its correction; a cancelled one is left out."""
    await _trio(table)
    await _round(table, 2)
    c = table.clerk
    first = await _send(table, BOB, "Transfer: 500 MS to alice")
    second = await _send(table, BOB, "Transfer: Planet Deneb to carol")
    third = await _send(table, BOB, "Transfer: 20 MS to carol")
    with pytest.raises(RuleError, match="needs a note"):
        await c.landsdraad.audits.correct_transfer(table.game_id, entry_id=first.id, note=" ", what="50 MS", actor=MOD)
    with pytest.raises(RuleError, match="Say what to correct"):
        await c.landsdraad.audits.correct_transfer(table.game_id, entry_id=first.id, note="typo", actor=MOD)
    with pytest.raises(RuleError, match="no transfer #99"):
        await c.landsdraad.audits.correct_transfer(table.game_id, entry_id=99, note="typo", what="5 MS", actor=MOD)
    fixed = await c.landsdraad.audits.correct_transfer(table.game_id, entry_id=first.id, note="it was 50",
                                                       what="50 MS", actor=MOD)
    assert (fixed.corrects, fixed.what, fixed.recipient, fixed.round) == (first.id, "50 MS", "alice", 2)
    # correcting the original again corrects its latest version: the chain stays one line
    moved = await c.landsdraad.audits.correct_transfer(table.game_id, entry_id=first.id, note="sent in round 1",
                                                       round_number=1, actor=MOD)
    assert (moved.corrects, moved.what, moved.round) == (fixed.id, "50 MS", 1)
    gone = await c.landsdraad.audits.correct_transfer(table.game_id, entry_id=third.id, note="never sent",
                                                      cancel=True, actor=MOD)
    assert gone.kind == "cancelled"
    with pytest.raises(RuleError, match="already cancelled"):
        await c.landsdraad.audits.correct_transfer(table.game_id, entry_id=gone.id, note="again", cancel=True,
                                                   actor=MOD)
    retarget = await c.landsdraad.audits.correct_transfer(table.game_id, entry_id=second.id, note="to alice",
                                                          to_user=ALICE, actor=MOD)
    assert (retarget.recipient, retarget.what) == ("alice", "Planet Deneb")

    rows = await _rows(table, TransferRow)
    assert [(r.id, r.kind, r.amount, r.item, r.recipient, r.round_number, r.corrects_id) for r in rows[:3]] == [
        (1, "funds", 500, None, "alice", 2, None), (2, "item", None, "Planet Deneb", "carol", 2, None),
        (3, "funds", 20, None, "carol", 2, None)]  # the originals, unchanged
    assert len(rows) == 7
    listing = await c.landsdraad.audits.transfers(table.game_id, user_id=BOB)
    assert [(v.id, v.corrected_by) for v in listing.entries] == [(1, 4), (2, 7), (3, 6), (4, 5), (5, None),
                                                                   (6, None), (7, None)]

    async with c._write(table.game_id) as uow:
        audit = await perform_audit(uow, await load_game(uow.session, table.game_id), (await c.landsdraad.ledger.player(
            table.game_id, BOB)).id, (1,), None)
    assert [(t.round, t.what, t.to, t.corrected) for t in audit.transfers] == [
        (1, "50 MS", "alice", True), (2, "Planet Deneb", "alice", True)]
    export = await c.exports.export(table.game_id, include_events=False)
    assert [(t["id"], t["what"], t["corrects"], t["note"]) for t in export["transfers"]] == [
        (1, "500 MS", None, None), (2, "Planet Deneb", None, None), (3, "20 MS", None, None),
        (4, "50 MS", 1, "it was 50"), (5, "50 MS", 4, "sent in round 1"), (6, "nothing (cancelled)", 3, "never sent"),
        (7, "Planet Deneb", 2, "to alice")]
    assert (await table.kinds()).count("TransferCorrected") == 4


async def test_perform_audit_publishes_the_requested_and_current_rounds_and_records_every_share(table: Any) -> None:
    """R0-51: "publish all their Transfer and Transfer Funds actions, posting what was transferred to who"; R0-52:
    the fee is divided among all active players, the audited player included."""
    await _trio(table)
    await _round(table, 1)
    await _send(table, BOB, "Transfer: 100 MS to alice")
    await _round(table, 2)
    await _send(table, BOB, "Transfer: 200 MS to carol")
    await _send(table, ALICE, "Transfer: 7 MS to bob")  # not Bob's
    await _round(table, 3)
    await _send(table, BOB, "Transfer: Count Jasek to alice")
    c = table.clerk
    bob = await c.landsdraad.ledger.player(table.game_id, BOB)
    async with c._write(table.game_id) as uow:
        audit = await perform_audit(uow, await load_game(uow.session, table.game_id), bob.id, (1,), None)
    assert (audit.target, audit.round, audit.requested, audit.rounds, audit.fee, audit.share) == (
        "bob", 3, (1,), (1, 3), 1000 + 300 + 2000, 1100)
    assert audit.payers == ("alice", "bob", "carol")
    assert [(t.round, t.what, t.to) for t in audit.transfers] == [(1, "100 MS", "alice"), (3, "Count Jasek", "alice")]
    assert audit.payload()["fee"] == 3300
    card = audit_card(audit).as_text()  # posted publicly by the enactment of the Audit vote
    assert card.splitlines()[:5] == [
        "**CHOAM audit of bob**",
        "CHOAM's auditors publish every Transfer and Transfer Funds action of bob in rounds 1 and 3.",
        "Transfers:", "  Round 1: 100 MS to alice", "  Round 3: Count Jasek to alice"]
    assert "Fee: 3300 MS = 1000 base + 100 × 3 active players + 1000 × 2 for going back (3−1)" in card
    assert "Each player pays: 1100 MS (all 3 active players share the bill, bob included)" in card
    [row] = await _rows(table, AuditRow)
    assert (row.round_number, row.target_id, row.fee, row.share, row.vote_id) == (3, bob.id, 3300, 1100, None)
    assert row.rounds["published"] == [1, 3] and row.rounds["requested"] == [1]
    assert [(p["name"], p["share"]) for p in row.rounds["payers"]] == [("alice", 1100), ("bob", 1100),
                                                                        ("carol", 1100)]
    export = await c.exports.export(table.game_id, include_events=False)
    assert export["audits"] == [{"target": "bob", "rounds": [1, 3], "requested": [1], "fee": 3300, "share": 1100,
                                 "round": 3, "vote": None, "at": export["audits"][0]["at"]}]


# -- the front end: who sees what ------------------------------------------------------------------------------

async def test_transfer_and_quote_dms_are_answered_only_to_the_sender(table: Any) -> None:
    """R0-53: the quote is PRIVATE to the requester; a transfer is acknowledged to its sender only, after commit."""
    await _trio(table)
    await _round(table, 3)
    c = table.clerk
    bob = actor(BOB, "bob")
    out = await dm(c, bob, "Transfer: 500 MS to Alice")
    assert only_here(out[:1]).startswith("Recorded your transfer of 500 MS to alice in round 3 of sirius.")
    assert [o.to for o in out[1:]] == [moderators_thread(table)]  # and the moderators, privately (issue 16)
    out = await dm(c, bob, "Transfer: 500 MS to Alice #sirius")
    assert "Recorded your transfer" in only_here(out[:1]) and [o.to for o in out[1:]] == [moderators_thread(table)]
    out = await dm(c, bob, "Transfer: 500 MS to Alice", source_id="same")
    again = await dm(c, bob, "Transfer: 500 MS to Alice", source_id="same")  # the moderators are not told twice
    assert "reached me twice" in only_here(again) and len(await _rows(table, TransferRow)) == 3
    refused = only_here(await dm(c, bob, "Transfer: 5 MS to Dave"))
    assert "No player in sirius is called “Dave”" in refused and refused.endswith("Nothing was recorded.")
    unreadable = only_here(await dm(c, bob, "Transfer 5 MS"))
    assert "I couldn't read" in unreadable and "Transfer: 500 MS to <Name>" in unreadable

    text = only_here(await dm(c, bob, "Audit quote: Alice rounds 1-2"))
    assert "Audit quote for alice in round 3 of sirius: **4300 MS** in all, **1434 MS**" in text  # ceil(4300 / 3)
    assert "rounds 1, 2 and 3" in text and "`Audit: alice rounds 1, 2`" in text
    [slashed] = await slash(c, bob, "audit quote", player=user(ALICE, "alice"), rounds="2")
    assert slashed.ephemeral and "**2300 MS** in all, **767 MS**" in slashed.text
    [from_dm] = await slash(c, bob, "audit quote", player=user(ALICE, "alice"), in_dm=True)
    assert from_dm.ephemeral and "**1300 MS**" in from_dm.text
    [bad] = await slash(c, bob, "audit quote", player=user(ALICE, "alice"), rounds="4")
    assert bad.ephemeral and "Round 4 cannot be audited in round 3" in bad.text


async def test_transfer_commands_for_moderators(table: Any) -> None:
    await _trio(table)
    await _round(table, 2)
    c = table.clerk
    [refused] = await slash(c, actor(BOB, "bob"), "transfer list", player=user(BOB, "bob"))
    assert refused.ephemeral and "Only the moderators" in refused.text
    [done, notice] = await slash(c, MODERATOR, "transfer record", sender=user(BOB, "bob"), to=user(ALICE, "alice"),
                                 what="300 MS", round=1, note="told me at the table")
    assert notice.to == moderators_thread(table) and "Note: told me at the table" in notice.text
    assert done.ephemeral and done.text == "Recorded entry #1: bob transferred 300 MS to alice in round 1."
    [bad] = await slash(c, MODERATOR, "transfer record", sender=user(BOB, "bob"), to=user(ALICE, "alice"),
                        what="300 MS", round=3)
    assert "Choose a round from 1 to 2, not 3" in bad.text
    [fixed, corrected] = await slash(c, MODERATOR, "transfer correct", id=1, note="it was Carol",
                                     to=user(CAROL, "carol"))
    assert corrected.to == moderators_thread(table) and "Transfer #2 corrects #1" in corrected.text
    assert fixed.ephemeral and fixed.text.startswith("Entry #2 corrects #1: bob's transfer in round 1 now reads "
                                                     "300 MS to carol.")
    [listing] = await slash(c, MODERATOR, "transfer list", player=user(BOB, "bob"), round=1)
    assert listing.ephemeral and listing.card is not None
    assert "#1 · round 1: 300 MS to alice" in listing.card.description
    assert "replaced by #2 · note: told me at the table" in listing.card.description
    assert "#2 · round 1: 300 MS to carol" in listing.card.description
