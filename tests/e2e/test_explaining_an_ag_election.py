"""``/why ag`` and **Explain this** on an Adjutant General election's result card, through the fake Discord, in a
game that weighs AG ballots (``ag_weighted``): each player's copy shows their own ballot's weight and withholds the
other's; the moderator sees both; the game channel gets the card and no weight."""

from __future__ import annotations

from fakediscord import Sent

from .clerkbot import Harness
from .test_politics import answer


async def weighted_election(h: Harness, alice: str, bob: str) -> Sent:
    """A game weighing AG ballots (alice 13 votes, bob 6, round 1 open) whose election alice and bob vote in by DM
    (for ``alice`` and ``bob``) and the moderator closes; its result card."""
    await h.new_game()
    await h.run(h.mod, "game settings", h.game, setting="ag_weighted", value="yes")
    await h.run(h.mod, "ag open", h.game)
    await answer(h, await h.fake.dm(h.alice, f"AG Vote: {alice}"))
    await answer(h, await h.fake.dm(h.bob, f"AG Vote: {bob}"))
    await h.run(h.mod, "ag close", h.game)
    await h.settle()
    [card] = [m for m in h.fake.messages(h.game) if "is the Adjutant General" in m.text()]
    return card


async def test_an_ag_election_explained_and_explain_this_on_its_card(clerk_bot: Harness) -> None:
    h = clerk_bot
    card = await weighted_election(h, "alice", "alice")

    mine = (await h.run(h.bob, "why", h.game, what="ag", round=1)).first
    assert mine.ephemeral and "**AG election 1 of sirius: the result**: alice elected with" in mine.content
    assert "bob's ballot for alice" in mine.content and "alice's ballot" not in mine.content
    assert "1 step withheld" in mine.content and "P0-06" not in mine.content
    everything = "\n".join(r.content for r in (await h.run(h.mod, "why", h.game, what="ag")).responses)
    assert "bob's ballot for alice" in everything and "alice's ballot for alice" in everything
    assert "withheld" not in everything and "(R0-31)" in everything

    explained = await h.fake.answered(await h.fake.message_command(h.bob, "Explain this", card.id))
    assert explained.ephemeral and explained.content == mine.content

    public = "\n".join(m.text() for m in h.fake.messages(h.game))
    assert "ballot for alice" not in public and "withheld" not in public

    # Changing ag_weighted afterwards tells the moderator, privately, what the closed election would have been.
    changed = await h.run(h.mod, "game settings", h.game, setting="ag_weighted", value="no")
    [notice] = [r for r in changed.responses if "AG election 1: posted alice" in r.content]
    assert notice.ephemeral and "now alice 2 (the same winner)" in notice.content
    assert "AG election 1: posted" not in "\n".join(m.text() for m in h.fake.messages(h.game))
