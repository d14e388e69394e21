"""``AnswerWith`` (bot/actions/outbox.py): what a message's write makes of its result is owed in the write's
transaction: its answers (``Here``) and what it posts elsewhere (a channel, a thread, a DM to another player), so a
kill between the commit and the front end's owing loses none of it (docs/reliability.md). A result card carrying its
announcement marker (its nonce, which may be owed already) is owed after, as before; the end-to-end kill:
tests/e2e/test_discord_myl_conv.py."""

from __future__ import annotations

from bot.actions.outbox import (
    POSTED,
    WARNED,
    Answering,
    AnswerWith,
    Card,
    Outgoing,
    ToChannel,
    ToUser,
    not_owed,
    reply,
)
from engine.service.owed import NOTICE, RECEIPT, Owed, OwedRow


def front() -> Answering:
    """A front end's rows: an answer's nonce is ``a:<text>``, a post's ``p:<text>``; nothing to send, no row."""
    return Answering(lambda item: Owed("user:1", None, RECEIPT, f"a:{item.text}", {}),
                     lambda item: Owed("elsewhere", None, NOTICE, f"p:{item.text}", {}) if item.text else None)


def test_what_a_write_posts_elsewhere_is_owed_with_its_answer() -> None:
    public = Outgoing(ToChannel(7), "The Plutocrats have realigned.")
    offer = Outgoing(ToUser(3), "Will you second it?")
    card = Outgoing(ToChannel(7), card=Card("Result"), extra={POSTED: "round:1:1"})
    warning = Outgoing(ToChannel(8), "Moderators: it gives away...", extra={WARNED: "wround:1:1"})
    made = [reply("Recorded."), public, offer, card, warning, Outgoing(ToUser(4))]
    answering = front()
    answered: AnswerWith[str] = AnswerWith(answering, lambda _: made)
    assert answered.owed is not None
    owed = answered.owed.make("result")  # in the write's transaction
    assert [o.nonce for o in owed] == ["a:Recorded.", "p:The Plutocrats have realigned.", "p:Will you second it?"]
    answered.owed.rows = [OwedRow(n, o) for n, o in enumerate(owed, 1)]  # the write kept them
    assert answered.out("result") == made
    assert [(item, row.id) for item, row in answering.owed] == [(made[0], 1), (public, 2), (offer, 3)], (
        "queued by the front end, never owed again; the marked card and warning are owed after")


def test_without_a_front_end_that_owes_or_a_write_that_owed_everything_is_made_after() -> None:
    made = [reply("Recorded."), Outgoing(ToChannel(7), "The Plutocrats have realigned.")]
    alone: AnswerWith[str] = AnswerWith(None, lambda _: made)
    assert alone.owed is None and alone.out("result") == made
    answering = front()
    redelivered: AnswerWith[str] = AnswerWith(answering, lambda _: made[:1])  # the write left before owing
    assert redelivered.out("result") == made[:1] and answering.owed == []


def test_an_interactions_answer_is_its_response_and_only_what_it_posts_elsewhere_is_owed_with_its_write() -> None:
    """A button press, a menu choice or a slash command (``Courier.answering_posts``): its answer to the
    presser is the interaction's response, which a restart has no token to send, so it is never owed; what it posts
    elsewhere (the offer's move in the channel, the offer DMed to the next player) is owed with the write."""
    moved = Outgoing(ToChannel(7), "The offer to second is now with carol.")
    offer = Outgoing(ToUser(3), "Will you second it?")
    made = [reply("You decline to second Motion #1.", ephemeral=True), moved, offer]
    answering = Answering(not_owed, front().post_of)
    answered: AnswerWith[str] = AnswerWith(answering, lambda _: made)
    assert answered.owed is not None
    owed = answered.owed.make("result")
    assert [o.nonce for o in owed] == ["p:The offer to second is now with carol.", "p:Will you second it?"]
    answered.owed.rows = [OwedRow(n, o) for n, o in enumerate(owed, 1)]
    assert answered.out("result") == made, "the answer is still made, for the interaction's response"
    assert [(item, row.id) for item, row in answering.owed] == [(moved, 1), (offer, 2)]


def test_a_held_results_warning_is_owed_with_the_close_that_made_its_nonce() -> None:
    """``warns``: the write is the close of a result the disclosure check holds back (its card has no marker, so
    nothing posts the warning again after a kill): its warning (``WARNED``, its nonce new with the close's token) is
    owed with the write; a marked card is still owed after."""
    warning = Outgoing(ToChannel(8), "Moderators: it gives away...", extra={WARNED: "wprimary:1:1"})
    held = Outgoing(ToChannel(7), "held", card=Card("The Primary is closed"))
    card = Outgoing(ToChannel(7), "result", card=Card("Result"), extra={POSTED: "primary:1:1"})
    answered: AnswerWith[str] = AnswerWith(front(), lambda _: [warning, held, card], warns=True)
    assert answered.owed is not None
    assert [o.nonce for o in answered.owed.make("closed")] == ["p:Moderators: it gives away...", "p:held"]
