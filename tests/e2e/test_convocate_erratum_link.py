"""Issue 19 in the Convocate, end to end: bob's Motion of Repeal of alice's Statute X resolves tied (kept) and its
card is posted in the game channel; the moderator rules ``repeal_count`` ``before``, so it is counted 4 to 3; the
erratum posted with ``/motion erratum`` links the Repeal card's own message (guild, channel and message id of the
card the fake recorded), and so must fail if the link were missing or pointed elsewhere."""

from __future__ import annotations

from engine.convocate.board import Phase

from .clerkbot import Harness


async def table(h: Harness) -> int:
    """#sirius plays the Convocate as tests/service/test_errata_convocate.py's ``tied``: alice's K_A declares X on
    S_U; in bob's Action Phase, with alice's LC activated (its Votes committed), bob's Repeal is tied 3 to 3."""
    game_id = await seated(h)
    await h.run(h.alice, "statute declare", h.game, statute="X", character="K_A", section=1, sections=2)
    await until(h, game_id, "bob")
    await h.run(h.alice, "card add", h.game, kind="location", name="LC", vote=2, readied=False)
    return game_id


async def seated(h: Harness) -> int:
    """#sirius plays the Convocate: alice, bob and carol each on a Seat of their sovereignty, alice's K_A on S_U;
    alice's Action Phase (``table`` before K_A declares X)."""
    await h.run(h.mod, "game new", h.game, ruleset="convocate", name="sirius")
    for who, sov, home in ((h.alice, "Union", "HW_A"), (h.bob, "Kingdom", "HW_B"), (h.carol, "Republic", "HW_C")):
        await h.run(h.mod, "convocate player", h.game, user=who, sovereignty=sov)
        await h.run(who, "card add", h.game, kind="homeworld", name=home)
    await h.run(h.mod, "card add", h.game, kind="seat", name="S_U", controller=h.alice, sovereignty="Union",
                faces="prime: 0..4")
    await h.run(h.mod, "card add", h.game, kind="seat", name="S_K", controller=h.bob, sovereignty="Kingdom",
                faces="prime: -4..0")
    await h.run(h.mod, "card add", h.game, kind="seat", name="S_T", controller=h.carol, sovereignty="Republic",
                faces="prime: 0..4 directive; contested: 0..4")
    await h.run(h.alice, "card add", h.game, kind="character", name="K_A", at="S_U")
    await h.run(h.alice, "card add", h.game, kind="location", name="LA", vote=2)
    await h.run(h.bob, "card add", h.game, kind="character", name="K_B", at="HW_B")
    await h.run(h.bob, "card add", h.game, kind="character", name="J_B", at="HW_B")
    await h.run(h.bob, "card add", h.game, kind="location", name="LB", vote=1)
    game = await h.clerk.games.game_in_channel(h.game.id)
    assert game is not None
    await until(h, game.id, "alice")
    return game.id


async def until(h: Harness, game_id: int, player: str) -> None:
    """The moderator ends Phases (the service, as ``/phase next`` does) until ``player``'s Action Phase starts."""
    for _ in range(20):
        changed = await h.clerk.convocate.turns.next_phase(game_id, user_id=h.mod.id, moderator=True)
        if changed.started == (player, Phase.ACTION):
            return
    raise AssertionError(f"{player}'s Action Phase never started")


async def test_the_erratum_links_the_repeal_card_it_corrects(clerk_bot: Harness) -> None:
    h = clerk_bot
    await table(h)
    before = len(h.fake.messages(h.game))
    await h.run(h.bob, "repeal", h.game, statute="X", convocant="K_B")
    await h.idle()
    [card] = [m for m in h.fake.messages(h.game)[before:]
              if m.embeds and m.embed["title"] == "sirius: Motion of Repeal against X"]
    assert "bob **3**, alice **3**" in card.text() and "X stays in force" in card.text()

    changed = await h.run(h.mod, "game settings", h.game, setting="repeal_count", value="before")
    [notice] = [r for r in changed.responses if "resolved Repeals of sirius" in r.content]
    assert notice.ephemeral and "4 against 3 (destroyed): **the outcome changes**" in notice.content
    await h.run(h.mod, "motion erratum", h.game, number=1)
    await h.idle()
    [erratum] = [m for m in h.fake.messages(h.game) if m.embeds and m.embed["title"].endswith("Motion #1: erratum")]
    link = f"https://discord.com/channels/{h.game.guild_id}/{h.game.id}/{card.id}"
    assert erratum.id != card.id and f"[the announcement]({link})" in erratum.text()
    assert "did not keep where it was posted" not in erratum.text()
    assert "4 (announced 3)" in erratum.text()
