"""Issue 19, corrections with their consequences (Landsdraad): a transfer correction after rounds have closed says,
to the moderators only, which closed rounds would have come out differently (round, posted and corrected totals,
outcome changed or not); ``/round erratum`` posts the corrected totals with a link to the original result card and
records ``ErratumPosted``; nothing recorded is rewritten. Runs on SQLite, and on PostgreSQL when TEST_POSTGRES_URL
is set."""

from __future__ import annotations

from typing import Any

import pytest
from ledger_front import MODERATOR, actor, slash, text_of, user

from bot.actions.commands import App
from bot.actions.context import Ctx, Place
from bot.actions.messages import handle_button
from bot.actions.outbox import Here, ToChannel, ToThread
from engine.core.errors import NotFoundError, RuleError
from engine.landsdraad.tally import Tally
from engine.landsdraad.transfers import parse_transfer

ALICE, BOB, CAROL = 301, 302, 303
MOD = 1


async def _play(table: Any, ballots: dict[int, str]) -> None:
    for who, text in ballots.items():
        await table.vote(who, text)
    await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=MOD)


async def _game(table: Any) -> int:
    """alice V 9, bob V 7 + Lankiveil (rich: 4; 6 for alice, whose D 3 earns its bonus), carol V 7. Round 1 closes
    before any transfer; in round 2 bob gives alice Lankiveil and it is applied before the close (posted Aye 15, Nay
    14: passed); round 3: Aye 22, Nay 7 (passed). Returns the transfer's entry number."""
    await table.player(ALICE, "alice", 3, 2, 2)
    await table.player(BOB, "bob", 2, 2, 2)
    await table.player(CAROL, "carol", 2, 2, 2)
    await table.planet(BOB, "Lankiveil", "rich")
    await table.open()
    await _play(table, {ALICE: "Vote: Aye", BOB: "Vote: Nay", CAROL: "Vote: Nay"})
    await table.open("Spice tithe")
    entry = await table.clerk.landsdraad.audits.record_transfer(
        table.game_id, user_id=BOB, command=parse_transfer("Transfer: Planet Lankiveil to alice"),
        at=table.clock.now(), source_id=table.source())
    await table.clerk.landsdraad.transfer_moves.apply_transfer(table.game_id, entry_id=entry.id, actor=MOD)
    await _play(table, {ALICE: "Vote: Aye", BOB: "Vote: Nay", CAROL: "Vote: Nay"})
    await table.open("Guild fees")
    await _play(table, {ALICE: "Vote: Aye", BOB: "Vote: Aye", CAROL: "Vote: Nay"})
    return int(entry.id)


async def test_a_holding_given_in_the_wrong_round_flips_the_round_it_was_counted_in(table: Any) -> None:
    entry = await _game(table)
    errata = table.clerk.landsdraad.errata
    fixed = await table.clerk.landsdraad.audits.correct_transfer(table.game_id, entry_id=entry, note="in round 3",
                                                                 round_number=3, actor=MOD)
    c = await errata.after_correction(table.game_id, entry_id=fixed.id)
    [r] = c.recounts  # round 3 had it with alice either way; round 1 closed before: neither is listed
    assert (r.round, r.posted, r.corrected) == (2, Tally(15, 14, 0), Tally(9, 18, 0))
    assert r.outcome_changed
    assert sorted((c.names[ch.user_id], ch.votes) for ch in r.changes) == [("alice", -6), ("bob", 4)]

    # corrected again: it went to carol (in round 3): round 3's tally changes and keeps its outcome
    again = await table.clerk.landsdraad.audits.correct_transfer(table.game_id, entry_id=fixed.id, note="to carol",
                                                                 to_user=CAROL, actor=MOD)
    c = await errata.after_correction(table.game_id, entry_id=again.id)
    assert [(r.round, r.corrected, r.outcome_changed) for r in c.recounts] == [
        (2, Tally(9, 18, 0), True), (3, Tally(16, 11, 0), False)]
    assert (await errata.recount(table.game_id, 1)).differs is False

    kinds = await table.kinds()
    assert kinds.count("RoundClosed") == 3 and "ErratumPosted" not in kinds  # telling rewrote and recorded nothing


async def test_a_cancelled_transfer_and_one_never_applied(table: Any) -> None:
    entry = await _game(table)
    audits = table.clerk.landsdraad.audits
    gone = await audits.correct_transfer(table.game_id, entry_id=entry, note="never happened", cancel=True, actor=MOD)
    c = await table.clerk.landsdraad.errata.after_correction(table.game_id, entry_id=gone.id)
    assert [(r.round, r.corrected, r.outcome_changed) for r in c.recounts] == [
        (2, Tally(9, 18, 0), True), (3, Tally(20, 7, 0), False)]

    money = await audits.record_transfer(table.game_id, user_id=CAROL, at=table.clock.now(), source_id=table.source(),
                                         command=parse_transfer("Transfer: 500 MS to bob"))
    fixed = await audits.correct_transfer(table.game_id, entry_id=money.id, note="700", what="700 MS", actor=MOD)
    c = await table.clerk.landsdraad.errata.after_correction(table.game_id, entry_id=fixed.id)
    assert c.recounts == () and c.never_applied and c.note is not None and "never applied" in c.note


async def test_the_erratum_links_the_original_card_and_is_recorded(table: Any) -> None:
    entry = await _game(table)
    c = table.clerk
    await c.announcements.remember_post(f"round:{table.game_id}:2", 901, 555)  # where Discord put round 2's card
    with pytest.raises(RuleError, match="comes out as posted"):
        await c.landsdraad.errata.post_erratum(table.game_id, number=2, actor=MOD)
    await c.landsdraad.audits.correct_transfer(table.game_id, entry_id=entry, note="in round 3", round_number=3,
                                               actor=MOD)
    e = await c.landsdraad.errata.post_erratum(table.game_id, number=2, actor=MOD, source_id="erratum-1")
    assert e.link == "https://discord.com/channels/900/901/555"
    payload = (await table.events())[-1].payload
    assert (await table.kinds())[-1] == "ErratumPosted"
    assert payload == {"round": 2, "posted": {"aye": 15, "nay": 14, "abstain": 0, "outcome": "passed"},
                       "corrected": {"aye": 9, "nay": 18, "abstain": 0, "outcome": "failed"},
                       "outcome_changed": True, "link": e.link,
                       # the corrected totals give every ballot away (issue 19's disclosure check, for errata too)
                       "disclosure": {"mode": "post", "setting": "post", "exposed": [["alice", "aye"], ["bob", "nay"],
                                                                                     ["carol", "nay"]],
                                      "ruled_out": [], "partial": False, "held": False}}
    with pytest.raises(RuleError, match="posted already"):
        await c.landsdraad.errata.post_erratum(table.game_id, number=2, actor=MOD)
    with pytest.raises(NotFoundError, match="has no round 7; an erratum corrects a closed round"):
        await c.landsdraad.errata.post_erratum(table.game_id, number=7, actor=MOD)
    out = await slash(c, MODERATOR, "round erratum", round=3)
    assert "comes out as posted" in text_of(out[0])
    # a moderator who changed the ledger without saying from when is told how a correction is made
    assert "`since:N` on /player set, /holding add or /holding remove makes it a correction" in text_of(out[0])


async def test_the_notice_goes_only_to_the_moderators_and_the_card_to_the_channel(table: Any) -> None:
    entry = await _game(table)
    c = table.clerk
    out = await slash(c, MODERATOR, "transfer correct", id=entry, note="it was round 3", round=3)
    private = [o for o in out if isinstance(o.to, (Here, ToThread))]
    assert len(private) == len(out)  # nothing to the game channel, no DM to a player
    assert all(o.ephemeral for o in out if isinstance(o.to, Here))
    notice = out[-1]
    assert isinstance(notice.to, ToThread) and notice.to.private
    assert "Round 2: posted Aye 15, Nay 14, Abstain 0 (passed); under the corrected ledger Aye 9, Nay 18" in notice.text
    assert "**the outcome changes**" in notice.text and "alice −6 (Aye)" in notice.text
    [button] = notice.buttons
    assert button.custom_id == f"clerk:erratum:{table.game_id}:2"

    player = Ctx(actor(ALICE, "alice"), Place(900, 901), "press-0", c.clock.now())
    refused = await handle_button(App(c), player, button.custom_id)
    assert "Only the moderators" in text_of(refused[0]) and (await table.kinds())[-1] != "ErratumPosted"
    pressed = await handle_button(App(c), Ctx(MODERATOR, Place(900, 901), "press-1", c.clock.now()),
                                  button.custom_id)
    [card] = [o for o in pressed if isinstance(o.to, ToChannel)]
    text = text_of(card)
    assert card.to == ToChannel(901) and "round 2: erratum" in text and "Aye: 9 (posted 15)" in text
    assert "would have FAILED, not passed" in text
    assert "alice" not in text and "bob" not in text and "Lankiveil" not in text  # totals only, as the result card
    assert "original result card (Clerk did not keep" in text  # no delivery in this test: no link known


async def test_ledger_edits_made_as_corrections(table: Any) -> None:
    await _game(table)
    ledger, errata = table.clerk.landsdraad.ledger, table.clerk.landsdraad.errata
    await ledger.set_player(table.game_id, user_id=BOB, misc=3, since=2, actor=MOD, source_id="set-1")
    c = await errata.after_edit(table.game_id, source_id="set-1")
    assert c is not None and c.subject == "The correction of bob (misc 3 from round 2)"
    assert [(r.round, r.corrected, r.outcome_changed) for r in c.recounts] == [
        (2, Tally(15, 17, 0), True), (3, Tally(25, 7, 0), False)]  # round 1 is before round 2: not asked
    await ledger.add_holding(table.game_id, user_id=CAROL, kind="elector", name="Count Jasek", grade="strong", votes=4,
                             homeworld=False, since=3, actor=MOD, source_id="add-1")
    c = await errata.after_edit(table.game_id, source_id="add-1")
    assert c is not None and [(r.round, r.corrected) for r in c.recounts] == [(3, Tally(25, 11, 0))]
    await ledger.remove_holding(table.game_id, user_id=CAROL, name="Count Jasek", actor=MOD, source_id="rm-1")
    assert await errata.after_edit(table.game_id, source_id="rm-1") is None  # an edit of the ledger as it is now

    with pytest.raises(RuleError, match=r"a round of sirius \(1 to 4\) \(the next round counts while none is open\), "
                                        "not 5"):  # round 3 closed: round 4, the next, counts (docs/rulings.md)
        await ledger.set_player(table.game_id, user_id=BOB, misc=1, since=5, actor=MOD)
    with pytest.raises(RuleError, match="leave out active"):
        await ledger.set_player(table.game_id, user_id=BOB, active=False, since=1, actor=MOD)
    out = await slash(table.clerk, MODERATOR, "player set", user=user(ALICE, "alice"), misc=2, since=1)
    notice = out[-1]
    assert isinstance(notice.to, ToThread) and "Round 1: posted Aye 9, Nay 18" in notice.text


@pytest.mark.parametrize("mode", ["coarsen", "hold"])
async def test_an_erratum_whose_totals_give_a_ballot_away_is_coarsened_and_the_moderators_warned(
        table: Any, mode: str) -> None:
    """Round 2 corrected is Aye 9 (alice alone), Nay 18 (bob's 7 and carol's 11): every ballot given away. Under
    ``coarsen`` (and ``hold``: nothing releases an erratum) the card has the outcome and the margin's band, no
    totals; the moderators alone are told who is exposed."""
    entry = await _game(table)
    c = table.clerk
    await c.settings.change_setting(table.game_id, name="disclosure", value=mode, actor=MOD)
    await c.landsdraad.audits.correct_transfer(table.game_id, entry_id=entry, note="in round 3", round_number=3,
                                               actor=MOD)
    out = await slash(c, MODERATOR, "round erratum", round=2)
    [card] = [o for o in out if isinstance(o.to, ToChannel)]
    text = text_of(card)
    assert "round 2: erratum" in text and "would have FAILED, not passed" in text and "Margin: wide" in text
    assert "Aye:" not in text and "18" not in text and "alice" not in text
    [warning] = [o for o in out if isinstance(o.to, ToThread)]
    assert warning.to.private
    assert ("give away how these players voted: alice (Aye), bob (Nay), carol (Nay)" in warning.text
            and "without the totals" in warning.text)
    assert (await table.events())[-1].payload["disclosure"]["exposed"][0] == ["alice", "aye"]


async def _erratum_posted_for_round_2(table: Any) -> tuple[Any, Any, Any]:
    """``_game``'s transfer corrected to round 3 (round 2 then comes out otherwise) and the erratum for round 2
    posted: the clerk, its errata service and the correcting entry."""
    entry = await _game(table)
    c = table.clerk
    errata = c.landsdraad.errata
    fixed = await c.landsdraad.audits.correct_transfer(table.game_id, entry_id=entry, note="in round 3",
                                                       round_number=3, actor=MOD)
    await errata.post_erratum(table.game_id, number=2, actor=MOD, source_id="erratum-1")
    return c, errata, fixed


async def test_a_correction_undone_after_its_erratum_is_told_and_the_erratum_withdrawn(table: Any) -> None:
    """docs/rulings.md: the players last read the erratum; when a later correction makes the round come out as first
    posted again, the moderators are told the erratum no longer holds and may post one that withdraws it."""
    c, errata, fixed = await _erratum_posted_for_round_2(table)
    assert not (await errata.recount(table.game_id, 2)).stale  # the erratum says what the round comes out as

    # the first record was right after all: the transfer was made in round 2
    out = await slash(c, MODERATOR, "transfer correct", id=fixed.id, note="round 2 after all", round=2)
    notice = out[-1]
    assert isinstance(notice.to, ToThread) and notice.to.private
    assert ("Round 2: posted Aye 15, Nay 14, Abstain 0 (passed); the erratum posted for it said Aye 9, Nay 18, "
            "Abstain 0 (failed); under the corrected ledger it comes out as posted again: **the erratum no longer "
            "holds**.") in notice.text
    [button] = notice.buttons
    assert button.custom_id == f"clerk:erratum:{table.game_id}:2"
    r = await errata.recount(table.game_id, 2)
    assert (r.posted, r.stated, r.corrected) == (Tally(15, 14, 0), Tally(9, 18, 0), Tally(15, 14, 0))
    assert r.restores and r.stale and not r.differs

    pressed = await handle_button(App(c), Ctx(MODERATOR, Place(900, 901), "press-2", c.clock.now()),
                                  button.custom_id)
    [card] = [o for o in pressed if isinstance(o.to, ToChannel)]
    text = text_of(card)
    assert "round 2: erratum withdrawn" in text and "no longer holds" in text and "The measure passed" in text
    assert "Aye: 15 (as posted; the erratum said 9)" in text and "Nay: 14 (as posted; the erratum said 18)" in text
    payload = (await table.events())[-1].payload
    assert payload["restores"] is True and payload["stated"] == {"aye": 9, "nay": 18, "abstain": 0,
                                                                  "outcome": "failed"}
    assert payload["corrected"] == payload["posted"]
    with pytest.raises(RuleError, match="posted already"):  # the round now stands as the players last read it
        await errata.post_erratum(table.game_id, number=2, actor=MOD)
    again = await errata.after_correction(table.game_id, entry_id=fixed.id)
    assert again.recounts == ()  # nothing is owed any more


async def test_an_erratum_after_an_erratum_replaces_it(table: Any) -> None:
    c, errata, fixed = await _erratum_posted_for_round_2(table)
    await c.landsdraad.audits.correct_transfer(table.game_id, entry_id=fixed.id, note="to carol", to_user=CAROL,
                                               actor=MOD)
    # round 2 still comes out as the erratum said (bob kept it in round 2 either way): nothing is owed for it
    assert not (await errata.recount(table.game_id, 2)).stale
    with pytest.raises(RuleError, match="posted already"):
        await errata.post_erratum(table.game_id, number=2, actor=MOD)
    e = await errata.post_erratum(table.game_id, number=3, actor=MOD, source_id="erratum-2")
    assert e.recount.stated is None  # round 3 had no erratum: an ordinary one
    from bot.actions.landsdraad.errata import erratum_card
    assert "replaces" not in text_of_card(erratum_card(e))


def text_of_card(card: Any) -> str:
    return " ".join([card.title, card.description, *(f"{n}: {v}" for n, v, _ in card.fields), card.footer or ""])


async def test_a_holding_removed_without_since_keeps_the_correction_in_the_rounds_closed_before(table: Any) -> None:
    """docs/rulings.md (R0-04, R0-06, R0-15): a removal without ``since`` changes the ledger from then on; the closes
    before it read the holding where the corrected transfer puts it, worth what it was worth when moved (a rich planet),
    so removing it, or adding another holding of that name, changes no recount of them (tests/transcripts/erratum)."""
    entry = await _game(table)
    c = table.clerk
    errata, ledger = c.landsdraad.errata, c.landsdraad.ledger
    fixed = await c.landsdraad.audits.correct_transfer(table.game_id, entry_id=entry, note="to carol", to_user=CAROL,
                                                       actor=MOD)
    expected = [(2, Tally(9, 18, 0), True), (3, Tally(16, 11, 0), False)]

    async def recounts() -> list[tuple[int, Tally, bool]]:
        told = await errata.after_correction(table.game_id, entry_id=fixed.id)
        assert [(r.round, r.corrected, r.outcome_changed) for r in told.recounts] == [
            (r.round, r.corrected, r.outcome_changed) for r in [await errata.recount(table.game_id, n) for n in (2, 3)]]
        return [(r.round, r.corrected, r.outcome_changed) for r in told.recounts]

    assert await recounts() == expected
    await ledger.remove_holding(table.game_id, user_id=ALICE, name="Lankiveil", actor=MOD, source_id="rm-1")
    assert await errata.after_edit(table.game_id, source_id="rm-1") is None  # from now on: no correction itself
    assert await recounts() == expected  # Lankiveil is out of the ledger: round 2 still had it, with carol
    why = await c.landsdraad.explain.votes(table.game_id, ALICE, 2)
    assert why.value == 15 and "round 2 counts alice's votes as 9, not the 15 its close read" in str(why.steps)

    await table.planet(BOB, "Lankiveil", "poor")  # another Lankiveil now: not the rich one rounds 2 and 3 read
    assert await recounts() == expected
    await ledger.remove_holding(table.game_id, user_id=BOB, name="Lankiveil", actor=MOD)
    await ledger.add_holding(table.game_id, user_id=BOB, kind="elector", name="Lankiveil", grade="weak", votes=1,
                             homeworld=False, actor=MOD)
    assert await recounts() == expected  # nor an Elector of that name: the transfer moved a planet
    posted = await errata.post_erratum(table.game_id, number=2, actor=MOD)
    assert posted.recount.corrected == Tally(9, 18, 0)


async def test_a_corrected_transfer_moved_by_hand_with_since_is_not_counted_twice(table: Any) -> None:
    """docs/rulings.md: after ``/transfer correct`` (recorded only: the ledger still has Lankiveil with alice), the
    moderator moves it by hand with ``since:2``, as the notice suggests. Those edits say where Lankiveil was in rounds
    2 and 3, and count their own change there; the corrected transfer's move is not counted on top (alice 3, carol 15
    before). Round 2: alice 15 - 6 = 9 (Aye), carol 7 + 4 = 11 (Nay), as the correction alone gives."""
    entry = await _game(table)
    c = table.clerk
    errata, ledger = c.landsdraad.errata, c.landsdraad.ledger
    await c.landsdraad.audits.correct_transfer(table.game_id, entry_id=entry, note="to carol", to_user=CAROL,
                                               actor=MOD)
    by_transfer = [(await errata.recount(table.game_id, n)).corrected for n in (2, 3)]
    assert by_transfer == [Tally(9, 18, 0), Tally(16, 11, 0)]
    await ledger.remove_holding(table.game_id, user_id=ALICE, name="Lankiveil", since=2, actor=MOD)
    # said so far: alice did not hold it from round 2 on; who did is not said yet
    assert [(await errata.recount(table.game_id, n)).corrected for n in (2, 3)] == [Tally(9, 14, 0), Tally(16, 7, 0)]
    await ledger.add_holding(table.game_id, user_id=CAROL, kind="planet", name="Lankiveil", grade="rich", votes=None,
                             homeworld=False, since=2, actor=MOD, source_id="add-1")
    assert [(await errata.recount(table.game_id, n)).corrected for n in (2, 3)] == by_transfer
    told = await errata.after_edit(table.game_id, source_id="add-1")
    assert told is not None and [(r.round, r.corrected) for r in told.recounts] == [(2, Tally(9, 18, 0)),
                                                                                   (3, Tally(16, 11, 0))]
    assert (await c.landsdraad.explain.votes(table.game_id, ALICE, 2)).value == 15
    assert "counts alice's votes as 9, not the 15" in str((await c.landsdraad.explain.votes(table.game_id, ALICE,
                                                                                            2)).steps)
