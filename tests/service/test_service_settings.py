"""shared/RULINGS.md: rulings a group may play differently are per-game settings with the ruling as default,
shown by a command and recorded in the event log when changed."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from ledger_front import MODERATOR, actor, slash

from engine.core.errors import ParseError
from engine.core.stamps import utc_text
from engine.landsdraad.majority import Subject
from engine.landsdraad.motions import Motion

MOD = 1


async def test_defaults_are_the_rulings(table: Any) -> None:
    rows = {name: (value, default) for name, value, default, _ in await table.clerk.settings.settings(table.game_id)}
    assert rows["ag_weighted"] == (False, True)
    assert rows["end_game_penalty"] == (20, True)
    assert rows["audit_share_rounding"] == ("up", True)


async def test_a_change_is_recorded_and_validated(table: Any) -> None:
    assert await table.clerk.settings.change_setting(table.game_id, name="end-game penalty", value="30", actor=MOD) == (
        "end_game_penalty", 20, 30)
    (event,) = [e for e in await table.events() if e.kind == "SettingChanged"]
    # the ruling's code stays in the event log
    assert event.payload == {"setting": "end_game_penalty", "ruling": "R0-61", "from": 20, "to": 30}
    with pytest.raises(ParseError, match="from 0 to 100"):
        await table.clerk.settings.change_setting(table.game_id, name="end_game_penalty", value="120", actor=MOD)
    with pytest.raises(ParseError, match="a setting: ag_weighted"):
        await table.clerk.settings.change_setting(table.game_id, name="colour", value="red", actor=MOD)
    doc = await table.clerk.exports.export(table.game_id, include_events=False)
    assert doc["game"]["settings"] == {"end_game_penalty": 30}


async def test_end_game_uses_the_setting(table: Any) -> None:
    for user, name in ((21, "ann"), (22, "bo"), (23, "cy")):
        await table.player(user, name, 2, 2, 1)
    await table.open(deadline=timedelta(hours=2))
    await table.clerk.settings.change_setting(table.game_id, name="end_game_penalty", value="35", actor=MOD)
    for user in (21, 22):
        receipt = await table.clerk.landsdraad.majority.support(table.game_id, user_id=user,
                                                                motion=Motion(Subject.END_GAME), thread_id=None,
                                                                at=table.clock.now(), source_id=table.source())
    enacted = await table.clerk.landsdraad.majority.enact(table.game_id, vote_id=receipt.vote.id, actor=MOD)
    assert enacted.extra == {"penalty": 35}


async def test_weighted_ag_election(table: Any) -> None:
    """P0-06's alternative: the AG election weighted by V(p)."""
    await table.player(21, "ann", 5, 2, 1)   # 2*5+1+1 = 12 votes
    await table.player(22, "bo", 1, 1, 1)    # 4 votes
    await table.player(23, "cy", 1, 1, 1)    # 4 votes
    await table.clerk.settings.change_setting(table.game_id, name="ag_weighted", value="yes", actor=MOD)
    await table.clerk.landsdraad.adjutant.open_election(table.game_id, deadline=None, actor=MOD)
    for voter, candidate in ((21, "ann"), (22, "bo"), (23, "bo")):
        await table.clerk.landsdraad.adjutant.cast_ag_vote(table.game_id, user_id=voter, candidate=candidate,
                                                           at=table.clock.now(), source_id=table.source())
    closed = await table.clerk.landsdraad.adjutant.close_election(table.game_id, actor=MOD)
    assert closed is not None and closed.weighted
    assert [(s.candidate, s.votes) for s in closed.standings] == [("ann", 12), ("bo", 8)]
    assert closed.winner == "ann"


async def test_each_ruleset_keeps_its_own_settings(clerk: Any) -> None:
    """A Convocate game's settings are its rulings (also listed by /convocate rulings), not the Landsdraad table.
    (Until issue 15 they were only under /convocate rulings and /game settings refused: this test said so.)"""
    from engine.core.errors import ParseError

    game = await clerk.games.create_game(guild_id=1, channel_id=77, name="senate", ruleset="convocate",
                                         moderator_role_id=None, actor=MOD)
    rows = {name: (value, default) for name, value, default, _ in await clerk.settings.settings(game.id)}
    assert rows["seat_range_plus"] == ("0..4", True) and rows["second_timeout"] == ("24h", True)
    assert "end_game_penalty" not in rows
    with pytest.raises(ParseError, match="seat_range_plus"):
        await clerk.settings.change_setting(game.id, name="end_game_penalty", value="5", actor=MOD)



async def test_the_games_time_zone_is_set_shown_refused_when_unknown_and_used_for_local_deadlines(table: Any) -> None:
    """issue 17: ``/game settings timezone:Europe/Berlin``; a deadline typed as a local time without a zone is then
    Berlin time, and the moderator is told how it was read (UTC while the game has no time zone)."""
    c = table.clerk
    [shown] = await slash(c, MODERATOR, "game settings")
    assert "**timezone** = none (default: UTC)" in shown.text
    [bad] = await slash(c, MODERATOR, "game settings", timezone="Europe/Berln")
    assert "“Europe/Berln”: that is not a time zone I know" in bad.text and "Did you mean “Europe/Berlin”?" in bad.text
    assert "`America/New_York`" in bad.text
    refused = await slash(c, actor(21, "ann"), "game settings", timezone="Europe/Berlin")
    assert "Only the moderators" in refused[0].text
    assert await c.settings.timezone(table.game_id) is None

    opened, *_ = await slash(c, MODERATOR, "round open", crisis="Tariffs", deadline="2026-03-01 22:00")
    assert "“2026-03-01 22:00”: read as UTC (the game has no time zone" in opened.text
    [*_, first] = await c.landsdraad.rounds.pending_deadlines()
    assert first[2] == datetime(2026, 3, 1, 22, 0, tzinfo=UTC)

    [ok] = await slash(c, MODERATOR, "game settings", timezone="europe/berlin")
    assert ok.ephemeral
    assert "is now read as Europe/Berlin time (it is 2026-03-01 19:00 there now); before: UTC" in ok.text
    assert await c.settings.timezone(table.game_id) == "Europe/Berlin"
    [shown] = await slash(c, MODERATOR, "game settings")
    assert "**timezone** = Europe/Berlin" in shown.text
    out = await slash(c, MODERATOR, "round extend", to="2026-03-02 09:00")
    assert utc_text(out[0].text).startswith("Done: extended round 1. Round 1 of sirius now closes at 2026-03-02 "
                                            "08:00 UTC (in 14h).")
    assert utc_text(out[0].text).endswith("“2026-03-02 09:00”: read as Europe/Berlin time (the game's time zone): "
                                "2026-03-02 08:00 UTC.")
    out = await slash(c, MODERATOR, "round extend", to="<t:1772442000:F>")  # 2026-03-02 09:00 UTC, from a picker
    assert utc_text(out[0].text) == ("Done: extended round 1. Round 1 of sirius now closes at 2026-03-02 09:00 UTC "
                                     "(in 15h).")
    [back] = await slash(c, MODERATOR, "game settings", setting="timezone", value="none")
    assert "is now read as UTC time; before: Europe/Berlin" in back.text
    changes = [e.payload for e in await table.events() if e.kind == "SettingChanged"]
    assert changes == [{"setting": "timezone", "from": None, "to": "Europe/Berlin"},
                       {"setting": "timezone", "from": "Europe/Berlin", "to": None}]
