"""The Discord adapter itself: the registered commands match the command table, the intents, the one error
handler, deferral of slow commands, delivery to DMs, and Discord's size limits."""

from __future__ import annotations

import logging
from typing import Any

import pytest

import bot.discord.client
from bot.actions.commands import Channel, Role, Upload
from bot.actions.context import UserRef
from bot.actions.outbox import Card, Outgoing, ToChannel, ToUser
from bot.actions.rulesets import COMMANDS
from bot.discord.delivery import embed_of

from .clerkbot import Harness

KINDS = {str: 3, int: 4, bool: 5, UserRef: 6, Role: 8, Channel: 7, Upload: 11}


def registered(h: Harness, name: str) -> dict[str, Any]:
    parts = name.split()
    [top] = [c for c in h.fake.commands[None] if c["name"] == parts[0]]
    found: dict[str, Any] = top
    for depth, part in enumerate(parts[1:], start=2):
        kind = 1 if depth == len(parts) else 2  # a subcommand, or the subgroup that holds it
        [found] = [o for o in found["options"] if o["name"] == part and o["type"] == kind]
    return found


async def test_the_registered_slash_commands_match_the_command_table(clerk_bot: Harness) -> None:
    h = clerk_bot
    top_level = {name.split()[0] for name in COMMANDS}
    assert sorted(c["name"] for c in h.fake.commands[None] if c["type"] == 1) == sorted(top_level)
    for name, spec in COMMANDS.items():
        command = registered(h, name)
        assert command["description"] == spec.description
        got = {o["name"]: o for o in command.get("options", [])}
        assert list(got) == [o.name for o in sorted(spec.options, key=lambda o: not o.required)], name
        for option in spec.options:
            sent = got[option.name]
            assert sent["type"] == KINDS[option.kind], (name, option.name)
            assert sent.get("required", False) == option.required, (name, option.name)
            assert [c["value"] for c in sent.get("choices", [])] == list(option.choices), (name, option.name)
            assert sent.get("min_value") == option.min_value, (name, option.name)
            assert sent.get("max_value") == option.max_value, (name, option.name)


async def test_the_bot_asks_for_guilds_messages_dms_and_message_content_but_not_members(clerk_bot: Harness) -> None:
    guilds, guild_messages, dm_messages, message_content = 1 << 0, 1 << 9, 1 << 12, 1 << 15
    assert clerk_bot.fake._last_intents == guilds | guild_messages | dm_messages | message_content


async def test_an_unexpected_error_is_logged_with_context_and_answered_with_an_apology(
        clerk_bot: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    h = clerk_bot

    async def broken(*args: object) -> list[Outgoing]:
        raise RuntimeError("database on fire")

    monkeypatch.setattr(bot.discord.client, "dispatch", broken)
    answer = await h.run(h.mod, "round status", h.game)

    assert answer.first.ephemeral
    assert answer.first.content.startswith("Sorry, something went wrong on my side")
    assert "Traceback" not in answer.first.content and "fire" not in answer.first.content
    [logged] = h.errors.records
    assert logged.name == "clerk.discord" and logged.levelno == logging.ERROR
    assert "/round status by mod" in logged.getMessage()
    error_id = answer.first.content.split("error id **")[1][:8]
    assert f"[error {error_id}]" in logged.getMessage(), "the id the user sees is the one in the log"
    h.errors.records.clear()


async def test_a_slow_command_is_deferred_then_answered_by_followup(clerk_bot: Harness,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    h = clerk_bot
    await h.new_game()
    monkeypatch.setattr(bot.discord.client, "DEFER_AFTER", 0.0)

    answer = await h.run(h.alice, "me", None)

    assert answer.deferred
    assert answer.first.kind == "followup" and answer.first.ephemeral
    assert answer.first.embed["title"].startswith("alice in sirius")


async def test_dms_are_delivered_and_a_blocked_dm_does_not_stop_the_rest(clerk_bot: Harness,
                                                                         caplog: pytest.LogCaptureFixture) -> None:
    h = clerk_bot
    h.bob.accepts_dms = False

    await h.bot.courier.deliver([Outgoing(ToUser(h.bob.id), "hello bob"), Outgoing(ToUser(h.alice.id), "hello alice"),
                                 Outgoing(ToChannel(h.lobby.id), "hello lobby")])
    await h.idle()

    assert [m.content for m in h.fake.dms(h.alice)] == ["hello alice"]
    assert h.fake.dms(h.bob) == []
    assert [m.content for m in h.fake.messages(h.lobby)] == ["hello lobby"]
    assert any("could not send to ToUser" in r.getMessage() for r in caplog.records)


async def test_long_texts_are_cut_to_discords_limits(clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.run(h.mod, "game new", h.game, ruleset="landsdraad", name="sirius")

    opened = await h.run(h.mod, "round open", h.game, crisis="The levy. " * 400)  # 4000 characters, the limit

    assert "Round 1 is open" in opened.first.content
    announcement, forecast = h.fake.messages(h.game)  # the fake refuses anything over Discord's limits
    assert forecast.embed["title"] == "sirius: Victory Point Forecast"
    description = announcement.embed["description"]
    assert len(description) <= 4096 and description.startswith("The levy. The levy.")  # the limit fits an embed


def test_an_oversized_card_fits_in_one_embed() -> None:
    card = Card(title="T" * 300, description="d" * 5000, fields=tuple((f"f{i}", "v" * 2000, False) for i in range(30)),
                footer="x" * 3000)

    embed = embed_of(card).to_dict()

    assert len(embed["title"]) == 256 and embed["title"].endswith("…")
    assert len(embed["fields"]) <= 25
    assert all(len(f["value"]) <= 1024 for f in embed["fields"])
    total = len(embed["title"]) + len(embed.get("description", "")) + len(embed["footer"]["text"]) + sum(
        len(f["name"]) + len(f["value"]) for f in embed["fields"])
    assert total <= 6000


async def test_after_discord_asks_for_a_reconnect_the_bot_resumes_and_still_answers(clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.new_game()

    await h.fake.reconnect()
    answer = await h.fake.reply_to(await h.fake.dm(h.alice, "Vote: Aye"))

    assert "Ballot recorded" in answer.content
    assert (h.fake.identifies, h.fake.resumes) == (1, 1)


async def test_a_player_with_closed_dms_is_reported_to_the_moderators_once(clerk_bot: Harness) -> None:
    """Issue 7: a missing permission of the bot (it cannot DM a player) is reported to the moderators in the game
    channel instead of failing silently; once, not at every message."""
    h = clerk_bot
    h.bob.accepts_dms = False
    await h.new_game()  # round 1 opens: every player gets a ballot DM; bob's fails

    def warnings() -> list[str]:
        return [m.content for m in h.fake.messages(h.game) if "cannot send direct messages" in (m.content or "")]

    await h.fake.wait_for(warnings, "the warning about bob")
    assert warnings() == ["⚠️ Moderators: I cannot send direct messages to **bob** (their DMs are closed to me), so "
                          "they get no ballot buttons, receipts or reminders. Ask them to allow direct messages from "
                          "members of this server. I stop DMing them until they DM me or a moderator runs "
                          "`/player dms`."]
    await h.bot.courier.deliver([Outgoing(ToUser(h.bob.id), "another DM")])
    await h.idle()
    assert len(warnings()) == 1
    assert [m.content for m in h.fake.dms(h.alice)][:1]  # alice still got her ballot DM
