"""Embargoes, kanly and the forces en route (R0-44, R0-60, P0-11), and finding players by name, through the
service and the front end. Runs on SQLite, and on PostgreSQL when TEST_POSTGRES_URL is set."""

from __future__ import annotations

from typing import Any

import pytest
from ledger_front import MODERATOR, actor, dms, public, slash, text_of, user
from sqlalchemy import select

from bot.actions.outbox import Here
from engine.core.errors import RuleError
from engine.service.landsdraad.registries import end_embargo, end_kanly, resolve_embargo_target, resolve_kanly
from engine.service.ledger import load_game
from engine.service.names import find_player_by_name
from engine.store.models.landsdraad import EmbargoRow, KanlyRow, TransitRow

P, Q, R = 201, 202, 203
MOD = 1


async def _three(table: Any) -> None:
    await table.player(P, "paul", 3, 2, 2, faction="House Atreides")
    await table.player(Q, "feyd", 3, 2, 2, faction="House Harkonnen")
    await table.player(R, "rabban", 2, 2, 2)


async def _rows(table: Any, model: Any) -> list[Any]:
    async with table.clerk._read() as session:
        return list((await session.execute(select(model).order_by(model.id))).scalars())


async def test_TV0_I16_end_kanly_refunds_half_the_guild_fee_and_removes_embargoes_between_them(table: Any) -> None:
    """TV0-I16 / R0-60: "Any forces or assassins in bound to attack their kanly rival by either player are returned
    home at the beginning of the next round, and half the Guild Transport Fee is returned [...] if either player is
    involved in an Embargo on the other, they are removed." P0-11: floor(125/2) = 62."""
    await _three(table)
    c = table.clerk
    await c.landsdraad.registries.add_kanly(table.game_id, p_user=P, q_user=Q, actor=MOD)
    await c.landsdraad.registries.add_transit(table.game_id, owner_user=P, target_user=Q, fee=750,
                                              what="3 legions", actor=MOD)
    await c.landsdraad.registries.add_transit(table.game_id, owner_user=Q, target_user=P, fee=125,
                                              what="an assassin", actor=MOD)
    await c.landsdraad.registries.add_embargo(table.game_id, by_user=P, on_user=Q, actor=MOD)
    await c.landsdraad.registries.add_embargo(table.game_id, by_user=R, on_user=Q, actor=MOD)

    async with c._write(table.game_id) as uow:
        game = await load_game(uow.session, table.game_id)
        pair = await resolve_kanly(uow.session, game, ())
        ended = await end_kanly(uow, game, pair)

    assert ended.names == ("paul", "feyd")
    assert ended.refunds == {"paul": 375, "feyd": 62}
    assert ended.embargoes_removed == ["paul's embargo on feyd"]
    assert ended.returning == ("paul's 3 legions bound for feyd, Guild fee 750 MS",
                               "feyd's an assassin bound for paul, Guild fee 125 MS")
    registries = await c.landsdraad.registries.registries(table.game_id)
    assert [e.line for e in registries.embargoes] == ["rabban's embargo on feyd"]
    assert registries.kanly == ()
    assert [t.returned for t in await _rows(table, TransitRow)] == [True, True]
    assert await _rows(table, KanlyRow) == []
    export = await c.exports.export(table.game_id, include_events=False)
    assert export["kanly"] == [] and [e["by"] for e in export["embargoes"]] == ["rabban"]
    assert [(t["owner"], t["fee"], t["returned"]) for t in export["kanly_transit"]] == [
        ("paul", 750, True), ("feyd", 125, True)]


async def test_end_kanly_refunds_only_forces_still_en_route_between_the_two(table: Any) -> None:
    """Only forces bound against the rival and still en route are refunded (arrived ones are gone from the list)."""
    await _three(table)
    c = table.clerk
    await c.landsdraad.registries.add_kanly(table.game_id, p_user=P, q_user=Q, actor=MOD)
    await c.landsdraad.registries.add_kanly(table.game_id, p_user=P, q_user=R, actor=MOD)
    await c.landsdraad.registries.add_transit(table.game_id, owner_user=P, target_user=Q, fee=1001, actor=MOD)
    arrived = await c.landsdraad.registries.add_transit(table.game_id, owner_user=P, target_user=Q, fee=400, actor=MOD)
    await c.landsdraad.registries.add_transit(table.game_id, owner_user=P, target_user=R, fee=600, actor=MOD)
    assert arrived.id is not None
    await c.landsdraad.registries.transit_arrived(table.game_id, transit_id=arrived.id, actor=MOD)

    async with c._write(table.game_id) as uow:
        game = await load_game(uow.session, table.game_id)
        ended = await end_kanly(uow, game, await resolve_kanly(uow.session, game, ("Feyd", "PAUL")))
    assert ended.refunds == {"paul": 500, "feyd": 0}
    [left] = (await c.landsdraad.registries.registries(table.game_id)).kanly
    assert (left.first, left.second, [t.fee for t in left.transit]) == ("paul", "rabban", [600])


async def test_resolve_kanly_needs_names_when_there_are_several_and_refuses_a_pair_not_in_kanly(table: Any) -> None:
    await _three(table)
    c = table.clerk
    async with c._read() as session:
        game = await load_game(session, table.game_id)
        with pytest.raises(RuleError, match="There is no kanly in sirius"):
            await resolve_kanly(session, game, ())
    await c.landsdraad.registries.add_kanly(table.game_id, p_user=Q, q_user=P, actor=MOD)
    await c.landsdraad.registries.add_kanly(table.game_id, p_user=R, q_user=Q, actor=MOD)
    async with c._read() as session:
        game = await load_game(session, table.game_id)
        ids = {p.name: p.id for p in await c.landsdraad.ledger.players(table.game_id)}
        with pytest.raises(RuleError, match=r"several kanly: name the two players .*paul and feyd; feyd and rabban"):
            await resolve_kanly(session, game, ())
        assert await resolve_kanly(session, game, ("House Harkonnen", "paul")) == (ids["paul"], ids["feyd"])
        assert await resolve_kanly(session, game, ("paul",)) == (ids["paul"], ids["feyd"])
        with pytest.raises(RuleError, match="There is no kanly between paul and rabban"):
            await resolve_kanly(session, game, ("paul", "rabban"))
        with pytest.raises(RuleError, match="feyd is in kanly with several players"):
            await resolve_kanly(session, game, ("feyd",))


async def test_resolve_embargo_target_and_end_embargo(table: Any) -> None:
    """R0-44: `Vote: End Embargo`, or `Vote: End Embargo on Name` if there's more than one."""
    await _three(table)
    c = table.clerk
    async with c._read() as session:
        game = await load_game(session, table.game_id)
        with pytest.raises(RuleError, match="There is no embargo in sirius"):
            await resolve_embargo_target(session, game, None)
    await c.landsdraad.registries.add_embargo(table.game_id, by_user=P, on_user=Q, actor=MOD)
    await c.landsdraad.registries.add_embargo(table.game_id, by_user=R, on_user=Q, actor=MOD)
    ids = {p.name: p.id for p in await c.landsdraad.ledger.players(table.game_id)}
    async with c._read() as session:
        game = await load_game(session, table.game_id)
        assert await resolve_embargo_target(session, game, None) == ids["feyd"]  # two embargoes, one target
    await c.landsdraad.registries.add_embargo(table.game_id, by_user=Q, on_user=R, actor=MOD)
    async with c._read() as session:
        game = await load_game(session, table.game_id)
        with pytest.raises(RuleError, match=r"(?i)there are several embargoes: name the player \(Vote: End Embargo "
                                            r"on <Name>\)"):
            await resolve_embargo_target(session, game, None)
        assert await resolve_embargo_target(session, game, f"<@{Q}>") == ids["feyd"]
        assert await resolve_embargo_target(session, game, "harkonnen") == ids["feyd"]
        with pytest.raises(RuleError, match="There is no embargo on paul"):
            await resolve_embargo_target(session, game, "Paul")
    async with c._write(table.game_id) as uow:
        removed = await end_embargo(uow, await load_game(uow.session, table.game_id), ids["feyd"])
    assert removed == ["paul's embargo on feyd", "rabban's embargo on feyd"]
    assert [e.line for e in (await c.landsdraad.registries.registries(
        table.game_id)).embargoes] == ["feyd's embargo on rabban"]


async def test_moderator_registry_changes_are_checked_and_logged(table: Any) -> None:
    await _three(table)
    c = table.clerk
    with pytest.raises(RuleError, match="cannot embargo themselves"):
        await c.landsdraad.registries.add_embargo(table.game_id, by_user=P, on_user=P, actor=MOD)
    await c.landsdraad.registries.add_embargo(table.game_id, by_user=P, on_user=Q, actor=MOD)
    with pytest.raises(RuleError, match="already has an embargo on feyd"):
        await c.landsdraad.registries.add_embargo(table.game_id, by_user=P, on_user=Q, actor=MOD)
    with pytest.raises(RuleError, match=r"feyd has no embargo on paul\. Embargoes: paul's embargo on feyd"):
        await c.landsdraad.registries.remove_embargo(table.game_id, by_user=Q, on_user=P, actor=MOD)
    await c.landsdraad.registries.remove_embargo(table.game_id, by_user=P, on_user=Q, actor=MOD)
    with pytest.raises(RuleError, match="not in kanly"):
        await c.landsdraad.registries.add_transit(table.game_id, owner_user=P, target_user=Q, fee=100, what=None,
                                                  actor=MOD)
    await c.landsdraad.registries.add_kanly(table.game_id, p_user=P, q_user=Q, actor=MOD)
    with pytest.raises(RuleError, match="already in kanly"):
        await c.landsdraad.registries.add_kanly(table.game_id, p_user=Q, q_user=P, actor=MOD)
    await c.landsdraad.registries.add_transit(table.game_id, owner_user=P, target_user=Q, fee=100, what=None, actor=MOD)
    removed = await c.landsdraad.registries.remove_kanly(table.game_id, p_user=Q, q_user=P, actor=MOD)
    assert "no refund" in removed.text
    assert removed.lines == ("No longer tracked: #1: paul's forces bound for feyd, Guild fee 100 MS",)
    assert await _rows(table, TransitRow) == [] and await _rows(table, EmbargoRow) == []
    with pytest.raises(RuleError, match="no forces en route with number #1"):
        await c.landsdraad.registries.transit_arrived(table.game_id, transit_id=1, actor=MOD)
    assert [k for k in await table.kinds() if k != "PlayerAdded"] == [
        "GameCreated", "EmbargoAdded", "EmbargoRemoved", "KanlyAdded", "KanlyTransitAdded", "KanlyRemoved"]


async def test_find_player_by_name_mention_faction_prefix_and_errors(table: Any) -> None:
    """Names resolve by name, faction (with or without `House`), mention or a clear prefix, ignoring case; an
    unknown or ambiguous name lists the active players."""
    await _three(table)
    await table.player(204, "Paulina", 1, 1, 1)
    await table.player(205, "ghost", 1, 1, 1)
    await table.clerk.landsdraad.ledger.set_player(table.game_id, user_id=205, active=False, actor=MOD)
    async with table.clerk._read() as session:
        game = await load_game(session, table.game_id)

        async def name(text: str) -> str:
            return (await find_player_by_name(session, game, text)).name

        assert await name("PAUL") == "paul"  # an exact name beats a longer one it starts
        assert await name(" house  atreides ") == "paul"
        assert await name("Harkonnen") == "feyd"
        assert await name(f"<@{R}>") == await name(f"<@!{R}>") == await name("@rabban") == "rabban"
        assert await name("rab") == "rabban"
        with pytest.raises(RuleError) as unknown:
            await name("Gurney")
        assert str(unknown.value) == ("No player in sirius is called “Gurney”. Players: paul (House Atreides), "
                                      "feyd (House Harkonnen), rabban, Paulina.")
        with pytest.raises(RuleError, match="Did you mean feyd"):
            await name("fyed")
        with pytest.raises(RuleError, match="“pau” could be paul \\(House Atreides\\), Paulina"):
            await name("pau")
        with pytest.raises(RuleError, match="not a player in sirius"):
            await name("<@999>")


# -- the front end ------------------------------------------------------------------------------------------

async def test_registry_commands_are_for_moderators_and_the_lists_are_public(table: Any) -> None:
    await _three(table)
    c = table.clerk
    paul = actor(P, "paul")
    [refused] = await slash(c, paul, "embargo add", by=user(P, "paul"), on=user(Q, "feyd"))
    assert refused.ephemeral and "Only the moderators" in refused.text

    [added] = await slash(c, MODERATOR, "embargo add", by=user(P, "paul"), on=user(Q, "feyd"))
    assert public([added]) and added.text == "Recorded paul's embargo on feyd."
    await slash(c, MODERATOR, "kanly add", p=user(P, "paul"), q=user(Q, "feyd"))
    [secret] = await slash(c, MODERATOR, "kanly transit", owner=user(P, "paul"), target=user(Q, "feyd"), fee=750,
                           what="3 legions")
    assert secret.ephemeral and "750 MS" in secret.text

    [listing] = await slash(c, paul, "embargo list")
    assert public([listing]) and "paul's embargo on feyd" in text_of(listing)
    player_view = await slash(c, paul, "kanly list")
    assert len(player_view) == 1 and public(player_view)
    assert "paul and feyd" in text_of(player_view[0]) and "legions" not in text_of(player_view[0])
    mod_view = await slash(c, MODERATOR, "kanly list")
    assert [isinstance(o.to, Here) for o in mod_view] == [True, True]
    assert [o.ephemeral for o in mod_view] == [False, True]
    assert "paul's 3 legions bound for feyd, Guild fee 750 MS" in text_of(mod_view[1])
    assert dms(mod_view) == {}


async def test_a_name_kept_with_markdown_is_found_as_typed_or_as_shown(table: Any) -> None:
    """Play-test P4.2: a player whose name has markdown (kept so before names were kept without it, or given by a
    front end that does not take it out) is found by what a player types, whose markdown the front door takes out
    (``**Result: PASSED**`` reads ``Result: PASSED``), and by the name as it shows; so are ``[Vote here](...)``,
    ``# PASSED`` and a leading ``@``."""
    await table.player(P, "**Result: PASSED**", 3, 2, 2)
    await table.player(Q, "[Vote here](http://ev.il)", 3, 2, 2, faction="-# tiny")
    await table.player(R, "# PASSED", 2, 2, 2)
    async with table.clerk._read() as session:
        game = await load_game(session, table.game_id)

        async def user(text: str) -> int:
            return (await find_player_by_name(session, game, text)).user_id

        assert await user("Result: PASSED") == await user("**Result: PASSED**") == P
        assert await user("Vote here") == await user("[Vote here](http://ev.il)") == await user("tiny") == Q
        assert await user("# PASSED") == await user("PASSED") == await user("@PASSED") == R
