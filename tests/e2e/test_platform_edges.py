"""Discord's edges (issue 18): a slow command keeps the visibility its answer was meant to have, and a command that
outlasts the interaction token still answers."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest

import bot.discord.client
from bot.actions.rulesets import COMMANDS

from .clerkbot import Harness


def held(monkeypatch: pytest.MonkeyPatch) -> asyncio.Event:
    """Commands wait, before any work, until the returned event is set: a command as slow as the test wants."""
    release = asyncio.Event()
    real: Callable[..., Any] = bot.discord.client.dispatch

    async def slow(*args: Any) -> Any:
        await release.wait()
        return await real(*args)

    monkeypatch.setattr(bot.discord.client, "dispatch", slow)
    return release


async def test_a_slow_public_command_is_deferred_publicly_and_a_slow_private_one_privately(
        clerk_bot: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """Discord gives the first follow-up after a deferral the deferred response's flags (the fake models it:
    tests/fakediscord/server.py ``_followup``); so the deferral must already say whether the answer is public."""
    h = clerk_bot
    await h.new_game()
    monkeypatch.setattr(bot.discord.client, "DEFER_AFTER", 0.0)

    status = await h.run(h.alice, "round status", h.game)
    me = await h.run(h.alice, "me", h.game)

    assert status.deferred and not status.response_flags & 64
    assert status.first.kind == "followup" and not status.first.ephemeral
    assert "sirius: round 1 (open)" in status.first.text()
    assert me.deferred and me.response_flags & 64
    assert me.first.kind == "followup" and me.first.ephemeral
    assert me.first.embed["title"].startswith("alice in sirius")


async def test_a_slow_public_command_that_is_refused_answers_only_the_caller(
        clerk_bot: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """A public command deferred publicly whose answer is a refusal: the public "thinking" message is deleted and
    the refusal is sent as a follow-up of its own, ephemeral."""
    h = clerk_bot
    monkeypatch.setattr(bot.discord.client, "DEFER_AFTER", 0.0)

    refused = await h.run(h.alice, "round status", h.lobby)  # no game here

    assert refused.deferred and not refused.response_flags & 64 and refused.original_deleted
    assert refused.first.ephemeral and "works in a game channel" in refused.first.content


async def test_a_public_answer_after_the_token_expired_is_posted_in_the_channel(
        clerk_bot: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """Discord: "Interaction tokens are valid for 15 minutes and can be used to send followup messages". Work that
    takes longer (here: held while the fake's clock passes 16 minutes) is posted in the channel, naming the
    caller, rather than lost."""
    h = clerk_bot
    await h.new_game()
    monkeypatch.setattr(bot.discord.client, "DEFER_AFTER", 0.0)
    release = held(monkeypatch)

    status = await h.fake.slash(h.alice, "round status", h.game)
    await h.fake.wait_for(lambda: status.deferred, "the deferral")
    h.clock.advance(timedelta(minutes=16))
    release.set()
    await h.idle()

    assert status.responses == []
    [late] = [m for m in h.fake.messages(h.game) if m.content.startswith("/round status for")]
    assert late.content.startswith(f"/round status for <@{h.alice.id}> (late: it took longer than the 15 minutes")
    assert "sirius: round 1 (open)" in late.text() and not late.ephemeral


async def test_a_private_answer_refused_for_an_expired_token_goes_by_dm(
        clerk_bot: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """Here the fake's token lifetime is patched shorter than the bot's idea of it, so the bot tries the follow-up
    and Discord refuses it (401 50027 Invalid Webhook Token): the private answer then goes to the caller by DM."""
    h = clerk_bot
    await h.new_game()
    monkeypatch.setattr(bot.discord.client, "DEFER_AFTER", 0.0)
    h.fake.token_lifetime = timedelta(seconds=1)
    release = held(monkeypatch)

    me = await h.fake.slash(h.alice, "me", h.game)
    await h.fake.wait_for(lambda: me.deferred, "the deferral")
    h.clock.advance(timedelta(seconds=2))
    before = len(h.fake.dms(h.alice))
    release.set()
    await h.idle()

    assert me.responses == []
    [late] = h.fake.dms(h.alice)[before:]
    assert late.content.startswith(f"Your /me in <#{h.game.id}> took longer than the 15 minutes")
    assert late.embed["title"].startswith("alice in sirius")


async def test_a_refused_command_sync_is_logged_and_the_bot_runs_on_and_syncs_later(
        clerk_bot: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """Discord can refuse the sync (PUT /applications/{id}/commands): 400 50035 Invalid Form Body for a command
    list it finds invalid, 403 50001 Missing Access, an outage. The bot logs Discord's error, runs on with the
    commands Discord registered before (DMs still work), and tries again later, backing off."""
    h = clerk_bot
    await h.new_game()
    monkeypatch.setattr(bot.discord.client, "SYNC_RETRY", 0.01)  # the real one: a minute, then doubling
    h.fake.refuse_syncs(2, 403, 50001, "Missing Access")
    syncs = h.fake.syncs

    await h.restart()
    answer = await h.fake.reply_to(await h.fake.dm(h.alice, "Vote: Aye"))
    await h.fake.wait_for(lambda: h.fake.syncs == syncs + 3, "the sync tried again until Discord takes it")
    await h.fake.wait_for(lambda: h.bot._sync_task is not None and h.bot._sync_task.done(), "the retries to end")

    assert "Ballot recorded" in answer.content
    refused = [r.getMessage() for r in h.errors.records]
    assert len(refused) == 2 and all(m.startswith("could not sync the slash commands globally: 403 Forbidden "
                                                  "(error code: 50001): Missing Access") for m in refused), refused
    assert h.fake.sync_refusals == [] and h.fake.commands[None]
    status = await h.run(h.alice, "round status", h.game)
    assert "sirius: round 1 (open)" in status.first.text()
    h.errors.records.clear()


def permissions(command: dict[str, Any]) -> str | None:
    """A command's ``default_member_permissions``: Discord documents a string; discord.py sends an int."""
    value = command.get("default_member_permissions")
    return None if value is None else str(value)


async def test_the_synced_commands_say_where_they_work_and_hide_the_moderators_ones(clerk_bot: Harness) -> None:
    """Discord reads two fields of each top-level command it is sent: ``contexts`` ("Interaction context(s) where
    the command can be used": 0 GUILD, 1 BOT_DM) and ``default_member_permissions`` ("Set of permissions represented
    as a bit set": a member without them does not see the command unless a server admin allows it in Server
    Settings → Integrations, which is why ``dispatch`` still checks)."""
    synced = {c["name"]: c for c in clerk_bot.fake.commands[None]}
    under: dict[str, list[Any]] = {}
    for name, spec in COMMANDS.items():
        under.setdefault(name.split()[0], []).append(spec)

    for top, specs in under.items():
        dm = any(s.game != "channel" and not s.moderator for s in specs)
        assert synced[top]["contexts"] == ([0, 1] if dm else [0]), top
        assert permissions(synced[top]) == ("32" if all(s.moderator for s in specs) else None), top
    for dm_usable in ("vote", "me", "help", "game", "score", "forecast", "motion"):  # /game list is in /game
        assert synced[dm_usable]["contexts"] == [0, 1], dm_usable
    for guild_only in ("round", "board", "status", "player", "log", "cast-for"):
        assert synced[guild_only]["contexts"] == [0], guild_only
    for moderators in ("player", "log", "cast-for", "holding"):  # 32: Manage Server
        assert permissions(synced[moderators]) == "32", moderators
    assert permissions(synced["round"]) is None  # /round status is for everyone
