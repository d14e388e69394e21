"""A Discord name with bidi controls (issue 21): U+202E (right-to-left override) in a display name would reorder the
rest of every public line that shows it. Through the real discord.py client and the fake Discord: a player whose
name holds it votes in a thread and is reported in the game channel; nothing Clerk sends carries the control."""

from __future__ import annotations

import json

from .clerkbot import Harness

BIDI = ("\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\u200e", "\u200f")


async def test_a_name_with_a_right_to_left_override_is_posted_without_it(clerk_bot: Harness) -> None:
    h = clerk_bot
    mallory = h.fake.add_user("Mal\u202eory\u2066")
    mallory.accepts_dms = False  # the report of closed DMs puts her name in the game channel's content
    await h.run(h.mod, "game new", h.game, ruleset="landsdraad", name="sirius")
    await h.run(h.mod, "player add", h.game, user=h.alice, diplomacy=4, command=2, intrigue=2, roll=3)
    await h.run(h.mod, "player add", h.game, user=mallory, diplomacy=2, command=3, intrigue=1, roll=1)
    await h.run(h.mod, "round open", h.game, crisis="Raise the levy?", deadline="2h")
    answer = await h.fake.reply_to(await h.fake.say(mallory, h.thread, "Vote: End Game"))
    assert "Nothing was recorded" not in answer.text(), answer.text()
    await h.settle()
    sent = [json.dumps(body, ensure_ascii=False) for _, _, body in h.fake.bodies]
    assert [s[:120] for s in sent if any(ch in s for ch in BIDI)] == []
    assert any("Malory" in s for s in sent)  # the name reached what Clerk posted
