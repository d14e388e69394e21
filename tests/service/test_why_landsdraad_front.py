"""``/why`` in a Landsdraad game and **Explain this** on its result card, through the front against a real Clerk:
a player sees their own ballot and votes, never another's, and is told what was withheld; a moderator sees every
step with the rules' ids; an ended game still answers; bad asks say what is accepted."""

from __future__ import annotations

from conftest import Table
from ledger_front import CHANNEL, GUILD, MODERATOR, actor, only_here, slash, user

from bot.actions.commands import App, dispatch
from bot.actions.context import Ctx, Place
from bot.actions.message_commands import TargetMessage, handle_message_command, message_command_names
from engine.service.announcements import posted_marker

ALICE, BOB = actor(10, "alice"), actor(11, "bob")


async def closed_round(table: Table) -> None:
    """alice (D 3, 12 votes with her strong Elector) Aye, bob (D 2, 7 votes) Nay, the Hawks 5 Aye; round 1 closed
    by the moderator."""
    await table.player(ALICE.id, "alice", 3, 2, 2)
    await table.player(BOB.id, "bob", 2, 2, 2)
    await table.elector(ALICE.id, "Count Jasek", "strong", 1)
    await table.open()
    await table.faction("Hawks", 5, "aye")
    await table.vote(ALICE.id, "Vote: Aye")
    await table.vote(BOB.id, "Vote: Nay")
    await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=MODERATOR.id)  # no card drawn


async def test_a_player_sees_their_own_ballot_not_anothers_and_is_told_what_was_withheld(table: Table) -> None:
    await closed_round(table)
    mine = only_here(await slash(table.clerk, ALICE, "why", round=1))
    assert "Round 1 of sirius: the result**: passed, Aye 17, Nay 7" in mine
    assert "alice: 12 votes, all for Aye" in mine and "bob" not in mine and "R0-" not in mine
    assert "Hawks (5 votes) votes Aye" in mine and "Aye: Hawks 5 + the players 12 = 17" in mine
    assert "steps withheld" in mine
    mod = only_here(await slash(table.clerk, MODERATOR, "why", round=1))
    assert "bob: 7 votes, all for Nay" in mod and "alice: 12 votes" in mod and "(R0-18)" in mod
    assert "withheld" not in mod and "read #" in mod


async def test_votes_are_their_players_and_the_moderators_only(table: Table) -> None:
    await closed_round(table)
    own = only_here(await slash(table.clerk, ALICE, "why", what="votes"))
    assert "alice's votes in sirius**: 12 votes" in own
    assert "Count Jasek (strong Elector): 1 votes; Diplomacy 3 ≥ 3: +2" in own
    refused = only_here(await slash(table.clerk, ALICE, "why", what="votes", player=user(BOB.id, "bob")))
    assert "A player's votes are private" in refused and "7 votes" not in refused
    at_close = only_here(await slash(table.clerk, MODERATOR, "why", what="votes", round=1,
                                     player=user(BOB.id, "bob")))
    assert "Round 1 closed and read bob's votes: 7" in at_close and "Rebuilt from the ledger's events" in at_close
    assert "may have changed since" not in at_close
    await slash(table.clerk, MODERATOR, "player set", user=user(BOB.id, "bob"), diplomacy=3)
    changed = only_here(await slash(table.clerk, MODERATOR, "why", what="votes", round=1,
                                    player=user(BOB.id, "bob")))
    assert "may have changed since" in changed and "2 × highest Diplomacy 2 + highest Intrigue 2" in changed


async def test_bad_asks_say_what_is_accepted_and_an_ended_game_still_answers(table: Table) -> None:
    await table.player(ALICE.id, "alice", 3, 2, 2)
    early = only_here(await slash(table.clerk, ALICE, "why"))
    assert "No round of sirius has closed yet" in early
    await table.open()
    assert "has not closed yet" in only_here(await slash(table.clerk, ALICE, "why", round=1))
    assert "has no round 7" in only_here(await slash(table.clerk, ALICE, "why", round=7))
    unknown = only_here(await slash(table.clerk, ALICE, "why", what="weather"))
    assert "cannot explain “weather”" in unknown and "`result`" in unknown and "`audit`" in unknown
    assert "No audit was done" in only_here(await slash(table.clerk, ALICE, "why", what="audit"))
    await table.vote(ALICE.id, "Vote: Nay")
    await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=MODERATOR.id)  # no card drawn
    await table.clerk.landsdraad.victory.end_game(table.game_id, actor=MODERATOR.id, confirm=True)
    assert (await table.clerk.games.game(table.game_id)).ended_at is not None
    after = only_here(await slash(table.clerk, ALICE, "why", round=1))
    assert "failed, Aye 0, Nay 9" in after and "alice: 9 votes, all for Nay" in after


async def test_a_score_before_the_end_is_its_players_and_after_it_anyones(table: Table) -> None:
    await closed_round(table)
    own = only_here(await slash(table.clerk, ALICE, "why", what="score"))
    assert "alice's score if the game ended now in sirius" in own and "alice's 12 of 19 in play" in own
    refused = only_here(await slash(table.clerk, ALICE, "why", what="score", player=user(BOB.id, "bob")))
    assert "Until the game is scored" in refused and "VP" not in refused
    await table.clerk.landsdraad.victory.end_game(table.game_id, actor=MODERATOR.id, confirm=True)
    final = only_here(await slash(table.clerk, ALICE, "why", what="score", player=user(BOB.id, "bob")))
    assert "bob's final score in sirius" in final and "bob's 7" not in final and "withheld" in final
    ctx = Ctx(ALICE, Place(GUILD, CHANNEL), "slash-why-name", table.clock.now())  # slash() takes its own `name`
    bad = only_here(await dispatch(App(table.clerk), ctx, "why", {"what": "score", "name": "weather"}))
    assert "neither a category nor an award" in bad


async def test_explain_this_on_the_result_card_answers_as_why_does(table: Table) -> None:
    await closed_round(table)
    app = App(table.clerk)
    assert "Explain this" in message_command_names(app)
    await table.clerk.announcements.mark_posted(posted_marker("round", table.game_id, 1), 4242)
    ctx = Ctx(ALICE, Place(GUILD, CHANNEL), "int:1", table.clock.now())
    out = await handle_message_command(app, ctx, "Explain this", TargetMessage(4242, 99, "Clerk", True, ""))
    assert only_here(out) == only_here(await slash(table.clerk, ALICE, "why", round=1))
    assert all(o.ephemeral for o in out)
    other = await handle_message_command(app, ctx, "Explain this", TargetMessage(4243, 99, "Clerk", True, "hi"))
    assert "I cannot tell which result that message announced" in only_here(other) and "`votes`" in only_here(other)


async def test_a_fall_in_play_says_how_a_mistaken_score_is_corrected(table: Table) -> None:
    """docs/rulings.md: a moderator who lowers a score in play is told the base keeps the highest held (P0-02) and,
    since a typo is not a fall, how to correct one: the score again with `since:` (play-test L4)."""
    await table.player(ALICE.id, "alice", 3, 2, 2)  # d3 1: base 9
    await table.open()
    alice = user(ALICE.id, "alice")
    await slash(table.clerk, MODERATOR, "player set", user=alice, diplomacy=5)
    fell = only_here(await slash(table.clerk, MODERATOR, "player set", user=alice, diplomacy=3))
    assert "base 13" in fell and "the highest Diplomacy 5 held in play, which a fall does not lower" in fell
    assert "If that was a mistake, set the score again with `since:`" in fell
    fixed = only_here(await slash(table.clerk, MODERATOR, "player set", user=alice, diplomacy=3, since=1))
    assert "Votes 9 = base 9" in fixed and "If that was a mistake" not in fixed
