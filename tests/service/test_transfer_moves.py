"""Issue 16: a transfer of an Elector or planet the ledger knows can be applied, which moves it (``TransferApplied``),
recomputes the votes and is refused when it no longer fits; the moderators' place (``moderator_channel`` or a
private thread) and ``/transfer list`` of a whole round. Runs on SQLite, and on PostgreSQL when TEST_POSTGRES_URL is
set."""

from __future__ import annotations

from typing import Any

import pytest
from ledger_front import MODERATOR, actor, dm, dms, slash

from bot.actions.outbox import ToChannel, ToThread
from engine.core.errors import ClerkError, RuleError
from engine.landsdraad.transfers import holding_named, parse_transfer
from engine.service.landsdraad.audits import TransferView

ALICE, BOB, CAROL = 301, 302, 303
MOD = 1
HOLDINGS = [("planet", "Lankiveil"), ("elector", "Count Jasek"), ("planet", "Giedi Prime")]


@pytest.mark.parametrize(("item", "found"), [
    ("Lankiveil", 0), ("planet lankiveil", 0), ("the Planet  Lankiveil", 0), ("World Lankiveil", 0),
    ("Elector Count Jasek", 1), ("count jasek", 1), ("Giedi Prime", 2),
    ("Elector Lankiveil", None), ("Planet Count Jasek", None), ("Lankiveil and 300 MS", None), ("2 legions", None),
])
def test_which_holding_an_item_names(item: str, found: int | None) -> None:
    assert holding_named(item, HOLDINGS) == found


async def _game(table: Any) -> None:
    await table.player(ALICE, "alice", 3, 2, 2)
    await table.player(BOB, "bob", 2, 2, 2)
    await table.player(CAROL, "carol", 2, 2, 2)
    await table.planet(BOB, "Lankiveil", "rich")
    await table.planet(BOB, "Giedi Prime", "average", homeworld=True)
    await table.elector(BOB, "Count Jasek", "strong", 4)
    await table.open()


async def _transfer(table: Any, text: str, user_id: int = BOB) -> TransferView:
    view: TransferView = await table.clerk.landsdraad.audits.record_transfer(
        table.game_id, user_id=user_id, command=parse_transfer(text), at=table.clock.now(), source_id=table.source())
    return view


async def _votes(table: Any) -> dict[str, int]:
    return {p.name: p.votes for p in await table.clerk.landsdraad.ledger.players(table.game_id)}


async def _holder(table: Any, name: str) -> str:
    for p in await table.clerk.landsdraad.ledger.players(table.game_id):
        if any(h.name == name for h in p.holdings):
            return str(p.name)
    return "nobody"


async def test_applying_moves_the_planet_and_recomputes_the_votes(table: Any) -> None:
    await _game(table)
    view = await _transfer(table, "Transfer: Planet Lankiveil to alice")
    assert view.holding is not None and view.holding.movable and view.holding.name == "Lankiveil"
    assert (view.from_user, view.to_user) == (BOB, ALICE)
    before = await _votes(table)
    applied = await table.clerk.landsdraad.transfer_moves.apply_transfer(
        table.game_id, entry_id=view.id, expected=(view.holding.id, BOB, ALICE), actor=MOD, source_id="press-1")
    after = await _votes(table)
    assert await _holder(table, "Lankiveil") == "alice"
    assert (applied.sender_votes, applied.recipient_votes) == (after["bob"], after["alice"])
    assert after["bob"] < before["bob"] and after["alice"] > before["alice"]
    assert applied.in_play == sum(after.values()) and applied.round_open
    assert (await table.kinds())[-1] == "TransferApplied"
    payload = (await table.events())[-1].payload
    assert payload["holding"] == "Lankiveil" and payload["from_name"] == "bob" and payload["to_name"] == "alice"

    again = table.clerk.landsdraad.transfer_moves.apply_transfer(table.game_id, entry_id=view.id, actor=MOD,
                                                                 source_id="press-2")
    with pytest.raises(RuleError, match="already applied"):
        await again
    with pytest.raises(ClerkError, match="already done"):  # the same press delivered twice counts once
        await table.clerk.landsdraad.transfer_moves.apply_transfer(table.game_id, entry_id=view.id, actor=MOD,
                                                                   source_id="press-1")
    assert (await table.kinds()).count("TransferApplied") == 1

    later = await _transfer(table, "Transfer: Lankiveil to carol")  # bob no longer holds it
    assert later.holding is not None and not later.holding.movable and later.holding.holder == "alice"
    with pytest.raises(RuleError, match="bob no longer holds Lankiveil \\(alice holds it now\\)"):
        await table.clerk.landsdraad.transfer_moves.apply_transfer(table.game_id, entry_id=later.id, actor=MOD)


async def test_a_press_that_no_longer_fits_is_refused(table: Any) -> None:
    await _game(table)
    jasek = await _transfer(table, "Transfer: Elector Count Jasek to alice")
    assert jasek.holding is not None
    offer = (jasek.holding.id, BOB, ALICE)
    moves = table.clerk.landsdraad.transfer_moves
    with pytest.raises(RuleError, match="does not match"):
        await moves.apply_transfer(table.game_id, entry_id=jasek.id, expected=(jasek.holding.id, BOB, CAROL),
                                   actor=MOD)
    fixed = await table.clerk.landsdraad.audits.correct_transfer(table.game_id, entry_id=jasek.id, note="to carol",
                                                                 to_user=CAROL, actor=MOD)
    with pytest.raises(RuleError, match=f"corrected by #{fixed.id}"):
        await moves.apply_transfer(table.game_id, entry_id=jasek.id, expected=offer, actor=MOD)
    assert fixed.holding is not None and fixed.holding.movable
    await moves.apply_transfer(table.game_id, entry_id=fixed.id, expected=(fixed.holding.id, BOB, CAROL), actor=MOD)
    assert await _holder(table, "Count Jasek") == "carol"

    home = await _transfer(table, "Transfer: Giedi Prime to alice")
    assert home.holding is not None and home.holding.homeworld and not home.holding.movable
    with pytest.raises(RuleError, match="Homeworld"):
        await moves.apply_transfer(table.game_id, entry_id=home.id, actor=MOD)
    money = await _transfer(table, "Transfer: 500 MS to alice")
    assert money.holding is None
    with pytest.raises(RuleError, match="moves nothing the ledger holds \\(500 MS\\)"):
        await moves.apply_transfer(table.game_id, entry_id=money.id, actor=MOD)
    legions = await _transfer(table, "Transfer: 2 legions to alice")
    with pytest.raises(RuleError, match="names no Elector or planet"):
        await moves.apply_transfer(table.game_id, entry_id=legions.id, actor=MOD)

    gone = await _transfer(table, "Transfer: Lankiveil to alice")
    assert gone.holding is not None
    await table.clerk.landsdraad.ledger.remove_holding(table.game_id, user_id=BOB, name="Lankiveil", actor=MOD)
    with pytest.raises(RuleError, match="no longer in the ledger"):
        await moves.apply_transfer(table.game_id, entry_id=gone.id, expected=(gone.holding.id, BOB, ALICE), actor=MOD)
    assert await _holder(table, "Lankiveil") == "nobody"


async def test_the_moderators_place_and_the_front(table: Any) -> None:
    await _game(table)
    c = table.clerk
    out = await dm(c, actor(BOB, "bob"), "Transfer: Planet Lankiveil to alice")
    [notice] = out[1:]
    assert notice.to == ToThread(table.game.channel_id, "sirius moderators", table.game.id, private=True,
                                 members=(MOD,))
    assert "**bob** → **alice**: Planet Lankiveil" in notice.text and "round 1 of sirius" in notice.text
    [button] = notice.buttons
    assert button.custom_id == f"clerk:xfer:{table.game.id}:1:{notice_holding(notice)}:{BOB}:{ALICE}"

    refused = await slash(c, actor(BOB, "bob"), "game settings", moderator_channel=777)
    assert "Only the moderators" in refused[0].text
    [bad] = await slash(c, MODERATOR, "game settings", moderator_channel=table.game.channel_id)
    assert "must be a private one, not the game channel" in bad.text
    [ok] = await slash(c, MODERATOR, "game settings", moderator_channel=777)
    assert ok.ephemeral and "now goes to <#777>" in ok.text
    out = await dm(c, actor(BOB, "bob"), "Transfer: 200 MS to carol")
    assert [o.to for o in out[1:]] == [ToChannel(777, moderators_of=table.game.id)] and out[1].buttons == ()
    assert "Money is not kept in the ledger: recorded only." in out[1].text
    [shown] = await slash(c, MODERATOR, "game settings")
    assert "**moderator_channel** = <#777>" in shown.text
    [back] = await slash(c, MODERATOR, "game settings", setting="moderator_channel", value="none")
    assert "a private thread “sirius moderators”" in back.text
    assert await c.settings.moderator_channel(table.game_id) is None

    applied = await c.landsdraad.transfer_moves.apply_transfer(table.game_id, entry_id=1, actor=MOD)
    assert applied.holding == "Lankiveil"
    press = await slash(c, MODERATOR, "transfer apply", id=1)
    assert "already applied" in press[0].text
    [listing] = await slash(c, MODERATOR, "transfer list")
    assert listing.card is not None and listing.card.title == "Transfers of every player in round 1 (sirius)"
    assert listing.card.description.splitlines() == [
        f"bob: #1 · round 1: Planet Lankiveil to alice ({notice_time(notice)}) · applied",
        f"bob: #2 · round 1: 200 MS to carol ({notice_time(notice)})"]


async def test_apply_from_the_front_tells_both_players_only_their_own_votes(table: Any) -> None:
    await _game(table)
    c = table.clerk
    out = await dm(c, actor(BOB, "bob"), "Transfer: Count Jasek to alice")
    [refused] = await slash(c, actor(ALICE, "alice"), "transfer apply", id=1)
    assert "Only the moderators" in refused.text
    done = await slash(c, MODERATOR, "transfer apply", id=1)
    votes = await _votes(table)
    told = dms(done)
    assert set(told) == {BOB, ALICE}
    assert told[BOB].endswith(f"You now control {votes['bob']} votes.") and str(votes["alice"]) not in told[BOB]
    assert told[ALICE].endswith(f"You now control {votes['alice']} votes.")
    assert [o.to for o in done if isinstance(o.to, ToThread)] == [out[1].to]  # the moderators read it too
    assert not [o for o in done if isinstance(o.to, ToChannel)]  # nothing public
    assert await c.games.known_moderators(table.game_id) == (MOD,)


def notice_holding(notice: Any) -> str:
    return str(notice.buttons[0].custom_id.split(":")[4])


def notice_time(notice: Any) -> str:
    return str(notice.text.split("(by DM, ")[1].split(")")[0])
