"""Nothing the bot posts can ping (Issue 8): a player called ``@everyone <@&role>`` (kept as ``everyone``: names are
kept without markdown, play-test P4.1) and a crisis text full of
mentions go out in channel posts, replies, DMs, interaction responses, followups and button updates, and the
fake Discord, which applies Discord's rules for ``allowed_mentions`` to every body it received, finds no one
notified."""

from __future__ import annotations

import io

import pytest
from fakediscord.mentions import pings

import bot.discord.client

from .clerkbot import Harness

HOSTILE = "@everyone @here <@&{role}> <@{user}>"


def warm_charts() -> None:
    """Draw one picture first: /round open posts the Forecast chart, and matplotlib's first drawing (fonts) can
    hold the event loop past Discord's 3 s on a busy machine."""
    from matplotlib.figure import Figure

    figure = Figure()
    figure.text(0.5, 0.5, "warm")
    figure.savefig(io.BytesIO(), format="png")


async def test_names_and_crisis_texts_with_mentions_ping_no_one_on_any_send_path(clerk_bot: Harness) -> None:
    warm_charts()
    h = clerk_bot
    role = h.fake.add_role("Players")
    hostile_name = f"@everyone <@&{role.id}>"
    mallory = h.fake.add_user(hostile_name)
    mallory.accepts_dms = False  # the bot's report of closed DMs puts her name in the game channel's content
    crisis = "Raise the levy? " + HOSTILE.format(role=role.id, user=h.alice.id)

    await h.run(h.mod, "game new", h.game, ruleset="landsdraad", name="sirius")
    await h.run(h.mod, "player add", h.game, user=h.alice, diplomacy=4, command=2, intrigue=2, roll=3)
    await h.run(h.mod, "player add", h.game, user=mallory, diplomacy=2, command=3, intrigue=1, roll=1)
    await h.run(h.mod, "round open", h.game, crisis=crisis, deadline="2h")
    await h.fake.reply_to(await h.fake.dm(h.alice, "Vote: Aye"))  # a reply (message_reference) in a DM
    ballot = next(m for m in h.fake.dms(h.alice) if m.buttons())
    await h.press(h.alice, ballot, "Nay")  # an interaction response and an update of the button's message
    with pytest.MonkeyPatch.context() as patch:  # deferred at once: the answer goes as a followup (webhooks)
        patch.setattr(bot.discord.client, "DEFER_AFTER", 0.0)
        assert (await h.run(h.mod, "log", h.game)).deferred
    for voter in (h.alice, mallory):  # a thread post, then the same count edited in place
        answer = await h.fake.reply_to(await h.fake.say(voter, h.thread, "Vote: End Game"))
        assert "Nothing was recorded" not in answer.text(), answer.text()
    await h.run(h.mod, "round close", h.game)
    await h.settle()

    bodies = h.fake.bodies
    routes = {path.split("/")[3] if path.startswith("/api/v10/") else path for _, path, _ in bodies}
    assert {"channels", "interactions", "webhooks"} <= routes, routes
    assert any("/callback" in path for _, path, _ in bodies)
    assert any(method == "PATCH" for method, _, _ in bodies)  # an edit of a kept message
    assert any(b.get("message_reference") for _, _, b in bodies)
    posted = "\n".join(str((b.get("data") or b).get("content") or "") for _, _, b in bodies)
    assert HOSTILE.format(role=role.id, user=h.alice.id) in posted  # mentions reached a content, where they'd ping
    assert "everyone" in posted and hostile_name not in posted  # the name is kept without its mention syntax (P4.1)
    assert [(path, pings(b)) for _, path, b in bodies if pings(b)] == []
    for _, _, body in bodies:
        message = body.get("data") if isinstance(body.get("data"), dict) else body
        if message.get("content"):
            allowed = message.get("allowed_mentions")
            assert allowed is not None and allowed.get("parse") == [] and not allowed.get("replied_user"), body


def test_the_fake_applies_discords_rules_for_allowed_mentions() -> None:
    """``pings`` is what the test above relies on: it must see the pings a careless body would make."""
    text = {"content": "@everyone <@&5> <@7>", "message_reference": {"message_id": 1}}
    assert pings(text) == ["@everyone", "role 5", "user 7", "replied user"]
    assert pings({"type": 4, "data": {**text, "allowed_mentions": {"parse": ["everyone"]}}}) == ["@everyone"]
    assert pings({**text, "allowed_mentions": {"parse": [], "users": ["7"], "replied_user": True}}) == ["user 7",
                                                                                                     "replied user"]
    assert pings({**text, "allowed_mentions": {"parse": []}}) == []
