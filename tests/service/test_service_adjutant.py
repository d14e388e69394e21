"""R0-30..R0-35 through the service: the AG election, its tie-break, the office, and the round-end check."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from engine.core.errors import RuleError
from engine.landsdraad.majority import Subject
from engine.landsdraad.motions import Motion

JENNY, BOB, CAROL, DAN = 11, 12, 13, 14
MOD = 1


async def players(table: Any) -> None:
    await table.player(JENNY, "jenny", 3, 2, 2, faction="House Atreides")
    await table.player(BOB, "bob", 2, 2, 1)
    await table.player(CAROL, "carol", 2, 2, 1)


async def ag_vote(table: Any, user: int, name: str, minutes: int = 0) -> Any:
    return await table.clerk.landsdraad.adjutant.cast_ag_vote(table.game_id, user_id=user, candidate=name,
                                                              at=table.clock.now() + timedelta(minutes=minutes),
                                                              source_id=table.source())


async def test_election_winner_takes_the_office(table: Any) -> None:
    """R0-30/R0-31: one ballot per active player; names resolve by name, faction or mention."""
    await players(table)
    opened = await table.clerk.landsdraad.adjutant.open_election(table.game_id, deadline=None, actor=MOD)
    assert opened.closes_at == table.clock.now() + timedelta(hours=96)
    await ag_vote(table, JENNY, "bob")
    await ag_vote(table, BOB, "atreides")
    await ag_vote(table, CAROL, f"<@{JENNY}>")
    closed = await table.clerk.landsdraad.adjutant.close_election(table.game_id, actor=MOD)
    assert closed is not None and closed.winner == "jenny"
    assert await table.clerk.landsdraad.adjutant.adjutant(table.game_id) == (JENNY, "jenny")


async def test_tie_goes_to_whose_last_ballot_came_first(table: Any) -> None:
    """R0-31 and P0-21: a changed ballot is re-stamped, re-posting the same name is not."""
    await players(table)
    await table.player(DAN, "dan", 2, 2, 1)
    await table.clerk.landsdraad.adjutant.open_election(table.game_id, deadline=None, actor=MOD)
    await ag_vote(table, JENNY, "bob", 0)
    await ag_vote(table, BOB, "carol", 1)
    await ag_vote(table, CAROL, "carol", 2)     # carol's last ballot: minute 2
    await ag_vote(table, DAN, "jenny", 3)
    await ag_vote(table, DAN, "bob", 4)         # changed: re-stamped at minute 4 -> bob's last ballot is later
    again = await ag_vote(table, JENNY, "bob", 9)
    assert again.unchanged
    closed = await table.clerk.landsdraad.adjutant.close_election(table.game_id, actor=MOD)
    assert closed is not None
    assert [(s.candidate, s.votes) for s in closed.standings] == [("carol", 2), ("bob", 2)]
    assert closed.winner == "carol"


async def test_a_tie_at_one_instant_goes_to_the_last_ballot_received_first(table: Any) -> None:
    """R0-31 with every ballot stamped with the same instant (as in a replay, or within one millisecond on Discord):
    the order of receipt decides, not the players' ids. A changed ballot counts as received when it changed: jenny's
    own ballot, changed last, makes jenny's last ballot the latest, though jenny first voted before anyone."""
    await players(table)
    await table.player(DAN, "dan", 2, 2, 1)
    await table.clerk.landsdraad.adjutant.open_election(table.game_id, deadline=None, actor=MOD)
    await ag_vote(table, JENNY, "carol")
    await ag_vote(table, BOB, "bob")
    await ag_vote(table, CAROL, "jenny")
    await ag_vote(table, DAN, "bob")            # bob's last ballot: the fourth received
    changed = await ag_vote(table, JENNY, "jenny")  # the fifth received: jenny's last ballot
    assert changed.changed_from == "carol"
    preview = await table.clerk.landsdraad.previews.election(table.game_id)
    closed = await table.clerk.landsdraad.adjutant.close_election(table.game_id, actor=MOD)
    assert closed is not None
    assert [(s.candidate, s.votes) for s in closed.standings] == [("bob", 2), ("jenny", 2)]
    assert closed.winner == "bob"
    assert preview.names[preview.preview.winner] == "bob"


async def test_unknown_or_ambiguous_candidate_lists_the_players(table: Any) -> None:
    await players(table)
    await table.player(DAN, "bobby", 1, 1, 1)
    await table.clerk.landsdraad.adjutant.open_election(table.game_id, deadline=None, actor=MOD)
    with pytest.raises(RuleError, match=r"No player in sirius is called “zed”.*jenny \(House Atreides\)"):
        await ag_vote(table, JENNY, "zed")
    with pytest.raises(RuleError, match="could be bob, bobby"):
        await ag_vote(table, JENNY, "bo")


async def test_me_and_a_unique_word_of_a_faction_name(table: Any) -> None:
    """Issue 16: `AG Vote: me` is the voter (the pinned forms say "your own name is fine"); a unique word of a
    faction's name finds its player (`Guild` for the Spacing Guild); a word two factions share is refused, naming
    both."""
    await players(table)
    await table.player(DAN, "dan", 2, 2, 1, faction="Spacing Guild")
    await table.clerk.landsdraad.adjutant.open_election(table.game_id, deadline=None, actor=MOD)
    assert (await ag_vote(table, BOB, "me")).candidate == "bob"
    assert (await ag_vote(table, CAROL, "Myself")).candidate == "carol"
    assert (await ag_vote(table, JENNY, "Guild")).candidate == "dan"
    await table.player(MOD + 100, "erin", 1, 1, 1, faction="Merchant Guild")
    with pytest.raises(RuleError, match="could be dan \\(Spacing Guild\\), erin \\(Merchant Guild\\)"):
        await ag_vote(table, JENNY, "guild")


async def test_a_player_called_me_is_who_me_names(table: Any) -> None:
    await players(table)
    await table.player(DAN, "Me", 1, 1, 1)
    await table.clerk.landsdraad.adjutant.open_election(table.game_id, deadline=None, actor=MOD)
    assert (await ag_vote(table, BOB, "me")).candidate == "Me"


async def test_election_rules(table: Any) -> None:
    """R0-32: at most 96 h; one election at a time; no election, no ballot; non-players refused."""
    await players(table)
    with pytest.raises(RuleError, match="No Adjutant General election is open"):
        await ag_vote(table, JENNY, "bob")
    with pytest.raises(RuleError, match="96 hours"):
        await table.clerk.landsdraad.adjutant.open_election(table.game_id,
                                                            deadline=table.clock.now() + timedelta(hours=97),
                                                            actor=MOD)
    await table.clerk.landsdraad.adjutant.open_election(table.game_id,
                                                        deadline=table.clock.now() + timedelta(hours=1), actor=MOD)
    with pytest.raises(RuleError, match="already open"):
        await table.clerk.landsdraad.adjutant.open_election(table.game_id, deadline=None, actor=MOD)
    with pytest.raises(RuleError, match="not a player"):
        await ag_vote(table, 999, "bob")
    with pytest.raises(RuleError, match="too late"):
        await ag_vote(table, JENNY, "bob", minutes=60)


async def test_ballots_persist_across_the_round_boundary(table: Any) -> None:
    """R0-32 / P0-21: AG ballots persist until the election closes, unlike player-vote support (R0-43)."""
    await players(table)
    await table.open(deadline=timedelta(hours=2))
    await table.clerk.landsdraad.adjutant.open_election(table.game_id,
                                                        deadline=table.clock.now() + timedelta(hours=48), actor=MOD)
    await ag_vote(table, JENNY, "carol")
    table.clock.advance(timedelta(hours=2))
    result = await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=MOD)
    assert result.income_penalty == 300 and result.adjutant is None       # R0-34: no AG at round end
    await table.open()
    election = await table.clerk.landsdraad.adjutant.election(table.game_id)
    assert election is not None and election.ballots[0][:2] == ("jenny", "carol")


async def test_deadline_closes_once(table: Any) -> None:
    await players(table)
    opened = await table.clerk.landsdraad.adjutant.open_election(table.game_id,
                                                                 deadline=table.clock.now() + timedelta(hours=1),
                                                                 actor=MOD)
    assert await table.clerk.landsdraad.adjutant.pending_elections() == [(table.game_id, 1, opened.closes_at)]
    await ag_vote(table, BOB, "bob")
    first = await table.clerk.landsdraad.adjutant.close_election(table.game_id, actor=None,
                                                                 source_id="ag-deadline:1", expected=1)
    again = await table.clerk.landsdraad.adjutant.close_election(table.game_id, actor=None,
                                                                 source_id="ag-deadline:1", expected=1)
    assert first is not None and first.winner == "bob" and again is None
    assert await table.clerk.landsdraad.adjutant.pending_elections() == []
    assert (await table.kinds()).count("AgElectionClosed") == 1


async def test_no_confidence_removes_the_ag_and_opens_an_election_with_the_round(table: Any) -> None:
    """R0-35: removal, a new election closing at round end, ballots cast before removal stay valid."""
    receipt = await _no_confidence_passed(table)
    assert receipt.just_passed and receipt.vote.title == "No Confidence in jenny"
    assert await table.clerk.landsdraad.adjutant.adjutant(
        table.game_id) == (JENNY, "jenny"), "nothing happens before enactment"
    enacted = await table.clerk.landsdraad.majority.enact(table.game_id, vote_id=receipt.vote.id, actor=MOD)
    assert enacted.election == 2
    assert await table.clerk.landsdraad.adjutant.adjutant(table.game_id) is None
    election = await table.clerk.landsdraad.adjutant.election(table.game_id)
    assert election is not None and election.closes_at == table.clock.now() + timedelta(hours=24)
    assert election.closes_with_round == 1
    await ag_vote(table, JENNY, "jenny")                                  # P0-08: the removed AG may stand again
    with pytest.raises(RuleError, match="at most 24 hours"):
        await table.clerk.landsdraad.adjutant.extend_election(table.game_id,
                                                              until=table.clock.now() + timedelta(hours=49), actor=MOD)
    await table.clerk.landsdraad.adjutant.extend_election(table.game_id,
                                                          until=table.clock.now() + timedelta(hours=30), actor=MOD)
    table.clock.advance(timedelta(hours=24))
    result = await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=MOD)
    assert result.income_penalty == 300, "extended past round end: no AG at the end of this round"
    table.clock.advance(timedelta(hours=6))
    closed = await table.clerk.landsdraad.adjutant.close_election(table.game_id, actor=None, expected=2)
    assert closed is not None and closed.winner == "jenny"


async def test_election_closing_with_the_round_fills_the_office_before_the_check(table: Any) -> None:
    """R0-34/R0-35: the replacement election ends at round end, so its winner is in office for the check."""
    await players(table)
    await table.clerk.landsdraad.adjutant.open_election(table.game_id, deadline=None, actor=MOD)
    await ag_vote(table, BOB, "jenny")
    await table.clerk.landsdraad.adjutant.close_election(table.game_id, actor=MOD)
    await table.open()
    for user in (BOB, CAROL):
        receipt = await table.clerk.landsdraad.majority.support(table.game_id, user_id=user,
                                                                motion=Motion(Subject.NO_CONFIDENCE), thread_id=None,
                                                                at=table.clock.now(), source_id=table.source())
    await table.clerk.landsdraad.majority.enact(table.game_id, vote_id=receipt.vote.id, actor=MOD)
    await ag_vote(table, JENNY, "carol")
    result = await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=MOD)
    assert result.elections_closed == (2,)
    assert (result.adjutant, result.income_penalty) == ("carol", 0)


async def _no_confidence_passed(table: Any) -> Any:
    """jenny is AG; bob and carol pass No Confidence in her (2 of 3 active, R0-41) in a round with a 24 h deadline;
    not enacted yet. The receipt of the support that passed it."""
    await players(table)
    await table.clerk.landsdraad.adjutant.open_election(table.game_id, deadline=None, actor=MOD)
    await ag_vote(table, BOB, "jenny")
    await table.clerk.landsdraad.adjutant.close_election(table.game_id, actor=MOD)
    await table.open(deadline=timedelta(hours=24))
    for user in (BOB, CAROL):
        receipt = await table.clerk.landsdraad.majority.support(table.game_id, user_id=user,
                                                                motion=Motion(Subject.NO_CONFIDENCE), thread_id=None,
                                                                at=table.clock.now(), source_id=table.source())
    return receipt


async def test_ag_ballots_cast_during_no_confidence_count_at_their_time(table: Any) -> None:
    """R0-35: "votes cast for a new AG prior to an official removal are still valid": held until the enactment,
    then counted in the election it opens at the times they were cast, so the tie-break (R0-31) sees those times."""
    from engine.service.landsdraad.held_ballots import HeldVote
    vote = (await _no_confidence_passed(table)).vote
    held = await ag_vote(table, CAROL, "jenny", 1)
    assert isinstance(held, HeldVote) and held.vote_title == "No Confidence in jenny"
    changed = await ag_vote(table, JENNY, "bob", 2)
    again = await ag_vote(table, JENNY, "carol", 3)                 # changed: re-stamped at minute 3 (P0-21)
    assert isinstance(changed, HeldVote) and isinstance(again, HeldVote) and again.changed_from == "bob"
    same = await ag_vote(table, CAROL, "jenny", 4)                  # the same name keeps minute 1
    assert isinstance(same, HeldVote) and same.unchanged
    assert await table.clerk.landsdraad.adjutant.held(table.game_id) == (
        "No Confidence in jenny", (("carol", "jenny"), ("jenny", "carol")))
    assert await table.clerk.landsdraad.adjutant.adjutant(table.game_id) == (JENNY, "jenny"), "still in office"
    table.clock.advance(timedelta(minutes=10))
    enacted = await table.clerk.landsdraad.majority.enact(table.game_id, vote_id=vote.id, actor=MOD)
    assert any("jenny → carol" in line and "carol → jenny" in line for line in enacted.lines)
    election = await table.clerk.landsdraad.adjutant.election(table.game_id)
    assert election is not None and election.status == "open" and election.number == enacted.election
    assert [(v, c, at - table.clock.now()) for v, c, at in election.ballots] == [
        ("carol", "jenny", timedelta(minutes=-9)), ("jenny", "carol", timedelta(minutes=-7))]
    assert await table.clerk.landsdraad.adjutant.held(table.game_id) is None, "an election is open: nothing held"
    await ag_vote(table, BOB, "carol")                              # carol 2, jenny 1
    closed = await table.clerk.landsdraad.adjutant.close_election(table.game_id, actor=MOD)
    assert closed is not None and closed.winner == "carol"
    assert (await table.kinds()).count("AgBallotHeld") == 4


async def test_held_ballots_lapse_when_the_vote_is_vetoed(table: Any) -> None:
    """A vetoed No Confidence vote opens no election; its held ballots never count, and once it is decided an
    AG ballot is refused again (no election is open, nothing under way)."""
    vote = (await _no_confidence_passed(table)).vote
    await ag_vote(table, CAROL, "carol")
    await table.clerk.landsdraad.majority.veto(table.game_id, vote_id=vote.id, actor=MOD)
    assert await table.clerk.landsdraad.adjutant.held(table.game_id) is None
    with pytest.raises(RuleError, match="No Adjutant General election is open"):
        await ag_vote(table, BOB, "carol")
    await table.clerk.landsdraad.adjutant.open_election(table.game_id, deadline=None, actor=MOD)
    election = await table.clerk.landsdraad.adjutant.election(table.game_id)
    assert election is not None and election.ballots == ()


async def test_a_held_ballot_lapses_when_its_voter_leaves(table: Any) -> None:
    """R0-30: only active players' ballots count; a held ballot whose voter was removed before the enactment
    lapses, as does one for a candidate who was removed, and the enactment says so. A redelivered held ballot is
    held once."""
    from engine.service.landsdraad.held_ballots import HeldVote
    vote = (await _no_confidence_passed(table)).vote
    await ag_vote(table, BOB, "carol")
    first = await table.clerk.landsdraad.adjutant.cast_ag_vote(table.game_id, user_id=CAROL, candidate="bob",
                                                               at=table.clock.now(), source_id="dm:77")
    twice = await table.clerk.landsdraad.adjutant.cast_ag_vote(table.game_id, user_id=CAROL, candidate="bob",
                                                               at=table.clock.now(), source_id="dm:77")
    assert isinstance(first, HeldVote) and isinstance(twice, HeldVote) and twice.duplicate
    await table.clerk.landsdraad.removal.remove_player(table.game_id, user_id=BOB, actor=MOD)
    enacted = await table.clerk.landsdraad.majority.enact(table.game_id, vote_id=vote.id, actor=MOD)
    lapsed = [line for line in enacted.lines if "do not count" in line]
    assert len(lapsed) == 1 and "bob → carol" in lapsed[0] and "carol → bob" in lapsed[0], "voter or candidate gone"
    election = await table.clerk.landsdraad.adjutant.election(table.game_id)
    assert election is not None and election.ballots == ()


async def test_no_confidence_may_name_the_ag_and_a_name_that_is_not_the_ag_is_refused(table: Any) -> None:
    """``Vote: No Confidence in jenny`` (the vote's own title) supports the same vote as ``Vote: No Confidence``;
    naming someone else is refused, saying who the AG is, and records nothing."""
    await players(table)
    await table.clerk.landsdraad.adjutant.open_election(table.game_id, deadline=None, actor=MOD)
    await ag_vote(table, BOB, "jenny")
    await table.clerk.landsdraad.adjutant.close_election(table.game_id, actor=MOD)
    await table.open(deadline=timedelta(hours=24))

    async def support(user: int, *names: str) -> Any:
        return await table.clerk.landsdraad.majority.support(
            table.game_id, user_id=user, motion=Motion(Subject.NO_CONFIDENCE, names), thread_id=None,
            at=table.clock.now(), source_id=table.source())

    for wrong in ("bob", "nobody"):
        with pytest.raises(RuleError, match=f"^{wrong} is not the Adjutant General of .*; jenny is"):
            await support(CAROL, wrong)
    assert await table.clerk.landsdraad.majority.votes(table.game_id) == []
    named = await support(BOB, "Jenny")
    plain = await support(CAROL)
    assert named.vote.id == plain.vote.id and plain.vote.title == "No Confidence in jenny"


async def test_held_ballots_of_an_earlier_round_do_not_count(table: Any) -> None:
    """R0-35 "cast earlier in the same round": a No Confidence vote passed in round 1 and enacted in round 2 brings
    no round-1 AG ballot into the election; one cast in round 2 before the enactment counts."""
    vote = (await _no_confidence_passed(table)).vote
    await ag_vote(table, CAROL, "carol")                            # round 1: held, then lapses with the round
    await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=MOD)
    await table.open()
    assert await table.clerk.landsdraad.adjutant.held(table.game_id) == ("No Confidence in jenny", ())
    await ag_vote(table, BOB, "carol")                              # round 2: held and counted
    await table.clerk.landsdraad.majority.enact(table.game_id, vote_id=vote.id, actor=MOD)
    election = await table.clerk.landsdraad.adjutant.election(table.game_id)
    assert election is not None and [(v, c) for v, c, _ in election.ballots] == [("bob", "carol")]
