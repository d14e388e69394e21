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


async def test_a_cards_chart_drawn_after_its_write_is_added_to_its_row_before_it_is_queued(clerk: Clerk) -> None:
    """A card owed with its write goes without its chart, which is drawn off the event loop once the write has
    committed (``bot/actions/owed_files.py``, `/phase business close`); ``charted`` then adds the chart to the card's
    row, not queued yet, and hands the front end the card with it: what is posted, now or after a restart, is the
    card with its chart. A row owed no longer is left alone; a chart that failed to draw leaves the card as it was."""
    from bot.actions.commands import App
    from bot.actions.drawing import Picture
    from bot.actions.outbox import Answering, AnswerWith, Card, Outgoing, ToChannel, not_owed, reply
    from bot.actions.owed_files import charted
    from bot.actions.wire import decode, encode
    from engine.service.owed import HELD, NOTICE

    nonces = iter(range(1, 100))
    answering = Answering(not_owed, lambda item: Owed("channel:7", 7, NOTICE, f"c{next(nonces)}", encode(item)))
    card = Outgoing(ToChannel(7), card=Card("Turn 1's Business Phase"))
    answered: AnswerWith[str] = AnswerWith(answering, lambda _: [reply("Closed."), card])
    assert answered.owed is not None
    rows = await clerk.outbox.owe(answered.owed.make("closed"))  # as the write keeps them (``owe_in``)
    answered.owed.rows = [row for row in rows if row is not None]
    out = answered.out("closed")
    assert await charted(App(clerk), answered, out, card, Picture(None, "")) == out, "no chart: the card as owed"
    drawn = await charted(App(clerk), answered, out, card, Picture(("history.png", b"\x89PNG"), "A line chart"))
    assert drawn[0] is out[0] and drawn[1].file == ("history.png", b"\x89PNG") and drawn[1].alt == "A line chart"
    [(queued, row)] = answering.owed
    assert queued is drawn[1] and decode(row.owed.body)[0].file == ("history.png", b"\x89PNG")
    [stored] = await clerk.outbox.owed()
    assert stored.id == row.id and decode(stored.owed.body)[0] == drawn[1], "the card's row, with its chart"
    await clerk.outbox.settle(row.id, HELD)
    assert await clerk.outbox.amend(row, {"text": "other"}) is None, "a row owed no longer is not changed"
