"""What is left of the messages owed after their commit (branch pt-owedmisc): the Landsdraad majority notice after a
round's close, owed in the check's own transaction and checked again at start; the Convocate's and Mylantium's
`/game import` (its line in the game channel); the set-up summary after the Convocate's `/convocate player` and
Mylantium's set-up additions. Each killed after its commit, before anything is owed: the next start posts each once,
and a second start nothing more (the kill-window checks of tests/e2e/test_owed_interactions.py)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from unittest.mock import patch

from fakediscord import Channel

from bot.actions.landsdraad import closing

from .clerkbot import Harness
from .test_owed_interactions import killed_as_it_returns, killed_in_a_pass, nothing_more, posted_once_at_start

MAJORITY = "**Moderators: Majority Victory?** alice controls 13 of the 19 votes players control, more than half."


async def four_rounds_closed(h: Harness, channel: Channel, name: str) -> None:
    """A Landsdraad game ``name`` in ``channel`` with alice (13 votes) and bob (6), rounds 1 to 4 closed: alice
    holds a majority, which counts once round 5 is complete (R3-20)."""
    await h.run(h.mod, "game new", channel, ruleset="landsdraad", name=name)
    await h.run(h.mod, "player add", channel, user=h.alice, diplomacy=4, command=2, intrigue=2, roll=3)
    await h.run(h.mod, "player add", channel, user=h.bob, diplomacy=2, command=3, intrigue=1, roll=1)
    for number in range(1, 5):
        await h.run(h.mod, "round open", channel, crisis=f"Measure {number}?")
        await h.run(h.mod, "round close", channel)
    await h.settle()


async def test_the_majority_a_rounds_close_makes_is_told_after_a_kill_once(clerk_bot: Harness) -> None:
    """R3-20: alice holds a majority once round 5 is complete. #sirius's round 5 closes at its deadline, the pass
    killed as it is about to deliver, after the close's commit and the majority check's: after the restart the
    result card (the announcements' recovery) and the moderators' majority notice (owed in the check's transaction)
    are posted once. Before, the notice was owed after the check's commit, and the recovery's check found the
    majority told already: it was never posted. #vega's round 5 result is held back (`disclosure: hold`; its card
    owed with the close), and the bot is killed between the close's commit and the check: the check runs at the next
    start, and the notice is posted once (before, a held close was not announced again at start, and the majority
    waited for the next edit or close). A second restart posts nothing more."""
    h = clerk_bot
    await four_rounds_closed(h, h.game, "sirius")
    await h.run(h.mod, "round open", h.game, crisis="Measure 5?", deadline="2h")
    before = {m.id for m in h.fake.sent}
    await killed_in_a_pass(h, timedelta(hours=3))
    told: dict[str, tuple[Channel | None, str]] = {
        "the card": (h.game, "sirius, round 5"),
        "the majority notice": (None, MAJORITY),
    }
    await posted_once_at_start(h, before, told)
    await nothing_more(h, before, told)

    vega = h.fake.add_channel("vega")
    await four_rounds_closed(h, vega, "vega")
    await h.run(h.mod, "game settings", vega, setting="disclosure", value="hold")
    await h.run(h.mod, "round open", vega, crisis="Measure 5?")
    await h.run(h.alice, "vote", vega, choice="aye")
    await h.run(h.bob, "vote", vega, choice="nay")
    before = {m.id for m in h.fake.sent}

    async def killed_before_the_check(*_args: Any) -> list[Any]:
        return []

    with patch.object(closing, "majority_check", killed_before_the_check):
        await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "round close", vega))
    held: dict[str, tuple[Channel | None, str]] = {
        "the held card": (vega, "vega, round 5 is closed"),
        "the majority notice": (None, MAJORITY),
    }
    await posted_once_at_start(h, before, held)
    await nothing_more(h, before, held)
