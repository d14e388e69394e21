"""Times in each reader's own zone (engine/core/stamps.py): a renderer's marker is Discord's timestamp markup on
Discord (where Discord renders it) and UTC text everywhere else."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.actions.outbox import Card, Outgoing, ToChannel
from bot.actions.render import deadline_text
from bot.discord.delivery import embed_of, message_parts
from bot.discord.limits import clip
from engine.core.stamps import discord_text, relative, stamp, utc_text

NOW = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)
DUE = datetime(2026, 3, 1, 20, 30, tzinfo=UTC)  # 1772397000


def test_a_deadline_is_utc_text_off_discord_and_timestamp_markup_on_it() -> None:
    text = f"Deadline: {deadline_text(DUE, NOW)}."
    assert utc_text(text) == "Deadline: 2026-03-01 20:30 UTC (in 2h30m)."
    assert discord_text(text) == "Deadline: <t:1772397000:F> (<t:1772397000:R>)."
    assert "2026-03-01 20:30 UTC" in text  # a test reading the raw text still finds the UTC time
    assert utc_text(stamp(DUE, "f")) == "2026-03-01 20:30 UTC" and discord_text(stamp(DUE, "f")) == "<t:1772397000:f>"
    assert utc_text(relative(NOW + timedelta(seconds=20), NOW)) == "in under a minute"
    assert utc_text("no times here") == discord_text("no times here") == "no times here"


def test_a_marker_is_never_shorter_than_what_it_becomes() -> None:
    for due in (NOW + timedelta(seconds=1), DUE, NOW + timedelta(days=3000)):
        for marker in (stamp(due), relative(due, NOW)):
            assert len(marker) >= max(len(utc_text(marker)), len(discord_text(marker)))
    with pytest.raises(ValueError):
        stamp(DUE, "x")


def test_an_embed_has_markup_where_discord_renders_it_and_utc_where_it_does_not() -> None:
    card = Card(title=f"Closes {stamp(DUE)}", description=f"Closes {stamp(DUE)}",
                fields=((f"Due {stamp(DUE)}", deadline_text(DUE, NOW), True),), footer=f"Due {stamp(DUE)}")
    embed = embed_of(card)
    assert embed.title == "Closes 2026-03-01 20:30 UTC"
    assert embed.description == "Closes <t:1772397000:F>"
    assert (embed.fields[0].name, embed.fields[0].value) == ("Due 2026-03-01 20:30 UTC",
                                                             "<t:1772397000:F> (<t:1772397000:R>)")
    assert embed.footer.text == "Due 2026-03-01 20:30 UTC"  # Discord shows a footer as typed
    assert card.as_text() == ("**Closes 2026-03-01 20:30 UTC**\nCloses 2026-03-01 20:30 UTC\n"
                              "Due 2026-03-01 20:30 UTC: 2026-03-01 20:30 UTC (in 2h30m)\nDue 2026-03-01 20:30 UTC")
    parts = message_parts(Outgoing(ToChannel(1), text=f"Round 1 closes at {deadline_text(DUE, NOW)}."))
    assert parts["content"] == "Round 1 closes at <t:1772397000:F> (<t:1772397000:R>)."


def test_a_long_text_is_never_cut_inside_a_timestamp() -> None:
    text = "x" * 1990 + discord_text(stamp(DUE))
    assert clip(text, 2000) == "x" * 1990 + "…"
    assert clip("x" * 1980 + discord_text(stamp(DUE)) + "y" * 10, 2000).endswith("<t:1772397000:F>yyy…")


def test_a_utc_times_marker_is_kept_and_is_the_one_made_afresh() -> None:
    """``stamp`` keeps the marker of a UTC time (a round's deadline in every receipt of a burst, issue 20): the kept
    one is exactly the one made afresh, for every style and text, and a later call is served from the cache."""
    from engine.core.stamps import _kept_marker, _marker

    when = datetime(2026, 3, 1, 20, 0, 30, 999999, tzinfo=UTC)
    for style in "tTdDfFR":
        for text in (None, "in 2h30m", "a \ue000 marked \ue002 text"):
            assert stamp(when, style, text) == _marker(when, style, text)
    hits = _kept_marker.cache_info().hits
    assert stamp(when) == stamp(datetime(2026, 3, 1, 20, 0, 30, 999999, tzinfo=UTC))
    assert _kept_marker.cache_info().hits >= hits + 2


def test_times_of_a_zone_with_changing_clocks_are_never_taken_for_each_other() -> None:
    """Two times of one zone on the night its clocks go back compare equal (same wall time, ``fold`` ignored) and are
    an hour apart: each gets its own marker (only UTC times are kept)."""
    from zoneinfo import ZoneInfo

    berlin = ZoneInfo("Europe/Berlin")
    first = datetime(2026, 10, 25, 2, 30, tzinfo=berlin)
    second = first.replace(fold=1)
    assert first == second and first.timestamp() != second.timestamp()
    assert stamp(first) != stamp(second)
    assert stamp(second) == stamp(second.astimezone(UTC))
