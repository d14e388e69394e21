"""Issue 19's disclosure check on a partial leak, through the fake Discord: alice (11) and bob (7) cast no ballot,
so their 18 votes abstain and make all of Abstain; carol, dave and erin (5 each) then did not abstain, while which
two of them voted Aye stays secret. The moderators' private thread is told so in words ("carol (5 votes): the
totals show carol did not vote Abstain"), apart from any full exposure; the result is posted in full although the
game's ``disclosure`` is ``hold`` (a partial leak only warns, docs/rulings.md); the game channel and the players'
DMs never see the warning."""

from __future__ import annotations

from .clerkbot import Harness
from .test_transfers import PRIVATE_THREAD, posted

PART = "give away part of these ballots"


async def test_a_partial_leak_warns_the_moderators_privately_and_the_result_is_posted_in_full(
        clerk_bot: Harness) -> None:
    h = clerk_bot
    dave, erin = h.fake.add_user("dave"), h.fake.add_user("erin")
    await h.run(h.mod, "game new", h.game, ruleset="landsdraad", name="sirius")
    await h.run(h.mod, "player add", h.game, user=h.alice, diplomacy=3, command=1, intrigue=2, roll=3)  # 11
    await h.run(h.mod, "player add", h.game, user=h.bob, diplomacy=2, command=1, intrigue=1, roll=2)  # 7
    for user in (h.carol, dave, erin):  # 5 each
        await h.run(h.mod, "player add", h.game, user=user, diplomacy=1, command=1, intrigue=1, roll=2)
    await h.run(h.mod, "game settings", h.game, setting="disclosure", value="hold")
    await h.run(h.mod, "round open", h.game, crisis="Guild charter")
    await h.run(h.carol, "vote", h.game, choice="aye")
    await h.run(dave, "vote", h.game, choice="aye")
    await h.run(erin, "vote", h.game, choice="nay")
    await h.run(h.mod, "round close", h.game)
    await h.settle()

    [thread] = await h.fake.wait_for(lambda: [t for t in h.fake.threads_of(h.game) if t.type == PRIVATE_THREAD],
                                     "the moderators' private thread")
    warning = await posted(h, thread, PART)
    assert ("carol (5 votes): the totals show carol did not vote Abstain; dave (5 votes): the totals show dave did "
            "not vote Abstain; erin (5 votes): the totals show erin did not vote Abstain.") in warning.content
    assert "give away how these players voted" not in warning.content  # nobody is exposed whole
    assert "it was posted in full" in warning.content
    assert h.alice.id not in thread.members and h.carol.id not in thread.members

    public = list(h.fake.messages(h.game))
    [card] = [m for m in public if "round 1: the measure PASSED" in m.text()]
    assert "Aye: 10" in card.text() and "Abstain: 18" in card.text()  # in full, though the setting is hold
    assert not any("will post the result" in m.text() for m in public)
    everywhere = [m.text() for m in public] + [m.text() for u in (h.alice, h.bob, h.carol, dave, erin)
                                               for m in h.fake.dms(u)]
    assert not any(PART in t or "did not vote" in t for t in everywhere)
