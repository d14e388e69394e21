"""The test ruleset "council" (tests/council) through the real discord.py client and the fake Discord: played as a
ruleset that is not shipped (config.toml's ``rulesets``, here ``Harness.plugins``). Ballots by DM and by button, a
changed mind, a refused ballot, the one reminder, the close at the deadline, the result, ``/help`` and
``/game export`` (test_council_crash.py: a kill between a close and its result's post)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from fakediscord import Channel, FakeDiscord, Sent, User

from bot.plugins import Plugins, load_plugins

from .clerkbot import Harness


@pytest.fixture
def plugins() -> Plugins:
    return load_plugins(["council"])


def reminders(h: Harness, user: User) -> list[str]:
    return [m.content for m in h.fake.dms(user) if m.content.startswith("Reminder:")]


def results(fake: FakeDiscord, channel: Channel) -> list[Sent]:
    """The result cards of vote 1 posted in ``channel``."""
    titles = [(s, s.embeds[0].get("title", "") if s.embeds else "") for s in fake.messages(channel)]
    return [s for s, title in titles if title.endswith(("council vote 1 carried", "council vote 1 failed"))]


async def offer_to(h: Harness, user: User) -> Sent:
    return (await h.fake.wait_for(lambda: [m for m in h.fake.dms(user) if m.buttons()],
                                  f"the council DM to {user.name}"))[-1]


async def seated_council(h: Harness, deadline: str) -> None:
    await h.run(h.mod, "game new", h.game, ruleset="council", name="sirius")
    for user, weight in ((h.alice, 3), (h.bob, 2), (h.carol, 4)):
        await h.run(h.mod, "council seat", h.game, user=user, weight=weight)
    await h.run(h.mod, "council open", h.game, question="Build the bridge?", deadline=deadline)


async def test_a_council_vote_by_dm_and_button_with_a_reminder_and_its_result(clerk_bot: Harness) -> None:
    h = clerk_bot
    await seated_council(h, "24h")
    offer = await offer_to(h, h.bob)
    assert "Council vote 1 of sirius is open: Build the bridge?" in offer.content
    assert "Your ballot carries your weight 2." in offer.content
    assert [b["label"] for b in offer.buttons()] == ["Yes", "No"]

    alice = await h.fake.reply_to(await h.fake.dm(h.alice, "Council: yes"))
    assert alice.content.startswith("Recorded: yes on vote 1 of sirius, with your weight 3.")
    no = await h.press(h.bob, offer, "No")
    assert no.first.ephemeral and "Recorded: no on vote 1 of sirius" in no.first.content
    yes = await h.press(h.bob, offer, "Yes")  # a changed mind replaces the earlier ballot
    assert "Recorded: yes" in yes.first.content and "replaces your earlier one" in yes.first.content
    again = await h.press(h.bob, offer, "No", interaction_id=yes.id)  # the same press delivered twice
    assert "already done" in again.first.content
    maybe = await h.fake.reply_to(await h.fake.dm(h.carol, "Council: maybe"))
    assert "“maybe” is neither yes nor no" in maybe.content and "Nothing was recorded." in maybe.content

    h.clock.advance(timedelta(hours=22, minutes=59))
    await h.tick()
    assert reminders(h, h.carol) == []
    h.clock.advance(timedelta(minutes=1))  # an hour before the deadline: carol alone has not voted
    await h.tick()
    await h.fake.wait_for(lambda: reminders(h, h.carol), "the reminder DM")
    await h.tick()
    await h.settle()
    assert len(reminders(h, h.carol)) == 1
    assert reminders(h, h.alice) == reminders(h, h.bob) == []

    h.clock.advance(timedelta(hours=1))
    await h.tick()
    [card] = await h.fake.wait_for(lambda: results(h.fake, h.game), "the result card")
    assert card.embed["title"] == "sirius: council vote 1 carried"
    assert [(f["name"], f["value"]) for f in card.embed["fields"]] == [
        ("Yes", "5 weight"), ("No", "0 weight"), ("Did not vote", "carol")]
    late = await h.fake.reply_to(await h.fake.dm(h.carol, "Council: no"))
    assert "sirius has no open council vote." in late.content

    help_text = (await h.run(h.alice, "help", h.game)).first.text()
    assert "Clerk in #sirius (Council)" in help_text and "`Council: yes`" in help_text
    assert "`/council` seat · open · close" in help_text
    [(name, data)] = (await h.run(h.mod, "game export", h.game)).first.files
    council = json.loads(data)["council"]
    assert name == "sirius.json"
    assert [m["weight"] for m in council["members"]] == [3, 2, 4]
    assert council["votes"][0]["ballots"] == {"alice": "yes", "bob": "yes"}
    assert council["votes"][0]["result"] == {"yes": 5, "no": 0, "carried": True}


async def test_a_landsdraad_command_is_refused_in_a_council_game(clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.run(h.mod, "game new", h.game, ruleset="council", name="sirius")
    refused = await h.run(h.mod, "round open", h.game, crisis="Raise the fleet levy?")
    assert "/round open is not used in Council games like sirius" in refused.first.content
