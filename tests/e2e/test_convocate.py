"""The Convocate through the real discord.py client: a Motion posted in the game channel, the offer to second
sent by DM to the player asked, declined and then accepted by DM replies, and the resolution announced; an offer
that nobody answers passes on at its deadline, by the scheduler."""

from __future__ import annotations

from datetime import timedelta

from fakediscord import Sent, User

from .clerkbot import Harness


async def senate(h: Harness) -> None:
    """#sirius plays the Convocate: alice (Union) and carol (Republic) each with a Convocant on their Homeworld, bob
    (Kingdom) locked out at GOVT +1; alice's Action Phase."""
    await h.run(h.mod, "game new", h.game, ruleset="convocate", name="sirius")
    for who, sov, home in ((h.alice, "Union", "Union Prime"), (h.bob, "Kingdom", "Korhal"),
                           (h.carol, "Republic", "Tribune")):
        await h.run(h.mod, "convocate player", h.game, user=who, sovereignty=sov)
        await h.run(who, "card add", h.game, kind="homeworld", name=home)
    await h.run(h.alice, "card add", h.game, kind="character", name="Kista", at="Union Prime", morality="Loyal")
    await h.run(h.alice, "card add", h.game, kind="character", name="Dorn", at="Union Prime")
    await h.run(h.bob, "card add", h.game, kind="character", name="Mirel", at="Korhal", pallarch=True)
    await h.run(h.carol, "card add", h.game, kind="character", name="Quill", at="Tribune", morality="Ruthless")
    await h.run(h.mod, "factor set", h.game, name="GOVT", value=1)
    await h.run(h.mod, "phase next", h.game)
    await h.run(h.alice, "phase next", h.game)


async def dm_reply(h: Harness, user: User, text: str) -> str:
    mid = await h.fake.dm(user, text)
    reply = await h.fake.reply_to(mid)
    await h.settle()
    return reply.content


async def test_a_motion_seconded_by_dm_reply(clerk_bot: Harness) -> None:
    h = clerk_bot
    await senate(h)
    before = len(h.fake.messages(h.game))
    mid = await h.fake.say(h.alice, h.game, "Motion: Land Reform by Kista\nMoved: Draw a card.\nMorality: Loyal")
    ack = await h.fake.reply_to(mid)
    await h.idle()
    assert ack.content == "Motion #1 (Land Reform) is moved and announced."
    offer = (await h.fake.wait_for(lambda: h.fake.dms(h.alice), "the offer to alice"))[-1].content
    moved = h.fake.messages(h.game)[before:]
    assert [m.embed["title"] for m in moved if m.embeds] == ["sirius: Motion #1, Land Reform"]
    assert "Will you second it?" in offer and "Your Convocants with access: Dorn." in offer
    assert not h.fake.dms(h.bob) and not h.fake.dms(h.carol)

    assert "You decline to second Motion #1" in await dm_reply(h, h.alice, "Second: no")
    assert "Will you second it?" in h.fake.dms(h.carol)[-1].content
    assert not any("Will you second" in m.content for m in h.fake.dms(h.bob))  # locked out: never asked
    assert "You second Motion #1 (Land Reform) with Quill." in await dm_reply(h, h.carol, "Second: yes")
    resolved = h.fake.messages(h.game)[-1]
    assert resolved.embed["title"] == "sirius: Motion #1, Land Reform, resolves"
    assert resolved.fields()["Penalties (after it resolves)"].startswith("Quill (carol, Ruthless): pays its Penalty")


async def test_an_unanswered_offer_passes_on_at_its_deadline(clerk_bot: Harness) -> None:
    h = clerk_bot
    await senate(h)
    await h.run(h.mod, "convocate rulings", h.game, ruling="second_timeout", value="2h")
    await h.run(h.alice, "motion move", h.game, name="Land Reform", convocant="Kista")
    assert "Will you second it?" in h.fake.dms(h.alice)[-1].content
    h.clock.advance(timedelta(hours=2))
    await h.tick()
    await h.fake.wait_for(lambda: any("Will you second" in m.content for m in h.fake.dms(h.carol)), "carol's offer")
    assert "alice did not answer in time" in h.fake.messages(h.game)[-1].content


async def offer_to(h: Harness, user: User) -> Sent:
    return (await h.fake.wait_for(lambda: [m for m in h.fake.dms(user) if "Will you second" in m.content],
                                  f"the offer to {user.name}"))[-1]


async def test_a_motion_seconded_with_a_button(clerk_bot: Harness) -> None:
    """Issue 6: the offer to second answered with buttons through the fake Discord: alice declines with a button,
    carol seconds with hers; a second press and a press of a settled offer count nothing; the wrong player is
    refused."""
    h = clerk_bot
    await senate(h)
    await h.fake.say(h.alice, h.game, "Motion: Land Reform by Kista\nMoved: Draw a card.\nMorality: Loyal")
    await h.idle()
    offer = await offer_to(h, h.alice)
    assert [b["label"] for b in offer.buttons()] == ["Second with Dorn", "Decline"]
    assert all(b["custom_id"].startswith("clerk:second:") and len(b["custom_id"]) <= 100 for b in offer.buttons())

    wrong = await h.press(h.carol, offer, "Second with Dorn")  # carol cannot answer alice's offer
    assert wrong.first.ephemeral and "not with you" in wrong.first.content
    assert "Nothing was recorded" in wrong.first.content

    declined = await h.press(h.alice, offer, "Decline")
    assert declined.first.ephemeral and "You decline to second Motion #1" in declined.first.content
    assert all(b.get("disabled") for b in offer.buttons())  # the answered offer's buttons are shown disabled
    assert "The offer to second is now with **carol**" in h.fake.messages(h.game)[-1].content

    carols = await offer_to(h, h.carol)
    assert [b["label"] for b in carols.buttons()] == ["Second with Quill", "Decline"]
    pressed = await h.press(h.carol, carols, "Second with Quill")
    assert pressed.first.ephemeral
    assert pressed.first.content == "You second Motion #1 (Land Reform) with Quill."
    resolved = h.fake.messages(h.game)[-1]
    assert resolved.embed["title"] == "sirius: Motion #1, Land Reform, resolves"
    posted = len(h.fake.messages(h.game))

    assert all(b.get("disabled") for b in carols.buttons())
    enable(carols)  # as the message read when the press was made, or in a client that missed the update
    again = await h.press(h.carol, carols, "Second with Quill", interaction_id=pressed.id)  # redelivered
    assert again.first.ephemeral and "recorded once" in again.first.content
    enable(carols)
    late = await h.press(h.carol, carols, "Decline")
    assert "already answered" in late.first.content and "Nothing was recorded" in late.first.content
    assert len(h.fake.messages(h.game)) == posted  # nothing more announced
    status = await h.run(h.mod, "motion status", h.game, number=1)
    assert "Seconded by carol with Quill." in status.first.text()


def enable(message: Sent) -> None:
    message.components = [{**row, "components": [{**b, "disabled": False} for b in row["components"]]}
                          for row in message.components]


async def test_buttons_sent_before_a_restart_still_work(clerk_bot: Harness) -> None:
    h = clerk_bot
    await senate(h)
    await h.run(h.alice, "motion move", h.game, name="Land Reform", convocant="Kista")
    offer = await offer_to(h, h.alice)
    await h.restart()
    answered = await h.press(h.alice, offer, "Second with Dorn")
    assert answered.first.content == "You second Motion #1 (Land Reform) with Dorn."
    assert h.fake.messages(h.game)[-1].embed["title"] == "sirius: Motion #1, Land Reform, resolves"
