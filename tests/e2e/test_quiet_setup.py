"""Setting a game up is quiet (issue 16): during set-up each addition is answered to the moderator only and the game
channel has ONE summary message, edited as things are added (through the outbox; a deleted one is posted again);
``/game announce`` posts it again at the foot of the channel; after set-up an addition is public as before; a
temporary faction added to an open Landsdraad round edits the round's opening card instead of posting again."""

from __future__ import annotations

from .clerkbot import Harness

MAP = (
    ("territory add", {"name": "Avalon"}),
    ("territory add", {"name": "Bicardia"}),
    ("building add", {"territory": "Avalon", "kind": "port", "name": "Arcadia"}),
    ("building add", {"territory": "Avalon", "kind": "port", "name": "Bevelton"}),
    ("building add", {"territory": "Bicardia", "kind": "port", "name": "Dizzi"}),
    ("building add", {"territory": "Bicardia", "kind": "city", "count": 2}),
    ("candidate add", {"name": "Lee Adams", "faction": "Plutocrat", "charisma": 7}),
    ("candidate add", {"name": "Kit Marlow", "faction": "Prole", "charisma": 5}),
    ("government set", {"president": "Prole", "approval": 60}),
)
"""Nine additions of a Mylantium map; the last four each posted a public message before."""


async def mylantium_map(h: Harness) -> None:
    await h.run(h.mod, "game new", h.game, ruleset="mylantium", name="sirius")
    await h.run(h.mod, "faction register", h.game, faction="Plutocrat", user=h.alice, party="Whig", vp=20, treasury=30)
    await h.run(h.mod, "faction register", h.game, faction="Prole", user=h.bob, party="Federalist", vp=20, treasury=10)


async def test_a_mylantium_map_set_up_is_one_message_edited_to_show_all_nine(clerk_bot: Harness) -> None:
    h = clerk_bot
    await mylantium_map(h)
    before = len(h.fake.messages(h.game))  # the summary the registrations made (/game new is answered, not posted)
    answers = [await h.run(h.mod, name, h.game, **options) for name, options in MAP]
    assert all(a.first.ephemeral for a in answers), "every addition is answered to the moderator only"
    assert "Arcadia built in Avalon" in answers[2].first.content
    assert "Candidate Lee Adams added." in answers[6].first.content

    posts = h.fake.messages(h.game)
    assert len(posts) == before == 1, [p.text() for p in posts]
    summary = posts[-1]
    assert "being set up" in summary.embed["title"]
    assert summary.edits >= 1  # edits still unsent when a newer one came are superseded (coalesced)
    text = summary.text()
    for wanted in ("Avalon: 2 ports", "Arcadia, Bevelton", "Bicardia: 1 port, 2 cities", "Dizzi", "Lee Adams",
                   "Kit Marlow", "Approval Rating: 60%", "the Proles (Federalist)", "**Plutocrats** (alice, Whig)"):
        assert wanted in text, (wanted, text)
    assert "$30" not in text and "treasury" not in text, "treasuries are private (rules-spec §2.2.7)"
    assert not any("built. Faction Votes follow" in p.text() or "New candidate" in p.text() for p in posts)


async def test_a_deleted_summary_is_posted_again_and_announce_posts_it_at_the_foot(clerk_bot: Harness) -> None:
    h = clerk_bot
    await mylantium_map(h)
    await h.run(h.mod, "territory add", h.game, name="Avalon")
    summary = h.fake.messages(h.game)[-1]
    await h.fake.delete_message(summary)
    await h.settle()
    await h.run(h.mod, "territory add", h.game, name="Bicardia")
    again = h.fake.messages(h.game)[-1]
    assert again.id != summary.id and "Avalon" in again.text() and "Bicardia" in again.text()

    refused = await h.run(h.alice, "game announce", h.game)
    assert refused.first.ephemeral and len(h.fake.messages(h.game)) == 1

    announced = await h.run(h.mod, "game announce", h.game)
    assert announced.first.ephemeral and "posted" in announced.first.content
    posts = h.fake.messages(h.game)
    assert len(posts) == 2 and posts[-1].id != again.id and "Bicardia" in posts[-1].text()
    assert again.content.startswith("The set-up summary was posted again") and again.embeds == []
    await h.run(h.mod, "building add", h.game, territory="Bicardia", kind="temple")
    posts = h.fake.messages(h.game)
    assert len(posts) == 2 and "1 temple" in posts[-1].text(), "the new summary is the one edited"


async def test_after_set_up_an_addition_is_public(clerk_bot: Harness) -> None:
    h = clerk_bot
    await mylantium_map(h)
    await h.run(h.mod, "territory add", h.game, name="Avalon")
    await h.run(h.mod, "election start", h.game)
    summary = next(p for p in h.fake.messages(h.game) if p.embeds and "being set up" in p.embed["title"])
    edits = summary.edits
    count = len(h.fake.messages(h.game))
    answer = await h.run(h.mod, "building add", h.game, territory="Avalon", kind="port", name="Arcadia")
    assert answer.first.ephemeral
    posts = h.fake.messages(h.game)
    assert len(posts) == count + 1 and posts[-1].content == "Avalon: Arcadia built. Faction Votes follow (see /status)."
    assert summary.edits == edits, "the set-up summary is left as it was"
    refused = await h.run(h.mod, "game announce", h.game)
    assert "not being set up any more" in refused.first.content and len(h.fake.messages(h.game)) == count + 1


async def test_landsdraad_set_up_is_quiet_and_a_temporary_faction_edits_the_opening_card(clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.run(h.mod, "game new", h.game, ruleset="landsdraad", name="sirius")
    await h.run(h.mod, "player add", h.game, user=h.alice, diplomacy=4, command=2, intrigue=2, roll=3,
                faction="House Vernius")
    await h.run(h.mod, "player add", h.game, user=h.bob, diplomacy=2, command=3, intrigue=1, roll=1)
    held = await h.run(h.mod, "holding add", h.game, player=h.alice, kind="elector", name="Count Jasek",
                       tier="average", votes=5)
    assert held.first.ephemeral
    posts = h.fake.messages(h.game)
    assert len(posts) == 1  # the summary (/game new is answered, not posted)
    summary = posts[-1].text()
    assert "alice (House Vernius)" in summary and "bob" in summary and "1 Elector" in summary
    assert "Count Jasek" not in summary and "votes" not in summary.lower().replace("how to vote", ""), \
        "a player's votes are private (P0-14)"

    await h.run(h.mod, "round open", h.game, crisis="Raise the fleet levy?")
    card = next(p for p in h.fake.messages(h.game) if p.embeds and "round 1 is open" in p.embed["title"])
    count = len(h.fake.messages(h.game))
    in_play = int(card.fields()["Votes in play"])
    added = await h.run(h.mod, "faction add", h.game, name="Hawks", votes=20, stance="aye")
    assert added.first.ephemeral and "opening card" in added.first.content
    await h.run(h.mod, "faction add", h.game, name="Doves", votes=12, stance="nay")
    assert len(h.fake.messages(h.game)) == count, "no new post: the opening card is edited"
    assert card.edits >= 1
    fields = card.fields()
    assert "**Hawks**: 20 votes, Aye" in fields["Temporary factions"]
    assert "**Doves**: 12 votes, Nay" in fields["Temporary factions"]
    assert fields["Votes in play"] == str(in_play + 20 + 12)

    after = await h.run(h.mod, "player add", h.game, user=h.carol, diplomacy=1, command=1, intrigue=1, roll=1)
    assert after.first.ephemeral and len(h.fake.messages(h.game)) == count + 1, "after set-up: announced"
    joined = h.fake.messages(h.game)[-1].text()  # play-test W5: the players are told, without the votes (P0-14)
    assert joined.startswith("**carol** has joined **sirius** (added by") and "votes" not in joined
