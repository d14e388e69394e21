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


async def test_fervor_and_approval_now_explained_through_discord(clerk_bot: Harness) -> None:
    """``/why what:fervor-level`` (suggested as ``what`` is typed) explains the Fervor ``/status`` shows, citing the
    ``/government set`` that set it; only the asker sees it."""
    h = clerk_bot
    await h.run(h.mod, "game new", h.game, ruleset="mylantium", name="sirius")
    await h.run(h.mod, "faction register", h.game, faction="Prole", user=h.bob, party="Federalist", vp=3, treasury=20)
    await h.run(h.mod, "government set", h.game, fervor=5, approval=40)
    suggested = [c["value"] for c in await h.fake.autocomplete(h.bob, "why", h.game, option="what", typed="level")]
    assert sorted(suggested) == ["approval-level", "fervor-level"]
    status = (await h.run(h.bob, "status", h.game)).first
    assert "Revolutionary Fervor: 5" in status.text()
    why = (await h.run(h.bob, "why", h.game, what="fervor-level")).first
    assert why.ephemeral and why.content.startswith("**Revolutionary Fervor now**: 5")
    assert "/government set: +5: set by the moderators (no VP deducted) → 5" in why.content and "read #" in why.content
    approval = (await h.run(h.bob, "why", h.game, what="approval-level")).first
    assert approval.ephemeral and approval.content.startswith("**The Approval Rating now**: 40%")
    assert not any("Fervor now" in m.text() for m in h.fake.messages(h.game))
