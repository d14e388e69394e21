"""``/round preview`` and ``/ag preview`` through the front end (docs/commands.md): the moderator alone sees the close
before it happens, privately; nothing is recorded, no die is rolled and the round closes afterwards as it would have."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from ledger_front import MODERATOR, actor, only_here, slash

from engine.service.landsdraad.round_state import read_factions, read_round
from engine.service.ledger import read_game
from engine.store.database import make_sessionmaker

JENNY, BOB, CAROL = 101, 102, 103
BOARS = "1-3 nay, 4 abstain, 5-6 aye"


async def _close_round(table: Any) -> None:
    """Jenny 11 Aye, Bob 15 Nay, Carol 6 without a ballot; the Boars' 12 on a d6 not yet rolled."""
    await table.player(JENNY, "jenny", 3, 2, 2, roll=3)  # 2·3 + 2 + 3 = 11
    await table.player(BOB, "bob", 5, 2, 2, roll=3)  # 15
    await table.player(CAROL, "carol", 1, 1, 3, roll=1)  # 2 + 3 + 1 = 6
    await table.open(deadline=timedelta(hours=2))
    await table.faction("Boars", 12, "d6", BOARS)
    await table.vote(JENNY, "Vote: Aye")
    await table.vote(BOB, "Vote: Nay")


async def _rolls(table: Any) -> list[int | None]:
    async with make_sessionmaker(table.engine)() as session:
        def read(s: Any) -> list[int | None]:
            rnd = read_round(s, read_game(s, table.game_id))
            return [f.roll for f in read_factions(s, rnd.id)]
        return await session.run_sync(read)


async def test_round_preview_shows_the_odds_privately_and_records_nothing(table: Any) -> None:
    """Aye 11 against Nay 15: the Boars on 5-6 make it 23 against 15 (passes); on 1-3 and 4 it fails. 2 faces of 6.
    17 more Aye votes pass it whatever the roll (28 against 27 on 1-3); 8 more Nay fail it (23 against 23 on 5-6)."""
    await _close_round(table)
    before, rolled = await table.events(), await table.rolls()
    text = only_here(out := await slash(table.clerk, MODERATOR, "round preview"))
    assert out[0].ephemeral
    assert "Aye 11, Nay 15, Abstain 6, before the roll of Boars (12)." in text
    assert "Passes 1/3 (33.33%), fails 2/3 (66.67%), over the 6 faces of the d6 of Boars." in text
    assert "on 5-6 (Aye): certain to pass" in text and "on 1-3 (Nay): certain to fail" in text
    assert "17 more Aye votes would make it pass whatever the rolls; 8 more Nay votes would make it fail" in text
    assert "The roll of Boars decides it: it passes on 5-6" in text
    assert "2 ballots counted" in text
    # carol's 6 on Aye: 17 against 15, failing only on the Boars' Nay; on Nay: 11 against 21, passing on their Aye
    assert "carol (6 votes): as Aye passes 1/2 (50.00%); as Nay passes 1/3 (33.33%)" in text
    assert [e.seq for e in await table.events()] == [e.seq for e in before]  # recorded as nothing
    assert await table.rolls() == rolled and await _rolls(table) == [None]  # no die rolled, no roll set

    result = await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=1)
    (roll,) = await _rolls(table)
    assert roll is not None and await table.rolls() == [*rolled, (6, roll)]
    assert result.outcome == ("passed" if roll >= 5 else "failed")  # the preview's faces, at the close


async def test_round_preview_is_refused_to_players_and_needs_an_open_round(table: Any) -> None:
    await _close_round(table)
    refused = only_here(await slash(table.clerk, actor(JENNY, "jenny"), "round preview"))
    assert refused == "Only the moderators of sirius can use /round preview."
    await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=1)
    text = only_here(await slash(table.clerk, MODERATOR, "round preview"))
    assert "No round is open in sirius" in text


async def test_ag_preview_breaks_the_tie_and_says_what_turns_it(table: Any) -> None:
    """jenny and bob one ballot each, jenny's first: jenny wins the tie. Carol has not voted; one more ballot for
    bob (or carol's own) would win it for bob; a ballot for carol ties her with both, and the tie is not hers."""
    await _close_round(table)
    await table.clerk.landsdraad.adjutant.open_election(table.game_id, deadline=None, actor=1)
    for voter, candidate in ((JENNY, "jenny"), (BOB, "bob")):
        table.clock.advance(timedelta(minutes=5))
        await table.clerk.landsdraad.adjutant.cast_ag_vote(table.game_id, user_id=voter, candidate=candidate,
                                                           at=table.clock.now(), source_id=table.source())
    before = await table.events()
    text = only_here(await slash(table.clerk, MODERATOR, "ag preview"))
    assert "Would win: jenny, with 1 ballot" in text
    assert "Tie at the top: it goes to the candidate whose last ballot came first: jenny (last ballot" in text
    assert "bob: level now; the tie goes to jenny; 1 more to win, or 1 ballot moved from jenny" in text
    assert "anyone else: 2 more to win" in text
    assert "Not yet voted (1): carol" in text
    assert [e.seq for e in await table.events()] == [e.seq for e in before]
    assert only_here(await slash(table.clerk, actor(BOB, "bob"), "ag preview")) == (
        "Only the moderators of sirius can use /ag preview.")
