"""The Republic of Mylantium through the real discord.py client: the coup offer to the Brass Hats' player comes by
DM with buttons (P1-23), and a press answers it as `Coup: yes` would; a later press finds it decided."""

from __future__ import annotations

from fakediscord import Sent

from .clerkbot import Harness


async def coup_offer(h: Harness) -> Sent:
    """#sirius plays Mylantium: alice the Brass Hats, bob the Proles, carol the Plutocrats; the Proles fall to 0 VP."""
    await h.run(h.mod, "game new", h.game, ruleset="mylantium", name="sirius")
    await h.run(h.mod, "territory add", h.game, name="Avalon")
    for who, faction, party, vp in ((h.alice, "Brass Hat", "Federalist", 14), (h.bob, "Prole", "Federalist", 3),
                                    (h.carol, "Plutocrat", "Whig", 20)):
        await h.run(h.mod, "faction register", h.game, faction=faction, user=who, party=party, vp=vp, treasury=20)
    await h.run(h.mod, "faction set", h.game, faction="Prole", vp=0, treasury=100)
    offers = await h.fake.wait_for(lambda: [m for m in h.fake.dms(h.alice) if "military coup" in m.content],
                                   "the coup offer to alice")
    return offers[-1]


async def test_the_coup_offer_accepted_with_a_button(clerk_bot: Harness) -> None:
    h = clerk_bot
    offer = await coup_offer(h)
    assert [b["label"] for b in offer.buttons()] == ["Attempt a coup", "No coup"]
    assert not any("military coup" in m.content for m in h.fake.dms(h.bob) + h.fake.dms(h.carol))

    wrong = await h.press(h.bob, offer, "Attempt a coup")  # only the Brass Hats' player may answer
    assert wrong.first.ephemeral and "Only the Brass Hats' player" in wrong.first.content

    pressed = await h.press(h.alice, offer, "Attempt a coup")
    assert pressed.first.ephemeral and pressed.first.content == "Recorded: the Brass Hats attempt a coup."
    assert all(b.get("disabled") for b in offer.buttons())
    assert any("Military coup!" in m.content for m in h.fake.messages(h.game))
    await h.fake.wait_for(lambda: any("coup is under way" in m.content for m in h.fake.dms(h.carol)),
                          "carol's request for a contribution")
    posted = len(h.fake.messages(h.game))

    offer.components = [{**row, "components": [{**b, "disabled": False} for b in row["components"]]}
                        for row in offer.components]  # a client that still shows the buttons enabled
    late = await h.press(h.alice, offer, "No coup")
    assert "already answered or decided" in late.first.content and "Nothing was recorded" in late.first.content
    assert len(h.fake.messages(h.game)) == posted
