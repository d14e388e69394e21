"""A game that has ended is closed (issue 16), through the real discord.py client and the fake Discord: a Landsdraad
game ended with /game end refuses /player add and a DM ballot with the closed line, /vp show still answers;
/game reopen is announced, the correction is made, and /game end posts a correction that names what changed.
Mylantium and Convocate games closed with /game close refuse their commands the same way."""

from __future__ import annotations

import json
import re

from fakediscord import Interaction

from .clerkbot import Harness

CLOSED = re.compile(r"^(\w+) ended on 2026-03-01 18:00 UTC; its ledger is closed\. A moderator's /game export has "
                    r"everything\.$")


def texts(interaction: Interaction) -> str:
    """What the answers say, their embeds too."""
    return "\n".join(r.content + "".join(json.dumps(e, ensure_ascii=False) for e in r.embeds)
                     for r in interaction.responses)


async def test_an_ended_landsdraad_game_is_closed_until_reopened_and_its_correction_is_posted(
        clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.new_game()
    await h.run(h.mod, "round close", h.game)
    await h.run(h.mod, "game end", h.game)
    pot = await h.run(h.mod, "vp show", h.game)
    assert "Pot now: 1400 VP (2 players joined)" in texts(pot), texts(pot)

    refused = await h.run(h.mod, "player add", h.game, user=h.carol, diplomacy=3, command=3, intrigue=3, roll=1)
    assert refused.first.ephemeral and CLOSED.match(refused.first.content), refused.first.content
    assert "Pot now: 1400 VP (2 players joined)" in texts(await h.run(h.mod, "vp show", h.game))
    await h.fake.dm(h.alice, "Vote: Aye")
    answer = await h.fake.wait_for(lambda: [m for m in h.fake.dms(h.alice) if "ledger is closed" in m.content],
                                   "the closed line by DM")
    assert CLOSED.match(answer[-1].content.splitlines()[0]), answer[-1].content

    before = len(h.fake.messages(h.game))
    reopened = await h.run(h.mod, "game reopen", h.game, reason="carol joined before the end")
    assert reopened.first.ephemeral and "sirius is open again" in reopened.first.content
    posts = await h.fake.wait_for(lambda: [m for m in h.fake.messages(h.game)[before:] if "reopened" in m.content],
                                  "the reopening's announcement")
    assert posts[0].content == (f"**sirius** was reopened by <@{h.mod.id}> to correct a mistake (carol joined before "
                                "the end). It had ended on 2026-03-01 18:00 UTC; the moderators end it again with "
                                "/game end once it is corrected.")

    added = await h.run(h.mod, "player add", h.game, user=h.carol, diplomacy=3, command=3, intrigue=3, roll=1)
    assert "carol" in added.first.content and not CLOSED.match(added.first.content)
    before = len(h.fake.messages(h.game))
    await h.run(h.mod, "game end", h.game)
    correction = await h.fake.wait_for(
        lambda: [m for m in h.fake.messages(h.game)[before:] if m.content.startswith("**Correction")],
        "the correction")
    text = correction[0].content
    assert text.startswith("**Correction: the final scores of sirius**, scored again after "
                           f"<@{h.mod.id}> reopened the game to correct a mistake. What changed:\n"), text
    assert "- the Pot: 1400 → 1600 VP" in text and "- carol: new, " in text, text
    assert CLOSED.match((await h.run(h.mod, "round open", h.game, crisis="Again?")).first.content)


async def test_ended_mylantium_and_convocate_games_refuse_their_commands(clerk_bot: Harness) -> None:
    h = clerk_bot
    republic, assembly = h.fake.add_channel("republic"), h.fake.add_channel("assembly")
    await h.run(h.mod, "game new", republic, ruleset="mylantium", name="republic")
    await h.run(h.mod, "game new", assembly, ruleset="convocate", name="assembly")
    for channel, name in ((republic, "republic"), (assembly, "assembly")):
        before = len(h.fake.messages(channel))
        await h.run(h.mod, "game close", channel, reason="the table has finished")
        posted = await h.fake.wait_for(lambda c=channel, b=before: h.fake.messages(c)[b:], "the closing post")
        assert posted[0].content == f"**{name}** has ended (the table has finished): its ledger is closed. " \
                                    "A moderator's /game export has everything."

    territory = await h.run(h.mod, "territory add", republic, name="Capital")
    election = await h.run(h.mod, "election start", republic)
    card = await h.run(h.alice, "card add", assembly, kind="homeworld", name="Union Prime")
    player = await h.run(h.mod, "convocate player", assembly, user=h.alice, sovereignty="Union")
    for refused in (territory, election, card, player):
        assert refused.first.ephemeral and CLOSED.match(refused.first.content), refused.first.content
    assert not CLOSED.match((await h.run(h.mod, "status", republic)).first.content)
    assert not CLOSED.match((await h.run(h.alice, "board", assembly)).first.content)
    again = await h.run(h.mod, "game close", assembly)
    assert CLOSED.match(again.first.content)
