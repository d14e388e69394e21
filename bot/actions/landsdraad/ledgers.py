"""Transfers, audit quotes, perks, embargoes and kanly on Discord: the slash commands, and the DM forms
``Transfer: 500 MS to Bob``, ``Audit quote: Bob rounds 1-3`` and ``Elector: Count Jasek, round 3``.

Secrecy (R0-53, R0-72, rules-spec §1.2.9): transfers, quotes and Elector answers go only to whoever sent them;
each perk goes by DM to its holder only; nothing about perks reaches the game channel."""

from __future__ import annotations

import re
from typing import Any

from bot.actions.commands import App, Option, game_of_user, require_game, user_option
from bot.actions.context import Ctx, UserRef
from bot.actions.landsdraad.edited import edited
from bot.actions.landsdraad.ledger_render import (
    elector_text,
    perk_dm,
    perks_card,
    quote_text,
    registries_card,
    transfer_applied_dm,
    transfer_applied_text,
    transfer_list_card,
    transfer_notice,
    transfer_receipt,
    transfer_recorded_text,
    transit_card,
)
from bot.actions.landsdraad.ruleset import commands_on
from bot.actions.moderators import moderator_target
from bot.actions.outbox import INSTEAD, AnswerWith, Button, Outgoing, ToChannel, ToThread, ToUser, reply
from bot.actions.routes import Routes, first_line
from engine.core.errors import RuleError
from engine.core.text import split_game_tag as game_tag
from engine.landsdraad.motions import parse_rounds
from engine.landsdraad.transfers import (
    is_audit_quote,
    is_elector_query,
    is_transfer,
    parse_audit_quote,
    parse_elector_query,
    parse_transfer,
)
from engine.service.landsdraad.audits import TransferView
from engine.service.landsdraad.edits import Edited
from engine.service.landsdraad.perks import ElectorAnswer, PerksAwarded
from engine.service.landsdraad.transfer_moves import AppliedTransfer
from engine.service.views import GameView

ROUTES = Routes()
"""The commands and forms of this module (the package's ``ROUTES`` merges them)."""
command = commands_on(ROUTES)
dm_form = ROUTES.dm_form


def split_game_tag(text: str) -> tuple[str, str | None]:
    """``Transfer: 500 MS to Bob #sirius`` -> (``Transfer: 500 MS to Bob``, ``sirius``): the game named at the end
    of the first line, for players in several games."""
    return game_tag(first_line(text))


# -- DM forms -------------------------------------------------------------------------------------------------

@dm_form(is_transfer)
async def transfer_dm(app: App, ctx: Ctx, text: str) -> list[Outgoing]:
    body, named = split_game_tag(text)
    parsed = parse_transfer(body)
    game = await game_of_user(app, ctx.actor.id, named, "landsdraad", example=first_line(body)[:60])
    place = await moderator_target(app, game)
    # the receipt and the moderators' notice, owed in the transfer's transaction (play-test S4.5); a redelivery's
    # notice is not sent again (the moderators were told when it first came)
    answered: AnswerWith[TransferView] = AnswerWith(ctx.answering, lambda v: [
        reply(transfer_receipt(v)), *([] if v.duplicate else [moderators_notice(place, v, how="by DM")])])
    view = await app.clerk.landsdraad.audits.record_transfer(game.id, user_id=ctx.actor.id, command=parsed, at=ctx.at,
                                                             source_id=ctx.source_id, answer=answered.owed)
    return answered.out(view)


@dm_form(is_audit_quote)
async def audit_quote_dm(app: App, ctx: Ctx, text: str) -> list[Outgoing]:
    body, named = split_game_tag(text)
    request = parse_audit_quote(body)
    game = await game_of_user(app, ctx.actor.id, named, "landsdraad", example=first_line(body)[:60])
    q = await app.clerk.landsdraad.audits.audit_quote(game.id, target=request.target, rounds=request.rounds)
    return [reply(quote_text(q))]


@dm_form(is_elector_query)
async def elector_dm(app: App, ctx: Ctx, text: str) -> list[Outgoing]:
    body, named = split_game_tag(text)
    query = parse_elector_query(body)
    game = await game_of_user(app, ctx.actor.id, named, "landsdraad", example=first_line(body)[:60])
    answered: AnswerWith[ElectorAnswer] = AnswerWith(ctx.answering, lambda a: [reply(elector_text(a))])
    answer = await app.clerk.landsdraad.perks.elector_query(game.id, user_id=ctx.actor.id, query=query,
                                                            source_id=ctx.source_id, answer=answered.owed)
    return answered.out(answer)


# -- transfers ------------------------------------------------------------------------------------------------

@command("transfer record", "Record a Transfer or Transfer Funds action for a player.",
         Option("sender", UserRef, "the player who made the transfer", True),
         Option("to", UserRef, "the player who received it", True),
         Option("what", str, "what was transferred, e.g. 500 MS or Planet Deneb", True),
         Option("round", int, "the round (default: the current round)", min_value=1),
         Option("note", str, "a note for the moderators"),
         moderator=True)
async def transfer_record(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    place = await moderator_target(app, g)  # the notice, owed in the transfer's transaction
    answered: AnswerWith[TransferView] = AnswerWith(ctx.answering, lambda v: [
        reply(transfer_recorded_text(v), ephemeral=True),
        moderators_notice(place, v, how=f"recorded by {ctx.actor.name}")])
    view = await app.clerk.landsdraad.audits.record_transfer_for(
        g.id, sender_user=user_option(o, "sender").id, to_user=user_option(o, "to").id, what=o["what"],
        round_number=o.get("round"), note=o.get("note"), actor=ctx.actor.id, source_id=ctx.source_id,
        answer=answered.owed)
    return answered.out(view)


@command("transfer correct", "Correct a transfer entry with a new entry (the old one is kept).",
         Option("id", int, "the number of the entry to correct (/transfer list)", True, min_value=1),
         Option("note", str, "why it is corrected", True),
         Option("what", str, "what was really transferred, e.g. 500 MS"),
         Option("to", UserRef, "who really received it"),
         Option("round", int, "the round it really belongs to", min_value=1),
         Option("cancel", bool, "true if the transfer never happened"),
         moderator=True)
async def transfer_correct(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    """The correction, its notice to the moderators and what it changes in the closed results (issue 19), read in
    its transaction and owed in it (``edited``)."""
    g = require_game(game)
    to = o.get("to")

    def said(e: Edited[TransferView], place: ToChannel | ToThread) -> list[Outgoing]:
        return [reply(transfer_recorded_text(e.done), ephemeral=True),
                moderators_notice(place, e.done, how=f"by {ctx.actor.name}")]

    return await edited(app, ctx, g, lambda: app.clerk.landsdraad.audits.correct_transfer(
        g.id, entry_id=o["id"], note=o["note"], what=o.get("what"), to_user=to.id if isinstance(to, UserRef) else None,
        round_number=o.get("round"), cancel=bool(o.get("cancel")), actor=ctx.actor.id, source_id=ctx.source_id),
        said, majority=False, corrected_entry=lambda v: v.id)


@command("transfer list", "The round's transfers of every player, or one player's entries (moderators).",
         Option("player", UserRef, "only the transfers this player sent (all rounds unless round is given)"),
         Option("round", int, "only this round (without player: default the current round)", min_value=1),
         moderator=True, reads=True)
async def transfer_list(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    player = o.get("player")
    listing = await app.clerk.landsdraad.audits.transfers(g.id, user_id=player.id if isinstance(player, UserRef)
                                                          else None, round_number=o.get("round"))
    return [reply(card=transfer_list_card(listing), ephemeral=True)]


@command("transfer apply", "Apply a transfer of an Elector or planet: move it in the ledger (as its Apply button).",
         Option("id", int, "the number of the transfer (/transfer list)", True, min_value=1),
         moderator=True)
async def transfer_apply(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    return await apply_transfer(app, ctx, require_game(game).id, o["id"])


# -- the moderators' notice and its Apply button ----------------------------------------------------------------

APPLY_BUTTON = "clerk:xfer"


def apply_buttons(v: TransferView) -> tuple[Button, ...]:
    """``Apply``: its custom_id names the game, the entry, the holding and the two players' user ids, so a press
    after a restart works and a press after any of them changed is refused."""
    h = v.holding
    if h is None or not h.movable or v.from_user is None or v.to_user is None:
        return ()
    custom_id = f"{APPLY_BUTTON}:{v.game.id}:{v.id}:{h.id}:{v.from_user}:{v.to_user}"
    label = f"Apply: {h.name} to {v.recipient}"
    return (Button(label if len(label) <= 80 else "Apply", custom_id, "primary"),)


def moderators_notice(place: ToChannel | ToThread, view: TransferView, *, how: str) -> Outgoing:
    """The transfer for the moderators, in their private place ``place`` (``moderator_target``), with an Apply
    button when it moves an Elector or planet the sender holds. Never to the game channel (secrecy, R0-51: a
    transfer is published only by an audit)."""
    buttons = apply_buttons(view)
    instead = {INSTEAD: f"(Apply it with /transfer apply id:{view.id} in the game channel.)"} if buttons else {}
    return Outgoing(place, text=transfer_notice(view, how=how), buttons=buttons, extra=instead)


@ROUTES.button(APPLY_BUTTON)
async def apply_button(app: App, ctx: Ctx, custom_id: str) -> list[Outgoing]:
    """A moderator presses Apply under a transfer's notice."""
    parts = custom_id.split(":")
    if len(parts) != 7 or not all(p.isdigit() for p in parts[2:]):
        raise RuleError("This button is not one of Clerk's transfer offers.")
    game_id, entry, holding, giver, taker = (int(p) for p in parts[2:])
    return await apply_transfer(app, ctx, game_id, entry, expected=(holding, giver, taker))


async def apply_transfer(app: App, ctx: Ctx, game_id: int, entry: int, *,
                         expected: tuple[int, int, int] | None = None) -> list[Outgoing]:
    """Move the holding (a moderator only), then tell the moderators, and each player privately by DM, with the
    majority check: one transaction, which owes what it posts (``edited``)."""
    g = await app.clerk.games.game(game_id)
    if not ctx.actor.moderates(g.moderator_role_id):
        raise RuleError(f"Only the moderators of {g.name} can apply a transfer.")

    def said(e: Edited[AppliedTransfer], place: ToChannel | ToThread) -> list[Outgoing]:
        a = e.done
        text = transfer_applied_text(a, ctx.actor.name)
        return [reply(text, ephemeral=True), Outgoing(place, text=text),
                Outgoing(ToUser(a.sender_user), text=transfer_applied_dm(a, giver=True)),
                Outgoing(ToUser(a.recipient_user), text=transfer_applied_dm(a, giver=False))]

    return await edited(app, ctx, g, lambda: app.clerk.landsdraad.transfer_moves.apply_transfer(
        game_id, entry_id=entry, expected=expected, actor=ctx.actor.id, source_id=ctx.source_id), said)


# -- audits ---------------------------------------------------------------------------------------------------

@command("audit quote", "What an audit of a player would cost now (only you see the answer).",
         Option("player", UserRef, "the player to audit", True),
         Option("rounds", str, "earlier rounds to include, e.g. 2 or 1-3 (the current round is always included)"),
         Option("game", str, "the game, if you play in several", autocomplete="game"),
         game="any")  # not ``reads``: after the end no audit can be called, so it is refused (play-test W7)
async def audit_quote(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    spec = str(o.get("rounds") or "").strip()
    rounds = parse_rounds(spec, re.sub(r"^\s*rounds?\s*", "", spec, flags=re.IGNORECASE)) if spec else ()
    q = await app.clerk.landsdraad.audits.audit_quote(g.id, target=f"<@{user_option(o, 'player').id}>", rounds=rounds)
    return [reply(quote_text(q), ephemeral=True)]


# -- perks ----------------------------------------------------------------------------------------------------

@command("round auctions-closed", "The Auction Phases are over: assign this round's perks (told only to holders).",
         moderator=True)
async def auctions_closed(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    answered: AnswerWith[PerksAwarded] = AnswerWith(ctx.answering, lambda awarded: [  # the DMs owed in its transaction
        reply(card=perks_card(awarded), ephemeral=True),
        *(Outgoing(ToUser(grant.user_id), text=perk_dm(grant)) for grant in awarded.grants)])
    awarded = await app.clerk.landsdraad.perks.auctions_closed(g.id, actor=ctx.actor.id, source_id=ctx.source_id,
                                                               answer=answered.owed)
    return answered.out(awarded)


# -- embargoes and kanly --------------------------------------------------------------------------------------

@command("embargo add", "Record an embargo one player holds on another.",
         Option("by", UserRef, "the player who imposes it", True),
         Option("on", UserRef, "the embargoed player", True),
         moderator=True, public=True)
async def embargo_add(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    change = await app.clerk.landsdraad.registries.add_embargo(require_game(game).id, by_user=user_option(o, "by").id,
                                                               on_user=user_option(o, "on").id, actor=ctx.actor.id,
                                                               source_id=ctx.source_id)
    return [reply(change.text)]


@command("embargo remove", "Remove an embargo from the registry.",
         Option("by", UserRef, "the player who imposed it", True),
         Option("on", UserRef, "the embargoed player", True),
         moderator=True)
async def embargo_remove(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    change = await app.clerk.landsdraad.registries.remove_embargo(require_game(game).id,
                                                                  by_user=user_option(o, "by").id,
                                                                  on_user=user_option(o, "on").id, actor=ctx.actor.id,
                                                                  source_id=ctx.source_id)
    return [reply(change.text)]


@command("embargo list", "The embargoes in force.", reads=True, public=True)
async def embargo_list(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    registries = await app.clerk.landsdraad.registries.registries(require_game(game).id)
    return [reply(card=registries_card(registries, kanly=False))]


@command("kanly add", "Record kanly between two players.",
         Option("p", UserRef, "one player", True),
         Option("q", UserRef, "the other player", True),
         moderator=True, public=True)
async def kanly_add(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    change = await app.clerk.landsdraad.registries.add_kanly(require_game(game).id, p_user=user_option(o, "p").id,
                                                             q_user=user_option(o, "q").id,
                                                             actor=ctx.actor.id, source_id=ctx.source_id)
    return [reply(change.text)]


@command("kanly remove", "Remove kanly from the registry (no refund: that comes with an enacted End Kanly vote).",
         Option("p", UserRef, "one player", True),
         Option("q", UserRef, "the other player", True),
         moderator=True)
async def kanly_remove(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    change = await app.clerk.landsdraad.registries.remove_kanly(require_game(game).id, p_user=user_option(o, "p").id,
                                                                q_user=user_option(o, "q").id, actor=ctx.actor.id,
                                                                source_id=ctx.source_id)
    out = [reply(change.text)]
    if change.lines:
        out.append(reply("\n".join(change.lines), ephemeral=True))
    return out


@command("kanly transit", "Record forces or assassins sent against a kanly rival, with the Guild fee paid.",
         Option("owner", UserRef, "the player who sent them", True),
         Option("target", UserRef, "the kanly rival they are bound for", True),
         Option("fee", int, "the Guild transport fee paid, in MS", True, min_value=0),
         Option("what", str, "what is en route, e.g. 2 legions or an assassin (default: forces)"),
         moderator=True)
async def kanly_transit(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    change = await app.clerk.landsdraad.registries.add_transit(require_game(game).id,
                                                               owner_user=user_option(o, "owner").id,
                                                               target_user=user_option(o, "target").id, fee=o["fee"],
                                                               what=o.get("what"), actor=ctx.actor.id,
                                                               source_id=ctx.source_id)
    return [reply(change.text, ephemeral=True)]


@command("kanly arrived", "Forces en route have arrived (or are gone): they leave the transit list.",
         Option("id", int, "the number shown by /kanly list", True, min_value=1),
         moderator=True)
async def kanly_arrived(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    change = await app.clerk.landsdraad.registries.transit_arrived(require_game(game).id, transit_id=o["id"],
                                                                   actor=ctx.actor.id, source_id=ctx.source_id)
    return [reply(change.text, ephemeral=True)]


@command("kanly list", "Who is in kanly (moderators also see the forces en route, privately).", reads=True, public=True)
async def kanly_list(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    registries = await app.clerk.landsdraad.registries.registries(g.id)
    out = [reply(card=registries_card(registries, embargoes=False))]
    if ctx.actor.moderates(g.moderator_role_id):
        out.append(reply(card=transit_card(registries.kanly, g.name), ephemeral=True))
    return out
