"""A file larger than Discord takes (bot/discord/attachments.py): each interaction says how large an attachment may
be, and Discord refuses a larger one (413 40005). A game's export over that limit comes compressed, and when even
that is too large, or Discord refuses it after all, the answer comes without it and says so. An answer Discord
refuses is never followed by a bare "Done."."""

from __future__ import annotations

import gzip
import json
import threading
from collections.abc import Callable
from typing import Any

import pytest

from bot.actions import admin
from bot.discord.attachments import size_text

from .clerkbot import Harness


async def test_an_export_over_the_limit_comes_compressed_with_a_note_saying_so(clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.new_game()
    plain = (await h.run(h.mod, "game export", h.game)).first
    [(name, data)] = plain.files
    assert name == "sirius.json"
    packed_size = len(gzip.compress(data, compresslevel=6, mtime=0))
    h.fake.attachment_limit = (packed_size + len(data)) // 2

    answer = (await h.run(h.mod, "game export", h.game)).first
    [(name, packed)] = answer.files
    assert name == "sirius.json.gz" and len(packed) == packed_size
    assert json.loads(gzip.decompress(packed)) == json.loads(data)  # the same export, the clock not moved
    assert answer.ephemeral
    assert (f"sirius.json is {size_text(len(data))}, more than the {size_text(h.fake.attachment_limit)} Discord lets "
            f"me attach here, so it comes compressed as sirius.json.gz ({size_text(packed_size)}; any unzip program "
            "opens it).") in answer.content
    assert answer.content.startswith("Export of sirius (round 1).")


async def test_an_export_too_large_even_compressed_is_left_out_and_the_answer_says_so(clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.new_game()
    h.fake.attachment_limit = 200
    answer = (await h.run(h.mod, "game export", h.game)).first
    assert answer.files == []
    assert answer.content.startswith("Export of sirius (round 1).\nsirius.json is left out: it is ")
    assert "compressed), more than the 200 bytes Discord lets me attach here." in answer.content


async def test_a_file_discord_refuses_as_too_large_is_left_out_and_the_answer_still_goes(clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.new_game()
    h.fake.attachments_refused_over = 200  # Discord said 10 MB, and takes 200 bytes
    interaction = await h.run(h.mod, "game export", h.game)
    assert [r.content for r in interaction.responses] == [
        "Export of sirius (round 1).\nsirius.json is left out: Discord refused it as too large."]
    assert interaction.first.files == [] and interaction.first.ephemeral

    h.fake.attachment_limit = 5000  # the export is over it: compressed first (about 2 KB), and that refused too
    again = await h.run(h.mod, "game export", h.game)
    assert [r.content for r in again.responses] == [
        "Export of sirius (round 1).\nsirius.json is left out: Discord refused it as too large."]


async def test_an_answer_discord_refuses_is_not_followed_by_a_bare_done(clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.new_game()
    h.fake.answer_refusals.append((400, 50035, "Invalid Form Body"))
    interaction = await h.run(h.mod, "round status", h.game)
    assert [r.content for r in interaction.responses] == [
        "I could not send my answer: Discord refused it (400 Invalid Form Body)."]
    assert interaction.first.ephemeral


async def test_the_export_is_written_off_the_event_loop(clerk_bot: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """A long game's export is megabytes of JSON or CSV: written in a worker thread, not on the loop that answers
    every other vote and interaction meanwhile."""
    h = clerk_bot
    await h.new_game()
    threads: list[str] = []

    def watched(write: Callable[..., bytes]) -> Callable[..., bytes]:
        def writing(*args: Any) -> bytes:
            threads.append(threading.current_thread().name)
            return write(*args)
        return writing

    monkeypatch.setattr(admin, "export_json", watched(admin.export_json))
    monkeypatch.setattr(admin, "events_csv", watched(admin.events_csv))
    assert [name for name, _ in (await h.run(h.mod, "game export", h.game)).first.files] == ["sirius.json"]
    csv = await h.run(h.mod, "game export", h.game, format="csv")
    assert [name for r in csv.responses for name, _ in r.files] == ["sirius-events.csv", "sirius-players.csv"]
    assert len(threads) == 2 and threading.main_thread().name not in threads


async def test_a_post_whose_file_discord_refuses_as_too_large_still_goes_without_it(clerk_bot: Harness) -> None:
    """A message of the outgoing queue (the round's Forecast, with its chart) that Discord refuses as too large
    (413 40005: a server's or a DM's limit) is posted again without the file, saying so: the text is not lost."""
    h = clerk_bot
    h.fake.attachments_refused_over = 200  # a chart is tens of KB
    await h.new_game()
    await h.idle()
    [forecast] = [m for m in h.fake.messages(h.game) if m.embeds and "Forecast" in m.embeds[0].get("title", "")]
    assert forecast.files == []
    assert forecast.content == "forecast.png is left out: Discord refused it as too large."
    assert "Current Victory Pot" in forecast.embeds[0]["description"]
