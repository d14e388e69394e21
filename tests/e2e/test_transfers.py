"""Issue 16, transfers: each recorded transfer reaches the moderators at once, in the game's ``moderator_channel`` or
else in a private thread of the game channel (only the moderators and the bot in it), and never the game channel;
a transfer of a planet or Elector the sender holds comes with an Apply button that moves it in the ledger and tells
both players by DM. Through the real discord.py client and the fake Discord.

Real Discord, as the fake models it (tests/fakediscord/channels.py): a private thread (type 12) is made with
``POST /channels/{id}/threads {"type": 12}`` (Create Private Threads), Discord posts no "started a thread" message in
the parent for it, only its members (and members with Manage Threads) see it, and members are added with
``PUT /channels/{thread}/thread-members/{user}`` (Send Messages in Threads)."""

from __future__ import annotations

from fakediscord import Channel, Sent, User

from .clerkbot import Harness

PRIVATE_THREAD = 12


async def planets(h: Harness) -> None:
    await h.new_game()
    await h.run(h.mod, "holding add", h.game, player=h.bob, kind="planet", name="Lankiveil", quality="rich")
    await h.run(h.mod, "holding add", h.game, player=h.bob, kind="elector", name="Count Jasek", tier="strong",
                votes=4)


async def posted(h: Harness, channel: Channel, text: str) -> Sent:
    found = await h.fake.wait_for(lambda: [m for m in h.fake.messages(channel) if text in m.content], text)
    return found[-1]


async def dm_with(h: Harness, user: User, text: str) -> Sent:
    found = await h.fake.wait_for(lambda: [m for m in h.fake.dms(user) if text in m.content], f"a DM with {text!r}")
    return found[-1]


def public_mentions(h: Harness, word: str) -> list[Sent]:
    """What the players can read that names ``word``: in the game channel and its public threads, every message but
    the ephemeral answers to moderators (flag 64: only the one who ran the command sees it)."""
    public = {h.game.id} | {t.id for t in h.fake.threads_of(h.game) if t.type != PRIVATE_THREAD}
    return [s for s in h.fake.sent if s.channel_id in public and not s.flags & 64
            and (word in s.content or word in str(s.embeds))]


async def holder(h: Harness, name: str) -> str:
    for p in await h.clerk.landsdraad.ledger.players(await h.game_id()):
        if any(x.name == name for x in p.holdings):
            return p.name
    return "nobody"


async def votes(h: Harness) -> dict[str, int]:
    return {p.name: p.votes for p in await h.clerk.landsdraad.ledger.players(await h.game_id())}


async def test_a_transfer_reaches_the_moderator_channel_and_apply_moves_the_planet(clerk_bot: Harness) -> None:
    h = clerk_bot
    await planets(h)
    mods = h.fake.add_channel("mods")
    setting = await h.run(h.mod, "game settings", h.game, moderator_channel=mods)
    assert setting.first.ephemeral and f"now goes to <#{mods.id}>" in setting.first.content
    before = await votes(h)

    await h.fake.reply_to(await h.fake.dm(h.bob, "Transfer: Planet Lankiveil to alice"))
    notice = await posted(h, mods, "Transfer #1")
    assert "**bob** → **alice**: Planet Lankiveil" in notice.content and "round 1 of sirius" in notice.content
    assert [b["label"] for b in notice.buttons()] == ["Apply: Lankiveil to alice"]
    assert await holder(h, "Lankiveil") == "bob"  # recorded only, until a moderator applies it

    refused = await h.press(h.alice, notice, "Apply: Lankiveil to alice")  # a player cannot apply it
    assert refused.first.ephemeral and "Only the moderators of sirius can apply a transfer" in refused.first.content
    assert await holder(h, "Lankiveil") == "bob"

    applied = await h.press(h.mod, notice, "Apply: Lankiveil to alice")
    assert applied.first.ephemeral and "applied transfer #1" in applied.first.content
    assert await holder(h, "Lankiveil") == "alice"
    after = await votes(h)
    assert after["bob"] < before["bob"] and after["alice"] > before["alice"]
    giver = await dm_with(h, h.bob, "applied your transfer #1")
    taker = await dm_with(h, h.alice, "applied bob's transfer #1")
    assert f"You now control {after['bob']} votes" in giver.content and "alice" not in giver.content.split(".")[-2]
    assert f"You now control {after['alice']} votes" in taker.content
    line = await posted(h, mods, "mod applied transfer #1")
    status = await h.run(h.mod, "round status", h.game)
    in_play = sum(after.values())
    assert f"{in_play} votes in play now" in line.content
    assert status.first.embeds[0]["fields"][0] == {"inline": True, "name": "Votes in play", "value": str(in_play)}

    assert notice.button("Apply: Lankiveil to alice").get("disabled")  # Discord shows it pressed
    late = await h.run(h.mod, "transfer apply", h.game, id=1)
    assert "Transfer #1 was already applied" in late.first.content

    await h.fake.reply_to(await h.fake.dm(h.bob, "Transfer: 500 MS to alice"))
    money = await posted(h, mods, "Transfer #2")
    assert "500 MS" in money.content and "recorded only" in money.content and money.buttons() == []

    listing = await h.run(h.mod, "transfer list", h.game)
    text = str(listing.first.embeds)
    assert "Transfers of every player in round 1" in text and "#1" in text and "applied" in text and "#2" in text
    denied = await h.run(h.alice, "transfer list", h.game)
    assert "Only the moderators" in denied.first.content

    assert public_mentions(h, "Lankiveil") == [] and public_mentions(h, "500 MS") == []  # secrecy: never public


async def test_without_a_moderator_channel_a_private_thread_is_made_once(clerk_bot: Harness) -> None:
    h = clerk_bot
    await planets(h)
    await h.fake.reply_to(await h.fake.dm(h.bob, "Transfer: Elector Count Jasek to alice"))
    [thread] = await h.fake.wait_for(lambda: [t for t in h.fake.threads_of(h.game) if t.type == PRIVATE_THREAD],
                                     "the private thread")
    assert thread.name == "sirius moderators"
    notice = await posted(h, thread, "Transfer #1")
    assert h.mod.id in thread.members and h.fake.bot.id in thread.members
    assert h.alice.id not in thread.members and h.bob.id not in thread.members
    assert [b["label"] for b in notice.buttons()] == ["Apply: Count Jasek to alice"]

    mods = await h.fake.create_role("Mods")  # a second moderator, by role: added once the log shows them acting
    dora = h.fake.add_user("dora", roles=(mods,))
    await h.run(h.mod, "game moderators", h.game, role=mods)
    await h.run(dora, "holding add", h.game, player=h.alice, kind="planet", name="Caladan", quality="poor")
    assert dora.id not in thread.members
    await h.fake.reply_to(await h.fake.dm(h.bob, "Transfer: Planet Lankiveil to alice"))
    second = await posted(h, thread, "Transfer #2")
    assert dora.id in thread.members and h.alice.id not in thread.members
    assert [t for t in h.fake.threads_created if t.type == PRIVATE_THREAD] == [thread]  # made once, reused

    await h.run(h.mod, "holding remove", h.game, player=h.bob, name="Lankiveil")
    gone = await h.press(h.mod, second, "Apply: Lankiveil to alice")  # the planet left the ledger since
    assert gone.first.ephemeral and "no longer" in gone.first.content
    applied = await h.press(h.mod, notice, "Apply: Count Jasek to alice")
    assert "applied transfer #1" in applied.first.content and await holder(h, "Count Jasek") == "alice"

    assert public_mentions(h, "Count Jasek") == [] and public_mentions(h, "Lankiveil") == []
    assert not [s for s in h.fake.sent if s.kind == "system" and s.channel_id == h.game.id]  # no "started a thread"


async def test_without_create_private_threads_the_moderators_get_it_by_dm(clerk_bot: Harness) -> None:
    h = clerk_bot
    await planets(h)
    h.fake.private_threads_refused = True
    await h.fake.reply_to(await h.fake.dm(h.bob, "Transfer: Planet Lankiveil to alice"))
    told = await dm_with(h, h.mod, "could not make or use the private moderators' thread")
    assert "Create Private Threads and Send Messages in Threads" in told.content
    first = await dm_with(h, h.mod, "Transfer #1")
    assert "/transfer apply id:1" in first.content and first.buttons() == []
    await h.fake.reply_to(await h.fake.dm(h.bob, "Transfer: 300 MS to alice"))
    await dm_with(h, h.mod, "Transfer #2")
    assert len([m for m in h.fake.dms(h.mod) if "could not make or use" in m.content]) == 1  # told once
    applied = await h.run(h.mod, "transfer apply", h.game, id=1)
    assert "applied transfer #1" in applied.first.content and await holder(h, "Lankiveil") == "alice"
    assert public_mentions(h, "Lankiveil") == []
