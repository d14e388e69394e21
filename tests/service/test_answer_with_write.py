"""A DM form's answer owed in its write's own transaction (``engine.service.owed.owe_in``; play-test S4.5): any
service's ``_write`` that takes an ``answer`` keeps its messages exactly when it commits, never without it, and a
refused or redelivered form owes nothing there (its answer is made after, by the caller). Shown with Mylantium's
`Realign:` and `Contribute:`, which tests/e2e/test_discord_myl_conv.py does not send; the e2e test kills the bot
between the commit and the front end's owing for `Coup:`, `Second:` and `Transfer:`."""

from __future__ import annotations

import pytest
from mylantium_table import MOD, USERS, republic
from test_service_mylantium import C, F, W, candidates, tv1_i11

from engine.core.errors import RuleError
from engine.service import Clerk
from engine.service.clock import ManualClock
from engine.service.owed import RECEIPT, Owed, OwedWith


def answer(user: int, text: str) -> OwedWith[object]:
    def make(result: object) -> list[Owed]:
        return [Owed(f"user:{user}", None, RECEIPT, f"n-{text}", {"text": text}, source_id=f"msg:{text}")]

    return OwedWith(make)


async def test_a_realignment_owes_its_answer_in_its_transaction(clerk: Clerk, clock: ManualClock) -> None:
    rep = await republic(clerk, clock)
    await candidates(rep)
    await clerk.mylantium.set_government(rep.id, president=C.PR, actor=MOD)
    await clerk.mylantium.elections.start_election_round(rep.id, actor=MOD)

    refused = answer(USERS[C.GR], "r-1")
    with pytest.raises(RuleError, match="largest National Faction Vote of the Whigs"):
        await clerk.mylantium.elections.realign(rep.id, user_id=USERS[C.GR], party=F, source_id="msg:r-1",
                                                answer=refused)
    assert refused.rows == [] and await clerk.outbox.owed() == [], "a refused form owes nothing with it"

    realigned = answer(USERS[C.PL], "r-2")
    done = await clerk.mylantium.elections.realign(rep.id, user_id=USERS[C.PL], party=F, source_id="msg:r-2",
                                                   answer=realigned)
    assert (done.old, done.new) == (W, F)
    assert [r.id for r in await clerk.outbox.owed()] == [r.id for r in realigned.rows] and len(realigned.rows) == 1
    assert clerk.outbox._owe_batcher.batches == 0, "the answer took no transaction of its own"

    again = answer(USERS[C.PL], "r-2-again")
    assert (await clerk.mylantium.elections.realign(rep.id, user_id=USERS[C.PL], party=F, source_id="msg:r-2",
                                                    answer=again)).duplicate
    assert again.rows == [], "a redelivered form is answered after, by the caller"
    assert len(await clerk.outbox.owed()) == 1


async def test_a_contribution_owes_its_receipt_in_its_transaction(clerk: Clerk, clock: ManualClock) -> None:
    rep = await tv1_i11(clerk, clock)
    await clerk.mylantium.set_faction(rep.id, code=C.PR, vp=0, actor=MOD)
    await clerk.mylantium.revolutions.answer_coup(rep.id, accept=True, user_id=USERS[C.BH], actor=USERS[C.BH])
    pledged = answer(USERS[C.PL], "p-PL")
    await clerk.mylantium.revolutions.pledge(rep.id, user_id=USERS[C.PL], amount=10, to_vanguard=False,
                                             at=clock.now(), source_id="msg:p-PL", answer=pledged)
    assert [r.owed.source_id for r in await clerk.outbox.owed()] == ["msg:p-PL"] and len(pledged.rows) == 1
    assert clerk.outbox._owe_batcher.batches == 0


async def test_a_kept_message_owed_with_a_write_supersedes_its_older_unsent_text(clerk: Clerk,
                                                                                 clock: ManualClock) -> None:
    """What a form posts elsewhere is owed with it too; a kept message's new text (an AG election's running count,
    ``coalesce``) supersedes the unsent older one in the same transaction, as ``clerk.outbox.owe`` does after it."""
    rep = await republic(clerk, clock)
    await candidates(rep)
    await clerk.mylantium.set_government(rep.id, president=C.PR, actor=MOD)
    await clerk.mylantium.elections.start_election_round(rep.id, actor=MOD)
    [older] = await clerk.outbox.owe([Owed("thread:1:count", None, 1, "n-older", {"text": "0"}, coalesce="keep:1")])
    assert older is not None
    batches = clerk.outbox._owe_batcher.batches

    def make(result: object) -> list[Owed]:
        return [Owed(f"user:{USERS[C.PL]}", None, RECEIPT, "n-k", {"text": "r"}, source_id="msg:k"),
                Owed("thread:1:count", None, 1, "n-newer", {"text": "1"}, coalesce="keep:1")]

    realigned: OwedWith[object] = OwedWith(make)
    await clerk.mylantium.elections.realign(rep.id, user_id=USERS[C.PL], party=F, source_id="msg:k", answer=realigned)
    assert [r.owed.nonce for r in await clerk.outbox.owed()] == ["n-k", "n-newer"], "the older text superseded"
    assert [r.id for r in realigned.rows] == [r.id for r in await clerk.outbox.owed()]
    assert clerk.outbox._owe_batcher.batches == batches, "owed in the write's transaction"
