"""/log says each event in words, people by name (issue 17): the generic sentence, a ruleset's own sentences
plugged through its front, and the actor named (the asker by name, another non-player as a Discord mention)."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.actions.admin import log_lines
from bot.actions.context import Actor, Ctx, Place
from bot.actions.landsdraad import FRONT as LANDSDRAAD
from bot.actions.log_text import sentence
from bot.actions.mylantium import FRONT as MYLANTIUM
from engine.service.games import LogEntry, LogPage

ANNA, MOD, OTHER = 100214324219020068, 100256473084450890, 100256473084450999
NAMES = {ANNA: "anna"}
AT = datetime(2026, 3, 1, 18, tzinfo=UTC)


def test_the_generic_sentence_reads_as_words() -> None:
    text = sentence("SomethingSet", {"user_id": ANNA, "name": "anna", "changes": {
        "income": {"from": 0, "to": 6000}, "stock": {"from": 0, "to": 4}}, "at": "2026-03-02T18:00:00+00:00",
        "by": OTHER, "flag": False, "note": None}, NAMES)
    assert text == f"anna: income 0 → 6,000, stock 0 → 4, at 2026-03-02 18:00 UTC, by <@{OTHER}>"
    assert "{" not in text and "user" not in text


def test_a_ruleset_plugs_its_own_sentences() -> None:
    economy = {"user_id": ANNA, "name": "anna", "changes": {"income": {"from": 0, "to": 6000},
                                                           "heroes": {"from": 0, "to": 1}}}
    assert sentence("EconomySet", economy, NAMES, LANDSDRAAD.log_sentences) == \
        "anna: income 0 → 6,000 MS, heroes 0 → 1"
    assert sentence("EconomySet", economy, NAMES) == "anna: income 0 → 6,000, heroes 0 → 1"  # shared: no MS
    choice = {"turn": 1, "stage": "primary", "faction": "PL", "choice": "Lee Adams", "replaced": None}
    assert sentence("ChoiceMade", choice, {}, MYLANTIUM.log_sentences) == \
        "PL chose Lee Adams in the primary of turn 1"


def test_log_lines_name_the_actor() -> None:
    page = LogPage((LogEntry(3, AT, "BallotCast", ANNA, "anna", {"round": 1, "user_id": ANNA, "option": "aye"}),
                    LogEntry(2, AT, "RoundOpened", OTHER, None, {"round": 1, "crisis": "Piracy",
                                                                 "deadline": "2026-03-02T18:00:00+00:00"}),
                    LogEntry(1, AT, "GameCreated", MOD, None, {"name": "sirius", "ruleset": "landsdraad"})),
                   1, 1, 3, NAMES)
    asker = Ctx(Actor(MOD, "mod", frozenset(), True), Place(1, 2, None), None, AT)
    assert log_lines(page, LANDSDRAAD.log_sentences, asker) == [
        "`#3` 2026-03-01 18:00 **anna** BallotCast: anna voted aye in round 1",
        f"`#2` 2026-03-01 18:00 **<@{OTHER}>** RoundOpened: round 1 opened: Piracy, deadline 2026-03-02 18:00 UTC",
        "`#1` 2026-03-01 18:00 **mod** GameCreated: Landsdraad game sirius created"]


def test_a_setting_changed_from_nothing_reads_unset() -> None:
    """``setting timezone unset → Europe/Berlin``, not ``None → Europe/Berlin``."""
    text = sentence("SettingChanged", {"setting": "timezone", "from": None, "to": "Europe/Berlin"}, NAMES)
    assert text == "setting timezone unset → Europe/Berlin"


def test_a_moderator_role_is_a_role_mention_and_a_paused_clock_a_duration() -> None:
    """/log: a role change names roles as Discord shows a role (``<@&id>``, not a user mention of a role's id), or
    members with Manage Server; a paused round's time left reads as a duration, not a count (play-test T4.3, T4.4)."""
    assert sentence("ModeratorRoleChanged", {"from": None, "to": 100260745262270831}, {}) == (
        "moderators: members with Manage Server → <@&100260745262270831>")
    assert sentence("GameMoved", {"from": 100, "to": 200, "deleted": True}, {}) == (
        "game channel: <#100> (deleted) → <#200>")
    assert sentence("RoundResumed", {"round": 1, "left": 100800, "deadline": "2026-03-28T22:00:00+00:00"}, {}) == (
        "round 1, left 28h, deadline 2026-03-28 22:00 UTC")
    assert sentence("RoundExtended", {"round": 1, "paused_left_from": 93600, "paused_left_to": 100800}, {}) == (
        "round 1, paused left from 26h, paused left to 28h")


def test_the_moderators_channel_is_a_channel_mention() -> None:
    """/log: a change of ``moderator_channel`` names channels as Discord shows a channel (``<#id>``), not a user
    mention of the channel's id, and no channel as the private thread it falls back to."""
    assert sentence("SettingChanged", {"setting": "moderator_channel", "from": None, "to": 100260745262270831},
                    {}) == "setting moderator_channel the moderators' private thread → <#100260745262270831>"
    assert sentence("SettingChanged", {"setting": "moderator_channel", "from": 100260745262270831, "to": None},
                    {}) == "setting moderator_channel <#100260745262270831> → the moderators' private thread"
