"""A DM that fits several of the player's games (issue 7), through the platform-neutral front end: it is kept and
answered with a menu of those games; a choice runs it for that game under the DM's own source id, received when
chosen; it counts once (a second choice, of the same game or another, changes nothing); refusals say why."""

from __future__ import annotations

from datetime import timedelta

from conftest import Table
from ledger_front import MOD, actor, dm

from bot.actions.commands import App, dispatch
from bot.actions.context import Actor, Ctx, Place
from bot.actions.dm_choice import with_game
from bot.actions.messages import handle_select
from bot.actions.outbox import LIVE, SETTLED, Here, Outgoing, Select
from engine.service.views import GameView

ALICE = actor(10, "alice")


async def two_games(table: Table, *, arrakis_deadline: timedelta | None = None) -> GameView:
    """sirius and arrakis, alice in both, a round open in each."""
    await table.player(ALICE.id, "alice", 3, 2, 1)
    arrakis = await table.clerk.games.create_game(guild_id=900, channel_id=902, name="arrakis", ruleset="landsdraad",
                                                  moderator_role_id=None, actor=MOD)
    await table.clerk.landsdraad.ledger.add_player(arrakis.id, user_id=ALICE.id, name="alice", diplomacy=1,
                                                   command=1, intrigue=1, roll=1, faction=None, actor=MOD)
    await table.open()
    await table.clerk.landsdraad.rounds.open_round(
        arrakis.id, crisis="Spice quotas", actor=MOD,
        deadline=table.clock.now() + arrakis_deadline if arrakis_deadline else None)
    return arrakis


def menu_of(out: list[Outgoing]) -> Select:
    (answer,) = out
    assert isinstance(answer.to, Here) and answer.select is not None
    return answer.select


async def choose(table: Table, menu: Select, value: str, who: Actor = ALICE) -> Outgoing:
    ctx = Ctx(who, Place(None, None), f"int-{table.source()}", table.clock.now())
    (answer,) = await handle_select(App(table.clerk), ctx, menu.custom_id, (value,))
    assert isinstance(answer.to, Here) and not answer.ephemeral  # in a DM: a message that stays
    return answer


async def ballots(table: Table, game_id: int) -> list[dict[str, object]]:
    return [e for e in (await table.clerk.exports.export(game_id))["events"] if e["kind"] == "BallotCast"]


async def test_the_menu_lists_the_games_and_a_choice_casts_there_once(table: Table) -> None:
    arrakis = await two_games(table)
    out = await dm(table.clerk, ALICE, "Vote: Nay, 3", source_id="msg:77")
    assert "You play in several games (#sirius, #arrakis); say which, e.g. `Vote: Nay, 3 #sirius`" in out[0].text
    assert "choose its game in the menu below" in out[0].text and "Nothing was recorded yet" in out[0].text
    menu = menu_of(out)
    assert [(o.label, o.value) for o in menu.options] == [("#sirius (Landsdraad)", str(table.game_id)),
                                                           ("#arrakis (Landsdraad)", str(arrakis.id))]
    assert menu.option("#ARRAKIS") == menu.options[1] and menu.option("#dune") is None
    assert await ballots(table, table.game_id) == [] and await ballots(table, arrakis.id) == []

    table.clock.advance(timedelta(minutes=5))
    receipt = await choose(table, menu, str(arrakis.id))
    assert "Ballot recorded for round 1 of arrakis: **Nay**" in receipt.text and receipt.extra.get(SETTLED)
    (cast,) = await ballots(table, arrakis.id)
    assert cast["payload"]["received_at"] == table.clock.now().isoformat()  # type: ignore[index]
    assert await table.clerk.pending_dms.recorded_in("msg:77") == arrakis.id  # under the DM's own source id

    same = await choose(table, menu, str(arrakis.id))
    assert "already counted in #arrakis; it counts once, nothing was changed" in same.text
    other = await choose(table, menu, str(table.game_id))
    assert "already counted in #arrakis; one message counts in one game" in other.text
    assert "send it again ending with `#sirius`" in other.text and other.extra.get(SETTLED)
    assert len(await ballots(table, arrakis.id)) == 1 and await ballots(table, table.game_id) == []

    again = await dm(table.clerk, ALICE, "Vote: Nay, 3", source_id="msg:77")  # the DM itself redelivered
    assert "already counted in #arrakis" in again[0].text and again[0].select is None


async def test_a_choice_after_the_deadline_is_refused_and_another_game_may_still_take_it(table: Table) -> None:
    arrakis = await two_games(table, arrakis_deadline=timedelta(hours=1))
    menu = menu_of(await dm(table.clerk, ALICE, "Vote: Aye", source_id="msg:5"))
    assert menu_of(await dm(table.clerk, ALICE, "Vote: Aye", source_id="msg:5")) == menu  # kept once
    table.clock.advance(timedelta(hours=1, seconds=1))
    late = await choose(table, menu, str(arrakis.id))
    assert "deadline" in late.text and "Nothing was recorded" in late.text and late.extra.get(LIVE)
    fine = await choose(table, menu, str(table.game_id))
    assert "Ballot recorded for round 1 of sirius: **Aye**" in fine.text and fine.extra.get(SETTLED)


async def test_choices_that_are_refused(table: Table) -> None:
    await two_games(table)
    menu = menu_of(await dm(table.clerk, ALICE, "Vote: Aye", source_id="msg:9"))
    stranger = await choose(table, menu, str(table.game_id), actor(11, "bob"))
    assert "another player's message" in stranger.text and "nothing was recorded" in stranger.text
    wrong = await choose(table, menu, "99999")
    assert "not one of your games" in wrong.text and "#sirius, #arrakis" in wrong.text and wrong.extra.get(LIVE)
    gone = await choose(table, Select("clerk-menu:dm:4242", menu.options), str(table.game_id))
    assert "no longer have" in gone.text and "`#game`" in gone.text
    unknown = await handle_select(App(table.clerk), Ctx(ALICE, Place(None, None), "i", table.clock.now()),
                                  "clerk-menu:other:1", ("1",))
    assert "no longer in use" in unknown[0].text
    assert await ballots(table, table.game_id) == []


async def test_other_dm_forms_get_the_menu_and_slash_commands_keep_the_text(table: Table) -> None:
    await two_games(table)
    table.clock.advance(timedelta(minutes=1))
    out = await dm(table.clerk, ALICE, "Transfer: 5 MS to nobody")
    menu = menu_of(out)
    answer = await choose(table, menu, str(table.game_id))
    assert "nobody" in answer.text and "Nothing was recorded" in answer.text and answer.extra.get(LIVE)
    # a form for something open that none of the games has open: answered at once, no menu (the Landsdraad
    # play-test's "Not fixed" note)
    (none,) = await dm(table.clerk, ALICE, "AG Vote: alice")
    assert none.select is None and none.text.startswith(
        "None of your games can take that now: in #sirius and #arrakis no Adjutant General election is open.")
    slash = await dispatch(App(table.clerk), Ctx(ALICE, Place(None, None), "s-1", table.clock.now()), "vote",
                           {"choice": "aye"})
    assert "You play in several games" in slash[0].text and slash[0].select is None


def test_the_game_goes_at_the_end_of_the_first_line() -> None:
    assert with_game("Vote: Aye, 14", "sirius") == "Vote: Aye, 14 #sirius"
    assert with_game("  Transfer: 5 MS to Bob \nfor the fleet", "arrakis") == (
        "Transfer: 5 MS to Bob #arrakis\nfor the fleet")
