"""A moderator enters a player's ballot (``/cast-for player choice [note]``): the player sent it by another channel
(email, a voice call, a DM to the moderator). ``choice`` is the text the player would have sent: it is read by the
same forms as the player's own DM or thread post (each ruleset's ``Routes``: thread forms marked ``proxy``, then the
DM forms, then the DM fallback), so each ruleset's forms, deadlines and refusals apply unchanged.

The events are recorded under the interaction's source id as entered by the moderator (``engine/service/proxy.py``:
actor the moderator, payload ``proxy: true``, ``proxy_for`` and the note). The moderator's receipt is ephemeral; the
player is told by DM what was recorded for them and by whom. Nothing public names a secret ballot: only what the
form itself posts (a tally, a count) is posted."""

from __future__ import annotations

import dataclasses
from typing import Any

from bot.actions.commands import App, Option, require_game
from bot.actions.context import Actor, Ctx, Place, UserRef
from bot.actions.outbox import Here, Outgoing, ToUser, answered_by_dm, owed_with, reply
from bot.actions.routes import Routes, first_line
from engine.core.errors import ParseError, RuleError
from engine.core.text import normalise, split_game_tag
from engine.service.proxy import Proxy, entered_by
from engine.service.views import GameView

ROUTES = Routes()
"""The shared ``/cast-for`` (``bot/actions/rulesets.py`` merges it)."""

NOTE_MAX = 200


@ROUTES.command("cast-for", "Enter a player's ballot they sent you another way (moderators; only you see it).",
                Option("player", UserRef, "the player the ballot is for", True),
                Option("choice", str, "what they would have DMed or posted, e.g. Vote: Aye, 14 or AG Vote: cat", True),
                Option("note", str, "how it reached you (kept in the log, and told to them)"),
                moderator=True)
async def cast_for(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    player = o["player"]
    assert isinstance(player, UserRef)
    choice = normalise(str(o["choice"])).strip()
    note = (o.get("note") or "").strip() or None
    if note is not None and len(note) > NOTE_MAX:
        raise RuleError(f"The note is {len(note)} characters; at most {NOTE_MAX}. Nothing was recorded.")
    if not choice:
        raise RuleError("Give the choice as the player would have written it, e.g. `Vote: Aye, 14`.")
    name = (await app.clerk.games.player_names(g.id)).get(player.id)
    if name is None:
        raise RuleError(f"{player.name} is not a player in {g.name}; nothing was recorded.")
    if player.id in await app.clerk.games.removed_users(g.id):  # the player's own refusal would say "you"
        raise RuleError(f"{name} was removed from {g.name}, so nothing can be entered for them; nothing was recorded. "
                        "`/player add` brings them back.")
    front = app.front(g.ruleset)
    final = front.final(choice) if front is not None else None  # play-test U3.1: no later form replaces it
    after = (f"{final} If that is not what you meant, tell the moderators." if final else
             "If that is not what you meant, DM me your own choice (it replaces this one where a choice can be "
             "changed) or tell the moderators.")

    def told_them(receipt: str) -> str:
        return (f"The moderator {ctx.actor.name} entered this for you in {g.name}: `{first_line(choice)}`"
                f"{f' (note: {note})' if note else ''}.\n{receipt}\n{after}")

    # what the form posts, and the DM telling the player what it answered, owed in the form's write's transaction
    answering = answered_by_dm(ctx.answering, player.id, told_them)
    as_player = Ctx(actor=Actor(player.id, name), place=Place(g.guild_id, g.channel_id), source_id=ctx.source_id,
                    at=ctx.at, answering=answering)
    with entered_by(ctx.source_id, Proxy(ctx.actor.id, player.id, note)):
        out = await _run_form(app, as_player, g, choice)
    told = [o.text or (o.card.title if o.card is not None else "") for o in out if isinstance(o.to, Here)]
    receipt = "\n".join(t for t in told if t)
    quoted = "\n".join(f"> {line}" for line in receipt.splitlines())  # their receipt says "your" (play-test T5.10)
    mine = [reply(f"Entered for **{name}** in {g.name} (`{first_line(choice)}`"
                  f"{f', note: {note}' if note else ''})." + (f" {name} is told:\n{quoted}" if quoted else "")
                  + (f"\n{final}" if final else ""), ephemeral=True)]
    owed = any(owed_with(answering, o) for o in out if isinstance(o.to, Here))
    theirs = [] if owed else [Outgoing(ToUser(player.id), text=told_them(receipt))]  # a refusal: told after it
    return [*mine, *theirs, *(o for o in out if not isinstance(o.to, Here))]


async def _run_form(app: App, ctx: Ctx, g: GameView, text: str) -> list[Outgoing]:
    """The player's text through the forms, as if posted in the game channel (thread forms that take proxies), else
    as if DMed (the game tag added, so it goes to this game whatever other games the player has)."""
    line = first_line(text)
    front = app.front(g.ruleset)
    others = {h for f in app.fronts if f is not front for _, h, _ in f.routes.thread_forms}  # another ruleset's
    for matches, handler, _ in app.routes.thread_forms:
        if handler not in app.routes.not_proxied and handler not in others and matches(line):
            try:
                return await handler(app, ctx, g, text)
            except ParseError:  # not that thread form after all (`Vote: maybe`): as a DM, a crisis ballot's error
                break
    head, tagged = split_game_tag(line)
    if tagged is not None and tagged.lower() != g.name.lower():
        raise RuleError(f"This is {g.name}'s channel; leave out the #{tagged}.")
    dm = dataclasses.replace(ctx, place=Place(None, None))
    several = len(await app.clerk.games.games_of_user(ctx.actor.id)) > 1
    tagged_text = f"{head} #{g.name}" + text[len(text.split(chr(10), 1)[0]):] if several else text
    for matches, dm_handler in app.routes.dm_forms:
        if matches(tagged_text):
            return await dm_handler(app, dm, tagged_text)
    if app.routes.fallback is not None and front is not None and front.routes.fallback is not None:
        return await app.routes.fallback(app, dm, tagged_text)  # the game's own ruleset reads what is left
    forms = "; ".join(f"`{example}`" for example, _ in front.dm_help) if front is not None else ""
    meant = front.dm_meant(text) if front is not None else None
    raise RuleError(f"I could not read `{line}` as anything a player of {g.name} sends"
                    + (f"; did you mean `{meant}`?" if meant else "")
                    + (f" Its forms: {forms}." if forms else "."))
