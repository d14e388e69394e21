"""Landsdraad's posts that carry a chart drawn off the event loop (matplotlib) owe their card in the transaction of
their write (``AnswerWith``), the chart added to the card's row once drawn, before it is queued
(``bot/actions/owed_files.py``): the Victory Point Forecast at a round's start (`/round open`), the final table an
enacted End Game vote posts (scored in the enactment's transaction), `/game end`'s, and the final table `/prestige
award` or a goal's change would post again once the game has ended (it cannot: that ledger is closed), with
a goal's DM. The bot killed between that commit and the front end
owing anything loses none of it: the next start posts each once, with its chart; a second start posts nothing more
(the kill-window checks of tests/e2e/test_owed_interactions.py)."""

from __future__ import annotations

from fakediscord import Channel

from .clerkbot import Harness
from .test_owed_interactions import killed_as_it_returns, nothing_more, posted_once_at_start

Wanted = dict[str, tuple[Channel | None, str]]


def charts_of(h: Harness, before: set[int], wanted: Wanted, what: str) -> list[str]:
    """The file names of the one message, new since ``before``, that carries ``wanted[what]``."""
    where, piece = wanted[what]
    [message] = [m for m in h.fake.sent if m.id not in before and m.kind == "message" and piece in m.text()
                 and (where is None or m.channel_id == where.id)]
    return [name for name, _ in message.files]


async def killed_then_posted_once(h: Harness, act: object, wanted: Wanted, charted: dict[str, str]) -> None:
    """``act`` (a slash command) killed after its commit, before anything is owed: nothing of ``wanted`` was sent;
    after a restart each is posted once, the ``charted`` ones with their chart file; after a second, nothing more."""
    before = {m.id for m in h.fake.sent}
    await killed_as_it_returns(h, act)  # type: ignore[arg-type]
    await posted_once_at_start(h, before, wanted)
    for what, file in charted.items():
        assert charts_of(h, before, wanted, what) == [file], f"{what} posted with its chart"
    await nothing_more(h, before, wanted)


async def test_a_rounds_forecast_and_a_moderators_end_committed_just_before_a_kill_are_posted_after_it_once(
        clerk_bot: Harness) -> None:
    """`/round open`, killed after its commit: after the restart the announcement, the Victory Point Forecast (with
    its chart, added to its row before the kill), and the ballots are posted once. Then, the round closed,
    `/game end`, killed after its commit: the final table (with its chart) is posted once. A second restart posts
    nothing more. Before, the Forecast and the final table were owed after the commit (once their chart was drawn)
    and the kill lost them: the round was open, or the game ended, and the channel never saw either."""
    h = clerk_bot
    await h.run(h.mod, "game new", h.game, ruleset="landsdraad", name="sirius")
    for who in (h.alice, h.bob):
        await h.run(h.mod, "player add", h.game, user=who, diplomacy=2, command=2, intrigue=1, roll=1)
    offer = "Round 1 of sirius is open: Raise the fleet levy?"
    opened: Wanted = {
        "the announcement": (h.game, "sirius: round 1 is open"),
        "the Forecast": (h.game, "sirius: Victory Point Forecast"),
        "alice's ballot": (h.fake.dm_channel(h.alice), offer),
        "bob's ballot": (h.fake.dm_channel(h.bob), offer),
    }
    await killed_then_posted_once(h, lambda: h.fake.slash(h.mod, "round open", h.game, crisis="Raise the fleet levy?"),
                                  opened, {"the Forecast": "forecast.png"})
    forecast = [m for m in h.fake.messages(h.game) if "Victory Point Forecast" in m.text()]
    assert len(forecast) == 1 and "Forecast taken: start of round 1" in forecast[0].text()

    await h.run(h.mod, "round close", h.game)
    ended: Wanted = {"the final table": (h.game, "sirius: final scores")}
    await killed_then_posted_once(h, lambda: h.fake.slash(h.mod, "game end", h.game), ended,
                                  {"the final table": "scores.png"})


async def test_goals_an_end_game_vote_enacted_and_a_corrected_end_committed_just_before_a_kill_are_posted_once(
        clerk_bot: Harness) -> None:
    """`/goal add`, `/goal achieved` and `/goal remove`, each killed after its commit: after the restart the DM to
    the goal's player is posted once. An End Game vote passed; `/pv enact`, killed after its commit: the game was
    scored in the enactment's own transaction, and after the restart the enacted card and the final table (with the
    End Game penalty, and its chart) are posted once. Once the game has ended its ledger is closed: `/prestige award`
    is refused (so it never posts the final table again). `/game reopen`, a prestige award, and `/game end`, killed
    after its commit: the correction and the final table (with its chart), once. A second restart posts nothing more
    after each. Before, the End Game vote's scores were a write of their own after the enactment, and each of these
    was owed after its commit (a final table once its chart was drawn): the kill lost it (killed before the scoring,
    the game stayed ended and unscored)."""
    h = clerk_bot
    await h.new_game()
    alice = h.fake.dm_channel(h.alice)
    await killed_then_posted_once(h, lambda: h.fake.slash(h.mod, "goal add", h.game, player=h.alice,
                                                          description="Hold Kaitain", vp=30),
                                  {"the DM": (alice, "New goal in sirius: · #1 Hold Kaitain (30 VP")}, {})
    await h.run(h.mod, "goal add", h.game, player=h.alice, description="Rule Arrakis", vp=20)
    await killed_then_posted_once(h, lambda: h.fake.slash(h.mod, "goal achieved", h.game, player=h.alice, goal=1),
                                  {"the DM": (alice, "Goal achieved in sirius: ✓ #1 Hold Kaitain")}, {})
    await killed_then_posted_once(h, lambda: h.fake.slash(h.mod, "goal remove", h.game, player=h.alice, goal=2),
                                  {"the DM": (alice, "Goal removed in sirius: · #2 Rule Arrakis")}, {})

    for who in (h.alice, h.bob):
        await h.run(who, "pv support", h.game, subject="End Game")
    [vote] = await h.clerk.landsdraad.majority.votes(await h.game_id())
    enacted: Wanted = {
        "the enacted card": (h.game, "Enacted: End Game"),
        "the final table": (h.game, "Final Victory Pot: 1120 (after the End Game penalty of 20%)"),  # 1400 · 80%
    }
    await killed_then_posted_once(h, lambda: h.fake.slash(h.mod, "pv enact", h.game, vote=vote.id), enacted,
                                  {"the final table": "scores.png"})
    events = [e["kind"] for e in (await h.clerk.exports.export(await h.game_id()))["events"]]
    assert events.count("GameScored") == 1 and events.index("PlayerVoteEnacted") < events.index("GameScored")

    refused = await h.run(h.mod, "prestige award", h.game, player=h.alice, vp=5, reason="Host")
    assert "its ledger is closed" in refused.first.content

    await h.run(h.mod, "game reopen", h.game, reason="alice's prestige")
    await h.run(h.mod, "prestige award", h.game, player=h.alice, vp=5, reason="Host")
    again: Wanted = {"the correction": (h.game, "**Correction: the final scores of sirius**"),
                     "the final table": (h.game, "sirius: final scores")}
    await killed_then_posted_once(h, lambda: h.fake.slash(h.mod, "game end", h.game), again,
                                  {"the final table": "scores.png"})
